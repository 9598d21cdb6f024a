//! Outline benchmark on the JDK sources: median `java_index` time for Character.java and for
//! the largest file, and whole-tree throughput beside a bare tree-sitter parse and
//! `ctags -R` on the same tree in the same run.
//!
//! `cargo bench --bench outline` (JDK tree from `$JDK_SRC_DIR`, else `target/jdk-src`).

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_java_index::fs::walk::java_files;
use mcp_java_index::model::OutlineOptions;
use mcp_java_index::parser;
use mcp_java_index::tools::tool::java_index::index_file;
use rayon::prelude::*;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time_file(path: &Path, runs: usize) -> (Duration, Duration) {
    let opts = OutlineOptions::default();
    let d = path.to_string_lossy().into_owned();
    let tool: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let o = index_file(path, &d, &opts).expect("indexing");
            std::hint::black_box(o);
            t.elapsed()
        })
        .collect();
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let parse: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(parser::parse_tree(&text));
            t.elapsed()
        })
        .collect();
    (median(tool), median(parse))
}

fn main() {
    let Some(root) = common::jdk_sources() else { return };
    let files = java_files(&root).files;
    let bytes: u64 = files.iter().filter_map(|f| f.metadata().ok()).map(|m| m.len()).sum();
    println!("corpus: {} files, {:.1} MB, {} threads", files.len(), bytes as f64 / 1e6, rayon::current_num_threads());

    let character = root.join("java.base/java/lang/Character.java");
    let (tool, parse) = time_file(&character, 41);
    println!("java_index Character.java: median {:.2} ms (bare tree-sitter parse {:.2} ms)", ms(tool), ms(parse));

    let largest = files.iter().max_by_key(|f| f.metadata().map(|m| m.len()).unwrap_or(0)).expect("files").clone();
    let (tool, parse) = time_file(&largest, 21);
    println!(
        "java_index largest file {} ({} KB): median {:.2} ms (bare parse {:.2} ms)",
        largest.strip_prefix(&root).unwrap_or(&largest).display(),
        largest.metadata().map(|m| m.len() / 1024).unwrap_or(0),
        ms(tool),
        ms(parse)
    );

    // The slowest file decides "under 100 ms for any JDK file".
    let opts = OutlineOptions::default();
    let t = Instant::now();
    let worst = files
        .par_iter()
        .map(|f| {
            let t = Instant::now();
            let _ = index_file(f, "", &opts);
            (t.elapsed(), f.clone())
        })
        .max()
        .expect("files");
    let whole = t.elapsed();
    println!(
        "whole tree java_index: {:.2} s ({:.1} MB/s, {:.0} files/s); slowest file {} at {:.1} ms",
        whole.as_secs_f64(),
        bytes as f64 / 1e6 / whole.as_secs_f64(),
        files.len() as f64 / whole.as_secs_f64(),
        worst.1.strip_prefix(&root).unwrap_or(&worst.1).display(),
        ms(worst.0)
    );

    let t = Instant::now();
    files.par_iter().for_each(|f| {
        let bytes = std::fs::read(f).unwrap_or_default();
        std::hint::black_box(parser::outline_declarations("", &bytes));
    });
    println!(
        "whole tree declarations from skeletons (the workspace index's parse): {:.2} s",
        t.elapsed().as_secs_f64()
    );

    let t = Instant::now();
    files.par_iter().for_each(|f| {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        std::hint::black_box(parser::parse_tree(&text));
    });
    println!("whole tree bare tree-sitter parse: {:.2} s", t.elapsed().as_secs_f64());

    let t = Instant::now();
    match Command::new("ctags").args(["-R", "--languages=Java", "-f", "/dev/null"]).arg(&root).status() {
        Ok(s) if s.success() => println!("whole tree ctags -R: {:.2} s", t.elapsed().as_secs_f64()),
        _ => println!("ctags -R: unavailable (apt-get install universal-ctags)"),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
