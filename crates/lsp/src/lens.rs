//! Tests from the editor: a "Run test" code lens on each test method of `java_index`'s outline
//! (a method annotated `@Test`, `@ParameterizedTest`, `@RepeatedTest`, `@TestFactory` or
//! `@TestTemplate`) and "Run tests" on its class, each the `mcp-java-index.runTests` command,
//! which `workspace/executeCommand` runs through `run_tests` (its trust rules: a workspace the
//! user has not trusted runs nothing and says so) and answers with the run's result, its counts
//! also shown (`window/showMessage`).

use lsp_server::{ErrorCode, Message, Notification};
use lsp_types as lsp;
use mji_model::TypeDecl;
use serde_json::{Value, json};

use crate::docs::{find_name, lines_range};
use crate::{Reply, Server, uri};

/// The command a lens runs; its one argument is `{"target": "pkg.Class#method"}` (or a class).
pub const RUN_TESTS: &str = "mcp-java-index.runTests";

/// JUnit's annotations of a test method, by simple name.
const TEST_ANNOTATIONS: &[&str] = &["Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate"];

/// An annotation as the outline writes it (`@Test`, `@org.junit.jupiter.api.Test`,
/// `@RepeatedTest(3)`) names a test method.
fn is_test(annotation: &str) -> bool {
    let name = annotation.trim_start_matches('@').split('(').next().unwrap_or_default().trim();
    TEST_ANNOTATIONS.contains(&name.rsplit('.').next().unwrap_or(name))
}

fn lens(text: &str, name: &str, lines: (u32, u32), title: &str, target: String) -> lsp::CodeLens {
    let range = find_name(text, name, lines.0, lines.1).unwrap_or_else(|| lines_range(text, lines.0, lines.0));
    lsp::CodeLens {
        range,
        command: Some(lsp::Command {
            title: title.to_owned(),
            command: RUN_TESTS.to_owned(),
            arguments: Some(vec![json!({ "target": target })]),
        }),
        data: None,
    }
}

/// The lenses of a top-level type: one per test method, and one for the class when it has any.
fn type_lenses(text: &str, t: &TypeDecl, out: &mut Vec<lsp::CodeLens>) {
    let tests: Vec<_> = t.methods.iter().filter(|m| m.annotations.iter().any(|a| is_test(a))).collect();
    if tests.is_empty() {
        return;
    }
    out.push(lens(text, &t.name, (t.start_line, t.end_line), "Run tests", t.qualified_name.clone()));
    for m in tests {
        let target = format!("{}#{}", t.qualified_name, m.name);
        out.push(lens(text, &m.name, (m.start_line, m.end_line), "Run test", target));
    }
}

pub(crate) fn code_lenses(s: &mut Server, p: lsp::CodeLensParams) -> Reply {
    let Some(path) = uri::to_path(p.text_document.uri.as_str()) else { return Ok(Value::Null) };
    let (outline, text) = crate::nav::outline(s, &path).map_err(|e| (ErrorCode::RequestFailed, e))?;
    let mut out = Vec::new();
    for t in &outline.classes {
        type_lenses(&text, t, &mut out);
    }
    Ok(serde_json::to_value(out).unwrap_or(Value::Null))
}

/// `workspace/executeCommand`: `mcp-java-index.runTests` through `run_tests`.
/// `mcp-java-index.refactor` is [`crate::actions::execute`].
pub(crate) fn execute(s: &mut Server, p: lsp::ExecuteCommandParams) -> Reply {
    if p.command == crate::actions::REFACTOR {
        return crate::actions::execute(s, p);
    }
    if p.command != RUN_TESTS {
        return Err((
            ErrorCode::InvalidParams,
            format!("unknown command {}: the commands are {RUN_TESTS} and {}", p.command, crate::actions::REFACTOR),
        ));
    }
    let target = p.arguments.first().and_then(|a| a["target"].as_str()).unwrap_or_default();
    let v = s.call("run_tests", json!({ "target": target })).map_err(|e| {
        show(s, lsp::MessageType::ERROR, format!("run_tests {target}: {e}"));
        (ErrorCode::RequestFailed, e)
    })?;
    let c = &v["counts"];
    let n = |k: &str| c[k].as_u64().unwrap_or(0);
    let (summary, kind) = if v["status"] == "running" {
        let id = v["runId"].as_str().unwrap_or_default();
        (format!("still running (get_test_results runId {id})"), lsp::MessageType::INFO)
    } else if v["ran"] == false {
        let why = v["note"].as_str().filter(|n| !n.is_empty()).unwrap_or("nothing ran");
        (why.to_owned(), lsp::MessageType::WARNING)
    } else {
        let failed = n("failed") + n("errored");
        let mut line = format!("{} run, {} passed, {failed} failed", n("run"), n("passed"));
        if n("skipped") > 0 {
            line.push_str(&format!(", {} skipped", n("skipped")));
        }
        if let Some(e) = v["compileErrors"].as_array().filter(|e| !e.is_empty()) {
            line.push_str(&format!(", {} compile errors", e.len()));
        }
        let ok = failed == 0 && v["compileErrors"].as_array().is_none_or(Vec::is_empty);
        (line, if ok { lsp::MessageType::INFO } else { lsp::MessageType::ERROR })
    };
    show(s, kind, format!("run_tests {target}: {summary}"));
    Ok(v)
}

/// `window/showMessage` to the client.
fn show(s: &Server, typ: lsp::MessageType, message: String) {
    let params = serde_json::to_value(lsp::ShowMessageParams { typ, message }).unwrap_or(Value::Null);
    if s.sender.send(Message::Notification(Notification::new("window/showMessage".to_owned(), params))).is_err() {
        tracing::debug!("the client is gone");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn junit_s_test_annotations_as_written() {
        assert!(super::is_test("@Test") && super::is_test("@org.junit.jupiter.api.Test"));
        assert!(super::is_test("@RepeatedTest(3)") && super::is_test("@ParameterizedTest"));
        assert!(!super::is_test("@Testable") && !super::is_test("@Override"));
    }
}
