//! Java source -> [`FileOutline`], with tree-sitter-java. Pure and synchronous; never fails:
//! a file that does not parse still yields what can be recovered plus `errors`.
//!
//! Line rules are javac's: a declaration starts at its first token (annotations and modifiers
//! included, javadoc excluded) and ends at its closing `}` or `;`; its javadoc is the nearest
//! `/** … */` before that first token with only whitespace and other comments between.

pub mod bound;
pub mod fast;
pub mod kind;
pub mod kotlin;
pub mod lombok;
pub mod skeleton;
pub mod source;

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use sha1::{Digest, Sha1};
use tree_sitter::{Node, Parser, Tree};

pub use bound::{MAX_SYNTAX_NODES, TooLarge, too_large};
use mji_model::{
    Callable, CtorDecl, Diagnostic, EnumConstant, FieldDecl, FileOutline, Javadoc, Level, MethodDecl, Param,
    RecordComponent, SymbolId, SymbolKind, TypeDecl, TypeKind,
};
pub use source::{LineIndex, Prepared, SourceText};

/// At most this many syntax errors are listed per file; the rest are counted in one entry.
pub(crate) const MAX_ERRORS: usize = 50;

/// Java's keywords and literals (JLS 3.9, 3.10.3, 3.10.8) and `var`: words that name nothing
/// and no declaration may take.
pub const KEYWORDS: &[&str] = &[
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
    "null",
    "var",
];

/// How deeply types may nest (a top-level type is level 1) and still be outlined. Deeper
/// types are left out with a diagnostic ([`TOO_DEEP`]): every walk over an outline recurses
/// per level, and the JSON of an outline gains two levels per nested type, so 32 keeps it
/// well under the 128 levels serde_json (and many clients) accept when reading it back.
pub const MAX_TYPE_NESTING: u32 = 32;

/// The diagnostic of a file with types nested deeper than [`MAX_TYPE_NESTING`].
pub const TOO_DEEP: &str = "nested types deeper than 32 levels are not outlined";

/// How many error-recovery bodies may nest inside one another before the rest is skipped.
const MAX_RECOVERY_NESTING: u32 = 64;

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses decoded Java text with this thread's parser (created once per thread); None when
/// the parser gives up, or when the text is over the node bound ([`too_large`]), whose tree
/// is never built.
pub fn parse_tree(text: &str) -> Option<Tree> {
    if too_large(text).is_some() {
        return None;
    }
    with_parser(|p| p.parse(text, None))
}

/// Runs `f` with this thread's Java parser, made on first use (None if the grammar does not
/// load).
fn with_parser<T>(f: impl FnOnce(&mut Parser) -> Option<T>) -> Option<T> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut p = Parser::new();
            p.set_language(&tree_sitter_java::LANGUAGE.into()).ok()?;
            *slot = Some(p);
        }
        f(slot.as_mut()?)
    })
}

/// Parses decoded Java text again after an edit, if it parses without a syntax error: `old` is
/// the previous text's tree with the edit applied ([`Tree::edit`]), whose unchanged subtrees
/// tree-sitter reuses. Without an error the tree is the one [`parse_tree`] builds; an error's
/// recovery may differ when it starts from the old tree, so the parse stops at the first
/// error and answers None (as it does over the node bound, or when the parser gives up).
pub fn reparse_without_errors(text: &str, old: &Tree) -> Option<Tree> {
    if too_large(text).is_some() {
        return None;
    }
    with_parser(|parser| {
        let bytes = text.as_bytes();
        let mut stop_at_error = |s: &tree_sitter::ParseState| match s.has_error() {
            true => std::ops::ControlFlow::Break(()),
            false => std::ops::ControlFlow::Continue(()),
        };
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut stop_at_error);
        let tree = parser.parse_with_options(&mut |i, _| &bytes[i.min(bytes.len())..], Some(old), Some(options));
        match tree {
            Some(t) if !t.root_node().has_error() => Some(t),
            Some(_) => None,
            None => {
                // A stopped parse is resumed by the parser's next call unless it is reset.
                parser.reset();
                None
            }
        }
    })
}

/// SHA-1 of bytes as lowercase hex.
pub fn content_hash(bytes: &[u8]) -> String {
    let digest = Sha1::digest(bytes);
    let mut s = String::with_capacity(40);
    for b in digest {
        s.push(char::from_digit((b >> 4) as u32, 16).unwrap_or('0'));
        s.push(char::from_digit((b & 15) as u32, 16).unwrap_or('0'));
    }
    s
}

/// Outlines a Java file from its raw bytes. `file_path` is reported as given.
pub fn outline(file_path: &str, bytes: &[u8]) -> FileOutline {
    let src = SourceText::decode(bytes);
    outline_source(file_path, content_hash(bytes), &src)
}

/// [`outline`] under the `lombok.config` in effect for the file's directory.
pub fn outline_with(file_path: &str, bytes: &[u8], lombok: &Arc<lombok::Config>) -> FileOutline {
    let src = SourceText::decode(bytes);
    outline_source_with(file_path, content_hash(bytes), &src, lombok)
}

/// Outlines a file's declarations from its skeleton (member bodies blanked; see
/// [`skeleton`]): the same declarations and lines as [`outline`], several times faster, but
/// without syntax errors inside bodies. For the workspace index.
pub fn outline_declarations(file_path: &str, bytes: &[u8]) -> FileOutline {
    declarations(file_path, bytes, content_hash(bytes), &lombok::config::default_config())
}

/// [`outline_declarations`] with an empty `hash`: for the workspace index, which tells files
/// apart by their stamp and never reads the hash (SHA-1 of every file was 2–3% of its pass).
pub fn outline_declarations_unhashed(file_path: &str, bytes: &[u8]) -> FileOutline {
    declarations(file_path, bytes, String::new(), &lombok::config::default_config())
}

/// [`outline_declarations_unhashed`] under the `lombok.config` in effect for the file's directory.
pub fn outline_declarations_unhashed_with(file_path: &str, bytes: &[u8], lombok: &Arc<lombok::Config>) -> FileOutline {
    declarations(file_path, bytes, String::new(), lombok)
}

fn declarations(file_path: &str, bytes: &[u8], hash: String, lombok: &Arc<lombok::Config>) -> FileOutline {
    declarations_from(file_path, bytes, hash, lombok, true, true)
}

/// [`declarations`] from the compacted skeleton ([`skeleton::declaration_skeleton`]), or from
/// the plain one (the outline the compacted one must give, for the tests). `fast`: the
/// compacted skeleton is first given to the declarations-only parser ([`fast`]), which
/// answers only when its outline is the one tree-sitter gives.
fn declarations_from(
    file_path: &str,
    bytes: &[u8],
    hash: String,
    lombok: &Arc<lombok::Config>,
    compact: bool,
    fast: bool,
) -> FileOutline {
    // The text's own line table is built only when the text itself is parsed (a skeleton has
    // the text's lines).
    let (text, warnings) = SourceText::decode_text(bytes);
    let whole = |text: String, warnings: Vec<Diagnostic>| {
        let lines = LineIndex::new(&text);
        SourceText { text, lines, warnings }
    };
    if kotlin::is_kotlin(file_path) {
        return kotlin::outline_source(file_path, hash, &whole(text, warnings));
    }
    // Escapes first (javac translates them before anything else); a translated line
    // terminator would move lines, so such a file is parsed whole.
    let prep = Prepared::new(&text);
    let terminators = |t: &str| t.bytes().filter(|&b| b == b'\n' || b == b'\r').count();
    let same_lines =
        matches!(prep.text, std::borrow::Cow::Borrowed(_)) || terminators(&prep.text) == terminators(&text);
    // The skeleton of the text as written (`shown`: type annotations the parse blanks are
    // kept), so that parsing it prepares it the same way and parameter types stay whole.
    let shown = prep.shown();
    let sk = if compact {
        declaration_skeleton(shown)
    } else {
        skeleton::skeleton(shown).map(skeleton::DeclarationSkeleton::plain)
    };
    let Some(sk) = sk.filter(|_| same_lines) else {
        return outline_source_with(file_path, hash, &whole(text.clone(), warnings), lombok);
    };
    if compact
        && fast
        && let Some(mut out) = fast::outline(file_path, &sk.text, sk.cuts(), shown, &warnings)
    {
        out.hash = hash;
        return out;
    }
    let compacted = sk.compacted;
    let cuts = sk.cuts().to_vec();
    let out = outline_cut(file_path, hash, &whole(sk.text, warnings.clone()), lombok, &cuts);
    // A syntax error (or any other error) is reported as the plain skeleton's parse reports
    // it: its recovery may differ with fewer tokens before it.
    if compacted && out.errors.iter().any(|d| d.level == Level::Error) {
        let Some(plain) = skeleton::skeleton(shown) else { return out };
        return outline_source_with(file_path, out.hash, &whole(plain, warnings), lombok);
    }
    out
}

/// The skeleton a file's declarations are parsed from and whether anything was compacted:
/// [`skeleton::declaration_skeleton`], unless the plain [`skeleton::skeleton`] is over the
/// node bound, whose outline is cut from that skeleton with a warning ([`skeleton_only`]):
/// fewer tokens must not lift a file out of that path. Only a text of more than half the
/// bound in bytes can have a skeleton over it (a skeleton is never 6/5 of its text).
fn declaration_skeleton(shown: &str) -> Option<skeleton::DeclarationSkeleton> {
    if shown.len() > MAX_SYNTAX_NODES / 2
        && let Some(plain) = skeleton::skeleton(shown)
        && too_large(&Prepared::new(&plain).text).is_some()
    {
        return Some(skeleton::DeclarationSkeleton::plain(plain));
    }
    skeleton::declaration_skeleton(shown)
}

/// Outlines already-decoded source text.
pub fn outline_source(file_path: &str, hash: String, src: &SourceText) -> FileOutline {
    outline_source_with(file_path, hash, src, &lombok::config::default_config())
}

/// [`outline_source`] under the `lombok.config` in effect for the file's directory.
pub fn outline_source_with(
    file_path: &str,
    hash: String,
    src: &SourceText,
    lombok: &Arc<lombok::Config>,
) -> FileOutline {
    outline_cut(file_path, hash, src, lombok, &[])
}

/// [`outline_source_with`] of a compacted skeleton whose cut table is `cuts`
/// ([`skeleton::DeclarationSkeleton`]): javadoc spans are the plain skeleton's offsets.
fn outline_cut(
    file_path: &str,
    hash: String,
    src: &SourceText,
    lombok: &Arc<lombok::Config>,
    cuts: &[(usize, usize)],
) -> FileOutline {
    // A Kotlin source, by its name (every caller outlines through here).
    if kotlin::is_kotlin(file_path) {
        return kotlin::outline_source(file_path, hash, src);
    }
    let mut out = FileOutline {
        file_path: file_path.to_owned(),
        language: "java".to_owned(),
        hash,
        line_count: src.lines.line_count(),
        package: None,
        classes: Vec::new(),
        errors: src.warnings.clone(),
    };
    let prep = Prepared::new(&src.text);
    if let Some(big) = too_large(&prep.text) {
        return skeleton_only(file_path, std::mem::take(&mut out.hash), src, &prep, big);
    }
    let Some(tree) = parse_tree(&prep.text) else {
        out.errors.push(Diagnostic {
            level: Level::Error,
            message: "the parser gave up on this file".to_owned(),
            line: None,
        });
        return out;
    };
    let mut b = Builder {
        src: prep.text.as_bytes(),
        lines: &src.lines,
        prep: &prep,
        package: None,
        depth: Cell::new(0),
        recovery: Cell::new(0),
        too_deep: Cell::new(false),
        lombok: lombok::Scope::default(),
        notes: Default::default(),
        cuts,
    };
    let root = tree.root_node();
    b.package = find_package(root, b.src);
    b.lombok = lombok::Scope::of(root, b.src).with_config(lombok.clone());
    out.package = b.package.clone();
    let prefix = b.package.clone();
    let mut sink = Members::default();
    b.collect_members(root, None, prefix.as_deref(), &mut sink);
    out.classes = sink.types;
    out.errors.extend(b.notes.take());
    if b.too_deep.get() {
        out.errors.push(Diagnostic { level: Level::Error, message: TOO_DEEP.to_owned(), line: None });
    }
    if root.has_error() {
        collect_errors(root, &b, &mut out.errors);
        // Lexical causes (an unterminated string, an unclosed brace) at the line where they
        // start, which tree-sitter's error nodes often do not point at.
        for (offset, message) in skeleton::lexical_problems(&prep.text) {
            out.errors.push(Diagnostic { level: Level::Error, message, line: Some(b.line(offset)) });
        }
        out.errors.sort_by_key(|d| (d.level != Level::Warning, d.line.unwrap_or(u32::MAX)));
    }
    out
}

/// The outline of a file over the node bound: from its skeleton (member bodies blanked), cut
/// to the bound when even that is over it, with a warning that says so and why.
fn skeleton_only(file_path: &str, hash: String, src: &SourceText, prep: &Prepared, big: TooLarge) -> FileOutline {
    let terminators = |t: &str| t.bytes().filter(|&b| b == b'\n' || b == b'\r').count();
    let same_lines =
        matches!(prep.text, std::borrow::Cow::Borrowed(_)) || terminators(&prep.text) == terminators(&src.text);
    let sk = skeleton::skeleton(prep.shown()).filter(|_| same_lines);
    let whole: &str = sk.as_deref().unwrap_or(&src.text);
    let text = bound::truncate_to_nodes(whole, MAX_SYNTAX_NODES).into_owned();
    let cut = text.len() != whole.len();
    let lines = LineIndex::new(&text);
    let part = SourceText { text, lines, warnings: Vec::new() };
    let mut out = outline_source(file_path, hash, &part);
    // The file's own lines, not the cut text's.
    out.line_count = src.lines.line_count();
    out.errors.retain(|d| !cut || d.level != Level::Error);
    let mut message = big.to_string();
    if cut {
        message.push_str(&format!(
            "; its skeleton is over the bound too, so only the declarations before a cut in line {} are outlined",
            part.lines.line_count().saturating_sub(1).max(1)
        ));
    }
    let mut errors = src.warnings.clone();
    errors.push(Diagnostic { level: Level::Warning, message, line: None });
    errors.append(&mut out.errors);
    out.errors = errors;
    out
}

fn find_package(root: Node, src: &[u8]) -> Option<String> {
    let mut c = root.walk();
    for child in root.named_children(&mut c) {
        if child.kind() == "package_declaration" {
            let mut c2 = child.walk();
            for n in child.named_children(&mut c2) {
                if matches!(n.kind(), "scoped_identifier" | "identifier") {
                    let t = text(n, src);
                    return Some(t.chars().filter(|c| !c.is_whitespace()).collect());
                }
            }
        }
    }
    None
}

/// tree-sitter-java's field ids, each looked up once: [`Node::child_by_field_name`] compares
/// its name with the grammar's field names on every call (`strncmp` was 2.4% of a cold index
/// of the JDK).
/// One declarator of a field declaration as the source writes it (nothing generated): both
/// outline paths, tree-sitter's and [`fast`]'s, make their fields here.
pub(crate) fn declared_field(
    owner: &str,
    name: String,
    type_text: String,
    (modifiers, annotations): (&[String], &[String]),
    (start_line, end_line): (u32, u32),
    javadoc: &Javadoc,
) -> FieldDecl {
    FieldDecl {
        symbol_id: SymbolId::member(SymbolKind::Field, owner, name.clone(), start_line, end_line).to_string(),
        kind: "field".to_owned(),
        name,
        type_text,
        modifiers: modifiers.to_vec(),
        annotations: annotations.to_vec(),
        start_line,
        end_line,
        javadoc: javadoc.clone(),
        generated: None,
        generated_by: None,
    }
}

mod field {
    use std::sync::OnceLock;

    pub struct Field(&'static str, OnceLock<u16>);

    impl Field {
        /// The id (0, which names no field, if the grammar has none of this name).
        pub fn id(&self) -> u16 {
            *self.1.get_or_init(|| {
                let java: tree_sitter::Language = tree_sitter_java::LANGUAGE.into();
                java.field_id_for_name(self.0).map_or(0, |id| id.get())
            })
        }
    }

    pub static NAME: Field = Field("name", OnceLock::new());
    pub static TYPE: Field = Field("type", OnceLock::new());
    pub static DIMENSIONS: Field = Field("dimensions", OnceLock::new());
    pub static PARAMETERS: Field = Field("parameters", OnceLock::new());
    pub static TYPE_PARAMETERS: Field = Field("type_parameters", OnceLock::new());
    pub static BODY: Field = Field("body", OnceLock::new());
    pub static VALUE: Field = Field("value", OnceLock::new());
}

struct Builder<'a> {
    /// The prepared text (unicode escapes translated) that tree-sitter parsed.
    src: &'a [u8],
    /// Lines of the original text; offsets go through `prep` to reach it.
    lines: &'a LineIndex,
    prep: &'a Prepared<'a>,
    package: Option<String>,
    /// Types enclosing the one being built (0 at top level).
    depth: Cell<u32>,
    /// Error-recovery nodes enclosing the walk.
    recovery: Cell<u32>,
    /// Set when a type was left out for being nested deeper than [`MAX_TYPE_NESTING`].
    too_deep: Cell<bool>,
    /// Which annotations are Lombok's in this file.
    lombok: lombok::Scope,
    /// What the walk has to say beside the outline (Lombok's members it does not list).
    notes: std::cell::RefCell<Vec<Diagnostic>>,
    /// The cut table of a compacted skeleton (empty for any other text): a javadoc's span is
    /// given in the plain skeleton's offsets.
    cuts: &'a [(usize, usize)],
}

/// Members gathered from a body (or from the top level).
#[derive(Default)]
struct Members {
    types: Vec<TypeDecl>,
    fields: Vec<FieldDecl>,
    ctors: Vec<CtorDecl>,
    methods: Vec<MethodDecl>,
    constants: Vec<EnumConstant>,
}

fn text<'s>(n: Node, src: &'s [u8]) -> &'s str {
    std::str::from_utf8(&src[n.start_byte()..n.end_byte()]).unwrap_or("")
}

fn is_comment(n: Node) -> bool {
    matches!(n.kind(), "line_comment" | "block_comment")
}

/// Source text of a node with comments removed and whitespace runs collapsed to one space.
fn clean(n: Node, src: &[u8]) -> String {
    let raw = text(n, src);
    let mut out = String::with_capacity(raw.len());
    if raw.contains("//") || raw.contains("/*") {
        let mut comments = Vec::new();
        collect_comment_ranges(n, &mut comments);
        let mut pos = n.start_byte();
        let mut s = String::new();
        for (a, b) in comments {
            if a >= pos {
                s.push_str(std::str::from_utf8(&src[pos..a]).unwrap_or(""));
                s.push(' ');
                pos = b;
            }
        }
        s.push_str(std::str::from_utf8(&src[pos..n.end_byte()]).unwrap_or(""));
        collapse_into(&s, &mut out);
    } else {
        collapse_into(raw, &mut out);
    }
    out
}

/// The comments under `n` in source order; iterative, since a type's tree can nest
/// thousands deep (`List<List<...>>`).
fn collect_comment_ranges(n: Node, out: &mut Vec<(usize, usize)>) {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        for child in kids.into_iter().rev() {
            if is_comment(child) {
                out.push((child.start_byte(), child.end_byte()));
            } else if child.child_count() > 0 {
                stack.push(child);
            }
        }
    }
    out.sort_unstable();
}

fn collapse_into(s: &str, out: &mut String) {
    let mut space = false;
    for ch in s.chars() {
        if ch.is_whitespace() {
            space = !out.is_empty();
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(ch);
        }
    }
}

/// [`collapse_into`] for raw source text that the parse did not see (blanked varargs type
/// annotations): comments become a space, as [`clean`] makes them of parsed text; literals are
/// kept whole.
fn collapse_code_into(s: &str, out: &mut String) {
    let b = s.as_bytes();
    let mut code = String::with_capacity(s.len());
    let (mut i, mut from) = (0, 0);
    while i < b.len() {
        let end = match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => skeleton::skip_line_comment(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => skeleton::skip_block_comment(b, i).unwrap_or(b.len()),
            b'"' => {
                i = skeleton::skip_string(b, i).unwrap_or(b.len());
                continue;
            }
            b'\'' => {
                i = skeleton::skip_char(b, i).unwrap_or(b.len());
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        };
        code.push_str(s.get(from..i).unwrap_or(""));
        code.push(' ');
        (i, from) = (end, end);
    }
    code.push_str(s.get(from..).unwrap_or(""));
    collapse_into(&code, out);
}

fn child_of_kind<'t>(n: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut c = n.walk();
    n.children(&mut c).find(|ch| ch.kind() == kind)
}

fn type_kind(kind: &str) -> Option<TypeKind> {
    Some(match kind {
        "class_declaration" => TypeKind::Class,
        "interface_declaration" => TypeKind::Interface,
        "enum_declaration" => TypeKind::Enum,
        "record_declaration" => TypeKind::Record,
        "annotation_type_declaration" => TypeKind::Annotation,
        _ => return None,
    })
}

impl<'a> Builder<'a> {
    /// 1-based line (of the original text) of a prepared-text offset.
    fn line(&self, offset: usize) -> u32 {
        self.lines.line_of(self.prep.to_original(offset))
    }

    /// The offset of the original text (of the plain skeleton, for a compacted one) of a
    /// prepared-text offset.
    fn offset(&self, t: usize) -> usize {
        skeleton::plain_offset(self.cuts, self.prep.to_original(t))
    }

    fn start_line(&self, n: Node) -> u32 {
        self.line(n.start_byte())
    }

    fn end_line(&self, n: Node) -> u32 {
        self.line(n.end_byte().saturating_sub(1).max(n.start_byte()))
    }

    /// Builds every member declaration among the children of a body (or of the compilation
    /// unit). `owner` is the enclosing type (None at top level); `prefix` qualifies nested type
    /// names (the owner, or the package at top level).
    fn collect_members(&self, body: Node, owner: Option<&str>, prefix: Option<&str>, out: &mut Members) {
        let mut c = body.walk();
        let children: Vec<Node> = body.children(&mut c).collect();
        self.collect_nodes(&children, owner, prefix, out);
    }

    fn collect_nodes(&self, nodes: &[Node], owner: Option<&str>, prefix: Option<&str>, out: &mut Members) {
        for (i, &child) in nodes.iter().enumerate() {
            match child.kind() {
                "field_declaration" | "constant_declaration" => {
                    if let Some(owner) = owner {
                        self.fields(child, owner, self.javadoc_at(nodes, i), &mut out.fields);
                    }
                }
                "method_declaration" | "annotation_type_element_declaration" => {
                    if let Some(owner) = owner {
                        out.methods.push(self.method(child, owner, self.javadoc_at(nodes, i)));
                    }
                }
                "constructor_declaration" | "compact_constructor_declaration" => {
                    if let Some(owner) = owner {
                        out.ctors.push(self.ctor(child, owner, self.javadoc_at(nodes, i)));
                    }
                }
                "enum_constant" => {
                    if let Some(owner) = owner {
                        out.constants.push(self.enum_constant(child, owner, self.javadoc_at(nodes, i)));
                    }
                }
                "enum_body_declarations" => self.collect_members(child, owner, prefix, out),
                "ERROR" => self.recover(child, owner, prefix, out),
                // A type whose header tree-sitter could not attach to a body: everything after
                // it in this list is its body.
                "class" | "interface" | "enum" | "record" | "@interface" if !child.is_named() => {
                    if self.depth.get() >= MAX_TYPE_NESTING {
                        self.too_deep.set(true);
                        return;
                    }
                    if let Some(t) = self.recovered_type(nodes, i, prefix) {
                        let rest = nodes.get(t.1..).unwrap_or(&[]);
                        let mut decl = t.0;
                        let mut members = Members::default();
                        self.depth.set(self.depth.get() + 1);
                        self.collect_nodes(
                            rest,
                            Some(&decl.qualified_name.clone()),
                            Some(&decl.qualified_name.clone()),
                            &mut members,
                        );
                        self.depth.set(self.depth.get() - 1);
                        decl.fields = members.fields;
                        decl.constructors = members.ctors;
                        decl.methods = members.methods;
                        decl.inner_classes = members.types;
                        if decl.kind == TypeKind::Enum {
                            decl.enum_constants = Some(members.constants);
                        }
                        out.types.push(decl);
                        return;
                    }
                }
                k if type_kind(k).is_some() && self.depth.get() >= MAX_TYPE_NESTING => self.too_deep.set(true),
                k => {
                    if type_kind(k).is_some()
                        && let Some(t) = self.type_decl(child, prefix, self.javadoc_at(nodes, i))
                    {
                        out.types.push(t);
                    }
                }
            }
        }
    }

    /// Declarations inside an error-recovery node.
    fn recover(&self, error: Node, owner: Option<&str>, prefix: Option<&str>, out: &mut Members) {
        if self.recovery.get() >= MAX_RECOVERY_NESTING {
            self.too_deep.set(true);
            return;
        }
        self.recovery.set(self.recovery.get() + 1);
        self.collect_members(error, owner, prefix, out);
        self.recovery.set(self.recovery.get() - 1);
    }

    /// A type declaration broken up by error recovery: `[modifiers] class Name ... {` at
    /// `nodes[i]`, its members being the nodes after the `{` (returned as the index to resume
    /// from). Its end is the end of the last node.
    fn recovered_type(&self, nodes: &[Node], i: usize, prefix: Option<&str>) -> Option<(TypeDecl, usize)> {
        let kind = match nodes[i].kind() {
            "class" => TypeKind::Class,
            "interface" => TypeKind::Interface,
            "enum" => TypeKind::Enum,
            "record" => TypeKind::Record,
            _ => TypeKind::Annotation,
        };
        let name_node = nodes.get(i + 1).filter(|n| n.kind() == "identifier")?;
        let open = nodes[i + 2..].iter().position(|n| n.kind() == "{")? + i + 2;
        let name = text(*name_node, self.src).to_owned();
        let qualified_name = match prefix {
            Some(o) if !o.is_empty() => format!("{o}.{name}"),
            _ => name.clone(),
        };
        let first = if i > 0 && nodes[i - 1].kind() == "modifiers" { nodes[i - 1] } else { nodes[i] };
        let modifiers = if first.kind() == "modifiers" { self.modifier_list(first) } else { (Vec::new(), Vec::new()) };
        let last = nodes.last().copied().unwrap_or(first);
        let lines = (self.start_line(first), self.end_line(last));
        let mut t = TypeDecl::header(kind, name, qualified_name, modifiers, lines, self.javadoc(first));
        t.record_components = (kind == TypeKind::Record).then(Vec::new);
        Some((t, open + 1))
    }

    fn type_decl(&self, n: Node, outer: Option<&str>, jd: Javadoc) -> Option<TypeDecl> {
        let kind = type_kind(n.kind())?;
        let name = n.child_by_field_id(field::NAME.id()).map(|x| text(x, self.src).to_owned())?;
        if name.is_empty() {
            return None;
        }
        // A top-level type's prefix is the package; a nested type's is its outer type.
        let qualified_name = match outer {
            Some(o) if !o.is_empty() => format!("{o}.{name}"),
            _ => name.clone(),
        };
        let (modifiers, annotations) = self.modifiers(n);
        let type_params_text = n.child_by_field_id(field::TYPE_PARAMETERS.id()).map(|t| clean(t, self.src));
        let mut extends = None;
        let mut implements = Vec::new();
        let mut permits = Vec::new();
        let mut c = n.walk();
        for ch in n.children(&mut c) {
            match ch.kind() {
                "superclass" => {
                    let mut c2 = ch.walk();
                    extends = ch.named_children(&mut c2).find(|x| !is_comment(*x)).map(|t| clean(t, self.src));
                }
                "super_interfaces" | "extends_interfaces" => implements = self.type_list(ch),
                "permits" => permits = self.type_list(ch),
                _ => {}
            }
        }
        let start_line = self.start_line(n);
        let end_line = self.end_line(n);
        let mut members = Members::default();
        let mut record_components: Option<Vec<RecordComponent>> = None;
        if kind == TypeKind::Record
            && let Some(params) = n.child_by_field_id(field::PARAMETERS.id())
        {
            record_components = Some(
                self.params(params)
                    .into_iter()
                    .map(|p| RecordComponent { name: p.name, type_text: p.type_text })
                    .collect(),
            );
        }
        if let Some(body) = n.child_by_field_id(field::BODY.id()) {
            self.depth.set(self.depth.get() + 1);
            self.collect_members(body, Some(&qualified_name), Some(&qualified_name), &mut members);
            self.depth.set(self.depth.get() - 1);
        }
        if let Some(comps) = &record_components {
            record_compact_ctors(&mut members.ctors, comps, &qualified_name);
        }
        let mut t = TypeDecl::header(kind, name, qualified_name, (modifiers, annotations), (start_line, end_line), jd);
        t.type_params_text = type_params_text;
        t.extends = extends;
        t.implements = implements;
        t.permits = permits;
        t.record_components = record_components;
        t.enum_constants = (kind == TypeKind::Enum).then_some(members.constants);
        t.fields = members.fields;
        t.constructors = members.ctors;
        t.methods = members.methods;
        t.inner_classes = members.types;
        for g in lombok::generate(&self.lombok, n, self.src) {
            self.push_generated(g, &mut t);
        }
        for (at, message) in lombok::unsupported(&self.lombok, n, self.src) {
            self.notes.borrow_mut().push(Diagnostic {
                level: Level::Warning,
                message,
                line: Some(self.start_line(at)),
            });
        }
        Some(t)
    }

    /// The text of a generated member's type.
    fn generated_type(&self, g: &lombok::GenTy) -> String {
        match g {
            lombok::GenTy::Node { ty, dims } => {
                let mut s = clean(*ty, self.src);
                if let Some(d) = dims {
                    s.push_str(&clean(*d, self.src));
                }
                s
            }
            lombok::GenTy::Text(t) => t.clone(),
        }
    }

    /// Adds a member Lombok generates to `t`, marked as generated, at the line of what makes it.
    fn push_generated(&self, g: lombok::Generated, t: &mut TypeDecl) {
        let owner = t.qualified_name.clone();
        let (start_line, end_line) = (self.start_line(g.at), self.end_line(g.at));
        let modifiers: Vec<String> = g.modifiers.iter().map(|m| (*m).to_owned()).collect();
        let by = Some(g.by.to_owned());
        let lombok = Some("lombok".to_owned());
        let ty = self.generated_type(&g.ty);
        let params: Vec<Param> = g
            .params
            .iter()
            .map(|(name, ty)| Param { name: name.clone(), type_text: self.generated_type(ty) })
            .collect();
        let type_params_text = g.type_params_text.clone().or_else(|| g.type_params.map(|t| clean(t, self.src)));
        let callable = |name: String, params: Vec<Param>| Callable {
            name,
            modifiers: modifiers.clone(),
            annotations: Vec::new(),
            type_params_text: type_params_text.clone(),
            params,
            throws: Vec::new(),
            start_line,
            end_line,
            javadoc: Javadoc::absent(),
        };
        match g.kind {
            lombok::GenKind::Field => t.fields.push(FieldDecl {
                symbol_id: SymbolId::member(SymbolKind::Field, &owner, g.name.clone(), start_line, end_line)
                    .to_string(),
                kind: "field".to_owned(),
                name: g.name,
                type_text: ty,
                modifiers,
                annotations: Vec::new(),
                start_line,
                end_line,
                javadoc: Javadoc::absent(),
                generated: lombok,
                generated_by: by,
            }),
            lombok::GenKind::Method => {
                let c = callable(g.name, params);
                let signature_text = c.signature(Some(&ty));
                let member = SymbolId::method_member(&c.name, &param_types(&c.params), &ty);
                let id = SymbolId::member(SymbolKind::Method, &owner, member, start_line, end_line).to_string();
                let mut m = MethodDecl::new(c, id, signature_text, ty);
                m.generated = lombok;
                m.generated_by = by;
                t.methods.push(m);
            }
            lombok::GenKind::Ctor => {
                let c = callable(t.name.clone(), params);
                let id = ctor_id(&owner, &c.name, &c.params, start_line, end_line);
                let sig = c.signature(None);
                let mut k = CtorDecl::new(c, id, sig, false);
                k.generated = lombok;
                k.generated_by = by;
                t.constructors.push(k);
            }
            lombok::GenKind::Type => {
                let qualified_name = format!("{owner}.{}", g.name);
                let lines = (start_line, end_line);
                let mut inner = TypeDecl::header(
                    TypeKind::Class,
                    g.name,
                    qualified_name,
                    (modifiers, Vec::new()),
                    lines,
                    Javadoc::absent(),
                );
                inner.type_params_text = type_params_text;
                inner.extends = g.extends;
                inner.generated = lombok;
                inner.generated_by = by;
                for m in g.members {
                    self.push_generated(m, &mut inner);
                }
                t.inner_classes.push(inner);
            }
        }
    }

    fn type_list(&self, n: Node) -> Vec<String> {
        let list = child_of_kind(n, "type_list").unwrap_or(n);
        let mut c = list.walk();
        list.named_children(&mut c).filter(|x| !is_comment(*x)).map(|t| clean(t, self.src)).collect()
    }

    /// Keywords (in source order) and annotations of a declaration's `modifiers` child.
    fn modifiers(&self, n: Node) -> (Vec<String>, Vec<String>) {
        match child_of_kind(n, "modifiers") {
            Some(m) => self.modifier_list(m),
            None => (Vec::new(), Vec::new()),
        }
    }

    /// Keywords and annotations of a `modifiers` node.
    fn modifier_list(&self, m: Node) -> (Vec<String>, Vec<String>) {
        let mut mods = Vec::new();
        let mut annots = Vec::new();
        {
            let mut c = m.walk();
            for ch in m.children(&mut c) {
                match ch.kind() {
                    "annotation" | "marker_annotation" => annots.push(clean(ch, self.src)),
                    "line_comment" | "block_comment" | "ERROR" => {}
                    _ => mods.push(text(ch, self.src).to_owned()),
                }
            }
        }
        (mods, annots)
    }

    fn params(&self, n: Node) -> Vec<Param> {
        let mut out = Vec::new();
        let mut c = n.walk();
        for p in n.named_children(&mut c) {
            match p.kind() {
                // tree-sitter-java reads an annotated receiver parameter (`@A Foo this`) as a
                // formal parameter named `this`; it is not a parameter.
                "formal_parameter" if is_receiver(p, self.src) => {}
                "formal_parameter" => {
                    let name =
                        p.child_by_field_id(field::NAME.id()).map(|x| text(x, self.src).to_owned()).unwrap_or_default();
                    let mut type_text =
                        p.child_by_field_id(field::TYPE.id()).map(|t| clean(t, self.src)).unwrap_or_default();
                    if let Some(d) = p.child_by_field_id(field::DIMENSIONS.id()) {
                        type_text.push_str(&clean(d, self.src));
                    }
                    out.push(Param { name, type_text });
                }
                "spread_parameter" => {
                    let mut type_text = String::new();
                    let mut name = String::new();
                    let mut c2 = p.walk();
                    let mut prev_end = p.start_byte();
                    for ch in p.children(&mut c2) {
                        let gap = (prev_end, ch.start_byte());
                        prev_end = ch.end_byte();
                        match ch.kind() {
                            "modifiers" | "line_comment" | "block_comment" => {}
                            "variable_declarator" => {
                                name = ch
                                    .child_by_field_id(field::NAME.id())
                                    .map(|x| text(x, self.src).to_owned())
                                    .unwrap_or_default();
                                if let Some(d) = ch.child_by_field_id(field::DIMENSIONS.id()) {
                                    // `String... a[]` is not Java, but keep what is written
                                    type_text.push_str(&clean(d, self.src));
                                }
                            }
                            "..." => {
                                // Type annotations before `...` (blanked for the parser, see
                                // `Prepared`) are part of the type as written.
                                let shown = self.prep.shown().as_bytes();
                                let annotations = shown.get(gap.0..gap.1).and_then(|g| std::str::from_utf8(g).ok());
                                if let Some(a) = annotations.map(str::trim).filter(|a| !a.is_empty()) {
                                    type_text.push(' ');
                                    collapse_code_into(a, &mut type_text);
                                    type_text.push(' ');
                                }
                                type_text.push_str("...");
                            }
                            _ if ch.is_named() => {
                                if !type_text.is_empty() && !type_text.ends_with("...") {
                                    type_text.push(' ');
                                }
                                type_text.push_str(&clean(ch, self.src));
                            }
                            _ => {}
                        }
                    }
                    out.push(Param { name, type_text });
                }
                _ => {} // receiver parameter (`Foo this`) and comments are not parameters
            }
        }
        out
    }

    fn throws(&self, n: Node) -> Vec<String> {
        match child_of_kind(n, "throws") {
            Some(t) => {
                let mut c = t.walk();
                t.named_children(&mut c).filter(|x| !is_comment(*x)).map(|x| clean(x, self.src)).collect()
            }
            None => Vec::new(),
        }
    }

    fn fields(&self, n: Node, owner: &str, javadoc: Javadoc, out: &mut Vec<FieldDecl>) {
        let (modifiers, annotations) = self.modifiers(n);
        let base_type = n.child_by_field_id(field::TYPE.id()).map(|t| clean(t, self.src)).unwrap_or_default();
        let start_line = self.start_line(n);
        let end_line = self.end_line(n);
        let mut c = n.walk();
        for d in n.children_by_field_name("declarator", &mut c) {
            let Some(name_node) = d.child_by_field_id(field::NAME.id()) else {
                continue;
            };
            let name = text(name_node, self.src).to_owned();
            let mut type_text = base_type.clone();
            if let Some(dims) = d.child_by_field_id(field::DIMENSIONS.id()) {
                type_text.push_str(&clean(dims, self.src));
            }
            out.push(declared_field(
                owner,
                name,
                type_text,
                (&modifiers, &annotations),
                (start_line, end_line),
                &javadoc,
            ));
        }
    }

    /// What a method or constructor declaration `n` declares besides its own fields.
    fn callable(&self, n: Node, jd: Javadoc) -> Callable {
        let (modifiers, annotations) = self.modifiers(n);
        Callable {
            name: n.child_by_field_id(field::NAME.id()).map(|x| text(x, self.src).to_owned()).unwrap_or_default(),
            modifiers,
            annotations,
            type_params_text: n.child_by_field_id(field::TYPE_PARAMETERS.id()).map(|t| clean(t, self.src)),
            params: n.child_by_field_id(field::PARAMETERS.id()).map(|p| self.params(p)).unwrap_or_default(),
            throws: self.throws(n),
            start_line: self.start_line(n),
            end_line: self.end_line(n),
            javadoc: jd,
        }
    }

    fn method(&self, n: Node, owner: &str, jd: Javadoc) -> MethodDecl {
        let c = self.callable(n, jd);
        let mut return_type_text =
            n.child_by_field_id(field::TYPE.id()).map(|t| clean(t, self.src)).unwrap_or_default();
        if let Some(d) = n.child_by_field_id(field::DIMENSIONS.id()) {
            return_type_text.push_str(&clean(d, self.src));
        }
        let mut signature_text = c.signature(Some(&return_type_text));
        if n.kind() == "annotation_type_element_declaration"
            && let Some(v) = n.child_by_field_id(field::VALUE.id())
        {
            signature_text.push_str(" default ");
            signature_text.push_str(&clean(v, self.src));
        }
        let types = param_types(&c.params);
        let member = SymbolId::method_member(&c.name, &types, &return_type_text);
        let symbol_id = SymbolId::member(SymbolKind::Method, owner, member, c.start_line, c.end_line).to_string();
        MethodDecl::new(c, symbol_id, signature_text, return_type_text)
    }

    fn ctor(&self, n: Node, owner: &str, jd: Javadoc) -> CtorDecl {
        let compact = n.kind() == "compact_constructor_declaration";
        let c = self.callable(n, jd);
        let symbol_id = ctor_id(owner, &c.name, &c.params, c.start_line, c.end_line);
        let signature_text = c.signature(None);
        CtorDecl::new(c, symbol_id, signature_text, compact)
    }

    fn enum_constant(&self, n: Node, owner: &str, jd: Javadoc) -> EnumConstant {
        let name = n.child_by_field_id(field::NAME.id()).map(|x| text(x, self.src).to_owned()).unwrap_or_default();
        let start_line = self.start_line(n);
        let end_line = self.end_line(n);
        EnumConstant {
            symbol_id: SymbolId::member(SymbolKind::EnumConstant, owner, name.clone(), start_line, end_line)
                .to_string(),
            name,
            start_line,
            end_line,
            javadoc: jd,
        }
    }

    /// The javadoc of `nodes[i]`, looking back through its earlier siblings in `nodes`
    /// (tree-sitter's `prev_sibling` is linear in the number of siblings, so walking it for
    /// every member of a large class would be quadratic).
    fn javadoc_at(&self, nodes: &[Node], i: usize) -> Javadoc {
        let decl = nodes[i];
        let mut boundary = decl.start_byte();
        let mut k = i;
        while k > 0 {
            k -= 1;
            let p = nodes[k];
            if !is_comment(p) || !self.blank(p.end_byte(), boundary) {
                return Javadoc::absent();
            }
            if let Some(jd) = self.as_javadoc(p) {
                return jd;
            }
            boundary = p.start_byte();
        }
        self.javadoc(decl)
    }

    /// A comment node as a javadoc, if it is one.
    fn as_javadoc(&self, p: Node) -> Option<Javadoc> {
        let t = &self.src[p.start_byte()..p.end_byte()];
        if !(t.starts_with(b"/**") && (t.len() >= 5 || t == b"/**/")) {
            return None;
        }
        let start_line = self.start_line(p);
        let end_line = self.end_line(p);
        Some(Javadoc {
            present: true,
            start_line: Some(start_line),
            end_line: Some(end_line),
            line_count: end_line - start_line + 1,
            preview: None,
            span: Some((self.offset(p.start_byte()), self.offset(p.end_byte() - 1) + 1)),
        })
    }

    /// The nearest `/** … */` before the declaration's first token, with only whitespace and
    /// other comments in between.
    fn javadoc(&self, decl: Node) -> Javadoc {
        let mut boundary = decl.start_byte();
        let mut node = decl;
        loop {
            let prev = node.prev_sibling();
            match prev {
                Some(p) if is_comment(p) => {
                    if !self.blank(p.end_byte(), boundary) {
                        return Javadoc::absent();
                    }
                    if let Some(jd) = self.as_javadoc(p) {
                        return jd;
                    }
                    boundary = p.start_byte();
                    node = p;
                }
                Some(_) => return Javadoc::absent(),
                None => match node.parent() {
                    // A declaration that starts its parent (e.g. inside an error node):
                    // the comments before the parent count.
                    Some(parent) if parent.start_byte() == decl.start_byte() || parent.kind() == "ERROR" => {
                        node = parent;
                    }
                    _ => return Javadoc::absent(),
                },
            }
        }
    }

    fn blank(&self, from: usize, to: usize) -> bool {
        from <= to && self.src[from..to].iter().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0C))
    }
}

/// A compact constructor's parameters are the record components: its params, signature and
/// id made from them.
fn record_compact_ctors(ctors: &mut [CtorDecl], comps: &[RecordComponent], owner: &str) {
    for ctor in ctors.iter_mut().filter(|c| c.compact) {
        ctor.params = comps.iter().map(|c| Param { name: c.name.clone(), type_text: c.type_text.clone() }).collect();
        ctor.signature_text = mji_model::signature_text(
            &ctor.modifiers,
            ctor.type_params_text.as_deref(),
            None,
            &ctor.name,
            &ctor.params,
            &ctor.throws,
        );
        ctor.symbol_id = ctor_id(owner, &ctor.name, &ctor.params, ctor.start_line, ctor.end_line);
    }
}

fn param_types(params: &[Param]) -> String {
    params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(",")
}

fn ctor_id(owner: &str, name: &str, params: &[Param], start: u32, end: u32) -> String {
    SymbolId::member(SymbolKind::Ctor, owner, SymbolId::ctor_member(name, &param_types(params)), start, end).to_string()
}

/// Lists syntax errors: missing tokens and unexpected text, at most [`MAX_ERRORS`].
fn collect_errors(root: Node, b: &Builder, out: &mut Vec<Diagnostic>) {
    let (found, total) = syntax_errors(root, b.src, MAX_ERRORS);
    for e in found {
        out.push(Diagnostic { level: Level::Error, message: e.message, line: Some(b.line(e.start)) });
    }
    if total > MAX_ERRORS {
        out.push(Diagnostic {
            level: Level::Error,
            message: format!("{} more syntax errors not listed", total - MAX_ERRORS),
            line: None,
        });
    }
}

/// One syntax error: a byte range of the parsed text and a message a person would write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub start: usize,
    pub end: usize,
    pub message: String,
}

/// Every error and missing node under `root` in source order, at most `limit` of them, and
/// how many there were in all. `src` is the text tree-sitter parsed.
pub fn syntax_errors(root: Node, src: &[u8], limit: usize) -> (Vec<SyntaxError>, usize) {
    let mut found = Vec::new();
    let mut total = 0usize;
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.is_missing() {
            total += 1;
            if found.len() < limit {
                let what = if n.is_named() { n.kind().replace('_', " ") } else { format!("`{}`", n.kind()) };
                let message = match text_before(src, n.start_byte()) {
                    Some(before) => format!("missing {what} after `{before}`"),
                    None => format!("missing {what}"),
                };
                found.push(SyntaxError { start: n.start_byte(), end: n.end_byte(), message });
            }
            continue;
        }
        if n.is_error() {
            total += 1;
            if found.len() < limit {
                found.push(match missing_semicolon(n, src) {
                    Some(e) => e,
                    None => SyntaxError { start: n.start_byte(), end: n.end_byte(), message: unexpected(n, src) },
                });
            }
            continue;
        }
        if n.has_error() {
            let mut c = n.walk();
            let kids: Vec<Node> = n.children(&mut c).collect();
            stack.extend(kids.into_iter().rev());
        }
    }
    found.sort_by_key(|e| e.start);
    (found, total)
}

/// tree-sitter often reads a statement missing its `;` as an error node somewhere in a
/// statement that runs on into the next line (`int x = a + b` / `return x;`). When the line the
/// error starts on looks finished and the statement goes on past it, the `;` is what is missing.
fn missing_semicolon(n: Node, src: &[u8]) -> Option<SyntaxError> {
    let mut s = n.parent();
    for _ in 0..6 {
        let p = s?;
        if matches!(
            p.kind(),
            "local_variable_declaration" | "expression_statement" | "return_statement" | "field_declaration"
        ) {
            break;
        }
        s = p.parent();
    }
    let statement = s.filter(|p| {
        matches!(
            p.kind(),
            "local_variable_declaration" | "expression_statement" | "return_statement" | "field_declaration"
        )
    })?;
    let line_end = n.start_byte() + src.get(n.start_byte()..)?.iter().position(|&b| b == b'\n' || b == b'\r')?;
    if line_end >= statement.end_byte() {
        return None;
    }
    let line = std::str::from_utf8(&src[statement.start_byte()..line_end]).ok()?;
    let code = line.split("//").next().unwrap_or(line).trim_end();
    if code.is_empty() || code.ends_with([';', '{', '}', ',', '(', '+', '-', '*', '/', '=', '&', '|', '.', '?', ':']) {
        return None;
    }
    let at = statement.start_byte() + code.len();
    let before = text_before(src, at)?;
    Some(SyntaxError { start: at, end: at, message: format!("missing `;` after `{before}`") })
}

/// "unexpected `x` in a class body (expected …)": what was found and what the place expects.
fn unexpected(n: Node, src: &[u8]) -> String {
    let first = text(n, src).lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    let mut snippet: String = first.chars().take(40).collect();
    if snippet.len() < first.len() {
        snippet.push('…');
    }
    let place = match n.parent().map(|p| p.kind()) {
        None | Some("program") => " at the top level (expected a class, interface, enum, record or import)",
        Some("class_body" | "interface_body" | "enum_body_declarations" | "enum_body" | "record_body") => {
            " in a type body (expected a field, method, constructor or nested type)"
        }
        Some("annotation_type_body") => " in an annotation type body (expected an element or constant)",
        Some("block" | "constructor_body" | "switch_block_statement_group") => " in a block (expected a statement)",
        Some("formal_parameters") => " in a parameter list",
        Some("argument_list") => " in an argument list",
        Some("expression_statement") => " in an expression",
        Some(k) if k.ends_with("_declaration") => match k {
            "method_declaration" => " in a method declaration",
            "field_declaration" => " in a field declaration",
            "local_variable_declaration" => " in a variable declaration",
            "class_declaration" => " in a class declaration",
            "import_declaration" => " in an import",
            "package_declaration" => " in the package declaration",
            _ => "",
        },
        _ => "",
    };
    if snippet.is_empty() { format!("syntax error{place}") } else { format!("unexpected `{snippet}`{place}") }
}

/// The code just before `offset` on its line (or the nearest line above with code), trimmed,
/// at most 40 chars, for "missing `;` after `…`". None at the start of the file.
fn text_before(src: &[u8], offset: usize) -> Option<String> {
    let before = std::str::from_utf8(&src[..offset.min(src.len())]).unwrap_or("").trim_end();
    let line = before.rsplit(['\n', '\r']).next().unwrap_or("").trim_start();
    if line.is_empty() {
        return None;
    }
    let n = line.chars().count();
    Some(if n > 40 {
        let cut: String = line.chars().skip(n - 40).collect();
        format!("…{cut}")
    } else {
        line.to_owned()
    })
}

/// A `formal_parameter` node that is a receiver parameter: tree-sitter-java parses
/// `@A Foo this` (an annotated receiver) as a parameter named `this`.
pub fn is_receiver(p: Node, src: &[u8]) -> bool {
    p.child_by_field_id(field::NAME.id()).is_some_and(|n| n.utf8_text(src).is_ok_and(|t| t == "this"))
}

/// The files the parser's whole-corpus tests outline: every `.java` of the outline, edit and
/// build fixtures, then every second file of the JDK's java.base (`target/jdk-src`, when
/// unpacked; the whole of it took 40 s in a debug build beside others), and where the JDK's
/// files start.
#[cfg(test)]
pub(crate) fn test_corpus() -> (Vec<std::path::PathBuf>, usize) {
    fn java_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                java_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "java") {
                out.push(p);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["tests/fixtures", "tests/edit_fixtures", "tests/build_fixtures"] {
        java_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "fixtures not found under {}", root.display());
    let fixtures = files.len();
    let mut jdk = Vec::new();
    java_files(&root.join("target/jdk-src/java.base"), &mut jdk);
    jdk.sort();
    files.extend(jdk.into_iter().step_by(2));
    (files, fixtures)
}
