//! Overload selection, as javac does it: candidates by arity, the three phases (strict, loose,
//! varargs), the most specific method, and constructor references.

use super::Resolver;
use crate::decls::MethodSym;
use crate::ty::Ty;
use crate::world::{MemberHit, substitute};
use crate::{Category, Confidence, RefKind};
use tree_sitter::Node;

impl<'w, 's> Resolver<'w, 's> {
    pub(super) fn static_import_methods(&self, name: &str) -> Vec<MemberHit<'w, MethodSym>> {
        for on_demand in [false, true] {
            let out: Vec<MemberHit<'w, MethodSym>> = self
                .static_import_owners(name, on_demand)
                .into_iter()
                .flat_map(|owner| self.w.find_methods(&Ty::class(&owner), name).0)
                .filter(|m| m.decl.is_static)
                .collect();
            if !out.is_empty() {
                return out;
            }
        }
        Vec::new()
    }

    /// A method's parameter types, erased (`""` where not resolved).
    pub(super) fn erased_params(&self, m: &MemberHit<'w, MethodSym>) -> Vec<String> {
        self.w.method_params(m.owner, m.decl).iter().map(|p| p.as_ref().map(Ty::erasure).unwrap_or_default()).collect()
    }

    /// The methods named `name` that are members of `t`, as javac finds them: an interface's
    /// (or a type variable's bounded by one) include `Object`'s public methods (JLS 9.2), which
    /// javac searches right after the interface itself: `Object`'s method is bound over a
    /// superinterface's abstract redeclaration of it (`myAnnotation.hashCode()` is
    /// `Object#hashCode()`), the interface's own redeclaration over `Object`'s
    /// (`list.equals(o)` is `List#equals(Object)`).
    pub(super) fn methods_of(&self, t: &Ty, name: &str) -> (Vec<MemberHit<'w, MethodSym>>, bool) {
        let (mut ms, mut complete) = self.class_first_methods(t, name);
        // A variable of several bounds has the members of each (`T extends Object &
        // Comparable<? super T>`: `t.compareTo(u)` is Comparable's): the later bounds are
        // looked in when the first has no method of the name.
        if ms.is_empty()
            && let Ty::Var(v, _) = t
            && let Some((_, more)) = self.ctx().more_bounds.iter().find(|(n, _)| n == v)
        {
            for b in more {
                let (found, all) = self.class_first_methods(b, name);
                complete &= all;
                ms.extend(found);
            }
        }
        let own = t.lookup_class().and_then(|(f, _)| self.w.by_fqn(f));
        let interface = own.is_some_and(|id| {
            matches!(self.w.decl(id).kind, mji_model::TypeKind::Interface | mji_model::TypeKind::Annotation)
        });
        if !interface || !crate::world::types::is_object_method(name) || matches!(name, "clone" | "finalize") {
            return (ms, complete);
        }
        let (object, _) = self.w.find_methods(&Ty::object(), name);
        let sig = |m: &MemberHit<'w, MethodSym>| self.erased_params(m);
        let own_sigs: Vec<Vec<String>> = ms.iter().filter(|m| Some(m.owner) == own).map(sig).collect();
        let object: Vec<MemberHit<'w, MethodSym>> =
            object.into_iter().filter(|m| !own_sigs.contains(&sig(m))).collect();
        let object_sigs: Vec<Vec<String>> = object.iter().map(sig).collect();
        ms.retain(|m| Some(m.owner) == own || !object_sigs.contains(&sig(m)));
        ms.extend(object);
        (ms, complete)
    }

    /// [`World::find_methods`] with javac's order: the superclasses' methods before the
    /// interfaces', so a class's inherited implementation hides an interface's abstract
    /// declaration (`hashSet.retainAll(c)` is `AbstractCollection#retainAll`, not `Set`'s).
    ///
    /// [`World::find_methods`]: crate::world::World::find_methods
    fn class_first_methods(&self, t: &Ty, name: &str) -> (Vec<MemberHit<'w, MethodSym>>, bool) {
        let interface = |id: crate::world::TypeId| {
            matches!(self.w.decl(id).kind, mji_model::TypeKind::Interface | mji_model::TypeKind::Annotation)
        };
        // A supertype's private methods are no members of `t` (JLS 8.2), and `t`'s own are not
        // accessible outside its top-level class (taken as its file; JLS 6.6.1).
        let own = t.lookup_class().and_then(|(f, _)| self.w.by_fqn(f));
        let access_ok =
            |id: crate::world::TypeId, m: &MethodSym| (!m.is_private || own == Some(id)) && self.accessible(id, m);
        let mut h = self.w.hierarchy(t);
        // Stable: the classes in their order, then the interfaces in theirs.
        h.sort_by_key(|(_, id)| id.is_some_and(interface));
        let mut out: Vec<MemberHit<'w, MethodSym>> = Vec::new();
        let mut sigs: Vec<Vec<String>> = Vec::new();
        let mut complete = true;
        for (st, id) in h {
            let Some(id) = id else {
                complete = false;
                continue;
            };
            let d = self.w.decl(id);
            let args = st.lookup_class().map(|x| x.1.to_vec()).unwrap_or_default();
            let subst = self.w.subst_of(id, &args);
            // Lombok's `@Delegate` methods are the type's own.
            let delegated = self.w.delegated_methods(id);
            for m in d.methods.iter().chain(delegated).filter(|m| &*m.name == name && access_ok(id, m)) {
                let sig: Vec<String> = self
                    .w
                    .method_params(id, m)
                    .iter()
                    .map(|p| p.as_ref().map(|t| substitute(t, &subst).erasure()).unwrap_or_else(|| "?".into()))
                    .collect();
                match sigs.iter().position(|s| *s == sig) {
                    None => {
                        sigs.push(sig);
                        out.push(MemberHit { owner: id, decl: m, subst: subst.clone() });
                    }
                    // A superclass's abstract method and an interface's of the same signature,
                    // neither overriding the other (`AbstractCollection#size()` and `List#size()`
                    // in an `AbstractList`): javac's most specific method is ambiguous between
                    // them and merges the abstract ones, keeping the interface's (found later)
                    // when its result type is the same; a default method is chosen over the
                    // abstract one.
                    Some(k) if interface(id) && !m.is_static && !interface(out[k].owner) && out[k].decl.is_abstract => {
                        let class = Ty::class(&self.w.decl(out[k].owner).fqn);
                        let iface = Ty::class(&d.fqn);
                        let ret = |h: &MemberHit<'w, MethodSym>| {
                            let ctx = self.w.with_method_tparams(&self.w.ctx_ref(h.owner), &h.decl.tparams);
                            self.w.resolve_text(&h.decl.ret, &ctx).map(|t| substitute(&t, &h.subst).erasure())
                        };
                        let hit = MemberHit { owner: id, decl: m, subst: subst.clone() };
                        let same_ret = ret(&out[k]).is_some_and(|r| ret(&hit) == Some(r));
                        if same_ret && self.w.is_subtype(&class, &iface) == Some(false) {
                            out[k] = hit;
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        (out, complete)
    }

    /// Overload resolution among `cands`; emits the reference and returns the result type.
    pub(super) fn pick(
        &mut self,
        at: Node,
        cands: Vec<MemberHit<'w, MethodSym>>,
        args: &[Option<Ty>],
        complete: bool,
    ) -> Option<Ty> {
        let (chosen, exact) = self.select(&cands, args);
        if chosen.is_empty() {
            return None;
        }
        let keys: Vec<String> = chosen.iter().map(|&i| self.w.method_key(cands[i].owner, cands[i].decl)).collect();
        let certain = exact && keys.len() == 1 && (complete || self.unseen_cannot_compete(&cands, chosen[0]));
        let conf = if certain { Confidence::Exact } else { Confidence::Likely };
        self.emit(at, RefKind::Call, Category::Method, keys, conf);
        if chosen.len() != 1 {
            return None;
        }
        let m = &cands[chosen[0]];
        self.last_pick = Some(m.clone());
        let ctx = self.w.with_method_tparams(&self.w.ctx_ref(m.owner), &m.decl.tparams);
        let t = substitute(&self.w.resolve_text(&m.decl.ret, &ctx)?, &m.subst);
        Some(substitute(&t, &self.infer(m, args)))
    }

    /// The method's own type variables the arguments fix, as javac infers them when nothing
    /// else constrains them: `lookup(Class<T>)` given a `Class<Scope>` returns a `Scope`, and
    /// `requireNonNull(T)` given a `String` a `String`. A variable the arguments give two
    /// different types (or that shares a name with its class's) stays a variable, read by its
    /// bound.
    fn infer(&self, m: &MemberHit<'w, MethodSym>, args: &[Option<Ty>]) -> Vec<(Box<str>, Ty)> {
        let tparams = &m.decl.tparams;
        if tparams.is_empty() || tparams.iter().any(|p| m.subst.iter().any(|(k, _)| *k == p.name)) {
            return Vec::new();
        }
        let params = self.w.method_params(m.owner, m.decl);
        let fixed = if m.decl.varargs { params.len().saturating_sub(1) } else { params.len() };
        let mut out: Vec<(Box<str>, Option<Ty>)> = Vec::new();
        for (p, a) in params.iter().zip(args).take(fixed) {
            if let (Some(p), Some(a)) = (p, a) {
                self.unify(p, a, tparams, &mut out, 0);
            }
        }
        out.into_iter().filter_map(|(k, t)| Some((k, t?))).collect()
    }

    /// Binds the variables of `tparams` in parameter type `p` to the parts of argument type
    /// `a` they match; a second, different binding makes a variable unknown (`None`).
    fn unify(
        &self,
        p: &Ty,
        a: &Ty,
        tparams: &[crate::decls::TParam],
        out: &mut Vec<(Box<str>, Option<Ty>)>,
        depth: u32,
    ) {
        if depth > 8 {
            return;
        }
        match p {
            Ty::Var(n, _) if tparams.iter().any(|t| t.name == *n) => {
                let a = match a {
                    Ty::Prim(x) => match crate::ty::boxed(x) {
                        Some(b) => Ty::class(b),
                        None => return,
                    },
                    Ty::Null => return,
                    other => other.clone(),
                };
                match out.iter_mut().find(|(k, _)| k == n) {
                    Some((_, seen)) if seen.as_ref() != Some(&a) => *seen = None,
                    Some(_) => {}
                    None => out.push((n.clone(), Some(a))),
                }
            }
            Ty::Array(pe) => {
                if let Ty::Array(ae) = a {
                    self.unify(pe, ae, tparams, out, depth + 1);
                }
            }
            // `Object<X>` is a wildcard `? super X`, which fixes nothing here.
            Ty::Class(f, pargs) if !pargs.is_empty() && &**f != crate::ty::OBJECT => {
                let view = match a {
                    Ty::Class(af, aargs) if af == f => Some(aargs.clone()),
                    Ty::Class(..) => self
                        .w
                        .hierarchy(a)
                        .into_iter()
                        .find_map(|(t, _)| t.lookup_class().filter(|(tf, _)| *tf == &**f).map(|(_, x)| x.to_vec())),
                    _ => None,
                };
                if let Some(aargs) = view
                    && aargs.len() == pargs.len()
                {
                    for (pp, aa) in pargs.iter().zip(&aargs) {
                        self.unify(pp, aa, tparams, out, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether `cands[chosen]`, the one choice among the visible methods of a type whose
    /// hierarchy holds a type the world cannot see (a library's), is javac's choice too. The
    /// unseen type could declare an overload of the name; it is taken not to unless the
    /// visible methods say it declares the name: one of them is marked `@Override` (it may
    /// override the unseen type's). The choice must also be a workspace method, which an
    /// unseen type (not a subtype of it) cannot override: a JDK method (`Object#toString()`)
    /// may be overridden by the library type, whose key javac would give.
    pub(super) fn unseen_cannot_compete(&self, cands: &[MemberHit<'w, MethodSym>], chosen: usize) -> bool {
        self.w.is_workspace(cands[chosen].owner) && !cands.iter().any(|c| c.decl.marked_override)
    }

    /// Whether the private members of `id` are accessible here: within the top-level class
    /// that encloses it (JLS 6.6.1). Unknown (no enclosing named type) counts as accessible.
    pub(super) fn private_accessible(&self, id: crate::world::TypeId) -> bool {
        match self.frames.iter().find_map(|f| f.type_id) {
            Some(here) => !self.w.is_workspace(id) || self.top_level(here) == self.top_level(id),
            None => true,
        }
    }

    fn top_level(&self, mut t: crate::world::TypeId) -> crate::world::TypeId {
        while let Some(o) = self.w.decl(t).outer {
            t = self.w.type_in_file(self.w.file_of(t), o);
        }
        t
    }

    /// Whether a member of `id` with access `m` is accessible here (JLS 6.6.1): a private one
    /// within its top-level class, a package-private one within its package. Protected members
    /// count as accessible (`is_public_api` does not tell them from public ones).
    pub(super) fn accessible(&self, id: crate::world::TypeId, m: &MethodSym) -> bool {
        if m.is_private {
            return self.private_accessible(id);
        }
        if m.is_public_api || !self.w.is_workspace(id) || self.frames.iter().all(|f| f.type_id.is_none()) {
            return true;
        }
        let top = self.w.decl(self.top_level(id));
        let package = top.fqn.strip_suffix(&*top.simple).map(|p| p.trim_end_matches('.')).unwrap_or("");
        package == self.package
    }

    /// Indexes of the candidates javac would choose from (one when it can be known), and
    /// whether the choice is certain.
    pub(super) fn select(&self, cands: &[MemberHit<'w, MethodSym>], args: &[Option<Ty>]) -> (Vec<usize>, bool) {
        let n = args.len();
        let params: Vec<Vec<Option<Ty>>> = cands
            .iter()
            .map(|c| {
                self.w
                    .method_params(c.owner, c.decl)
                    .iter()
                    .map(|p| {
                        p.as_ref().map(|t| match substitute(t, &c.subst) {
                            Ty::Var(_, b) => *b,
                            other => other,
                        })
                    })
                    .collect()
            })
            .collect();
        let by_arity: Vec<usize> = (0..cands.len()).filter(|&i| arity_ok(cands[i].decl, n)).collect();
        if by_arity.len() <= 1 {
            return (by_arity, true);
        }
        // In the varargs phase, the most specific method compares the parameters as the call
        // expands them (JLS 15.12.2.5): `max(byte...)` is more specific than `max(short...)`.
        let width = by_arity.iter().map(|&i| params[i].len()).max().unwrap_or(0).max(n);
        let expanded: Vec<Vec<Option<Ty>>> = params
            .iter()
            .zip(cands)
            .map(|(ps, c)| {
                let Some((last, fixed)) = ps.split_last().filter(|_| c.decl.varargs) else { return ps.clone() };
                let elem = match last {
                    Some(Ty::Array(e)) => Some((**e).clone()),
                    _ => None,
                };
                let mut out = fixed.to_vec();
                out.resize(width, elem);
                out
            })
            .collect();
        // A type variable in scope (of the enclosing types and methods) is a type of its own,
        // whose supertypes are its bound's, as the parameters' variables are read by theirs.
        let args: Vec<Option<Ty>> = args
            .iter()
            .map(|a| match a {
                Some(Ty::Var(v, b)) if self.ctx().tvars.iter().any(|(k, _)| k == v) => Some((**b).clone()),
                other => other.clone(),
            })
            .collect();
        let args = &args[..];
        // The methods javac could choose, whatever the types of the arguments not typed here
        // are: each phase's candidates not ruled out, up to the first phase certain to have an
        // applicable one. One such method is the choice (the code compiles).
        let mut possible: Vec<usize> = Vec::new();
        let mut first: Option<(Vec<usize>, bool)> = None;
        for phase in 1..=3 {
            let mut yes = Vec::new();
            let mut maybe = Vec::new();
            for &i in &by_arity {
                let c = cands[i].decl;
                let ps = &params[i];
                if phase < 3 && ps.len() != n {
                    continue;
                }
                if phase == 3 && !c.varargs {
                    continue;
                }
                let mut status = Some(true);
                for (j, a) in args.iter().enumerate() {
                    let p = if phase == 3 && j + 1 >= ps.len() {
                        match ps.last().cloned().flatten() {
                            Some(Ty::Array(e))
                                if !(n == ps.len() && matches!(a, Some(Ty::Array(_)) | Some(Ty::Null))) =>
                            {
                                Some(*e)
                            }
                            other => other,
                        }
                    } else {
                        ps.get(j).cloned().flatten()
                    };
                    let s = match (a, p) {
                        (Some(v @ Ty::Var(_, b)), Some(p)) => match self.w.assignable(v, &p, phase >= 2) {
                            None if self.cannot_meet(b, &p) => Some(false),
                            s => s,
                        },
                        (Some(a), Some(p)) => self.w.assignable(a, &p, phase >= 2),
                        _ => None,
                    };
                    status = match (status, s) {
                        (_, Some(false)) | (Some(false), _) => Some(false),
                        (Some(true), Some(true)) => Some(true),
                        _ => None,
                    };
                }
                match status {
                    Some(true) => yes.push(i),
                    None => maybe.push(i),
                    Some(false) => {}
                }
            }
            if yes.is_empty() && maybe.is_empty() {
                continue;
            }
            let params = if phase == 3 { &expanded } else { &params };
            if maybe.is_empty() && first.is_none() {
                let best = self.most_specific(&yes, params);
                let exact = best.len() == 1;
                return (best, exact);
            }
            let decided = !yes.is_empty();
            let mut all = yes.clone();
            all.extend(maybe.iter().copied());
            if first.is_none() {
                let best = self.most_specific(&all, params);
                first = Some((guess_overload(best, args, params), false));
            }
            // A method some certainly applicable one is strictly more specific than is never
            // chosen in this phase.
            let strictly = |a: usize, b: usize| self.more_specific(a, b, params) && !self.more_specific(b, a, params);
            for &c in &all {
                if !yes.iter().any(|&y| strictly(y, c)) && !possible.contains(&c) {
                    possible.push(c);
                }
            }
            if decided {
                break;
            }
        }
        match first {
            Some(_) if possible.len() == 1 => (possible, true),
            Some(f) => f,
            None => (by_arity, false),
        }
    }

    /// Whether a type variable javac infers (a generic method's result not fixed by its
    /// arguments) with bound `bound` can never be a `p`: two classes, neither a subtype of the
    /// other, of which one is final or neither an interface, have no common subtype
    /// (`<T extends Throwable> T` is no `Integer`).
    fn cannot_meet(&self, bound: &Ty, p: &Ty) -> bool {
        let (Some((bf, _)), Some((pf, _))) = (bound.lookup_class(), p.lookup_class()) else { return false };
        let decl = |f: &str| self.w.by_fqn(f).map(|id| self.w.decl(id));
        let (Some(b), Some(q)) = (decl(bf), decl(pf)) else { return false };
        let interface =
            |k: mji_model::TypeKind| matches!(k, mji_model::TypeKind::Interface | mji_model::TypeKind::Annotation);
        let unrelated = self.w.is_subtype(&Ty::class(bf), &Ty::class(pf)) == Some(false)
            && self.w.is_subtype(&Ty::class(pf), &Ty::class(bf)) == Some(false);
        unrelated && (b.is_final || q.is_final || (!interface(b.kind) && !interface(q.kind)))
    }

    /// Whether method `a`'s parameters are each a subtype of method `b`'s (same count).
    fn more_specific(&self, a: usize, b: usize, params: &[Vec<Option<Ty>>]) -> bool {
        let (pa, pb) = (&params[a], &params[b]);
        pa.len() == pb.len()
            && pa.iter().zip(pb).all(|(x, y)| match (x, y) {
                (Some(x), Some(y)) => self.w.is_subtype(x, y) == Some(true),
                _ => false,
            })
    }

    pub(super) fn most_specific(&self, set: &[usize], params: &[Vec<Option<Ty>>]) -> Vec<usize> {
        let more_specific = |a: usize, b: usize| self.more_specific(a, b, params);
        let best: Vec<usize> = set
            .iter()
            .copied()
            .filter(|&a| set.iter().all(|&b| a == b || more_specific(a, b) || !more_specific(b, a)))
            .collect();
        // Keep only the maximally specific ones.
        let max: Vec<usize> = best
            .iter()
            .copied()
            .filter(|&a| best.iter().all(|&b| a == b || !more_specific(b, a) || more_specific(a, b)))
            .collect();
        if max.is_empty() { set.to_vec() } else { max }
    }

    /// A constructor invocation's binding; `functional`, the indexes of its lambda and method
    /// reference arguments (see [`Self::taking_functions`]).
    pub(super) fn ctor_ref(&mut self, at: Node, t: &Ty, args: &[Option<Ty>], kind: RefKind, functional: &[usize]) {
        let Some((fqn, targs)) = t.lookup_class() else { return };
        let Some(id) = self.w.by_fqn(fqn) else { return };
        let subst: Vec<(Box<str>, Ty)> = {
            let d = self.w.decl(id);
            if d.tparams.len() == targs.len() {
                d.tparams.iter().zip(targs).map(|(p, a)| (p.name.as_str().into(), a.clone())).collect()
            } else {
                Vec::new()
            }
        };
        // A private constructor is not accessible outside its top-level class.
        let cands: Vec<MemberHit<'w, MethodSym>> = self
            .w
            .decl(id)
            .ctors
            .iter()
            .filter(|c| self.accessible(id, c))
            .map(|c| MemberHit { owner: id, decl: c, subst: subst.clone() })
            .collect();
        let shape = super::expr::Shape { functional: functional.to_vec(), targs: None };
        let cands = self.taking_functions(cands, args.len(), &shape);
        let (chosen, exact) = self.select(&cands, args);
        let keys: Vec<String> = chosen.iter().map(|&i| self.w.method_key(id, cands[i].decl)).collect();
        let conf = if exact && keys.len() == 1 { Confidence::Exact } else { Confidence::Likely };
        self.emit(at, kind, Category::Ctor, keys, conf);
        if let [i] = chosen[..] {
            self.last_pick = Some(cands[i].clone());
        }
    }
}

/// Among overloads that differ where an argument's type is unknown, the one taking `Object`:
/// what cannot be typed here is mostly a JDK call's result, a reference. One guess, `likely`.
pub(super) fn guess_overload(best: Vec<usize>, args: &[Option<Ty>], params: &[Vec<Option<Ty>>]) -> Vec<usize> {
    if best.len() < 2 {
        return best;
    }
    let score = |i: usize| -> i32 {
        args.iter()
            .enumerate()
            .filter(|(_, a)| a.is_none())
            .map(|(j, _)| match params[i].get(j).cloned().flatten() {
                Some(Ty::Class(f, _)) if &*f == crate::ty::OBJECT => 3,
                Some(Ty::Class(..)) | Some(Ty::Var(..)) => 2,
                Some(Ty::Array(_)) => 1,
                _ => 0,
            })
            .sum()
    };
    let top = best.iter().map(|&i| score(i)).max().unwrap_or(0);
    let winners: Vec<usize> = best.iter().copied().filter(|&i| score(i) == top).collect();
    if winners.len() == 1 { winners } else { best }
}

pub(super) fn arity_ok(m: &MethodSym, n: usize) -> bool {
    if m.varargs { n + 1 >= m.params.len() } else { m.params.len() == n }
}
