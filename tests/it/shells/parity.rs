//! The two shells answer alike: for every registered tool, `mcp-java-index call TOOL JSON`
//! prints what MCP's `tools/call` with the same arguments answers — the text a model reads
//! byte for byte (a tool without a text of its own: the same JSON, printed pretty), the
//! structured answer (`--json`) value for value, and a refusal with the same message.

use std::path::{Path, PathBuf};
use std::process::Command;

use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

use crate::common::copy_dir;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-java-index");

/// One call of each tool: arguments that answer (or are refused) the same on every run, in a
/// copy of the fixtures. A type's name as `filePath` (issue 52: the command line answered
/// "file not found" where the server read the type's file) or in `symbol`.
fn cases() -> Vec<(&'static str, Value)> {
    vec![
        ("java_index", json!({"filePath": "records.java"})),
        ("java_index", json!({"filePath": "xref.model.Money"})),
        ("java_index", json!({"filePath": "Point"})),
        ("java_read_range", json!({"filePath": "records.java", "startLine": 1, "endLine": 4})),
        ("java_read_range", json!({"filePath": "xref.model.Money", "symbol": "plus"})),
        ("java_read_javadoc", json!({"symbol": "xref.model.Money#plus"})),
        ("java_find_symbol", json!({"query": "Point", "limit": 5})),
        ("find_type", json!({"query": "*Point*", "limit": 5})),
        ("find_resource", json!({"query": "notes"})),
        ("find_references", json!({"target": "xref.model.Money#plus(Money)", "limit": 3})),
        ("call_hierarchy", json!({"target": "xref.model.Money#plus(Money)"})),
        ("affected_tests", json!({"targets": ["xref.model.Money#plus(Money)"]})),
        ("type_hierarchy", json!({"target": "xref.model.Money"})),
        ("find_implementations", json!({"target": "xref.model.Money"})),
        ("analyze_type_dependencies", json!({"type": "xref.model.Money"})),
        ("show_definition", json!({"symbol": "Money"})),
        ("export_scip", json!({"filePath": "/nonexistent/dir/index.scip"})),
        ("get_problems", json!({"filePath": "records.java", "sourceFilter": ["syntax"]})),
        ("refactor_actions", json!({"action": "rename", "target": "xref.model.Money#plus(Money)", "newName": "add"})),
        ("source_actions", json!({"action": "no_such_action"})),
        ("open_file", json!({"filePath": "records.java"})),
        ("goto_location", json!({"filePath": "records.java", "line": 1})),
        ("reload_buffer", json!({})),
        ("run_elisp", json!({"code": "(+ 1 2)", "dryRun": true})),
        ("run_tests", json!({"target": "Point"})),
        ("get_test_results", json!({"runId": "no-such-run"})),
        ("maven_goal", json!({"goals": ["validate"]})),
        ("maven_update_project", json!({})),
        ("gradle_task", json!({"tasks": ["help"]})),
    ]
}

/// What a shell answered: the text a model reads, the structured answer, or a refusal.
#[derive(Debug, PartialEq)]
enum Said {
    Answer { text: String, structured: Value },
    Refused(String),
}

/// Fields that say how long a call took: the one part of an answer that differs between two
/// runs of the same call.
fn without_timings(mut v: Value) -> Value {
    if let Some(m) = v.as_object_mut() {
        for k in ["elapsedMs", "durationMs"] {
            if m.contains_key(k) {
                m.insert(k.to_owned(), json!("[ms]"));
            }
        }
    }
    v
}

/// The text a model reads, with a tool's JSON text compared as a value (the CLI prints it
/// pretty, the server compact) and the CLI's closing newline left out.
fn text_of(text: &str) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => without_timings(v).to_string(),
        _ => text.strip_suffix('\n').unwrap_or(text).to_owned(),
    }
}

async fn server(root: &Path, cache: &Path) -> RunningService<RoleClient, ()> {
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.arg("serve").arg("--root").arg(root).env("MCP_JAVA_INDEX_CACHE_DIR", cache);
    let transport = rmcp::transport::TokioChildProcess::new(cmd).expect("spawning the server");
    ().serve(transport).await.expect("initialize handshake")
}

async fn over_mcp(client: &RunningService<RoleClient, ()>, tool: &str, args: &Value) -> Said {
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(args.as_object().expect("object").clone());
    let r = client.call_tool(params).await.expect("tools/call answered");
    let text: String = r.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.clone()).collect();
    if r.is_error == Some(true) {
        return Said::Refused(text);
    }
    Said::Answer { text: text_of(&text), structured: without_timings(r.structured_content.unwrap_or_default()) }
}

fn on_the_command_line(root: &Path, cache: &Path, tool: &str, args: &Value) -> Said {
    let run = |json: bool| {
        let mut cmd = Command::new(BIN);
        cmd.arg("call").arg(tool).arg(args.to_string()).arg("--root").arg(root);
        if json {
            cmd.arg("--json");
        }
        cmd.env("MCP_JAVA_INDEX_CACHE_DIR", cache).current_dir(root).output().expect("running the binary")
    };
    let (text, json) = (run(false), run(true));
    let out = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).into_owned();
    if !text.status.success() {
        let err = String::from_utf8_lossy(&text.stderr).into_owned();
        let message = err.lines().rev().find_map(|l| l.strip_prefix("error: ")).unwrap_or(&err).to_owned();
        return Said::Refused(message);
    }
    let structured = serde_json::from_str(&out(&json)).unwrap_or_else(|e| panic!("{tool}: --json printed {e}"));
    Said::Answer { text: text_of(&out(&text)), structured: without_timings(structured) }
}

/// Every file under `dir` last modified an hour ago.
fn age(dir: &Path) {
    let then = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for e in std::fs::read_dir(dir).expect("reading a directory") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            age(&p);
        } else {
            let f = std::fs::File::options().write(true).open(&p).expect("opening a fixture");
            f.set_modified(then).expect("setting its modification time");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_tool_answers_the_same_on_the_command_line_as_over_mcp() {
    let ws = tempfile::tempdir().expect("tempdir");
    copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"), ws.path());
    std::fs::write(ws.path().join("notes.txt"), "not java\n").expect("write");
    // Files written a moment ago are within the index's racy window (their stamps cannot
    // tell a later write apart) and are read again by whichever shell looks later: aged,
    // they are settled for both.
    age(ws.path());
    let root = std::fs::canonicalize(ws.path()).expect("canonical root");
    let (server_cache, cli_cache) = (tempfile::tempdir().expect("cache"), tempfile::tempdir().expect("cache"));
    let client = server(&root, server_cache.path()).await;
    let cases = cases();
    let registered: std::collections::BTreeSet<&str> =
        mcp_java_index::tools::registry::registry().iter().map(|e| e.spec.name).collect();
    let walked: std::collections::BTreeSet<&str> = cases.iter().map(|(t, _)| *t).collect();
    assert_eq!(walked, registered, "every tool has a case here");
    let mut differ = Vec::new();
    for (tool, args) in &cases {
        let mcp = over_mcp(&client, tool, args).await;
        let cli = on_the_command_line(&root, cli_cache.path(), tool, args);
        if mcp != cli {
            differ.push(format!("{tool} {args}:\n  mcp: {mcp:?}\n  cli: {cli:?}"));
        }
    }
    client.cancel().await.expect("close");
    assert!(differ.is_empty(), "the shells answer differently:\n{}", differ.join("\n"));
}
