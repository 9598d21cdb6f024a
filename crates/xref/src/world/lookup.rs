//! Lookup (javac's Resolve): a written type name resolved from a place in the code (JLS
//! §6.4–6.5: type variables, enclosing and member types, imports, the package, `java.lang`), and
//! the fields and methods that are members of a type (§8.4.8, §15.12 simplified).

use foldhash::{HashSet, HashSetExt};

use super::jdk_api::jdk_ty;
use super::types::substitute;
use super::{Ctx, JDK_BASE, Lookup, MemberHit, Origin, TypeId, TypeName, World, starts_upper};
use crate::decls::{FieldSym, MethodSym};
use crate::ty::{Ty, TyText};

impl World {
    fn origin_by_fqn(&self, fqn: &str) -> Option<Origin> {
        self.by_fqn(fqn).map(|id| self.origin_of(id))
    }

    pub(crate) fn is_package(&self, p: &str) -> bool {
        self.packages.contains(p) || self.jdk.is_package(p)
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
        let (_, last) = self.resolve_type_segments(
            &segs,
            &Ctx { file: u32::MAX, types: Vec::new(), tvars: Vec::new(), more_bounds: Vec::new() },
        );
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
            for m in self.decl(id).methods.iter().chain(self.delegated_methods(id)).filter(|m| &*m.name == name) {
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

    pub(crate) fn field_key(&self, owner: TypeId, f: &FieldSym) -> String {
        format!("{}#{}", self.decl(owner).fqn, f.name)
    }
}
