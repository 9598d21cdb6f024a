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
        let lines = LineIndex::new(&text);
        SourceText { text, lines, warnings }
    }
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
#[derive(Debug, Clone)]
pub struct Prepared<'a> {
    pub text: std::borrow::Cow<'a, str>,
    /// (prepared start, prepared end, original start, original end) of each translated escape.
    escapes: Vec<(usize, usize, usize, usize)>,
    /// (new offset, old offset) of each `@` moved next to its `interface`.
    moved_at: Vec<(usize, usize)>,
}

impl<'a> Prepared<'a> {
    pub fn new(text: &'a str) -> Prepared<'a> {
        let (text, escapes) = if text.contains("\\u") {
            let (t, e) = translate_unicode_escapes(text);
            (std::borrow::Cow::Owned(t), e)
        } else {
            (std::borrow::Cow::Borrowed(text), Vec::new())
        };
        let mut p = Prepared { text, escapes, moved_at: Vec::new() };
        p.join_spaced_at_interface();
        p
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
        let mut i = 0;
        while let Some(k) = bytes[i..].iter().position(|&b| b == b'@') {
            let at = i + k;
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
            i = at + 1;
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
    fn spaced_at_interface_is_joined() {
        let p = Prepared::new("@ \n interface A {}");
        assert_eq!(p.text, "  \n@interface A {}");
        assert_eq!(p.to_original(3), 0);
    }
}
