//! Server and cache benchmarks: start to first `tools/list` answer, `java_index` of a cached
//! file through the server (round trip over stdio), and the whole JDK tree through the CLI —
//! `index DIR` (the workspace index) and `index --outlines DIR` (every outline printed), each
//! cold (empty cache) and warm — beside `ctags -R` writing its tags file in the same run.
//!
//! `cargo bench --bench server` (JDK tree from `$JDK_SRC_DIR`, else `target/jdk-src`).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-java-index");

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn percentile(mut v: Vec<Duration>, p: f64) -> Duration {
    v.sort();
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    fn start(root: &Path, cache: &Path) -> Session {
        let mut child = Command::new(BIN)
            .args(["serve", "--root"])
            .arg(root)
            .arg("--cache-dir")
            .arg(cache)
            .arg("--no-watch")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Session { child, stdin, stdout }
    }

    fn send(&mut self, v: serde_json::Value) {
        writeln!(self.stdin, "{v}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Reads lines until the answer to `id` (found without parsing the whole line, so the
    /// client's own JSON parsing is not what is measured); returns the raw line.
    fn answer(&mut self, id: i64) -> String {
        let mut line = String::new();
        let tag = format!("\"id\":{id},");
        let tag_end = format!("\"id\":{id}}}");
        loop {
            line.clear();
            assert!(self.stdout.read_line(&mut line).expect("read") > 0, "server closed");
            if line.contains(&tag) || line.contains(&tag_end) {
                return line;
            }
        }
    }

    fn handshake(&mut self) {
        self.send(serde_json::json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}));
        self.answer(0);
        self.send(serde_json::json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
    }

    fn stop(mut self) {
        drop(self.stdin);
        let _ = self.child.wait();
    }
}

fn main() {
    let jdk = std::env::var_os("JDK_SRC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/jdk-src"));
    let scratch = tempfile::tempdir().expect("tempdir");
    let cache = scratch.path().join("cache");

    // 1. Start to first tools/list answer.
    let samples: Vec<Duration> = (0..21)
        .map(|_| {
            let t = Instant::now();
            let mut s = Session::start(scratch.path(), &cache);
            s.handshake();
            s.send(serde_json::json!({"jsonrpc":"2.0","id":1,"method":"tools/list"}));
            s.answer(1);
            let d = t.elapsed();
            s.stop();
            d
        })
        .collect();
    println!(
        "server start to first tools/list answer: median {:.2} ms, p90 {:.2} ms",
        ms(median(samples.clone())),
        ms(percentile(samples, 0.9))
    );

    if !jdk.join("java.base").is_dir() {
        eprintln!("no JDK sources at {} (set JDK_SRC_DIR or run .ci/run); skipping the JDK parts", jdk.display());
        return;
    }

    // 2. java_index of a cached file through the server.
    let mut s = Session::start(&jdk, &cache);
    s.handshake();
    // Let the workspace index finish its first pass, so it does not compete for the CPU.
    s.send(serde_json::json!({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"find_type","arguments":{"pattern":"Object"}}}));
    s.answer(5);
    let call = |s: &mut Session, id: i64, file: &str| {
        s.send(serde_json::json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"java_index","arguments":{"filePath":file}}}));
        let v = s.answer(id);
        assert!(v.contains("\"isError\":false"), "{}", &v[..v.len().min(300)]);
        v
    };
    for (file, label) in [
        ("java.base/java/lang/Character.java", "Character.java (11,390 lines)"),
        ("java.base/java/util/ArrayList.java", "ArrayList.java"),
    ] {
        let first = Instant::now();
        call(&mut s, 1, file);
        let cold = first.elapsed();
        let samples: Vec<Duration> = (0..200)
            .map(|i| {
                let t = Instant::now();
                call(&mut s, 10 + i, file);
                t.elapsed()
            })
            .collect();
        println!(
            "java_index {label} through the server: first call {:.2} ms, cached median {:.3} ms, p99 {:.3} ms",
            ms(cold),
            ms(median(samples.clone())),
            ms(percentile(samples, 0.99))
        );
        // The outline cached, but each call's arguments new (a limit past the declarations,
        // which changes nothing): the answer budget cuts its page afresh every time.
        let samples: Vec<Duration> = (0..30)
            .map(|i| {
                let t = Instant::now();
                let args = serde_json::json!({"filePath": file, "options": {"limit": 100_000 + i}});
                s.send(serde_json::json!({"jsonrpc":"2.0","id":1000 + i,"method":"tools/call","params":{"name":"java_index","arguments":args}}));
                let v = s.answer(1000 + i);
                assert!(v.contains("\"isError\":false"), "{}", &v[..v.len().min(300)]);
                t.elapsed()
            })
            .collect();
        println!("java_index {label}, new arguments each call: median {:.3} ms", ms(median(samples)));
    }
    s.stop();

    // 3. Whole JDK through the CLI beside `ctags -R` writing its tags file, in the same run:
    // `index DIR` (the workspace index a server on DIR uses, kept in DIR's cache) cold and
    // warm, then `index --outlines DIR` (every file's full outline printed) cold and warm.
    let tags = scratch.path().join("tags");
    let ctags = || common::ctags_tags(&jdk, &tags);
    ctags(); // the page cache warmed for everyone
    let jdk_cache = scratch.path().join("jdk-cache");
    let run = |args: &[&str], label: &str| -> f64 {
        let t = Instant::now();
        let out = Command::new(BIN)
            .args(["index", "--stats"])
            .args(args)
            .arg("--cache-dir")
            .arg(&jdk_cache)
            .arg(&jdk)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .expect("index");
        let wall = t.elapsed().as_secs_f64();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let stats = String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or_default().to_owned();
        println!("cli {label}: {wall:.2} s wall; {stats}");
        wall
    };
    let before = ctags();
    let cold = run(&[], "index DIR, cold (empty cache)");
    let warm = run(&[], "index DIR, warm (snapshot)");
    let after = ctags();
    let outlines_cold = run(&["--outlines"], "index --outlines DIR, cold (no outline cached)");
    let outlines_warm = run(&["--outlines"], "index --outlines DIR, warm (every outline cached)");
    if let (Some(b), Some(a)) = (before, after) {
        let c = (a + b) / 2.0;
        println!("ctags -R (tags file) on the same tree: {b:.2} s before, {a:.2} s after");
        println!(
            "index DIR: cold {:.2}x ctags, warm {:.3}x ctags; index --outlines DIR: cold {:.2}x, warm {:.3}x",
            cold / c,
            warm / c,
            outlines_cold / c,
            outlines_warm / c
        );
    }
}
