//! Cross-reference benchmarks on the JDK sources: the world's cold build (every file's
//! declarations), then `find_references` for `java.util.List` and `java.lang.String#isEmpty()`
//! with a warm index and world, and `analyze_type_dependencies` / `show_definition`.
//!
//! `cargo bench --bench xref` (JDK tree from `$JDK_SRC_DIR`, else `target/jdk-src`).

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::workspace::Workspace;
use mcp_java_index::tools::xref::{DependenciesArgs, FindReferencesArgs, ShowDefinitionArgs};

fn workspace(root: &Path, cache: &Path) -> Workspace {
    let flags = Flags::roots([root]).set("cache_dir", cache.display()).set("watch", false);
    Workspace::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace")
}

/// This process's resident memory in MB (Linux), for the memory each stage adds.
fn rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|k| k.parse::<f64>().ok()))
        .map_or(0.0, |kb| kb / 1024.0)
}

fn median(v: &mut [Duration]) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e3
}

fn main() {
    let Some(jdk) = common::jdk_sources() else { return };
    let scratch = tempfile::tempdir().expect("tempdir");
    let ws = workspace(&jdk, scratch.path());
    let t = Instant::now();
    ws.build_index();
    println!("index first pass: {:.2} s (RSS {:.0} MB)", t.elapsed().as_secs_f64(), rss_mb());
    let t = Instant::now();
    let (w, files) = ws.xref_world();
    println!(
        "world cold build: {:.2} s ({} files, {} types; RSS {:.0} MB)",
        t.elapsed().as_secs_f64(),
        files.len(),
        w.type_count(),
        rss_mb()
    );
    let t = Instant::now();
    let _ = ws.xref_world();
    println!("world up to date (stat of every file): {:.1} ms", t.elapsed().as_secs_f64() * 1e3);

    for target in ["java.util.List", "java.lang.String#isEmpty()", "java.util.ArrayList#ArrayList(int)"] {
        let args = FindReferencesArgs { target: target.into(), count_only: true, limit: 100, ..Default::default() };
        // The first query binds the files that mention the name; the next ones read the
        // references kept bound.
        let t = Instant::now();
        let first = ws.find_references(&args).expect("find_references").total;
        let cold = t.elapsed();
        let mut times = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            let total = ws.find_references(&args).expect("find_references").total;
            assert_eq!(total, first, "kept references answer as binding does");
            times.push(t.elapsed());
        }
        println!(
            "find_references {target}: {first} references, first {:.0} ms, then median {:.0} ms",
            cold.as_secs_f64() * 1e3,
            median(&mut times)
        );
    }
    let mut times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let r = ws
            .analyze_type_dependencies(&DependenciesArgs {
                type_name: "java.util.HashMap".into(),
                max_depth: 3,
                limit: 200,
                ..Default::default()
            })
            .expect("deps");
        assert!(r.total > 0);
        times.push(t.elapsed());
    }
    println!("analyze_type_dependencies java.util.HashMap: median {:.1} ms", median(&mut times));
    let mut times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let r = ws
            .show_definition(&ShowDefinitionArgs { symbol: "isEmpty".into(), limit: 20, ..Default::default() })
            .expect("def");
        assert!(r.total > 0);
        times.push(t.elapsed());
    }
    println!("show_definition isEmpty: median {:.1} ms", median(&mut times));
    let (files, refs) = ws.xref_bound();
    println!("references kept bound: {refs} in {files} files");
    // What the server does in the background after its first index pass: bind every file.
    let t = Instant::now();
    let bound = ws.warm_references();
    let (files, refs) = ws.xref_bound();
    println!(
        "every file bound (one thread): {:.1} s for {bound} more files; {refs} references in {files} files, {:.0} MB kept (RSS {:.0} MB)",
        t.elapsed().as_secs_f64(),
        ws.xref_bound_bytes() as f64 / 1e6,
        rss_mb()
    );
    for target in ["java.util.List", "java.lang.String#isEmpty()", "java.util.ArrayList#ArrayList(int)"] {
        let args = FindReferencesArgs { target: target.into(), count_only: true, limit: 100, ..Default::default() };
        let mut times = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            ws.find_references(&args).expect("find_references");
            times.push(t.elapsed());
        }
        println!("find_references {target}, every file bound: median {:.0} ms", median(&mut times));
    }
    let t = Instant::now();
    let _ = ws.xref_world();
    println!("of which the world's up-to-date check: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
}
