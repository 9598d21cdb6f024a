//! The declarations-only parser ([`mji_parser::fast`]) against the tree-sitter path.
//!
//! `fast_outline compare DIR...`: every `.java` file under each DIR outlined both ways; prints
//! how many the fast path answered per DIR and every file whose outlines differ (exit 1).
//! `fast_outline declined DIR...`: the files the fast path leaves to tree-sitter.
//! `fast_outline bench ROUNDS DIR`: every file's bytes held in memory, then ROUNDS alternated
//! passes on this thread of the tree-sitter path alone ("before") and of the fast path first
//! ("after"), each pass's wall time printed, then the medians.

#![allow(clippy::print_stdout, clippy::print_stderr)] // a command-line tool

use std::path::{Path, PathBuf};
use std::time::Instant;

fn java_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            java_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "java") {
            out.push(p);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("compare") => compare(&args[1..]),
        Some("declined") => {
            for dir in &args[1..] {
                let mut files = Vec::new();
                java_files(Path::new(dir), &mut files);
                for f in files {
                    let Ok(bytes) = std::fs::read(&f) else { continue };
                    if mji_parser::fast::outline_declarations_fast(&f.to_string_lossy(), &bytes).is_none() {
                        // The line where it stopped (a debug build), and that line's text.
                        let line = mji_parser::fast::decline_line(&f.to_string_lossy(), &bytes).unwrap_or(0);
                        let text = String::from_utf8_lossy(&bytes);
                        let at = text.lines().nth(line.saturating_sub(1) as usize).unwrap_or("").trim();
                        println!("{}:{line}: {at}", f.display());
                    }
                }
            }
        }
        Some("bench") => bench(args.get(1).and_then(|r| r.parse().ok()).unwrap_or(5), &args[2..]),
        _ => eprintln!("usage: fast_outline compare DIR... | fast_outline bench ROUNDS DIR..."),
    }
}

fn compare(dirs: &[String]) {
    let mut differ = 0usize;
    for dir in dirs {
        let mut files = Vec::new();
        java_files(Path::new(dir), &mut files);
        files.sort();
        let mut fast = 0usize;
        for f in &files {
            let Ok(bytes) = std::fs::read(f) else { continue };
            let name = f.to_string_lossy();
            if let Some(o) = mji_parser::fast::outline_declarations_fast(&name, &bytes) {
                fast += 1;
                let slow = mji_parser::fast::outline_declarations_tree_sitter(&name, &bytes);
                if o != slow {
                    differ += 1;
                    println!("DIFF {name}");
                    if differ <= 5 {
                        println!("fast: {o:#?}\ntree-sitter: {slow:#?}");
                    }
                }
            }
        }
        let pct = if files.is_empty() { 0.0 } else { 100.0 * fast as f64 / files.len() as f64 };
        println!("{dir}: {} files, {fast} outlined fast ({pct:.1}%)", files.len());
    }
    println!("{differ} files differ");
    if differ > 0 {
        std::process::exit(1);
    }
}

fn bench(rounds: usize, dirs: &[String]) {
    let mut files = Vec::new();
    for dir in dirs {
        java_files(Path::new(dir), &mut files);
    }
    files.sort();
    let loaded: Vec<(String, Vec<u8>)> =
        files.iter().filter_map(|f| Some((f.to_string_lossy().into_owned(), std::fs::read(f).ok()?))).collect();
    let bytes: usize = loaded.iter().map(|(_, b)| b.len()).sum();
    println!("{} files, {} MB in memory", loaded.len(), bytes / 1_000_000);
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let t = Instant::now();
        let mut n = 0usize;
        for (name, b) in &loaded {
            n += mji_parser::fast::outline_declarations_tree_sitter(name, b).classes.len();
        }
        let tb = t.elapsed().as_secs_f64() * 1000.0;
        let t = Instant::now();
        let mut m = 0usize;
        for (name, b) in &loaded {
            m += mji_parser::outline_declarations_unhashed(name, b).classes.len();
        }
        let ta = t.elapsed().as_secs_f64() * 1000.0;
        assert_eq!(n, m);
        // What both share: decoding, the preparation and the compacted skeleton.
        let t = Instant::now();
        let mut k = 0usize;
        for (_, b) in &loaded {
            let (text, _) = mji_parser::SourceText::decode_text(b);
            let prep = mji_parser::Prepared::new(&text);
            k += mji_parser::skeleton::declaration_skeleton(prep.shown()).map_or(0, |s| s.text.len());
        }
        let ts = t.elapsed().as_secs_f64() * 1000.0;
        println!(
            "round {round}: before {tb:.0} ms, after {ta:.0} ms ({:.2}x); of which decode+prepare+skeleton {ts:.0} ms ({k} bytes)",
            ta / tb
        );
        before.push(tb);
        after.push(ta);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (b, a) = (median(&mut before), median(&mut after));
    println!("median: before {b:.0} ms, after {a:.0} ms ({:.2}x)", a / b);
}
