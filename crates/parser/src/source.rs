//! Source text as Java sees it: decoding (UTF-8, BOM, UTF-16, Latin-1 fallback) and a line
//! table where CR, LF and CRLF each end a line, as in the Java language specification (§3.4).

use mji_model::{Diagnostic, Level};

/// A decoded source file: its text, its lines, and any warnings about how it was decoded.
#[derive(Debug, Clone)]
pub struct SourceText {
    pub text: String,
    pub lines: LineIndex,
    pub warnings: Vec<Diagnostic>,
}

impl SourceText {
    /// Decodes raw file bytes. Never fails: undecodable bytes are read as ISO-8859-1 with a
    /// warning. A UTF-8 byte-order mark becomes three spaces so that byte offsets keep their
    /// meaning.
    pub fn decode(bytes: &[u8]) -> SourceText {
        let (text, warnings) = SourceText::decode_text(bytes);
        let lines = LineIndex::new(&text);
        SourceText { text, lines, warnings }
    }

    /// [`SourceText::decode`]'s text and warnings without its line table (the workspace index
    /// outlines a file's skeleton, whose lines are the text's: 2% of a cold index went to a
    /// table never read).
    pub fn decode_text(bytes: &[u8]) -> (String, Vec<Diagnostic>) {
        let mut warnings = Vec::new();
        let text = if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
            let mut t = String::with_capacity(bytes.len());
            t.push_str("   ");
            t.push_str(&decode_utf8_or_latin1(rest, &mut warnings));
            t
        } else if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
            let le = bytes[0] == 0xFF;
            let units = bytes[2..]
                .chunks_exact(2)
                .map(|c| if le { u16::from_le_bytes([c[0], c[1]]) } else { u16::from_be_bytes([c[0], c[1]]) });
            warnings.push(Diagnostic {
                level: Level::Warning,
                message: format!(
                    "file is UTF-16 ({}); decoded to UTF-8",
                    if le { "little-endian" } else { "big-endian" }
                ),
                line: None,
            });
            char::decode_utf16(units).map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER)).collect()
        } else {
            decode_utf8_or_latin1(bytes, &mut warnings)
        };
        (text, warnings)
    }

    /// The text of lines `first..=last` (1-based, with their terminators) of raw file bytes,
    /// exactly as in [`SourceText::decode`]'s text, without copying or indexing the rest of
    /// the file: a javadoc's lines of a 10,000-line file. Only a UTF-16 file is decoded whole.
    pub fn decode_lines(bytes: &[u8], first: u32, last: u32) -> String {
        if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
            let src = SourceText::decode(bytes);
            let (a, b) = (src.lines.line_start(first), src.lines.line_start(last.saturating_add(1)));
            return src.text.get(a..b.max(a)).unwrap_or_default().to_owned();
        }
        // Line terminators are ASCII, so the lines' byte offsets are the decoded text's: a BOM
        // becomes as many spaces, and Latin-1 is chosen for the whole file or not at all.
        let bom = bytes.starts_with(&[0xEF, 0xBB, 0xBF]);
        let utf8 = std::str::from_utf8(&bytes[if bom { 3 } else { 0 }..]).is_ok();
        let a = line_start_in(bytes, first);
        let b = a + line_start_in(&bytes[a..], last.saturating_add(2).saturating_sub(first.max(1)));
        let in_bom = if bom { 3usize.saturating_sub(a).min(b - a) } else { 0 };
        let rest = &bytes[a + in_bom..b];
        let mut out = String::with_capacity(b - a);
        out.extend(std::iter::repeat_n(' ', in_bom));
        match std::str::from_utf8(rest) {
            Ok(s) if utf8 => out.push_str(s),
            _ => out.extend(rest.iter().map(|&c| c as char)),
        }
        out
    }
}

/// Byte offset where 1-based `line` starts in `bytes` (CR, LF and CRLF end lines), or the
/// length past the last line: [`LineIndex::line_start`] without indexing the lines after it.
fn line_start_in(bytes: &[u8], line: u32) -> usize {
    let mut at = 0;
    for _ in 1..line {
        let Some(i) = memchr::memchr2(b'\n', b'\r', &bytes[at..]) else { return bytes.len() };
        at += i + 1;
        if bytes[at - 1] == b'\r' && bytes.get(at) == Some(&b'\n') {
            at += 1;
        }
    }
    at
}

fn decode_utf8_or_latin1(bytes: &[u8], warnings: &mut Vec<Diagnostic>) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(e) => {
            let bad = e.valid_up_to();
            let line = LineIndex::new(&String::from_utf8_lossy(&bytes[..bad])).line_count().max(1);
            warnings.push(Diagnostic {
                level: Level::Warning,
                message: format!(
                    "file is not valid UTF-8 (byte 0x{:02X} at line {line}); read as ISO-8859-1",
                    bytes[bad]
                ),
                line: Some(line),
            });
            bytes.iter().map(|&b| b as char).collect()
        }
    }
}

/// Start offsets of lines; CR, LF and CRLF are line terminators.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
    ends_with_terminator: bool,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = Vec::with_capacity(bytes.len() / 32 + 1);
        starts.push(0);
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' => {
                    if bytes.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    starts.push(i + 1);
                }
                _ => {}
            }
            i += 1;
        }
        let ends_with_terminator = matches!(bytes.last(), Some(b'\n' | b'\r'));
        LineIndex { starts, len: bytes.len(), ends_with_terminator }
    }

    /// Number of lines; a final terminator does not start a new line, an empty text has none.
    pub fn line_count(&self) -> u32 {
        if self.len == 0 {
            0
        } else if self.ends_with_terminator {
            (self.starts.len() - 1) as u32
        } else {
            self.starts.len() as u32
        }
    }

    /// 1-based line of a byte offset (an offset at or past the end is on the last line).
    pub fn line_of(&self, offset: usize) -> u32 {
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        };
        (line as u32).clamp(1, self.line_count().max(1))
    }

    /// Byte offset where a 1-based line starts.
    pub fn line_start(&self, line: u32) -> usize {
        self.starts.get((line as usize).saturating_sub(1)).copied().unwrap_or(self.len)
    }

    /// The text of a 1-based line without its terminator.
    pub fn line_text<'a>(&self, text: &'a str, line: u32) -> &'a str {
        let start = self.line_start(line);
        let end = self.starts.get(line as usize).copied().unwrap_or(self.len);
        text[start..end].trim_end_matches(['\n', '\r'])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_terminator_ends_a_line() {
        let t = "a\nb\r\nc\rd";
        let li = LineIndex::new(t);
        assert_eq!(li.line_count(), 4);
        assert_eq!(li.line_of(0), 1);
        assert_eq!(li.line_of(2), 2);
        assert_eq!(li.line_of(5), 3);
        assert_eq!(li.line_of(7), 4);
        assert_eq!(li.line_text(t, 2), "b");
        assert_eq!(li.line_text(t, 3), "c");
        assert_eq!(li.line_text(t, 4), "d");
    }

    #[test]
    fn final_terminator_does_not_add_a_line() {
        assert_eq!(LineIndex::new("").line_count(), 0);
        assert_eq!(LineIndex::new("x").line_count(), 1);
        assert_eq!(LineIndex::new("x\n").line_count(), 1);
        assert_eq!(LineIndex::new("x\r\n\r\n").line_count(), 2);
    }

    #[test]
    fn decode_lines_is_the_decoded_texts_lines() {
        let files: [&[u8]; 7] = [
            b"a\nb\r\nc\rd",
            b"a\nb\r\nc\rd\n",
            b"\xEF\xBB\xBFx\ny\r\n\xC3\xA9z\n",
            b"\xEF\xBB\xBF\n",
            b"// caf\xE9\r\nclass A {}\n/** \xE9 */\n",
            b"\xFF\xFEa\x00\n\x00b\x00\r\x00\n\x00c\x00",
            b"",
        ];
        for bytes in files {
            let src = SourceText::decode(bytes);
            for first in 0..7 {
                for last in 0..7 {
                    let (a, b) = (src.lines.line_start(first), src.lines.line_start(last + 1));
                    let want = src.text.get(a..b.max(a)).unwrap_or_default();
                    assert_eq!(SourceText::decode_lines(bytes, first, last), want, "{bytes:?} {first}..={last}");
                }
            }
        }
    }

    #[test]
    fn bom_keeps_offsets_and_latin1_is_a_warning() {
        let s = SourceText::decode(b"\xEF\xBB\xBFclass A {}");
        assert_eq!(s.text, "   class A {}");
        assert!(s.warnings.is_empty());
        let s = SourceText::decode(b"// caf\xE9\nclass A {}");
        assert_eq!(s.text, "// caf\u{e9}\nclass A {}");
        assert_eq!(s.warnings.len(), 1);
        assert!(s.warnings[0].message.contains("ISO-8859-1"), "{:?}", s.warnings);
    }
}

/// The text given to tree-sitter: Java's unicode escapes (`\u0041`, JLS §3.3) translated, and
/// `@ interface` (legal Java, one token in the grammar) joined to `@interface`. Offsets in it
/// map back to offsets in the original text, so lines stay javac's.
///
/// Java that tree-sitter-java 0.23.5 does not parse is rewritten in place, byte for byte (no
/// offset moves, no line terminator touched):
/// - raw NUL bytes (legal in literals) become spaces: tree-sitter's lexer reads NUL as the
///   end of input, which cut the file short;
/// - type annotations before a varargs `...` (`Object @Nullable ... args`) are blanked, since
///   the grammar has no annotations there; [`Prepared::shown`] keeps the text with them, for
///   the parameter's type as written;
/// - the dots of a qualified record pattern's type (`o instanceof Outer.Inner(int n)`, `case
///   Outer.Circle(...)`) become `$`, one identifier to the grammar, which only knows simple and
///   generic names there; [`Prepared::joined_segments`] gives the names back.
#[derive(Debug, Clone)]
pub struct Prepared<'a> {
    pub text: std::borrow::Cow<'a, str>,
    /// (prepared start, prepared end, original start, original end) of each translated escape.
    escapes: Vec<(usize, usize, usize, usize)>,
    /// (new offset, old offset) of each `@` moved next to its `interface`.
    moved_at: Vec<(usize, usize)>,
    /// The prepared text before varargs type annotations were blanked, when any were.
    shown: Option<String>,
    /// Joined qualified record-pattern types: the identifier's start and its names' ranges.
    joined: Vec<(usize, Vec<(usize, usize)>)>,
}

impl<'a> Prepared<'a> {
    pub fn new(text: &'a str) -> Prepared<'a> {
        let (text, escapes) = if memchr::memmem::find(text.as_bytes(), b"\\u").is_some() {
            let (t, e) = translate_unicode_escapes(text);
            (std::borrow::Cow::Owned(t), e)
        } else {
            (std::borrow::Cow::Borrowed(text), Vec::new())
        };
        let mut p = Prepared { text, escapes, moved_at: Vec::new(), shown: None, joined: Vec::new() };
        p.join_spaced_at_interface();
        if memchr::memchr(0, p.text.as_bytes()).is_some() {
            // NUL ends tree-sitter's input; a space keeps the offset (only legal in literals).
            p.text = std::borrow::Cow::Owned(p.text.replace('\0', " "));
        }
        p.rewrite_unparsed_syntax();
        p
    }

    /// The prepared text as written: with the type annotations that were blanked for the
    /// parser. Same length and offsets as [`Prepared::text`].
    pub fn shown(&self) -> &str {
        self.shown.as_deref().unwrap_or(&self.text)
    }

    /// When the identifier starting at `start` is a qualified record-pattern type joined for
    /// the parser, the (start, end) of each of its names.
    pub fn joined_segments(&self, start: usize) -> Option<&[(usize, usize)]> {
        let i = self.joined.binary_search_by_key(&start, |j| j.0).ok()?;
        Some(&self.joined[i].1)
    }

    /// Blanks varargs type annotations and joins qualified record-pattern types (see the type
    /// documentation).
    fn rewrite_unparsed_syntax(&mut self) {
        let t: &str = &self.text;
        let varargs = memchr::memchr(b'@', t.as_bytes()).is_some() && may_annotate_varargs(t);
        let patterns = may_have_record_pattern(t) || may_list_unnamed_patterns(t);
        if !varargs && !patterns {
            return;
        }
        let b = t.as_bytes();
        let toks = lex(b);
        let mut blanks: Vec<(usize, usize)> = Vec::new();
        if varargs {
            for (i, tok) in toks.iter().enumerate() {
                if tok.kind == TokKind::Ellipsis
                    && let Some(span) = annotations_before(&toks, b, i)
                {
                    blanks.push(span);
                }
            }
        }
        let mut joins: Vec<Vec<(usize, usize)>> = Vec::new();
        let mut dollars: Vec<usize> = Vec::new();
        if patterns {
            for (i, tok) in toks.iter().enumerate() {
                if tok.kind == TokKind::Word && matches!(&b[tok.start..tok.end], b"instanceof" | b"case") {
                    let is_case = b[tok.start..tok.end] == *b"case";
                    let mut k = i + 1;
                    // `case A _, B(..) ->` lists several patterns (Java 22, with `_`): each
                    // pattern's token range.
                    let mut listed: Vec<(usize, usize)> = Vec::new();
                    for _ in 0..64 {
                        let Some(mut end) = pattern(&toks, b, k, &mut joins, 0) else { break };
                        // A type pattern's binding (`_`, or a name javac would refuse here).
                        if is_case
                            && end > k
                            && toks.get(end).is_some_and(|t| t.kind == TokKind::Word && b[t.start..t.end] != *b"when")
                        {
                            end += 1;
                        }
                        listed.push((k, end));
                        if !is_case || !toks.get(end).is_some_and(|t| t.is_punct(b, b',')) {
                            break;
                        }
                        k = end + 1;
                    }
                    if listed.len() > 1 {
                        let (more_blanks, more_dollars) = several_patterns(&toks, b, &listed);
                        blanks.extend(more_blanks);
                        dollars.extend(more_dollars);
                    }
                }
            }
        }
        if blanks.is_empty() && joins.is_empty() && dollars.is_empty() {
            return;
        }
        let mut owned = std::mem::take(&mut self.text).into_owned().into_bytes();
        if !blanks.is_empty() {
            self.shown = Some(String::from_utf8_lossy(&owned).into_owned());
        }
        for &(s, e) in &blanks {
            for c in &mut owned[s..e] {
                if *c != b'\n' && *c != b'\r' {
                    *c = b' ';
                }
            }
        }
        for d in dollars {
            owned[d] = b'$';
        }
        // A record pattern blanked whole (after the first of a `case` label's list) is not joined.
        joins.retain(|j| j.first().is_none_or(|f| !blanks.iter().any(|&(s, e)| s <= f.0 && f.0 < e)));
        joins.sort_by_key(|j| j.first().map_or(0, |s| s.0));
        joins.dedup();
        for segs in &joins {
            for w in segs.windows(2) {
                owned[w[0].1..w[1].0].iter_mut().for_each(|c| *c = b'$');
            }
        }
        self.joined = joins.into_iter().filter_map(|segs| Some((segs.first()?.0, segs))).collect();
        // Only whole tokens became spaces and ASCII gaps became `$`: still UTF-8.
        self.text = std::borrow::Cow::Owned(String::from_utf8(owned).unwrap_or_default());
    }

    /// The original offset of a prepared-text offset.
    pub fn to_original(&self, mut t: usize) -> usize {
        if let Some(&(_, old)) = self.moved_at.iter().find(|(new, _)| *new == t) {
            t = old;
        }
        let i = self.escapes.partition_point(|e| e.0 <= t);
        if i == 0 {
            return t;
        }
        let (_, t_end, o_start, o_end) = self.escapes[i - 1];
        if t < t_end { o_start } else { o_end + (t - t_end) }
    }

    fn join_spaced_at_interface(&mut self) {
        let bytes = self.text.as_bytes();
        let mut moves = Vec::new();
        // memchr: a byte loop here was half of the preparation of a whole file.
        for at in memchr::memchr_iter(b'@', bytes) {
            let mut j = at + 1;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            let word_end = j + "interface".len();
            if j > at + 1
                && bytes[j..].starts_with(b"interface")
                && !bytes.get(word_end).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'$')
            {
                moves.push((j - 1, at));
            }
        }
        if moves.is_empty() {
            return;
        }
        let mut owned = std::mem::take(&mut self.text).into_owned().into_bytes();
        for &(new, old) in &moves {
            owned[old] = b' ';
            owned[new] = b'@';
        }
        // Only ASCII bytes were swapped, so the text is still UTF-8.
        self.text = std::borrow::Cow::Owned(String::from_utf8(owned).unwrap_or_default());
        self.moved_at = moves;
    }
}

/// Whether an annotation may come right before a `...` (`String @NonNull ... args`): a `)`
/// or an `@`-prefixed name just before it. A false positive only costs the full lex.
fn may_annotate_varargs(t: &str) -> bool {
    let b = t.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.' || c >= 0x80;
    memchr::memmem::find_iter(b, b"...").any(|i| {
        let mut j = i;
        while j > 0 && b[j - 1].is_ascii_whitespace() {
            j -= 1;
        }
        if j > 0 && b[j - 1] == b')' {
            return true;
        }
        let end = j;
        while j > 0 && ident(b[j - 1]) {
            j -= 1;
        }
        end > j && j > 0 && b[j - 1] == b'@'
    })
}

/// Whether a `case` label may list type patterns binding `_` (`case A _, B _ ->`): a `_` word
/// after whitespace, then a `,` (whitespace between).
fn may_list_unnamed_patterns(t: &str) -> bool {
    let b = t.as_bytes();
    memchr::memchr_iter(b'_', b).any(|i| {
        i > 0 && b[i - 1].is_ascii_whitespace() && b[i + 1..].iter().find(|c| !c.is_ascii_whitespace()) == Some(&b',')
    })
}

/// Whether `instanceof` or `case` may be followed by a record pattern: the keyword, then a
/// qualified name with optional type arguments, then `(` (comments and whitespace between).
/// Most files have none and skip the full lex; a false positive only costs that lex.
fn may_have_record_pattern(t: &str) -> bool {
    let b = t.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
    // Whitespace and comments from `j`.
    let skip = |mut j: usize| loop {
        match (b.get(j), b.get(j + 1)) {
            (Some(c), _) if c.is_ascii_whitespace() => j += 1,
            (Some(b'/'), Some(b'*')) => match t[j + 2..].find("*/") {
                Some(k) => j += k + 4,
                None => return b.len(),
            },
            (Some(b'/'), Some(b'/')) => j = t[j..].find('\n').map_or(b.len(), |k| j + k),
            _ => return j,
        }
    };
    ["instanceof", "case"].iter().any(|kw| {
        memchr::memmem::find_iter(b, kw.as_bytes()).any(|i| {
            let mut j = i + kw.len();
            if (i > 0 && ident(b[i - 1])) || b.get(j).is_some_and(|&c| ident(c)) {
                return false;
            }
            // A qualified name: words joined by dots.
            loop {
                j = skip(j);
                let start = j;
                while b.get(j).is_some_and(|&c| ident(c)) {
                    j += 1;
                }
                if j == start {
                    return false;
                }
                j = skip(j);
                if b.get(j) != Some(&b'.') {
                    break;
                }
                j += 1;
            }
            // Type arguments, balanced.
            if b.get(j) == Some(&b'<') {
                let mut depth = 0usize;
                while let Some(&c) = b.get(j) {
                    match c {
                        b'<' => depth += 1,
                        b'>' => depth -= 1,
                        b';' | b'{' | b'}' | b'(' | b')' => return false,
                        _ => {}
                    }
                    j += 1;
                    if depth == 0 {
                        break;
                    }
                }
                j = skip(j);
            }
            b.get(j) == Some(&b'(')
        })
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TokKind {
    /// An identifier, keyword or number.
    Word,
    /// `...`
    Ellipsis,
    /// One byte of anything else (`.`, `(`, `<`, `@`, …); literals and comments are skipped.
    Punct,
}

#[derive(Debug, Clone, Copy)]
struct Tok {
    kind: TokKind,
    start: usize,
    end: usize,
}

impl Tok {
    fn is_punct(&self, b: &[u8], c: u8) -> bool {
        self.kind == TokKind::Punct && b[self.start] == c
    }
}

/// A rough Java lexer, enough to find annotations and patterns: words, `...` and single
/// punctuation bytes, with comments, strings, text blocks and characters skipped.
fn lex(b: &[u8]) -> Vec<Tok> {
    let mut out = Vec::with_capacity(b.len() / 4);
    let mut i = 0;
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0C => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
            }
            b'"' if b[i..].starts_with(b"\"\"\"") => {
                i += 3;
                while i < b.len() && !b[i..].starts_with(b"\"\"\"") {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 3;
            }
            b'"' | b'\'' => {
                i += 1;
                while i < b.len() && b[i] != c && b[i] != b'\n' && b[i] != b'\r' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'.' if b[i..].starts_with(b"...") => {
                out.push(Tok { kind: TokKind::Ellipsis, start: i, end: i + 3 });
                i += 3;
            }
            c if word(c) => {
                let start = i;
                while i < b.len() && word(b[i]) {
                    i += 1;
                }
                out.push(Tok { kind: TokKind::Word, start, end: i });
            }
            _ => {
                out.push(Tok { kind: TokKind::Punct, start: i, end: i + 1 });
                i += 1;
            }
        }
    }
    out
}

/// The byte span of the annotations (`@A`, `@a.B(x = 1)`, several) right before the varargs
/// `...` at `toks[i]`, when a type precedes them.
fn annotations_before(toks: &[Tok], b: &[u8], i: usize) -> Option<(usize, usize)> {
    let mut j = i.checked_sub(1)?;
    let end = toks[j].end;
    let mut start = None;
    loop {
        // An argument list, backwards to its `(`.
        let mut name_end = j;
        if toks[j].is_punct(b, b')') {
            let mut depth = 0usize;
            let mut k = j;
            loop {
                if toks[k].is_punct(b, b')') {
                    depth += 1;
                } else if toks[k].is_punct(b, b'(') {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                k = k.checked_sub(1)?;
            }
            name_end = k.checked_sub(1)?;
        }
        // A possibly qualified name, then `@`.
        let mut n = name_end;
        if toks[n].kind != TokKind::Word {
            break;
        }
        while n >= 2 && toks[n - 1].is_punct(b, b'.') && toks[n - 2].kind == TokKind::Word {
            n -= 2;
        }
        let Some(at) = n.checked_sub(1).filter(|&a| toks[a].is_punct(b, b'@')) else { break };
        start = Some(toks[at].start);
        let Some(prev) = at.checked_sub(1) else { break };
        j = prev;
    }
    let start = start?;
    // What precedes the annotations ends a type: a name, `>` or `]`.
    let before = toks[j];
    let ends_type =
        before.end <= start && (before.kind == TokKind::Word || before.is_punct(b, b'>') || before.is_punct(b, b']'));
    ends_type.then_some((start, end))
}

/// How to rewrite a `case` label listing several patterns (`case Circle _, Box(Square _) ->`,
/// Java 22), which tree-sitter-java 0.23.5 does not parse: as a label of constant expressions
/// the grammar reads, with the names kept. Such a label declares no variable, so its bindings
/// are `_`: a `_` after a type is blanked (`Circle _` is the name `Circle`), a `var` before `_`
/// too, and a lone `_` becomes `$` (`Box(_, Square _)` is the call `Box($, Square)`); the
/// resolver reads a call in a label as a record pattern. Type arguments cannot be read so
/// (`Pair<A, B>(..)`): then every pattern after the first is blanked, and their types are not
/// seen. Returns the spans to blank and the offsets of `_`s to make `$`.
fn several_patterns(toks: &[Tok], b: &[u8], listed: &[(usize, usize)]) -> (Vec<(usize, usize)>, Vec<usize>) {
    let (first, last) = (listed[0].0, listed[listed.len() - 1].1);
    let word = |t: &Tok, w: &[u8]| t.kind == TokKind::Word && b[t.start..t.end] == *w;
    let (mut blanks, mut dollars) = (Vec::new(), Vec::new());
    if toks[first..last].iter().any(|t| t.is_punct(b, b'<')) {
        if let (Some(comma), Some(end)) = (toks.get(listed[0].1), last.checked_sub(1).and_then(|l| toks.get(l))) {
            blanks.push((comma.start, end.end));
        }
        return (blanks, dollars);
    }
    for j in first..last {
        let t = &toks[j];
        if word(t, b"var") && toks.get(j + 1).is_some_and(|n| word(n, b"_")) {
            blanks.push((t.start, t.end));
        } else if word(t, b"_") {
            let after_type = j > first && toks[j - 1].kind == TokKind::Word && !word(&toks[j - 1], b"var");
            if after_type {
                blanks.push((t.start, t.end));
            } else {
                dollars.push(t.start);
            }
        }
    }
    (blanks, dollars)
}

/// Reads a pattern at `toks[k]` (after `instanceof`, `case`, or in a record pattern's list),
/// noting the names of each qualified, non-generic record pattern type in `joins`. Returns the
/// index after the pattern, or None when there is no pattern there.
fn pattern(toks: &[Tok], b: &[u8], mut k: usize, joins: &mut Vec<Vec<(usize, usize)>>, depth: u32) -> Option<usize> {
    if depth > 64 {
        return None;
    }
    if toks.get(k).is_some_and(|t| t.kind == TokKind::Word && b[t.start..t.end] == *b"final") {
        k += 1;
    }
    let first = *toks.get(k).filter(|t| t.kind == TokKind::Word)?;
    let mut segs = vec![(first.start, first.end)];
    k += 1;
    while toks.get(k).is_some_and(|t| t.is_punct(b, b'.'))
        && let Some(next) = toks.get(k + 1).filter(|t| t.kind == TokKind::Word)
    {
        segs.push((next.start, next.end));
        k += 2;
    }
    let mut generic = false;
    if toks.get(k).is_some_and(|t| t.is_punct(b, b'<')) {
        generic = true;
        let mut angle = 0usize;
        loop {
            let t = toks.get(k)?;
            if t.is_punct(b, b'<') {
                angle += 1;
            } else if t.is_punct(b, b'>') {
                angle -= 1;
                if angle == 0 {
                    break;
                }
            } else if t.is_punct(b, b';') || t.is_punct(b, b'{') {
                return None;
            }
            k += 1;
        }
        k += 1;
    }
    if !toks.get(k).is_some_and(|t| t.is_punct(b, b'(')) {
        return Some(k);
    }
    // A record pattern: its type joined when qualified (gaps of dots, spaces and tabs only).
    if segs.len() > 1
        && !generic
        && segs.windows(2).all(|w| b[w[0].1..w[1].0].iter().all(|c| matches!(c, b'.' | b' ' | b'\t')))
    {
        joins.push(segs);
    }
    // Its components: each a pattern, up to the matching `)`.
    k += 1;
    loop {
        if toks.get(k)?.is_punct(b, b')') {
            return Some(k + 1);
        }
        let after = pattern(toks, b, k, joins, depth + 1).unwrap_or(k);
        // Skip to the next `,` or the closing `)` of this list.
        let mut nest = 0usize;
        k = after;
        loop {
            let t = toks.get(k)?;
            if t.is_punct(b, b'(') {
                nest += 1;
            } else if t.is_punct(b, b')') {
                if nest == 0 {
                    break;
                }
                nest -= 1;
            } else if t.is_punct(b, b',') && nest == 0 {
                k += 1;
                break;
            } else if t.is_punct(b, b';') || t.is_punct(b, b'{') {
                return None;
            }
            k += 1;
        }
    }
}

/// Translates `\uXXXX` escapes whose backslash is not itself escaped (JLS §3.3).
fn translate_unicode_escapes(text: &str) -> (String, Vec<(usize, usize, usize, usize)>) {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut escapes = Vec::new();
    let mut copied = 0; // original offset up to which text was copied
    let mut i = 0;
    let mut backslashes = 0usize; // length of the run of raw backslashes before i
    let mut pending_high: Option<(u16, usize, usize)> = None; // high surrogate, its out/orig starts
    while i < b.len() {
        if b[i] == b'\\' && backslashes.is_multiple_of(2) {
            let mut j = i + 1;
            while j < b.len() && b[j] == b'u' {
                j += 1;
            }
            let hex =
                b.get(j..j + 4).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u16::from_str_radix(h, 16).ok());
            if j > i + 1
                && let Some(unit) = hex
            {
                out.push_str(&text[copied..i]);
                let t_start = out.len();
                let end = j + 4;
                match (unit, pending_high.take()) {
                    (0xDC00..=0xDFFF, Some((high, ht, ho))) if ht + 3 == t_start => {
                        // Combine with the high surrogate just written (as U+FFFD, 3 bytes).
                        out.truncate(ht);
                        let c = char::from_u32(0x10000 + (((high as u32) - 0xD800) << 10) + (unit as u32 - 0xDC00))
                            .unwrap_or('\u{FFFD}');
                        out.push(c);
                        escapes.pop();
                        escapes.push((ht, out.len(), ho, end));
                    }
                    (0xD800..=0xDBFF, _) => {
                        out.push('\u{FFFD}');
                        pending_high = Some((unit, t_start, i));
                        escapes.push((t_start, out.len(), i, end));
                    }
                    // NUL ends tree-sitter's input: stand in a space (only legal in literals).
                    (0, _) => {
                        out.push(' ');
                        escapes.push((t_start, out.len(), i, end));
                    }
                    _ => {
                        out.push(char::from_u32(unit as u32).unwrap_or('\u{FFFD}'));
                        escapes.push((t_start, out.len(), i, end));
                    }
                }
                copied = end;
                i = end;
                backslashes = 0;
                continue;
            }
        }
        backslashes = if b[i] == b'\\' { backslashes + 1 } else { 0 };
        i += 1;
    }
    out.push_str(&text[copied..]);
    (out, escapes)
}

#[cfg(test)]
mod prepared_tests {
    use super::Prepared;

    #[test]
    fn unicode_escapes_are_translated_and_offsets_map_back() {
        let src = "int \\u0061bc; String s = \"\\\\u0041\"; \\uuu007B";
        let p = Prepared::new(src);
        assert_eq!(p.text, "int abc; String s = \"\\\\u0041\"; {");
        let brace = p.text.find('{').expect("brace");
        assert_eq!(p.to_original(brace), src.find("\\uuu007B").expect("escape"));
        assert_eq!(p.to_original(4), 4);
        assert_eq!(p.to_original(5), 10);
    }

    #[test]
    fn surrogate_pairs_combine() {
        let p = Prepared::new("\"\\uD83D\\uDE00\"");
        assert_eq!(p.text, "\"\u{1F600}\"");
    }

    #[test]
    fn nul_varargs_annotations_and_qualified_record_patterns_are_rewritten_in_place() {
        let src = "void f(String s, @A Object @B @c.D(x = \")\") ... args) { s = \"\0\"; }";
        let p = Prepared::new(src);
        assert_eq!(p.text.len(), src.len());
        let blanked = format!("@A Object {}... args", " ".repeat("@B @c.D(x = \")\") ".len()));
        assert!(p.text.contains(&blanked), "{}", p.text);
        assert!(p.text.contains("\" \""));
        assert_eq!(p.shown().replace('\0', " "), src.replace('\0', " "));
        let src = "if (o instanceof Cache.Some(int n) && p instanceof a . B<T>(C.D(var x), _)) {}\n\
                   switch (o) { case Outer.Circle(Outer.Point p, int r) when r > 0 -> 1; case X.Y.Z(), Q.R() -> 2; case E.F: }";
        let p = Prepared::new(src);
        assert!(p.text.contains("instanceof Cache$Some(int n)"), "{}", p.text);
        assert!(p.text.contains("a . B<T>(C$D(var x), _)"), "generic stays, its component joins: {}", p.text);
        assert!(p.text.contains("case Outer$Circle(Outer.Point p, int r)"), "{}", p.text);
        assert!(p.text.contains("case X$Y$Z(), Q$R()"), "{}", p.text);
        assert!(p.text.contains("case E.F:"), "{}", p.text);
        let at = p.text.find("Cache$Some").expect("joined");
        assert_eq!(p.joined_segments(at), Some(&[(at, at + 5), (at + 6, at + 10)][..]));
        // A label listing patterns: `_` after a type blanked, `var` before `_` too, a lone `_`
        // is `$`; with type arguments, the patterns after the first are blanked.
        let src2 = "switch (o) { case A _, B.C(_, var _, D _) -> 1; case P<X>(Y _), Q _ -> 2; }";
        let p2 = Prepared::new(src2);
        assert_eq!(p2.text.len(), src2.len());
        assert!(p2.text.contains("case A  , B$C($,     $, D  ) -> 1;"), "{}", p2.text);
        assert!(p2.text.contains(&format!("case P<X>(Y _){} -> 2;", " ".repeat(", Q _".len()))), "{}", p2.text);
        // Comments and strings are not code.
        let p = Prepared::new("// case A.B(x)\nString s = \"instanceof A.B(x)\"; /* @A ... */");
        assert!(!p.text.contains('$') && !p.text.contains("  ..."), "{}", p.text);
    }

    #[test]
    fn spaced_at_interface_is_joined() {
        let p = Prepared::new("@ \n interface A {}");
        assert_eq!(p.text, "  \n@interface A {}");
        assert_eq!(p.to_original(3), 0);
    }
}
