//! `textDocument/publishDiagnostics` of a buffer's syntax problems after each open, change and
//! save: `mji_problems::syntax::check` on the buffer's text, the check `get_problems`' `syntax`
//! source runs on a file (a buffer has no file a tool could read), with its codes and
//! severities. javac's problems are not published yet.

use lsp_types as lsp;
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
