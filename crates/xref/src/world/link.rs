//! Linking (javac's TypeEnter): the world built from every file's declarations, restored from
//! the store's link, or relinked after a member-only edit; each type's supertypes and the context
//! inside its body.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::path::Path;
use std::sync::{Arc, OnceLock};

use mji_model::TypeKind;

use super::jdk_api::JdkApi;
use super::{Ctx, FileEntry, JDK_BASE, JdkTypes, TypeId, World};
use crate::decls::{FileDecls, TParam};
use crate::index::flat::{self, ByFqn, ByName, Packages, Simple};
use crate::index::lazy::Decls;
use crate::name::Name;
use crate::ty::{OBJECT, Ty, TyText};

impl World {
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
            delegated: OnceLock::new(),
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
            delegated: OnceLock::new(),
        })
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
            delegated: OnceLock::new(),
        })
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

    pub(super) fn compute_ctx_in(&self, id: TypeId) -> Ctx {
        let chain = self.chain(id);
        let mut tvars = Vec::new();
        let mut params: Vec<&TParam> = Vec::new();
        let mut c = Ctx { file: self.file_of(id), types: Vec::new(), tvars: Vec::new(), more_bounds: Vec::new() };
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
        let more: Vec<(Box<str>, Vec<Ty>)> = self.more_bounds_of(&params, &c);
        for (slot, b) in c.tvars.iter_mut().zip(bounds) {
            slot.1 = b;
        }
        c.more_bounds = more;
        c
    }

    /// The erased bounds after the first of the type parameters declared with several.
    fn more_bounds_of(&self, params: &[&TParam], ctx: &Ctx) -> Vec<(Box<str>, Vec<Ty>)> {
        let erased = |b: &crate::ty::TyText| match self.resolve_text(b, ctx) {
            Some(Ty::Class(f, _)) => Some(Ty::Class(f, Vec::new())),
            _ => None,
        };
        params
            .iter()
            .filter(|tp| tp.bounds.len() > 1)
            .map(|tp| (tp.name.as_str().into(), tp.bounds[1..].iter().filter_map(erased).collect()))
            .collect()
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
        let params: Vec<&TParam> = tparams.iter().collect();
        let more = self.more_bounds_of(&params, &c);
        // A method's variable shadows a type's of its name, and its bounds with it.
        c.more_bounds.retain(|(n, _)| !tparams.iter().any(|tp| *tp.name == **n));
        c.more_bounds.splice(0..0, more);
        c
    }

    fn compute_supers(&self, id: TypeId) -> Vec<Ty> {
        let d = self.decl(id);
        // Supertypes are resolved outside the type's body: its outer chain and its own type
        // parameters.
        let mut ctx = match d.outer {
            Some(o) => self.compute_ctx_in(self.type_in_file(self.file_of(id), o)),
            None => Ctx { file: self.file_of(id), types: Vec::new(), tvars: Vec::new(), more_bounds: Vec::new() },
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
}
