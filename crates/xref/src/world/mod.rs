//! Every workspace type with its members, and javac's rules for finding a type, field or method
//! by name from a place in the code (JLS §6.4–6.5, §8.4.8, §15.12 simplified).
//!
//! As javac splits them: this file is the symbol table (Symtab: the [`World`], its tables by
//! name and per-type memos, types by id), [`link`] builds it (TypeEnter: supertypes, the context
//! inside a type), [`lookup`] finds types and members by name (Resolve) and [`types`] relates
//! types (Types: hierarchies, subtyping, conversions, overriding, lub, functional interfaces);
//! [`jdk_api`] is the JDK's and the libraries' part.

// foldhash's maps (std's, under a per-process seeded hasher a few times quicker than SipHash on
// short keys): linking the world fills them with every type, method and field name, a tenth of
// a fresh process's `def` on the JDK (issue 38).
use foldhash::{HashMap, HashMapExt, HashSet};
use std::borrow::Cow;
use std::path::Path;
use std::sync::{Arc, OnceLock};

mod delegate;
pub use delegate::written;
pub mod jdk_api;
mod link;
mod lookup;
pub(crate) mod types;
use jdk_api::JdkApi;
pub(crate) use types::substitute;

use crate::decls::{FileDecls, MethodSym, TypeSym};
use crate::index::flat::{ByFqn, ByName, Packages, Simple};
use crate::index::lazy::Decls;
use crate::ty::Ty;

/// Where a type comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Workspace,
    Jdk,
    Library,
    Unresolved,
}

/// The public packages and type names of the JDK (java.*, javax.*, org.w3c/xml/ietf): JDK 17's
/// (`jdk_types.txt`), or the user's JDK's read from its image (`JdkTypes::parse` of the same
/// format, `mji_classfile::library::jdk_type_names`) when its version is another.
pub struct JdkTypes {
    text: Cow<'static, str>,
    /// The packages and their types, read from `text` on first use: a command that never
    /// asks for a JDK name never allocates its 4,000 names (a millisecond; issue 38).
    packages: OnceLock<HashMap<Box<str>, HashSet<Box<str>>>>,
}

impl JdkTypes {
    /// The committed table's (JDK 17).
    pub fn get() -> &'static JdkTypes {
        JdkTypes::shared()
    }

    /// The committed table's, shared.
    pub fn shared() -> &'static Arc<JdkTypes> {
        static JDK: OnceLock<Arc<JdkTypes>> = OnceLock::new();
        JDK.get_or_init(|| Arc::new(JdkTypes::of(Cow::Borrowed(include_str!("jdk_types.txt")))))
    }

    /// A table of lines `package Type1 Type2 …`.
    pub fn parse(text: &str) -> JdkTypes {
        JdkTypes::of(Cow::Owned(text.to_owned()))
    }

    fn of(text: Cow<'static, str>) -> JdkTypes {
        JdkTypes { text, packages: OnceLock::new() }
    }

    fn packages(&self) -> &HashMap<Box<str>, HashSet<Box<str>>> {
        self.packages.get_or_init(|| {
            let mut packages: HashMap<Box<str>, HashSet<Box<str>>> = HashMap::new();
            for line in self.text.lines() {
                let mut it = line.split(' ').filter(|w| !w.is_empty());
                let Some(pkg) = it.next() else { continue };
                packages.entry(pkg.into()).or_default().extend(it.map(Box::from));
            }
            packages
        })
    }

    pub fn has(&self, pkg: &str, name: &str) -> bool {
        self.packages().get(pkg).is_some_and(|s| s.contains(name))
    }

    pub(crate) fn is_package(&self, pkg: &str) -> bool {
        self.packages().contains_key(pkg)
    }

    /// The JDK's top-level types of a simple name, qualified (`java.util.List`).
    pub fn named(&self, simple: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .packages()
            .iter()
            .filter(|(_, names)| names.contains(simple))
            .map(|(p, _)| format!("{p}.{simple}"))
            .collect();
        out.sort();
        out
    }

    /// Whether a qualified name is a JDK type (nested types of JDK types included).
    pub fn is_type(&self, fqn: &str) -> bool {
        let mut at = 0;
        while let Some(i) = fqn[at..].find('.') {
            let dot = at + i;
            let (pkg, rest) = (&fqn[..dot], &fqn[dot + 1..]);
            let top = rest.split('.').next().unwrap_or(rest);
            if self.has(pkg, top) {
                return true;
            }
            at = dot + 1;
        }
        false
    }
}

/// A file of the world.
#[derive(Debug, Clone)]
pub struct FileEntry {
    pub path: Arc<Path>,
    /// Decoded on first use when read from the store (see [`crate::index::lazy`]).
    decls: Decls,
    /// Index of the file's first type in [`World::types`].
    pub first_type: u32,
}

impl FileEntry {
    /// The file's declarations (decoded now if the store's bytes were not yet).
    pub fn decls(&self) -> &Arc<FileDecls> {
        self.decls.get()
    }

    pub(crate) fn cell(&self) -> &Decls {
        &self.decls
    }
}

/// A type of the world: (file, index in the file's types). Defined beside the tables that
/// list them (`crate::index::flat`), which know nothing else of the world.
pub use crate::index::flat::TypeId;

/// Every workspace type, linked: supertypes resolved.
pub struct World {
    pub files: Vec<FileEntry>,
    /// (file index, index in that file's types).
    types: Vec<(u32, u32)>,
    // What a member-only edit leaves as it is is shared with the world relinked from this one
    // (see [`World::relinked`]).
    // The tables by name are hashed when linked here, flat when restored from a store (see
    // `crate::index::flat`).
    by_fqn: Arc<ByFqn>,
    packages: Arc<Packages>,
    supers: Arc<Vec<Vec<Ty>>>,
    /// Each type's simple name, for searches by name that read no declarations.
    simple: Arc<Simple>,
    /// Method and field names to their declaring types (ascending), for receivers of unknown
    /// type.
    methods_by_name: Arc<ByName>,
    fields_by_name: Arc<ByName>,
    pub jdk: Arc<JdkTypes>,
    /// The JDK's API, with the classpath's libraries when the engine has them (shared, not
    /// copied): its types have ids from [`JDK_BASE`] on.
    api: Option<Arc<JdkApi>>,
    /// Per type (workspace types, then the JDK API's), what lookups derive from its
    /// declaration, computed on first use (the memo itself made on first use: a query
    /// touches a few of a big classpath's library types). Empty while the world is being
    /// linked. Shared with a relinked world for the types an edit did not touch.
    memo: Vec<OnceLock<Arc<TypeMemo>>>,
    /// The declaration shape this world was linked from (see `engine`): worlds of equal
    /// shape bind every file alike, so references bound under one serve the other.
    pub shape: u64,
    /// Direct subtypes by the erased supertype's qualified name (workspace types, then the
    /// JDK's), made on first use; shared with a relinked world (same types, same supertypes).
    subtypes: Arc<OnceLock<HashMap<Box<str>, Vec<TypeId>>>>,
    /// Per workspace type, the methods Lombok's `@Delegate` generates in it (see
    /// [`World::delegated_methods`]), made on first use. Never shared with a relinked world:
    /// they depend on other types' members, which an edit may change.
    delegated: OnceLock<Vec<OnceLock<Vec<MethodSym>>>>,
}

/// Declarations read from files, as the world holds them.
fn ready(files: Vec<(Arc<Path>, Arc<FileDecls>)>) -> Vec<(Arc<Path>, Decls)> {
    files.into_iter().map(|(p, d)| (p, Decls::ready(d))).collect()
}

/// Supertypes with their ids, as [`World::hierarchy`] lists them.
type Hierarchy = Vec<(Ty, Option<TypeId>)>;

/// What is derived from one type's declaration once the world is linked.
#[derive(Default)]
struct TypeMemo {
    ctx: OnceLock<Ctx>,
    methods: OnceLock<Vec<MethodMemo>>,
    ctors: OnceLock<Vec<MethodMemo>>,
    /// The hierarchy of the type with its own type variables as arguments, when substituting
    /// the actual arguments into it gives what [`World::hierarchy`] would compute.
    hierarchy: OnceLock<Option<Hierarchy>>,
}

/// A method's (or constructor's) parameter types resolved in its declaring type's context
/// (with its own type parameters), and its key.
struct MethodMemo {
    params: Vec<Option<Ty>>,
    key: String,
}

/// Type ids (and file indexes) from here on are the JDK API table's.
pub(crate) const JDK_BASE: u32 = 1 << 31;

/// Where a name is looked up from: the file, the enclosing types (innermost first) and the type
/// variables in scope (innermost first).
#[derive(Debug, Clone, Default)]
pub struct Ctx {
    pub file: u32,
    pub types: Vec<TypeId>,
    pub tvars: Vec<(Box<str>, Ty)>,
    /// The bounds after the first of the variables declared with several (`T extends Object &
    /// Comparable<? super T>`), erased as the first is: a variable erases to its first bound,
    /// but its members are every bound's (JLS 4.4, 4.9).
    pub more_bounds: Vec<(Box<str>, Vec<Ty>)>,
}

/// A member found by lookup, with the substitution of its declaring type's type variables.
#[derive(Debug, Clone)]
pub struct MemberHit<'w, T> {
    pub owner: TypeId,
    pub decl: &'w T,
    pub subst: Vec<(Box<str>, Ty)>,
}

impl World {
    pub fn new(files: Vec<(Arc<Path>, Arc<FileDecls>)>) -> World {
        World::build(ready(files), Some(JdkApi::shared().clone()))
    }

    /// A world whose external types are `api`'s: the JDK's and the classpath's libraries
    /// (`JdkApi::with_libraries`).
    pub fn with_api(files: Vec<(Arc<Path>, Arc<FileDecls>)>, api: Arc<JdkApi>) -> World {
        World::build(ready(files), Some(api))
    }

    /// A world that knows the JDK only by type names (the JDK API table is not consulted).
    pub fn new_without_jdk_api(files: Vec<(Arc<Path>, Arc<FileDecls>)>) -> World {
        World::build(ready(files), None)
    }

    /// How many files' declarations are decoded (for tests).
    pub fn decoded_files(&self) -> usize {
        self.files.iter().filter(|f| f.decls.is_decoded()).count()
    }

    /// Whether a file's declarations this world holds failed to decode from the store (see
    /// [`crate::index::lazy`]): it is to be linked again from the files.
    pub(crate) fn damaged(&self) -> bool {
        self.files.iter().find_map(|f| f.decls.block()).is_some_and(|b| b.is_damaged())
    }

    /// This world with every memo dropped, to be computed again on first use: what a pass
    /// that binds every file derives for every type (each method's resolved parameters and
    /// key, each type's context and hierarchy), which a restart does not hold and a query
    /// needs for a few types only. The same shape: references bound under one serve the other.
    pub fn without_memos(&self) -> World {
        World {
            files: self.files.clone(),
            types: self.types.clone(),
            by_fqn: self.by_fqn.clone(),
            packages: self.packages.clone(),
            supers: self.supers.clone(),
            simple: self.simple.clone(),
            methods_by_name: self.methods_by_name.clone(),
            fields_by_name: self.fields_by_name.clone(),
            jdk: self.jdk.clone(),
            api: self.api.clone(),
            memo: (0..self.memo.len()).map(|_| OnceLock::new()).collect(),
            shape: self.shape,
            subtypes: self.subtypes.clone(),
            delegated: OnceLock::new(),
        }
    }

    /// How many types have anything derived in their memo (for tests and status).
    pub fn derived_memos(&self) -> usize {
        let any = |m: &TypeMemo| {
            m.ctx.get().is_some() || m.methods.get().is_some() || m.ctors.get().is_some() || m.hierarchy.get().is_some()
        };
        self.memo.iter().filter_map(|m| m.get()).filter(|m| any(m)).count()
    }

    fn memo_of(&self, id: TypeId) -> Option<&TypeMemo> {
        let i = match id.0.checked_sub(JDK_BASE) {
            Some(j) => self.types.len() + j as usize,
            None => id.0 as usize,
        };
        self.memo.get(i).map(|m| &**m.get_or_init(Arc::default))
    }

    /// The context inside a type's body, computed once per type.
    pub(crate) fn ctx_ref(&self, id: TypeId) -> std::borrow::Cow<'_, Ctx> {
        match self.memo_of(id) {
            Some(m) => std::borrow::Cow::Borrowed(m.ctx.get_or_init(|| self.compute_ctx_in(id))),
            None => std::borrow::Cow::Owned(self.compute_ctx_in(id)),
        }
    }

    /// The memo of `m`, a method or constructor declared by `owner`.
    fn method_memo(&self, owner: TypeId, m: &MethodSym) -> Option<&MethodMemo> {
        let memo = self.memo_of(owner)?;
        let d = self.decl(owner);
        let index = |pool: &[MethodSym]| pool.iter().position(|x| std::ptr::eq(x, m));
        let (cell, pool, i) = if let Some(i) = index(&d.methods) {
            (&memo.methods, &d.methods, i)
        } else {
            (&memo.ctors, &d.ctors, index(&d.ctors)?)
        };
        let all = cell.get_or_init(|| {
            let ctx = self.ctx_ref(owner);
            pool.iter()
                .map(|x| {
                    let params = self.resolved_params(x, &ctx);
                    let key = self.format_method_key(owner, x, &params);
                    MethodMemo { params, key }
                })
                .collect()
        });
        all.get(i)
    }

    fn resolved_params(&self, m: &MethodSym, type_ctx: &Ctx) -> Vec<Option<Ty>> {
        let ctx = self.with_method_tparams(type_ctx, &m.tparams);
        m.params.iter().map(|p| self.resolve_text(p, &ctx)).collect()
    }

    fn format_method_key(&self, owner: TypeId, m: &MethodSym, params: &[Option<Ty>]) -> String {
        let erased: Vec<String> =
            params.iter().map(|t| t.as_ref().map(|t| t.erasure()).unwrap_or_else(|| "?".into())).collect();
        format!("{}#{}({})", self.decl(owner).fqn, m.name, erased.join(","))
    }

    /// A method's parameter types resolved in its declaring type's context (type variables of
    /// the type and the method unsubstituted); `None` for broken types.
    pub(crate) fn method_params(&self, owner: TypeId, m: &MethodSym) -> std::borrow::Cow<'_, [Option<Ty>]> {
        match self.method_memo(owner, m) {
            Some(mm) => std::borrow::Cow::Borrowed(&mm.params),
            None => std::borrow::Cow::Owned(self.resolved_params(m, &self.ctx_ref(owner))),
        }
    }

    /// Workspace types declaring a method named `name`.
    pub(crate) fn types_with_method(&self, name: &str) -> &[TypeId] {
        self.methods_by_name.get(name)
    }

    /// Workspace types declaring a field named `name`.
    pub(crate) fn types_with_field(&self, name: &str) -> &[TypeId] {
        self.fields_by_name.get(name)
    }

    pub fn type_count(&self) -> usize {
        self.types.len()
    }

    pub fn decl(&self, id: TypeId) -> &TypeSym {
        if let Some(j) = id.0.checked_sub(JDK_BASE)
            && let Some(api) = &self.api
        {
            return api.decl(j);
        }
        let (f, t) = self.types[id.0 as usize];
        &self.files[f as usize].decls().types[t as usize]
    }

    pub fn file_of(&self, id: TypeId) -> u32 {
        if let Some(j) = id.0.checked_sub(JDK_BASE)
            && let Some(api) = &self.api
        {
            return JDK_BASE + api.file_of(j);
        }
        self.types[id.0 as usize].0
    }

    /// A type: the workspace's first, then the JDK API's.
    pub fn by_fqn(&self, fqn: &str) -> Option<TypeId> {
        if let Some(id) = self.by_fqn.get(fqn) {
            return Some(id);
        }
        let api = self.api.as_ref()?;
        api.lookup(fqn).map(|j| TypeId(JDK_BASE + j))
    }

    /// Whether a type is declared in the workspace (not the JDK API table).
    pub fn is_workspace(&self, id: TypeId) -> bool {
        id.0 < JDK_BASE
    }

    /// A workspace type by qualified name.
    pub fn workspace_type(&self, fqn: &str) -> Option<TypeId> {
        self.by_fqn.get(fqn)
    }

    /// The origin of a known type.
    pub(crate) fn origin_of(&self, id: TypeId) -> Origin {
        match id.0.checked_sub(JDK_BASE) {
            None => Origin::Workspace,
            Some(j) if self.api.as_ref().is_some_and(|a| j >= a.jdk_types) => Origin::Library,
            Some(_) => Origin::Jdk,
        }
    }

    /// A hash of the library types the world holds (0: none).
    pub fn libraries_hash(&self) -> u64 {
        self.api.as_ref().map_or(0, |a| a.libraries_hash)
    }

    /// The types a simple name can import: workspace types (nested ones as `Outer.Inner`) and
    /// the JDK's top-level types, qualified.
    pub fn types_named(&self, simple: &str) -> Vec<String> {
        let mut out: Vec<String> = self.types_simply_named(simple).map(|id| self.decl(id).fqn.to_string()).collect();
        out.extend(self.jdk.named(simple));
        out
    }

    /// The workspace types of a simple name, ascending (reading no declarations).
    pub(crate) fn types_simply_named<'a>(&'a self, simple: &'a str) -> impl Iterator<Item = TypeId> + 'a {
        self.simple.iter().enumerate().filter(move |(_, s)| *s == simple).map(|(i, _)| TypeId(i as u32))
    }

    /// Every workspace type's simple name, by id.
    pub(crate) fn simple_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.simple.iter()
    }

    /// All workspace types, for name searches.
    pub(crate) fn all_types(&self) -> impl Iterator<Item = TypeId> + '_ {
        (0..self.types.len() as u32).map(TypeId)
    }

    /// The global id of a file's `i`-th type.
    pub fn type_in_file(&self, file: u32, i: u32) -> TypeId {
        if let Some(j) = file.checked_sub(JDK_BASE)
            && let Some(api) = &self.api
        {
            return TypeId(JDK_BASE + api.type_in_file(j, i));
        }
        TypeId(self.files[file as usize].first_type + i)
    }

    /// The enclosing chain of a type, innermost (itself) first.
    pub fn chain(&self, id: TypeId) -> Vec<TypeId> {
        let mut out = vec![id];
        let f = self.file_of(id);
        let mut cur = self.decl(id).outer;
        while let Some(o) = cur {
            let oid = self.type_in_file(f, o);
            out.push(oid);
            cur = self.decl(oid).outer;
        }
        out
    }

    /// The package a workspace type is declared in (`None` for the JDK API table's types).
    pub fn package_of(&self, id: TypeId) -> Option<&str> {
        if !self.is_workspace(id) {
            return None;
        }
        let f = self.files.get(self.file_of(id) as usize)?;
        Some(f.decls().package.as_str())
    }
}

/// The result of a member lookup.
#[derive(Debug)]
pub(crate) enum Lookup<T> {
    Found(T),
    /// Certainly not a member.
    Absent,
    /// Not found, but an external supertype might declare it.
    Unknown,
}

/// A name that resolved to a type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TypeName {
    Class(String, Origin),
    Var(Box<str>, Ty),
}

pub(crate) fn starts_upper(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decls::file_decls;

    fn files(srcs: &[(&str, &str)]) -> Vec<(Arc<Path>, Arc<FileDecls>)> {
        let mut v: Vec<(Arc<Path>, Arc<FileDecls>)> =
            srcs.iter().map(|(p, s)| (Arc::from(Path::new(p)), Arc::new(file_decls(s.as_bytes())))).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// The tables a lookup reads, in a comparable form.
    fn tables(w: &World) -> String {
        let mut fqn: Vec<(String, u32)> = w.by_fqn.entries();
        fqn.sort();
        let decls: Vec<&FileDecls> = w.files.iter().map(|f| &**f.decls()).collect();
        format!(
            "{:?}\n{:?}\n{fqn:?}\n{:?}\n{:?}\n{:?}",
            w.types,
            decls,
            w.supers,
            w.methods_by_name.sorted(),
            w.fields_by_name.sorted()
        )
    }

    const A: &str = "package a; public class A { int f; void m() { } void n(int x) { } class In { void m() { } } }";
    const B: &str = "package a; public class B extends A { int g; void m() { } }";
    const C: &str = "package c; public class C { String f; }";

    #[test]
    fn a_member_edit_relinks_to_the_world_linked_from_scratch() {
        let before = World::new(files(&[("a/A.java", A), ("a/B.java", B), ("c/C.java", C)]));
        // Members renamed, added, removed and moved across lines; the types stay.
        let a2 = "package a;\npublic class A {\n long f; int f2; void k() { } void n(int x, int y) { }\n class In { void m() { } void m(int y) { } } }";
        let edited = files(&[("a/A.java", a2), ("a/B.java", B), ("c/C.java", C)]);
        let i = edited.iter().position(|(p, _)| p.ends_with("a/A.java")).expect("A");
        let relinked = before.relinked(&[(i, edited[i].1.clone())]).expect("a member edit relinks");
        assert_eq!(tables(&relinked), tables(&World::new(edited)));
        let m = relinked.types_with_method("m").iter().map(|t| relinked.decl(*t).fqn.to_string()).collect::<Vec<_>>();
        assert_eq!(m, ["a.A.In", "a.B"], "A lost m(), its inner class kept one");
    }

    #[test]
    fn a_type_or_import_change_is_linked_from_scratch() {
        let before = World::new(files(&[("a/A.java", A), ("a/B.java", B)]));
        for a2 in [
            "package a; public class A extends c.C { int f; void m() { } void n(int x) { } class In { void m() { } } }",
            "package a; import java.util.List; public class A { int f; void m() { } void n(int x) { } class In { void m() { } } }",
            "package a; public class A { int f; void m() { } void n(int x) { } }",
            "package b; public class A { int f; void m() { } void n(int x) { } class In { void m() { } } }",
        ] {
            let d = Arc::new(file_decls(a2.as_bytes()));
            assert!(before.relinked(&[(0, d)]).is_none(), "{a2}");
        }
    }
}
