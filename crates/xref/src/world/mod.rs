//! Every workspace type with its members, and javac's rules for finding a type, field or method
//! by name from a place in the code (JLS §6.4–6.5, §8.4.8, §15.12 simplified).

// foldhash's maps (std's, under a per-process seeded hasher a few times quicker than SipHash on
// short keys): linking the world fills them with every type, method and field name, a tenth of
// a fresh process's `def` on the JDK (issue 38).
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::borrow::Cow;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use mji_model::TypeKind;
pub mod jdk_api;
use jdk_api::{JdkApi, jdk_ty};

use crate::decls::{FieldSym, FileDecls, MethodSym, TParam, TypeSym};
use crate::index::flat::{self, ByFqn, ByName, Packages, Simple};
use crate::index::lazy::Decls;
use crate::name::Name;
use crate::ty::{OBJECT, Ty, TyText, boxed, prim_widens, unboxed};

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

    /// The world linked from these files' declarations (those still encoded decoded first, in
    /// parallel).
    pub(crate) fn build(files: Vec<(Arc<Path>, Decls)>, api: Option<Arc<JdkApi>>) -> World {
        {
            use rayon::prelude::*;
            files.par_iter().for_each(|(_, d)| {
                d.get();
            });
        }
        // Sized up front: growing them rehashed every entry a few times.
        let ntypes = files.iter().map(|(_, d)| d.get().types.len()).sum();
        let mut simple: Vec<Box<str>> = Vec::with_capacity(ntypes);
        let mut by_fqn: HashMap<Box<str>, TypeId> = HashMap::with_capacity(ntypes);
        let mut packages: HashSet<Box<str>> = HashSet::new();
        let mut w = World {
            files: Vec::with_capacity(files.len()),
            types: Vec::with_capacity(ntypes),
            by_fqn: Arc::new(ByFqn::Built(HashMap::new())),
            packages: Arc::new(Packages::Built(HashSet::new())),
            supers: Arc::default(),
            simple: Arc::new(Simple::Built(Vec::new())),
            methods_by_name: Arc::new(ByName::Built(HashMap::new())),
            fields_by_name: Arc::new(ByName::Built(HashMap::new())),
            jdk: api.as_ref().and_then(|a| a.names.clone()).unwrap_or_else(|| JdkTypes::shared().clone()),
            api,
            memo: Vec::new(),
            shape: 0,
            subtypes: Arc::default(),
        };
        // The member tables, on other threads while this one fills the type tables (each in
        // the types' order, as one loop over them would).
        let member_table = |fields: bool| {
            let mut table: HashMap<Name, Vec<TypeId>> = HashMap::new();
            let mut id = TypeId(0);
            for t in files.iter().flat_map(|(_, d)| &d.get().types) {
                if fields {
                    for f in &t.fields {
                        table.entry(f.name.clone()).or_default().push(id);
                    }
                } else {
                    for m in &t.methods {
                        let v = table.entry(m.name.clone()).or_default();
                        if v.last() != Some(&id) {
                            v.push(id);
                        }
                    }
                }
                id.0 += 1;
            }
            table
        };
        let ((methods_by_name, fields_by_name), ()) = rayon::join(
            || rayon::join(|| member_table(false), || member_table(true)),
            || {
                for (fi, (path, cell)) in files.iter().enumerate() {
                    let decls = cell.get();
                    let first_type = w.types.len() as u32;
                    let mut p = &*decls.package;
                    while !p.is_empty() {
                        if !packages.insert(p.into()) {
                            break;
                        }
                        p = p.rsplit_once('.').map(|x| x.0).unwrap_or("");
                    }
                    for (ti, t) in decls.types.iter().enumerate() {
                        let id = TypeId(w.types.len() as u32);
                        w.types.push((fi as u32, ti as u32));
                        simple.push(t.simple.clone());
                        by_fqn.entry(t.fqn.clone()).or_insert(id);
                    }
                    w.files.push(FileEntry { path: path.clone(), decls: cell.clone(), first_type });
                }
            },
        );
        drop(files);
        w.simple = Arc::new(Simple::Built(simple));
        w.methods_by_name = Arc::new(ByName::Built(methods_by_name));
        w.fields_by_name = Arc::new(ByName::Built(fields_by_name));
        (w.by_fqn, w.packages) = (Arc::new(ByFqn::Built(by_fqn)), Arc::new(Packages::Built(packages)));
        // Each type's supertypes resolve independently (the tables they read are in place).
        let supers: Vec<Vec<Ty>> = {
            use rayon::prelude::*;
            (0..w.types.len()).into_par_iter().map(|i| w.compute_supers(TypeId(i as u32))).collect()
        };
        w.supers = Arc::new(supers);
        let n = w.types.len() + w.api.as_ref().map(|a| a.len()).unwrap_or(0);
        w.memo = (0..n).map(|_| OnceLock::new()).collect();
        w
    }

    /// What linking this world computed from every file's declarations, for the store, so a
    /// restart restores the world without decoding them ([`World::restore`]): each file's
    /// number of types (the files in the world's order), each type's simple name, the tables
    /// by name (flat, see [`crate::index::flat`]) and each type's supertypes (postcard). `None` if
    /// the supertypes do not encode.
    pub(crate) fn link(&self) -> Option<Vec<u8>> {
        let mut file_types: Vec<u32> = vec![0; self.files.len()];
        for (f, _) in &self.types {
            file_types[*f as usize] += 1;
        }
        let mut out = Vec::new();
        flat::u32s(&mut out, &file_types);
        self.simple.write(&mut out);
        self.by_fqn.write(&mut out);
        self.packages.write(&mut out);
        self.methods_by_name.write(&mut out);
        self.fields_by_name.write(&mut out);
        flat::blob(&mut out, &postcard::to_stdvec(&*self.supers).ok()?);
        Some(out)
    }

    /// The world [`World::build`] links from `files`, restored from the link ([`World::link`])
    /// it computed then, without reading any file's declarations. `None` when the link does
    /// not read or fit the files (a type id past the types, counts that differ).
    pub(crate) fn restore(files: Vec<(Arc<Path>, Decls)>, link: &[u8], api: Option<Arc<JdkApi>>) -> Option<World> {
        let mut r = flat::Reader::new(link);
        let file_types = r.u32s()?;
        let ntypes = file_types.iter().try_fold(0usize, |n, t| n.checked_add(*t as usize))?;
        let simple = Simple::read(&mut r)?;
        let by_fqn = ByFqn::read(&mut r, ntypes)?;
        let packages = Packages::read(&mut r)?;
        let methods_by_name = ByName::read(&mut r, ntypes)?;
        let fields_by_name = ByName::read(&mut r, ntypes)?;
        let supers: Vec<Vec<Ty>> = postcard::from_bytes(r.blob()?).ok()?;
        if !r.is_empty() || file_types.len() != files.len() || simple.len() != ntypes || supers.len() != ntypes {
            return None;
        }
        let mut types = Vec::with_capacity(ntypes);
        let mut entries = Vec::with_capacity(files.len());
        for ((path, decls), n) in files.into_iter().zip(&file_types) {
            let (fi, first_type) = (entries.len() as u32, types.len() as u32);
            types.extend((0..*n).map(|ti| (fi, ti)));
            entries.push(FileEntry { path, decls, first_type });
        }
        let n = ntypes + api.as_ref().map(|a| a.len()).unwrap_or(0);
        Some(World {
            files: entries,
            types,
            by_fqn: Arc::new(by_fqn),
            packages: Arc::new(packages),
            supers: Arc::new(supers),
            simple: Arc::new(simple),
            methods_by_name: Arc::new(methods_by_name),
            fields_by_name: Arc::new(fields_by_name),
            jdk: api.as_ref().and_then(|a| a.names.clone()).unwrap_or_else(|| JdkTypes::shared().clone()),
            api,
            memo: (0..n).map(|_| OnceLock::new()).collect(),
            shape: 0,
            subtypes: Arc::default(),
        })
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

    /// This world with some files' declarations replaced (by index in [`World::files`]), when
    /// each edit changed members only: the same package, imports and types, each type with
    /// the same header. Then the types, their supertypes and everything derived from them
    /// stand, and only the member tables and the edited types' memos change; the result is
    /// the world [`World::new`] would link from the same files. `None` for any other edit.
    pub fn relinked(&self, edits: &[(usize, Arc<FileDecls>)]) -> Option<World> {
        for (fi, new) in edits {
            let old = self.files.get(*fi)?.decls();
            let same_types =
                old.types.len() == new.types.len()
                    && old.types.iter().zip(&new.types).all(|(a, b)| {
                        a.outer == b.outer && a.members == b.members && crate::invalidate::same_header(a, b)
                    });
            if old.package != new.package || old.imports != new.imports || !same_types {
                return None;
            }
        }
        let mut files = self.files.clone();
        let mut memo = self.memo.clone();
        let (mut methods, mut fields) = (self.methods_by_name.to_map(), self.fields_by_name.to_map());
        for (fi, new) in edits {
            let first = files[*fi].first_type;
            let mine = |id: &TypeId| (first..first + new.types.len() as u32).contains(&id.0);
            let unlist = |table: &mut HashMap<Name, Vec<TypeId>>, name: &str| {
                if let Some(v) = table.get_mut(name) {
                    v.retain(|id| !mine(id));
                    if v.is_empty() {
                        table.remove(name);
                    }
                }
            };
            for t in &files[*fi].decls().types {
                t.methods.iter().for_each(|m| unlist(&mut methods, &m.name));
                t.fields.iter().for_each(|f| unlist(&mut fields, &f.name));
            }
            for (ti, t) in new.types.iter().enumerate() {
                let id = TypeId(first + ti as u32);
                for m in &t.methods {
                    let v = methods.entry(m.name.clone()).or_default();
                    let at = v.partition_point(|x| x.0 < id.0);
                    if v.get(at) != Some(&id) {
                        v.insert(at, id);
                    }
                }
                for f in &t.fields {
                    let v = fields.entry(f.name.clone()).or_default();
                    v.insert(v.partition_point(|x| x.0 <= id.0), id);
                }
                memo[id.0 as usize] = OnceLock::new();
            }
            files[*fi].decls = Decls::ready(new.clone());
        }
        Some(World {
            files,
            types: self.types.clone(),
            by_fqn: self.by_fqn.clone(),
            packages: self.packages.clone(),
            supers: self.supers.clone(),
            simple: self.simple.clone(),
            methods_by_name: Arc::new(ByName::Built(methods)),
            fields_by_name: Arc::new(ByName::Built(fields)),
            jdk: self.jdk.clone(),
            api: self.api.clone(),
            memo,
            shape: 0,
            subtypes: self.subtypes.clone(),
        })
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

    /// The types whose direct supertypes include `fqn` (erased): workspace types first, then
    /// the JDK's (those of a name no workspace type has). Library types are not listed.
    pub fn direct_subtypes(&self, fqn: &str) -> &[TypeId] {
        let table = self.subtypes.get_or_init(|| {
            let mut out: HashMap<Box<str>, Vec<TypeId>> = HashMap::new();
            let mut add = |id: TypeId, supers: &[Ty]| {
                for s in supers {
                    if let Some((f, _)) = s.lookup_class() {
                        let v = out.entry(f.into()).or_default();
                        if v.last() != Some(&id) {
                            v.push(id);
                        }
                    }
                }
            };
            for i in 0..self.types.len() as u32 {
                add(TypeId(i), self.supers(TypeId(i)));
            }
            if let Some(api) = &self.api {
                for j in 0..api.jdk_types {
                    if self.by_fqn.contains(api.fqn(j)) {
                        continue;
                    }
                    add(TypeId(JDK_BASE + j), api.supers_of(j));
                }
            }
            out
        });
        table.get(fqn).map(|v| v.as_slice()).unwrap_or(&[])
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

    fn origin_by_fqn(&self, fqn: &str) -> Option<Origin> {
        self.by_fqn(fqn).map(|id| self.origin_of(id))
    }

    pub(crate) fn is_package(&self, p: &str) -> bool {
        self.packages.contains(p) || self.jdk.is_package(p)
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

    /// The qualified name of a type as written in the body of `id` (a simple or dotted name,
    /// no type arguments): `None` for a type variable or a name that is no known type there.
    pub fn qualify_in(&self, id: TypeId, name: &str) -> Option<String> {
        let ctx = self.ctx_in(id);
        let segs: Vec<&str> = name.split('.').collect();
        match self.resolve_type_segments(&segs, &ctx).1? {
            TypeName::Class(f, _) => Some(f),
            TypeName::Var(..) => None,
        }
    }

    /// The member type named `name` that `id` inherits from a supertype, by qualified name.
    pub fn inherited_member_type(&self, id: TypeId, name: &str) -> Option<String> {
        let mut seen: HashSet<TypeId> = std::iter::once(id).collect();
        for s in self.supers(id) {
            if let Ty::Class(sf, _) = s
                && let Some(sid) = self.by_fqn(sf)
                && let Some(TypeName::Class(f, _)) = self.member_type_of(sid, name, &mut seen)
            {
                return Some(f);
            }
        }
        None
    }

    /// The context inside a type's body.
    pub(crate) fn ctx_in(&self, id: TypeId) -> Ctx {
        self.ctx_ref(id).into_owned()
    }

    fn compute_ctx_in(&self, id: TypeId) -> Ctx {
        let chain = self.chain(id);
        let mut tvars = Vec::new();
        let mut params: Vec<&TParam> = Vec::new();
        let mut c = Ctx { file: self.file_of(id), types: Vec::new(), tvars: Vec::new() };
        // The type's own variables, then those of each enclosing type up to the first static
        // one (a static type's body does not see its outer types' variables); inner first,
        // so an inner variable shadows an outer one of its name.
        let mut in_scope = true;
        for t in &chain {
            let d = self.decl(*t);
            if in_scope {
                for tp in &d.tparams {
                    tvars.push((tp.name.as_str().into(), Ty::object()));
                    params.push(tp);
                }
            }
            in_scope &= !d.is_static;
        }
        c.types = chain;
        c.tvars = tvars;
        // Bounds are resolved in the same context (they may name each other), each for its
        // own variable (an outer type's `T` bound is not an inner `T`'s).
        let bounds: Vec<Ty> = params.iter().map(|tp| self.bound_of(tp, &c)).collect();
        for (slot, b) in c.tvars.iter_mut().zip(bounds) {
            slot.1 = b;
        }
        c
    }

    /// The erased bound of a type parameter.
    pub(crate) fn bound_of(&self, tp: &TParam, ctx: &Ctx) -> Ty {
        match tp.bounds.first() {
            Some(b) => match self.resolve_text(b, ctx) {
                Some(Ty::Var(_, b)) => *b,
                Some(Ty::Class(f, _)) => Ty::Class(f, Vec::new()),
                Some(t) => t,
                None => Ty::object(),
            },
            None => Ty::object(),
        }
    }

    /// Adds a method's type parameters to a context.
    pub(crate) fn with_method_tparams(&self, ctx: &Ctx, tparams: &[TParam]) -> Ctx {
        if tparams.is_empty() {
            return ctx.clone();
        }
        let mut c = ctx.clone();
        for tp in tparams {
            c.tvars.insert(0, (tp.name.as_str().into(), Ty::object()));
        }
        for tp in tparams {
            let b = self.bound_of(tp, &c);
            if let Some(slot) = c.tvars.iter_mut().find(|(n, _)| *n == tp.name) {
                slot.1 = b;
            }
        }
        c
    }

    fn compute_supers(&self, id: TypeId) -> Vec<Ty> {
        let d = self.decl(id);
        // Supertypes are resolved outside the type's body: its outer chain and its own type
        // parameters.
        let mut ctx = match d.outer {
            Some(o) => self.compute_ctx_in(self.type_in_file(self.file_of(id), o)),
            None => Ctx { file: self.file_of(id), types: Vec::new(), tvars: Vec::new() },
        };
        for tp in &d.tparams {
            ctx.tvars.insert(0, (tp.name.as_str().into(), Ty::object()));
        }
        // With their bounds: a supertype's argument `T_NODE extends Node.OfInt` is a variable
        // whose members are Node.OfInt's.
        let bounds: Vec<Ty> = d.tparams.iter().map(|tp| self.bound_of(tp, &ctx)).collect();
        for (tp, b) in d.tparams.iter().zip(bounds) {
            if let Some(slot) = ctx.tvars.iter_mut().find(|(n, _)| *n == tp.name) {
                slot.1 = b;
            }
        }
        let mut out = Vec::new();
        match d.kind {
            TypeKind::Enum => out.push(Ty::Class("java.lang.Enum".into(), vec![Ty::class(&d.fqn)])),
            TypeKind::Record => out.push(Ty::class("java.lang.Record")),
            TypeKind::Annotation => out.push(Ty::class("java.lang.annotation.Annotation")),
            _ => {}
        }
        if let Some(s) = &d.superclass {
            out.extend(self.resolve_text_guarded(s, &ctx, id));
        }
        for i in &d.interfaces {
            out.extend(self.resolve_text_guarded(i, &ctx, id));
        }
        if d.kind == TypeKind::Class && d.superclass.is_none() && &*d.fqn != OBJECT {
            out.push(Ty::object());
        }
        out
    }

    /// Resolves a supertype without consulting the type's own (not yet linked) hierarchy for
    /// member types of itself.
    fn resolve_text_guarded(&self, t: &TyText, ctx: &Ctx, _me: TypeId) -> Option<Ty> {
        self.resolve_text(t, ctx)
    }

    /// Direct supertypes, resolved (java.lang.Object last for classes).
    pub(crate) fn supers(&self, id: TypeId) -> &[Ty] {
        if let Some(j) = id.0.checked_sub(JDK_BASE)
            && let Some(api) = &self.api
        {
            return api.supers_of(j);
        }
        self.supers.get(id.0 as usize).map(|v| v.as_slice()).unwrap_or(&[])
    }

    /// Resolves a written type in a context. `None` for `var` and broken types.
    pub(crate) fn resolve_text(&self, t: &TyText, ctx: &Ctx) -> Option<Ty> {
        match t {
            TyText::Prim(p) => Some(Ty::Prim(p.as_str().into())),
            TyText::Unknown => None,
            TyText::Array(e, d) => {
                let mut ty = self.resolve_text(e, ctx)?;
                for _ in 0..*d {
                    ty = Ty::Array(Box::new(ty));
                }
                Some(ty)
            }
            TyText::Named { .. } if ctx.file >= JDK_BASE => jdk_ty(t, &ctx.tvars),
            TyText::Named { name, args } if name == crate::ty::WILDCARD => {
                let bound = args.first().and_then(|a| self.resolve_text(a, ctx)).unwrap_or_else(Ty::object);
                Some(Ty::Var(crate::ty::WILDCARD.into(), Box::new(bound)))
            }
            TyText::Named { name, args } => {
                let segs: Vec<&str> = name.split('.').collect();
                let (_, last) = self.resolve_type_segments(&segs, ctx);
                let args: Vec<Ty> = args.iter().map(|a| self.resolve_text(a, ctx).unwrap_or_else(Ty::object)).collect();
                match last {
                    Some(TypeName::Var(n, b)) => Some(Ty::Var(n, Box::new(b))),
                    Some(TypeName::Class(f, _)) => Some(Ty::Class(f.into(), args)),
                    None => Some(Ty::Class(name.as_str().into(), args)),
                }
            }
        }
    }

    /// Resolves a dotted type name segment by segment: for each segment, the type it names (if
    /// it is a type; package segments give `None`), and the whole name's type.
    pub(crate) fn resolve_type_segments(&self, segs: &[&str], ctx: &Ctx) -> (Vec<Option<TypeName>>, Option<TypeName>) {
        let mut out: Vec<Option<TypeName>> = vec![None; segs.len()];
        if segs.is_empty() {
            return (out, None);
        }
        let mut start = None;
        if let Some(t) = self.resolve_simple_type(segs[0], ctx) {
            out[0] = Some(t);
            start = Some(0);
        } else {
            // A package prefix, then a type.
            for i in 1..segs.len() {
                let pkg = segs[..i].join(".");
                let fqn = format!("{pkg}.{}", segs[i]);
                if let Some(o) = self.origin_by_fqn(&fqn) {
                    out[i] = Some(TypeName::Class(fqn, o));
                } else if self.jdk.has(&pkg, segs[i]) {
                    out[i] = Some(TypeName::Class(fqn, Origin::Jdk));
                } else if i + 1 == segs.len() || (!self.is_package(&fqn) && starts_upper(segs[i])) {
                    // Not a known package: assume a library type (`com.lib.Foo`).
                    if starts_upper(segs[i]) || i + 1 == segs.len() {
                        out[i] = Some(TypeName::Class(fqn, Origin::Library));
                    } else {
                        continue;
                    }
                } else {
                    continue;
                }
                start = Some(i);
                break;
            }
        }
        let Some(mut i) = start else { return (out, None) };
        while i + 1 < segs.len() {
            let next = match &out[i] {
                Some(TypeName::Class(f, o)) => self.member_type(f, *o, segs[i + 1]),
                Some(TypeName::Var(..)) | None => None,
            };
            out[i + 1] = next;
            if out[i + 1].is_none() {
                return (out, None);
            }
            i += 1;
        }
        let last = out[segs.len() - 1].clone();
        (out, last)
    }

    /// A member type `name` of type `fqn` (inherited member types included).
    pub(crate) fn member_type(&self, fqn: &str, origin: Origin, name: &str) -> Option<TypeName> {
        match self.by_fqn(fqn) {
            Some(id) => self.member_type_of(id, name, &mut HashSet::new()),
            None => Some(TypeName::Class(
                format!("{fqn}.{name}"),
                if origin == Origin::Workspace { Origin::Library } else { origin },
            )),
        }
    }

    fn member_type_of(&self, id: TypeId, name: &str, seen: &mut HashSet<TypeId>) -> Option<TypeName> {
        if !seen.insert(id) {
            return None;
        }
        let d = self.decl(id);
        let f = self.file_of(id);
        for m in &d.members {
            let mid = self.type_in_file(f, *m);
            if &*self.decl(mid).simple == name {
                return Some(TypeName::Class(self.decl(mid).fqn.to_string(), self.origin_of(mid)));
            }
        }
        for s in self.supers(id) {
            if let Ty::Class(sf, _) = s {
                // An external supertype without declarations may declare member types; they
                // are not guessed.
                if let Some(sid) = self.by_fqn(sf)
                    && let Some(t) = self.member_type_of(sid, name, seen)
                {
                    return Some(t);
                }
            }
        }
        None
    }

    /// A simple type name in scope (JLS 6.4.1 shadowing order).
    pub(crate) fn resolve_simple_type(&self, name: &str, ctx: &Ctx) -> Option<TypeName> {
        if let Some((n, b)) = ctx.tvars.iter().find(|(n, _)| &**n == name) {
            return Some(TypeName::Var(n.clone(), b.clone()));
        }
        for t in &ctx.types {
            if &*self.decl(*t).simple == name {
                return Some(TypeName::Class(self.decl(*t).fqn.to_string(), self.origin_of(*t)));
            }
            if let Some(m) = self.member_type_of(*t, name, &mut HashSet::new()) {
                return Some(m);
            }
        }
        let file = &self.files.get(ctx.file as usize)?.decls();
        for imp in file.imports.iter().filter(|i| !i.on_demand) {
            let last = imp.path.rsplit('.').next().unwrap_or("");
            if last == name {
                if imp.is_static {
                    // `import static a.B.Inner;` imports a member type.
                    if let Some((owner, _)) = imp.path.rsplit_once('.')
                        && let Some(TypeName::Class(f, o)) = self.resolve_qualified(owner)
                        && let Some(t) = self.member_type(&f, o, name)
                        && let TypeName::Class(ref tf, _) = t
                        && (self.by_fqn(tf).is_some() || self.by_fqn(&f).is_none())
                    {
                        return Some(t);
                    }
                    continue;
                }
                return self.resolve_qualified(&imp.path);
            }
        }
        let same = if file.package.is_empty() { name.to_string() } else { format!("{}.{name}", file.package) };
        if let Some(o) = self.origin_by_fqn(&same) {
            return Some(TypeName::Class(same, o));
        }
        let mut external_on_demand = Vec::new();
        for imp in file.imports.iter().filter(|i| i.on_demand) {
            let p = &*imp.path;
            let fqn = format!("{p}.{name}");
            if let Some(o) = self.origin_by_fqn(&fqn)
                && self.by_fqn(p).is_none()
            {
                return Some(TypeName::Class(fqn, o));
            }
            if let Some(pid) = self.by_fqn(p) {
                if let Some(t) = self.member_type_of(pid, name, &mut HashSet::new()) {
                    return Some(t);
                }
                continue;
            }
            if self.jdk.has(p, name) {
                return Some(TypeName::Class(fqn, Origin::Jdk));
            }
            if self.jdk.is_type(p) && starts_upper(name) {
                // `import java.util.Map.*;`
                if self.jdk.is_type(&fqn) {
                    return Some(TypeName::Class(fqn, Origin::Jdk));
                }
                continue;
            }
            if !self.packages.contains(p) && !self.jdk.is_package(p) {
                external_on_demand.push(fqn);
            }
        }
        let lang = format!("java.lang.{name}");
        if let Some(o) = self.origin_by_fqn(&lang) {
            return Some(TypeName::Class(lang, o));
        }
        if self.jdk.has("java.lang", name) {
            return Some(TypeName::Class(lang, Origin::Jdk));
        }
        if external_on_demand.len() == 1 && starts_upper(name) {
            return external_on_demand.pop().map(|f| TypeName::Class(f, Origin::Library));
        }
        None
    }

    /// A fully qualified type name, with its origin.
    pub(crate) fn resolve_qualified(&self, path: &str) -> Option<TypeName> {
        if let Some(o) = self.origin_by_fqn(path) {
            return Some(TypeName::Class(path.to_string(), o));
        }
        let segs: Vec<&str> = path.split('.').collect();
        let (_, last) =
            self.resolve_type_segments(&segs, &Ctx { file: u32::MAX, types: Vec::new(), tvars: Vec::new() });
        last
    }

    /// The origin of a qualified type name.
    pub fn origin(&self, fqn: &str) -> Origin {
        if let Some(o) = self.origin_by_fqn(fqn) {
            o
        } else if self.jdk.is_type(fqn) {
            Origin::Jdk
        } else if fqn.contains('.') {
            Origin::Library
        } else {
            Origin::Unresolved
        }
    }

    /// The supertypes of `ty` (itself first), breadth first, with type arguments substituted:
    /// the order javac searches members in. Classes come before interfaces.
    pub(crate) fn hierarchy(&self, ty: &Ty) -> Vec<(Ty, Option<TypeId>)> {
        if let Some((fqn, args)) = ty.lookup_class()
            && let Some(id) = self.by_fqn(fqn)
            && let Some(memo) = self.memo_of(id)
            && let Some(generic) = memo.hierarchy.get_or_init(|| self.generic_hierarchy(id))
        {
            let subst = self.subst_of(id, args);
            let mut out = Vec::with_capacity(generic.len());
            out.push((Ty::Class(fqn.into(), args.to_vec()), Some(id)));
            out.extend(generic[1..].iter().map(|(t, i)| (substitute(t, &subst), *i)));
            return out;
        }
        self.compute_hierarchy(ty)
    }

    /// The hierarchy of a type with no arguments, if substituting arguments for the type's own
    /// variables into it equals the hierarchy computed with those arguments: every supertype
    /// past the first level names only the variables its own arguments give values to.
    fn generic_hierarchy(&self, id: TypeId) -> Option<Hierarchy> {
        let top = Ty::Class(self.decl(id).fqn.clone(), Vec::new());
        let out = self.compute_hierarchy(&top);
        for (t, tid) in out.iter().skip(1) {
            let Some(tid) = tid else { continue };
            let args = t.lookup_class().map(|x| x.1).unwrap_or(&[]);
            let subst = self.subst_of(*tid, args);
            for s in self.supers(*tid) {
                if !vars_within(s, &subst) {
                    return None;
                }
            }
        }
        Some(out)
    }

    fn compute_hierarchy(&self, ty: &Ty) -> Vec<(Ty, Option<TypeId>)> {
        let mut out: Vec<(Ty, Option<TypeId>)> = Vec::new();
        let mut seen = HashSet::new();
        let mut queue = std::collections::VecDeque::new();
        queue.push_back(ty.clone());
        while let Some(t) = queue.pop_front() {
            let Some((fqn, args)) = t.lookup_class() else { continue };
            if !seen.insert(fqn.to_string()) || out.len() > 64 {
                continue;
            }
            let id = self.by_fqn(fqn);
            out.push((Ty::Class(fqn.into(), args.to_vec()), id));
            if let Some(id) = id {
                let subst = self.subst_of(id, args);
                for s in self.supers(id) {
                    queue.push_back(substitute(s, &subst));
                }
            }
        }
        out
    }

    fn subst_of(&self, id: TypeId, args: &[Ty]) -> Vec<(Box<str>, Ty)> {
        let d = self.decl(id);
        if args.len() != d.tparams.len() {
            return Vec::new();
        }
        d.tparams.iter().zip(args).map(|(p, a)| (p.name.as_str().into(), a.clone())).collect()
    }

    /// Fields named `name` visible in `ty` (the first found, as javac's lookup).
    pub(crate) fn find_field<'w>(&'w self, ty: &Ty, name: &str) -> Lookup<MemberHit<'w, FieldSym>> {
        let mut complete = true;
        for (t, id) in self.hierarchy(ty) {
            let Some(id) = id else {
                complete = false;
                continue;
            };
            if let Some(f) = self.decl(id).fields.iter().find(|f| &*f.name == name) {
                let args = t.lookup_class().map(|x| x.1.to_vec()).unwrap_or_default();
                return Lookup::Found(MemberHit { owner: id, decl: f, subst: self.subst_of(id, &args) });
            }
        }
        if complete { Lookup::Absent } else { Lookup::Unknown }
    }

    /// Methods named `name` that are members of `ty`: overridden ones hidden by their
    /// overriders (same erased parameters), most derived first.
    pub fn find_methods<'w>(&'w self, ty: &Ty, name: &str) -> (Vec<MemberHit<'w, MethodSym>>, bool) {
        let mut out: Vec<MemberHit<'w, MethodSym>> = Vec::new();
        let mut sigs: HashSet<Vec<String>> = HashSet::new();
        let mut complete = true;
        for (t, id) in self.hierarchy(ty) {
            let Some(id) = id else {
                complete = false;
                continue;
            };
            let args = t.lookup_class().map(|x| x.1.to_vec()).unwrap_or_default();
            let subst = self.subst_of(id, &args);
            for m in self.decl(id).methods.iter().filter(|m| &*m.name == name) {
                // Overriding is decided on the parameter types as seen from `ty` (a `save(T)` of
                // `Repo<Product>` is overridden by `save(Product)`).
                let sig: Vec<String> = self
                    .method_params(id, m)
                    .iter()
                    .map(|p| match p {
                        Some(t) => substitute(t, &subst).erasure(),
                        None => "?".into(),
                    })
                    .collect();
                if sigs.insert(sig) {
                    out.push(MemberHit { owner: id, decl: m, subst: subst.clone() });
                }
            }
        }
        (out, complete)
    }

    /// The parameter types of a method [`World::find_methods`] found, as seen from the type it
    /// was looked up in (its owner's type variables substituted); `None` where unresolved.
    pub fn hit_params(&self, hit: &MemberHit<'_, MethodSym>) -> Vec<Option<Ty>> {
        self.method_params(hit.owner, hit.decl).iter().map(|p| p.as_ref().map(|t| substitute(t, &hit.subst))).collect()
    }

    /// A method's parameter erasures as seen from `ty`, a subtype of its owner: the owner's
    /// type variables substituted by the arguments `ty` gives them (a `save(T)` of
    /// `Repo<Product>` is `save(Product)`). Overriding is decided on this signature.
    pub(crate) fn signature_in(&self, ty: &Ty, owner: TypeId, m: &MethodSym) -> Vec<String> {
        let args = self
            .hierarchy(ty)
            .into_iter()
            .find(|(_, id)| *id == Some(owner))
            .and_then(|(t, _)| t.lookup_class().map(|x| x.1.to_vec()))
            .unwrap_or_default();
        let subst = self.subst_of(owner, &args);
        self.method_params(owner, m)
            .iter()
            .map(|p| match p {
                Some(t) => substitute(t, &subst).erasure(),
                None => "?".into(),
            })
            .collect()
    }

    /// A method's parameter erasures, in its declaring type's context.
    pub(crate) fn erased_params(&self, m: &MethodSym, type_ctx: &Ctx) -> Vec<String> {
        let ctx = self.with_method_tparams(type_ctx, &m.tparams);
        m.params.iter().map(|p| self.resolve_text(p, &ctx).map(|t| t.erasure()).unwrap_or_else(|| "?".into())).collect()
    }

    /// The key javac's binding would print: `Owner#name(p1,p2)`.
    pub fn method_key(&self, owner: TypeId, m: &MethodSym) -> String {
        match self.method_memo(owner, m) {
            Some(mm) => mm.key.clone(),
            None => {
                let params = self.resolved_params(m, &self.ctx_ref(owner));
                self.format_method_key(owner, m, &params)
            }
        }
    }

    /// Whether instances of a type may be serialized by Java serialization: it is
    /// `java.io.Serializable`, or a supertype the world cannot see may make it one.
    pub fn may_be_serializable(&self, id: TypeId) -> bool {
        let ty = Ty::class(&self.decl(id).fqn);
        self.is_subtype(&ty, &Ty::class("java.io.Serializable")) != Some(false)
    }

    /// The package a workspace type is declared in (`None` for the JDK API table's types).
    pub fn package_of(&self, id: TypeId) -> Option<&str> {
        if !self.is_workspace(id) {
            return None;
        }
        let f = self.files.get(self.file_of(id) as usize)?;
        Some(f.decls().package.as_str())
    }

    /// Whether a method declared in `sub` may override `base`, declared in `owner`, by their
    /// access (JLS 8.4.8.1), their signatures aside: a private or static method overrides
    /// nothing and is overridden by nothing; a package-private one is overridden only from its
    /// own package (a subclass in another package declaring the same signature declares a
    /// new method). `sub_package`: the package of `sub` when it has no id (an anonymous class).
    pub fn may_override(
        &self,
        sub: Option<TypeId>,
        sub_package: &str,
        m_private: bool,
        owner: TypeId,
        base: &MethodSym,
    ) -> bool {
        if m_private || base.is_private || base.is_static {
            return false;
        }
        if base.is_public_api || !self.is_workspace(owner) {
            return true;
        }
        let here = sub.and_then(|s| self.package_of(s)).unwrap_or(sub_package);
        self.package_of(owner).is_none_or(|p| p == here)
    }

    /// [`Self::may_override`] for a method `m` declared in the workspace type `sub`.
    pub fn overrides_by_access(&self, sub: TypeId, m: &MethodSym, owner: TypeId, base: &MethodSym) -> bool {
        !m.is_static && self.may_override(Some(sub), "", m.is_private, owner, base)
    }

    /// The keys of the methods `m` (an instance method declared in `owner`) overrides or
    /// implements: same name and parameter erasures as seen from `owner`, nearest supertype
    /// first. For exports that link an override to what it overrides.
    pub fn overridden_keys(&self, owner: TypeId, m: &MethodSym) -> Vec<String> {
        if m.is_static {
            return Vec::new();
        }
        let ty = Ty::class(&self.decl(owner).fqn);
        let sig = self.signature_in(&ty, owner, m);
        let mut out = Vec::new();
        for (_, id) in self.hierarchy(&ty).into_iter().skip(1) {
            let Some(id) = id else { continue };
            for b in self.decl(id).methods.iter().filter(|b| b.name == m.name && !b.is_static && !b.implicit) {
                if self.signature_in(&ty, id, b) == sig && self.overrides_by_access(owner, m, id, b) {
                    out.push(self.method_key(id, b));
                }
            }
        }
        out
    }

    /// Whether `m` (an instance method declared in `owner`) overrides a method the world sees
    /// that is visible outside its package (public, protected, an interface's): then
    /// `@Override` on it compiles.
    pub fn overrides_visible(&self, owner: TypeId, m: &MethodSym) -> bool {
        if m.is_static || m.is_private || m.implicit || *m.name == *self.decl(owner).simple {
            return false;
        }
        let ty = Ty::class(&self.decl(owner).fqn);
        let sig = self.signature_in(&ty, owner, m);
        self.hierarchy(&ty).into_iter().skip(1).filter_map(|(_, id)| id).any(|id| {
            self.decl(id).methods.iter().any(|b| {
                b.name == m.name
                    && !b.is_static
                    && !b.implicit
                    && b.is_public_api
                    && self.signature_in(&ty, id, b) == sig
            })
        })
    }

    /// The qualified names of a type's supertypes, direct and indirect, in javac's search order.
    pub fn supertype_names(&self, id: TypeId) -> Vec<String> {
        let ty = Ty::class(&self.decl(id).fqn);
        self.hierarchy(&ty)
            .into_iter()
            .skip(1)
            .filter_map(|(t, _)| t.lookup_class().map(|(f, _)| f.to_string()))
            .collect()
    }

    pub(crate) fn field_key(&self, owner: TypeId, f: &FieldSym) -> String {
        format!("{}#{}", self.decl(owner).fqn, f.name)
    }

    /// Is `a` a subtype of `b` (both resolved)? `None` when it cannot be known (an external
    /// type's hierarchy).
    pub fn is_subtype(&self, a: &Ty, b: &Ty) -> Option<bool> {
        match (a, b) {
            (_, Ty::Class(bf, _)) if &**bf == OBJECT => Some(!a.is_prim()),
            (Ty::Null, _) => Some(!b.is_prim()),
            (Ty::Prim(x), Ty::Prim(y)) => Some(prim_widens(x, y)),
            (Ty::Prim(_), _) | (_, Ty::Prim(_)) => Some(false),
            (Ty::Array(x), Ty::Array(y)) => {
                if x.is_prim() || y.is_prim() {
                    Some(x == y)
                } else {
                    self.is_subtype(x, y)
                }
            }
            (Ty::Array(_), Ty::Class(bf, _)) => Some(matches!(&**bf, "java.lang.Cloneable" | "java.io.Serializable")),
            (Ty::Class(..), Ty::Array(_)) => Some(false),
            // A type variable's supertypes are its bounds, never an array type.
            (Ty::Var(..), Ty::Array(_)) => Some(false),
            (Ty::Var(_, ab), _) => self.is_subtype(ab, b).or(Some(false)).filter(|x| *x).or(None),
            (_, Ty::Var(..)) => None,
            (Ty::Class(af, aargs), Ty::Class(bf, bargs)) => {
                if af == bf {
                    return Some(self.type_args_fit(aargs, bargs));
                }
                let b_id = self.by_fqn(bf);
                if b_id.is_some_and(|id| self.decl(id).is_final) {
                    return Some(false);
                }
                let mut complete = true;
                for (t, id) in self.hierarchy(a) {
                    if let Some((f, targs)) = t.lookup_class()
                        && f == &**bf
                    {
                        return Some(self.type_args_fit(targs, bargs));
                    }
                    if id.is_none() {
                        complete = false;
                    }
                }
                // JDK and library classes never extend workspace ones.
                if complete || b_id.is_some_and(|id| self.is_workspace(id)) { Some(false) } else { None }
            }
            _ => None,
        }
    }

    /// Whether a class type's arguments `a` can be those a type `b` of the same class asks for:
    /// false only when a pair certainly cannot (a `Set<Artifact>` is no
    /// `Collection<? extends MavenProject>`). A wildcard reads as its bound here (`? extends X`
    /// as X, `?` and `? super X` as Object), so an argument fits when it is a subtype of the
    /// other; raw types, type variables and `Object` (what an argument of a call the engine
    /// cannot infer may read as) are taken to fit.
    fn type_args_fit(&self, a: &[Ty], b: &[Ty]) -> bool {
        fn plain(t: &Ty) -> bool {
            match t {
                Ty::Class(f, args) => &**f != OBJECT && args.iter().all(plain),
                Ty::Array(e) => plain(e),
                Ty::Prim(_) => true,
                Ty::Var(..) | Ty::Null => false,
            }
        }
        // `? extends X` (a variable `?` bounded by X) contains X and its subtypes only.
        fn bound(t: &Ty) -> &Ty {
            match t {
                Ty::Var(n, b) if &**n == crate::ty::WILDCARD => b,
                _ => t,
            }
        }
        a.len() != b.len()
            || a.iter()
                .zip(b)
                .map(|(x, y)| (bound(x), bound(y)))
                .all(|(x, y)| !plain(x) || !plain(y) || self.is_subtype(x, y) != Some(false))
    }

    /// Method invocation conversion (JLS 5.3) of an argument type to a parameter type, in
    /// phase 1 (no boxing) or 2 (boxing). `None`: cannot be known.
    pub(crate) fn assignable(&self, arg: &Ty, param: &Ty, boxing: bool) -> Option<bool> {
        match (arg, param) {
            (Ty::Prim(a), Ty::Prim(p)) => Some(prim_widens(a, p)),
            (Ty::Prim(a), _) => {
                if !boxing {
                    return Some(false);
                }
                let b = Ty::class(boxed(a)?);
                self.is_subtype(&b, param)
            }
            (Ty::Class(f, _), Ty::Prim(p)) => {
                if !boxing {
                    return Some(false);
                }
                Some(unboxed(f).is_some_and(|u| prim_widens(u, p)))
            }
            _ => self.is_subtype(arg, param),
        }
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

/// Whether every type variable in `t` is one `subst` replaces.
fn vars_within(t: &Ty, subst: &[(Box<str>, Ty)]) -> bool {
    match t {
        Ty::Var(n, _) => subst.iter().any(|(k, _)| k == n),
        Ty::Class(_, a) => a.iter().all(|x| vars_within(x, subst)),
        Ty::Array(e) => vars_within(e, subst),
        _ => true,
    }
}

/// Replaces type variables by their arguments.
pub(crate) fn substitute(t: &Ty, subst: &[(Box<str>, Ty)]) -> Ty {
    if subst.is_empty() {
        return t.clone();
    }
    match t {
        Ty::Var(n, _) => subst.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone()).unwrap_or_else(|| t.clone()),
        Ty::Class(f, a) => Ty::Class(f.clone(), a.iter().map(|x| substitute(x, subst)).collect()),
        Ty::Array(e) => Ty::Array(Box::new(substitute(e, subst))),
        _ => t.clone(),
    }
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
