//! Raw JSON-RPC lines against the real binary for what client libraries never send: invalid
//! `tools/call` params (`-32602`, not `-32601`) and request ids beyond what a 64-bit integer
//! or a double holds exactly (they must come back byte for byte).

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-java-index");

/// Sends the lines after the handshake, closes stdin, returns stdout's lines as text (ids are
/// checked on the text: parsing them as JSON numbers would round them).
fn session(lines: &[&str]) -> Vec<String> {
    let ws = tempfile::tempdir().expect("tempdir");
    std::fs::write(ws.path().join("Hello.java"), "class Hello {}\n").expect("write");
    let mut child = Command::new(BIN)
        .args(["serve", "--no-cache", "--root"])
        .arg(ws.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}});
    writeln!(stdin, "{init}").expect("write");
    writeln!(stdin, "{}", json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).expect("write");
    for l in lines {
        writeln!(stdin, "{l}").expect("write");
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect()
}

fn answer<'a>(out: &'a [String], id_text: &str) -> &'a str {
    let key = format!("\"id\":{id_text},");
    out.iter()
        .find(|l| l.contains(&key))
        .unwrap_or_else(|| panic!("no answer with id {id_text} written exactly: {out:#?}"))
}

#[test]
fn invalid_tool_call_params_are_invalid_params_not_method_not_found() {
    let out = session(&[
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"find_type","arguments":5}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":7}}"#,
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":[1]}"#,
        r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"find_type","arguments":{"pattern":"Hello"}}}"#,
        r#"{"jsonrpc":"2.0","id":7,"method":"no/such/method"}"#,
    ]);
    for (id, says) in [("2", "arguments"), ("3", "name"), ("4", "name"), ("5", "params")] {
        let a = answer(&out, id);
        assert!(a.contains("\"code\":-32602") && a.contains(says), "id {id}: {a}");
    }
    assert!(answer(&out, "6").contains("\"result\""), "a valid call still works");
    assert!(answer(&out, "7").contains("-32601"), "an unknown method is still method-not-found");
}

#[test]
fn large_request_ids_round_trip_exactly() {
    let ids = ["9007199254740993", "12345678901234567890", "-9223372036854775809", "123456789012345678901234567890"];
    let lines: Vec<String> = ids
        .iter()
        .map(|id| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"find_type","arguments":{{"pattern":"Hello"}}}}}}"#))
        .chain(std::iter::once(r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}"#.to_owned()))
        .collect();
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = session(&refs);
    for id in ids {
        let a = answer(&out, id);
        assert!(a.contains("\"result\"") && a.contains("Hello"), "id {id} was not served: {a}");
    }
    assert!(answer(&out, "18446744073709551616").contains("\"result\""), "{out:#?}");
}

#[test]
fn a_request_whose_id_is_an_object_or_an_array_is_answered_with_a_null_id() {
    let marker = "ECHO".repeat(1000);
    let lines = [
        format!(r#"{{"jsonrpc":"2.0","id":{{"x":"{marker}"}},"method":"ping"}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":["{marker}"],"method":"tools/list"}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":{{"x":"{marker}"}},"method":"tools/call","params":{{"name":7}}}}"#),
        r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#.to_owned(),
        format!(r#"{{"jsonrpc":"{marker}","id":8,"method":"ping"}}"#),
        r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#.to_owned(),
    ];
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = session(&refs);
    let invalid: Vec<&String> = out.iter().filter(|l| l.contains("\"id\":null") && l.contains("-32600")).collect();
    assert_eq!(invalid.len(), 4, "each bad id answered -32600 with id null: {out:#?}");
    assert!(out.iter().all(|l| !l.contains("ECHOECHO")), "an answer echoed what it was sent: {out:#?}");
    assert!(answer(&out, "8").contains("-32600"), "a bad jsonrpc version is an invalid request");
    assert!(answer(&out, "9").contains("\"result\""), "the server still serves");
}

#[test]
fn no_answer_echoes_a_long_value_it_was_sent() {
    let big = "ECHO".repeat(50_000);
    let lines = [
        format!(r#"{{"jsonrpc":"2.0","id":2,"method":"{big}"}}"#),
        format!(r#"{{"jsonrpc":"2.0","method":"{big}"}}"#),
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"find_type","arguments":"{big}"}}}}"#
        ),
        format!(r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":["{big}"]}}}}"#),
        format!(r#"{{"jsonrpc":"{big}","id":5,"method":"ping"}}"#),
        r#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#.to_owned(),
    ];
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = session(&refs);
    for (id, code) in [("2", "-32601"), ("3", "-32602"), ("4", "-32602"), ("5", "-32600")] {
        let a = answer(&out, id);
        assert!(a.contains(code) && a.len() < 1024, "id {id}: {} bytes: {}", a.len(), &a[..200.min(a.len())]);
    }
    assert!(answer(&out, "6").contains("\"result\""), "the server still serves");
    assert!(
        out.iter().all(|l| l.len() < 64 * 1024),
        "a long answer: {:?}",
        out.iter().map(String::len).collect::<Vec<_>>()
    );
}
