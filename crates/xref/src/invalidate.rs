//! Which names an edit of declarations can re-bind: the rule that lets the reference index
//! drop only the files that mention them.
//!
//! A file's references depend on its own text and on the declarations its identifiers lead
//! to: a name it spells (a type, a member, a package segment), or the type of something it
//! names — a variable declared in the file (whose type it spells), or a member declared
//! elsewhere (whose name it spells) — and that type's members and supertypes. So when
//! declarations change, a file can bind differently only if it mentions:
//! - a field or method that was added, removed or changed (type, parameters, modifiers) —
//!   or, for a constructor, its type's name;
//! - a type that came or went, or whose header changed (kind, modifiers, type parameters,
//!   supertypes), or a subtype of one (what it inherits moved) — call these *reshaped* —, or
//!   one of their members;
//! - a member anywhere whose declared types (field type, return type, parameter types and
//!   bounds) name a reshaped type: an expression of a reshaped type that the file does not
//!   spell comes from such a member, whose name it does spell.
//!
//! Lines are not part of it: no binding depends on where a declaration is. Imports are
//! file-local: they change only their own file's bindings, which is bound again anyway.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use crate::decls::{FieldSym, FileDecls, MethodSym, TypeSym};
use crate::ty::{Ty, TyText};
use crate::world::{TypeId, World};

/// The type's header: what it is, apart from its members, the indexes of its member and
/// outer types in their file, and its lines (any other field added to `TypeSym` counts).
pub(crate) fn same_header(a: &TypeSym, b: &TypeSym) -> bool {
    let header = |t: &TypeSym| TypeSym {
        outer: t.outer.map(|_| 0),
        fields: Vec::new(),
        methods: Vec::new(),
        ctors: Vec::new(),
        members: Vec::new(),
        start_line: 0,
        end_line: 0,
        delegates: t.delegates.iter().map(|d| crate::decls::DelegateSym { line: 0, ..d.clone() }).collect(),
        ..t.clone()
    };
    header(a) == header(b)
}

/// A field as binding sees it: everything but its line (a field added to `FieldSym` counts
/// by default).
fn field_shape(f: &FieldSym) -> FieldSym {
    FieldSym { line: 0, ..f.clone() }
}

/// A method as binding sees it: everything but its line.
fn method_shape(m: &MethodSym) -> MethodSym {
    MethodSym { line: 0, ..m.clone() }
}

/// The members that one side has and the other has not, compared by `shape`.
fn differing<'m, T, S: PartialEq>(a: &'m [T], b: &'m [T], shape: fn(&T) -> S) -> impl Iterator<Item = &'m T> {
    let (sa, sb): (Vec<S>, Vec<S>) = (a.iter().map(shape).collect(), b.iter().map(shape).collect());
    let only_a: Vec<&T> = a.iter().zip(&sa).filter(|(_, s)| !sb.contains(s)).map(|(m, _)| m).collect();
    let only_b: Vec<&T> = b.iter().zip(&sb).filter(|(_, s)| !sa.contains(s)).map(|(m, _)| m).collect();
    only_a.into_iter().chain(only_b)
}

/// Names of the members declared by a type (its constructors by the type's own name).
fn member_names(t: &TypeSym, out: &mut HashSet<Box<str>>) {
    out.insert(t.simple.clone());
    out.extend(t.fields.iter().map(|f| f.name.as_str().into()));
    out.extend(t.methods.iter().map(|m| m.name.as_str().into()));
}

/// The names whose bindings may differ between `old` and `new`, given the files whose
/// declarations changed (added, removed or edited; a file's own bindings are redone anyway).
pub(crate) fn affected_names(old: &World, new: &World, changed: &[Arc<Path>]) -> HashSet<Box<str>> {
    let decls_in = |w: &World, p: &Path| -> Option<Arc<FileDecls>> {
        let i = w.files.binary_search_by(|f| (*f.path).cmp(p)).ok()?;
        Some(w.files[i].decls().clone())
    };
    let mut names: HashSet<Box<str>> = HashSet::new();
    // Types whose header changed, or that came or went: their qualified names.
    let mut reshaped: HashSet<Box<str>> = HashSet::new();
    for p in changed {
        let (a, b) = (decls_in(old, p), decls_in(new, p));
        let types = |d: &Option<Arc<FileDecls>>| -> HashMap<Box<str>, TypeSym> {
            d.iter().flat_map(|d| d.types.iter()).map(|t| (t.fqn.clone(), t.clone())).collect()
        };
        let (ta, tb) = (types(&a), types(&b));
        for (fqn, t) in ta.iter().chain(tb.iter()) {
            match (ta.get(fqn), tb.get(fqn)) {
                (Some(x), Some(y)) if same_header(x, y) => {
                    // Members that differ, by name (a constructor by its type's).
                    names.extend(differing(&x.fields, &y.fields, field_shape).map(|f| f.name.as_str().into()));
                    names.extend(differing(&x.methods, &y.methods, method_shape).map(|m| m.name.as_str().into()));
                    if differing(&x.ctors, &y.ctors, method_shape).next().is_some() {
                        names.insert(t.simple.clone());
                    }
                }
                _ => {
                    reshaped.insert(fqn.clone());
                    member_names(t, &mut names);
                }
            }
        }
    }
    if !reshaped.is_empty() {
        for w in [old, new] {
            reshaped_and_users(w, &reshaped, &mut names);
        }
    }
    names
}

/// Adds, for the reshaped types and every workspace type below one of them: their names and
/// their members' names, and the names of the members anywhere whose declared types name one
/// of them (by simple name, so a superset).
fn reshaped_and_users(w: &World, reshaped: &HashSet<Box<str>>, names: &mut HashSet<Box<str>>) {
    let mut simple: HashSet<Box<str>> = reshaped.iter().map(|f| f.rsplit('.').next().unwrap_or(f).into()).collect();
    let mut below: HashMap<TypeId, bool> = HashMap::new();
    for id in w.all_types() {
        if reaches(w, id, reshaped, &mut below, 0) {
            let t = w.decl(id);
            simple.insert(t.simple.clone());
            member_names(t, names);
            // Lombok's `@Delegate` methods are members too (a delegate added or removed).
            names.extend(w.delegated_methods(id).iter().map(|m| m.name.as_str().into()));
        }
    }
    names.extend(simple.iter().cloned());
    let names_one = |ty: &TyText| mentions(ty, &simple, 0);
    for id in w.all_types() {
        let t = w.decl(id);
        let bounds = |tps: &[crate::decls::TParam]| tps.iter().flat_map(|p| &p.bounds).any(names_one);
        for f in &t.fields {
            if names_one(&f.ty) {
                names.insert(f.name.as_str().into());
            }
        }
        for m in &t.methods {
            if names_one(&m.ret) || m.params.iter().any(names_one) || bounds(&m.tparams) {
                names.insert(m.name.as_str().into());
            }
        }
        if t.ctors.iter().any(|c| c.params.iter().any(names_one) || bounds(&c.tparams)) {
            names.insert(t.simple.clone());
        }
        // A `@Delegate` whose type names one: what it delegates may have changed.
        if t.delegates.iter().any(|d| names_one(&d.ty) || d.types.iter().chain(&d.excludes).any(names_one)) {
            names.extend(w.delegated_methods(id).iter().map(|m| m.name.as_str().into()));
        }
    }
}

/// Whether a written type names one of `simple` (any segment of a dotted name, or a type
/// argument).
fn mentions(ty: &TyText, simple: &HashSet<Box<str>>, depth: u32) -> bool {
    if depth > crate::ty::MAX_TYPE_NESTING {
        return true; // never deeper than read; say yes rather than miss
    }
    match ty {
        TyText::Named { name, args } => {
            name.split('.').any(|seg| simple.contains(seg)) || args.iter().any(|a| mentions(a, simple, depth + 1))
        }
        TyText::Array(inner, _) => mentions(inner, simple, depth + 1),
        TyText::Prim(_) | TyText::Unknown => false,
    }
}

fn reaches(w: &World, id: TypeId, reshaped: &HashSet<Box<str>>, memo: &mut HashMap<TypeId, bool>, depth: u32) -> bool {
    if let Some(b) = memo.get(&id) {
        return *b;
    }
    if depth > 256 || !w.is_workspace(id) {
        return false; // a JDK type extends no workspace type; a cycle or absurd depth ends here
    }
    memo.insert(id, false);
    let hit = reshaped.contains(&w.decl(id).fqn)
        || w.supers(id).iter().any(|t| match t {
            Ty::Class(fqn, _) => {
                reshaped.contains(fqn) || w.by_fqn(fqn).is_some_and(|s| reaches(w, s, reshaped, memo, depth + 1))
            }
            _ => false,
        });
    memo.insert(id, hit);
    hit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decls::file_decls;

    fn world(files: &[(&str, &str)]) -> World {
        let mut list: Vec<(Arc<Path>, Arc<FileDecls>)> =
            files.iter().map(|(p, src)| (Arc::from(Path::new(p)), Arc::new(file_decls(src.as_bytes())))).collect();
        list.sort_by(|a, b| a.0.cmp(&b.0));
        World::new(list)
    }

    fn names(before: &[(&str, &str)], after: &[(&str, &str)], changed: &[&str]) -> Vec<String> {
        let changed: Vec<Arc<Path>> = changed.iter().map(|p| Arc::from(Path::new(p))).collect();
        let mut v: Vec<String> =
            affected_names(&world(before), &world(after), &changed).into_iter().map(String::from).collect();
        v.sort();
        v
    }

    const BASE: &str = "package a; public class Base { public int f; public void m(int x) { } }";
    const SUB: &str = "package a; public class Sub extends Base { public void own() { } }";
    const LEAF: &str = "package a; public class Leaf extends Sub { }";

    /// Lombok's `@Delegate` added: the names of the methods it delegates are touched (their
    /// calls may bind to them now, without naming the delegating type); a delegate's type
    /// reshaped touches the names its delegating type delegates.
    #[test]
    fn a_delegate_added_or_its_type_reshaped_touches_the_delegated_names() {
        let dep = "package a; public interface Dep { String fetch(); }";
        let holder = "package a; public class Holder { private Dep dep; }";
        let with = "package a; import lombok.experimental.Delegate; public class Holder { @Delegate private Dep dep; }";
        let got = names(
            &[("Dep.java", dep), ("Holder.java", holder)],
            &[("Dep.java", dep), ("Holder.java", with)],
            &["Holder.java"],
        );
        assert!(got.iter().any(|g| g == "fetch"), "{got:?}");
        let dep2 = "package a; public interface Dep extends Runnable { String fetch(); }";
        let got = names(
            &[("Dep.java", dep), ("Holder.java", with)],
            &[("Dep.java", dep2), ("Holder.java", with)],
            &["Dep.java"],
        );
        assert!(got.iter().any(|g| g == "run"), "{got:?}");
    }

    #[test]
    fn a_member_added_touches_its_name_only() {
        let after = "package a; public class Base { public int f; public void m(int x) { } public void m(long x) { } }";
        let got = names(
            &[("Base.java", BASE), ("Sub.java", SUB)],
            &[("Base.java", after), ("Sub.java", SUB)],
            &["Base.java"],
        );
        assert_eq!(got, ["m"]);
    }

    #[test]
    fn a_field_retyped_touches_its_name_and_a_constructor_the_type_name() {
        let after = "package a; public class Base { public long f; public Base(int x) { } public void m(int x) { } }";
        let got = names(&[("Base.java", BASE)], &[("Base.java", after)], &["Base.java"]);
        assert_eq!(got, ["Base", "f"]);
    }

    #[test]
    fn a_body_or_line_edit_touches_nothing() {
        let after = "package a;\n\npublic class Base {\n public int f;\n public void m(int x) { f = x; }\n}";
        assert!(names(&[("Base.java", BASE)], &[("Base.java", after)], &["Base.java"]).is_empty());
    }

    #[test]
    fn a_supertype_changed_touches_the_type_and_its_subtypes_not_what_they_inherit() {
        let sub2 = "package a; public class Sub extends java.util.ArrayList<String> { public void own() { } }";
        let got = names(
            &[("Base.java", BASE), ("Sub.java", SUB), ("Leaf.java", LEAF)],
            &[("Base.java", BASE), ("Sub.java", sub2), ("Leaf.java", LEAF)],
            &["Sub.java"],
        );
        for n in ["Sub", "own", "Leaf"] {
            assert!(got.iter().any(|g| g == n), "{n} in {got:?}");
        }
        // What Sub inherits is reached through Sub, Leaf or a member typed by them.
        for n in ["Base", "toString", "size"] {
            assert!(!got.iter().any(|g| g == n), "{n} not in {got:?}");
        }
    }

    #[test]
    fn members_typed_by_a_reshaped_type_are_touched() {
        let user = "package a; public class User { public Sub make() { return null; } public java.util.List<Leaf> leaves; public void take(Base b) { } }";
        let sub2 = "package a; public class Sub { public void own() { } }";
        let got = names(
            &[("Base.java", BASE), ("Sub.java", SUB), ("Leaf.java", LEAF), ("User.java", user)],
            &[("Base.java", BASE), ("Sub.java", sub2), ("Leaf.java", LEAF), ("User.java", user)],
            &["Sub.java"],
        );
        for n in ["make", "leaves"] {
            assert!(got.iter().any(|g| g == n), "{n} in {got:?}");
        }
        assert!(!got.iter().any(|g| g == "take"), "take(Base) names no reshaped type: {got:?}");
    }

    #[test]
    fn a_type_removed_touches_its_names_and_its_subtypes() {
        let got = names(&[("Base.java", BASE), ("Sub.java", SUB)], &[("Sub.java", SUB)], &["Base.java"]);
        for n in ["Base", "f", "m", "Sub", "own"] {
            assert!(got.iter().any(|g| g == n), "{n} in {got:?}");
        }
    }
}
