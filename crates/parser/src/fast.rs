//! A declarations-only parser of a compacted skeleton ([`crate::skeleton::declaration_skeleton`])
//! for the workspace index: a tokenizer over the skeleton's bytes, then a recursive descent on
//! the declaration grammar, giving the [`FileOutline`] the tree-sitter path
//! ([`crate::outline_cut`] and its `Builder`) gives for the same text, field for field, without
//! building a syntax tree (tree-sitter's parse and its allocations were some three fifths of a
//! cold index of the JDK).
//!
//! It answers only when it is sure: any token sequence it does not expect, any file the
//! tree-sitter path would read differently (escapes or blanked annotations, Lombok, the node
//! and nesting bounds, a decoding error), any construct whose parse it does not know to be
//! tree-sitter-java's without an error, gives None, and the caller parses with tree-sitter
//! exactly as before. Every recursion is bounded ([`MAX_DEPTH`], [`MAX_TYPE_NESTING`]).
//!
//! Texts are the source's own (the slice a syntax node would span, whitespace runs collapsed,
//! as `clean` makes them); the skeleton keeps no comment but javadoc shells, and a javadoc
//! anywhere but before a member (or a closing brace) makes it decline.

use std::borrow::Cow;
use std::cell::RefCell;

use mji_model::{
    Callable, CtorDecl, Diagnostic, EnumConstant, FileOutline, Javadoc, Level, MethodDecl, Param, RecordComponent,
    SymbolId, SymbolKind, TypeDecl, TypeKind,
};

use crate::{LineIndex, MAX_SYNTAX_NODES, MAX_TYPE_NESTING, Members, Prepared, SourceText};

const WORD: u8 = 1;
const NUM: u8 = 2;
const STR: u8 = 3;
const COMMENT: u8 = 4;
const ELLIPSIS: u8 = 5;
const COLONS: u8 = 6;
const ARROW: u8 = 7;

/// How deeply types and expressions may nest before the parser declines.
const MAX_DEPTH: u32 = 48;

const PRIMITIVES: &[&str] = &["int", "long", "short", "byte", "char", "boolean", "float", "double"];

/// Words tree-sitter-java reads as keywords in some places: never taken as a name here.
const CONTEXTUAL: &[&str] = &["record", "sealed", "yield", "permits", "when", "non", "_"];

/// Words the grammar takes for names only where it says so (`_reserved_identifier`): never
/// taken as a type's name here.
const RESERVED: &[&str] = &["open", "module", "with"];

/// A token: its kind (one of the constants above, or the byte of a one-byte punctuator) and
/// its byte range in the skeleton.
#[derive(Clone, Copy, Debug)]
struct Tok {
    kind: u8,
    start: u32,
    end: u32,
}

thread_local! {
    /// The line of the furthest token the last declined parse looked at (debug builds).
    static FAR: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
    static TOKENS: RefCell<Vec<Tok>> = const { RefCell::new(Vec::new()) };
}

/// The outline of the compacted skeleton `text` (cut table `cuts`) of a file whose prepared
/// text as written is `shown` and whose decoding said `warnings`, with an empty hash; None
/// when the tree-sitter path must give it.
pub(crate) fn outline(
    file_path: &str,
    text: &str,
    cuts: &[(usize, usize)],
    shown: &str,
    warnings: &[Diagnostic],
) -> Option<FileOutline> {
    if switched_off()
        || shown.len() > MAX_SYNTAX_NODES / 2
        || text.len() > MAX_SYNTAX_NODES
        || warnings.iter().any(|w| w.level != Level::Warning)
        || memchr::memmem::find(shown.as_bytes(), b"lombok").is_some()
        || crate::kotlin::is_kotlin(file_path)
    {
        return None;
    }
    // The text tree-sitter would parse must be the skeleton itself (no escape translated,
    // nothing joined or moved) but for varargs annotations blanked, which the parse checks at
    // each `...`.
    let prep = Prepared::new(text);
    if prep.shown() != text || prep.text.len() != text.len() {
        return None;
    }
    TOKENS.with(|cell| {
        let mut toks = cell.try_borrow_mut().ok()?;
        let out = outline_tokens(file_path, text, &prep, cuts, warnings, &mut toks);
        // A large file's tokens are not kept for the thread's life.
        if toks.capacity() > MAX_KEPT_TOKENS {
            *toks = Vec::new();
        }
        out
    })
}

/// The most tokens whose buffer a thread keeps between files (768 KiB).
const MAX_KEPT_TOKENS: usize = 1 << 16;

/// [`outline`] with the token buffer `toks`.
fn outline_tokens(
    file_path: &str,
    text: &str,
    prep: &Prepared,
    cuts: &[(usize, usize)],
    warnings: &[Diagnostic],
    toks: &mut Vec<Tok>,
) -> Option<FileOutline> {
    toks.clear();
    lex(text.as_bytes(), toks)?;
    let lines = LineIndex::new(text);
    let mut p = Parser {
        s: text,
        b: text.as_bytes(),
        parsed: prep.text.as_bytes(),
        t: &toks[..],
        i: 0,
        lines: &lines,
        cuts,
        far: 0.into(),
        blanked: Vec::new(),
    };
    let parsed = p.file();
    // Every byte tree-sitter would see otherwise must be one of the annotations read so.
    if parsed.is_some() && prep.text.as_bytes() != text.as_bytes() {
        let differs = |k: &usize| prep.text.as_bytes()[*k] != text.as_bytes()[*k];
        if (0..text.len()).filter(differs).any(|k| !p.blanked.iter().any(|&(a, b)| a <= k && k < b)) {
            return None;
        }
    }
    if parsed.is_none() && cfg!(debug_assertions) {
        FAR.set(p.t.get(p.far.get()).map(|t| lines.line_of(t.start as usize)));
    }
    let (package, classes) = parsed?;
    Some(FileOutline {
        file_path: file_path.to_owned(),
        language: "java".to_owned(),
        hash: String::new(),
        line_count: lines.line_count(),
        package,
        classes,
        errors: warnings.to_vec(),
    })
}

/// Whether the environment says `MJI_FAST_OUTLINE=0`: every file then goes to tree-sitter as
/// before this parser, so that one binary can be timed both ways. Read once.
fn switched_off() -> bool {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *OFF.get_or_init(|| std::env::var_os("MJI_FAST_OUTLINE").is_some_and(|v| v == "0"))
}

/// The fast outline of a file's bytes, or None where [`crate::outline_declarations_unhashed`]
/// parses it with tree-sitter: for comparisons and benchmarks.
#[doc(hidden)]
pub fn outline_declarations_fast(file_path: &str, bytes: &[u8]) -> Option<FileOutline> {
    let (text, warnings) = SourceText::decode_text(bytes);
    let prep = Prepared::new(&text);
    if !matches!(prep.text, Cow::Borrowed(_)) {
        let terminators = |t: &str| t.bytes().filter(|&b| b == b'\n' || b == b'\r').count();
        if terminators(&prep.text) != terminators(&text) {
            return None;
        }
    }
    let shown = prep.shown();
    let sk = crate::declaration_skeleton(shown)?;
    outline(file_path, &sk.text, sk.cuts(), shown, &warnings)
}

/// Where the fast path stopped on a file it declines (debug builds): the line of the furthest
/// token it looked at, or None when it declined before parsing (or answered).
#[doc(hidden)]
pub fn decline_line(file_path: &str, bytes: &[u8]) -> Option<u32> {
    FAR.set(None);
    outline_declarations_fast(file_path, bytes).map_or_else(|| FAR.get(), |_| None)
}

/// [`crate::outline_declarations_unhashed`] by tree-sitter only (the path before the fast
/// one): for comparisons and benchmarks.
#[doc(hidden)]
pub fn outline_declarations_tree_sitter(file_path: &str, bytes: &[u8]) -> FileOutline {
    crate::declarations_from(file_path, bytes, String::new(), &crate::lombok::config::default_config(), true, false)
}

/// Tokens of a skeleton; None at anything it does not expect (a line comment, a non-ASCII
/// byte outside a literal, a control character, an unterminated literal).
fn lex(b: &[u8], out: &mut Vec<Tok>) -> Option<()> {
    let mut i = 0;
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    while i < b.len() {
        let c = b[i];
        let start = i;
        let kind = match c {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0C => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = crate::skeleton::skip_block_comment(b, i)?;
                if !b[i..end].starts_with(b"/**") || !(end - i >= 5 || &b[i..end] == b"/**/") {
                    return None;
                }
                i = end;
                COMMENT
            }
            b'/' if b.get(i + 1) == Some(&b'/') => return None,
            b'"' => {
                i = crate::skeleton::skip_string(b, i)?;
                STR
            }
            b'\'' => {
                i = crate::skeleton::skip_char(b, i)?;
                if !crate::skeleton::char_literal(&b[start + 1..i - 1]) {
                    return None;
                }
                STR
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'$' => {
                while i < b.len() && word(b[i]) {
                    i += 1;
                }
                WORD
            }
            c if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) => {
                let hex = b[i..].starts_with(b"0x") || b[i..].starts_with(b"0X");
                let exponent = |p: u8| if hex { matches!(p, b'p' | b'P') } else { matches!(p, b'e' | b'E') };
                while i < b.len() && (word(b[i]) || b[i] == b'.' || (matches!(b[i], b'+' | b'-') && exponent(b[i - 1])))
                {
                    i += 1;
                }
                if !number(&b[start..i]) {
                    return None;
                }
                NUM
            }
            b'.' if b[i..].starts_with(b"...") => {
                i += 3;
                ELLIPSIS
            }
            b':' if b.get(i + 1) == Some(&b':') => {
                i += 2;
                COLONS
            }
            b'-' if b.get(i + 1) == Some(&b'>') => {
                i += 2;
                ARROW
            }
            b'\\' | b'#' | b'`' => return None,
            c if c.is_ascii_punctuation() => {
                i += 1;
                c
            }
            _ => return None,
        };
        out.push(Tok { kind, start: start as u32, end: i as u32 });
    }
    Some(())
}

/// Whether `n` is a Java number literal the way tree-sitter-java lexes it (decimal, octal,
/// hexadecimal or binary integers, decimal floats; underscores between digits).
fn number(n: &[u8]) -> bool {
    if n.first() == Some(&b'_') || n.last() == Some(&b'_') {
        return false;
    }
    let plain: Vec<u8> = n.iter().copied().filter(|&c| c != b'_').collect();
    if let Some(rest) = plain.strip_prefix(b"0x").or_else(|| plain.strip_prefix(b"0X"))
        && rest.iter().any(|c| matches!(c, b'.' | b'p' | b'P'))
    {
        // A hexadecimal float: digits, `.`, digits (some digit), `p`, a signed exponent.
        let hex = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_hexdigit()).count();
        let mut k = hex(rest);
        let mut digits = k;
        if rest.get(k) == Some(&b'.') {
            k += 1;
            let f = hex(&rest[k..]);
            digits += f;
            k += f;
        }
        if digits == 0 || !matches!(rest.get(k), Some(b'p' | b'P')) {
            return false;
        }
        k += 1;
        if matches!(rest.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        let e = rest[k..].iter().take_while(|c| c.is_ascii_digit()).count();
        return e > 0 && matches!(&rest[k + e..], b"" | b"f" | b"F" | b"d" | b"D");
    }
    if let Some(rest) = plain.strip_prefix(b"0b").or_else(|| plain.strip_prefix(b"0B")) {
        let k = rest.iter().take_while(|c| matches!(c, b'0' | b'1')).count();
        return k > 0 && matches!(&rest[k..], b"" | b"l" | b"L");
    }
    if plain.first() == Some(&b'.') {
        let mut z = b"0".to_vec();
        z.extend_from_slice(&plain);
        return crate::skeleton::number_literal(&z);
    }
    crate::skeleton::number_literal(&plain)
}

/// The binary operators of an expression, longest first.
const OPS: [&[u8]; 19] = [
    b">>>", b"<<", b">>", b"<=", b">=", b"==", b"!=", b"&&", b"||", b"+", b"-", b"*", b"/", b"%", b"&", b"|", b"^",
    b"<", b">",
];

struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    /// The text tree-sitter would parse: `s` with varargs annotations blanked.
    parsed: &'a [u8],
    t: &'a [Tok],
    i: usize,
    lines: &'a LineIndex,
    cuts: &'a [(usize, usize)],
    /// The furthest token looked at (debug builds), where a declined file stopped.
    far: std::cell::Cell<usize>,
    /// The varargs annotations read where `parsed` has them blanked.
    blanked: Vec<(usize, usize)>,
}

/// What kind of body members are read in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Body {
    Class,
    Record,
    Interface,
    Annotation,
}

impl<'a> Parser<'a> {
    fn kind(&self, k: usize) -> u8 {
        if cfg!(debug_assertions) && k > self.far.get() {
            self.far.set(k);
        }
        self.t.get(k).map_or(0, |t| t.kind)
    }

    fn at(&self, c: u8) -> bool {
        self.kind(self.i) == c
    }

    fn word_at(&self, k: usize) -> &'a str {
        match self.t.get(k) {
            Some(t) if t.kind == WORD => &self.s[t.start as usize..t.end as usize],
            _ => "",
        }
    }

    fn is_word(&self, w: &str) -> bool {
        self.word_at(self.i) == w
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        if self.at(c) {
            self.i += 1;
            Some(())
        } else {
            None
        }
    }

    /// Whether tokens `k` and `k + 1` touch (no white space between).
    fn adjacent(&self, k: usize) -> bool {
        match (self.t.get(k), self.t.get(k + 1)) {
            (Some(a), Some(b)) => a.end == b.start,
            _ => false,
        }
    }

    /// A name: a word that is no keyword and no contextual keyword.
    fn ident(&mut self) -> Option<&'a str> {
        let w = self.word_at(self.i);
        if w.is_empty() || crate::KEYWORDS.contains(&w) || CONTEXTUAL.contains(&w) {
            return None;
        }
        self.i += 1;
        Some(w)
    }

    /// The name of a field, a parameter or a method: also the words tree-sitter-java reads as
    /// names there (`record`, `yield`, `when`, `permits`, `var`, …).
    fn name(&mut self) -> Option<&'a str> {
        let w = self.word_at(self.i);
        if matches!(w, "record" | "sealed" | "yield" | "permits" | "when" | "var") {
            self.i += 1;
            return Some(w);
        }
        self.ident()
    }

    /// A type's name: also no primitive type.
    fn type_ident(&mut self) -> Option<&'a str> {
        let w = self.word_at(self.i);
        if PRIMITIVES.contains(&w) || w == "void" || RESERVED.contains(&w) {
            return None;
        }
        self.ident()
    }

    /// The text of tokens `a..b` (none a comment) as `clean` gives it: whitespace runs
    /// collapsed to one space.
    fn clean(&self, a: usize, b: usize) -> Option<String> {
        if a >= b || self.t[a..b].iter().any(|t| t.kind == COMMENT) {
            return None;
        }
        let raw = &self.s[self.t[a].start as usize..self.t[b - 1].end as usize];
        let mut out = String::with_capacity(raw.len());
        crate::collapse_into(raw, &mut out);
        Some(out)
    }

    fn line(&self, offset: u32) -> u32 {
        self.lines.line_of(offset as usize)
    }

    fn start_line(&self, k: usize) -> u32 {
        self.line(self.t[k].start)
    }

    fn end_line(&self, k: usize) -> u32 {
        let t = self.t[k];
        self.line(t.end.saturating_sub(1).max(t.start))
    }

    /// The javadoc of a declaration whose first token is `k`: the comment right before it.
    fn javadoc_before(&self, k: usize) -> Javadoc {
        let Some(c) = k.checked_sub(1).map(|j| self.t[j]).filter(|t| t.kind == COMMENT) else {
            return Javadoc::absent();
        };
        let (start, end) = (c.start as usize, c.end as usize);
        let start_line = self.line(c.start);
        let end_line = self.line(c.end - 1);
        let plain = |t: usize| crate::skeleton::plain_offset(self.cuts, t);
        Javadoc {
            present: true,
            start_line: Some(start_line),
            end_line: Some(end_line),
            line_count: end_line - start_line + 1,
            preview: None,
            span: Some((plain(start), plain(end - 1) + 1)),
        }
    }

    fn skip_comments(&mut self) {
        while self.at(COMMENT) {
            self.i += 1;
        }
    }

    /// The compilation unit: its package and types.
    fn file(&mut self) -> Option<(Option<String>, Vec<TypeDecl>)> {
        let mut package: Option<String> = None;
        let mut types = Vec::new();
        loop {
            self.skip_comments();
            if self.i >= self.t.len() {
                break;
            }
            if self.at(b';') {
                self.i += 1;
            } else if self.is_word("package") {
                if package.is_some() || !types.is_empty() {
                    return None;
                }
                self.i += 1;
                let a = self.i;
                self.qualified_name()?;
                let raw = &self.s[self.t[a].start as usize..self.t[self.i - 1].end as usize];
                if self.t[a..self.i].iter().any(|t| t.kind == COMMENT) {
                    return None;
                }
                package = Some(raw.chars().filter(|c| !c.is_whitespace()).collect());
                self.eat(b';')?;
            } else if self.is_word("import") {
                self.i += 1;
                if self.is_word("static") {
                    self.i += 1;
                }
                self.qualified_name()?;
                if self.at(b'.') && self.kind(self.i + 1) == b'*' {
                    self.i += 2;
                }
                self.eat(b';')?;
            } else {
                let first = self.i;
                let jd = self.javadoc_before(first);
                let (mods, annots) = self.modifiers()?;
                // An annotated package (`package-info.java`).
                if mods.is_empty() && !annots.is_empty() && self.is_word("package") {
                    continue;
                }
                let kind = self.type_keyword()?;
                types.push(self.type_decl(first, kind, (mods, annots), jd, package.as_deref(), 1)?);
            }
        }
        Some((package, types))
    }

    /// `a.b.c` of a package or an import (any word but a keyword).
    fn qualified_name(&mut self) -> Option<()> {
        loop {
            let w = self.word_at(self.i);
            if w.is_empty() || crate::KEYWORDS.contains(&w) {
                return None;
            }
            self.i += 1;
            if self.at(b'.') && self.kind(self.i + 1) == WORD {
                self.i += 1;
            } else {
                return Some(());
            }
        }
    }

    /// Keywords (in source order) and annotations' texts of a declaration's modifiers.
    fn modifiers(&mut self) -> Option<(Vec<String>, Vec<String>)> {
        let mut mods = Vec::new();
        let mut annots = Vec::new();
        loop {
            if self.at(b'@') {
                if self.word_at(self.i + 1) == "interface" {
                    break;
                }
                let a = self.i;
                self.annotation(0)?;
                annots.push(self.clean(a, self.i)?);
                continue;
            }
            match self.word_at(self.i) {
                m @ ("public" | "protected" | "private" | "abstract" | "static" | "final" | "strictfp" | "default"
                | "synchronized" | "native" | "transient" | "volatile" | "sealed") => {
                    mods.push(m.to_owned());
                    self.i += 1;
                }
                "non" => {
                    if self.kind(self.i + 1) == b'-'
                        && self.word_at(self.i + 2) == "sealed"
                        && self.adjacent(self.i)
                        && self.adjacent(self.i + 1)
                    {
                        mods.push("non-sealed".to_owned());
                        self.i += 3;
                    } else {
                        return None;
                    }
                }
                _ => break,
            }
        }
        Some((mods, annots))
    }

    /// `@Name`, `@a.Name(...)`.
    fn annotation(&mut self, d: u32) -> Option<()> {
        if d > MAX_DEPTH {
            return None;
        }
        self.eat(b'@')?;
        self.ident()?;
        while self.at(b'.') && self.kind(self.i + 1) == WORD {
            self.i += 1;
            self.ident()?;
        }
        if !self.at(b'(') {
            return Some(());
        }
        self.i += 1;
        if self.eat(b')').is_some() {
            return Some(());
        }
        let pair = |p: &Self| {
            p.kind(p.i) == WORD && p.kind(p.i + 1) == b'=' && p.b.get(p.t[p.i + 1].end as usize) != Some(&b'=')
        };
        if pair(self) {
            loop {
                if !pair(self) {
                    return None;
                }
                self.ident()?;
                self.i += 1;
                self.element_value(d + 1)?;
                if self.eat(b',').is_none() {
                    break;
                }
            }
        } else {
            self.element_value(d + 1)?;
        }
        self.eat(b')')
    }

    fn element_value(&mut self, d: u32) -> Option<()> {
        if d > MAX_DEPTH {
            return None;
        }
        if self.at(b'@') {
            return self.annotation(d + 1);
        }
        if self.eat(b'{').is_some() {
            loop {
                if self.eat(b'}').is_some() {
                    return Some(());
                }
                self.element_value(d + 1)?;
                if self.eat(b',').is_none() {
                    return self.eat(b'}');
                }
            }
        }
        self.expr(d + 1)
    }

    /// The keyword of a type declaration, consumed.
    fn type_keyword(&mut self) -> Option<TypeKind> {
        let kind = match self.word_at(self.i) {
            "class" => TypeKind::Class,
            "interface" => TypeKind::Interface,
            "enum" => TypeKind::Enum,
            "record" if self.kind(self.i + 1) == WORD && matches!(self.kind(self.i + 2), b'(' | b'<') => {
                TypeKind::Record
            }
            "" if self.at(b'@') && self.word_at(self.i + 1) == "interface" && self.adjacent(self.i) => {
                self.i += 1;
                TypeKind::Annotation
            }
            _ => return None,
        };
        self.i += 1;
        Some(kind)
    }

    /// A type declaration after its keyword; `first` is its first token, `level` 1 at the top.
    fn type_decl(
        &mut self,
        first: usize,
        kind: TypeKind,
        modifiers: (Vec<String>, Vec<String>),
        jd: Javadoc,
        prefix: Option<&str>,
        level: u32,
    ) -> Option<TypeDecl> {
        if level >= MAX_TYPE_NESTING {
            return None;
        }
        let name = self.type_ident()?.to_owned();
        let qualified_name = match prefix {
            Some(o) if !o.is_empty() => format!("{o}.{name}"),
            _ => name.clone(),
        };
        let mut type_params_text = None;
        if self.at(b'<') && matches!(kind, TypeKind::Class | TypeKind::Interface | TypeKind::Record) {
            let a = self.i;
            self.type_params()?;
            type_params_text = Some(self.clean(a, self.i)?);
        }
        let mut record_components: Option<Vec<RecordComponent>> = None;
        if kind == TypeKind::Record {
            let params = self.params()?;
            record_components =
                Some(params.into_iter().map(|p| RecordComponent { name: p.name, type_text: p.type_text }).collect());
        }
        let mut extends = None;
        let mut implements = Vec::new();
        let mut permits = Vec::new();
        if kind == TypeKind::Class && self.is_word("extends") {
            self.i += 1;
            let a = self.i;
            self.annotated_ty(0)?;
            extends = Some(self.clean(a, self.i)?);
        }
        let implements_word = if kind == TypeKind::Interface { "extends" } else { "implements" };
        if kind != TypeKind::Annotation && self.is_word(implements_word) {
            self.i += 1;
            implements = self.type_list()?;
        }
        if matches!(kind, TypeKind::Class | TypeKind::Interface) && self.is_word("permits") {
            self.i += 1;
            permits = self.type_list()?;
        }
        self.eat(b'{')?;
        let mut members = Members::default();
        match kind {
            TypeKind::Enum => self.enum_body(&qualified_name, level, &mut members)?,
            TypeKind::Class => self.body(Body::Class, &qualified_name, level, &mut members)?,
            TypeKind::Record => self.body(Body::Record, &qualified_name, level, &mut members)?,
            TypeKind::Interface => self.body(Body::Interface, &qualified_name, level, &mut members)?,
            TypeKind::Annotation => self.body(Body::Annotation, &qualified_name, level, &mut members)?,
        }
        let lines = (self.start_line(first), self.end_line(self.i - 1));
        if let Some(comps) = &record_components {
            crate::record_compact_ctors(&mut members.ctors, comps, &qualified_name);
        }
        let mut t = TypeDecl::header(kind, name, qualified_name, modifiers, lines, jd);
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
        Some(t)
    }

    fn type_list(&mut self) -> Option<Vec<String>> {
        let mut out = Vec::new();
        loop {
            let a = self.i;
            self.annotated_ty(0)?;
            out.push(self.clean(a, self.i)?);
            if self.eat(b',').is_none() {
                return Some(out);
            }
        }
    }

    /// `<T, U extends A & B>`.
    fn type_params(&mut self) -> Option<()> {
        self.eat(b'<')?;
        loop {
            self.annotations(0)?;
            self.type_ident()?;
            if self.is_word("extends") {
                self.i += 1;
                self.annotated_ty(0)?;
                while self.eat(b'&').is_some() {
                    self.annotated_ty(0)?;
                }
            }
            if self.eat(b',').is_none() {
                return self.eat(b'>');
            }
        }
    }

    /// A type without annotations: a primitive or class type, with dimensions.
    fn ty(&mut self, d: u32) -> Option<()> {
        if d > MAX_DEPTH {
            return None;
        }
        if PRIMITIVES.contains(&self.word_at(self.i)) {
            self.i += 1;
        } else {
            loop {
                self.type_ident()?;
                if self.at(b'<') {
                    self.type_args(d + 1)?;
                }
                if self.at(b'.') && matches!(self.kind(self.i + 1), WORD | b'@') {
                    self.i += 1;
                    self.annotations(d + 1)?;
                } else {
                    break;
                }
            }
        }
        // Dimensions, each after its annotations (`String @A []`).
        loop {
            let save = self.i;
            if self.annotations(d + 1).is_none() || !(self.at(b'[') && self.kind(self.i + 1) == b']') {
                self.i = save;
                return Some(());
            }
            self.i += 2;
        }
    }

    /// Type annotations (`@A @b.C(1)`), if any.
    fn annotations(&mut self, d: u32) -> Option<()> {
        while self.at(b'@') {
            if self.word_at(self.i + 1) == "interface" {
                return None;
            }
            self.annotation(d + 1)?;
        }
        Some(())
    }

    /// A type that may carry annotations (tree-sitter-java's `_type`: type arguments, bounds,
    /// supertypes, `throws`); its text includes them.
    fn annotated_ty(&mut self, d: u32) -> Option<()> {
        self.annotations(d + 1)?;
        self.ty(d)
    }

    fn type_args(&mut self, d: u32) -> Option<()> {
        if d > MAX_DEPTH {
            return None;
        }
        self.eat(b'<')?;
        if self.eat(b'>').is_some() {
            return Some(());
        }
        loop {
            self.annotations(d + 1)?;
            if self.eat(b'?').is_some() {
                if self.is_word("extends") || self.is_word("super") {
                    self.i += 1;
                    self.annotated_ty(d + 1)?;
                }
            } else {
                self.ty(d + 1)?;
            }
            if self.eat(b',').is_none() {
                return self.eat(b'>');
            }
        }
    }

    /// `[]` pairs; whether there were any.
    fn dims(&mut self) -> bool {
        let from = self.i;
        while self.at(b'[') && self.kind(self.i + 1) == b']' {
            self.i += 2;
        }
        self.i > from
    }

    /// The members of a body whose `{` was read, through its `}`.
    fn body(&mut self, body: Body, owner: &str, level: u32, out: &mut Members) -> Option<()> {
        loop {
            self.skip_comments();
            if self.eat(b'}').is_some() {
                return Some(());
            }
            if self.eat(b';').is_some() {
                continue;
            }
            self.member(body, owner, level, out)?;
        }
    }

    fn enum_body(&mut self, owner: &str, level: u32, out: &mut Members) -> Option<()> {
        loop {
            self.skip_comments();
            if self.at(b'}') || self.at(b';') {
                break;
            }
            let first = self.i;
            let jd = self.javadoc_before(first);
            let (mods, _) = self.modifiers()?;
            if !mods.is_empty() {
                return None;
            }
            let name = self.ident()?.to_owned();
            if self.at(b'(') {
                self.args(0)?;
            }
            if self.eat(b'{').is_some() {
                self.eat(b'}')?;
            }
            let (start_line, end_line) = (self.start_line(first), self.end_line(self.i - 1));
            out.constants.push(EnumConstant {
                symbol_id: SymbolId::member(SymbolKind::EnumConstant, owner, name.clone(), start_line, end_line)
                    .to_string(),
                name,
                start_line,
                end_line,
                javadoc: jd,
            });
            if self.eat(b',').is_none() {
                break;
            }
        }
        self.skip_comments();
        if self.eat(b';').is_some() {
            return self.body(Body::Class, owner, level, out);
        }
        self.eat(b'}')
    }

    /// One member of a body (not `;`, not `}`).
    fn member(&mut self, body: Body, owner: &str, level: u32, out: &mut Members) -> Option<()> {
        let first = self.i;
        let jd = self.javadoc_before(first);
        let (mods, annots) = self.modifiers()?;
        if self.at(b'{') {
            // An initializer: `static { }` or `{ }`, its body blanked.
            if !matches!(body, Body::Class | Body::Record)
                || !annots.is_empty()
                || !(mods.is_empty() || mods == ["static"])
            {
                return None;
            }
            self.i += 1;
            return self.eat(b'}');
        }
        if let Some(kind) = self.type_keyword() {
            if body == Body::Annotation && kind == TypeKind::Record {
                return None;
            }
            let t = self.type_decl(first, kind, (mods, annots), jd, Some(owner), level + 1)?;
            out.types.push(t);
            return Some(());
        }
        if body == Body::Annotation {
            return self.element_or_constant(first, (mods, annots), jd, owner, out);
        }
        let mut type_params_text = None;
        if self.at(b'<') {
            let a = self.i;
            self.type_params()?;
            type_params_text = Some(self.clean(a, self.i)?);
        }
        // A constructor: a name and its parameters.
        if self.kind(self.i) == WORD && self.kind(self.i + 1) == b'(' {
            if body == Body::Interface {
                return None;
            }
            let name = self.ident()?.to_owned();
            let params = self.params()?;
            let throws = self.throws()?;
            self.block()?;
            let c = self.callable(first, name, (mods, annots), type_params_text, params, throws, jd);
            let symbol_id = crate::ctor_id(owner, &c.name, &c.params, c.start_line, c.end_line);
            let signature_text = c.signature(None);
            out.ctors.push(CtorDecl::new(c, symbol_id, signature_text, false));
            return Some(());
        }
        // A record's compact constructor: a name and its body.
        if body == Body::Record && self.kind(self.i) == WORD && self.kind(self.i + 1) == b'{' {
            if type_params_text.is_some() {
                return None;
            }
            let name = self.ident()?.to_owned();
            self.block()?;
            let c = self.callable(first, name, (mods, annots), None, Vec::new(), Vec::new(), jd);
            let symbol_id = crate::ctor_id(owner, &c.name, &c.params, c.start_line, c.end_line);
            let signature_text = c.signature(None);
            out.ctors.push(CtorDecl::new(c, symbol_id, signature_text, true));
            return Some(());
        }
        let ty_start = self.i;
        let void = self.is_word("void");
        if void {
            self.i += 1;
        } else {
            self.ty(0)?;
        }
        let mut type_text = self.clean(ty_start, self.i)?;
        let name = self.name()?.to_owned();
        if self.at(b'(') {
            let params = self.params()?;
            let d = self.i;
            if self.dims() {
                type_text.push_str(&self.clean(d, self.i)?);
            }
            let throws = self.throws()?;
            if self.eat(b';').is_none() {
                self.block()?;
            }
            let c = self.callable(first, name, (mods, annots), type_params_text, params, throws, jd);
            out.methods.push(method(c, owner, type_text, None));
            return Some(());
        }
        if void || type_params_text.is_some() {
            return None;
        }
        self.fields(first, name, type_text, (mods, annots), jd, owner, out)
    }

    /// An annotation type's member that is no type: an element or a constant.
    fn element_or_constant(
        &mut self,
        first: usize,
        modifiers: (Vec<String>, Vec<String>),
        jd: Javadoc,
        owner: &str,
        out: &mut Members,
    ) -> Option<()> {
        let ty_start = self.i;
        self.ty(0)?;
        let mut type_text = self.clean(ty_start, self.i)?;
        let name = self.ident()?.to_owned();
        if !self.at(b'(') {
            return self.fields(first, name, type_text, modifiers, jd, owner, out);
        }
        self.i += 1;
        self.eat(b')')?;
        let d = self.i;
        if self.dims() {
            type_text.push_str(&self.clean(d, self.i)?);
        }
        let mut default = None;
        if self.is_word("default") {
            self.i += 1;
            let a = self.i;
            self.element_value(0)?;
            default = Some(self.clean(a, self.i)?);
        }
        self.eat(b';')?;
        let c = self.callable(first, name, modifiers, None, Vec::new(), Vec::new(), jd);
        out.methods.push(method(c, owner, type_text, default));
        Some(())
    }

    /// The declarators of a field after its first name, through its `;`.
    #[allow(clippy::too_many_arguments)]
    fn fields(
        &mut self,
        first: usize,
        name: String,
        base_type: String,
        (modifiers, annotations): (Vec<String>, Vec<String>),
        javadoc: Javadoc,
        owner: &str,
        out: &mut Members,
    ) -> Option<()> {
        let mut declared = Vec::new();
        let mut name = name;
        loop {
            let mut type_text = base_type.clone();
            let d = self.i;
            if self.dims() {
                type_text.push_str(&self.clean(d, self.i)?);
            }
            declared.push((name, type_text));
            if self.at(b'=') && self.b.get(self.t[self.i].end as usize) != Some(&b'=') {
                self.i += 1;
                if self.eat(b'{').is_some() {
                    // An array initializer, blanked.
                    self.eat(b'}')?;
                } else {
                    self.expr(0)?;
                }
            }
            if self.eat(b',').is_none() {
                break;
            }
            name = self.name()?.to_owned();
        }
        self.eat(b';')?;
        let (start_line, end_line) = (self.start_line(first), self.end_line(self.i - 1));
        for (name, type_text) in declared {
            out.fields.push(crate::declared_field(
                owner,
                name,
                type_text,
                (&modifiers, &annotations),
                (start_line, end_line),
                &javadoc,
            ));
        }
        Some(())
    }

    /// A blanked member body: `{` and `}` with nothing but white space between.
    fn block(&mut self) -> Option<()> {
        self.eat(b'{')?;
        self.eat(b'}')
    }

    #[allow(clippy::too_many_arguments)]
    fn callable(
        &self,
        first: usize,
        name: String,
        (modifiers, annotations): (Vec<String>, Vec<String>),
        type_params_text: Option<String>,
        params: Vec<Param>,
        throws: Vec<String>,
        javadoc: Javadoc,
    ) -> Callable {
        Callable {
            name,
            modifiers,
            annotations,
            type_params_text,
            params,
            throws,
            start_line: self.start_line(first),
            end_line: self.end_line(self.i - 1),
            javadoc,
        }
    }

    /// `(final @A int a, String... b)`: receiver parameters decline.
    fn params(&mut self) -> Option<Vec<Param>> {
        self.eat(b'(')?;
        let mut out = Vec::new();
        if self.eat(b')').is_some() {
            return Some(out);
        }
        loop {
            self.modifiers()?;
            let a = self.i;
            self.ty(0)?;
            let mut type_text = self.clean(a, self.i)?;
            let annotated = self.i;
            self.annotations(0)?;
            if self.i > annotated {
                // Type annotations before `...`, which the text tree-sitter parses has blanked
                // (see `Prepared`): the type as written keeps them, spaced as `spread_parameter`
                // spaces them.
                let (from, to) = (self.t[annotated].start as usize, self.t[self.i - 1].end as usize);
                if !self.at(ELLIPSIS) || !self.parsed[from..to].iter().all(|&c| matches!(c, b' ' | b'\n' | b'\r')) {
                    return None;
                }
                type_text.push(' ');
                type_text.push_str(&self.clean(annotated, self.i)?);
                type_text.push(' ');
                self.blanked.push((from, to));
            }
            if self.eat(ELLIPSIS).is_some() {
                type_text.push_str("...");
                let name = self.name()?.to_owned();
                if self.at(b'[') {
                    return None;
                }
                out.push(Param { name, type_text });
            } else {
                let name = self.name()?.to_owned();
                let d = self.i;
                if self.dims() {
                    type_text.push_str(&self.clean(d, self.i)?);
                }
                out.push(Param { name, type_text });
            }
            if self.eat(b',').is_none() {
                break;
            }
        }
        self.eat(b')')?;
        Some(out)
    }

    fn throws(&mut self) -> Option<Vec<String>> {
        if !self.is_word("throws") {
            return Some(Vec::new());
        }
        self.i += 1;
        self.type_list()
    }

    // Expressions: a recognizer of the forms field initializers, annotation arguments and
    // enum constant arguments take in a skeleton (bodies blanked to `{}`), that
    // tree-sitter-java parses without an error; anything else declines.

    fn expr(&mut self, d: u32) -> Option<()> {
        if d > MAX_DEPTH {
            return None;
        }
        if self.lambda_ahead() {
            return self.lambda(d);
        }
        self.ternary(d)
    }

    /// `x ->`, `() ->`, `(a, b) ->`.
    fn lambda_ahead(&self) -> bool {
        let i = self.i;
        match self.kind(i) {
            WORD => self.kind(i + 1) == ARROW,
            b'(' => {
                let mut k = i + 1;
                if self.kind(k) == b')' {
                    return self.kind(k + 1) == ARROW;
                }
                loop {
                    if self.kind(k) != WORD {
                        return false;
                    }
                    k += 1;
                    match self.kind(k) {
                        b',' => k += 1,
                        b')' => return self.kind(k + 1) == ARROW,
                        _ => return false,
                    }
                }
            }
            _ => false,
        }
    }

    fn lambda(&mut self, d: u32) -> Option<()> {
        if self.eat(b'(').is_some() {
            if self.eat(b')').is_none() {
                loop {
                    self.ident()?;
                    if self.eat(b',').is_none() {
                        break;
                    }
                }
                self.eat(b')')?;
            }
        } else {
            self.ident()?;
        }
        self.eat(ARROW)?;
        if self.eat(b'{').is_some() {
            return self.eat(b'}');
        }
        self.expr(d + 1)
    }

    fn ternary(&mut self, d: u32) -> Option<()> {
        self.binary(d)?;
        if self.eat(b'?').is_some() {
            self.expr(d + 1)?;
            self.eat(b':')?;
            if self.lambda_ahead() {
                return self.lambda(d + 1);
            }
            return self.ternary(d + 1);
        }
        Some(())
    }

    fn binary(&mut self, d: u32) -> Option<()> {
        self.unary(d)?;
        loop {
            if self.is_word("instanceof") {
                self.i += 1;
                if self.is_word("final") {
                    self.i += 1;
                }
                self.ty(d + 1)?;
                if self.kind(self.i) == WORD && self.word_at(self.i) != "instanceof" {
                    self.ident()?;
                }
                continue;
            }
            match self.binop() {
                Some(n) => {
                    self.i += n;
                    self.unary(d + 1)?;
                }
                None => return Some(()),
            }
        }
    }

    /// The number of one-byte tokens of the binary operator at the current token, if one is
    /// (not a compound assignment).
    fn binop(&self) -> Option<usize> {
        let t = self.t.get(self.i)?;
        if t.kind < 0x21 {
            return None;
        }
        let rest = &self.b[t.start as usize..];
        let op = OPS.iter().find(|op| rest.starts_with(op))?;
        let n = op.len();
        if !op.ends_with(b"=") && rest.get(n) == Some(&b'=') {
            return None;
        }
        // Every byte of the operator is its own token.
        (0..n).all(|k| self.t.get(self.i + k).is_some_and(|x| x.start as usize == t.start as usize + k)).then_some(n)
    }

    fn unary(&mut self, d: u32) -> Option<()> {
        if d > MAX_DEPTH {
            return None;
        }
        match self.kind(self.i) {
            c @ (b'+' | b'-') => {
                self.i += 1;
                if self.at(c) && self.t[self.i - 1].end == self.t[self.i].start {
                    self.i += 1;
                }
                self.unary(d + 1)
            }
            b'!' | b'~' => {
                self.i += 1;
                self.unary(d + 1)
            }
            b'(' => {
                let save = self.i;
                if self.cast(d).is_some() {
                    return Some(());
                }
                self.i = save;
                self.postfix(d)
            }
            _ => self.postfix(d),
        }
    }

    /// `(Type) operand`, `(A & B) operand`.
    fn cast(&mut self, d: u32) -> Option<()> {
        self.eat(b'(')?;
        self.ty(d + 1)?;
        while self.eat(b'&').is_some() {
            self.ty(d + 1)?;
        }
        self.eat(b')')?;
        if !matches!(self.kind(self.i), WORD | NUM | STR | b'(' | b'!' | b'~' | b'+' | b'-')
            || self.is_word("instanceof")
        {
            return None;
        }
        if self.lambda_ahead() {
            return self.lambda(d + 1);
        }
        self.unary(d + 1)
    }

    fn postfix(&mut self, d: u32) -> Option<()> {
        let mut named = self.primary(d)?;
        loop {
            match self.kind(self.i) {
                b'.' => {
                    self.i += 1;
                    if self.at(b'<') {
                        self.type_args(d + 1)?;
                        self.ident()?;
                        named = true;
                        continue;
                    }
                    match self.word_at(self.i) {
                        "class" | "this" => {
                            self.i += 1;
                            named = false;
                        }
                        _ => {
                            self.ident()?;
                            named = true;
                        }
                    }
                }
                b'(' if named => {
                    self.args(d)?;
                    named = false;
                }
                b'[' => {
                    self.i += 1;
                    self.expr(d + 1)?;
                    self.eat(b']')?;
                    named = false;
                }
                COLONS => {
                    self.i += 1;
                    if self.is_word("new") {
                        self.i += 1;
                    } else {
                        self.ident()?;
                    }
                    named = false;
                }
                c @ (b'+' | b'-') if self.kind(self.i + 1) == c && self.adjacent(self.i) => {
                    self.i += 2;
                    return Some(());
                }
                _ => return Some(()),
            }
        }
    }

    /// A primary expression; whether it is a name (a call may follow).
    fn primary(&mut self, d: u32) -> Option<bool> {
        match self.kind(self.i) {
            NUM | STR => {
                self.i += 1;
                Some(false)
            }
            b'(' => {
                self.i += 1;
                self.expr(d + 1)?;
                self.eat(b')')?;
                Some(false)
            }
            WORD => match self.word_at(self.i) {
                "true" | "false" | "null" | "this" => {
                    self.i += 1;
                    Some(false)
                }
                "new" => {
                    self.creator(d)?;
                    Some(false)
                }
                "switch" => {
                    self.i += 1;
                    self.eat(b'(')?;
                    self.expr(d + 1)?;
                    self.eat(b')')?;
                    self.block()?;
                    Some(false)
                }
                w if PRIMITIVES.contains(&w) || w == "void" => {
                    self.i += 1;
                    self.dims();
                    self.class_literal_or_reference()?;
                    Some(false)
                }
                _ => {
                    self.ident()?;
                    if self.at(b'[') && self.kind(self.i + 1) == b']' {
                        self.dims();
                        self.class_literal_or_reference()?;
                        return Some(false);
                    }
                    Some(true)
                }
            },
            _ => None,
        }
    }

    /// After an array or primitive type in an expression: `.class` or `::`.
    fn class_literal_or_reference(&mut self) -> Option<()> {
        if self.at(b'.') && self.word_at(self.i + 1) == "class" {
            self.i += 2;
            return Some(());
        }
        if self.at(COLONS) {
            return Some(());
        }
        None
    }

    /// `new T(args)`, `new T(args) {}`, `new T[n][]`, `new T[] {}`.
    fn creator(&mut self, d: u32) -> Option<()> {
        self.i += 1;
        if PRIMITIVES.contains(&self.word_at(self.i)) {
            self.i += 1;
            if !self.at(b'[') {
                return None;
            }
        } else {
            loop {
                self.type_ident()?;
                if self.at(b'<') {
                    self.type_args(d + 1)?;
                }
                if self.at(b'.') && self.kind(self.i + 1) == WORD {
                    self.i += 1;
                } else {
                    break;
                }
            }
        }
        if self.at(b'[') {
            if self.kind(self.i + 1) == b']' {
                self.dims();
                return self.block();
            }
            while self.at(b'[') && self.kind(self.i + 1) != b']' {
                self.i += 1;
                self.expr(d + 1)?;
                self.eat(b']')?;
            }
            self.dims();
            return Some(());
        }
        self.args(d)?;
        if self.at(b'{') {
            self.block()?;
        }
        Some(())
    }

    /// `(a, b)`.
    fn args(&mut self, d: u32) -> Option<()> {
        self.eat(b'(')?;
        if self.eat(b')').is_some() {
            return Some(());
        }
        loop {
            self.expr(d + 1)?;
            if self.eat(b',').is_none() {
                return self.eat(b')');
            }
        }
    }
}

/// A method (or annotation element, with its default value's text) of `owner`.
fn method(c: Callable, owner: &str, return_type_text: String, default: Option<String>) -> MethodDecl {
    let mut signature_text = c.signature(Some(&return_type_text));
    if let Some(v) = default {
        signature_text.push_str(" default ");
        signature_text.push_str(&v);
    }
    let types = crate::param_types(&c.params);
    let member = SymbolId::method_member(&c.name, &types, &return_type_text);
    let symbol_id = SymbolId::member(SymbolKind::Method, owner, member, c.start_line, c.end_line).to_string();
    MethodDecl::new(c, symbol_id, signature_text, return_type_text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast outline of `src`, asserted equal to tree-sitter's; None when it declines.
    fn same(src: &str) -> Option<FileOutline> {
        let fast = outline_declarations_fast("T.java", src.as_bytes());
        let slow = outline_declarations_tree_sitter("T.java", src.as_bytes());
        if let Some(f) = &fast {
            assert_eq!(f, &slow, "fast outline differs for:\n{src}");
        }
        fast
    }

    /// Asserts the fast path answers, and answers as tree-sitter does.
    fn accepted(src: &str) -> FileOutline {
        same(src).unwrap_or_else(|| panic!("declined:\n{src}"))
    }

    #[test]
    fn javadoc_with_comments_between() {
        let o = accepted(
            "package a.b;\nimport java.util.List;\n/** T. */\n// line\n/* block */\npublic class T {\n  /** f */ /* x */ int f;\n  /** a */\n  /** b */ void g() {}\n}\n",
        );
        assert!(o.classes[0].javadoc.present);
        assert_eq!(o.classes[0].methods[0].javadoc.start_line, Some(9));
    }

    #[test]
    fn generics_with_shifts() {
        let o = accepted(
            "class T<K extends Comparable<? super K>, V> extends java.util.HashMap<K, java.util.List<java.util.Map<K,V>>> implements Cloneable {\n  Map<String, List<Set<Integer>>> m = new HashMap<>(), n;\n  <T extends A & B> T max(List<? extends T>  c) { return null; }\n}\n",
        );
        assert_eq!(o.classes[0].fields.len(), 2);
    }

    #[test]
    fn annotations_with_arguments_and_comments() {
        accepted(
            "@SuppressWarnings({\"a\", /* c */ \"b\",})\n@A(x = 1 + 2, y = @B(\"q\"), z = {})\n@java.lang.Deprecated(since=\"9\" , forRemoval = true) public final class T {\n  @A(value = Foo.class) @B  protected  static int x = 1 << 3;\n}\n",
        );
    }

    #[test]
    fn varargs_arrays_and_params() {
        let o = accepted(
            "class T {\n  int a[], b[][] = {{1}}, c;\n  void f(final @A String... xs) {}\n  int g(int a[], int[] b) [] { return null; }\n  T(final int x, java.util.List<String>[] l) throws IOException, E {}\n}\n",
        );
        assert_eq!(o.classes[0].fields[1].type_text, "int[][]");
        assert_eq!(o.classes[0].methods[0].params[0].type_text, "String...");
    }

    #[test]
    fn records_with_compact_constructors() {
        let o = accepted(
            "record P<T>(int x, T y, String... z) implements Q {\n  P {\n    check(x);\n  }\n  P(int x) { this(x, null); }\n  static int n;\n  record Inner(int a) {}\n}\n",
        );
        assert!(o.classes[0].constructors[0].compact);
        assert_eq!(o.classes[0].constructors[0].params.len(), 3);
    }

    #[test]
    fn enums_with_bodies_on_constants() {
        let o = accepted(
            "enum E implements I {\n  /** a */ A(1) { void f() {} },\n  @Deprecated B,\n  C(new int[] {1}, x -> x + 1);\n  private final int v;\n  E(int v) { this.v = v; }\n  E() { this(0); }\n  abstract static class X {}\n}\n",
        );
        assert_eq!(o.classes[0].enum_constants.as_ref().map(Vec::len), Some(3));
        accepted("enum E { A, B, }\n");
        accepted("enum E { ; static int x; }\n");
    }

    #[test]
    fn annotation_elements_with_defaults() {
        let o = accepted(
            "@interface A {\n  String value() default \"\";\n  int[] ns() default {1, 2};\n  Class<?> c() default Object.class;\n  B b() default @B(x = 1);\n  int N = 3;\n  enum K { X }\n}\n",
        );
        assert_eq!(o.classes[0].methods[1].signature_text, "int[] ns() default {1, 2}");
    }

    #[test]
    fn nested_sealed_permits_and_default_methods() {
        accepted(
            "public sealed interface S<T> extends A, B<T> permits S.X, S.Y {\n  default int f() { return 1; }\n  static void g() {}\n  int h();\n  final class X implements S<String> {}\n  non-sealed class Y implements S<Integer> { class Z { interface W {} } }\n}\n",
        );
    }

    #[test]
    fn initializers_the_recognizer_reads() {
        accepted(
            "class T {\n  static final Unsafe U = Unsafe.getUnsafe();\n  static final long O = U.objectFieldOffset(T.class, \"x\");\n  Runnable r = () -> {};\n  Function<String, Integer> f = s -> s.length(), g = String::length;\n  Object o = (Object) (a < b ? c : d);\n  int[] xs = new int[3];\n  String s = x instanceof String t ? t : \"\";\n  Class<?> k = int[].class;\n  List<String> l = Collections.<String>emptyList();\n  static { }\n  { }\n}\n",
        );
    }

    #[test]
    fn type_annotations_inside_types() {
        let o = accepted(
            "class T<@A X extends @B Comparable<X>> extends @C S implements @A I<@B String> {\n  List<@Nullable String> f(Map<@A ? extends @B K, V> m) throws @C E { }\n  String @A [] @B [] g;\n  java.lang.@A String h;\n  public @Nullable Object i() { return null; }\n}\n",
        );
        assert_eq!(o.classes[0].fields[0].type_text, "String @A [] @B []");
        assert_eq!(o.classes[0].methods[0].return_type_text, "List<@Nullable String>");
    }

    #[test]
    fn varargs_annotations_hex_floats_package_annotations_and_contextual_names() {
        let o = accepted(
            "class T {\n  void f(@Nullable Object @Nullable ... args) {}\n  void g(String @A [] @B(x = 1) ... xs) {}\n  static final double D = 0x1.0p-53, E = 0x1p3f;\n  public static native void yield();\n  void h(int record, long when, String permits, int var) {}\n}\n",
        );
        assert_eq!(o.classes[0].methods[0].params[0].type_text, "Object @Nullable ...");
        assert_eq!(o.classes[0].methods[1].params[0].type_text, "String @A [] @B(x = 1) ...");
        let o = accepted("/** p */\n@Deprecated\npackage a.b;\n");
        assert_eq!(o.package.as_deref(), Some("a.b"));
    }

    #[test]
    fn deep_and_long_inputs_stay_bounded() {
        // Nested types past the bound decline (tree-sitter's path leaves them out with an error).
        let nested = format!("{}{}\n", "class A { ".repeat(40), "}".repeat(40));
        assert!(same(&nested).is_none());
        accepted(&format!("{}{}\n", "class A { ".repeat(20), "}".repeat(20)));
        // Deep type arguments and parentheses decline at the depth bound.
        let generics = format!("class T {{ {}String{} x; }}\n", "List<".repeat(200), ">".repeat(200));
        assert!(same(&generics).is_none());
        let parens = format!("class T {{ int x = {}f(){}; }}\n", "(".repeat(200), ")".repeat(200));
        assert!(same(&parens).is_none());
        // Casts and parentheses in a long chain: the cast tried first must not make the
        // backtracking exponential.
        let chain: Vec<String> = (0..300).map(|k| format!("(a{k})")).collect();
        let started = std::time::Instant::now();
        same(&format!("class T {{ int x = {} + f(); }}\n", chain.join(" + ")));
        same(&format!("class T {{ int x = {} ; }}\n", chain.join(" ")));
        same(&format!("class T {{ int x = {} - ; }}\n", chain.join(" - ")));
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    }

    #[test]
    fn declines_what_it_does_not_know() {
        // Varargs dimensions, a syntax error, a compound assignment, Lombok, a receiver parameter, an
        // annotated cast, a module.
        for src in [
            "class T { void f(int... xs[]) {} }\n",
            "class T { int x = ; }\n",
            "class T { int x = a += 1; }\n",
            "import lombok.Data;\n@Data class T { int x; }\n",
            "class T { void f(T this) {} }\n",
            "class T { Object o = (@A String) x; }\n",
            "module m { }\n",
            "class T { int x }\n",
            "class T { void f() {} \n",
        ] {
            assert!(same(src).is_none(), "accepted:\n{src}");
        }
    }

    #[test]
    fn fast_outlines_equal_tree_sitters_over_fixtures_and_the_jdk() {
        let (files, jdk_start) = crate::test_corpus();
        let jdk_total = files.len() - jdk_start;
        let mut jdk_fast = 0;
        for (k, f) in files.iter().enumerate() {
            let bytes = std::fs::read(f).expect("read");
            let name = f.to_string_lossy();
            if let Some(fast) = outline_declarations_fast(&name, &bytes) {
                assert_eq!(fast, outline_declarations_tree_sitter(&name, &bytes), "{name}");
                jdk_fast += usize::from(k >= jdk_start);
            }
        }
        if jdk_total > 0 {
            assert!(jdk_fast * 10 >= jdk_total * 9, "only {jdk_fast} of {jdk_total} JDK files outlined fast");
        }
    }
}
