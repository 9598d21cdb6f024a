//! The methods Lombok's `@Delegate` generates in a workspace type, read from the delegate's type
//! as the world knows it (a workspace, library or JDK type): every public instance method of it
//! and its supertypes with their type arguments substituted, less `java.lang.Object`'s, less
//! what the type declares with the same erased signature, limited by `types=` and reduced by
//! `excludes=` (each with its supertypes), as Lombok's `HandleDelegate` does. Their types are
//! written qualified (they are resolved in the delegating type's file, not the delegate's).

use foldhash::{HashSet, HashSetExt};

use super::types::substitute;
use super::{TypeId, World};
use crate::decls::{DelegateSym, MethodSym, TParam};
use crate::name::Name;
use crate::ty::{OBJECT, Ty, TyText, WILDCARD};

/// `java.lang.Object`'s methods by name and erased parameters: never delegated.
const OBJECT_METHODS: &[(&str, &[&str])] = &[
    ("equals", &["java.lang.Object"]),
    ("hashCode", &[]),
    ("toString", &[]),
    ("getClass", &[]),
    ("notify", &[]),
    ("notifyAll", &[]),
    ("wait", &[]),
    ("wait", &["long"]),
    ("wait", &["long", "int"]),
    ("clone", &[]),
    ("finalize", &[]),
];

/// A method's name and parameter erasures.
type Sig = (String, Vec<String>);

/// One method a delegate's type offers, as seen from the delegate's (substituted) type.
struct Offered<'w> {
    decl: &'w MethodSym,
    params: Vec<Option<Ty>>,
    ret: Option<Ty>,
    tparams: Vec<(Name, Vec<Ty>)>,
}

fn erase(params: &[Option<Ty>]) -> Vec<String> {
    params.iter().map(|p| p.as_ref().map(|t| t.erasure()).unwrap_or_else(|| "?".into())).collect()
}

impl World {
    /// The methods Lombok's `@Delegate` generates in `id` (empty for a type without one, or
    /// whose delegate's type the world cannot read), marked generated, at the delegate's line.
    pub fn delegated_methods(&self, id: TypeId) -> &[MethodSym] {
        if !self.is_workspace(id) || self.decl(id).delegates.is_empty() {
            return &[];
        }
        let cells = self.delegated.get_or_init(|| (0..self.types.len()).map(|_| Default::default()).collect());
        match cells.get(id.0 as usize) {
            Some(c) => c.get_or_init(|| self.compute_delegated(id)),
            None => &[],
        }
    }

    /// The workspace types with a member annotated with Lombok's `@Delegate`, in the world's order.
    pub fn delegating_types(&self) -> Vec<TypeId> {
        (0..self.types.len() as u32).map(TypeId).filter(|&id| !self.decl(id).delegates.is_empty()).collect()
    }

    /// Whether the world can read the type a `@Delegate` of `id` delegates to.
    pub fn delegate_known(&self, id: TypeId, d: &DelegateSym) -> bool {
        let ctx = self.ctx_ref(id);
        self.resolve_text(&d.ty, &ctx).is_some_and(|t| t.lookup_class().is_some_and(|(f, _)| self.by_fqn(f).is_some()))
    }

    fn compute_delegated(&self, id: TypeId) -> Vec<MethodSym> {
        let d = self.decl(id);
        let ctx = self.ctx_ref(id);
        let own_tvars: Vec<&str> = ctx.tvars.iter().map(|(n, _)| &**n).collect();
        let mut taken: HashSet<Sig> = HashSet::new();
        for m in &d.methods {
            taken.insert((m.name.to_string(), erase(&self.method_params(id, m))));
        }
        for (n, ps) in OBJECT_METHODS {
            taken.insert((n.to_string(), ps.iter().map(|p| p.to_string()).collect()));
        }
        let mut out = Vec::new();
        for dl in &d.delegates {
            let Some(ty) = self.resolve_text(&dl.ty, &ctx) else { continue };
            // An excluded type as the delegate's own hierarchy gives it (its arguments).
            let as_seen = |t: &TyText| -> Option<Ty> {
                let t = self.resolve_text(t, &ctx)?;
                let (f, _) = t.lookup_class()?;
                let found =
                    self.hierarchy(&ty).into_iter().find(|(h, _)| h.lookup_class().is_some_and(|(g, _)| g == f));
                Some(found.map(|(h, _)| h).unwrap_or(t))
            };
            // `types=` names raw types, as Lombok reads them (`add(Object)` of `Collection.class`).
            let roots: Vec<Ty> = if dl.types.is_empty() {
                vec![ty.clone()]
            } else {
                dl.types.iter().filter_map(|t| self.resolve_text(t, &ctx)).collect()
            };
            let excluded: HashSet<Sig> = dl
                .excludes
                .iter()
                .filter_map(as_seen)
                .flat_map(|t| self.offered(&t))
                .map(|o| (o.decl.name.to_string(), erase(&o.params)))
                .collect();
            for root in roots {
                for o in self.offered(&root) {
                    let sig = (o.decl.name.to_string(), erase(&o.params));
                    if excluded.contains(&sig) || !taken.insert(sig) {
                        continue;
                    }
                    let method_vars: Vec<&str> = o.tparams.iter().map(|(n, _)| n.as_str()).collect();
                    let text = |t: &Option<Ty>| match t {
                        Some(t) => text_of(t, &method_vars, &own_tvars, 0),
                        None => TyText::Unknown,
                    };
                    out.push(MethodSym {
                        name: o.decl.name.clone(),
                        tparams: o
                            .tparams
                            .iter()
                            .map(|(n, bs)| TParam {
                                name: n.clone(),
                                bounds: bs.iter().map(|b| text_of(b, &method_vars, &own_tvars, 0)).collect(),
                            })
                            .collect(),
                        params: o.params.iter().map(text).collect(),
                        varargs: o.decl.varargs,
                        ret: text(&o.ret),
                        is_static: false,
                        line: dl.line,
                        implicit: false,
                        is_public_api: true,
                        marked_override: false,
                        is_abstract: false,
                        is_private: false,
                        generated: true,
                    });
                }
            }
        }
        out
    }

    /// The public instance methods of `ty` and its supertypes but `java.lang.Object`, most
    /// derived first, with `ty`'s type arguments substituted.
    fn offered<'w>(&'w self, ty: &Ty) -> Vec<Offered<'w>> {
        let mut out = Vec::new();
        for (t, tid) in self.hierarchy(ty) {
            let Some(tid) = tid else { continue };
            if *self.decl(tid).fqn == *OBJECT {
                continue;
            }
            let args = t.lookup_class().map(|x| x.1.to_vec()).unwrap_or_default();
            let subst = self.subst_of(tid, &args);
            let type_ctx = self.ctx_ref(tid);
            for m in self.decl(tid).methods.iter().filter(|m| !m.is_static && !m.is_private && m.is_public_api) {
                let ctx = self.with_method_tparams(&type_ctx, &m.tparams);
                let params =
                    self.method_params(tid, m).iter().map(|p| p.as_ref().map(|p| substitute(p, &subst))).collect();
                let ret = self.resolve_text(&m.ret, &ctx).map(|r| substitute(&r, &subst));
                let tparams = m
                    .tparams
                    .iter()
                    .map(|tp| {
                        let bounds =
                            tp.bounds.iter().filter_map(|b| self.resolve_text(b, &ctx)).map(|b| substitute(&b, &subst));
                        (tp.name.clone(), bounds.collect())
                    })
                    .collect();
                out.push(Offered { decl: m, params, ret, tparams });
            }
        }
        out
    }
}

/// A type as Java source writes it: `java.util.List<? extends java.lang.String>`, `int[]`.
pub fn written(t: &TyText) -> String {
    match t {
        TyText::Prim(p) => p.to_string(),
        TyText::Unknown => "?".to_owned(),
        TyText::Array(e, d) => format!("{}{}", written(e), "[]".repeat(usize::from(*d))),
        TyText::Named { name, args } if &**name == WILDCARD => match args.first() {
            Some(b) => format!("? extends {}", written(b)),
            None => "?".to_owned(),
        },
        TyText::Named { name, args } if args.is_empty() => name.to_string(),
        // How a `? super X` is read (see `TyText::read`).
        TyText::Named { name, args } if &**name == OBJECT && args.len() == 1 => {
            format!("? super {}", written(&args[0]))
        }
        TyText::Named { name, args } => {
            format!("{name}<{}>", args.iter().map(written).collect::<Vec<_>>().join(", "))
        }
    }
}

/// A resolved type written back as qualified text: type variables of the method or of the
/// delegating type by name, any other (a raw use's) as its bound.
fn text_of(t: &Ty, method_vars: &[&str], own_vars: &[&str], depth: u32) -> TyText {
    if depth > crate::ty::MAX_TYPE_NESTING {
        return TyText::Unknown;
    }
    let next = |t: &Ty| text_of(t, method_vars, own_vars, depth + 1);
    match t {
        Ty::Prim(p) => TyText::Prim(Name::new(p)),
        Ty::Class(f, args) => TyText::Named { name: Name::new(f), args: args.iter().map(next).collect() },
        Ty::Array(e) => match next(e) {
            TyText::Array(inner, d) => TyText::Array(inner, d.saturating_add(1)),
            other => TyText::Array(Box::new(other), 1),
        },
        Ty::Var(n, b) if &**n == WILDCARD => match &**b {
            Ty::Class(f, a) if &**f == OBJECT && a.is_empty() => {
                TyText::Named { name: Name::new(WILDCARD), args: Vec::new() }
            }
            b => TyText::Named { name: Name::new(WILDCARD), args: vec![next(b)] },
        },
        Ty::Var(n, _) if method_vars.contains(&&**n) || own_vars.contains(&&**n) => {
            TyText::Named { name: Name::new(n), args: Vec::new() }
        }
        Ty::Var(_, b) => next(b),
        Ty::Null => TyText::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use super::*;
    use crate::decls::file_decls;

    const DEP: &str = "package p;\npublic interface Dep<T> extends Base {\n    T fetch(String key);\n    void store(String key, T value);\n    default int size() { return 0; }\n    static Dep<String> none() { return null; }\n}\n";
    const BASE: &str = "package p;\npublic interface Base {\n    void close();\n    String name();\n}\n";
    const HOLDER: &str = "package p;\n\nimport java.util.List;\nimport lombok.experimental.Delegate;\n\npublic class Holder {\n    @Delegate(excludes = Base.class)\n    private final Dep<Integer> dep;\n    @Delegate(excludes = Iterable.class)\n    private final List<String> items;\n    public int size() { return 42; }\n}\n";

    fn world(holder: &str) -> World {
        let files: Vec<(Arc<Path>, Arc<crate::decls::FileDecls>)> =
            [("p/Base.java", BASE), ("p/Dep.java", DEP), ("p/Holder.java", holder)]
                .iter()
                .map(|(p, s)| (Arc::from(Path::new(p)), Arc::new(file_decls(s.as_bytes()))))
                .collect();
        World::new(files)
    }

    fn keys(w: &World) -> Vec<String> {
        let id = w.by_fqn("p.Holder").expect("Holder");
        let mut k: Vec<String> = w.delegated_methods(id).iter().map(|m| w.method_key(id, m)).collect();
        k.sort();
        k
    }

    /// What `delombok` writes for this class (Lombok 1.18, JDK 17's `List`): the workspace
    /// interface's methods less `Base`'s and the written `size()`, `List`'s and `Collection`'s
    /// less `Iterable`'s and `Object`'s.
    #[test]
    fn delegated_methods_are_those_delombok_writes() {
        let w = world(HOLDER);
        let got = keys(&w);
        let want = [
            "add(int,java.lang.String)",
            "add(java.lang.String)",
            "addAll(int,java.util.Collection)",
            "addAll(java.util.Collection)",
            "clear()",
            "contains(java.lang.Object)",
            "containsAll(java.util.Collection)",
            "fetch(java.lang.String)",
            "get(int)",
            "indexOf(java.lang.Object)",
            "isEmpty()",
            "lastIndexOf(java.lang.Object)",
            "listIterator()",
            "listIterator(int)",
            "parallelStream()",
            "remove(int)",
            "remove(java.lang.Object)",
            "removeAll(java.util.Collection)",
            "removeIf(java.util.function.Predicate)",
            "replaceAll(java.util.function.UnaryOperator)",
            "retainAll(java.util.Collection)",
            "set(int,java.lang.String)",
            "sort(java.util.Comparator)",
            "store(java.lang.String,java.lang.Integer)",
            "stream()",
            "subList(int,int)",
            "toArray()",
            "toArray(java.lang.Object[])",
            "toArray(java.util.function.IntFunction)",
        ];
        let want: Vec<String> = want.iter().map(|m| format!("p.Holder#{m}")).collect();
        assert_eq!(got, want);
        let id = w.by_fqn("p.Holder").expect("Holder");
        let (hits, _) = w.find_methods(&Ty::class("p.Holder"), "get");
        assert_eq!(hits.len(), 1);
        assert_eq!(w.method_key(hits[0].owner, hits[0].decl), "p.Holder#get(int)");
        assert!(hits[0].decl.generated && hits[0].decl.line == 10);
        let ret = w.resolve_text(&hits[0].decl.ret, &w.ctx_in(id));
        assert_eq!(ret, Some(Ty::class("java.lang.String")));
    }

    /// Not Lombok's `@Delegate`, or a type the world cannot read: nothing is delegated.
    #[test]
    fn nothing_is_delegated_without_lombok_or_a_known_type() {
        assert!(keys(&world(&HOLDER.replace("lombok.experimental.Delegate", "other.Delegate"))).is_empty());
        let unknown = HOLDER.replace("List<String>", "com.lib.Unknown").replace("Dep<Integer>", "Missing");
        assert!(keys(&world(&unknown)).is_empty());
        // Lombok refuses it on a static field.
        let fixed =
            HOLDER.replace("private final Dep", "private static Dep").replace("private final List", "static List");
        assert!(keys(&world(&fixed)).is_empty());
    }
}

/// Lombok's own transform tests (`LOMBOK_TESTS=…/test/transform/resource`, as
/// `tests/it/oracles/lombok_projects.rs` reads them; skipped without): for each
/// `before/Delegate*.java`, the methods we delegate equal the methods its `after-delombok` copy
/// declares beyond the written ones, by key.
#[cfg(test)]
mod lombok_tests {
    use std::path::Path;
    use std::sync::Arc;

    use crate::decls::file_decls;
    use crate::world::World;

    fn keys_of(src: &[u8], delegated: bool) -> Vec<String> {
        let w = World::new(vec![(Arc::from(Path::new("A.java")), Arc::new(file_decls(src)))]);
        let mut out = Vec::new();
        for id in w.all_types() {
            let ms = if delegated { w.delegated_methods(id) } else { &w.decl(id).methods[..] };
            out.extend(ms.iter().map(|m| w.method_key(id, m)));
        }
        out.sort();
        out
    }

    #[test]
    fn delegated_methods_equal_lomboks_transform_tests() {
        // Skipped without them (tests/it/oracles/lombok_projects.rs says so in its run).
        let Some(dir) = std::env::var_os("LOMBOK_TESTS") else { return };
        let dir = Path::new(&dir);
        let mut names: Vec<_> =
            std::fs::read_dir(dir.join("before")).expect("before/").flatten().map(|e| e.file_name()).collect();
        names.sort();
        let mut compared = 0;
        let mut differ = Vec::new();
        for n in names.iter().filter(|n| n.to_string_lossy().contains("Delegate")) {
            let Ok(after) = std::fs::read(dir.join("after-delombok").join(n)) else { continue };
            let before = std::fs::read(dir.join("before").join(n)).expect("read");
            let written = keys_of(&before, false);
            let ours = keys_of(&before, true);
            let theirs: Vec<String> = keys_of(&after, false).into_iter().filter(|k| !written.contains(k)).collect();
            compared += 1;
            if ours != theirs {
                differ.push(format!("{n:?}: ours {ours:?}, delombok {theirs:?}"));
            }
        }
        assert!(differ.is_empty(), "{}", differ.join("\n"));
        assert!(compared >= 10, "{compared} files compared");
    }
}
