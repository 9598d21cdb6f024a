//! The documents the client has open: their text as the editor shows it (full and
//! incremental sync), and LSP positions (0-based lines, UTF-16 columns) turned into the tools'
//! (1-based lines, 1-based UTF-16 columns) and back.

use std::collections::HashMap;

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

/// One open document.
#[derive(Debug, Clone)]
pub struct Doc {
    /// The file's canonical path inside the roots (None outside them).
    pub path: Option<std::path::PathBuf>,
    pub text: String,
    pub version: i32,
    /// The buffer differs from the file on disk (edited since it was opened or saved): the
    /// tools read files, so answers on it are the saved file's.
    pub dirty: bool,
}

/// The open documents, by URI as the client spelled it.
#[derive(Debug, Default)]
pub struct Docs(HashMap<String, Doc>);

impl Docs {
    pub fn open(
        &mut self,
        uri: &str,
        path: Option<std::path::PathBuf>,
        text: String,
        version: i32,
        on_disk: Option<&str>,
    ) {
        let dirty = on_disk != Some(text.as_str());
        self.0.insert(uri.to_owned(), Doc { path, text, version, dirty });
    }

    /// The URIs the client opened a file by (its canonical path).
    pub fn uris_of(&self, path: &std::path::Path) -> Vec<String> {
        self.0.iter().filter(|(_, d)| d.path.as_deref() == Some(path)).map(|(u, _)| u.clone()).collect()
    }

    /// The open document of a file, by its canonical path.
    pub fn of_path(&self, path: &std::path::Path) -> Option<&Doc> {
        self.0.values().find(|d| d.path.as_deref() == Some(path))
    }

    pub fn get(&self, uri: &str) -> Option<&Doc> {
        self.0.get(uri)
    }

    /// Applies a `didChange`'s changes in order: a change with a range replaces that range, one
    /// without replaces the whole text.
    pub fn change(&mut self, uri: &str, version: i32, changes: Vec<TextDocumentContentChangeEvent>) {
        let Some(doc) = self.0.get_mut(uri) else {
            tracing::warn!(uri, "didChange for a document that is not open");
            return;
        };
        for c in changes {
            match c.range {
                Some(r) => {
                    let start = offset(&doc.text, r.start);
                    let end = offset(&doc.text, r.end).max(start);
                    doc.text.replace_range(start..end, &c.text);
                }
                None => doc.text = c.text,
            }
        }
        doc.version = version;
        doc.dirty = true;
    }

    /// `didSave`: the buffer is the file again (its text when the client sent it).
    pub fn saved(&mut self, uri: &str, text: Option<String>, on_disk: Option<&str>) {
        if let Some(doc) = self.0.get_mut(uri) {
            if let Some(t) = text {
                doc.text = t;
            }
            doc.dirty = on_disk != Some(doc.text.as_str());
        }
    }

    pub fn close(&mut self, uri: &str) {
        self.0.remove(uri);
    }
}

/// The byte offset of an LSP position in `text` (a position past a line's end is its end; past
/// the text's end, the end).
pub fn offset(text: &str, pos: Position) -> usize {
    let mut start = 0;
    for _ in 0..pos.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let mut line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    // A `\r` before the `\n` is not a column a position can point past.
    if text[start..line_end].ends_with('\r') {
        line_end -= 1;
    }
    let mut units = 0u32;
    for (i, ch) in text[start..line_end].char_indices() {
        if units >= pos.character {
            return start + i;
        }
        units += ch.len_utf16() as u32;
    }
    line_end
}

/// The LSP position of a byte offset in `text`.
pub fn position(text: &str, offset: usize) -> Position {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = before[line_start..].encode_utf16().count() as u32;
    Position { line, character }
}

/// The text of a 1-based line (without its line ending), or "" past the end.
pub fn line_text(text: &str, line: u32) -> &str {
    text.split('\n').nth(line.saturating_sub(1) as usize).map_or("", |l| l.strip_suffix('\r').unwrap_or(l))
}

fn is_id(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// A text's lines, split once: a line's text without scanning the text before it (an answer
/// with many positions in one file looks at each of their lines).
pub struct Lines<'a>(Vec<&'a str>);

impl<'a> Lines<'a> {
    pub fn of(text: &'a str) -> Lines<'a> {
        Lines(text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect())
    }

    /// The text of a 1-based line (without its line ending), or "" past the end: as
    /// [`line_text`].
    pub fn line(&self, line: u32) -> &'a str {
        self.0.get(line.saturating_sub(1) as usize).copied().unwrap_or("")
    }
}

/// The identifier at an LSP position (the cursor inside it or just after it), with its range.
pub fn word_at(text: &str, pos: Position) -> Option<(String, Range)> {
    word_in_line(line_text(text, pos.line + 1), pos)
}

/// [`word_at`] in the text of the position's line.
pub fn word_in_line(line: &str, pos: Position) -> Option<(String, Range)> {
    let mut units = 0u32;
    let mut at = line.len();
    for (i, ch) in line.char_indices() {
        if units >= pos.character {
            at = i;
            break;
        }
        units += ch.len_utf16() as u32;
    }
    let inside = line[at..].chars().next().is_some_and(is_id);
    let after = line[..at].chars().next_back().is_some_and(is_id);
    if !inside && !after {
        return None;
    }
    let start = line[..at].char_indices().rev().take_while(|(_, c)| is_id(*c)).last().map_or(at, |(i, _)| i);
    let end = line[at..].char_indices().find(|(_, c)| !is_id(*c)).map_or(line.len(), |(i, _)| at + i);
    let word = &line[start..end];
    if word.chars().next().is_none_or(|c| c.is_ascii_digit()) {
        return None;
    }
    let col = |b: usize| line[..b].encode_utf16().count() as u32;
    let range = Range {
        start: Position { line: pos.line, character: col(start) },
        end: Position { line: pos.line, character: col(end) },
    };
    Some((word.to_owned(), range))
}

/// Where `name` is first written as a whole word on lines `from..=to` (1-based), skipping
/// comments' lines (`*`, `//`, `/*`) and annotations' words: a declaration's name in its
/// outline range, for a symbol's selection range.
pub fn find_name(text: &str, name: &str, from: u32, to: u32) -> Option<Range> {
    find_name_in(|n| line_text(text, n), name, from, to)
}

/// [`find_name`] over a text's lines (`line`: the text of a 1-based line).
pub fn find_name_in<'a>(line: impl Fn(u32) -> &'a str, name: &str, from: u32, to: u32) -> Option<Range> {
    if name.is_empty() {
        return None;
    }
    for line_no in from.max(1)..=to.max(from) {
        let line = line(line_no);
        let trimmed = line.trim_start();
        if trimmed.starts_with('*') || trimmed.starts_with("//") || trimmed.starts_with("/*") {
            continue;
        }
        let mut search = 0;
        while let Some(i) = line[search..].find(name).map(|i| search + i) {
            let end = i + name.len();
            let before = line[..i].chars().next_back();
            let whole = !before.is_some_and(is_id) && !line[end..].chars().next().is_some_and(is_id);
            if whole && before != Some('@') {
                let col = |b: usize| line[..b].encode_utf16().count() as u32;
                let l = line_no - 1;
                return Some(Range {
                    start: Position { line: l, character: col(i) },
                    end: Position { line: l, character: col(end) },
                });
            }
            search = end;
        }
    }
    None
}

/// The range of whole lines `from..=to` (1-based): from the first's start to the last's end.
pub fn lines_range(text: &str, from: u32, to: u32) -> Range {
    let to = to.max(from);
    let end = line_text(text, to).encode_utf16().count() as u32;
    Range {
        start: Position { line: from.saturating_sub(1), character: 0 },
        end: Position { line: to.saturating_sub(1), character: end },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn incremental_changes_apply_in_order_with_utf16_columns() {
        let mut docs = Docs::default();
        docs.open("file:///a.java", None, "class A {\n  String s = \"é😀x\";\n}\n".into(), 1, None);
        // "😀" is two UTF-16 units (columns 15 and 16): column 17 is `x`.
        let change = |start: Position, end: Position, text: &str| TextDocumentContentChangeEvent {
            range: Some(Range { start, end }),
            range_length: None,
            text: text.into(),
        };
        docs.change("file:///a.java", 2, vec![change(pos(1, 17), pos(1, 18), "y"), change(pos(0, 6), pos(0, 7), "B")]);
        let d = docs.get("file:///a.java").map(|d| (d.text.clone(), d.version, d.dirty));
        assert_eq!(d, Some(("class B {\n  String s = \"é😀y\";\n}\n".to_owned(), 2, true)));
        docs.change(
            "file:///a.java",
            3,
            vec![TextDocumentContentChangeEvent { range: None, range_length: None, text: "x".into() }],
        );
        assert_eq!(docs.get("file:///a.java").map(|d| d.text.as_str()), Some("x"));
        docs.saved("file:///a.java", None, Some("x"));
        assert_eq!(docs.get("file:///a.java").map(|d| d.dirty), Some(false));
    }

    #[test]
    fn positions_and_offsets_round_trip_on_crlf_and_astral_text() {
        let text = "a😀b\r\ncd\n";
        assert_eq!(offset(text, pos(0, 3)), "a😀".len());
        assert_eq!(position(text, "a😀".len()), pos(0, 3));
        assert_eq!(offset(text, pos(0, 99)), "a😀b".len());
        assert_eq!(offset(text, pos(1, 1)), "a😀b\r\nc".len());
        assert_eq!(position(text, "a😀b\r\nc".len()), pos(1, 1));
        assert_eq!(offset(text, pos(7, 0)), text.len());
    }

    #[test]
    fn the_word_at_a_position_is_the_identifier_around_or_before_it() {
        let text = "  foo.barBaz(x);\n";
        assert_eq!(word_at(text, pos(0, 8)).map(|w| w.0), Some("barBaz".to_owned()));
        assert_eq!(word_at(text, pos(0, 12)).map(|w| (w.0, w.1.start.character)), Some(("barBaz".to_owned(), 6)));
        assert_eq!(word_at(text, pos(0, 0)), None);
        assert_eq!(word_at("int x = 42;", pos(0, 9)), None);
    }

    #[test]
    fn a_declarations_name_skips_javadoc_annotations_and_longer_words() {
        let text =
            "/**\n * Greeter greets\n */\n@Greeter\npublic class Greeters extends Greeter {}\nclass Greeter {}\n";
        assert_eq!(find_name(text, "Greeter", 1, 6).map(|r| (r.start.line, r.start.character)), Some((4, 30)));
        assert_eq!(find_name(text, "Greeter", 6, 6).map(|r| (r.start.line, r.start.character)), Some((5, 6)));
        assert_eq!(find_name(text, "Nope", 1, 6), None);
    }
}
