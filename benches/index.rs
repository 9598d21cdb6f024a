//! Host index benchmarks on the JDK sources: cold index (empty cache) and warm start
//! (every file cached) beside `ctags -R` in the same run; query latency percentiles; the time
//! for an edit to show in query results; resident memory of a server holding the whole index
//! beside ctags' own peak.
//!
//! `cargo bench --bench index` (JDK tree from `$JDK_SRC_DIR`, else `target/jdk-src`).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::java_find_symbol::{FindSymbolArgs, FindSymbolOptions, MatchKind};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-java-index");

fn workspace(root: &Path, cache: &Path, watch: bool) -> Host {
    let flags = Flags::roots([root]).set("cache_dir", cache.display()).set("watch", watch);
    Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace")
}

fn find(ws: &Host, q: &str) -> u64 {
    let args = FindSymbolArgs {
        root_dir: ".".to_owned(),
        query: q.to_owned(),
        options: FindSymbolOptions { match_kind: MatchKind::Any, max_results: 50, ..Default::default() },
    };
    mcp_java_index::tools::tool::java_find_symbol::run(ws, &args).expect("find").page.total
}

fn pct(v: &mut [Duration], p: f64) -> f64 {
    v.sort();
    v[((v.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1e3
}

/// Peak resident memory of a command, in MB (via Python's getrusage on its children).
fn peak_rss_mb(cmd: &[&str]) -> Option<f64> {
    let script = format!(
        "import resource,subprocess,sys; subprocess.run({cmd:?}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    );
    let out = Command::new("python3").args(["-c", &script]).output().ok()?;
    String::from_utf8_lossy(&out.stdout).trim().parse::<f64>().ok().map(|kb| kb / 1024.0)
}

fn main() {
    let Some(jdk) = common::jdk_sources() else { return };
    let scratch = tempfile::tempdir().expect("tempdir");
    let cache = scratch.path().join("cache");

    // ctags as it is used: writing a sorted tags file.
    let tags = scratch.path().join("tags");
    let ctags = match common::ctags_tags(&jdk, &tags) {
        Some(s) => {
            println!("ctags -R (tags file): {s:.2} s");
            s
        }
        None => f64::NAN,
    };

    let ws = workspace(&jdk, &cache, false);
    let t = Instant::now();
    ws.build_index();
    ws.flush();
    let cold = t.elapsed().as_secs_f64();
    let (files, symbols, resources) = ws.index().counts();
    println!(
        "cold index (no snapshot: skeleton parse + snapshot write): {cold:.2} s for {files} Java files, {symbols} symbols, {resources} files ({:.2}x ctags)",
        cold / ctags
    );
    drop(ws);

    let ws = workspace(&jdk, scratch.path().join("nocache").as_path(), false);
    let flags = Flags::roots([&jdk]).set("cache", false).set("watch", false);
    let nocache = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    drop(ws);
    let t = Instant::now();
    nocache.build_index();
    println!("cold index without a cache (parse only): {:.2} s", t.elapsed().as_secs_f64());
    drop(nocache);

    let ws = workspace(&jdk, &cache, false);
    let t = Instant::now();
    ws.build_index();
    let warm = t.elapsed().as_secs_f64();
    println!("warm start (every file cached): {warm:.3} s ({:.2}x ctags)", warm / ctags);

    // Query latency over a mix of exact names, prefixes, camelCase and substrings.
    let queries = [
        "HashMap",
        "toString",
        "getInputStream",
        "gSV",
        "NPE",
        "parse",
        "Abstract",
        "isEmpty",
        "readObject",
        "xyzzy",
        "LinkedHashMap",
        "hC",
        "Character",
        "value",
        "compareTo",
        "ensureCapacity",
        "sun",
        "Buffer",
        "Unsafe",
        "getClass",
    ];
    find(&ws, "warmup");
    let mut lat: Vec<Duration> = Vec::new();
    for _ in 0..10 {
        for q in queries {
            let t = Instant::now();
            find(&ws, q);
            lat.push(t.elapsed());
        }
    }
    println!(
        "java_find_symbol over the whole index: p50 {:.2} ms, p99 {:.2} ms ({} queries)",
        pct(&mut lat, 0.5),
        pct(&mut lat, 0.99),
        lat.len()
    );
    drop(ws);

    // An edit seen by the next query, with the watcher running.
    let ws = workspace(&jdk, &cache, true);
    ws.start_index();
    ws.wait_index();
    std::thread::sleep(Duration::from_millis(300));
    let file = jdk.join("java.base/java/util/ArrayList.java");
    let original = std::fs::read(&file).expect("read");
    let mut samples = Vec::new();
    for i in 0..5 {
        let name = format!("benchEditMarker{i}x{}", std::process::id());
        let mut edited = original.clone();
        let at = edited.iter().rposition(|&b| b == b'}').expect("closing brace");
        edited.splice(at..at, format!("    void {name}() {{}}\n").into_bytes());
        let t = Instant::now();
        std::fs::write(&file, &edited).expect("write");
        while find(&ws, &name) == 0 {
            assert!(t.elapsed() < Duration::from_secs(10), "edit never seen");
            std::thread::sleep(Duration::from_millis(1));
        }
        samples.push(t.elapsed());
        std::fs::write(&file, &original).expect("restore");
        std::thread::sleep(Duration::from_millis(200));
    }
    println!(
        "file edit reflected in query results: median {:.1} ms, max {:.1} ms",
        pct(&mut samples, 0.5),
        pct(&mut samples, 1.0)
    );
    drop(ws);

    // Resident memory of a server holding the whole index.
    let mut child = Command::new(BIN)
        .args(["serve", "--no-watch", "--index-wait-ms", "600000", "--root"])
        .arg(&jdk)
        .arg("--cache-dir")
        .arg(&cache)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("server");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"java_find_symbol","arguments":{"rootDir":".","query":"HashMap"}}}"#,
    ] {
        writeln!(stdin, "{line}").expect("write");
    }
    let mut line = String::new();
    while stdout.read_line(&mut line).expect("read") > 0 && !line.contains("\"id\":2") {
        line.clear();
    }
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    let field =
        |k: &str| status.lines().find(|l| l.starts_with(k)).map(|l| l[k.len()..].trim().to_owned()).unwrap_or_default();
    println!("server with the whole JDK indexed: VmRSS {}, VmHWM {}", field("VmRSS:"), field("VmHWM:"));
    drop(stdin);
    let _ = child.wait();
    let tags = tags.to_string_lossy().into_owned();
    if let Some(mb) = peak_rss_mb(&["ctags", "-R", "--languages=Java", "-f", &tags, &jdk.to_string_lossy()]) {
        println!("ctags -R (tags file) peak RSS: {mb:.0} MB");
    }
}
