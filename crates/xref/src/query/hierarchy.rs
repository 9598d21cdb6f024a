//! Type hierarchies and implementations: a type's supertypes and subtypes as a tree (named
//! types from the world's linked supertypes; anonymous classes and enum constants with a body
//! found through the reference index, at the `new` of their supertype or the enum's
//! constructor call), and the methods that override or implement a method (named ones from
//! the world, those of keyless classes from their `Override` references). A tree lists each
//! type once (a visited set) and stops at the depth asked: cycles cannot loop it.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use mji_model::TypeKind;

use crate::engine::XrefEngine;
use crate::query::target::{Target, add_overriders};
use crate::ty::OBJECT;
use crate::world::{Origin, TypeId, World};
use crate::{Category, Confidence, RefKind};

/// Which way a tree goes from its root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    Supertypes,
    Subtypes,
}

/// One type of a tree: a named type (workspace, JDK or library), an anonymous class, or an
/// enum constant's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HierarchyType {
    /// The qualified name; for an anonymous class, its supertype's; for an enum constant's
    /// body, `Enum.CONSTANT`.
    pub fqn: String,
    /// class, interface, enum, record, annotation, anonymous or enum-constant.
    pub kind: &'static str,
    pub origin: Origin,
    /// The workspace file declaring it.
    pub path: Option<Arc<Path>>,
    pub start_line: u32,
    pub end_line: u32,
    /// `likely` for a supertype no declaration is known of (its name as written).
    pub confidence: Confidence,
}

/// One entry of a tree in pre-order: its depth (1: a direct super- or subtype of the root).
#[derive(Debug, Clone)]
pub struct Node {
    pub depth: u32,
    pub direction: Direction,
    pub ty: HierarchyType,
}

/// How far a tree goes.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Levels below the root; 0: all.
    pub depth: u32,
    /// Expand the JDK's and libraries' supertypes (and list `Object`), and list the JDK's
    /// subtypes of a JDK type; otherwise a library supertype is a leaf and subtypes are the
    /// workspace's.
    pub include_libraries: bool,
}

/// The deepest a tree goes when every level is asked for.
const MAX_DEPTH: u32 = 64;

fn kind_str(k: TypeKind) -> &'static str {
    k.as_str()
}

/// A named type's entry.
pub fn describe(w: &World, id: TypeId) -> HierarchyType {
    let d = w.decl(id);
    let ws = w.is_workspace(id);
    HierarchyType {
        fqn: d.fqn.to_string(),
        kind: kind_str(d.kind),
        origin: w.origin(&d.fqn),
        path: ws.then(|| w.files[w.file_of(id) as usize].path.clone()),
        start_line: if ws { d.start_line } else { 0 },
        end_line: if ws { d.end_line } else { 0 },
        confidence: Confidence::Exact,
    }
}

/// An entry for a type the world has no declaration of.
fn undeclared(w: &World, fqn: &str) -> HierarchyType {
    let origin = w.origin(fqn);
    HierarchyType {
        fqn: fqn.to_string(),
        kind: "class",
        origin,
        path: None,
        start_line: 0,
        end_line: 0,
        confidence: if origin == Origin::Unresolved { Confidence::Likely } else { Confidence::Exact },
    }
}

/// A direct supertype: its erased name, its declaration when known, and whether the language
/// gives it rather than the source (`Object` of a class without `extends`, `Enum`, `Record`,
/// `Annotation`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Super {
    pub fqn: String,
    pub id: Option<TypeId>,
    pub implicit: bool,
}

/// The direct supertypes of a type, superclass first.
pub fn direct_supertypes(w: &World, id: TypeId) -> Vec<Super> {
    let d = w.decl(id);
    let implicit_first = matches!(d.kind, TypeKind::Enum | TypeKind::Record | TypeKind::Annotation);
    let supers = w.supers(id);
    let n = supers.len();
    supers
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let (f, _) = s.lookup_class()?;
            let implicit = (implicit_first && i == 0)
                || (d.kind == TypeKind::Class && d.superclass.is_none() && i + 1 == n && f == OBJECT);
            Some(Super { fqn: f.to_string(), id: w.by_fqn(f), implicit })
        })
        .collect()
}

/// The supertypes of `root` as a tree in pre-order.
pub fn supertypes(w: &World, root: TypeId, opts: Options) -> Vec<Node> {
    let max = if opts.depth == 0 { MAX_DEPTH } else { opts.depth.min(MAX_DEPTH) };
    let mut out = Vec::new();
    let mut seen: HashSet<String> = HashSet::from([w.decl(root).fqn.to_string()]);
    fn walk(
        w: &World,
        id: TypeId,
        depth: u32,
        max: u32,
        opts: Options,
        seen: &mut HashSet<String>,
        out: &mut Vec<Node>,
    ) {
        for s in direct_supertypes(w, id) {
            if s.fqn == OBJECT && !opts.include_libraries {
                continue;
            }
            if !seen.insert(s.fqn.clone()) {
                continue;
            }
            let ty = match s.id {
                Some(sid) => describe(w, sid),
                None => undeclared(w, &s.fqn),
            };
            out.push(Node { depth, direction: Direction::Supertypes, ty });
            let expand = s.id.filter(|sid| opts.include_libraries || w.is_workspace(*sid));
            if depth < max
                && let Some(sid) = expand
            {
                walk(w, sid, depth + 1, max, opts, seen, out);
            }
        }
    }
    walk(w, root, 1, max, opts, &mut seen, &mut out);
    out
}

/// The subtypes of `root` (a type's qualified name) as a tree in pre-order: named subtypes,
/// then the anonymous classes and enum constant bodies that extend it directly (found among
/// `files` through `engine`'s reference index).
pub fn subtypes(
    engine: &XrefEngine,
    w: &World,
    files: &[Arc<Path>],
    root: &str,
    opts: Options,
) -> (Vec<Node>, Unbound) {
    let max = if opts.depth == 0 { MAX_DEPTH } else { opts.depth.min(MAX_DEPTH) };
    let keep = |id: TypeId| opts.include_libraries || w.is_workspace(id);
    // The named types of the tree, level by level, each once.
    let mut seen: HashSet<String> = HashSet::from([root.to_string()]);
    let mut children: HashMap<String, Vec<TypeId>> = HashMap::new();
    let mut level = vec![root.to_string()];
    let mut expanded: Vec<String> = Vec::new();
    for _ in 0..max {
        let mut next = Vec::new();
        for f in &level {
            expanded.push(f.clone());
            let mut kids = Vec::new();
            for &sub in w.direct_subtypes(f) {
                if !keep(sub) {
                    continue;
                }
                let sf = w.decl(sub).fqn.to_string();
                if seen.insert(sf.clone()) {
                    kids.push(sub);
                    next.push(sf);
                }
            }
            children.insert(f.clone(), kids);
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    let mut anonymous: HashMap<String, Vec<HierarchyType>> = HashMap::new();
    let (found, unbound) = anonymous_subtypes(engine, w, files, &expanded);
    for a in found {
        anonymous.entry(a.0).or_default().push(a.1);
    }
    let mut out = Vec::new();
    #[allow(clippy::too_many_arguments)]
    fn walk(
        w: &World,
        f: &str,
        depth: u32,
        max: u32,
        children: &HashMap<String, Vec<TypeId>>,
        anonymous: &HashMap<String, Vec<HierarchyType>>,
        out: &mut Vec<Node>,
    ) {
        if depth > max {
            return;
        }
        for &sub in children.get(f).map(Vec::as_slice).unwrap_or(&[]) {
            let ty = describe(w, sub);
            let sf = ty.fqn.clone();
            out.push(Node { depth, direction: Direction::Subtypes, ty });
            walk(w, &sf, depth + 1, max, children, anonymous, out);
        }
        for a in anonymous.get(f).map(Vec::as_slice).unwrap_or(&[]) {
            out.push(Node { depth, direction: Direction::Subtypes, ty: a.clone() });
        }
    }
    walk(w, root, 1, max, &children, &anonymous, &mut out);
    (out, unbound)
}

/// The files a search could not bind fully (their anonymous classes may be missing).
pub type Unbound = Vec<(Arc<Path>, crate::bind::DepthCut)>;

/// Every type that extends or implements `root`, transitively: named ones (workspace, and the
/// JDK's with `include_libraries`), anonymous classes and enum constant bodies; each once.
pub fn all_subtypes(
    engine: &XrefEngine,
    w: &World,
    files: &[Arc<Path>],
    root: &str,
    include_libraries: bool,
) -> (Vec<Node>, Unbound) {
    subtypes(engine, w, files, root, Options { depth: 0, include_libraries })
}

/// The anonymous classes (`new T(…) { … }`), enum constant bodies (`C(…) { … }`), local
/// classes, lambdas and method references whose direct supertype is one of `fqns`, in `files`: (the supertype, the
/// entry), by file and line.
pub fn anonymous_subtypes(
    engine: &XrefEngine,
    w: &World,
    files: &[Arc<Path>],
    fqns: &[String],
) -> (Vec<(String, HierarchyType)>, Unbound) {
    if fqns.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let wanted: HashSet<&str> = fqns.iter().map(String::as_str).collect();
    // The keys: each type's name (an anonymous class's `new`), and an enum's constructors (its
    // constants call them).
    let mut keys: Vec<String> = fqns.to_vec();
    let mut names: Vec<String> = Vec::new();
    for f in fqns {
        names.push(f.rsplit('.').next().unwrap_or(f).to_string());
        if let Some(id) = w.by_fqn(f)
            && w.is_workspace(id)
            && w.decl(id).kind == TypeKind::Enum
        {
            keys.extend(w.decl(id).ctors.iter().map(|m| w.method_key(id, m)));
        }
    }
    names.sort();
    names.dedup();
    // A lambda does not name its interface: for an interface, every file not bound yet is.
    if fqns.iter().any(|f| w.by_fqn(f).is_some_and(|id| w.decl(id).kind == TypeKind::Interface)) {
        names.clear();
    }
    let owner_of = |r: &crate::Ref| -> Option<String> {
        r.targets.iter().find_map(|k| {
            let owner = k.split('#').next().unwrap_or(k);
            wanted.contains(owner).then(|| owner.to_string())
        })
    };
    let keep = |r: &crate::Ref| {
        matches!(r.kind, RefKind::New | RefKind::Lambda | RefKind::Extends | RefKind::Implements)
            && matches!(r.category, Category::Type | Category::Ctor)
            && owner_of(r).is_some()
    };
    let key_refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    let found = engine.find_in_files(w, files, &names, &key_refs, &keep);
    let mut out = Vec::new();
    for (path, refs) in found.files {
        let Ok(bytes) = mji_fs::read_regular(&path, mji_fs::DEFAULT_MAX_FILE_BYTES) else { continue };
        let src = mji_parser::SourceText::decode(&bytes);
        // `new T(…) {}` has a type and a constructor reference at T; an enum constant only
        // the constructor's.
        let creations: HashSet<(u32, u32)> =
            refs.iter().filter(|r| r.category == Category::Type).map(|r| (r.line, r.column)).collect();
        let mut done: HashSet<(u32, u32)> = HashSet::new();
        for r in refs {
            let Some(owner) = owner_of(&r) else { continue };
            let is_enum_constant = r.category == Category::Ctor;
            if is_enum_constant && creations.contains(&(r.line, r.column)) {
                continue;
            }
            if !done.insert((r.line, r.column)) {
                continue;
            }
            if matches!(r.kind, RefKind::Extends | RefKind::Implements) {
                let fi = crate::engine::file_index(w, &path);
                if let Some(mut local) = local_class(w, fi, &src, r.line, r.column) {
                    local.path = Some(path.clone());
                    local.confidence = r.confidence;
                    out.push((owner, local));
                }
                continue;
            }
            if r.kind == RefKind::Lambda {
                let arrow = offset_of(&src, r.line, r.column).is_some_and(|at| src.text[at..].starts_with("->"));
                out.push((
                    owner.clone(),
                    HierarchyType {
                        fqn: owner,
                        kind: if arrow { "lambda" } else { "method-ref" },
                        origin: Origin::Workspace,
                        path: Some(path.clone()),
                        start_line: r.line,
                        end_line: r.line,
                        confidence: r.confidence,
                    },
                ));
                continue;
            }
            let Some(at) = offset_of(&src, r.line, r.column) else { continue };
            let Some(body) = body_after_name(&src.text, at) else { continue };
            let end = closing_brace(&src.text, body).unwrap_or(body);
            let end_line = src.lines.line_of(end);
            let (fqn, kind) = if is_enum_constant {
                let name: String =
                    src.text[at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$').collect();
                (format!("{owner}.{name}"), "enum-constant")
            } else {
                (owner.clone(), "anonymous")
            };
            out.push((
                owner,
                HierarchyType {
                    fqn,
                    kind,
                    origin: Origin::Workspace,
                    path: Some(path.clone()),
                    start_line: r.line,
                    end_line,
                    confidence: r.confidence,
                },
            ));
        }
    }
    (out, found.unbound)
}

/// The local class whose `extends` or `implements` clause names a type at (line, column) of
/// file `fi` of the world, when the class declared there is none of the world's named types:
/// named as javac names it (`p.Outer$1Name`: the innermost named type around it, a number, the
/// local class's name), kind `local`, its lines.
pub fn local_class(w: &World, fi: u32, src: &mji_parser::SourceText, line: u32, column: u32) -> Option<HierarchyType> {
    let at = offset_of(src, line, column)?;
    // The nearest declaration keyword before the clause names the class.
    let head = &src.text[..at];
    let (name, kw_at) = ["class", "interface", "enum", "record"]
        .iter()
        .filter_map(|kw| {
            let mut from = head.len();
            loop {
                let i = head[..from].rfind(kw)?;
                let before_ok = head[..i].chars().last().is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '$'));
                let rest = &head[i + kw.len()..];
                let after_ok = rest.starts_with(char::is_whitespace);
                if before_ok && after_ok {
                    let name: String = rest
                        .trim_start()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                        .collect();
                    return (!name.is_empty()).then_some((name, i));
                }
                from = i;
            }
        })
        .max_by_key(|(_, i)| *i)?;
    let start_line = src.lines.line_of(kw_at);
    let entry = w.files.get(fi as usize)?;
    // A named type of that name declared there is no local class.
    if entry.decls().types.iter().any(|t| {
        *t.simple == *name && t.start_line <= start_line && start_line <= t.end_line && t.start_line + 3 >= start_line
    }) {
        return None;
    }
    let outer = entry
        .decls()
        .types
        .iter()
        .filter(|t| t.start_line <= line && line <= t.end_line)
        .max_by_key(|t| t.start_line)?;
    let open = src.text[at..].find('{').map(|i| at + i)?;
    let end = closing_brace(&src.text, open).unwrap_or(open);
    // javac's binary name (`p.Outer$1Impl`): the enclosing class's flat name, then the
    // smallest number not yet taken by a local class of that name in it — the ones of that
    // name declared before it in the enclosing class's body, plus one.
    let package = &*entry.decls().package;
    let nested = outer.fqn.strip_prefix(package).map(|r| r.trim_start_matches('.')).unwrap_or(&outer.fqn);
    let flat =
        if package.is_empty() { nested.replace('.', "$") } else { format!("{package}.{}", nested.replace('.', "$")) };
    let from = src.lines.line_start(outer.start_line).min(kw_at);
    let before = src.text[from..kw_at]
        .match_indices(&format!("class {name}"))
        .filter(|(i, m)| {
            let after = src.text[from + i + m.len()..].chars().next();
            after.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '$'))
                && src.text[..from + i].chars().last().is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '$'))
        })
        .count();
    Some(HierarchyType {
        fqn: format!("{flat}${}{name}", before + 1),
        kind: "local",
        origin: Origin::Workspace,
        path: None,
        start_line,
        end_line: src.lines.line_of(end),
        confidence: Confidence::Exact,
    })
}

/// The byte offset of a 1-based line and UTF-16 column.
fn offset_of(src: &mji_parser::SourceText, line: u32, column: u32) -> Option<usize> {
    if line == 0 || line > src.lines.line_count() {
        return None;
    }
    let start = src.lines.line_start(line);
    let text = src.lines.line_text(&src.text, line);
    let mut units = 0u32;
    for (i, c) in text.char_indices() {
        if units + 1 >= column {
            return Some(start + i);
        }
        units += c.len_utf16() as u32;
    }
    (units + 1 >= column).then_some(start + text.len())
}

/// After a type or constant name at `at`: its type arguments and arguments skipped, the offset
/// of the `{` that opens a class body, if one follows.
fn body_after_name(text: &str, at: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = at;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$' || b[i] >= 0x80) {
        i += 1;
    }
    i = skip_trivia(b, i);
    if b.get(i) == Some(&b'<') {
        i = skip_balanced(b, i, b'<', b'>')?;
        i = skip_trivia(b, i);
    }
    if b.get(i) == Some(&b'(') {
        i = skip_balanced(b, i, b'(', b')')?;
        i = skip_trivia(b, i);
    }
    (b.get(i) == Some(&b'{')).then_some(i)
}

/// The offset of the `}` closing the `{` at `open`.
fn closing_brace(text: &str, open: usize) -> Option<usize> {
    skip_balanced(text.as_bytes(), open, b'{', b'}').map(|e| e - 1)
}

/// Past whitespace and comments.
fn skip_trivia(b: &[u8], mut i: usize) -> usize {
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i = find(b, i + 2, b"*/").map_or(b.len(), |e| e + 2);
        } else {
            return i;
        }
    }
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(b.get(from..)?, needle).map(|p| from + p)
}

/// From the opening `open` at `i`, the offset just past its matching `close`, skipping
/// strings, text blocks, character literals and comments.
fn skip_balanced(b: &[u8], mut i: usize, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0usize;
    while i < b.len() {
        let c = b[i];
        if b[i..].starts_with(b"//") || b[i..].starts_with(b"/*") {
            i = skip_trivia(b, i);
            continue;
        }
        if b[i..].starts_with(b"\"\"\"") {
            i = find(b, i + 3, b"\"\"\"").map_or(b.len(), |e| e + 3);
            continue;
        }
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            continue;
        }
        if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(i + 1);
            }
        }
        i += 1;
    }
    None
}

/// One method that overrides or implements a method target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodImplementation {
    /// `Owner#name(params)`; for a method of a keyless class, the key(s) it overrides.
    pub key: String,
    /// The kind of the type declaring it: a named type's, `anonymous`, `enum-constant` (a
    /// constant's body) or `local` (a local class).
    pub owner_kind: &'static str,
    pub path: Option<Arc<Path>>,
    pub line: u32,
    pub confidence: Confidence,
}

/// Every method overriding or implementing one of `target`'s (a method target), transitively:
/// named ones in workspace subtypes, then those of anonymous classes, enum constant bodies and
/// local classes (their `Override` references in `files`).
pub fn method_implementations(
    engine: &XrefEngine,
    w: &World,
    files: &[Arc<Path>],
    target: &Target,
) -> (Vec<MethodImplementation>, Unbound) {
    let mut t = target.clone();
    add_overriders(w, &mut t);
    let mut out: Vec<MethodImplementation> = Vec::new();
    let mut keys: Vec<&String> = t.overriders.keys().collect();
    keys.sort();
    for k in keys {
        let Some((owner, _)) = k.split_once('#') else { continue };
        let Some(id) = w.by_fqn(owner) else { continue };
        let d = w.decl(id);
        let line = d.methods.iter().find(|m| w.method_key(id, m) == *k).map_or(0, |m| m.line);
        out.push(MethodImplementation {
            key: k.clone(),
            owner_kind: kind_str(d.kind),
            path: w.is_workspace(id).then(|| w.files[w.file_of(id) as usize].path.clone()),
            line,
            confidence: if k.contains('?') { Confidence::Likely } else { Confidence::Exact },
        });
    }
    // The keyless classes' overriding declarations name every method they override.
    let all: HashSet<&str> = t.keys.iter().chain(t.overriders.keys()).map(String::as_str).collect();
    let keep = |r: &crate::Ref| r.kind == RefKind::Override && r.targets.iter().any(|k| all.contains(k.as_str()));
    let wanted: Vec<&str> = all.iter().copied().collect();
    let found = engine.find_in_files(w, files, &t.names, &wanted, &keep);
    // Which keyless class each is in: the innermost anonymous class or enum constant body of
    // a type declaring one of the methods around it, else a local class.
    let mut owners: Vec<String> =
        all.iter().map(|k| k.split('#').next().unwrap_or(k).to_string()).collect::<HashSet<_>>().into_iter().collect();
    owners.sort();
    let hit_files: Vec<Arc<Path>> = found.files.iter().map(|(p, _)| p.clone()).collect();
    let (classes, _) =
        if hit_files.is_empty() { Default::default() } else { anonymous_subtypes(engine, w, &hit_files, &owners) };
    for (path, refs) in found.files {
        for r in refs {
            let mut ks: Vec<&String> = r.targets.iter().filter(|k| all.contains(k.as_str())).collect();
            ks.sort();
            let around = classes
                .iter()
                .map(|(_, c)| c)
                .filter(|c| {
                    c.kind != "lambda"
                        && c.kind != "method-ref"
                        && c.path.as_ref() == Some(&path)
                        && c.start_line <= r.line
                        && r.line <= c.end_line
                })
                .max_by_key(|c| c.start_line);
            out.push(MethodImplementation {
                key: ks.into_iter().cloned().collect::<Vec<_>>().join(" | "),
                owner_kind: around.map_or("local", |c| c.kind),
                path: Some(path.clone()),
                line: r.line,
                confidence: r.confidence,
            });
        }
    }
    (out, found.unbound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_follows_the_arguments_past_strings_and_comments() {
        let t = "new Foo<Bar<X>>(\"(\", ')', /* ) */ a(b)) // x\n { int f; }";
        let open = body_after_name(t, 4).expect("a body");
        assert_eq!(&t[open..open + 1], "{");
        assert_eq!(closing_brace(t, open), Some(t.len() - 1));
        assert_eq!(body_after_name("new Foo(1);", 4), None);
        assert_eq!(body_after_name("new Foo[] { 1 }", 4), None);
        assert_eq!(body_after_name("A { void m() {} },", 0), Some(2));
        assert_eq!(body_after_name("A(1), B", 0), None);
    }

    /// Issue 53, item 10: a local class is named as javac names it (`p.Group$1Impl`, a second
    /// `Impl` of the same class `p.Group$2Impl`, one in a member class `p.Group$Inner$1Impl`),
    /// never as if it were a member type (`p.Group.Impl`).
    #[test]
    fn a_local_class_has_javac_s_binary_name() {
        let text = "package p;\n\npublic class Group {\n    Object a() {\n        class Impl implements Runnable { public void run() {} }\n        return new Impl();\n    }\n    Object b() {\n        class Impl implements Runnable { public void run() {} }\n        return new Impl();\n    }\n    static class Inner {\n        Object c() {\n            class Impl implements Runnable { public void run() {} }\n            return new Impl();\n        }\n    }\n}\n";
        let path: std::sync::Arc<Path> = std::sync::Arc::from(Path::new("/w/p/Group.java"));
        let w = World::new(vec![(path, std::sync::Arc::new(crate::decls::file_decls(text.as_bytes())))]);
        let src = mji_parser::SourceText::decode(text.as_bytes());
        let at = |line: u32| {
            let column =
                text.lines().nth(line as usize - 1).and_then(|l| l.find("Runnable")).expect("implements") as u32 + 1;
            local_class(&w, 0, &src, line, column).map(|t| t.fqn)
        };
        assert_eq!(at(5).as_deref(), Some("p.Group$1Impl"));
        assert_eq!(at(9).as_deref(), Some("p.Group$2Impl"));
        assert_eq!(at(14).as_deref(), Some("p.Group$Inner$1Impl"));
    }
}
