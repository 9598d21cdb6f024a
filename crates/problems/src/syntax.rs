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
    let repaired = Repaired::new(&prep.text);
    let tree = parse_tree(&repaired.text);
    problems(display, &src, &prep, &repaired, tree.as_ref())
}

/// The prepared text with the closer of every `(` and `[` left open at the end of its
/// statement inserted where javac expects it ([`skeleton::unclosed_brackets`]): the text the
/// parser is given, so that tree-sitter's error recovery does not run from such a bracket over
/// the rest of the file (two unclosed `(` in a method body of a 5,000-line file cost a 350 ms
/// parse and one error over the whole class). Each bracket is reported once, as javac does.
struct Repaired<'a> {
    text: std::borrow::Cow<'a, str>,
    unclosed: Vec<skeleton::Unclosed>,
}

impl<'a> Repaired<'a> {
    fn new(prepared: &'a str) -> Repaired<'a> {
        let unclosed = skeleton::unclosed_brackets(prepared);
        if unclosed.is_empty() {
            return Repaired { text: std::borrow::Cow::Borrowed(prepared), unclosed };
        }
        let mut text = String::with_capacity(prepared.len() + unclosed.len());
        let mut from = 0;
        for u in &unclosed {
            text.push_str(&prepared[from..u.at]);
            text.push(char::from(u.closer));
            from = u.at;
        }
        text.push_str(&prepared[from..]);
        Repaired { text: std::borrow::Cow::Owned(text), unclosed }
    }

    /// The prepared-text offset of an offset of the repaired text (an inserted closer: where
    /// it was inserted).
    fn to_prepared(&self, offset: usize) -> usize {
        let mut shift = 0;
        for u in &self.unclosed {
            if offset <= u.at + shift {
                break;
            }
            shift += 1;
        }
        offset - shift
    }
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
    let repaired = Repaired::new(&prep.text);
    let reparsed = last.take().and_then(|Incremental { parsed, mut tree }| {
        tree.edit(&edit_between(&parsed, &repaired.text));
        reparse_without_errors(&repaired.text, &tree)
    });
    // A tree without errors is the one a fresh parse builds; error recovery may differ from a
    // fresh parse's when it starts from the last tree, so a text with errors is parsed afresh
    // (its problems are then exactly `check`'s). The parser is given the repaired text, whose
    // errors stay local, so that fresh parse costs about one error-free parse.
    let tree = reparsed.or_else(|| parse_tree(&repaired.text));
    let out = problems(display, &src, &prep, &repaired, tree.as_ref());
    *last = tree.map(|tree| Incremental { parsed: repaired.text.clone().into_owned(), tree });
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
fn problems(
    display: &str,
    src: &SourceText,
    prep: &Prepared,
    repaired: &Repaired,
    tree: Option<&Tree>,
) -> Vec<Problem> {
    let problem = |start, end, code: &str, message| syntax_error(display, src, start, end, code, message);
    let mut out = Vec::new();
    let Some(tree) = tree else {
        out.push(problem(0, 0, "syntax.failed", "the parser gave up on this file".to_owned()));
        return out;
    };
    let root = tree.root_node();
    if !root.has_error() && repaired.unclosed.is_empty() {
        for (start, end, code, message) in crate::hints::unused(root, &prep.text) {
            let mut p = problem(prep.to_original(start), prep.to_original(end), code, message);
            p.severity = Severity::Hint;
            out.push(p);
        }
        return out;
    }
    let (errors, total) = syntax_errors(root, repaired.text.as_bytes(), MAX_SYNTAX);
    let original = |offset| prep.to_original(repaired.to_prepared(offset));
    for e in errors {
        let code = if e.message.starts_with("missing") { "syntax.missing" } else { "syntax.unexpected" };
        out.push(problem(original(e.start), original(e.end), code, e.message));
    }
    // One problem where closers are missing (javac's one "')' expected"), naming each bracket.
    for group in repaired.unclosed.chunk_by(|a, b| a.at == b.at) {
        let at = prep.to_original(group[0].at);
        let closers: String = group.iter().map(|u| char::from(u.closer)).collect();
        let opens: Vec<String> = group
            .iter()
            .map(|u| {
                let p = position(&src.text, &src.lines, prep.to_original(u.open));
                let o = if u.closer == b')' { '(' } else { '[' };
                format!("the `{o}` at line {}, column {}", p.line, p.column)
            })
            .collect();
        let verb = if opens.len() > 1 { "are" } else { "is" };
        let message = format!("missing `{closers}`: {} {verb} not closed", opens.join(" and "));
        out.push(problem(at, at, "syntax.missing", message));
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
        let typed =
            ["(", ")", "[", "]", "{", "}", ";", "\"", "/*", "*/", "a", " ", "\n", "<", ",", "é", "\\u0041", "@"];
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

#[cfg(test)]
mod unclosed {
    use super::{Incremental, check, check_edited};

    /// The benchmark's file (tests/python/lsp_speed.py): a class of 1,000 small methods, 5,000
    /// lines.
    fn big() -> String {
        let mut lines = vec!["package big;".to_owned(), String::new(), "public class Big {".to_owned()];
        let mut i = 0;
        while lines.len() < 4997 {
            lines.push(format!("    /** Method {i}. */"));
            lines.push(format!("    int m{i}(int x) {{"));
            lines.push(format!("        int y = x * {i} + 1;"));
            lines.push(format!("        return y + m{}(x - 1);", i.max(1) - 1));
            lines.push("    }".to_owned());
            i += 1;
        }
        lines.push("}".to_owned());
        lines.join("\n") + "\n"
    }

    /// Two unclosed `(` in a method body of a 5,000-line file: one problem where javac says
    /// "')' expected" (after `1`, before the `;`), naming both, and the parser's errors stay on
    /// that line instead of running over the rest of the class (before: one error from the
    /// class header to the end of the file, in a 350 ms parse); the LSP's check of the edited
    /// text answers the same.
    #[test]
    fn two_unclosed_parentheses_are_one_problem_on_their_line() {
        let text = big();
        let mut last: Option<Incremental> = None;
        assert!(check_edited("Big.java", text.as_bytes(), &mut last).is_empty());
        for (typed, column, opens) in [("((", 28, (6, 5)), ("f(x, g(x", 34, (11, 6))] {
            let mut lines: Vec<&str> = text.lines().collect();
            let line = format!("    {typed}{}", &lines[5][4..]);
            lines[5] = &line;
            let edited = lines.join("\n") + "\n";
            let p = check("Big.java", edited.as_bytes());
            assert!(p.iter().all(|d| d.range.start.line == 6 && d.range.end.line == 6), "{typed}: {p:#?}");
            let missing: Vec<_> = p.iter().filter(|d| d.message.starts_with("missing `))`")).collect();
            assert_eq!(missing.len(), 1, "{typed}: {p:#?}");
            assert_eq!((missing[0].line, missing[0].column), (6, column), "{typed}");
            let message = format!(
                "missing `))`: the `(` at line 6, column {} and the `(` at line 6, column {} are not closed",
                opens.0, opens.1
            );
            assert_eq!(missing[0].message, message);
            assert_eq!(check_edited("Big.java", edited.as_bytes(), &mut last), p, "{typed}");
            assert!(check_edited("Big.java", text.as_bytes(), &mut last).is_empty());
        }
    }

    /// A bracket left open is reported once where javac reports it, and the rest of the
    /// statement is still checked; balanced text has no such problem.
    #[test]
    fn an_unclosed_bracket_is_reported_where_javac_expects_its_closer() {
        let text = "class B {\n    int m(int x) {\n        int y = f(x, g(x);\n        return y;\n    }\n}\n";
        let p = check("B.java", text.as_bytes());
        // javac: "B.java:3: error: ')' expected", column 26.
        assert_eq!(p.len(), 1, "{p:#?}");
        assert_eq!((p[0].line, p[0].column, p[0].code.as_str()), (3, 26, "syntax.missing"));
        assert_eq!(p[0].message, "missing `)`: the `(` at line 3, column 18 is not closed");
        let text = "class C {\n    void h(int[] a) {\n        a[0 = 1;\n        if (a[0] > 1 {\n            h(a);\n        }\n    }\n}\n";
        let p = check("C.java", text.as_bytes());
        // javac: "']' expected" at 3:16 and "')' expected" at 4:21 (and "not a statement").
        let at: Vec<_> = p.iter().filter(|d| d.message.starts_with("missing `")).map(|d| (d.line, d.column)).collect();
        assert!(at.contains(&(3, 16)) && at.contains(&(4, 21)), "{p:#?}");
    }
}
