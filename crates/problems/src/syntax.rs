//! The `syntax` source: every error and missing token of our own tree-sitter parse, plus the
//! lexical causes (unterminated literals and comments, unbalanced braces) where they start,
//! with positions in the original text; in a file without them, the unused imports and locals
//! ([`crate::hints`]) as hints.

use crate::{Position, Problem, ProblemSource, Range, Severity};
use mji_parser::source::{LineIndex, Prepared, SourceText};
use mji_parser::{parse_tree, reparse_without_errors, skeleton, syntax_errors};
use tree_sitter::{InputEdit, Point, Tree};

/// At most this many syntax problems per file (tree-sitter's recovery can cascade).
pub(crate) const MAX_SYNTAX: usize = 200;

/// The syntax problems of one file's bytes; `display` names the file in each problem (a
/// Kotlin source, `.kt`, by Kotlin's grammar: [`check_kotlin`]).
pub fn check(display: &str, bytes: &[u8]) -> Vec<Problem> {
    if display.ends_with(".kt") {
        return check_kotlin(display, bytes);
    }
    let src = SourceText::decode(bytes);
    let prep = Prepared::new(&src.text);
    let tree = parse_tree(&prep.text);
    problems(display, &src, &prep, tree.as_ref())
}

/// A text's last syntax check, kept so that the next check of an edited text reparses only
/// what the edit changed (tree-sitter's incremental parse: the unchanged subtrees of the last
/// tree are reused).
pub struct Incremental {
    /// The text the parser was given (the prepared text: see [`Prepared`]).
    parsed: String,
    tree: Tree,
}

/// The syntax problems of an edited text, as [`check`] finds them (the same codes, messages
/// and ranges), reparsing only the edit when `last` holds the check of the text before it and
/// the edited text parses without errors; `last` then holds this text's check, for the next
/// edit.
pub fn check_edited(display: &str, bytes: &[u8], last: &mut Option<Incremental>) -> Vec<Problem> {
    let src = SourceText::decode(bytes);
    let prep = Prepared::new(&src.text);
    let reparsed = last.take().and_then(|Incremental { parsed, mut tree }| {
        tree.edit(&edit_between(&parsed, &prep.text));
        reparse_without_errors(&prep.text, &tree)
    });
    // A tree without errors is the one a fresh parse builds; error recovery may differ from a
    // fresh parse's when it starts from the last tree, so a text with errors is parsed afresh
    // (its problems are then exactly `check`'s).
    let tree = reparsed.or_else(|| parse_tree(&prep.text));
    let out = problems(display, &src, &prep, tree.as_ref());
    *last = tree.map(|tree| Incremental { parsed: prep.text.clone().into_owned(), tree });
    out
}

/// The edit that turns `old` into `new`: the bytes between their common prefix and their
/// common suffix (on character boundaries), with tree-sitter's row and byte-column points.
fn edit_between(old: &str, new: &str) -> InputEdit {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let room = a.len().min(b.len()) - prefix;
    let mut suffix = a.iter().rev().zip(b.iter().rev()).take(room).take_while(|(x, y)| x == y).count();
    while !new.is_char_boundary(b.len() - suffix) || !old.is_char_boundary(a.len() - suffix) {
        suffix -= 1;
    }
    let point = |t: &[u8], offset: usize| {
        let before = &t[..offset];
        let row = before.iter().filter(|&&c| c == b'\n').count();
        let column = offset - before.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        Point { row, column }
    };
    InputEdit {
        start_byte: prefix,
        old_end_byte: a.len() - suffix,
        new_end_byte: b.len() - suffix,
        start_position: point(b, prefix),
        old_end_position: point(a, a.len() - suffix),
        new_end_position: point(b, b.len() - suffix),
    }
}

/// The problems of a parsed text (`None`: the parser gave up).
fn problems(display: &str, src: &SourceText, prep: &Prepared, tree: Option<&Tree>) -> Vec<Problem> {
    let problem = |start, end, code: &str, message| syntax_error(display, src, start, end, code, message);
    let mut out = Vec::new();
    let Some(tree) = tree else {
        out.push(problem(0, 0, "syntax.failed", "the parser gave up on this file".to_owned()));
        return out;
    };
    let root = tree.root_node();
    if !root.has_error() {
        for (start, end, code, message) in crate::hints::unused(root, &prep.text) {
            let mut p = problem(prep.to_original(start), prep.to_original(end), code, message);
            p.severity = Severity::Hint;
            out.push(p);
        }
        return out;
    }
    let (errors, total) = syntax_errors(root, prep.text.as_bytes(), MAX_SYNTAX);
    for e in errors {
        let code = if e.message.starts_with("missing") { "syntax.missing" } else { "syntax.unexpected" };
        out.push(problem(prep.to_original(e.start), prep.to_original(e.end), code, e.message));
    }
    for (offset, message) in skeleton::lexical_problems(&prep.text) {
        let start = prep.to_original(offset);
        // Name the line of an unclosed brace, since javac reports it at the end of the file.
        let message = if message.starts_with("unclosed `{`") {
            format!("unclosed `{{` opened at line {}: the file ends before its `}}`", src.lines.line_of(start))
        } else {
            message
        };
        out.push(problem(start, start + 1, "syntax.lexical", message));
    }
    if total > MAX_SYNTAX {
        out.push(problem(0, 0, "syntax.truncated", format!("{} more syntax errors not listed", total - MAX_SYNTAX)));
    }
    out
}

/// The syntax problems of a Kotlin source: every error and missing token of its
/// tree-sitter-kotlin-ng parse (no hints: the unused-import and local checks read Java).
pub fn check_kotlin(display: &str, bytes: &[u8]) -> Vec<Problem> {
    let src = SourceText::decode(bytes);
    let text = &src.text;
    let problem = |start, end, code: &str, message| syntax_error(display, &src, start, end, code, message);
    let Some(tree) = mji_parser::kotlin::parse_tree(text) else {
        return vec![problem(0, 0, "syntax.failed", "the parser gave up on this file".to_owned())];
    };
    let root = tree.root_node();
    if !root.has_error() {
        return Vec::new();
    }
    let (errors, total) = syntax_errors(root, text.as_bytes(), MAX_SYNTAX);
    let mut out: Vec<Problem> = errors
        .into_iter()
        .map(|e| {
            let code = if e.message.starts_with("missing") { "syntax.missing" } else { "syntax.unexpected" };
            problem(e.start, e.end, code, e.message)
        })
        .collect();
    if total > MAX_SYNTAX {
        out.push(problem(0, 0, "syntax.truncated", format!("{} more syntax errors not listed", total - MAX_SYNTAX)));
    }
    out
}

/// 1-based line and UTF-16 column of a byte offset of `text`.
/// A syntax error of `display` from byte `start` to `end` of the decoded text.
fn syntax_error(display: &str, src: &SourceText, start: usize, end: usize, code: &str, message: String) -> Problem {
    let (s, e) = (position(&src.text, &src.lines, start), position(&src.text, &src.lines, end.max(start)));
    Problem {
        file: display.to_owned(),
        line: s.line,
        column: s.column,
        severity: Severity::Error,
        source: ProblemSource::Syntax,
        code: code.to_owned(),
        message,
        range: Range { start: s, end: e },
        cause: None,
        fixes: Vec::new(),
    }
}

fn position(text: &str, lines: &LineIndex, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line = lines.line_of(offset);
    let start = lines.line_start(line).min(offset);
    let column = text[start..offset].chars().map(char::len_utf16).sum::<usize>() as u32 + 1;
    Position { line, column }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn messages_name_the_cause() {
        let p = check("A.java", b"class A {\n  void f() {\n    int x = 1\n    g();\n  }\n}\n");
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].message, "missing `;` after `int x = 1`");
        assert_eq!((p[0].line, p[0].column), (3, 14));
        let p = check("A.java", b"class A {\n  void f() {\n    g();\n}\n");
        assert!(p.iter().any(|d| d.message.starts_with("unclosed `{` opened at line 1")), "{p:?}");
        assert!(check("A.java", b"class A { void f() { g(); } }\n").is_empty());
    }

    /// A Kotlin source is checked by Kotlin's grammar: valid Kotlin (no `;`, `fun`, `val`) is
    /// clean, an unclosed call or a stray token is an error at its place.
    #[test]
    fn kotlin_sources_are_checked_by_kotlins_grammar() {
        let clean = b"package p\n\nfun f(x: Int): Int {\n    val y = x + 1\n    return y\n}\n";
        assert!(check("a.kt", clean).is_empty());
        // The same text read as Java is full of errors.
        assert!(!check("A.java", clean).is_empty());
        let p = check("a.kt", b"package p\n\nfun f(x: Int): Int {\n    val y = g(x\n    return y\n}\n");
        assert!(!p.is_empty() && p.iter().all(|d| d.code.starts_with("syntax.")), "{p:?}");
        assert!(p.iter().any(|d| (4..=6).contains(&d.line)), "{p:?}");
        let p = check("a.kt", b"package p\n\nclass A {\n    fun f() = 1 +\n}\n");
        assert!(p.iter().any(|d| d.range.start.line <= 4 && 4 <= d.range.end.line), "{p:?}");
    }
}

#[cfg(test)]
mod incremental {
    use super::{Incremental, check, check_edited};

    /// A small deterministic generator (xorshift), so a failure repeats.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// Every step of a run of random one-character edits (typed, deleted, undone) on each
    /// Java fixture: the incremental check answers what a fresh check of the same text does.
    #[test]
    fn an_edited_text_has_the_problems_a_fresh_check_finds() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "java"))
            .collect();
        files.sort();
        assert!(files.len() > 20, "the fixtures: {}", dir.display());
        let typed = ["(", ")", "{", "}", ";", "\"", "/*", "*/", "a", " ", "\n", "<", ",", "é", "\\u0041", "@"];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut steps = 0;
        for f in files {
            let Ok(bytes) = std::fs::read(&f) else { continue };
            let Ok(mut text) = String::from_utf8(bytes) else { continue };
            let mut last: Option<Incremental> = None;
            assert_eq!(check_edited("A.java", text.as_bytes(), &mut last), check("A.java", text.as_bytes()));
            let mut undo: Vec<String> = Vec::new();
            for _ in 0..40 {
                let mut at = rng.next(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                match rng.next(4) {
                    0 if !undo.is_empty() => text = undo.pop().unwrap_or_default(),
                    1 if at < text.len() => {
                        undo.push(text.clone());
                        let len = text[at..].chars().next().map_or(0, char::len_utf8);
                        text.replace_range(at..at + len, "");
                    }
                    _ => {
                        undo.push(text.clone());
                        text.insert_str(at, typed[rng.next(typed.len())]);
                    }
                }
                let fresh = check("A.java", text.as_bytes());
                let edited = check_edited("A.java", text.as_bytes(), &mut last);
                assert_eq!(edited, fresh, "{} after step {steps}:\n{text}", f.display());
                steps += 1;
            }
        }
        assert!(steps > 800, "{steps}");
    }
}
