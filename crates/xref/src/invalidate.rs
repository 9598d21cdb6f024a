//! Which names an edit of declarations can re-bind: the rule that lets the reference index
//! drop only the files that mention them.
//!
//! A file's references depend on its own text and on the declarations its identifiers lead
//! to. A reference is found through a name the file spells (a type, a member, a package
//! segment), and through the types of what it names (a receiver's type and its supertypes,
//! a return type). So when declarations change, a file can bind differently only if it
//! mentions:
//! - a type that was added, removed, or whose header changed (kind, modifiers, type
//!   parameters, supertypes), or a subtype of such a type (its inherited members moved);
//! - a member (field, method, constructor through its type's name, member type) that was
//!   added, removed or changed in its type or parameters;
//! - any member of such a header-changed type or of its supertypes, old or new (what it
//!   inherits changed).
//!
//! Lines are not part of it: no binding depends on where a declaration is. Imports are
//! file-local: they change only their own file's bindings, which is bound again anyway.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use crate::decls::{FieldSym, FileDecls, MethodSym, TypeSym};
use crate::ty::Ty;
use crate::world::{TypeId, World};

/// The type's header: what it is, apart from its members, the indexes of its member and
/// outer types in their file, and its lines (any other field added to `TypeSym` counts).
fn same_header(a: &TypeSym, b: &TypeSym) -> bool {
    let header = |t: &TypeSym| TypeSym {
        outer: t.outer.map(|_| 0),
        fields: Vec::new(),
        methods: Vec::new(),
        ctors: Vec::new(),
        members: Vec::new(),
        start_line: 0,
        end_line: 0,
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

/// Names of the members declared by a type (its constructors by the type's own name).
fn member_names(t: &TypeSym, out: &mut HashSet<Box<str>>) {
    out.insert(t.simple.clone());
    out.extend(t.fields.iter().map(|f| f.name.clone()));
    out.extend(t.methods.iter().map(|m| m.name.clone()));
}

/// The names whose bindings may differ between `old` and `new`, given the files whose
/// declarations changed (added, removed or edited; a file's own bindings are redone anyway).
pub(crate) fn affected_names(old: &World, new: &World, changed: &[Arc<Path>]) -> HashSet<Box<str>> {
    let decls_in = |w: &World, p: &Path| -> Option<Arc<FileDecls>> {
        let i = w.files.binary_search_by(|f| (*f.path).cmp(p)).ok()?;
        Some(w.files[i].decls.clone())
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
                    // Members that differ, by name.
                    let fa: Vec<_> = x.fields.iter().map(field_shape).collect();
                    let fb: Vec<_> = y.fields.iter().map(field_shape).collect();
                    for f in x.fields.iter().chain(&y.fields) {
                        let s = field_shape(f);
                        if !fa.contains(&s) || !fb.contains(&s) {
                            names.insert(f.name.clone());
                        }
                    }
                    let ma: Vec<_> = x.methods.iter().map(method_shape).collect();
                    let mb: Vec<_> = y.methods.iter().map(method_shape).collect();
                    for m in x.methods.iter().chain(&y.methods) {
                        let s = method_shape(m);
                        if !ma.contains(&s) || !mb.contains(&s) {
                            names.insert(m.name.clone());
                        }
                    }
                    let ca: Vec<_> = x.ctors.iter().map(method_shape).collect();
                    let cb: Vec<_> = y.ctors.iter().map(method_shape).collect();
                    if ca.len() != cb.len() || ca.iter().any(|c| !cb.contains(c)) {
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
            inherited_and_subtypes(w, &reshaped, &mut names);
        }
    }
    names
}

/// Adds the member names of every supertype of a reshaped type, and the names of every type
/// that has a reshaped type among its supertypes (and their members' names).
fn inherited_and_subtypes(w: &World, reshaped: &HashSet<Box<str>>, names: &mut HashSet<Box<str>>) {
    let id_of = |t: &Ty| -> Option<TypeId> {
        match t {
            Ty::Class(fqn, _) => w.by_fqn(fqn),
            _ => None,
        }
    };
    // Supertypes of the reshaped types, transitively (JDK ones too).
    let mut seen: HashSet<TypeId> = HashSet::new();
    let mut stack: Vec<TypeId> = reshaped.iter().filter_map(|f| w.by_fqn(f)).collect();
    let mut steps = 0;
    while let Some(id) = stack.pop() {
        steps += 1;
        if !seen.insert(id) || steps > 1_000_000 {
            continue;
        }
        member_names(w.decl(id), names);
        stack.extend(w.supers(id).iter().filter_map(id_of));
    }
    // Workspace types below a reshaped one: memoized walk up each type's supertypes.
    let mut below: HashMap<TypeId, bool> = HashMap::new();
    for id in w.all_types() {
        if reaches(w, id, reshaped, &mut below, 0) {
            member_names(w.decl(id), names);
        }
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
    fn a_supertype_changed_touches_the_type_its_members_what_it_inherits_and_its_subtypes() {
        let sub2 = "package a; public class Sub extends java.util.ArrayList<String> { public void own() { } }";
        let got = names(
            &[("Base.java", BASE), ("Sub.java", SUB), ("Leaf.java", LEAF)],
            &[("Base.java", BASE), ("Sub.java", sub2), ("Leaf.java", LEAF)],
            &["Sub.java"],
        );
        for n in ["Sub", "own", "Leaf", "Base", "f", "m", "add", "size", "toString"] {
            assert!(got.iter().any(|g| g == n), "{n} in {got:?}");
        }
    }

    #[test]
    fn a_type_removed_touches_its_names_and_its_subtypes() {
        let got = names(&[("Base.java", BASE), ("Sub.java", SUB)], &[("Sub.java", SUB)], &["Base.java"]);
        for n in ["Base", "f", "m", "Sub", "own"] {
            assert!(got.iter().any(|g| g == n), "{n} in {got:?}");
        }
    }
}
