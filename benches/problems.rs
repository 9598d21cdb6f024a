//! get_problems benchmarks on a generated 1,000-file project (20 packages of 50 classes that
//! call each other across packages, some with warnings): the first check of one file with a
//! cold JVM (helper compiled and started), the same check again (cache), a re-check after an
//! edit (goal: under 1 s), the whole project, and the resident memory of the warm compiler.
//!
//! `cargo bench --bench problems` (needs a JDK on PATH or in JAVA_HOME).

use std::path::Path;
use std::time::{Duration, Instant};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::get_problems::{ProblemsArgs, ProblemsResult};

const PACKAGES: usize = 20;
const PER_PACKAGE: usize = 50;

fn generate(root: &Path) {
    for p in 0..PACKAGES {
        let dir = root.join(format!("src/main/java/com/bench/p{p}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        for c in 0..PER_PACKAGE {
            let other = (p + 1) % PACKAGES;
            let warn = if c % 10 == 0 { "        java.util.List raw = new java.util.ArrayList();\n" } else { "" };
            let body = format!(
                "package com.bench.p{p};\n\nimport java.util.ArrayList;\nimport java.util.List;\nimport com.bench.p{other}.C{other}_{c};\n\n\
/** Class {c} of package {p}. */\npublic class C{p}_{c} {{\n    private final List<String> items = new ArrayList<>();\n\n\
    public int size() {{\n        return items.size();\n    }}\n\n\
    public String describe(C{other}_{c} peer) {{\n{warn}        StringBuilder b = new StringBuilder();\n        for (String s : items) {{\n            b.append(s).append(',');\n        }}\n        return b + \":\" + peer.size();\n    }}\n\n\
    public static int twice(int x) {{\n        return x * 2;\n    }}\n}}\n"
            );
            std::fs::write(dir.join(format!("C{p}_{c}.java")), body).expect("write");
        }
    }
}

fn workspace(root: &Path, cache: &Path) -> Host {
    let flags = Flags::roots([root]).set("cache_dir", cache.display());
    let env = |k: &str| (k == "MCP_JAVA_INDEX_PROBLEMS_BUDGET_MS").then(|| "600000".to_owned());
    Host::open(Config::load(&flags, &env).expect("config")).expect("workspace")
}

fn check(ws: &Host, paths: &[&str]) -> (Duration, ProblemsResult) {
    let args = ProblemsArgs { paths: paths.iter().map(|p| (*p).to_owned()).collect(), ..Default::default() };
    let t = Instant::now();
    let r = mcp_java_index::tools::tool::get_problems::run(ws, &args).expect("get_problems");
    (t.elapsed(), r)
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let root = scratch.path().join("project");
    let cache = scratch.path().join("cache");
    generate(&root);
    let ws = workspace(&root, &cache);
    let one = "src/main/java/com/bench/p3/C3_7.java";

    let (cold, r) = check(&ws, &[one]);
    if !r.javac.available {
        eprintln!("javac unavailable: {:?}", r.javac.reason);
        return;
    }
    println!("files: {}", PACKAGES * PER_PACKAGE);
    println!("first check of one file (JVM cold, helper compiled): {}", ms(cold));
    let (again, _) = check(&ws, &[one]);
    println!("same file unchanged (cache): {}", ms(again));

    let path = root.join(one);
    let original = std::fs::read_to_string(&path).expect("read");
    let mut edits = Vec::new();
    for i in 0..5 {
        std::fs::write(&path, original.replace("return x * 2;", &format!("return x * {};", i + 3))).expect("edit");
        let (t, r) = check(&ws, &[one]);
        assert!(r.complete && r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        edits.push(t);
    }
    edits.sort();
    println!("re-check after an edit (median of 5, warm JVM): {}", ms(edits[2]));
    std::fs::write(&path, original.replace("return x * 2;", "return x * \"2\";")).expect("edit");
    let (t, r) = check(&ws, &[one]);
    println!("re-check after an edit that breaks it: {} ({} error)", ms(t), r.diagnostics.len());
    std::fs::write(&path, &original).expect("restore");

    let (whole, r) = check(&ws, &[]);
    println!(
        "whole project ({} files, {} problems, complete {}): {}",
        r.file_counts.analysed,
        r.total_count,
        r.complete,
        ms(whole)
    );
    let (whole_again, _) = check(&ws, &[]);
    println!("whole project unchanged (cache): {}", ms(whole_again));

    if let Some(pid) = ws.problems_engine().helper_pid() {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let field = |k: &str| {
            status.lines().find(|l| l.starts_with(k)).map(|l| l[k.len()..].trim().to_owned()).unwrap_or_default()
        };
        println!("warm compiler process: VmRSS {}, VmHWM {}", field("VmRSS:"), field("VmHWM:"));
    }
}
