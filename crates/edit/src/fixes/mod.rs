//! Quick fixes for javac's diagnostics (an IDE's light bulb): what a diagnostic offers, read
//! from javac's key and message ([`offer`]: import or create class, throws or try/catch, add
//! @Override, remove an unused import or local, cast, create method, field or local, implement
//! the abstract methods; [`by_position`] and [`create_class`] hold those fixes' edits), the fix ids `get_problems` lists and `refactor_actions`
//! takes back, and the syntax edits of the fixes that need no binding (`throws`, try/catch).
//! Imports and implemented methods reuse [`crate::imports`] and [`crate::inherit`].
//!
//! A fix id names the file, the diagnostic's position, the fix and a stamp of the file's
//! content: the same diagnostic of the same text always gets the same id, and an id whose file
//! has changed since is refused as stale rather than applied to other code.

pub mod by_position;
pub mod create_class;

use mji_parser::kind;
use tree_sitter::Node;

use crate::syntax::walk;
use crate::{Doc, TextEdit};

/// One fix of one diagnostic, as a fix id spells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixId {
    /// The file as answers show it.
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// One of [`KINDS`].
    pub kind: String,
    /// The import's qualified name, the exception's, the class's simple name.
    pub arg: String,
    /// The first 8 hex digits of the file's content hash when the id was made.
    pub stamp: String,
}

impl FixId {
    pub fn new(file: &str, line: u32, column: u32, kind: &str, arg: &str, content: &[u8]) -> FixId {
        FixId { file: file.to_owned(), line, column, kind: kind.to_owned(), arg: arg.to_owned(), stamp: stamp(content) }
    }

    /// `file:line:column:kind=arg@stamp`.
    pub fn encode(&self) -> String {
        format!("{}:{}:{}:{}={}@{}", self.file, self.line, self.column, self.kind, self.arg, self.stamp)
    }

    /// Reads an id [`FixId::encode`] wrote.
    pub fn parse(s: &str) -> Result<FixId, String> {
        let bad = || format!("`{s}` is not a fixId (get_problems lists each diagnostic's fixes with their fixId)");
        let (rest, stamp) = s.trim().rsplit_once('@').ok_or_else(bad)?;
        let (rest, fix) = rest.rsplit_once(':').ok_or_else(bad)?;
        let (kind, arg) = fix.split_once('=').ok_or_else(bad)?;
        let (rest, column) = rest.rsplit_once(':').ok_or_else(bad)?;
        let (file, line) = rest.rsplit_once(':').ok_or_else(bad)?;
        let (Ok(line), Ok(column)) = (line.parse(), column.parse()) else { return Err(bad()) };
        if file.is_empty() || stamp.len() != 8 || !KINDS.contains(&kind) {
            return Err(bad());
        }
        Ok(FixId {
            file: file.to_owned(),
            line,
            column,
            kind: kind.to_owned(),
            arg: arg.to_owned(),
            stamp: stamp.to_owned(),
        })
    }

    /// Whether the file's content is no longer what the id was made from.
    pub fn is_stale(&self, content: &[u8]) -> bool {
        stamp(content) != self.stamp
    }
}

/// The fix kinds a fix id may name.
pub const KINDS: &[&str] = &[
    "import",
    "throws",
    "try",
    "implement",
    "unimport",
    "unlocal",
    "cast",
    "method",
    "field",
    "local",
    "override",
    "class",
];

fn stamp(content: &[u8]) -> String {
    mji_parser::content_hash(content)[..8].to_owned()
}

/// What a javac diagnostic offers to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offer {
    /// An unresolved type name (its simple name): import one of the types of that name.
    Import(String),
    /// An unreported checked exception (as javac names it, qualified): `throws` or try/catch.
    Exception(String),
    /// A class that does not implement an abstract method (its simple name).
    Implement(String),
    /// An unused import (the hint `hint.unused.import`): remove it.
    RemoveImport,
    /// An unused local variable (`hint.unused.local`): remove its declaration.
    RemoveLocal,
    /// A cast to the type javac names (lossy conversion, or `Object` to it).
    Cast(String),
    /// A missing method called by its simple name: its name and javac's argument types.
    CreateMethod(String, Vec<String>),
    /// A missing variable read or assigned by its simple name: a field or a local.
    CreateVariable(String),
    /// A method overriding a supertype's without `@Override` (`hint.missing.override`).
    AddOverride,
}

/// The fix a diagnostic offers, from javac's key and message.
pub fn offer(code: &str, message: &str) -> Option<Offer> {
    match code {
        "compiler.err.cant.resolve.location" | "compiler.err.cant.resolve" => {
            let symbol = message.lines().find_map(|l| l.trim().strip_prefix("symbol:"))?;
            let mut words = symbol.split_whitespace();
            let (kind, name) = (words.next()?, words.next()?);
            // `Collections.emptyList()` unresolved is javac's `variable Collections`.
            let type_like = kind == "class" || (kind == "variable" && name.starts_with(char::is_uppercase));
            if !crate::is_identifier(name) {
                return None;
            }
            if type_like {
                Some(Offer::Import(name.to_owned()))
            } else {
                (kind == "variable").then(|| Offer::CreateVariable(name.to_owned()))
            }
        }
        "compiler.err.cant.resolve.location.args" => {
            let symbol = message.lines().find_map(|l| l.trim().strip_prefix("symbol:"))?.trim();
            let (name, args) = symbol.strip_prefix("method ")?.strip_suffix(')')?.split_once('(')?;
            crate::is_identifier(name).then(|| Offer::CreateMethod(name.to_owned(), split_types(args)))
        }
        "compiler.err.prob.found.req" => {
            let rest = message.lines().next()?.strip_prefix("incompatible types: ")?;
            let target = match rest.strip_prefix("possible lossy conversion from ") {
                Some(r) => r.split_once(" to ")?.1,
                None => rest.strip_prefix("java.lang.Object cannot be converted to ")?,
            };
            let target = target.trim();
            castable_name(target).then(|| Offer::Cast(target.to_owned()))
        }
        "hint.unused.import" => Some(Offer::RemoveImport),
        "hint.unused.local" => Some(Offer::RemoveLocal),
        "hint.missing.override" => Some(Offer::AddOverride),
        // Also a try-with-resources' implicit close().
        "compiler.err.unreported.exception.need.to.catch.or.throw"
        | "compiler.err.unreported.exception.implicit.close" => {
            let rest = message.strip_prefix("unreported exception ")?;
            let name = rest.split(';').next()?.trim();
            (!name.is_empty() && name.split('.').all(crate::is_identifier)).then(|| Offer::Exception(name.to_owned()))
        }
        "compiler.err.does.not.override.abstract" => {
            // `qf.Task is not abstract …` (javac qualifies it).
            let name = message.split_whitespace().next()?.rsplit('.').next()?;
            crate::is_identifier(name).then(|| Offer::Implement(name.to_owned()))
        }
        _ => None,
    }
}

/// A primitive type or a (qualified) type name without type arguments.
pub(crate) fn castable_name(ty: &str) -> bool {
    const PRIMITIVES: &[&str] = &["byte", "short", "char", "int", "long", "float", "double", "boolean"];
    PRIMITIVES.contains(&ty) || ty.split('.').all(crate::is_identifier)
}

/// javac's comma-separated types, split at the commas outside `<…>`.
pub fn split_types(s: &str) -> Vec<String> {
    let (mut out, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    for c in s.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|t| t.trim().to_owned()).collect()
}

/// How the code names `qualified`: its simple name, with the import that makes it usable when
/// one is needed, or the qualified name when another type of that name is imported.
pub(crate) fn type_name(doc: &Doc, qualified: &str) -> (String, Option<TextEdit>) {
    let simple = qualified.rsplit('.').next().unwrap_or(qualified).to_owned();
    if !qualified.contains('.') {
        return (simple, None);
    }
    match crate::imports::ensure_import_sorted(doc, qualified) {
        Ok(edit) => (simple, edit),
        Err(()) => (qualified.to_owned(), None),
    }
}

/// Adds `throws X` to the method or constructor around byte `at` (`X` imported when it can
/// be). Refused inside a lambda or an initializer, and for a method marked `@Override` (the
/// method it overrides does not declare it).
pub fn add_throws(doc: &Doc, at: usize, exception: &str) -> Result<Vec<TextEdit>, String> {
    let text = doc.text();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let mut n = tree.root_node().descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    let method = loop {
        match n.kind() {
            kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION => break n,
            kind::LAMBDA_EXPRESSION => return Err("inside a lambda, whose interface method cannot throw it".into()),
            kind::CLASS_BODY | kind::ENUM_BODY | kind::INTERFACE_BODY | kind::PROGRAM => {
                return Err("not inside a method or constructor".into());
            }
            _ => n = n.parent().ok_or("not inside a method or constructor")?,
        }
    };
    let head =
        &text[method.start_byte()..method.child_by_field_name("body").map_or(method.end_byte(), |b| b.start_byte())];
    if head.contains("@Override") {
        return Err("the method overrides one that does not declare it".into());
    }
    let (name, import) = type_name(doc, exception);
    let mut edits: Vec<TextEdit> = import.into_iter().collect();
    let mut c = method.walk();
    if let Some(throws) = method.children(&mut c).find(|c| c.kind() == kind::THROWS) {
        edits.push(TextEdit { start: throws.end_byte(), end: throws.end_byte(), text: format!(", {name}") });
    } else {
        let body = method.child_by_field_name("body").ok_or("the method has no body")?;
        let at = body.start_byte();
        let spaced = text[..at].ends_with(char::is_whitespace);
        let insert = if spaced { format!("throws {name} ") } else { format!(" throws {name} ") };
        edits.push(TextEdit { start: at, end: at, text: insert });
    }
    Ok(edits)
}

/// Surrounds the statement around byte `at` with `try { … } catch (X e) { throw new
/// RuntimeException(e); }`. A declaration whose variable is used after it is split (`T x;`
/// before the try, `x = …;` inside); refused when it cannot be (`var`, several variables), for
/// a constructor's `this(…)`/`super(…)` call, and for code outside a block (a lambda's
/// expression body, a field's initializer).
pub fn surround_with_try(doc: &Doc, at: usize, exception: &str) -> Result<Vec<TextEdit>, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let mut n = tree.root_node().descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    let stmt = loop {
        let parent = n.parent().ok_or("not inside a block")?;
        if matches!(parent.kind(), kind::BLOCK | kind::CONSTRUCTOR_BODY | kind::SWITCH_BLOCK_STATEMENT_GROUP)
            && n.is_named()
        {
            break n;
        }
        if matches!(parent.kind(), kind::LAMBDA_EXPRESSION | kind::CLASS_BODY | kind::ENUM_BODY | kind::INTERFACE_BODY)
        {
            return Err("not inside a block (a lambda's expression or an initializer)".into());
        }
        n = parent;
    };
    if stmt.kind() == kind::EXPLICIT_CONSTRUCTOR_INVOCATION {
        return Err("a constructor's this(…) or super(…) call cannot be inside a try".into());
    }
    let block = stmt.parent().ok_or("not inside a block")?;
    // A declaration whose variable is used after it is split: declared before the try,
    // assigned inside (definitely assigned after it, as the catch always throws).
    let mut split: Option<(String, String)> = None;
    if stmt.kind() == kind::LOCAL_VARIABLE_DECLARATION {
        let mut names = Vec::new();
        let mut c = stmt.walk();
        let declarators: Vec<Node> = stmt.children_by_field_name("declarator", &mut c).collect();
        for d in &declarators {
            if let Some(name) = d.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()) {
                names.push(name.to_owned());
            }
        }
        let mut used = None;
        walk(block, &mut |x| {
            if x.start_byte() >= stmt.end_byte()
                && x.kind() == kind::IDENTIFIER
                && let Ok(t) = x.utf8_text(bytes)
                && names.iter().any(|n| n == t)
            {
                used.get_or_insert(t.to_owned());
            }
        });
        if let Some(u) = used {
            let ty = stmt.child_by_field_name("type").and_then(|t| t.utf8_text(bytes).ok()).unwrap_or("var");
            let (Some(d), true, false) = (declarators.first(), declarators.len() == 1, ty == "var") else {
                return Err(format!(
                    "the statement declares `{u}`, used after it, and cannot be split (`var`, or several variables)"
                ));
            };
            let (Some(value), None) = (d.child_by_field_name("value"), d.child_by_field_name("dimensions")) else {
                return Err(format!("the statement declares `{u}`, used after it, and cannot be split"));
            };
            if value.kind() == kind::ARRAY_INITIALIZER {
                return Err(format!("the statement declares `{u}` with an array initializer, used after it"));
            }
            // `final String s` from the statement's own text, then `s = value;` in the try.
            let head = text[stmt.start_byte()..d.start_byte()].trim_end();
            split = Some((format!("{head} {u};"), format!("{u} = {};", &text[value.start_byte()..value.end_byte()])));
        }
    }
    let line_start = crate::syntax::line_start(text, stmt.start_byte());
    let indent = &text[line_start..stmt.start_byte()];
    if !indent.chars().all(|c| c == ' ' || c == '\t') {
        return Err("the statement does not start its line".into());
    }
    let unit = indent_unit(text, block, indent);
    let eol = doc.eol();
    let var = catch_name(enclosing_body(stmt), bytes);
    let (name, import) = type_name(doc, exception);
    let inner = match &split {
        Some((_, assign)) => assign.clone(),
        None => text[stmt.start_byte()..stmt.end_byte()].to_owned(),
    };
    let body: String = inner
        .split('\n')
        .enumerate()
        .map(|(i, l)| if i == 0 || l.trim().is_empty() { l.to_owned() } else { format!("{unit}{l}") })
        .collect::<Vec<_>>()
        .join("\n");
    let declared = split.map(|(d, _)| format!("{d}{eol}{indent}")).unwrap_or_default();
    let new = format!(
        "{declared}try {{{eol}{indent}{unit}{body}{eol}{indent}}} catch ({name} {var}) {{{eol}{indent}{unit}throw new RuntimeException({var});{eol}{indent}}}"
    );
    let mut edits: Vec<TextEdit> = import.into_iter().collect();
    edits.push(TextEdit { start: stmt.start_byte(), end: stmt.end_byte(), text: new });
    Ok(edits)
}

/// One level of indentation: the statement's indent beyond its block's line, else 4 spaces
/// (a tab where the file indents with tabs).
fn indent_unit(text: &str, block: Node, indent: &str) -> String {
    let outer = crate::syntax::line_indent(text, block.start_byte());
    match indent.strip_prefix(outer) {
        Some(u) if !u.is_empty() => u.to_owned(),
        _ if indent.contains('\t') => "\t".to_owned(),
        _ => "    ".to_owned(),
    }
}

/// The method, constructor, lambda or initializer whose names a new local must not take.
fn enclosing_body(n: Node) -> Node {
    let mut at = n;
    while let Some(p) = at.parent() {
        if matches!(
            p.kind(),
            kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION | kind::CLASS_BODY | kind::ENUM_BODY
        ) {
            return p;
        }
        at = p;
    }
    at
}

/// The first of `e`, `ex`, `e1`, `e2`, … that no identifier in `scope` spells.
fn catch_name(scope: Node, bytes: &[u8]) -> String {
    let mut taken = std::collections::HashSet::new();
    walk(scope, &mut |x| {
        if x.kind() == kind::IDENTIFIER
            && let Ok(t) = x.utf8_text(bytes)
        {
            taken.insert(t.to_owned());
        }
    });
    ["e", "ex"]
        .iter()
        .map(|s| (*s).to_owned())
        .chain((1..).map(|i| format!("e{i}")))
        .find(|n| !taken.contains(n))
        .unwrap_or_else(|| "e".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn applied(src: &str, edits: Vec<TextEdit>) -> String {
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let mut e = crate::WorkspaceEdit::default();
        let mut f = doc.edit();
        f.edits = edits;
        e.add(f);
        String::from_utf8(e.plan().expect("plan").files[0].new.clone()).expect("utf8")
    }

    fn doc(src: &str) -> Doc {
        Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8")
    }

    #[test]
    fn fix_ids_round_trip_and_name_their_content() {
        let id = FixId::new("src/p/A.java", 3, 9, "import", "java.util.List", b"class A {}");
        let s = id.encode();
        assert_eq!(FixId::parse(&s), Ok(id.clone()));
        assert!(!id.is_stale(b"class A {}"));
        assert!(id.is_stale(b"class A { }"));
        for bad in ["", "x", "a:1:2:import=x", "a:1:2:nope=x@12345678", "a:x:2:import=x@12345678"] {
            assert!(FixId::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn offers_from_javac_messages() {
        let m = "cannot find symbol\n  symbol:   class List\n  location: class A";
        assert_eq!(offer("compiler.err.cant.resolve.location", m), Some(Offer::Import("List".into())));
        let m = "cannot find symbol\n  symbol:   variable count\n  location: class A";
        assert_eq!(offer("compiler.err.cant.resolve.location", m), Some(Offer::CreateVariable("count".into())));
        let m = "cannot find symbol\n  symbol:   method f(int,java.util.Map<java.lang.String,java.lang.Integer>)\n  location: class A";
        assert_eq!(
            offer("compiler.err.cant.resolve.location.args", m),
            Some(Offer::CreateMethod(
                "f".into(),
                vec!["int".into(), "java.util.Map<java.lang.String,java.lang.Integer>".into()]
            ))
        );
        let m = "incompatible types: possible lossy conversion from double to int";
        assert_eq!(offer("compiler.err.prob.found.req", m), Some(Offer::Cast("int".into())));
        let m = "incompatible types: java.lang.Object cannot be converted to java.lang.String";
        assert_eq!(offer("compiler.err.prob.found.req", m), Some(Offer::Cast("java.lang.String".into())));
        let m = "incompatible types: java.lang.String cannot be converted to java.lang.Integer";
        assert_eq!(offer("compiler.err.prob.found.req", m), None);
        let m = "unreported exception java.io.IOException; must be caught or declared to be thrown";
        assert_eq!(
            offer("compiler.err.unreported.exception.need.to.catch.or.throw", m),
            Some(Offer::Exception("java.io.IOException".into()))
        );
        let m = "unreported exception java.io.IOException; must be caught or declared to be thrown\n  exception thrown from implicit call to close() on resource variable r";
        assert_eq!(
            offer("compiler.err.unreported.exception.implicit.close", m),
            Some(Offer::Exception("java.io.IOException".into()))
        );
        let m = "p.A.B is not abstract and does not override abstract method run() in java.lang.Runnable";
        assert_eq!(offer("compiler.err.does.not.override.abstract", m), Some(Offer::Implement("B".into())));
    }

    #[test]
    fn throws_and_try_catch() {
        let src = "package p;\n\nclass A {\n    void f() {\n        read();\n    }\n    void g() throws X {\n        read();\n    }\n}\n";
        let at = src.find("read").expect("read");
        let out = applied(src, add_throws(&doc(src), at, "java.io.IOException").expect("throws"));
        assert!(out.contains("import java.io.IOException;") && out.contains("void f() throws IOException {"), "{out}");
        let at2 = src.rfind("read").expect("read");
        let out = applied(src, add_throws(&doc(src), at2, "java.io.IOException").expect("throws"));
        assert!(out.contains("void g() throws X, IOException {"), "{out}");
        let out = applied(src, surround_with_try(&doc(src), at, "java.io.IOException").expect("try"));
        assert!(
            out.contains("        try {\n            read();\n        } catch (IOException e) {\n            throw new RuntimeException(e);\n        }\n"),
            "{out}"
        );
        let src = "class A {\n  void f() {\n    int e = 1;\n    int n = read(e);\n    use(n);\n    Runnable r = () -> read(0);\n  }\n}\n";
        let at = src.find("read").expect("read");
        let out = applied(src, surround_with_try(&doc(src), at, "X").expect("split"));
        assert!(out.contains("    int n;\n    try {\n      n = read(e);\n    } catch (X ex) {"), "{out}");
        let var = "class A {\n  void f() {\n    var n = read();\n    use(n);\n  }\n}\n";
        assert!(surround_with_try(&doc(var), var.find("read").expect("r"), "X").expect_err("var").contains("`n`"));
        let lambda = src.rfind("read").expect("read");
        assert!(surround_with_try(&doc(src), lambda, "X").is_err());
        assert!(add_throws(&doc(src), lambda, "X").is_err());
        let src = "class A {\n  void f() {\n    int e = 1;\n    read(e);\n  }\n}\n";
        let out = applied(src, surround_with_try(&doc(src), src.find("read").expect("r"), "X").expect("try"));
        assert!(out.contains("    try {\n      read(e);\n    } catch (X ex) {"), "{out}");
    }
}
