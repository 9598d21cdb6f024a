//! `serve` driven through the real binary: the harness its transports share (a temp
//! workspace with the user's own directories, a server that says where it listens, JSON-RPC
//! lines), a non-loopback bind refused, the shared server — started by the first `bridge`,
//! reused by the second, shared with an HTTP client, stopping by itself when idle, its log
//! kept —, resources over stdio and two roots chosen per call. `http` and `tcp` hold each
//! transport's own tests.

mod http;
mod shared;
mod tcp;

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

/// The command line is a client of the warm shared server (issue 38): with one running for
/// the workspace, a query command sends its call there — the server's protocol log shows each
/// call — and prints exactly what it prints answering in process (`--no-daemon`); a command
/// that gives another setting, or a tool outside navigation, answers in process.
#[test]
fn cli_queries_go_to_the_running_shared_server_and_print_the_same_bytes() {
    let env = Env::new();
    let log = env.user.path().join("server.log");
    let log_arg = log.to_string_lossy().into_owned();
    let _server = start(&env, &["serve", "--shared", "--log-file", &log_arg]);
    wait_until("the shared server to register", 30, || env.registration().is_some());
    let calls = || std::fs::read_to_string(&log).unwrap_or_default().matches("\"method\":\"tools/call\"").count();
    let run = |args: &[&str]| {
        let o = env.cmd(args).output().expect("cli");
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let queries: [&[&str]; 4] = [
        &["types", "Color*"],
        &["find", "values"],
        &["range", "records.java", "1", "6"],
        &["types", "NoSuchTypeAnywhere"],
    ];
    for q in queries {
        let before = calls();
        let shared = run(q);
        assert_eq!(calls(), before + 1, "{q:?} went to the shared server: {}", shared.2);
        let local = run(&[q, &["--no-daemon"]].concat());
        assert_eq!(calls(), before + 1, "{q:?} --no-daemon answered in process");
        assert_eq!(shared, local, "{q:?}: the same exit, output and errors either way");
        assert!(!shared.1.is_empty() || shared.0 == Some(1), "{q:?}: {shared:?}");
    }
    // Another setting on the command line: answered here, with that setting.
    let before = calls();
    let (code, _, err) = run(&["types", "Color*", "--answer-tokens", "2000"]);
    assert_eq!((code, calls()), (Some(0), before), "{err}");
    // A tool that is not navigation (problems depend on trust and the build): in process.
    let (_, _, err) = run(&["problems", "records.java", "--source", "syntax"]);
    assert_eq!(calls(), before, "{err}");
}

/// `--daemon` (issue 38): a query command that finds no running shared server starts one in
/// the background, as `bridge` does, and answers in its own process; the next command is
/// answered by that server (its protocol log shows the call) with the same bytes, and starts
/// no second one. Without `--daemon` no server is started.
#[test]
fn a_query_with_daemon_starts_the_shared_server_the_next_command_uses() {
    let env = Env::new();
    let log = env.user.path().join("protocol.log");
    let calls = || std::fs::read_to_string(&log).unwrap_or_default().matches("\"method\":\"tools/call\"").count();
    let run = |args: &[&str]| {
        // The environment reaches the started server: it logs its protocol there.
        let o = env.cmd(args).env("MCP_JAVA_INDEX_LOG_FILE", &log).output().expect("cli");
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let plain = run(&["types", "Color*"]);
    assert_eq!(plain.0, Some(0), "{plain:?}");
    assert!(env.registration().is_none(), "no server without --daemon");
    let first = run(&["types", "Color*", "--daemon"]);
    assert_eq!(first, plain, "the first command answers in its own process");
    wait_until("the started shared server to register", 60, || env.registration().is_some());
    let (_, reg) = env.registration().expect("registration");
    let pid = pid_of(&reg);
    assert_eq!(calls(), 0, "nothing was sent to the server yet");
    let second = run(&["types", "Color*", "--daemon"]);
    assert_eq!(calls(), 1, "the second command went to the started server: {}", second.2);
    assert_eq!(second, first, "the same exit, output and errors either way");
    assert_eq!(env.registration().map(|(_, r)| pid_of(&r)), Some(pid), "no second server");
    // Stopped by its pid (this test started it): it unregisters.
    let killed = Command::new("kill").arg(pid.to_string()).status().expect("kill");
    assert!(killed.success());
    wait_until("the stopped shared server to unregister", 30, || env.registration().is_none());
}
