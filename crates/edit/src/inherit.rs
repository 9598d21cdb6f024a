//! Methods written from other types' declarations (an IDE's Source menu, second half):
//! `implement_methods` (every abstract method of the supertypes not yet implemented),
//! `override_methods` (the overridable ones the caller chooses) and `delegates` (a field's
//! type's public methods forwarded to it). The supertypes' signatures are taken as members of
//! the class: type arguments substituted as javac does (`implements Comparable<Foo>` gives
//! `compareTo(Foo o)`). Every type text this module reads is qualified (the caller resolves a
//! workspace type's names; a class file's are); the code written names types simply, with
//! imports added where that is unambiguous.

use std::collections::{HashMap, HashSet};

use mji_model::{MethodDecl, TypeDecl, TypeKind};

use crate::ctx::TypeCache;
use crate::generate::{Action, Generated, Options, Style, insert_members};
use crate::syntax::tokens;
use crate::{Doc, TextEdit};

/// The most supertypes one walk visits.
const MAX_SUPERTYPES: usize = 64;
/// `delegates` without `methods` forwards at most this many (else it asks for a choice).
pub const MAX_UNCHOSEN: usize = 25;

/// What the generator needs from the world: the supertypes' declarations with every type text
/// qualified (from the context, each read once), and what a simple name means at the class now
/// (its qualified name; `None` when it names no type there).
pub struct Lookup<'a> {
    pub types: TypeCache<'a>,
    pub visible: &'a dyn Fn(&str) -> Option<String>,
}

/// One method of a supertype as a member of the class: its texts substituted.
#[derive(Debug, Clone)]
struct Inherited {
    owner: String,
    owner_kind: TypeKind,
    /// A direct supertype of the class (an interface's default method is then callable as
    /// `Owner.super.m()`).
    direct: bool,
    m: MethodDecl,
    is_abstract: bool,
    /// Erased signature: `name(java.lang.Object,int[])`.
    key: String,
}

/// Generates the methods of `action` (implement, override or delegates) into `ty` (whose
/// texts are qualified: `qualified`), declared in `doc`.
pub fn generate(
    doc: &Doc,
    ty: &TypeDecl,
    qualified: &TypeDecl,
    action: Action,
    opts: &Options,
    lookup: &Lookup,
) -> Result<Generated, String> {
    let mut out = Generated::default();
    let own_tvars = tparams(qualified.type_params_text.as_deref().unwrap_or(""));
    let own: HashSet<String> = qualified.methods.iter().map(|m| key_of(m, &own_tvars)).collect();
    let mut members: Vec<(String, Vec<String>)> = Vec::new();
    let mut namer = Namer::new(lookup);
    // Every name the class's own type variables take stays theirs.
    for (n, _) in &own_tvars {
        namer.reserved.insert(n.clone());
    }
    match action {
        Action::ImplementMethods | Action::OverrideMethods => {
            if matches!(ty.kind, TypeKind::Interface | TypeKind::Annotation) {
                return Err(format!("{} is an interface: implement or override in a class", ty.name));
            }
            let (inherited, missing) = hierarchy(qualified, lookup, &own_tvars);
            out.warnings.extend(missing.into_iter().map(|m| {
                format!("supertype {m} is not in the workspace or its libraries: its methods are not listed")
            }));
            let chosen: Vec<&Inherited> = if action == Action::ImplementMethods {
                unimplemented(&inherited, &own)
            } else {
                overridable(&inherited, &own, &package_of(&qualified.qualified_name))
            };
            if action == Action::OverrideMethods && opts.methods.is_empty() {
                let names: Vec<String> = chosen.iter().map(|i| shown(&i.m)).collect();
                return Err(format!(
                    "override_methods needs `methods` (names, or name(Type, …)); {} can override: {}",
                    ty.name,
                    names.join(", ")
                ));
            }
            let chosen = pick(chosen, &opts.methods, &mut out.warnings);
            for i in chosen {
                let body = if action == Action::ImplementMethods || i.is_abstract {
                    vec![throw_line()]
                } else {
                    let call = format!("{}({})", i.m.name, args_of(&i.m));
                    let receiver = if i.owner_kind == TypeKind::Interface {
                        if !i.direct {
                            out.warnings.push(format!(
                                "{}: a default method of {}, which {} does not implement directly; the body throws",
                                shown(&i.m),
                                i.owner,
                                ty.name
                            ));
                            members.push(method(&mut namer, &i.m, access(i), true, opts, &[throw_line()], doc, ty));
                            continue;
                        }
                        format!("{}.super", namer.ty(&i.owner))
                    } else {
                        "super".to_owned()
                    };
                    vec![returning(&i.m, &format!("{receiver}.{call}"))]
                };
                members.push(method(&mut namer, &i.m, access(i), true, opts, &body, doc, ty));
            }
        }
        Action::Delegates => {
            if opts.fields.is_empty() {
                let have: Vec<&str> = ty.fields.iter().map(|f| f.name.as_str()).collect();
                return Err(format!(
                    "delegates needs `fields`: the field(s) whose methods to forward; fields of {}: {}",
                    ty.name,
                    have.join(", ")
                ));
            }
            let (inherited, _) = hierarchy(qualified, lookup, &own_tvars);
            let overrides: HashSet<&str> = inherited.iter().map(|i| i.key.as_str()).collect();
            let mut done: HashSet<String> = own.clone();
            for name in &opts.fields {
                let Some(f) = qualified.fields.iter().find(|f| &f.name == name) else {
                    let have: Vec<&str> = ty.fields.iter().map(|f| f.name.as_str()).collect();
                    return Err(format!("{} has no field {name}; its fields: {}", ty.name, have.join(", ")));
                };
                let (fty, _) = split_args(&f.type_text);
                if !fty.contains('.') || f.type_text.ends_with(']') {
                    return Err(format!(
                        "{name} is of type {}: only a class or interface type has methods to delegate to",
                        f.type_text
                    ));
                }
                let start = TypeDecl { extends: Some(f.type_text.clone()), ..empty_type(TypeKind::Class) };
                let (methods, missing) = hierarchy(&start, lookup, &own_tvars);
                if let Some(m) = missing.first() {
                    return Err(format!("{m}, the type of {name}, is not in the workspace or its libraries"));
                }
                let public: Vec<&Inherited> = methods
                    .iter()
                    .filter(|i| i.owner != "java.lang.Object" && !i.m.modifiers.iter().any(|m| m == "static"))
                    .filter(|i| i.owner_kind == TypeKind::Interface || i.m.modifiers.iter().any(|m| m == "public"))
                    .collect();
                let mut seen = HashSet::new();
                let public: Vec<&Inherited> = public.into_iter().filter(|i| seen.insert(i.key.clone())).collect();
                if opts.methods.is_empty() && public.len() > MAX_UNCHOSEN {
                    let names: Vec<String> = public.iter().map(|i| shown(&i.m)).collect();
                    return Err(format!(
                        "{name} has {} public methods: choose with `methods` (names, or name(Type, …)): {}",
                        public.len(),
                        names.join(", ")
                    ));
                }
                let is_static = f.modifiers.iter().any(|m| m == "static");
                let receiver = if is_static { format!("{}.{name}", ty.name) } else { format!("this.{name}") };
                for i in pick(public, &opts.methods, &mut out.warnings) {
                    if !done.insert(i.key.clone()) {
                        out.warnings.push(format!("{} already exists in {}; not generated", shown(&i.m), ty.name));
                        continue;
                    }
                    let body = vec![returning(&i.m, &format!("{receiver}.{}({})", i.m.name, args_of(&i.m)))];
                    let over = overrides.contains(i.key.as_str());
                    members.push(method(&mut namer, &i.m, "public ", over, opts, &body, doc, ty));
                }
            }
        }
        _ => return Err(format!("{action:?} is not a method action")),
    }
    if members.is_empty() {
        return Ok(out);
    }
    out.edits.extend(namer.imports(doc));
    let (names, edit) = insert_members(doc, ty, members, opts.after.as_deref())?;
    out.edits.push(edit);
    out.members = names;
    Ok(out)
}

/// The access a method keeps when overridden: an interface's members are public.
fn access(i: &Inherited) -> &'static str {
    let has = |w: &str| i.m.modifiers.iter().any(|m| m == w);
    if i.owner_kind == TypeKind::Interface || has("public") {
        "public "
    } else if has("protected") {
        "protected "
    } else {
        ""
    }
}

fn throw_line() -> String {
    "throw new UnsupportedOperationException(\"not implemented yet\");".to_owned()
}

/// `return call;`, or `call;` for a void method.
fn returning(m: &MethodDecl, call: &str) -> String {
    if m.return_type_text == "void" { format!("{call};") } else { format!("return {call};") }
}

fn args_of(m: &MethodDecl) -> String {
    m.params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// `name(Type, Type)` with simple names, as the answer lists a method.
fn shown(m: &MethodDecl) -> String {
    let params: Vec<String> = m.params.iter().map(|p| simple_text(&p.type_text)).collect();
    format!("{}({})", m.name, params.join(", "))
}

/// A type text with every qualified name shortened to its last segment.
fn simple_text(t: &str) -> String {
    let mut out = String::new();
    for (is_name, part) in tokens(t) {
        if is_name {
            out.push_str(part.rsplit('.').next().unwrap_or(part));
        } else {
            out.push_str(part);
        }
    }
    out
}

/// The methods `choose` names (all when empty); a choice that names none is a warning.
fn pick<'a>(cands: Vec<&'a Inherited>, choose: &[String], warnings: &mut Vec<String>) -> Vec<&'a Inherited> {
    if choose.is_empty() {
        return cands;
    }
    let norm = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let mut out = Vec::new();
    for c in choose {
        let want = norm(c);
        let hits: Vec<&Inherited> = cands
            .iter()
            .filter(
                |i| if want.contains('(') { norm(&shown(&i.m)) == norm(&simple_text(&want)) } else { i.m.name == want },
            )
            .copied()
            .collect();
        if hits.is_empty() {
            warnings.push(format!("no method {c} to generate (not found, or already in the class)"));
        }
        for h in hits {
            if !out.iter().any(|o: &&Inherited| o.key == h.key) {
                out.push(h);
            }
        }
    }
    out
}

/// Every abstract method no class of the hierarchy (nor the class) implements and no default
/// method provides, most derived declaration first.
fn unimplemented<'a>(all: &'a [Inherited], own: &HashSet<String>) -> Vec<&'a Inherited> {
    let mut concrete: HashSet<&str> = own.iter().map(String::as_str).collect();
    // A private or static method implements nothing (and is not inherited).
    let hidden = |i: &Inherited| i.m.modifiers.iter().any(|m| m == "private" || m == "static");
    for i in all {
        if i.owner_kind != TypeKind::Interface && !i.is_abstract && !hidden(i) {
            concrete.insert(&i.key);
        }
    }
    // Otherwise the first (most derived) declaration of a signature decides.
    let mut first_seen: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for i in all {
        if hidden(i) || concrete.contains(i.key.as_str()) || !first_seen.insert(&i.key) {
            continue;
        }
        if i.is_abstract {
            out.push(i);
        }
    }
    out
}

/// Every method a subclass in `package` may override, once per signature, most derived first;
/// a class's concrete method wins over an interface's declaration.
fn overridable<'a>(all: &'a [Inherited], own: &HashSet<String>, package: &str) -> Vec<&'a Inherited> {
    let mut out: Vec<&Inherited> = Vec::new();
    let ok = |i: &Inherited| {
        let mods = &i.m.modifiers;
        let has = |w: &str| mods.iter().any(|m| m == w);
        !has("final")
            && !has("static")
            && !has("private")
            && (i.owner_kind == TypeKind::Interface
                || has("public")
                || has("protected")
                || package_of(&i.owner) == package)
    };
    for i in all.iter().filter(|i| ok(i) && !own.contains(&i.key)) {
        match out.iter().position(|o| o.key == i.key) {
            Some(p) if out[p].owner_kind == TypeKind::Interface && i.owner_kind != TypeKind::Interface => out[p] = i,
            Some(_) => {}
            None => out.push(i),
        }
    }
    // A final method further up the classes cannot be overridden at all.
    let finals: HashSet<&str> = all
        .iter()
        .filter(|i| i.m.modifiers.iter().any(|m| m == "final" || m == "static"))
        .map(|i| i.key.as_str())
        .collect();
    out.retain(|i| !finals.contains(i.key.as_str()));
    out
}

/// The methods of every supertype of `start` (breadth first, classes before their interfaces),
/// as members of it, and the supertypes that could not be loaded.
fn hierarchy(start: &TypeDecl, lookup: &Lookup, own_tvars: &[(String, String)]) -> (Vec<Inherited>, Vec<String>) {
    let mut out = Vec::new();
    let mut missing = Vec::new();
    let mut queue: std::collections::VecDeque<(String, bool)> = std::collections::VecDeque::new();
    for s in supers_of(start) {
        queue.push_back((s, true));
    }
    let mut seen: HashSet<String> = HashSet::new();
    while let Some((text, direct)) = queue.pop_front() {
        let (name, args) = split_args(&text);
        if !seen.insert(name.clone()) || seen.len() > MAX_SUPERTYPES {
            continue;
        }
        let Some(decl) = lookup.types.get(&name) else {
            missing.push(name);
            continue;
        };
        let params = tparams(decl.type_params_text.as_deref().unwrap_or(""));
        // A raw supertype: its members erased.
        let subst: HashMap<String, String> = params
            .iter()
            .enumerate()
            .map(|(i, (p, bound))| (p.clone(), args.get(i).cloned().unwrap_or_else(|| bound.clone())))
            .collect();
        let iface = matches!(decl.kind, TypeKind::Interface | TypeKind::Annotation);
        for m in &decl.methods {
            let mut m = m.clone();
            let mine = tparams(m.type_params_text.as_deref().unwrap_or(""));
            let local: HashMap<String, String> = subst
                .iter()
                .filter(|(k, _)| !mine.iter().any(|(n, _)| n == *k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            // A type variable of the method named like one the substitution brings in is
            // renamed apart: `<R> R apply(T t)` of `Fn<T>`, in `X<R> implements Fn<R>`, is
            // `<R1> R1 apply(R t)`.
            let brought: HashSet<&str> =
                local.values().flat_map(|v| tokens(v).into_iter().filter(|(n, _)| *n).map(|(_, s)| s)).collect();
            let mut apart: HashMap<String, String> = HashMap::new();
            for (n, _) in mine.iter().filter(|(n, _)| brought.contains(n.as_str())) {
                let taken = |c: &str| brought.contains(c) || subst.contains_key(c) || mine.iter().any(|(x, _)| x == c);
                if let Some(fresh) = (1..1000).map(|i| format!("{n}{i}")).find(|c| !taken(c)) {
                    apart.insert(n.clone(), fresh);
                }
            }
            if !apart.is_empty() {
                m.return_type_text = substitute(&m.return_type_text, &apart);
                for p in &mut m.params {
                    p.type_text = substitute(&p.type_text, &apart);
                }
                for t in &mut m.throws {
                    *t = substitute(t, &apart);
                }
                m.type_params_text = m.type_params_text.map(|t| substitute(&t, &apart));
            }
            m.return_type_text = substitute(&m.return_type_text, &local);
            for p in &mut m.params {
                p.type_text = substitute(&p.type_text, &local);
            }
            for t in &mut m.throws {
                *t = substitute(t, &local);
            }
            m.type_params_text = m.type_params_text.map(|t| substitute(&t, &local));
            let has = |w: &str| m.modifiers.iter().any(|x| x == w);
            let is_abstract = has("abstract") || (iface && !has("default") && !has("static") && !has("private"));
            let key = key_of(&m, own_tvars);
            out.push(Inherited { owner: name.clone(), owner_kind: decl.kind, direct, m, is_abstract, key });
        }
        for s in supers_of(&decl) {
            queue.push_back((substitute(&s, &subst), false));
        }
    }
    (out, missing)
}

/// A type's direct supertypes as qualified texts (the implicit ones too).
fn supers_of(t: &TypeDecl) -> Vec<String> {
    let mut out = Vec::new();
    match (&t.extends, t.kind) {
        (Some(e), _) => out.push(e.clone()),
        (None, TypeKind::Enum) => out.push(format!("java.lang.Enum<{}>", t.qualified_name)),
        (None, TypeKind::Record) => out.push("java.lang.Record".to_owned()),
        (None, TypeKind::Class) if t.qualified_name != "java.lang.Object" => out.push("java.lang.Object".to_owned()),
        _ => {}
    }
    out.extend(t.implements.iter().cloned());
    out
}

fn empty_type(kind: TypeKind) -> TypeDecl {
    TypeDecl::header(kind, String::new(), String::new(), (Vec::new(), Vec::new()), (0, 0), mji_model::Javadoc::absent())
}

fn package_of(fqn: &str) -> String {
    // Packages are the lower-case leading segments.
    fqn.split('.').take_while(|s| s.starts_with(|c: char| c.is_lowercase())).collect::<Vec<_>>().join(".")
}

/// `name(erased, params)` of a method: what decides whether two methods override.
fn key_of(m: &MethodDecl, class_tvars: &[(String, String)]) -> String {
    let mut tvars = tparams(m.type_params_text.as_deref().unwrap_or(""));
    tvars.extend(class_tvars.iter().cloned());
    let params: Vec<String> = m.params.iter().map(|p| erase(&p.type_text, &tvars)).collect();
    format!("{}({})", m.name, params.join(","))
}

/// The erasure of a type text: arguments dropped, a type variable as its bound's erasure,
/// varargs as an array.
fn erase(t: &str, tvars: &[(String, String)]) -> String {
    let mut s = String::new();
    let mut depth = 0;
    for c in t.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            c if depth == 0 && !c.is_whitespace() => s.push(c),
            _ => {}
        }
    }
    let s = s.replace("...", "[]");
    // Annotations (`@NonNull String`) are not part of the type.
    let s = if s.starts_with('@') { s.rsplit_once(' ').map_or(s.clone(), |x| x.1.to_owned()) } else { s };
    let base_len = s.find('[').unwrap_or(s.len());
    let (base, dims) = s.split_at(base_len);
    match tvars.iter().find(|(n, _)| n == base) {
        Some((_, bound)) => format!("{}{dims}", erase(bound, &[])),
        None => s,
    }
}

/// The type parameters of `<K, V extends java.lang.Comparable<? super V>>`: each name and its
/// first bound (`java.lang.Object` without one).
fn tparams(text: &str) -> Vec<(String, String)> {
    let inner = text.trim().strip_prefix('<').and_then(|t| t.strip_suffix('>')).unwrap_or("");
    split_top(inner, ',')
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let p = p.trim();
            match p.split_once(" extends ") {
                Some((n, b)) => (
                    n.trim().to_owned(),
                    split_top(b, '&').first().map_or("java.lang.Object".into(), |x| x.trim().to_owned()),
                ),
                None => (p.rsplit(' ').next().unwrap_or(p).to_owned(), "java.lang.Object".to_owned()),
            }
        })
        .collect()
}

/// Splits at `sep` outside angle brackets.
fn split_top(s: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    for c in s.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ => {}
        }
        if c == sep && depth == 0 {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// `java.util.Map<K, V>` -> (`java.util.Map`, [`K`, `V`]).
fn split_args(t: &str) -> (String, Vec<String>) {
    let t = t.trim();
    match t.find('<') {
        Some(i) if t.ends_with('>') => (
            t[..i].trim().to_owned(),
            split_top(&t[i + 1..t.len() - 1], ',').into_iter().map(|a| a.trim().to_owned()).collect(),
        ),
        _ => (t.to_owned(), Vec::new()),
    }
}

/// Replaces whole names that are type variables.
fn substitute(t: &str, subst: &HashMap<String, String>) -> String {
    if subst.is_empty() {
        return t.to_owned();
    }
    tokens(t).into_iter().map(|(is_name, s)| if is_name { subst.get(s).map_or(s, |v| v.as_str()) } else { s }).collect()
}

/// One generated method's lines.
#[allow(clippy::too_many_arguments)]
fn method(
    namer: &mut Namer,
    m: &MethodDecl,
    access: &str,
    over: bool,
    opts: &Options,
    body: &[String],
    doc: &Doc,
    ty: &TypeDecl,
) -> (String, Vec<String>) {
    let style = Style::of(doc, ty);
    let mine = tparams(m.type_params_text.as_deref().unwrap_or(""));
    let saved = namer.reserved.clone();
    namer.reserved.extend(mine.iter().map(|(n, _)| n.clone()));
    let fin = if opts.final_params { "final " } else { "" };
    let params: Vec<String> = m.params.iter().map(|p| format!("{fin}{} {}", namer.ty(&p.type_text), p.name)).collect();
    let tps = m.type_params_text.as_deref().map(|t| format!("{} ", namer.ty(t))).unwrap_or_default();
    let throws = if m.throws.is_empty() {
        String::new()
    } else {
        format!(" throws {}", m.throws.iter().map(|t| namer.ty(t)).collect::<Vec<_>>().join(", "))
    };
    let mut lines = Vec::new();
    if over {
        lines.push("@Override".to_owned());
    }
    lines.push(format!("{access}{tps}{} {}({}){throws} {{", namer.ty(&m.return_type_text), m.name, params.join(", ")));
    lines.extend(body.iter().map(|b| format!("{}{b}", style.unit)));
    lines.push("}".to_owned());
    namer.reserved = saved;
    (shown(m), lines)
}

/// Names types simply where the class sees them so (or an added import makes it so), keeps
/// the qualified name where a simple one would mean another type.
struct Namer<'a> {
    lookup: &'a Lookup<'a>,
    /// Simple names taken by type variables in scope.
    reserved: HashSet<String>,
    /// Simple name -> the qualified top-level type it is written for.
    decided: HashMap<String, Option<String>>,
    imports: Vec<String>,
}

impl<'a> Namer<'a> {
    fn new(lookup: &'a Lookup<'a>) -> Namer<'a> {
        Namer { lookup, reserved: HashSet::new(), decided: HashMap::new(), imports: Vec::new() }
    }

    fn ty(&mut self, t: &str) -> String {
        let mut out = String::new();
        for (is_name, part) in tokens(t) {
            if is_name { out.push_str(&self.name(part)) } else { out.push_str(part) }
        }
        out
    }

    /// `java.util.Map.Entry` -> `Map.Entry` (importing `java.util.Map`), or as it is.
    fn name(&mut self, q: &str) -> String {
        let segs: Vec<&str> = q.split('.').collect();
        let Some(top) = segs.iter().position(|s| s.starts_with(|c: char| c.is_uppercase())) else {
            return q.to_owned();
        };
        if top == 0 {
            return q.to_owned();
        }
        let simple = segs[top];
        let qualified_top = segs[..=top].join(".");
        if self.reserved.contains(simple) {
            return q.to_owned();
        }
        let usable = match self.decided.get(simple) {
            Some(d) => d.as_deref() == Some(qualified_top.as_str()),
            None => {
                let now = (self.lookup.visible)(simple);
                let ok = match &now {
                    Some(n) => *n == qualified_top,
                    None => {
                        self.imports.push(qualified_top.clone());
                        true
                    }
                };
                self.decided.insert(simple.to_owned(), if ok { Some(qualified_top.clone()) } else { now });
                ok
            }
        };
        if usable { segs[top..].join(".") } else { q.to_owned() }
    }

    /// The import edits of the names it chose to import.
    fn imports(&self, doc: &Doc) -> Vec<TextEdit> {
        let mut out: Vec<TextEdit> = Vec::new();
        let mut names = self.imports.clone();
        names.sort();
        for q in names {
            if let Ok(Some(e)) = crate::imports::ensure_import(doc, &q) {
                match out.iter_mut().find(|p| p.start == e.start) {
                    Some(prev) => prev.text.push_str(&format!("{}import {q};", doc.eol())),
                    None => out.push(e),
                }
            }
        }
        out
    }
}

/// What an anonymous class of the type `iface` (a qualified type text) inherits, for turning
/// it into a lambda: whether it is an interface, the abstract methods Object or a default does
/// not implement, and every method, field and member type name of its supertypes (Object's
/// included) — the names its body sees as its own members.
#[derive(Debug, Default)]
pub struct Functional {
    pub is_interface: bool,
    /// The type was read (a workspace or library type): `is_interface` is its answer.
    pub known: bool,
    pub abstract_methods: Vec<MethodDecl>,
    pub members: HashSet<String>,
    /// The member types among `members` that name no method or field too, by simple name: the
    /// qualified name each means in the anonymous class's body.
    pub member_types: HashMap<String, String>,
    /// Supertypes that could not be loaded.
    pub missing: Vec<String>,
}

/// [`Functional`] of `iface`.
pub fn functional(iface: &str, lookup: &Lookup) -> Functional {
    let (name, _) = split_args(iface);
    let known = lookup.types.get(&name).is_some();
    let is_interface = lookup.types.get(&name).is_some_and(|d| d.kind == TypeKind::Interface);
    let start = TypeDecl { implements: vec![iface.to_owned()], ..empty_type(TypeKind::Class) };
    let (all, missing) = hierarchy(&start, lookup, &[]);
    let abstract_methods = unimplemented(&all, &HashSet::new()).into_iter().map(|i| i.m.clone()).collect();
    let mut members: HashSet<String> = all.iter().map(|i| i.m.name.clone()).collect();
    let mut member_types: HashMap<String, String> = HashMap::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut queue = vec![name, "java.lang.Object".to_owned()];
    while let Some(n) = queue.pop() {
        if !seen.insert(n.clone()) || seen.len() > MAX_SUPERTYPES {
            continue;
        }
        let Some(d) = lookup.types.get(&n) else { continue };
        members.extend(d.fields.iter().map(|f| f.name.clone()));
        for c in &d.inner_classes {
            member_types.entry(c.name.clone()).or_insert_with(|| format!("{n}.{}", c.name));
        }
        queue.extend(supers_of(&d).iter().map(|s| split_args(s).0));
    }
    // A name that is a method or field as well keeps its refusal: the body may mean either.
    member_types.retain(|t, _| !members.contains(t));
    members.extend(member_types.keys().cloned());
    Functional { is_interface, known, abstract_methods, members, member_types, missing }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ctx::Ctx;
    use crate::tests::TestCtx;
    use std::path::Path;

    fn decl(src: &str) -> TypeDecl {
        mji_parser::outline("X.java", src.as_bytes()).classes.remove(0)
    }

    #[test]
    fn a_private_or_static_method_of_a_class_implements_nothing() {
        let i = decl(
            "package p; public interface I { int size(); default void hello() {} static I of() { return null; } }",
        );
        let b = decl("package p; public class B { private int size() { return 0; } }");
        let src = "package p;\n\npublic class C extends B implements I {\n}\n";
        let doc = Doc::new(Path::new("/x/C.java"), "C.java", src.as_bytes().to_vec()).expect("utf-8");
        let c = decl(src);
        let mut q = c.clone();
        q.extends = Some("p.B".into());
        q.implements = vec!["p.I".into()];
        let ctx = TestCtx::bare(&[]).with_library(i).with_library(b);
        let (w, _) = ctx.world();
        let visible = |_: &str| None;
        let lookup = Lookup { types: TypeCache::new(&ctx, &w), visible: &visible };
        let g = generate(&doc, &c, &q, Action::ImplementMethods, &Options::default(), &lookup).expect("generated");
        assert_eq!(g.members, vec!["size()".to_owned()], "{:?}", g.warnings);
        assert_eq!(
            g.warnings,
            vec![
                "supertype java.lang.Object is not in the workspace or its libraries: its methods are not listed"
                    .to_owned()
            ]
        );
        let text = &g.edits.last().expect("edit").text;
        assert!(
            text.contains("    @Override\n    public int size() {\n        throw new UnsupportedOperationException"),
            "{text}"
        );
    }

    #[test]
    fn a_method_type_variable_is_renamed_apart_from_a_substituted_one() {
        let f = decl("package p; public interface Fn<T> { <R> R apply(T t, java.util.List<? extends R> more); }");
        let src = "package p;\n\npublic abstract class X<R> implements Fn<R> {\n}\n";
        let doc = Doc::new(Path::new("/x/X.java"), "X.java", src.as_bytes().to_vec()).expect("utf-8");
        let x = decl(src);
        let mut q = x.clone();
        q.implements = vec!["p.Fn<R>".into()];
        let ctx = TestCtx::new(&[]).with_library(f);
        let (w, _) = ctx.world();
        let visible = |s: &str| (s == "List").then(|| "java.util.List".to_owned());
        let lookup = Lookup { types: TypeCache::new(&ctx, &w), visible: &visible };
        let g = generate(&doc, &x, &q, Action::ImplementMethods, &Options::default(), &lookup).expect("generated");
        let text = &g.edits.last().expect("edit").text;
        assert!(text.contains("public <R1> R1 apply(R t, List<? extends R1> more) {"), "{text}");
    }

    #[test]
    fn type_texts() {
        let mut s = HashMap::new();
        s.insert("T".to_owned(), "app.Foo".to_owned());
        assert_eq!(substitute("java.util.List<? super T>", &s), "java.util.List<? super app.Foo>");
        assert_eq!(substitute("Tx", &s), "Tx");
        assert_eq!(
            split_args("java.util.Map<K, java.util.List<V>>"),
            ("java.util.Map".into(), vec!["K".into(), "java.util.List<V>".into()])
        );
        let tv = tparams("<K, V extends java.lang.Comparable<? super V> & java.io.Serializable>");
        assert_eq!(
            tv,
            vec![("K".into(), "java.lang.Object".into()), ("V".into(), "java.lang.Comparable<? super V>".into())]
        );
        assert_eq!(erase("V...", &tv), "java.lang.Comparable[]");
        assert_eq!(erase("java.util.List<K>", &tv), "java.util.List");
        assert_eq!(simple_text("java.util.Map.Entry<java.lang.String, T>"), "Entry<String, T>");
    }
}
