//! Cross-reference benchmarks on the JDK sources: the world's cold build (every file's
//! declarations), then `find_references` for `java.util.List` and `java.lang.String#isEmpty()`
//! with a warm index and world, and `analyze_type_dependencies` / `show_definition`.
//!
//! Then the reference index: 300 sampled targets (`find_references`, then `type_hierarchy` at
//! depth 1 and 3), an edit reflected, the index persisted, and a restart on the warm cache
//! (time to the first answer).
//!
//! `cargo bench --bench xref` (JDK tree from `$JDK_SRC_DIR`, else `target/jdk-src`).

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::analyze_type_dependencies::DependenciesArgs;
use mcp_java_index::tools::tool::find_references::FindReferencesArgs;
use mcp_java_index::tools::tool::show_definition::ShowDefinitionArgs;
use mcp_java_index::tools::tool::type_hierarchy::TypeHierarchyArgs;

/// A workspace as a server has it: the first index pass, then a watcher (its answers trust
/// the watcher instead of a stat of every file).
fn workspace(root: &Path, cache: &Path) -> Host {
    let ws = open(root, cache);
    ws.start_index();
    ready(&ws);
    ws
}

fn open(root: &Path, cache: &Path) -> Host {
    let flags = Flags::roots([root]).set("cache_dir", cache.display()).set("watch", true);
    Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace")
}

/// Waits for the first index pass and the watcher.
fn ready(ws: &Host) {
    assert!(ws.index().wait_complete(Duration::from_secs(600)), "the first index pass");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ws.index().is_watching() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
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
    // The benchmark edits a file: it works on a copy made of hard links (instant), and edits
    // by renaming a new file over a link. `XREF_BENCH_DIR` keeps the copy and the cache
    // between runs, and with `XREF_RESTART_ONLY=1` a run on a kept cache times restarts only.
    let (_temps, copy, cache) = match std::env::var_os("XREF_BENCH_DIR") {
        Some(d) => {
            let d = Path::new(&d).to_path_buf();
            std::fs::create_dir_all(d.join("cache")).expect("bench dir");
            (None, d.clone(), d.join("cache"))
        }
        None => {
            let (a, b) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
            let (copy, cache) = (a.path().to_path_buf(), b.path().to_path_buf());
            (Some((a, b)), copy, cache)
        }
    };
    // The tree itself, not a link to it (`cp -a` would copy the link), copied rather than hard
    // linked: a file whose other name is outside the roots is not served (issue 50).
    let jdk = jdk.canonicalize().expect("the JDK tree");
    if !copy.join("jdk").is_dir() {
        let copied = std::process::Command::new("cp").arg("-a").arg(&jdk).arg(copy.join("jdk")).status();
        assert!(copied.is_ok_and(|s| s.success()), "cp -a {}", jdk.display());
    }
    let jdk = copy.join("jdk");
    if std::env::var_os("XREF_RESTART_ONLY").is_some() {
        for _ in 0..3 {
            restart(&jdk, &cache);
        }
        return;
    }
    // A full run starts cold.
    let _ = std::fs::remove_dir_all(&cache);
    std::fs::create_dir_all(&cache).expect("cache dir");
    let t = Instant::now();
    let ws = workspace(&jdk, &cache);
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
    println!("world up to date (the watcher says nothing changed): {:.2} ms", t.elapsed().as_secs_f64() * 1e3);

    for target in ["java.util.List", "java.lang.String#isEmpty()", "java.util.ArrayList#ArrayList(int)"] {
        let args = FindReferencesArgs { target: target.into(), count_only: true, limit: 100, ..Default::default() };
        // The first query binds the files that mention the name; the next ones read the
        // references kept bound.
        let t = Instant::now();
        let first = mcp_java_index::tools::tool::find_references::run(&ws, &args).expect("find_references").page.total;
        let cold = t.elapsed();
        let mut times = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            let total =
                mcp_java_index::tools::tool::find_references::run(&ws, &args).expect("find_references").page.total;
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
        let r = mcp_java_index::tools::tool::analyze_type_dependencies::run(
            &ws,
            &DependenciesArgs { type_name: "java.util.HashMap".into(), max_depth: 3, limit: 200, ..Default::default() },
        )
        .expect("deps");
        assert!(r.page.total > 0);
        times.push(t.elapsed());
    }
    println!("analyze_type_dependencies java.util.HashMap: median {:.1} ms", median(&mut times));
    let mut times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let r = mcp_java_index::tools::tool::show_definition::run(
            &ws,
            &ShowDefinitionArgs { symbol: "isEmpty".into(), limit: 20, ..Default::default() },
        )
        .expect("def");
        assert!(r.page.total > 0);
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
        "every file bound (the background pass, every core): {:.1} s for {bound} more files; {refs} references in {files} files, {:.0} MB kept (RSS {:.0} MB)",
        t.elapsed().as_secs_f64(),
        ws.xref_bound_bytes() as f64 / 1e6,
        rss_mb()
    );
    for target in ["java.util.List", "java.lang.String#isEmpty()", "java.util.ArrayList#ArrayList(int)"] {
        let args = FindReferencesArgs { target: target.into(), count_only: true, limit: 100, ..Default::default() };
        let mut times = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            mcp_java_index::tools::tool::find_references::run(&ws, &args).expect("find_references");
            times.push(t.elapsed());
        }
        println!("find_references {target}, every file bound: median {:.0} ms", median(&mut times));
    }
    let t = Instant::now();
    let _ = ws.xref_world();
    println!("of which the world's up-to-date check: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);

    // A sample of 300 targets spread over the world's types: a type, a field or a method.
    let targets = sample_targets(&ws, 300);
    let mut times = Vec::new();
    let mut failed = 0;
    for target in &targets {
        let args = FindReferencesArgs { target: target.clone(), count_only: true, limit: 100, ..Default::default() };
        let t = Instant::now();
        match mcp_java_index::tools::tool::find_references::run(&ws, &args) {
            Ok(_) => times.push(t.elapsed()),
            Err(_) => failed += 1,
        }
    }
    times.sort();
    let pct = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)].as_secs_f64() * 1e3;
    println!(
        "find_references over {} sampled targets ({failed} not resolvable), every file bound: p50 {:.0} ms, p95 {:.0} ms, max {:.0} ms",
        times.len(),
        pct(0.5),
        pct(0.95),
        pct(1.0)
    );

    // type_hierarchy beside it (issue 33): the same targets (a member names its type), both
    // directions, depth 1 and 3, from the reference index with every file bound.
    for depth in [1, 3] {
        let mut times = Vec::new();
        let mut entries = 0;
        for target in &targets {
            let args = TypeHierarchyArgs { target: target.clone(), depth, ..Default::default() };
            let t = Instant::now();
            if let Ok(r) = mcp_java_index::tools::tool::type_hierarchy::run(&ws, &args) {
                times.push(t.elapsed());
                entries += r.page.total;
            }
        }
        times.sort();
        let pct = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)].as_secs_f64() * 1e3;
        println!(
            "type_hierarchy depth {depth} over {} sampled targets ({entries} entries), every file bound: p50 {:.1} ms, p95 {:.1} ms, max {:.0} ms",
            times.len(),
            pct(0.5),
            pct(0.95),
            pct(1.0)
        );
    }
    for (target, depth) in [("java.util.Collection", 1), ("java.util.Collection", 3), ("java.lang.Runnable", 1)] {
        let args = TypeHierarchyArgs { target: target.into(), depth, ..Default::default() };
        let mut times = Vec::new();
        let mut total = 0;
        for _ in 0..5 {
            let t = Instant::now();
            total = mcp_java_index::tools::tool::type_hierarchy::run(&ws, &args).expect("type_hierarchy").page.total;
            times.push(t.elapsed());
        }
        println!("type_hierarchy {target} depth {depth}: {total} entries, median {:.1} ms", median(&mut times));
    }

    // One edit of the (linked) copy: a method added to Collections.java that uses List; the
    // next answer has it. Written to a new file renamed over the link, so the JDK tree the
    // copy links to is never written.
    let list =
        FindReferencesArgs { target: "java.util.List".into(), count_only: true, limit: 100, ..Default::default() };
    let before = mcp_java_index::tools::tool::find_references::run(&ws, &list).expect("find_references").page.total;
    let file = jdk.join("java.base/java/util/Collections.java");
    let text = std::fs::read_to_string(&file).expect("Collections.java");
    let end = text.rfind('}').expect("a closing brace");
    let edited = format!("{}    static List<String> zzBench() {{ return List.of(); }}\n{}", &text[..end], &text[end..]);
    let tmp = file.with_extension("tmp");
    std::fs::write(&tmp, edited).expect("write");
    std::fs::rename(&tmp, &file).expect("rename");
    // From the rename to the first answer that has the new references (the watcher's batch,
    // the world relinked, the file bound again).
    let t = Instant::now();
    let mut after = before;
    while after == before && t.elapsed() < Duration::from_secs(30) {
        after = mcp_java_index::tools::tool::find_references::run(&ws, &list).expect("find_references").page.total;
    }
    println!(
        "a method added to Collections.java, reflected in find_references java.util.List: {:.0} ms ({before} -> {after} references)",
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    let _ = mcp_java_index::tools::tool::find_references::run(&ws, &list).expect("find_references");
    println!("  the next answer: {:.0} ms", t.elapsed().as_secs_f64() * 1e3);

    // Persisted: the world and every file's references, then a restart on the same cache.
    let t = Instant::now();
    ws.flush();
    let size: u64 = std::fs::read_dir(&cache)
        .expect("cache dir")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("xref-"))
        .map(|e| e.metadata().map(|m| m.len()).unwrap_or(0))
        .sum();
    println!(
        "reference index written: {:.2} s, {:.0} MB on disk; then {:.0} MB kept in memory (the bodies live on disk; RSS {:.0} MB)",
        t.elapsed().as_secs_f64(),
        size as f64 / 1e6,
        ws.xref_bound_bytes() as f64 / 1e6,
        rss_mb()
    );
    drop(ws);
    restart(&jdk, &cache);
}

/// A restart on the warm cache: the index pass, then the first answers.
fn restart(jdk: &Path, cache: &Path) {
    let list =
        FindReferencesArgs { target: "java.util.List".into(), count_only: true, limit: 100, ..Default::default() };
    // As a server starts: the first index pass, and its reference keeper reading the
    // persisted world meanwhile.
    let start = Instant::now();
    let ws = open(jdk, cache);
    ws.start_index();
    let preloaded = std::thread::scope(|s| {
        let preload = s.spawn(|| {
            ws.preload_references();
            start.elapsed()
        });
        ready(&ws);
        preload.join().expect("preload")
    });
    let indexed = start.elapsed();
    let t = Instant::now();
    let n = mcp_java_index::tools::tool::find_references::run(&ws, &list).expect("find_references").page.total;
    println!(
        "restart on a warm cache: index {:.0} ms (world read back {:.0} ms after the start), then the first find_references java.util.List {:.0} ms, {:.0} ms after the start ({n} references; {} files read back bound; RSS {:.0} MB)",
        indexed.as_secs_f64() * 1e3,
        preloaded.as_secs_f64() * 1e3,
        t.elapsed().as_secs_f64() * 1e3,
        start.elapsed().as_secs_f64() * 1e3,
        ws.xref_bound().0,
        rss_mb()
    );
    for target in ["java.lang.String#isEmpty()", "java.util.ArrayList#ArrayList(int)"] {
        let args = FindReferencesArgs { target: target.into(), count_only: true, limit: 100, ..Default::default() };
        let t = Instant::now();
        let n = mcp_java_index::tools::tool::find_references::run(&ws, &args).expect("find_references").page.total;
        println!("  then find_references {target}: {:.0} ms ({n} references)", t.elapsed().as_secs_f64() * 1e3);
    }
    let t = Instant::now();
    mcp_java_index::tools::tool::find_references::run(&ws, &list).expect("find_references");
    println!("  find_references java.util.List again: {:.0} ms", t.elapsed().as_secs_f64() * 1e3);
}

/// `n` targets spread evenly over the world's workspace types: each a type, one of its
/// fields, or one of its methods by name.
fn sample_targets(ws: &Host, n: usize) -> Vec<String> {
    let (w, _) = ws.xref_world();
    let count = w.type_count();
    (0..n)
        .map(|i| {
            let t = w.decl(mcp_java_index::xref::world::TypeId(((i * count) / n) as u32));
            match i % 3 {
                1 if !t.fields.is_empty() => format!("{}#{}", t.fqn, t.fields[i % t.fields.len()].name),
                2 if !t.methods.is_empty() => format!("{}#{}", t.fqn, t.methods[i % t.methods.len()].name),
                _ => t.fqn.to_string(),
            }
        })
        .collect()
}
