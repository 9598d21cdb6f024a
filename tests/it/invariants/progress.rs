//! Long work is never silent (issue 32, item 11): a call that reads or binds many files, or
//! waits for javac, reports how far it got to the call's progress sink — which the MCP server
//! turns into `notifications/progress` for a client that sent a token, and the CLI into a
//! progress line on a terminal. Deterministic: the sink's last report is checked, not timing.

use serde_json::{Value, json};

use crate::common::indexed;
use mcp_java_index::model::progress::Progress;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::dispatch;

/// The last report a call made to its sink, and its answer.
fn reported(ws: &Host, tool: &str, args: Value) -> (Option<(f64, Option<f64>, String)>, Value) {
    let Value::Object(m) = args else { unreachable!("object arguments") };
    let sink = Progress::new();
    let answer = sink.scope(|| dispatch(ws, tool, m)).unwrap_or_else(|e| panic!("{tool}: {e}"));
    (sink.newer_than(0).map(|r| (r.done, r.total, r.message)), answer.value)
}

#[test]
fn binding_references_and_javac_report_progress_to_the_call_s_sink() {
    let files: Vec<(String, String)> = (0..40)
        .map(|i| {
            (format!("p/C{i}.java"), format!("package p;\nclass C{i} {{\n    int f() {{ return Base.one(); }}\n}}\n"))
        })
        .chain([(
            "p/Base.java".to_owned(),
            "package p;\nclass Base {\n    static int one() { return 1; }\n}\n".to_owned(),
        )])
        .collect();
    let files: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let (_dir, ws) = indexed("src", &files);

    let (last, v) = reported(&ws, "find_references", json!({"target": "p.Base#one()"}));
    assert_eq!(v["total"], 40, "{v}");
    let (done, total, message) = last.expect("find_references reported progress");
    assert!(message.starts_with("binding references:"), "{message}");
    assert_eq!((Some(done), total), (total, Some(done)), "the last report is the whole: {message}");

    // Without a sink nothing is counted, and the answer is the same.
    let Value::Object(m) = json!({"target": "p.Base#one()"}) else { unreachable!() };
    assert_eq!(dispatch(&ws, "find_references", m).expect("refs").value["total"], 40);

    // get_problems waits for javac: the last report says every file was checked.
    let (last, v) = reported(&ws, "get_problems", json!({"filePath": "src/p", "sourceFilter": ["javac"]}));
    assert_eq!(v["javac"]["available"], true, "{v}");
    let (done, total, message) = last.expect("get_problems reported progress");
    assert_eq!((done, total), (41.0, Some(41.0)), "{message}");
    assert!(message.starts_with("javac: 41/41"), "{message}");
}
