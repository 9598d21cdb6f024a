//! Type relations (javac's Types): a type's supertypes in search order with arguments
//! substituted, subtyping and method invocation conversion, overriding by access and signature.

use foldhash::{HashSet, HashSetExt};

use super::{Hierarchy, TypeId, World};
use crate::decls::MethodSym;
use crate::ty::{OBJECT, STRING, Ty, boxed, prim_widens, promote, unboxed};

impl World {
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

    /// The substitution of `id`'s type parameters by a use's arguments.
    pub(crate) fn subst_of(&self, id: TypeId, args: &[Ty]) -> Vec<(Box<str>, Ty)> {
        let d = self.decl(id);
        if args.len() != d.tparams.len() {
            return Vec::new();
        }
        let subst: Vec<(Box<str>, Ty)> =
            d.tparams.iter().zip(args).map(|(p, a)| (p.name.as_str().into(), a.clone())).collect();
        // Capture conversion, as far as lookups need it (JLS 5.1.10): `?` (a variable `?`
        // bounded by `Object`) and `? super X` (read as `Object<X>`) for a parameter declared
        // with a bound stand for that bound, its own parameters replaced by the same arguments —
        // `B` of `Builder<?, ?>` where `B extends Builder<C, B>` is a `Builder<?, ?>`, whose
        // methods a chain calls next.
        let open = |a: &Ty| match a {
            Ty::Class(f, _) => &**f == OBJECT,
            Ty::Var(n, b) => {
                &**n == crate::ty::WILDCARD && matches!(&**b, Ty::Class(f, x) if &**f == OBJECT && x.is_empty())
            }
            _ => false,
        };
        if !d.tparams.iter().zip(args).any(|(p, a)| open(a) && !p.bounds.is_empty()) {
            return subst;
        }
        let ctx = self.ctx_in(id);
        d.tparams
            .iter()
            .zip(args)
            .map(|(p, a)| {
                let captured = match p.bounds.first() {
                    Some(b) if open(a) => match self.resolve_text(b, &ctx) {
                        Some(t @ Ty::Class(..)) => substitute(&t, &subst),
                        _ => a.clone(),
                    },
                    _ => a.clone(),
                };
                (p.name.as_str().into(), captured)
            })
            .collect()
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

    /// Whether instances of a type may be serialized by Java serialization: it is
    /// `java.io.Serializable`, or a supertype the world cannot see may make it one.
    pub fn may_be_serializable(&self, id: TypeId) -> bool {
        let ty = Ty::class(&self.decl(id).fqn);
        self.is_subtype(&ty, &Ty::class("java.io.Serializable")) != Some(false)
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

    /// The type of a conditional `c ? a : b` whose operands have types `a` and `b` (JLS 15.25);
    /// `a_int`/`b_int`: the operand is an int literal, which fits a narrower operand's type.
    pub(crate) fn conditional(&self, a: Ty, b: Ty, a_int: bool, b_int: bool) -> Ty {
        if a == b {
            return a;
        }
        let prim = |t: &Ty| match t {
            Ty::Prim(p) => Some(p.to_string()),
            Ty::Class(f, _) => crate::ty::unboxed(f).map(str::to_string),
            _ => None,
        };
        match (&a, &b) {
            (Ty::Null, Ty::Prim(p)) | (Ty::Prim(p), Ty::Null) => {
                return crate::ty::boxed(p).map_or(Ty::object(), Ty::class);
            }
            (Ty::Null, t) | (t, Ty::Null) => return t.clone(),
            _ => {}
        }
        if let (Some(p), Some(q)) = (prim(&a), prim(&b)) {
            // Boolean and numeric conditionals: unboxed, then promoted; an int constant fits a
            // byte, short or char operand.
            if p == q {
                return Ty::Prim(p.into());
            }
            let narrow = |n: &str| matches!(n, "byte" | "short" | "char");
            if q == "int" && b_int && narrow(&p) {
                return Ty::Prim(p.into());
            }
            if p == "int" && a_int && narrow(&q) {
                return Ty::Prim(q.into());
            }
            if p != "boolean" && q != "boolean" {
                return Ty::Prim(promote(&p, &q).into());
            }
        }
        if a.is_prim() || b.is_prim() {
            let boxed = |t: Ty| match t {
                Ty::Prim(p) => crate::ty::boxed(&p).map_or(Ty::object(), Ty::class),
                t => t,
            };
            return self.lub(boxed(a), boxed(b));
        }
        self.lub(a, b)
    }

    /// The least upper bound of two reference types (JLS 4.10.4) as member lookup reads it:
    /// one when it is a supertype of the other, else the first superclass of `a` that `b`
    /// extends, else the first common interface, else `Object`.
    fn lub(&self, a: Ty, b: Ty) -> Ty {
        if self.is_subtype(&a, &b) == Some(true) {
            return b;
        }
        if self.is_subtype(&b, &a) == Some(true) {
            return a;
        }
        let up = self.hierarchy(&a);
        // A hierarchy the world cannot see whole: as before, the first operand's type.
        if up.iter().any(|(_, id)| id.is_none()) || self.hierarchy(&b).iter().any(|(_, id)| id.is_none()) {
            return a;
        }
        let common: Vec<Ty> =
            up.into_iter().filter(|(t, _)| self.is_subtype(&b, t) == Some(true)).map(|(t, _)| t).collect();
        let class = |t: &Ty| {
            t.lookup_class().and_then(|(f, _)| self.by_fqn(f)).is_some_and(|id| {
                !matches!(self.decl(id).kind, mji_model::TypeKind::Interface | mji_model::TypeKind::Annotation)
            })
        };
        let not_object = |t: &&Ty| t.lookup_class().is_some_and(|(f, _)| f != crate::ty::OBJECT);
        common
            .iter()
            .filter(not_object)
            .find(|t| class(t))
            .or_else(|| common.iter().find(not_object))
            .cloned()
            .unwrap_or_else(Ty::object)
    }

    /// The parameter types of a functional interface type's one abstract method, as far as the
    /// declarations show it: the interface's instance methods, less `Object`'s and those whose
    /// parameters or result name the interface itself (`andThen`, `compose`, `negate`), less
    /// generic ones, must leave one; whatever those parameter types are.
    pub(crate) fn function_sam(&self, t: &Ty) -> Option<Vec<Ty>> {
        let (fqn, _) = t.lookup_class()?;
        let id = self.by_fqn(fqn)?;
        if !matches!(self.decl(id).kind, mji_model::TypeKind::Interface) {
            return None;
        }
        let mut found: Option<Vec<Ty>> = None;
        for (st, sid) in self.hierarchy(t) {
            let sid = sid?;
            let sfqn = st.lookup_class().map(|(f, _)| f.to_string())?;
            let args = st.lookup_class().map(|(_, a)| a.to_vec()).unwrap_or_default();
            let d = self.decl(sid);
            let subst: Vec<(Box<str>, Ty)> = if d.tparams.len() == args.len() {
                d.tparams.iter().zip(&args).map(|(p, a)| (p.name.as_str().into(), a.clone())).collect()
            } else {
                Vec::new()
            };
            for m in d.methods.iter().filter(|m| !m.is_static && m.tparams.is_empty() && !is_object_method(&m.name)) {
                let ctx = self.ctx_ref(sid);
                let names_self = |tt: &crate::ty::TyText| {
                    self.resolve_text(tt, &ctx)
                        .is_some_and(|r| r.lookup_class().is_some_and(|(f, _)| f == sfqn || f == fqn))
                };
                if names_self(&m.ret) || m.params.iter().any(names_self) {
                    continue;
                }
                if found.is_some() {
                    return None;
                }
                let ps: Option<Vec<Ty>> =
                    self.method_params(sid, m).iter().map(|p| p.as_ref().map(|p| substitute(p, &subst))).collect();
                found = Some(ps?);
            }
        }
        found
    }
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

/// The erasure of a type (JLS 4.6) as a type: no arguments, variables by their bound.
pub(crate) fn erased(t: &Ty) -> Ty {
    match t {
        Ty::Class(f, _) => Ty::Class(f.clone(), Vec::new()),
        Ty::Array(e) => Ty::Array(Box::new(erased(e))),
        Ty::Var(_, b) => erased(b),
        Ty::Null => Ty::object(),
        Ty::Prim(_) => t.clone(),
    }
}

/// Methods every object has: a call on an unknown receiver is not guessed to be a workspace one.
pub(crate) fn is_object_method(name: &str) -> bool {
    matches!(
        name,
        "toString" | "equals" | "hashCode" | "getClass" | "clone" | "finalize" | "notify" | "notifyAll" | "wait"
    )
}

pub(crate) fn unbox(t: Ty) -> Ty {
    match &t {
        Ty::Class(f, _) => unboxed(f).map(|p| Ty::Prim(p.into())).unwrap_or(t),
        _ => t,
    }
}

pub(crate) fn binary_type(op: &str, l: Option<Ty>, r: Option<Ty>) -> Option<Ty> {
    match op {
        "==" | "!=" | "<" | ">" | "<=" | ">=" | "&&" | "||" => Some(Ty::Prim("boolean".into())),
        "+" if [&l, &r].iter().any(|t| matches!(t, Some(Ty::Class(f, _)) if &**f == STRING)) => Some(Ty::class(STRING)),
        "<<" | ">>" | ">>>" => l.map(unbox).map(|t| match t {
            Ty::Prim(p) if matches!(&*p, "byte" | "short" | "char") => Ty::Prim("int".into()),
            t => t,
        }),
        _ => match (l.map(unbox), r.map(unbox)) {
            (Some(Ty::Prim(a)), Some(Ty::Prim(b))) => {
                if &*a == "boolean" && &*b == "boolean" {
                    Some(Ty::Prim("boolean".into()))
                } else {
                    Some(Ty::Prim(promote(&a, &b).into()))
                }
            }
            _ => None,
        },
    }
}
