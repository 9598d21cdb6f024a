//! The server under load and cancellation, as a heavy client drives it: pipelined floods are
//! all answered by a bounded pool of workers (threads stay bounded), and a cancelled call
//! stops consuming CPU.

use std::io::{BufRead, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-java-index");

/// A running server with a line reader on its stdout.
struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Value>,
}

impl Session {
    fn start(root: &Path) -> Session {
        let mut child = Command::new(BIN)
            .args(["serve", "--no-watch", "--no-cache", "--root"])
            .arg(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let mut s = Session { child, stdin, lines };
        s.send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "load", "version": "0"}}}));
        s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s.wait_for(0, Duration::from_secs(30));
        s
    }

    fn send(&mut self, v: Value) {
        writeln!(self.stdin, "{v}").expect("write to the server");
    }

    fn call(&mut self, id: u64, tool: &str, args: Value) {
        self.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": args}}),
        );
    }

    /// The answer to request `id` (other messages are dropped).
    fn wait_for(&mut self, id: u64, limit: Duration) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self.lines.recv_timeout(left).unwrap_or_else(|_| panic!("no answer to request {id} in {limit:?}"));
            if v["id"] == id {
                return v;
            }
        }
    }

    fn proc_field(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }

    /// CPU time (user + system) the server has used, in clock ticks.
    fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // Fields after the command name (which may hold spaces) start at ")".
        let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
        let f: Vec<u64> = rest.split_whitespace().map(|x| x.parse().unwrap_or(0)).collect();
        // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after ")".
        f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// 2,000 pipelined calls: every one is answered (a result, or a "server busy" tool error the
/// client can retry), and the process never runs more threads than its pool allows.
#[test]
fn a_pipelined_flood_is_answered_by_a_bounded_pool() {
    let ws = tempfile::tempdir().expect("tempdir");
    let body: String = (1..=40).map(|i| format!("    int f{i};\n")).collect();
    std::fs::write(ws.path().join("A.java"), format!("class A {{\n{body}}}\n")).expect("write");
    let mut s = Session::start(ws.path());
    let threads_before = s.proc_field("Threads:");
    const N: u64 = 2000;
    for id in 1..=N {
        s.call(id, "java_read_range", json!({"filePath": "A.java", "startLine": 1 + id % 40, "endLine": 2 + id % 40}));
    }
    let mut answered = std::collections::BTreeSet::new();
    let (mut busy, mut max_threads) = (0, 0);
    let deadline = Instant::now() + Duration::from_secs(120);
    while answered.len() < N as usize {
        max_threads = max_threads.max(s.proc_field("Threads:"));
        let v = s.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("every call answered");
        let Some(id) = v["id"].as_u64() else { continue };
        let result = &v["result"];
        if result["isError"] == true {
            let text = result["content"][0]["text"].as_str().unwrap_or_default();
            assert!(text.starts_with("server busy"), "unexpected error for {id}: {v}");
            busy += 1;
        } else {
            assert!(result["structuredContent"]["content"].is_string(), "{v}");
        }
        answered.insert(id);
    }
    eprintln!("threads before {threads_before}, at most {max_threads}; {busy} of {N} answered busy");
    // tokio's workers, the bounded pool of blocking workers, rayon's pool, the index: a few
    // dozen at most (an unbounded blocking pool grew to hundreds).
    assert!(max_threads <= 48, "{max_threads} threads under a flood of {N} calls");
}

/// A cancelled find_references stops reading and binding files: the server's CPU use stops
/// growing soon after `notifications/cancelled`, and the next call is answered.
#[test]
fn a_cancelled_call_stops_consuming_cpu() {
    let ws = tempfile::tempdir().expect("tempdir");
    let root = ws.path();
    std::fs::create_dir_all(root.join("p")).expect("mkdir");
    std::fs::write(root.join("p/Target.java"), "package p;\npublic class Target { public static void go() {} }\n")
        .expect("write");
    // Enough files that binding them all takes seconds in a test build.
    let calls: String = (0..60).map(|k| format!("        Target.go(); Target t{k} = new Target();\n")).collect();
    for i in 0..6000 {
        let dir = root.join(format!("p/g{}", i % 30));
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(
            dir.join(format!("G{i}.java")),
            format!("package p.g{};\nimport p.Target;\nclass G{i} {{\n    void m() {{\n{calls}    }}\n}}\n", i % 30),
        )
        .expect("write");
    }
    // The background binding of every file would keep the CPU busy on its own.
    std::fs::write(root.join("mcp-java-index.toml"), "warm_references = false\n").expect("write");
    let mut s = Session::start(root);
    // Build the world first (that part is not cancellable: a half-built world would be wrong).
    s.call(1, "find_references", json!({"target": "p.Target#nothing", "countOnly": true}));
    s.wait_for(1, Duration::from_secs(300));

    s.call(2, "find_references", json!({"target": "p.Target", "limit": 5}));
    std::thread::sleep(Duration::from_millis(700));
    let busy_before = s.cpu_ticks();
    std::thread::sleep(Duration::from_millis(500));
    assert!(s.cpu_ticks() > busy_before, "the search should be running before it is cancelled");
    s.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2, "reason": "test"}}),
    );
    // Files already being bound finish; then the workers go idle.
    std::thread::sleep(Duration::from_millis(600));
    let t0 = s.cpu_ticks();
    std::thread::sleep(Duration::from_millis(1500));
    let spent = s.cpu_ticks() - t0;
    assert!(spent <= 20, "the cancelled call went on: {spent} ticks of CPU in 1.5 s after the cancellation");
    s.call(3, "java_read_range", json!({"filePath": "p/Target.java", "startLine": 1, "endLine": 1}));
    let v = s.wait_for(3, Duration::from_secs(30));
    assert_eq!(v["result"]["isError"], false, "{v}");
}

/// Every input and output is bounded: a 1 MB pattern, a 20,000-item list and a 100-deep
/// object are refused naming the argument and the limit (the server keeps serving); an answer
/// over the answer budget is paged, saying how to get the rest; a message over the transport's
/// limit gets a JSON-RPC error.
#[test]
fn oversized_arguments_answers_and_messages_are_refused_naming_the_limit() {
    let ws = tempfile::tempdir().expect("tempdir");
    // 3,000 lines of 400 characters: a whole-file read is about 1.2 MB.
    let line = format!("// {}\n", "x".repeat(400));
    std::fs::write(ws.path().join("Big.java"), format!("class Big {{\n{}}}\n", line.repeat(3000))).expect("write");
    // 12,000 fields: an outline of several MB.
    let fields: String = (0..12_000).map(|i| format!("    int field{i};\n")).collect();
    std::fs::write(ws.path().join("Wide.java"), format!("class Wide {{\n{fields}}}\n")).expect("write");
    let mut s = Session::start(ws.path());
    let error_text = |v: &Value| -> String {
        assert_eq!(v["result"]["isError"], true, "{v}");
        v["result"]["content"][0]["text"].as_str().unwrap_or_default().to_owned()
    };
    s.call(1, "find_type", json!({"pattern": "A".repeat(1_000_000)}));
    let t = error_text(&s.wait_for(1, Duration::from_secs(30)));
    assert!(t.contains("`pattern` is 1000000 characters, over the limit of 65536"), "{t}");
    let many: Vec<String> = (0..20_000).map(|i| format!("p{i}")).collect();
    s.call(2, "get_problems", json!({"paths": many}));
    let t = error_text(&s.wait_for(2, Duration::from_secs(30)));
    assert!(t.contains("`paths` has 20000 items, over the limit of 10000"), "{t}");
    let mut deep = json!(1);
    for _ in 0..100 {
        deep = json!({ "x": deep });
    }
    s.call(3, "find_type", json!({"pattern": "A", "extra": deep}));
    let t = error_text(&s.wait_for(3, Duration::from_secs(30)));
    assert!(t.contains("nests deeper than 32 levels"), "{t}");
    s.call(
        4,
        "java_read_range",
        json!({"filePath": "Big.java", "startLine": 1, "endLine": 3002, "options": {"maxChars": 200000}}),
    );
    // A 200,000-character read is over the answer budget: cut at a line, saying where to go on.
    let v = s.wait_for(4, Duration::from_secs(30));
    assert_eq!(v["result"]["isError"], false, "a capped read fits: {v}");
    let r = &v["result"]["structuredContent"];
    let next = r["nextStartLine"].as_u64().unwrap_or(0);
    assert!(r["truncated"] == true && next > 1 && next == r["endLine"].as_u64().unwrap_or(0) + 1, "{r}");
    // An outline of several MB: the first page that fits, and the call for the rest.
    s.call(7, "java_index", json!({"filePath": "Wide.java"}));
    let v = s.wait_for(7, Duration::from_secs(60));
    let r = &v["result"]["structuredContent"];
    let next = r["nextOffset"].as_u64().unwrap_or(0);
    assert!(r["truncated"] == true && next > 100 && r["totalDeclarations"] == 12_001, "{}", r["nextOffset"]);
    let t = v["result"]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(t.ends_with(&format!("call again with options.offset={next}\n")), "{}", &t[t.len().saturating_sub(200)..]);
    // A message over the transport's limit: an error, and the server still answers.
    s.send(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "find_type", "arguments": {"pattern": "x".repeat(9 * 1024 * 1024)}}}));
    let v = s.lines.recv_timeout(Duration::from_secs(30)).expect("an error for the oversized message");
    assert_eq!(v["error"]["code"], -32600, "{v}");
    assert!(v["error"]["message"].as_str().is_some_and(|m| m.contains("8 MiB")), "{v}");
    s.call(6, "find_type", json!({"pattern": "Big"}));
    let v = s.wait_for(6, Duration::from_secs(30));
    assert_eq!(v["result"]["isError"], false, "{v}");
}
