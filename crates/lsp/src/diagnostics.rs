//! Diagnostics: a buffer's syntax problems after each open, change and save
//! (`mji_problems::syntax::check` on the buffer's text, the check `get_problems`' `syntax`
//! source runs on a file: a buffer has no file a tool could read), and javac's problems as
//! `get_problems` answers them for the saved file (its `javac` source: the same codes,
//! messages, ranges and trust rules), converted to LSP's diagnostics.

use lsp_types as lsp;
use mji_problems::syntax::Incremental;
use mji_problems::{Problem, Severity};

/// The `source` of the diagnostics javac reports (get_problems' `javac` source); the syntax
/// check's are [`SYNTAX_SOURCE`].
pub const JAVAC_SOURCE: &str = "javac";

/// The `source` of the syntax check's diagnostics.
pub const SYNTAX_SOURCE: &str = "mcp-java-index";

/// The diagnostics of a buffer's text.
pub fn of_text(display: &str, text: &str) -> Vec<lsp::Diagnostic> {
    mji_problems::syntax::check(display, text.as_bytes()).iter().map(diagnostic).collect()
}

/// The diagnostics of a buffer's text after an edit: the same as [`of_text`]'s, the text
/// reparsed only where the edit changed it when `last` holds the check of its text before
/// (see [`mji_problems::syntax::check_edited`]).
pub fn of_edited(display: &str, text: &str, last: &mut Option<Incremental>) -> Vec<lsp::Diagnostic> {
    mji_problems::syntax::check_edited(display, text.as_bytes(), last).iter().map(diagnostic).collect()
}

/// javac's diagnostics of a file as `get_problems` answers them (its `diagnostics`, the
/// `javac` source). A problem `get_problems` sets apart (`cause`: a missing dependency on an
/// incomplete classpath, a source the build has not generated) is information, its cause said.
pub fn of_answer(answer: &serde_json::Value) -> Vec<lsp::Diagnostic> {
    let problems = answer["diagnostics"].as_array().into_iter().flatten();
    let problems = problems.filter_map(|v| serde_json::from_value::<Problem>(v.clone()).ok());
    problems
        .filter(|p| p.source == mji_problems::ProblemSource::Javac)
        .map(|p| {
            let mut d = diagnostic(&p);
            d.source = Some(JAVAC_SOURCE.to_owned());
            if let Some(cause) = &p.cause {
                d.severity = Some(lsp::DiagnosticSeverity::INFORMATION);
                d.message = format!("{} ({cause}: the code may well be right)", d.message);
                d.data = Some(serde_json::json!({"cause": cause}));
            }
            d
        })
        .collect()
}

fn diagnostic(p: &Problem) -> lsp::Diagnostic {
    let pos =
        |line: u32, column: u32| lsp::Position { line: line.saturating_sub(1), character: column.saturating_sub(1) };
    lsp::Diagnostic {
        range: lsp::Range {
            start: pos(p.range.start.line, p.range.start.column),
            end: pos(p.range.end.line, p.range.end.column),
        },
        severity: Some(match p.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
            Severity::Information => lsp::DiagnosticSeverity::INFORMATION,
            Severity::Hint => lsp::DiagnosticSeverity::HINT,
        }),
        code: Some(lsp::NumberOrString::String(p.code.clone())),
        source: Some(SYNTAX_SOURCE.to_owned()),
        message: p.message.clone(),
        tags: p.code.starts_with("hint.unused").then(|| vec![lsp::DiagnosticTag::UNNECESSARY]),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_missing_brace_is_an_error_at_its_place_in_utf16_columns() {
        let d = super::of_text("A.java", "class A {\n  String s = \"😀\"\n}\n");
        assert!(!d.is_empty(), "{d:?}");
        assert_eq!(d[0].severity, Some(lsp_types::DiagnosticSeverity::ERROR));
        assert_eq!(d[0].range.start.line, 1, "{d:?}");
        assert!(super::of_text("A.java", "class A {}\n").is_empty());
    }
}
