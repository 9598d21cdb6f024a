//! The JDK's public API as declarations: `jdk_api.txt`, generated from the JDK sources by
//! `UPDATE_JDK_API=1 cargo test --test it -- oracles::jdk_api_gen` (a test checks it is current), loaded once and shared by every [`World`].
//!
//! Format, one item per line, types fully qualified (type variables by name, wildcards already
//! reduced to their bound), so that no import context is needed:
//!
//! ```text
//! T <outer index in its group|-> <kind c|i|e|r|a> <flags|-> <fqn> <tparams|-> <supertypes|->
//! F <flags|-> <name> <type>
//! M <flags|-> <name> <tparams|-> <return type> <parameter types|->
//! C <flags|-> <tparams|-> <parameter types|->
//! ```
//!
//! A `T -` line starts the group of a top-level type; its member types follow with the index of
//! their outer type in the group. Flags: `s` static, `v` varargs, `f` final. Lists are separated
//! by commas, type parameters are `N:B1&B2`.
//!
//! [`World`]: crate::world::World

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::decls::{FieldSym, FileDecls, MethodSym, TParam, TypeSym};
use crate::ty::{OBJECT, Ty, TyText};
use crate::world::{Ctx, JdkTypes, TypeId, World};
use mji_model::TypeKind;

/// The loaded table: pseudo-files (one per top-level type), their types and linked supertypes.
/// The JDK's types come first; a table with libraries (`with_libraries`) has the library
/// types after them.
pub struct JdkApi {
    pub files: Vec<(Arc<FileDecls>, u32)>,
    /// (file, index in the file's types).
    pub types: Vec<(u32, u32)>,
    pub by_fqn: HashMap<Box<str>, u32>,
    pub supers: Vec<Vec<Ty>>,
    /// How many of `types` are the JDK's; the rest are libraries' (`Origin::Library`).
    pub jdk_types: u32,
    /// A hash of the library lines (0 without libraries), for what is persisted.
    pub libraries_hash: u64,
    /// The JDK's package and type names, when not the committed table's (`with_names`).
    pub names: Option<Arc<JdkTypes>>,
}

impl JdkApi {
    /// The table, parsed on first use.
    pub fn get() -> &'static JdkApi {
        JdkApi::shared()
    }

    /// The table, parsed on first use, shared.
    pub fn shared() -> &'static Arc<JdkApi> {
        static API: OnceLock<Arc<JdkApi>> = OnceLock::new();
        API.get_or_init(|| Arc::new(JdkApi::parse(TABLE)))
    }

    /// The JDK's table followed by the library types of `table` (the same format, written by
    /// `mji_classfile::api::table` from the classpath's class files). A library type the JDK
    /// table also has is the JDK's.
    pub fn with_libraries(table: &str) -> JdkApi {
        JdkApi::with_jdk(None, table)
    }

    /// [`JdkApi::with_libraries`] with the JDK's part from `jdk` (the same format, written from
    /// the user's JDK image when its version is not the committed table's) instead of the
    /// committed table.
    pub fn with_jdk(jdk: Option<&str>, libraries: &str) -> JdkApi {
        let (base, jdk_types) = match jdk {
            Some(t) => (t, JdkApi::parse(t).types.len() as u32),
            None => (TABLE, JdkApi::get().types.len() as u32),
        };
        let mut text = String::with_capacity(base.len() + libraries.len() + 1);
        text.push_str(base);
        text.push('\n');
        text.push_str(libraries);
        let mut api = JdkApi::parse(&text);
        api.jdk_types = jdk_types;
        api.libraries_hash = (fnv(libraries.as_bytes()) ^ jdk.map_or(0, |t| fnv(t.as_bytes()).rotate_left(1))) | 1;
        api
    }

    /// This table with the JDK's package and type names from `names` (the format of
    /// `jdk_types.txt`, read from the user's JDK image when its version is not the committed
    /// table's) instead of the committed ones: what imports and `java.lang` resolve to.
    pub fn with_names(mut self, names: &str) -> JdkApi {
        self.names = Some(Arc::new(JdkTypes::parse(names)));
        self.libraries_hash = (self.libraries_hash ^ fnv(names.as_bytes()).rotate_left(2)) | 1;
        self
    }

    pub fn decl(&self, i: u32) -> &TypeSym {
        let (f, t) = self.types[i as usize];
        &self.files[f as usize].0.types[t as usize]
    }

    pub fn parse(text: &str) -> JdkApi {
        let mut files: Vec<FileDecls> = Vec::new();
        for line in text.lines() {
            let mut it = line.split(' ');
            match it.next() {
                Some("T") => {
                    let (Some(outer), Some(kind), Some(flags), Some(fqn), Some(tps), Some(sups)) =
                        (it.next(), it.next(), it.next(), it.next(), it.next(), it.next())
                    else {
                        continue;
                    };
                    let outer: Option<u32> = outer.parse().ok();
                    if outer.is_none() {
                        let package = fqn.rsplit_once('.').map(|x| x.0).unwrap_or("");
                        files.push(FileDecls { package: package.into(), imports: Vec::new(), types: Vec::new() });
                    }
                    let Some(file) = files.last_mut() else { continue };
                    let kind = match kind {
                        "i" => TypeKind::Interface,
                        "e" => TypeKind::Enum,
                        "r" => TypeKind::Record,
                        "a" => TypeKind::Annotation,
                        _ => TypeKind::Class,
                    };
                    let supers = list(sups).into_iter().map(ty_text).collect::<Vec<_>>();
                    let idx = file.types.len() as u32;
                    if let Some(o) = outer
                        && let Some(ot) = file.types.get_mut(o as usize)
                    {
                        ot.members.push(idx);
                    }
                    file.types.push(TypeSym {
                        fqn: fqn.into(),
                        simple: fqn.rsplit('.').next().unwrap_or(fqn).into(),
                        kind,
                        outer,
                        is_static: flags.contains('s'),
                        tparams: tparams(tps),
                        superclass: None,
                        interfaces: supers,
                        fields: Vec::new(),
                        methods: Vec::new(),
                        ctors: Vec::new(),
                        members: Vec::new(),
                        start_line: 0,
                        end_line: 0,
                        is_public_api: true,
                        is_final: flags.contains('f'),
                    });
                }
                Some("F") => {
                    let (Some(flags), Some(name), Some(ty)) = (it.next(), it.next(), it.next()) else { continue };
                    if let Some(t) = files.last_mut().and_then(|f| f.types.last_mut()) {
                        t.fields.push(FieldSym {
                            name: name.into(),
                            ty: ty_text(ty),
                            is_static: flags.contains('s'),
                            line: 0,
                            is_public_api: true,
                        });
                    }
                }
                Some("M") => {
                    let (Some(flags), Some(name), Some(tps), Some(ret), Some(ps)) =
                        (it.next(), it.next(), it.next(), it.next(), it.next())
                    else {
                        continue;
                    };
                    if let Some(t) = files.last_mut().and_then(|f| f.types.last_mut()) {
                        t.methods.push(method(name, flags, tps, ty_text(ret), ps));
                    }
                }
                Some("C") => {
                    let (Some(flags), Some(tps), Some(ps)) = (it.next(), it.next(), it.next()) else { continue };
                    if let Some(t) = files.last_mut().and_then(|f| f.types.last_mut()) {
                        let m = method(&t.simple.clone(), flags, tps, TyText::Unknown, ps);
                        t.ctors.push(m);
                    }
                }
                _ => {}
            }
        }
        let mut types = Vec::new();
        let mut by_fqn = HashMap::new();
        let mut supers = Vec::new();
        let files: Vec<(Arc<FileDecls>, u32)> = files
            .into_iter()
            .enumerate()
            .map(|(fi, mut f)| {
                let first = types.len() as u32;
                for ti in 0..f.types.len() {
                    // Type variables of the enclosing types are in scope of non-static members.
                    let mut tvars: Vec<(Box<str>, Ty)> = Vec::new();
                    let mut cur = Some(ti as u32);
                    let mut inner = true;
                    while let Some(c) = cur {
                        let d = &f.types[c as usize];
                        if inner || !d.is_static {
                            tvars.extend(d.tparams.iter().map(|tp| (tp.name.as_str().into(), bound(tp))));
                        }
                        inner = false;
                        cur = d.outer;
                    }
                    let t = &mut f.types[ti];
                    let sups: Vec<Ty> = t.interfaces.iter().filter_map(|s| jdk_ty(s, &tvars)).collect();
                    // Keep the written form too: `superclass` is the first class supertype.
                    if t.kind == TypeKind::Class
                        && let Some(first) = t.interfaces.first()
                    {
                        t.superclass = Some(first.clone());
                        t.interfaces.remove(0);
                    }
                    by_fqn.entry(t.fqn.clone()).or_insert(types.len() as u32);
                    types.push((fi as u32, ti as u32));
                    supers.push(sups);
                }
                (Arc::new(f), first)
            })
            .collect();
        let jdk_types = types.len() as u32;
        JdkApi { files, types, by_fqn, supers, jdk_types, libraries_hash: 0, names: None }
    }
}

fn bound(tp: &TParam) -> Ty {
    match tp.bounds.first() {
        Some(TyText::Named { name, .. }) if name.contains('.') => Ty::class(name),
        _ => Ty::object(),
    }
}

fn method(name: &str, flags: &str, tps: &str, ret: TyText, ps: &str) -> MethodSym {
    MethodSym {
        name: name.into(),
        tparams: tparams(tps),
        params: list(ps).into_iter().map(ty_text).collect(),
        varargs: flags.contains('v'),
        ret,
        is_static: flags.contains('s'),
        line: 0,
        implicit: false,
        is_public_api: true,
        marked_override: false,
    }
}

/// Splits a comma-separated list at nesting depth 0; `-` is the empty list.
fn list(s: &str) -> Vec<&str> {
    if s == "-" || s.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn tparams(s: &str) -> Vec<TParam> {
    list(s)
        .into_iter()
        .map(|p| match p.split_once(':') {
            Some((name, bs)) => {
                let mut bounds = Vec::new();
                let mut depth = 0;
                let mut start = 0;
                for (i, c) in bs.char_indices() {
                    match c {
                        '<' => depth += 1,
                        '>' => depth -= 1,
                        '&' if depth == 0 => {
                            bounds.push(ty_text(&bs[start..i]));
                            start = i + 1;
                        }
                        _ => {}
                    }
                }
                bounds.push(ty_text(&bs[start..]));
                TParam { name: name.into(), bounds }
            }
            None => TParam { name: p.into(), bounds: Vec::new() },
        })
        .collect()
}

/// Parses a type as the table writes it.
pub(crate) fn ty_text(s: &str) -> TyText {
    let mut dims = 0u8;
    let mut s = s;
    while let Some(r) = s.strip_suffix("[]") {
        s = r;
        dims += 1;
    }
    let base = match s.split_once('<') {
        Some((name, rest)) => {
            let inner = rest.strip_suffix('>').unwrap_or(rest);
            TyText::Named { name: name.into(), args: list(inner).into_iter().map(ty_text).collect() }
        }
        None if matches!(s, "int" | "long" | "short" | "byte" | "char" | "boolean" | "float" | "double" | "void") => {
            TyText::Prim(s.into())
        }
        None if s.is_empty() => TyText::Unknown,
        None => TyText::Named { name: s.into(), args: Vec::new() },
    };
    base.with_dims(dims)
}

/// A table type as a resolved type: qualified names are classes, simple names type variables.
pub(crate) fn jdk_ty(t: &TyText, tvars: &[(Box<str>, Ty)]) -> Option<Ty> {
    match t {
        TyText::Prim(p) => Some(Ty::Prim(p.as_str().into())),
        TyText::Unknown => None,
        TyText::Array(e, d) => {
            let mut ty = jdk_ty(e, tvars)?;
            for _ in 0..*d {
                ty = Ty::Array(Box::new(ty));
            }
            Some(ty)
        }
        TyText::Named { name, args } => {
            if !name.contains('.')
                && let Some((n, b)) = tvars.iter().find(|(n, _)| n == name)
            {
                return Some(Ty::Var(n.clone(), Box::new(b.clone())));
            }
            let args = args.iter().map(|a| jdk_ty(a, tvars).unwrap_or_else(Ty::object)).collect();
            Some(Ty::Class(name.as_str().into(), args))
        }
    }
}

// ---- generation -------------------------------------------------------------------------------

fn write_ty(t: &Ty, out: &mut String) {
    match t {
        Ty::Prim(p) => out.push_str(p),
        Ty::Class(f, a) => {
            out.push_str(f);
            if !a.is_empty() {
                out.push('<');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_ty(x, out);
                }
                out.push('>');
            }
        }
        Ty::Array(e) => {
            write_ty(e, out);
            out.push_str("[]");
        }
        Ty::Var(n, _) => out.push_str(n),
        Ty::Null => out.push_str(OBJECT),
    }
}

fn write_resolved(w: &World, t: &TyText, ctx: &Ctx, out: &mut String) {
    match w.resolve_text(t, ctx) {
        Some(ty) => write_ty(&ty, out),
        None => out.push_str(OBJECT),
    }
}

fn write_list<T>(items: &[T], out: &mut String, mut f: impl FnMut(&T, &mut String)) {
    if items.is_empty() {
        out.push('-');
        return;
    }
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        f(x, out);
    }
}

fn write_tparams(w: &World, tps: &[TParam], ctx: &Ctx, out: &mut String) {
    write_list(tps, out, |tp, out| {
        out.push_str(&tp.name);
        for (i, b) in tp.bounds.iter().enumerate() {
            out.push(if i == 0 { ':' } else { '&' });
            write_resolved(w, b, ctx, out);
        }
    });
}

/// Writes the table for the public API of the types of `w` (a world of JDK sources, built
/// without the table) whose package is accepted by `keep_package`.
pub fn write_table(w: &World, keep_package: &dyn Fn(&str) -> bool) -> String {
    let mut out = String::new();
    let files: Vec<usize> = (0..w.files.len()).filter(|&i| keep_package(&w.files[i].decls.package)).collect();
    // Public API types, and the (possibly package-private) supertypes they inherit members from,
    // with their enclosing types.
    let mut keep: std::collections::HashSet<TypeId> = std::collections::HashSet::new();
    let mut queue: Vec<TypeId> = Vec::new();
    for &fi in &files {
        for (ti, t) in w.files[fi].decls.types.iter().enumerate() {
            if t.is_public_api {
                queue.push(w.type_in_file(fi as u32, ti as u32));
            }
        }
    }
    while let Some(id) = queue.pop() {
        if !keep.insert(id) {
            continue;
        }
        queue.extend(w.chain(id).into_iter().skip(1));
        for s in w.supers(id) {
            if let Some((f, _)) = s.lookup_class()
                && let Some(sid) = w.by_fqn(f)
            {
                queue.push(sid);
            }
        }
    }
    let mut files: Vec<usize> = (0..w.files.len())
        .filter(|&i| (0..w.files[i].decls.types.len()).any(|t| keep.contains(&w.type_in_file(i as u32, t as u32))))
        .collect();
    files.sort_by(|a, b| w.files[*a].path.cmp(&w.files[*b].path));
    for fi in files {
        let decls = &w.files[fi].decls;
        // Each top-level public type and its public member types, re-indexed.
        let mut new_index: Vec<Option<u32>> = vec![None; decls.types.len()];
        let mut next = 0u32;
        for (ti, t) in decls.types.iter().enumerate() {
            let outer_ok = t.outer.is_none_or(|o| new_index[o as usize].is_some());
            if !keep.contains(&w.type_in_file(fi as u32, ti as u32)) || !outer_ok {
                continue;
            }
            if t.outer.is_none() {
                next = 0;
            }
            new_index[ti] = Some(next);
            next += 1;
            let id = w.type_in_file(fi as u32, ti as u32);
            let ctx = w.ctx_in(id);
            let kind = match t.kind {
                TypeKind::Class => 'c',
                TypeKind::Interface => 'i',
                TypeKind::Enum => 'e',
                TypeKind::Record => 'r',
                TypeKind::Annotation => 'a',
            };
            let mut flags = String::new();
            if t.is_static {
                flags.push('s');
            }
            if t.is_final {
                flags.push('f');
            }
            if flags.is_empty() {
                flags.push('-');
            }
            let outer = match t.outer {
                Some(o) => new_index[o as usize].map(|x| x.to_string()).unwrap_or_default(),
                None => "-".into(),
            };
            out.push_str(&format!("T {outer} {kind} {flags} {} ", t.fqn));
            write_tparams(w, &t.tparams, &ctx, &mut out);
            out.push(' ');
            write_list(w.supers(id), &mut out, write_ty);
            out.push('\n');
            for f in t.fields.iter().filter(|f| f.is_public_api) {
                out.push_str(&format!("F {} {} ", if f.is_static { "s" } else { "-" }, f.name));
                write_resolved(w, &f.ty, &ctx, &mut out);
                out.push('\n');
            }
            for (is_ctor, m) in t.ctors.iter().map(|m| (true, m)).chain(t.methods.iter().map(|m| (false, m))) {
                if !m.is_public_api {
                    continue;
                }
                let mctx = w.with_method_tparams(&ctx, &m.tparams);
                let mut flags = String::new();
                if m.is_static {
                    flags.push('s');
                }
                if m.varargs {
                    flags.push('v');
                }
                if flags.is_empty() {
                    flags.push('-');
                }
                if is_ctor {
                    out.push_str(&format!("C {flags} "));
                } else {
                    out.push_str(&format!("M {flags} {} ", m.name));
                }
                write_tparams(w, &m.tparams, &mctx, &mut out);
                out.push(' ');
                if !is_ctor {
                    write_resolved(w, &m.ret, &mctx, &mut out);
                    out.push(' ');
                }
                write_list(&m.params, &mut out, |p, out| write_resolved(w, p, &mctx, out));
                out.push('\n');
            }
        }
    }
    out
}

/// The JDK version whose sources `jdk_api.txt` was generated from.
pub const TABLE_JDK_VERSION: u32 = 17;

/// The JDK API table this build carries.
const TABLE: &str = include_str!("jdk_api.txt");

/// A hash of the table, for what is persisted from bindings made with it.
pub(crate) fn table_hash() -> u64 {
    fnv(TABLE.as_bytes())
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}
