//! Kotlin source -> [`FileOutline`], with tree-sitter-kotlin-ng (the tree-sitter-grammars
//! organisation's grammar, maintained beside tree-sitter itself; fwcd's older grammar binds a
//! tree-sitter below 0.23). Pure, never fails. Declarations as Kotlin writes them, in the
//! declaration model Java's use, and the members Java sees that Kotlin writes implicitly:
//! - classes, interfaces, `enum class`, `annotation class`, `object`s and companion objects
//!   (`modifiers` says `object`, `companion`, `data`, `sealed`, `value`…); an `object`'s
//!   `INSTANCE` field, and on a companion's class its `Companion` field and, as statics, the
//!   companion's `@JvmStatic` functions, `const val`s and `@JvmField`s, marked
//!   `generated: "kotlin"`;
//! - functions (an extension function's receiver is its first parameter, named `receiver`, as
//!   the JVM method takes it), primary and secondary constructors, properties (a primary
//!   constructor's `val`/`var` too) with their getter and setter as Java names them (`getName`,
//!   `isActive`, `setName`; none for `@JvmField`, `const val` or a private property), marked
//!   generated;
//! - top-level functions and properties in the file's facade class, as Java sees them
//!   (`UtilsKt` for `utils.kt`, or `@file:JvmName`); type aliases as types whose modifiers say
//!   `typealias` (Java does not see them).
//!
//! Types are written as Kotlin writes them (`String?`, `List<T>`): not mapped to Java's.

use mji_model::{
    Callable, CtorDecl, Diagnostic, EnumConstant, FieldDecl, FileOutline, Javadoc, Level, MethodDecl, Param, SymbolId,
    SymbolKind, TypeDecl, TypeKind,
};
use tree_sitter::{Node, Parser};

use crate::source::SourceText;

/// How deep declarations nest before the rest is left out (a bound on the recursive walk).
const MAX_NESTING: u32 = 64;
/// How many syntax errors are listed.
const MAX_ERRORS: usize = 20;
/// What [`FileOutline::language`] and generated members say.
pub const LANGUAGE: &str = "kotlin";

/// Whether `kind` is a node kind of the Kotlin grammar (named or anonymous), or `ERROR`: the
/// check that a string compared with a node's kind names one (`tests/it/invariants/architecture.rs`)
/// asks it of this file, as it asks [`crate::kind::in_grammar`] of the Java code.
pub fn in_grammar(kind: &str) -> bool {
    if kind == "ERROR" {
        return true;
    }
    static KINDS: std::sync::OnceLock<std::collections::HashSet<&'static str>> = std::sync::OnceLock::new();
    KINDS.get_or_init(|| crate::kind::node_kinds(tree_sitter_kotlin_ng::NODE_TYPES)).contains(kind)
}

/// The Kotlin syntax tree of `text` (None when the grammar does not load), parsed as
/// [`grammar_text`] gives it.
pub fn parse_tree(text: &str) -> Option<tree_sitter::Tree> {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_kotlin_ng::LANGUAGE.into()).ok()?;
    parser.parse(grammar_text(text).as_ref(), None)
}

/// The text the grammar parses for `text`: the same bytes, except that a primary constructor
/// written on the line after its class's name (`class Options\n  private constructor(…)`),
/// which kotlinc accepts and tree-sitter-kotlin-ng rejects (swallowing the whole class), has
/// that line break moved to the first blank after its `(` (on its line, or the next line's
/// indentation). Same length: every byte offset holds, and every line but the constructor's
/// keyword line (read one line up, on its class's) keeps its number. Unchanged otherwise.
pub fn grammar_text(text: &str) -> std::borrow::Cow<'_, str> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut bytes: Option<Vec<u8>> = None;
    let mut start = 0;
    while let Some(nl) = text[start..].find('\n').map(|i| start + i) {
        let line = text[start..nl].trim_end();
        start = nl + 1;
        // `… class Name` or `… class Name<T>`, nothing after it on the line.
        let head = line.trim_start();
        let Some(at) = head.find("class ").filter(|a| *a == 0 || head[..*a].ends_with(' ')) else { continue };
        let name = head[at + 6..].trim();
        let bare = name.split('<').next().unwrap_or(name);
        if bare.is_empty() || !bare.chars().all(ident) || (name.contains('<') && !name.ends_with('>')) {
            continue;
        }
        // The next line: modifiers or annotations, then `constructor(`.
        let next_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let next = text[start..next_end].trim_start();
        let Some(k) = next.find("constructor") else { continue };
        let words_ok = next[..k].split_whitespace().all(|w| {
            matches!(w, "private" | "internal" | "protected" | "public")
                || (w.starts_with('@') && w[1..].chars().all(ident))
        });
        if !words_ok || !next[k + "constructor".len()..].trim_start().starts_with('(') {
            continue;
        }
        // The blank that becomes the line break: the one before `constructor` after its
        // modifiers (`private constructor(` keeps its line), else one after `(` on its line,
        // else the next line's indentation.
        let kw = next_end - next.len() + k;
        let paren = kw + next[k..].find('(').unwrap_or(0);
        let before = (!next[..k].trim().is_empty()).then_some(kw - 1);
        let after = before.or_else(|| text[paren..next_end].find([' ', '\t']).map(|i| paren + i)).or_else(|| {
            let s = next_end + 1;
            text.get(s..).filter(|r| r.starts_with([' ', '\t'])).map(|_| s)
        });
        let Some(blank) = after else { continue };
        let b = bytes.get_or_insert_with(|| text.as_bytes().to_vec());
        b[nl] = b' ';
        b[blank] = b'\n';
    }
    match bytes.map(String::from_utf8) {
        Some(Ok(s)) => std::borrow::Cow::Owned(s),
        _ => std::borrow::Cow::Borrowed(text),
    }
}

/// One `import` of a Kotlin file: `a.b.C`, `a.b` with `on_demand` for `a.b.*`, and the alias
/// of `import a.b.C as D`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KtImport {
    pub path: String,
    pub on_demand: bool,
    pub alias: Option<String>,
}

/// The imports of a Kotlin file's tree.
pub fn imports(root: Node, src: &[u8]) -> Vec<KtImport> {
    let mut c = root.walk();
    root.named_children(&mut c)
        .filter(|n| n.kind() == "import")
        .filter_map(|n| {
            let q = named(n, "qualified_identifier").or_else(|| named(n, "identifier"))?;
            let path: String = q.utf8_text(src).ok()?.split_whitespace().collect();
            let text = n.utf8_text(src).unwrap_or("");
            let on_demand = text.trim_end().ends_with('*');
            let mut c2 = n.walk();
            let alias = n
                .named_children(&mut c2)
                .filter(|x| x.kind() == "identifier" && x.start_byte() > q.end_byte())
                .last()
                .and_then(|x| x.utf8_text(src).ok())
                .map(str::to_owned);
            Some(KtImport { path, on_demand, alias })
        })
        .collect()
}

/// Whether `path` is a Kotlin source (`.kt`; `.kts` scripts are build files, not read here).
pub fn is_kotlin(path: &str) -> bool {
    path.ends_with(".kt")
}

/// Outlines a Kotlin file from its raw bytes. `file_path` is reported as given.
pub fn outline(file_path: &str, bytes: &[u8], hash: String) -> FileOutline {
    outline_source(file_path, hash, &SourceText::decode(bytes))
}

/// Outlines already-decoded Kotlin text.
pub fn outline_source(file_path: &str, hash: String, src: &SourceText) -> FileOutline {
    let mut out = FileOutline {
        file_path: file_path.to_owned(),
        language: LANGUAGE.to_owned(),
        hash,
        line_count: src.lines.line_count(),
        package: None,
        classes: Vec::new(),
        errors: Vec::new(),
    };
    let mut parser = Parser::new();
    if parser.set_language(&tree_sitter_kotlin_ng::LANGUAGE.into()).is_err() {
        out.errors.push(Diagnostic {
            level: Level::Error,
            message: "the Kotlin grammar could not be loaded".to_owned(),
            line: None,
        });
        return out;
    }
    let text = src.text.as_bytes();
    let Some(tree) = parser.parse(grammar_text(&src.text).as_bytes(), None) else {
        out.errors.push(Diagnostic {
            level: Level::Error,
            message: "the file could not be parsed".to_owned(),
            line: None,
        });
        return out;
    };
    let root = tree.root_node();
    let b = Builder { src: text };
    let mut c = root.walk();
    let top: Vec<Node> = root.named_children(&mut c).collect();
    out.package = top
        .iter()
        .find(|n| n.kind() == "package_header")
        .and_then(|n| named(*n, "qualified_identifier"))
        .map(|q| b.text(q).split_whitespace().collect());
    let prefix = out.package.as_deref().map(|p| format!("{p}.")).unwrap_or_default();
    let mut facade = TypeDecl {
        symbol_id: String::new(),
        kind: TypeKind::Class,
        name: facade_name(file_path, &top, &b),
        qualified_name: String::new(),
        modifiers: vec!["public".to_owned(), "final".to_owned()],
        annotations: Vec::new(),
        type_params_text: None,
        extends: None,
        implements: Vec::new(),
        permits: Vec::new(),
        start_line: 1,
        end_line: out.line_count.max(1),
        javadoc: Javadoc::absent(),
        record_components: None,
        enum_constants: None,
        fields: Vec::new(),
        constructors: Vec::new(),
        methods: Vec::new(),
        inner_classes: Vec::new(),
        generated: Some(LANGUAGE.to_owned()),
        generated_by: Some("top-level declarations".to_owned()),
    };
    facade.qualified_name = format!("{prefix}{}", facade.name);
    for (i, n) in top.iter().enumerate() {
        let doc = kdoc(&top, i, &b);
        match n.kind() {
            "class_declaration" | "object_declaration" | "type_alias" => {
                if let Some(t) = b.type_decl(*n, &prefix, doc, 0) {
                    out.classes.push(t);
                }
            }
            "function_declaration" => facade.methods.extend(b.function(*n, &facade.qualified_name, doc, true)),
            "property_declaration" => {
                let owner = facade.qualified_name.clone();
                b.property(*n, &owner, doc, true, &mut facade)
            }
            _ => {}
        }
    }
    if !facade.methods.is_empty() || !facade.fields.is_empty() {
        facade.symbol_id = SymbolId::class(&facade.qualified_name, facade.start_line, facade.end_line).to_string();
        out.classes.push(facade);
    }
    let (found, total) = crate::syntax_errors(root, text, MAX_ERRORS);
    for e in found {
        out.errors.push(Diagnostic { level: Level::Error, message: e.message, line: Some(src.lines.line_of(e.start)) });
    }
    if total > MAX_ERRORS {
        out.errors.push(Diagnostic {
            level: Level::Error,
            message: format!("{} more syntax errors not listed", total - MAX_ERRORS),
            line: None,
        });
    }
    out
}

/// The facade class of a file's top-level declarations: `@file:JvmName("X")`, else the file's
/// name with its first letter capitalised and `Kt` (`utils.kt` → `UtilsKt`).
fn facade_name(file_path: &str, top: &[Node], b: &Builder) -> String {
    for a in top.iter().filter(|n| n.kind() == "file_annotation") {
        let text = b.text(*a);
        if let Some(rest) = text.split("JvmName").nth(1)
            && let Some(name) = rest.split('"').nth(1)
        {
            return name.to_owned();
        }
    }
    let file = file_path.rsplit(['/', '\\']).next().unwrap_or(file_path);
    let stem = file.strip_suffix(".kt").unwrap_or(file);
    // kotlinc's `PackagePartClassUtils`: every character but a letter or digit as `_` (the
    // first too: `-Foo.kt` → `_FooKt`), then the first capitalised.
    let mut cs = stem.chars().map(|c| if c.is_alphanumeric() { c } else { '_' });
    let first: String = cs.next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
    let rest: String = cs.collect();
    format!("{first}{rest}Kt")
}

/// The name `@JvmName("x")` (with `target` a use-site target such as `get:`, or none) gives.
fn jvm_name(annotations: &[String], target: &str) -> Option<String> {
    annotations.iter().find_map(|a| {
        let rest = a.strip_prefix('@')?.strip_prefix(target)?.strip_prefix("JvmName")?;
        rest.split('"').nth(1).map(str::to_owned)
    })
}

/// For `@JvmOverloads`: which parameters each shorter overload keeps (the defaulted ones
/// dropped from the last, one at a time), longest first.
fn shorter(defaults: &[bool]) -> Vec<Vec<bool>> {
    let mut keep = vec![true; defaults.len()];
    let mut out = Vec::new();
    for i in (0..defaults.len()).rev().filter(|i| defaults[*i]) {
        keep[i] = false;
        out.push(keep.clone());
    }
    out
}

/// The parameters an overload keeps.
fn jvm_overload(params: &[Param], _defaults: &[bool], kept: &[bool]) -> Vec<Param> {
    params.iter().zip(kept).filter(|(_, k)| **k).map(|(p, _)| p.clone()).collect()
}

/// The first named child of kind `kind`.
fn named<'t>(n: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut c = n.walk();
    n.named_children(&mut c).find(|x| x.kind() == kind)
}

/// Whether `n` has an anonymous child token `word` (`interface`, `val`, `var`, `companion`).
fn has_token(n: Node, word: &str) -> bool {
    let mut c = n.walk();
    n.children(&mut c).any(|x| !x.is_named() && x.kind() == word)
}

fn is_type_node(k: &str) -> bool {
    matches!(k, "user_type" | "nullable_type" | "function_type" | "parenthesized_type" | "non_nullable_type")
}

/// The KDoc of `siblings[i]`: a `/** … */` comment right before it (line comments between are
/// not allowed, as Dokka reads it).
fn kdoc(siblings: &[Node], i: usize, b: &Builder) -> Javadoc {
    let Some(prev) = i.checked_sub(1).and_then(|k| siblings.get(k)) else { return Javadoc::absent() };
    if prev.kind() != "block_comment" || !b.text(*prev).starts_with("/**") {
        return Javadoc::absent();
    }
    let (s, e) = (b.line(*prev), prev.end_position().row as u32 + 1);
    Javadoc {
        present: true,
        start_line: Some(s),
        end_line: Some(e),
        line_count: e - s + 1,
        preview: None,
        span: Some((prev.start_byte(), prev.end_byte())),
    }
}

/// A property as [`Builder::add_property`] reads it: its name, type as written, `var`, and an
/// extension property's receiver type.
struct Prop<'a> {
    name: &'a str,
    ty: &'a str,
    mutable: bool,
    receiver: Option<&'a str>,
}

struct Builder<'s> {
    src: &'s [u8],
}

impl Builder<'_> {
    fn text(&self, n: Node) -> &str {
        n.utf8_text(self.src).unwrap_or("")
    }

    /// A node's text on one line (types and signatures as written, whitespace collapsed).
    fn flat(&self, n: Node) -> String {
        self.text(n).split_whitespace().collect::<Vec<_>>().join(" ")
    }

    fn line(&self, n: Node) -> u32 {
        n.start_position().row as u32 + 1
    }

    fn end_line(&self, n: Node) -> u32 {
        n.end_position().row as u32 + 1
    }

    /// Modifiers and annotations as written (`modifiers` children), with `public` added where no
    /// visibility is written (Kotlin's default) when `default_public`.
    fn modifiers(&self, n: Node, default_public: bool) -> (Vec<String>, Vec<String>) {
        let (mut mods, mut anns) = (Vec::new(), Vec::new());
        if let Some(m) = named(n, "modifiers") {
            let mut c = m.walk();
            for x in m.named_children(&mut c) {
                match x.kind() {
                    "annotation" => anns.push(self.flat(x)),
                    _ => mods.push(self.flat(x)),
                }
            }
        }
        let visible = ["public", "private", "protected", "internal"];
        if default_public && !mods.iter().any(|m| visible.contains(&m.as_str())) {
            mods.insert(0, "public".to_owned());
        }
        (mods, anns)
    }

    fn type_decl(&self, n: Node, prefix: &str, javadoc: Javadoc, depth: u32) -> Option<TypeDecl> {
        if depth > MAX_NESTING {
            return None;
        }
        let name = match n.kind() {
            "companion_object" => {
                n.child_by_field_name("name").map(|x| self.text(x).to_owned()).unwrap_or_else(|| "Companion".to_owned())
            }
            "type_alias" => self.text(n.child_by_field_name("type")?).to_owned(),
            _ => self.text(n.child_by_field_name("name")?).to_owned(),
        };
        let (mut modifiers, annotations) = self.modifiers(n, true);
        let mut kind = TypeKind::Class;
        match n.kind() {
            "object_declaration" => modifiers.push("object".to_owned()),
            "companion_object" => modifiers.extend(["companion".to_owned(), "object".to_owned()]),
            "type_alias" => modifiers.push("typealias".to_owned()),
            _ if has_token(n, "interface") => kind = TypeKind::Interface,
            _ if modifiers.iter().any(|m| m == "enum") => kind = TypeKind::Enum,
            _ if modifiers.iter().any(|m| m == "annotation") => kind = TypeKind::Annotation,
            _ => {}
        }
        // The kind says it (`enum class` is an enum, not a class whose modifier is `enum`).
        modifiers
            .retain(|m| !matches!((kind, m.as_str()), (TypeKind::Enum, "enum") | (TypeKind::Annotation, "annotation")));
        let qualified_name = format!("{prefix}{name}");
        let (start_line, end_line) = (self.line(n), self.end_line(n));
        let mut t = TypeDecl {
            symbol_id: SymbolId::class(&qualified_name, start_line, end_line).to_string(),
            kind,
            name,
            qualified_name,
            modifiers,
            annotations,
            type_params_text: named(n, "type_parameters").map(|x| self.flat(x)),
            extends: None,
            implements: Vec::new(),
            permits: Vec::new(),
            start_line,
            end_line,
            javadoc,
            record_components: None,
            enum_constants: None,
            fields: Vec::new(),
            constructors: Vec::new(),
            methods: Vec::new(),
            inner_classes: Vec::new(),
            generated: None,
            generated_by: None,
        };
        if n.kind() == "type_alias" {
            let mut c = n.walk();
            t.extends = n.named_children(&mut c).filter(|x| is_type_node(x.kind())).last().map(|x| self.flat(x));
            return Some(t);
        }
        if let Some(ds) = named(n, "delegation_specifiers") {
            let mut c = ds.walk();
            for d in ds.named_children(&mut c) {
                match named(d, "constructor_invocation") {
                    Some(ci) if kind != TypeKind::Interface && t.extends.is_none() => {
                        t.extends = named(ci, "user_type").map(|u| self.flat(u))
                    }
                    _ => {
                        let ty = named(d, "user_type").or_else(|| named(d, "explicit_delegation")).unwrap_or(d);
                        let ty =
                            if ty.kind() == "explicit_delegation" { named(ty, "user_type").unwrap_or(ty) } else { ty };
                        t.implements.push(self.flat(ty));
                    }
                }
            }
        }
        if matches!(n.kind(), "object_declaration") {
            t.fields.push(self.generated_field("INSTANCE", &t.name, &t.qualified_name, start_line, "object"));
        }
        if let Some(pc) = named(n, "primary_constructor") {
            self.primary_constructor(pc, &mut t);
        }
        let body = named(n, "class_body").or_else(|| named(n, "enum_class_body"));
        if let Some(body) = body {
            let mut c = body.walk();
            let members: Vec<Node> = body.named_children(&mut c).collect();
            let inner_prefix = format!("{}.", t.qualified_name);
            for (i, m) in members.iter().enumerate() {
                let doc = kdoc(&members, i, self);
                match m.kind() {
                    "class_declaration" | "object_declaration" | "companion_object" | "type_alias" => {
                        if let Some(inner) = self.type_decl(*m, &inner_prefix, doc, depth + 1) {
                            if m.kind() == "companion_object" {
                                lift_companion(&inner, &mut t);
                            }
                            t.inner_classes.push(inner);
                        }
                    }
                    "function_declaration" => {
                        let owner = t.qualified_name.clone();
                        for mut f in self.function(*m, &owner, doc, false) {
                            // What Java sees: an interface's function without a body is
                            // abstract; an `object`'s `@JvmStatic` function is static.
                            if kind == TypeKind::Interface && named(*m, "function_body").is_none() {
                                f.modifiers.push("abstract".to_owned());
                            }
                            if n.kind() == "object_declaration"
                                && f.annotations.iter().any(|a| a.starts_with("@JvmStatic"))
                            {
                                f.modifiers.push("static".to_owned());
                            }
                            t.methods.push(f);
                        }
                    }
                    "property_declaration" => {
                        let owner = t.qualified_name.clone();
                        self.property(*m, &owner, doc, false, &mut t);
                    }
                    "secondary_constructor" => {
                        let (params, _) = self.params(named(*m, "function_value_parameters"));
                        let (modifiers, annotations) = self.modifiers(*m, true);
                        let c = self.callable(*m, t.name.clone(), modifiers, annotations, None, params, doc);
                        t.constructors.push(self.ctor(
                            c,
                            &t.qualified_name,
                            self.flat_head(*m, "constructor_delegation_call"),
                        ));
                    }
                    "enum_entry" => {
                        let Some(id) = named(*m, "identifier") else { continue };
                        let name = self.text(id).to_owned();
                        let (s, e) = (self.line(*m), self.end_line(*m));
                        t.enum_constants.get_or_insert_with(Vec::new).push(EnumConstant {
                            symbol_id: SymbolId::member(
                                SymbolKind::EnumConstant,
                                &t.qualified_name,
                                name.clone(),
                                s,
                                e,
                            )
                            .to_string(),
                            name,
                            start_line: s,
                            end_line: e,
                            javadoc: doc,
                        });
                    }
                    _ => {}
                }
            }
        }
        Some(t)
    }

    /// The primary constructor: a constructor, and a property for each `val`/`var` parameter.
    fn primary_constructor(&self, pc: Node, t: &mut TypeDecl) {
        let mut params = Vec::new();
        let mut defaults = Vec::new();
        if let Some(cps) = named(pc, "class_parameters") {
            let mut c = cps.walk();
            for p in cps.named_children(&mut c).filter(|p| p.kind() == "class_parameter") {
                let Some(name) = named(p, "identifier").map(|x| self.text(x).to_owned()) else { continue };
                let mut c2 = p.walk();
                let ty = p
                    .named_children(&mut c2)
                    .find(|x| is_type_node(x.kind()))
                    .map(|x| self.flat(x))
                    .unwrap_or_default();
                params.push(Param { name: name.clone(), type_text: ty.clone() });
                defaults.push(has_token(p, "="));
                let mutable = has_token(p, "var");
                if mutable || has_token(p, "val") {
                    let (modifiers, annotations) = self.modifiers(p, true);
                    let owner = t.qualified_name.clone();
                    let prop = Prop { name: &name, ty: &ty, mutable, receiver: None };
                    self.add_property(t, &owner, prop, modifiers, annotations, p, Javadoc::absent());
                }
            }
        }
        let (modifiers, annotations) = self.modifiers(pc, true);
        let c = self.callable(pc, t.name.clone(), modifiers, Vec::new(), None, params, Javadoc::absent());
        let signature =
            format!("constructor{}", named(pc, "class_parameters").map(|x| self.flat(x)).unwrap_or_default());
        // What Java sees beside it: with `@JvmOverloads`, the constructors without trailing
        // defaulted parameters; without, a constructor without parameters when every
        // parameter has a default.
        let shorter_ones: Vec<Vec<bool>> = if annotations.iter().any(|a| a.starts_with("@JvmOverloads")) {
            shorter(&defaults)
        } else if !defaults.is_empty() && defaults.iter().all(|d| *d) {
            vec![vec![false; defaults.len()]]
        } else {
            Vec::new()
        };
        let mut more = Vec::new();
        for kept in shorter_ones {
            let mut x = c.clone();
            x.params = jvm_overload(&c.params, &defaults, &kept);
            let mut d = self.ctor(x, &t.qualified_name, signature.clone());
            d.generated = Some(LANGUAGE.to_owned());
            d.generated_by = Some("default arguments".to_owned());
            more.push(d);
        }
        t.constructors.push(self.ctor(c, &t.qualified_name, signature));
        t.constructors.extend(more);
    }

    fn ctor(&self, c: Callable, owner: &str, signature: String) -> CtorDecl {
        let types = c.params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(",");
        let id =
            SymbolId::member(SymbolKind::Ctor, owner, SymbolId::ctor_member(&c.name, &types), c.start_line, c.end_line);
        CtorDecl::new(c, id.to_string(), signature, false)
    }

    /// The text of `n` up to its child of kind `stop` (or its body), on one line.
    fn flat_head(&self, n: Node, stop: &str) -> String {
        let mut c = n.walk();
        let end = n
            .named_children(&mut c)
            .find(|x| x.kind() == stop || x.kind() == "function_body" || x.kind() == "block")
            .map_or(n.end_byte(), |x| x.start_byte());
        let start = named(n, "modifiers").map_or(n.start_byte(), |m| m.end_byte());
        let text = std::str::from_utf8(self.src.get(start..end).unwrap_or(b"")).unwrap_or("");
        let text = text.trim().trim_end_matches([':', '=']).trim();
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// A function's parameters, and for each whether it has a default value.
    fn params(&self, list: Option<Node>) -> (Vec<Param>, Vec<bool>) {
        let Some(list) = list else { return (Vec::new(), Vec::new()) };
        let mut out = Vec::new();
        let mut defaults: Vec<bool> = Vec::new();
        let mut c = list.walk();
        let mut vararg = false;
        for p in list.children(&mut c) {
            match p.kind() {
                "parameter_modifiers" => vararg = self.text(p).contains("vararg"),
                "parameter" => {
                    let name = named(p, "identifier").map(|x| self.text(x).to_owned()).unwrap_or_default();
                    let mut c2 = p.walk();
                    let mut ty = p
                        .named_children(&mut c2)
                        .find(|x| is_type_node(x.kind()))
                        .map(|x| self.flat(x))
                        .unwrap_or_default();
                    if std::mem::take(&mut vararg) {
                        ty.push_str("...");
                    }
                    out.push(Param { name, type_text: ty });
                    defaults.push(false);
                }
                // A default value follows its parameter, after `=`.
                "=" if !p.is_named() => {
                    if let Some(d) = defaults.last_mut() {
                        *d = true;
                    }
                }
                _ => {}
            }
        }
        (out, defaults)
    }

    #[allow(clippy::too_many_arguments)]
    fn callable(
        &self,
        n: Node,
        name: String,
        modifiers: Vec<String>,
        annotations: Vec<String>,
        type_params_text: Option<String>,
        params: Vec<Param>,
        javadoc: Javadoc,
    ) -> Callable {
        Callable {
            name,
            modifiers,
            annotations,
            type_params_text,
            params,
            throws: Vec::new(),
            start_line: self.line(n),
            end_line: self.end_line(n),
            javadoc,
        }
    }

    /// A function; `top` for a top-level one (a static method of the facade class). With
    /// `@JvmOverloads`, the overloads Java sees follow it (trailing defaulted parameters
    /// dropped one by one); `@JvmName("x")` names it `x` as Java sees it.
    fn function(&self, n: Node, owner: &str, javadoc: Javadoc, top: bool) -> Vec<MethodDecl> {
        let name = n.child_by_field_name("name").map(|x| self.text(x).to_owned()).unwrap_or_default();
        let (mut modifiers, annotations) = self.modifiers(n, true);
        let name = jvm_name(&annotations, "").unwrap_or(name);
        if top {
            modifiers.push("static".to_owned());
        }
        let mut params = Vec::new();
        // Types before the name: the receiver of an extension function; after the parameters:
        // the return type.
        let mut c = n.walk();
        let mut ret = None;
        let mut seen_params = false;
        let name_at = n.child_by_field_name("name").map_or(0, |x| x.start_byte());
        for x in n.named_children(&mut c) {
            match x.kind() {
                "function_value_parameters" => seen_params = true,
                k if is_type_node(k) && x.start_byte() < name_at => {
                    params.push(Param { name: "receiver".to_owned(), type_text: self.flat(x) })
                }
                k if is_type_node(k) && seen_params && ret.is_none() => ret = Some(self.flat(x)),
                _ => {}
            }
        }
        let receiver = params.len();
        let (more, defaults) = self.params(named(n, "function_value_parameters"));
        params.extend(more);
        let ret = ret.unwrap_or_else(|| "Unit".to_owned());
        let tparams = named(n, "type_parameters").map(|x| self.flat(x));
        let overloads = annotations.iter().any(|a| a.starts_with("@JvmOverloads"));
        let c = self.callable(n, name, modifiers, annotations, tparams, params, javadoc);
        let signature = self.flat_head(n, "function_body");
        let method = |c: Callable| {
            let types = c.params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(",");
            let member = SymbolId::method_member(&c.name, &types, &ret);
            let id = SymbolId::member(SymbolKind::Method, owner, member, c.start_line, c.end_line).to_string();
            MethodDecl::new(c, id, signature.clone(), ret.clone())
        };
        let mut out = Vec::new();
        if overloads {
            for kept in shorter(&defaults) {
                let mut x = c.clone();
                x.params = jvm_overload(&c.params[receiver..], &defaults, &kept);
                x.params.splice(0..0, c.params[..receiver].iter().cloned());
                x.javadoc = Javadoc::absent();
                let mut d = method(x);
                d.generated = Some(LANGUAGE.to_owned());
                d.generated_by = Some("@JvmOverloads".to_owned());
                out.push(d);
            }
        }
        out.insert(0, method(c));
        out
    }

    /// A property declaration: its field and the accessors Java sees.
    fn property(&self, n: Node, owner: &str, javadoc: Javadoc, top: bool, t: &mut TypeDecl) {
        let Some(v) = named(n, "variable_declaration") else { return };
        let Some(name) = named(v, "identifier").map(|x| self.text(x).to_owned()) else { return };
        let mut c = v.walk();
        let mut ty =
            v.named_children(&mut c).find(|x| is_type_node(x.kind())).map(|x| self.flat(x)).unwrap_or_default();
        if ty.is_empty() {
            ty = self.literal_type(n).unwrap_or_default();
        }
        let (mut modifiers, annotations) = self.modifiers(n, true);
        if top {
            modifiers.push("static".to_owned());
        }
        let mutable = has_token(n, "var");
        // An extension property's receiver: a type before its name (its accessors' parameter).
        let mut c = n.walk();
        let receiver = n
            .named_children(&mut c)
            .find(|x| is_type_node(x.kind()) && x.start_byte() < v.start_byte())
            .map(|x| self.flat(x));
        let p = Prop { name: &name, ty: &ty, mutable, receiver: receiver.as_deref() };
        self.add_property(t, owner, p, modifiers, annotations, n, javadoc);
    }

    /// A property as a field, and its getter and setter (Java's names) unless it is
    /// `@JvmField`, `const` or private; a `private set` makes the setter private.
    #[allow(clippy::too_many_arguments)]
    fn add_property(
        &self,
        t: &mut TypeDecl,
        owner: &str,
        p: Prop,
        modifiers: Vec<String>,
        annotations: Vec<String>,
        n: Node,
        javadoc: Javadoc,
    ) {
        let Prop { name, ty, mutable, receiver } = p;
        let (s, e) = (self.line(n), self.end_line(n));
        let keyword = if mutable { "var" } else { "val" };
        let is_static = modifiers.iter().any(|m| m == "static");
        let plain_field = modifiers.iter().any(|m| m == "const" || m == "private")
            || annotations.iter().any(|a| a.starts_with("@JvmField"));
        let mut field_mods: Vec<String> = modifiers.clone();
        field_mods.push(keyword.to_owned());
        t.fields.push(FieldDecl {
            symbol_id: SymbolId::member(SymbolKind::Field, owner, name.to_owned(), s, e).to_string(),
            kind: "field".to_owned(),
            name: name.to_owned(),
            type_text: ty.to_owned(),
            modifiers: field_mods,
            annotations: annotations.clone(),
            start_line: s,
            end_line: e,
            javadoc,
            generated: None,
            generated_by: None,
        });
        if plain_field {
            return;
        }
        let cap = |n: &str| {
            let mut cs = n.chars();
            cs.next().map(|c| c.to_uppercase().collect::<String>() + cs.as_str()).unwrap_or_default()
        };
        let is_prefixed = name.len() > 2 && name.starts_with("is") && name[2..].starts_with(|c: char| c.is_uppercase());
        let getter = if is_prefixed { name.to_owned() } else { format!("get{}", cap(name)) };
        let getter = jvm_name(&annotations, "get:").unwrap_or(getter);
        let mut acc_mods = vec!["public".to_owned()];
        // An `object`'s `@JvmStatic` property has static accessors.
        let object_static = t.modifiers.iter().any(|m| m == "object")
            && !t.modifiers.iter().any(|m| m == "companion")
            && annotations.iter().any(|a| a.starts_with("@JvmStatic"));
        if is_static || object_static {
            acc_mods.push("static".to_owned());
        }
        let receiver: Vec<Param> =
            receiver.map(|r| Param { name: "receiver".to_owned(), type_text: r.to_owned() }).into_iter().collect();
        // An interface's property without accessors written is abstract.
        if t.kind == TypeKind::Interface && named(n, "getter").is_none() {
            acc_mods.push("abstract".to_owned());
        }
        let by = format!("{keyword} {name}");
        let accessor = |m_name: String, params: Vec<Param>, ret: &str, mods: Vec<String>| {
            let c = Callable {
                name: m_name,
                modifiers: mods,
                annotations: Vec::new(),
                type_params_text: None,
                params,
                throws: Vec::new(),
                start_line: s,
                end_line: e,
                javadoc: Javadoc::absent(),
            };
            let types = c.params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(",");
            let member = SymbolId::method_member(&c.name, &types, ret);
            let id = SymbolId::member(SymbolKind::Method, owner, member, s, e).to_string();
            let signature = c.signature(Some(ret));
            let mut d = MethodDecl::new(c, id, signature, ret.to_owned());
            d.generated = Some(LANGUAGE.to_owned());
            d.generated_by = Some(by.clone());
            d
        };
        t.methods.push(accessor(getter, receiver.clone(), ty, acc_mods.clone()));
        if mutable {
            let setter_name = if is_prefixed { format!("set{}", &name[2..]) } else { format!("set{}", cap(name)) };
            let setter_name = jvm_name(&annotations, "set:").unwrap_or(setter_name);
            let private_set = named(n, "setter").is_some_and(|st| self.text(st).trim_start().starts_with("private"));
            let mut mods = acc_mods;
            if private_set {
                mods[0] = "private".to_owned();
            }
            let mut p = receiver;
            p.push(Param { name: "value".to_owned(), type_text: ty.to_owned() });
            t.methods.push(accessor(setter_name, p, "Unit", mods));
        }
    }

    /// The type of a property declared without one, from a literal or constructor call
    /// initializer (`= 1` Int, `= 1L` Long, `= "a"` String, `= false` Boolean, `= Foo(…)` Foo).
    fn literal_type(&self, n: Node) -> Option<String> {
        let mut c = n.walk();
        let init = n.named_children(&mut c).find(|x| {
            !matches!(x.kind(), "modifiers" | "variable_declaration" | "getter" | "setter" | "property_delegate")
                && !is_type_node(x.kind())
        })?;
        let text = self.text(init);
        Some(match init.kind() {
            "string_literal" | "multiline_string_literal" => "String".to_owned(),
            "character_literal" => "Char".to_owned(),
            "float_literal" if text.ends_with(['f', 'F']) => "Float".to_owned(),
            "float_literal" => "Double".to_owned(),
            "number_literal" if text.ends_with(['L', 'l']) => "Long".to_owned(),
            "number_literal" => "Int".to_owned(),
            _ if text == "true" || text == "false" => "Boolean".to_owned(),
            "call_expression" => {
                let callee = init.named_child(0).filter(|x| x.kind() == "identifier")?;
                let name = self.text(callee);
                name.starts_with(char::is_uppercase).then(|| name.to_owned())?
            }
            _ => return None,
        })
    }

    fn generated_field(&self, name: &str, ty: &str, owner: &str, line: u32, by: &str) -> FieldDecl {
        FieldDecl {
            symbol_id: SymbolId::member(SymbolKind::Field, owner, name.to_owned(), line, line).to_string(),
            kind: "field".to_owned(),
            name: name.to_owned(),
            type_text: ty.to_owned(),
            modifiers: vec!["public".to_owned(), "static".to_owned(), "final".to_owned()],
            annotations: Vec::new(),
            start_line: line,
            end_line: line,
            javadoc: Javadoc::absent(),
            generated: Some(LANGUAGE.to_owned()),
            generated_by: Some(by.to_owned()),
        }
    }
}

/// What Java sees of a companion object on its class: the `Companion` field, and as the class's
/// statics its `@JvmStatic` functions, `const val`s and `@JvmField`s, marked generated.
fn lift_companion(companion: &TypeDecl, t: &mut TypeDecl) {
    let generated = |by: &str| (Some(LANGUAGE.to_owned()), Some(by.to_owned()));
    // Java's modifiers: `static`, and `final` for a `val` (a `const val` is one).
    let statics = |mods: &[String]| -> Vec<String> {
        let mut out: Vec<String> =
            mods.iter().filter(|m| !matches!(m.as_str(), "val" | "var" | "const")).cloned().collect();
        out.push("static".to_owned());
        if mods.iter().any(|m| m == "val") {
            out.push("final".to_owned());
        }
        out
    };
    let line = companion.start_line;
    t.fields.push(FieldDecl {
        symbol_id: SymbolId::member(SymbolKind::Field, &t.qualified_name, companion.name.clone(), line, line)
            .to_string(),
        kind: "field".to_owned(),
        name: companion.name.clone(),
        type_text: companion.name.clone(),
        modifiers: vec!["public".to_owned(), "static".to_owned(), "final".to_owned()],
        annotations: Vec::new(),
        start_line: line,
        end_line: line,
        javadoc: Javadoc::absent(),
        generated: Some(LANGUAGE.to_owned()),
        generated_by: Some("companion object".to_owned()),
    });
    for f in &companion.fields {
        let by = if f.modifiers.iter().any(|m| m == "const") {
            "const val"
        } else if f.annotations.iter().any(|a| a.starts_with("@JvmField")) {
            "@JvmField"
        } else {
            continue;
        };
        let mut x = f.clone();
        x.symbol_id = SymbolId::member(SymbolKind::Field, &t.qualified_name, f.name.clone(), f.start_line, f.end_line)
            .to_string();
        x.modifiers = statics(&f.modifiers);
        (x.generated, x.generated_by) = generated(by);
        x.javadoc = Javadoc::absent();
        t.fields.push(x);
    }
    // A `@JvmStatic` property's accessors too.
    let static_property = |m: &MethodDecl| {
        let Some(by) = m.generated_by.as_deref() else { return false };
        let name = by.split(' ').nth(1).unwrap_or("");
        companion.fields.iter().any(|f| f.name == name && f.annotations.iter().any(|a| a.starts_with("@JvmStatic")))
    };
    for m in companion.methods.iter().filter(|m| {
        (m.generated.is_none() && m.annotations.iter().any(|a| a.starts_with("@JvmStatic"))) || static_property(m)
    }) {
        let mut x = m.clone();
        let types = x.params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(",");
        let member = SymbolId::method_member(&x.name, &types, &x.return_type_text);
        x.symbol_id =
            SymbolId::member(SymbolKind::Method, &t.qualified_name, member, x.start_line, x.end_line).to_string();
        x.modifiers = statics(&m.modifiers);
        (x.generated, x.generated_by) = generated("@JvmStatic");
        x.javadoc = Javadoc::absent();
        t.methods.push(x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"@file:JvmName("Utils")
package com.example.app

import java.util.List

/** A user. */
data class User(val name: String, var age: Int = 0, id: Long) : Base(), Named {
    val upper: String get() = name.uppercase()
    var isActive = false
        private set
    @JvmField val x = 1
    constructor(name: String) : this(name, 0, 1L)
    fun greet(other: User, vararg extra: String): String = "hi"
    companion object {
        const val MAX = 3
        @JvmStatic fun create(): User = User("a")
    }
    enum class Color { RED, GREEN }
}

object Registry {
    fun all(): List<User> = emptyList()
}

interface Named {
    val name: String
}

typealias Users = List<User>

fun String.shout(times: Int): String = this

internal suspend fun <T : Any> load(x: T?): T? = x

val topLevel: Int = 1
"#;

    fn shape(t: &TypeDecl, out: &mut Vec<String>) {
        out.push(format!(
            "{} {} {:?} {}-{} {:?} {:?}",
            t.kind.as_str(),
            t.qualified_name,
            t.modifiers,
            t.start_line,
            t.end_line,
            t.extends,
            t.implements
        ));
        for f in &t.fields {
            out.push(format!(
                "  field {}: {} {:?} {}{}",
                f.name,
                f.type_text,
                f.modifiers,
                f.start_line,
                f.generated.as_ref().map(|g| format!(" [{g}]")).unwrap_or_default()
            ));
        }
        for c in &t.constructors {
            out.push(format!("  ctor {} {}", c.signature_text, c.start_line));
        }
        for m in &t.methods {
            let ps: Vec<&str> = m.params.iter().map(|p| p.type_text.as_str()).collect();
            out.push(format!(
                "  method {}({}): {} {:?} {}{}",
                m.name,
                ps.join(","),
                m.return_type_text,
                m.modifiers,
                m.start_line,
                m.generated_by.as_ref().map(|g| format!(" [{g}]")).unwrap_or_default()
            ));
        }
        for e in t.enum_constants.iter().flatten() {
            out.push(format!("  constant {} {}", e.name, e.start_line));
        }
        for i in &t.inner_classes {
            shape(i, out);
        }
    }

    #[test]
    fn declarations_as_kotlin_writes_them_and_what_java_sees() {
        let o = outline("src/utils.kt", SRC.as_bytes(), String::new());
        assert_eq!(o.language, "kotlin");
        assert_eq!(o.package.as_deref(), Some("com.example.app"));
        assert!(o.errors.is_empty(), "{:?}", o.errors);
        let mut got = Vec::new();
        for t in &o.classes {
            shape(t, &mut got);
        }
        let want = r#"class com.example.app.User ["public", "data"] 7-19 Some("Base") ["Named"]
  field name: String ["public", "val"] 7
  field age: Int ["public", "var"] 7
  field upper: String ["public", "val"] 8
  field isActive: Boolean ["public", "var"] 9
  field x: Int ["public", "val"] 11
  field Companion: Companion ["public", "static", "final"] 14 [kotlin]
  field MAX: Int ["public", "static", "final"] 15 [kotlin]
  ctor constructor(val name: String, var age: Int = 0, id: Long) 7
  ctor constructor(name: String) 12
  method getName(): String ["public"] 7 [val name]
  method getAge(): Int ["public"] 7 [var age]
  method setAge(Int): Unit ["public"] 7 [var age]
  method getUpper(): String ["public"] 8 [val upper]
  method isActive(): Boolean ["public"] 9 [var isActive]
  method setActive(Boolean): Unit ["private"] 9 [var isActive]
  method greet(User,String...): String ["public"] 13
  method create(): User ["public", "static"] 16 [@JvmStatic]
class com.example.app.User.Companion ["public", "companion", "object"] 14-17 None []
  field MAX: Int ["public", "const", "val"] 15
  method create(): User ["public"] 16
enum com.example.app.User.Color ["public"] 18-18 None []
  constant RED 18
  constant GREEN 18
class com.example.app.Registry ["public", "object"] 21-23 None []
  field INSTANCE: Registry ["public", "static", "final"] 21 [kotlin]
  method all(): List<User> ["public"] 22
interface com.example.app.Named ["public"] 25-27 None []
  field name: String ["public", "val"] 26
  method getName(): String ["public", "abstract"] 26 [val name]
class com.example.app.Users ["public", "typealias"] 29-29 Some("List<User>") []
class com.example.app.Utils ["public", "final"] 1-35 None []
  field topLevel: Int ["public", "static", "val"] 35
  method shout(String,Int): String ["public", "static"] 31
  method load(T?): T? ["internal", "suspend", "static"] 33
  method getTopLevel(): Int ["public", "static"] 35 [val topLevel]"#;
        assert_eq!(got.join("\n"), want);
        let user = &o.classes[0];
        assert_eq!((user.javadoc.start_line, user.javadoc.end_line), (Some(6), Some(6)));
        let greet = user.methods.iter().find(|m| m.name == "greet").expect("greet");
        assert_eq!(greet.signature_text, "fun greet(other: User, vararg extra: String): String");
    }

    #[test]
    fn jvm_overloads_jvm_names_and_default_constructors_as_java_sees_them() {
        let src = r#"package p
class Conf @JvmOverloads constructor(val host: String, val port: Int = 80, val tls: Boolean = false) {
    @JvmOverloads fun connect(timeout: Int, retries: Int = 3, verbose: Boolean = false): Int = 1
    @JvmName("fetchAll") fun all(): Int = 2
    @get:JvmName("enabled") val on = true
}
class Opts(val a: Int = 1, val b: String = "x")
object Tools {
    @JvmStatic fun tool(x: String.() -> Unit) {}
}
"#;
        let o = outline("p/Conf.kt", src.as_bytes(), String::new());
        let mut got = Vec::new();
        for t in &o.classes {
            shape(t, &mut got);
        }
        let want = r#"class p.Conf ["public"] 2-6 None []
  field host: String ["public", "val"] 2
  field port: Int ["public", "val"] 2
  field tls: Boolean ["public", "val"] 2
  field on: Boolean ["public", "val"] 5
  ctor constructor(val host: String, val port: Int = 80, val tls: Boolean = false) 2
  ctor constructor(val host: String, val port: Int = 80, val tls: Boolean = false) 2
  ctor constructor(val host: String, val port: Int = 80, val tls: Boolean = false) 2
  method getHost(): String ["public"] 2 [val host]
  method getPort(): Int ["public"] 2 [val port]
  method getTls(): Boolean ["public"] 2 [val tls]
  method connect(Int,Int,Boolean): Int ["public"] 3
  method connect(Int,Int): Int ["public"] 3 [@JvmOverloads]
  method connect(Int): Int ["public"] 3 [@JvmOverloads]
  method fetchAll(): Int ["public"] 4
  method enabled(): Boolean ["public"] 5 [val on]
class p.Opts ["public"] 7-7 None []
  field a: Int ["public", "val"] 7
  field b: String ["public", "val"] 7
  ctor constructor(val a: Int = 1, val b: String = "x") 7
  ctor constructor(val a: Int = 1, val b: String = "x") 7
  method getA(): Int ["public"] 7 [val a]
  method getB(): String ["public"] 7 [val b]
class p.Tools ["public", "object"] 8-10 None []
  field INSTANCE: Tools ["public", "static", "final"] 8 [kotlin]
  method tool(String.() -> Unit): Unit ["public", "static"] 9"#;
        assert_eq!(got.join("\n"), want);
        let conf = &o.classes[0];
        let arity: Vec<usize> = conf.constructors.iter().map(|c| c.params.len()).collect();
        assert_eq!(arity, [3, 2, 1]);
        let opts = &o.classes[1];
        assert_eq!(opts.constructors.iter().map(|c| c.params.len()).collect::<Vec<_>>(), [2, 0]);
    }

    #[test]
    fn the_facade_is_named_from_the_file_and_syntax_errors_are_listed() {
        let o = outline("a/string-utils.kt", b"package p\nfun f() = 1\nclass {\n", String::new());
        assert!(o.classes.iter().any(|t| t.qualified_name == "p.String_utilsKt"), "{:?}", o.classes);
        assert!(!o.errors.is_empty());
        let none = outline("a/Empty.kt", b"package p\nclass A\n", String::new());
        assert_eq!(none.classes.len(), 1, "no facade without top-level members");
        assert!(in_grammar("companion_object") && in_grammar("val") && !in_grammar("method_declaration"));
        // kotlinc names `-Foo.kt`'s facade `_FooKt` (javap of its class files).
        let dash = outline("a/-Foo.kt", b"package p\nfun f() = 1\n", String::new());
        assert_eq!(dash.classes[0].qualified_name, "p._FooKt");
    }

    /// kotlinc accepts a primary constructor on the line after its class's name (square/moshi's
    /// `JsonReader.Options`); the grammar, given the text as written, swallows the whole class.
    #[test]
    fn a_primary_constructor_on_the_next_line_keeps_its_class() {
        let src = "package p\n\nclass Outer {\n  class Options\n  private constructor(\n    val strings: Array<out String>,\n  ) {\n    fun size(): Int = strings.size\n  }\n\n  fun after(): Int = 1\n}\n\nclass Two<T>\n    @Inject constructor(val t: T)\n\nclass Three\n  constructor(val a: Int, val b: Int)\n";
        let o = outline("p/Outer.kt", src.as_bytes(), String::new());
        assert!(o.errors.is_empty(), "{:?}", o.errors);
        let mut got = Vec::new();
        for t in &o.classes {
            shape(t, &mut got);
        }
        // The constructor's modifiers are read on its class's line (4, not 5), and Three's
        // first parameter (no modifiers to break after) on line 17, not 18.
        let want = r#"class p.Outer ["public"] 3-12 None []
  method after(): Int ["public"] 11
class p.Outer.Options ["public"] 4-9 None []
  field strings: Array<out String> ["public", "val"] 6
  ctor constructor( val strings: Array<out String>, ) 4
  method getStrings(): Array<out String> ["public"] 6 [val strings]
  method size(): Int ["public"] 8
class p.Two ["public"] 14-15 None []
  field t: T ["public", "val"] 15
  ctor constructor(val t: T) 14
  method getT(): T ["public"] 15 [val t]
class p.Three ["public"] 17-18 None []
  field a: Int ["public", "val"] 17
  field b: Int ["public", "val"] 18
  ctor constructor(val a: Int, val b: Int) 17
  method getA(): Int ["public"] 17 [val a]
  method getB(): Int ["public"] 18 [val b]"#;
        assert_eq!(got.join("\n"), want);
        // Same length, every other line in place.
        let text = grammar_text(src);
        assert_eq!((text.len(), text.lines().count()), (src.len(), src.lines().count()));
        assert!(matches!(grammar_text("class A\nfun f() = 1\n"), std::borrow::Cow::Borrowed(_)));
    }
}
