//! The `syntax` source: every error and missing token of our own tree-sitter parse, plus the
//! lexical causes (unterminated literals and comments, unbalanced braces) where they start,
//! with positions in the original text; in a file without them, the unused imports and locals
//! ([`crate::hints`]) as hints.

use crate::{Position, Problem, ProblemSource, Range, Severity};
use mji_parser::source::{LineIndex, Prepared, SourceText};
use mji_parser::{parse_tree, skeleton, syntax_errors};

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
    let text = &src.text;
    let at = |offset: usize| position(text, &src.lines, offset);
    let problem = |start: usize, end: usize, code: &str, message: String| {
        let (s, e) = (at(start), at(end.max(start)));
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
    };
    let mut out = Vec::new();
    let Some(tree) = parse_tree(&prep.text) else {
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
    let problem = |start: usize, end: usize, code: &str, message: String| {
        let (s, e) = (position(text, &src.lines, start), position(text, &src.lines, end.max(start)));
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
    };
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
