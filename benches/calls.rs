//! Issue 33's latencies from the persistent reference index (every file bound first, as the
//! server does after its first pass): `call_hierarchy` incoming at depth 1 and depth 3 for
//! methods sampled evenly over the JDK's java.base, beside `find_references` for the same
//! methods; and `affected_tests` for methods of commons-lang3 (main and test sources).
//!
//! `cargo bench --bench calls` (JDK tree from `$JDK_SRC_DIR`, else `target/jdk-src`; the
//! corpus from `target/corpus/commons-lang3`). `CALLS_BENCH_ROOT` names another tree than
//! java.base.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::dispatch;
use mcp_java_index::tools::tool::call_hierarchy::{CallDirection, CallHierarchyArgs};
use mcp_java_index::tools::tool::find_references::FindReferencesArgs;
use serde_json::json;

fn workspace(root: &Path, cache: &Path) -> Host {
    // As a server has it: the first index pass, then a watcher (its answers trust the watcher
    // instead of a stat of every file).
    let flags = Flags::roots([root]).set("cache_dir", cache.display()).set("watch", true);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.start_index();
    assert!(ws.index().wait_complete(Duration::from_secs(600)), "the first index pass");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ws.index().is_watching() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let t = Instant::now();
    ws.warm_references();
    let (files, refs) = ws.xref_bound();
    println!(
        "{}: every file bound in {:.1} s ({refs} references in {files} files)",
        root.display(),
        t.elapsed().as_secs_f64()
    );
    ws
}

fn pct(times: &mut [Duration], p: f64) -> f64 {
    times.sort();
    times[((times.len() as f64 * p) as usize).min(times.len() - 1)].as_secs_f64() * 1e3
}

fn report(what: &str, times: &mut [Duration]) {
    println!(
        "{what}: n {} p50 {:.1} ms p95 {:.1} ms max {:.1} ms",
        times.len(),
        pct(times, 0.5),
        pct(times, 0.95),
        pct(times, 1.0)
    );
}

/// `n` method keys spread evenly over the world's workspace types.
fn sample_methods(ws: &Host, n: usize) -> Vec<String> {
    let (w, _) = ws.xref_world();
    let count = w.type_count();
    let mut out = Vec::new();
    let mut i = 0;
    while out.len() < n && i < count {
        let id = mcp_java_index::xref::world::TypeId(i as u32);
        if w.is_workspace(id) {
            let d = w.decl(id);
            if let Some(m) = d.methods.iter().find(|m| !m.implicit) {
                out.push(w.method_key(id, m));
            }
        }
        i += (count / n).max(1);
    }
    out
}

fn main() {
    let Some(jdk) = common::jdk_sources() else { return };
    let cache = tempfile::tempdir().expect("tempdir");
    let root = std::env::var_os("CALLS_BENCH_ROOT").map(Into::into).unwrap_or_else(|| jdk.join("java.base"));
    let ws = workspace(&root, cache.path());
    let methods = sample_methods(&ws, 200);
    let (mut refs, mut d1, mut d3) = (Vec::new(), Vec::new(), Vec::new());
    for m in &methods {
        let t = Instant::now();
        let args = FindReferencesArgs { target: m.clone(), limit: 100, ..Default::default() };
        let _ = mcp_java_index::tools::tool::find_references::run(&ws, &args);
        refs.push(t.elapsed());
        for (depth, times) in [(1, &mut d1), (3, &mut d3)] {
            let args = CallHierarchyArgs {
                target: m.clone(),
                direction: CallDirection::Incoming,
                depth,
                limit: 50,
                ..Default::default()
            };
            let t = Instant::now();
            let _ = mcp_java_index::tools::tool::call_hierarchy::run(&ws, &args);
            times.push(t.elapsed());
        }
    }
    report("find_references (same methods)", &mut refs);
    report("call_hierarchy incoming depth 1", &mut d1);
    report("call_hierarchy incoming depth 3", &mut d3);

    let lang = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/corpus/commons-lang3");
    if !lang.is_dir() {
        println!("skipped affected_tests: {} missing", lang.display());
        return;
    }
    let cache = tempfile::tempdir().expect("tempdir");
    let ws = workspace(&lang, cache.path());
    let mut times = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let a = dispatch(
            &ws,
            "affected_tests",
            json!({"target": "org.apache.commons.lang3.StringUtils#isBlank(java.lang.CharSequence)"})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        )
        .expect("affected_tests");
        times.push(t.elapsed());
        std::hint::black_box(a);
    }
    report("affected_tests StringUtils#isBlank(CharSequence)", &mut times);
    let mut times = Vec::new();
    for m in
        sample_methods(&ws, 100).iter().filter(|m| m.starts_with("org.apache.commons.lang3.") && !m.contains("Test"))
    {
        let t = Instant::now();
        let _ = dispatch(&ws, "affected_tests", json!({"target": m}).as_object().cloned().unwrap_or_default());
        times.push(t.elapsed());
    }
    report("affected_tests, methods sampled over commons-lang3's main types", &mut times);
}
