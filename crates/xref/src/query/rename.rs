//! The semantic half of a rename: which declarations move together (a method and every
//! method it overrides or is overridden by, in the workspace), and what the new name would
//! clash with or change — decided on the world, before any text is touched.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

use crate::Category;
use crate::query::target::{Target, add_overriders};
use crate::ty::Ty;
use crate::world::{TypeId, World};

/// The most methods one rename family holds (a bound on the closure's work).
const MAX_FAMILY: usize = 10_000;

/// Methods the compiler calls in code it writes itself (a for-each loop, try-with-resources,
/// boxing, a switch on a string or an enum, an enum's `valueOf`, assertions): renaming one
/// breaks code that never names it, so a family that holds one is refused (it is reached only
/// when the JDK's own sources are the workspace).
fn used_by_the_language(key: &str) -> bool {
    const KEYS: &[&str] = &[
        "java.lang.Iterable#iterator()",
        "java.util.Iterator#hasNext()",
        "java.util.Iterator#next()",
        "java.lang.AutoCloseable#close()",
        "java.lang.Throwable#addSuppressed(java.lang.Throwable)",
        "java.lang.Object#hashCode()",
        "java.lang.Object#equals(java.lang.Object)",
        "java.lang.Enum#ordinal()",
        "java.lang.Enum#valueOf(java.lang.Class,java.lang.String)",
        "java.lang.Class#desiredAssertionStatus()",
        "java.util.Objects#requireNonNull(java.lang.Object)",
    ];
    /// Bootstrap methods of lambdas, string concatenation, records and pattern switches.
    const OWNERS: &[&str] = &[
        "java.lang.invoke.LambdaMetafactory",
        "java.lang.invoke.StringConcatFactory",
        "java.lang.runtime.ObjectMethods",
        "java.lang.runtime.SwitchBootstraps",
    ];
    const BOXES: &[(&str, &str)] = &[
        ("Boolean", "boolean"),
        ("Byte", "byte"),
        ("Character", "char"),
        ("Short", "short"),
        ("Integer", "int"),
        ("Long", "long"),
        ("Float", "float"),
        ("Double", "double"),
    ];
    let owner = key.split_once('#').map_or(key, |x| x.0);
    KEYS.contains(&key)
        || OWNERS.contains(&owner)
        || BOXES.iter().any(|(b, p)| {
            owner.strip_prefix("java.lang.") == Some(*b)
                && (key.ends_with(&format!("#valueOf({p})")) || key.ends_with(&format!("#{p}Value()")))
        })
}

/// A declaration a rename changes: its file, line, and what it declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclSite {
    pub path: Arc<Path>,
    pub line: u32,
    pub category: Category,
}

/// What a rename changes: the keys whose references are renamed (the target's, plus the
/// whole override family of a method) and their declarations in the workspace.
#[derive(Debug, Clone)]
pub struct Family {
    pub target: Target,
    pub decls: Vec<DeclSite>,
    /// Said in the answer; they do not block the rename.
    pub warnings: Vec<String>,
}

pub(crate) fn owner_and_method<'w>(w: &'w World, key: &str) -> Option<(TypeId, &'w crate::decls::MethodSym)> {
    let (owner, _) = key.split_once('#')?;
    let id = w.by_fqn(owner)?;
    let m = w.decl(id).methods.iter().chain(w.delegated_methods(id)).find(|m| w.method_key(id, m) == key)?;
    Some((id, m))
}

/// The line of the annotation or field a member Lombok generates is made by, when `key` names
/// one (a method, constructor or field): such a member has no declaration to edit.
pub fn generated_at(w: &World, key: &str) -> Option<u32> {
    let (owner, member) = key.split_once('#')?;
    let id = w.by_fqn(owner)?;
    let d = w.decl(id);
    if member.contains('(') {
        d.methods
            .iter()
            .chain(&d.ctors)
            .chain(w.delegated_methods(id))
            .find(|m| m.generated && w.method_key(id, m) == key)
            .map(|m| m.line)
    } else {
        d.fields.iter().find(|f| f.generated && &*f.name == member).map(|f| f.line)
    }
}

/// One member Lombok generates from a renamed field, renamed with it: its target (its calls
/// are its references), its name and the name it takes (`getName` → `getFullName`).
#[derive(Debug, Clone)]
pub struct AccessorRename {
    pub target: Target,
    pub old: String,
    pub new: String,
}

/// What a rename of the field `field_key` to `new` does to the members Lombok generates from it:
/// each accessor, `withX` and builder method renamed the way Lombok names them for the new
/// field (as `delombok` of the renamed source would), refused with the reason when one of them
/// would no longer be generated while something calls it (a written method takes the new name:
/// those calls would call it; a configured prefix no longer matches: they would break).
pub fn lombok_renames(
    w: &World,
    config: &dyn Fn(&std::path::Path) -> std::sync::Arc<mji_parser::lombok::Config>,
    field_key: &str,
    new: &str,
) -> Result<Vec<AccessorRename>, String> {
    let accessors = crate::accessors::lombok_accessors(w, config, field_key, Some(new))?;
    let mut out = Vec::new();
    for a in accessors {
        match a.new_name {
            Some(n) => {
                let target = Target {
                    label: a.key.clone(),
                    category: Category::Method,
                    keys: vec![a.key.clone()],
                    names: vec![a.name.clone()],
                    decls: Vec::new(),
                    overriders: HashMap::new(),
                    undeclared: false,
                };
                if n != a.name {
                    out.push(AccessorRename { target, old: a.name, new: n });
                }
            }
            None => {
                return Err(format!(
                    "renaming {field_key} to {new}: Lombok would no longer generate {} (a method written in the type takes \
                     its new name, or the field's new name does not fit its @Accessors prefix), so its calls would break or \
                     call another method; rename or remove that method first, or choose another name",
                    a.key
                ));
            }
        }
    }
    Ok(out)
}

/// Why a generated member is not renamed: it has no declaration in the source. In a Kotlin
/// file, what Java sees of a declaration Kotlin writes under another name (a property's
/// accessors, an `object`'s `INSTANCE`).
fn generated_refusal(w: &World, owner: TypeId, key: &str, line: u32) -> String {
    let path = decl_path(w, owner);
    if crate::kotlin::is_kotlin(&path) {
        let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        return format!(
            "{key} is what Java sees of the Kotlin declaration at line {line} of {file} (a property's accessor, an \
             object's INSTANCE), which Kotlin writes under another name: renaming it across Java and Kotlin is not \
             supported; rename the Kotlin declaration and its Java callers by hand"
        );
    }
    format!(
        "{key} is generated by Lombok from the annotation or field at line {line}: it has no declaration to rename; \
         rename the field or change the annotation instead"
    )
}

fn decl_path(w: &World, id: TypeId) -> Arc<Path> {
    w.files[w.file_of(id) as usize].path.clone()
}

/// The declarations and keys a rename of `t` changes. A method brings every workspace method
/// it overrides and that overrides it (transitively: a rename must keep overriding intact);
/// a method that overrides one outside the workspace (the JDK's, a library's) cannot be
/// renamed, and the error names it.
pub fn rename_family(w: &World, t: &Target) -> Result<Family, String> {
    let mut warnings = Vec::new();
    match t.category {
        Category::Method => {}
        Category::Type => {
            let Some(id) = t.keys.first().and_then(|k| w.by_fqn(k)).filter(|id| w.is_workspace(*id)) else {
                return Err(format!("{} is not declared in the workspace; only workspace code is renamed", t.label));
            };
            let d = w.decl(id);
            let path = decl_path(w, id);
            let mut decls = vec![DeclSite { path: path.clone(), line: d.start_line, category: Category::Type }];
            decls.extend(d.ctors.iter().filter(|c| !c.implicit).map(|c| DeclSite {
                path: path.clone(),
                line: c.line,
                category: Category::Ctor,
            }));
            let mut target = t.clone();
            // `new T(…)` and `T::new` are references to the constructors, named by the type.
            for c in &d.ctors {
                target.keys.push(w.method_key(id, c));
            }
            return Ok(Family { target, decls, warnings });
        }
        Category::Field => {
            let Some((owner, name)) = t.keys.first().and_then(|k| k.split_once('#')) else {
                return Err(format!("{} is not a field key", t.label));
            };
            let Some(id) = w.by_fqn(owner).filter(|id| w.is_workspace(*id)) else {
                return Err(format!("{} is not declared in the workspace; only workspace code is renamed", t.label));
            };
            let Some(f) = w.decl(id).fields.iter().find(|f| &*f.name == name) else {
                return Err(format!("{} has no field {name}", owner));
            };
            if f.generated {
                return Err(generated_refusal(w, id, &t.keys[0], f.line));
            }
            let mut decls = vec![DeclSite { path: decl_path(w, id), line: f.line, category: Category::Field }];
            let mut target = t.clone();
            // A record component is also its accessor (implicit or declared), whose calls and
            // declaration are renamed with it; the canonical constructor's parameter is the
            // edit layer's (`record_constructor_params`).
            if w.decl(id).kind == mji_model::TypeKind::Record && !f.is_static {
                for m in w.decl(id).methods.iter().filter(|m| &*m.name == name && m.params.is_empty() && !m.is_static) {
                    target.keys.push(w.method_key(id, m));
                    if !m.implicit {
                        decls.push(DeclSite { path: decl_path(w, id), line: m.line, category: Category::Method });
                    }
                }
                target.keys.dedup();
            }
            return Ok(Family { target, decls, warnings });
        }
        Category::Ctor => {
            return Err(format!("{} is a constructor: rename its type instead", t.label));
        }
    }
    // Methods: close over overridden (up) and overriding (down) declarations.
    let mut keys: BTreeSet<String> = BTreeSet::new();
    let mut work: Vec<String> = t.keys.clone();
    loop {
        while let Some(key) = work.pop() {
            if keys.len() > MAX_FAMILY {
                return Err(format!("the override family of {} has more than {MAX_FAMILY} methods", t.label));
            }
            if !keys.insert(key.clone()) {
                continue;
            }
            let Some((owner, m)) = owner_and_method(w, &key) else {
                return Err(format!("{key} is not declared in the workspace; only workspace code is renamed"));
            };
            if m.generated {
                return Err(generated_refusal(w, owner, &key, m.line));
            }
            if !w.is_workspace(owner) {
                return Err(format!("{key} is declared outside the workspace; only workspace code is renamed"));
            }
            if used_by_the_language(&key) {
                let family =
                    if key == t.keys[0] { String::new() } else { format!(" (in the override family of {})", t.label) };
                return Err(format!(
                    "{key}{family} is called by code the compiler writes itself (for-each loops, try-with-resources, \
                 boxing, switches, lambdas): renaming it would break code that never names it"
                ));
            }
            if m.is_static {
                continue;
            }
            let ty = Ty::class(&w.decl(owner).fqn);
            let sig = w.signature_in(&ty, owner, m);
            let mut found_above = false;
            for (_, sup) in w.hierarchy(&ty).into_iter().skip(1) {
                let Some(sup) = sup else {
                    continue;
                };
                for m2 in w.decl(sup).methods.iter().filter(|m2| m2.name == m.name && !m2.is_static) {
                    if w.signature_in(&ty, sup, m2) != sig || !w.overrides_by_access(owner, m, sup, m2) {
                        continue;
                    }
                    let k2 = w.method_key(sup, m2);
                    if !w.is_workspace(sup) {
                        return Err(format!(
                            "{key} overrides {k2}, which is outside the workspace and cannot be renamed; \
                         renaming it would break the override"
                        ));
                    }
                    found_above = true;
                    work.push(k2);
                }
            }
            if m.marked_override && !found_above {
                let external: Vec<String> = w
                    .hierarchy(&ty)
                    .into_iter()
                    .skip(1)
                    .filter(|(_, id)| id.is_none())
                    .map(|(t, _)| t.erasure())
                    .collect();
                return Err(format!(
                    "{key} is marked @Override but overrides nothing the workspace declares: it overrides a method of {}, \
                 outside the workspace, and cannot be renamed",
                    if external.is_empty() { "an unknown supertype".to_owned() } else { external.join(", ") }
                ));
            }
            let mut sub = Target { keys: vec![key.clone()], overriders: HashMap::new(), ..t.clone() };
            add_overriders(w, &mut sub);
            work.extend(sub.overriders.into_keys());
        }
        // A method of a class that implements an interface's method only in its subclasses
        // (`KeySpliterator extends Base implements Spliterator`, `estimateSize()` declared in Base)
        // is in the family too.
        work = inherited_implementations(w, &keys).into_iter().filter(|k| !keys.contains(k)).collect();
        if work.is_empty() {
            break;
        }
    }
    let mut decls = Vec::new();
    for k in &keys {
        if let Some((owner, m)) = owner_and_method(w, k) {
            decls.push(DeclSite { path: decl_path(w, owner), line: m.line, category: Category::Method });
            let ty = Ty::class(&w.decl(owner).fqn);
            if w.hierarchy(&ty).iter().skip(1).any(|(_, id)| id.is_none()) && !m.marked_override {
                warnings.push(format!(
                    "{} extends types outside the workspace that the index cannot see; if {k} overrides one of \
                     their methods (it is not marked @Override), the rename breaks that override",
                    w.decl(owner).fqn
                ));
            }
        }
    }
    let mut target = t.clone();
    target.keys = keys.into_iter().collect();
    target.overriders = HashMap::new();
    target.names = vec![crate::query::target::name_of_key(&t.keys[0])];
    Ok(Family { target, decls, warnings })
}

/// The methods outside `family`'s types that implement one of its methods in a workspace
/// subtype of both: `class Impl extends Base implements I` makes `Base#m()` the implementation
/// of `I#m()` in `Impl`, though Base and I are unrelated. One pass over the workspace's types,
/// and only when some unrelated type declares a method of the family's name.
fn inherited_implementations(w: &World, family: &BTreeSet<String>) -> Vec<String> {
    let members: Vec<(TypeId, &crate::decls::MethodSym)> =
        family.iter().filter_map(|k| owner_and_method(w, k)).filter(|(_, m)| !m.is_static).collect();
    let Some((_, first)) = members.first() else { return Vec::new() };
    let owners: std::collections::HashSet<TypeId> = members.iter().map(|(o, _)| *o).collect();
    let name = first.name.as_str();
    let candidates: std::collections::HashSet<TypeId> = w
        .types_with_method(name)
        .iter()
        .copied()
        .filter(|id| !owners.contains(id) && w.is_workspace(*id))
        .filter(|id| w.decl(*id).methods.iter().any(|m| &*m.name == name && !m.is_static))
        .collect();
    if candidates.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for s in w.all_types().filter(|id| w.is_workspace(*id)) {
        let ty = Ty::class(&w.decl(s).fqn);
        let h = w.hierarchy(&ty);
        let ids: Vec<TypeId> = h.iter().filter_map(|(_, id)| *id).collect();
        let bases: Vec<TypeId> = ids.iter().copied().filter(|id| candidates.contains(id)).collect();
        if bases.is_empty() {
            continue;
        }
        for (o, m) in members.iter().filter(|(o, _)| ids.contains(o)) {
            let sig = w.signature_in(&ty, *o, m);
            for &b in &bases {
                for m2 in w.decl(b).methods.iter().filter(|m2| m2.name == m.name && !m2.is_static) {
                    if w.signature_in(&ty, b, m2) == sig
                        && (w.overrides_by_access(b, m2, *o, m) || w.overrides_by_access(*o, m, b, m2))
                    {
                        out.push(w.method_key(b, m2));
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// What renaming the family to `new` would break, each as a sentence: a member or type of that
/// name already there, a new overload or override that calls could bind to, a field hidden.
pub fn rename_conflicts(w: &World, family: &Family, new: &str) -> Vec<String> {
    let t = &family.target;
    let mut out = Vec::new();
    match t.category {
        Category::Type => {
            let fqn = &t.keys[0];
            let parent = fqn.rsplit_once('.').map_or("", |x| x.0);
            let new_fqn = if parent.is_empty() { new.to_owned() } else { format!("{parent}.{new}") };
            if w.by_fqn(&new_fqn).is_some() {
                out.push(format!("a type {new_fqn} already exists"));
            }
            // Files that import another type of the new simple name would see two.
            for f in &w.files {
                for imp in &f.decls().imports {
                    if !imp.is_static
                        && !imp.on_demand
                        && imp.path.rsplit('.').next() == Some(new)
                        && &*imp.path != new_fqn.as_str()
                        && f.decls().imports.iter().any(|i| &*i.path == fqn.as_str())
                    {
                        out.push(format!("{} imports {} and would import {new_fqn} too", f.path.display(), imp.path));
                    }
                }
            }
        }
        Category::Method => {
            let family: BTreeSet<&str> = t.keys.iter().map(|s| s.as_str()).collect();
            let mut owners: Vec<TypeId> = Vec::new();
            for k in &t.keys {
                let Some((owner, m)) = owner_and_method(w, k) else { continue };
                owners.push(owner);
                let ty = Ty::class(&w.decl(owner).fqn);
                let sig = w.signature_in(&ty, owner, m);
                for hit in w.find_methods(&ty, new).0 {
                    let hsig = w.signature_in(&ty, hit.owner, hit.decl);
                    let hk = w.method_key(hit.owner, hit.decl);
                    if hsig == sig {
                        out.push(format!("{k} would clash with {hk}, which has the same parameters"));
                    } else if hsig.len() == sig.len() {
                        out.push(format!(
                            "{k} renamed would overload {hk} (same number of parameters): calls could bind to a different method"
                        ));
                    }
                }
            }
            // A subtype's method of the new name would start overriding a renamed one.
            for &sub in w.types_with_method(new) {
                let ty = Ty::class(&w.decl(sub).fqn);
                let h = w.hierarchy(&ty);
                for k in &t.keys {
                    let Some((owner, m)) = owner_and_method(w, k) else { continue };
                    if sub == owner || !h.iter().any(|(_, id)| *id == Some(owner)) {
                        continue;
                    }
                    let sig = w.signature_in(&ty, owner, m);
                    for m2 in w.decl(sub).methods.iter().filter(|m2| &*m2.name == new && !m2.is_static) {
                        let k2 = w.method_key(sub, m2);
                        if w.signature_in(&ty, sub, m2) == sig
                            && !family.contains(k2.as_str())
                            && w.overrides_by_access(sub, m2, owner, m)
                        {
                            out.push(format!("{k2} would then override {k} renamed"));
                        }
                    }
                }
            }
        }
        Category::Field => {
            if let Some((owner, _)) = t.keys[0].split_once('#')
                && let Some(id) = w.by_fqn(owner)
            {
                let ty = Ty::class(owner);
                if let crate::world::Lookup::Found(hit) = w.find_field(&ty, new) {
                    out.push(format!("{} already has a field {new} (declared in {})", owner, w.decl(hit.owner).fqn));
                }
                for &sub in w.types_with_field(new) {
                    if sub != id && w.hierarchy(&Ty::class(&w.decl(sub).fqn)).iter().any(|(_, i)| *i == Some(id)) {
                        out.push(format!(
                            "{} declares a field {new} that would hide the renamed field in its code",
                            w.decl(sub).fqn
                        ));
                    }
                }
            }
        }
        Category::Ctor => {}
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use crate::decls::file_decls;
    use crate::query::target::resolve_target;
    use crate::world::World;

    fn world(srcs: &[(&str, &str)]) -> World {
        let mut v: Vec<_> =
            srcs.iter().map(|(p, s)| (Arc::from(Path::new(p)), Arc::new(file_decls(s.as_bytes())))).collect();
        v.sort_by(|a: &(Arc<Path>, _), b| a.0.cmp(&b.0));
        World::new(v)
    }

    /// With the JDK's own sources as the workspace, a family holding a method the compiler
    /// calls in code it writes (a for-each loop's `iterator()`) is refused, by any member.
    #[test]
    fn a_family_the_compiler_calls_by_name_is_refused() {
        let w = world(&[
            (
                "java/lang/Iterable.java",
                "package java.lang;\npublic interface Iterable<T> {\n  java.util.Iterator<T> iterator();\n}\n",
            ),
            (
                "p/Bag.java",
                "package p;\npublic class Bag implements Iterable<String> {\n  public java.util.Iterator<String> iterator() { return null; }\n  public int size() { return 0; }\n}\n",
            ),
        ]);
        for key in ["java.lang.Iterable#iterator()", "p.Bag#iterator()"] {
            let t = resolve_target(&w, key).expect("target");
            let e = super::rename_family(&w, &t).expect_err(key);
            assert!(e.contains("java.lang.Iterable#iterator()") && e.contains("compiler writes itself"), "{e}");
        }
        let t = resolve_target(&w, "p.Bag#size()").expect("target");
        assert!(super::rename_family(&w, &t).is_ok());
    }
}
