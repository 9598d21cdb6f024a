//! Agreement with javac's own parser: `tests/javac/OutlineDump.java` (Compiler Tree API, parse
//! only) prints every declaration's lines, javadoc lines, names and parameter types; our
//! outline must print exactly the same lines, for the fixtures and for the JDK sources.
//!
//! The JDK corpus is `$JDK_SRC_DIR`, else `target/jdk-src` (`.ci/run` unzips the Debian
//! package `openjdk-17-source` there). Under `CI=true` a missing corpus fails the test.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_java_index::model::{FileOutline, TypeDecl};
use mcp_java_index::parser;
use rayon::prelude::*;

const EXPORTS: &[&str] = &["api", "code", "parser", "tree", "util"];

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles OutlineDump once per test binary run; returns its class directory.
fn dumper() -> PathBuf {
    static ONCE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ONCE.get_or_init(|| {
        let out = manifest_dir().join("target/javac-dump");
        std::fs::create_dir_all(&out).expect("creating target/javac-dump");
        let mut cmd = Command::new("javac");
        cmd.arg("-d").arg(&out);
        for e in EXPORTS {
            cmd.arg("--add-exports").arg(format!("jdk.compiler/com.sun.tools.javac.{e}=ALL-UNNAMED"));
        }
        cmd.arg(manifest_dir().join("tests/javac/OutlineDump.java"));
        let st = cmd.status().expect("running javac (is a JDK 17+ on PATH?)");
        assert!(st.success(), "javac failed to compile OutlineDump.java");
        out
    })
    .clone()
}

/// javac's lines for the given files (relative to root), sorted.
fn javac_lines(root: &Path, files: &[String]) -> Vec<String> {
    let list = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(list.path(), files.join("\n")).expect("writing file list");
    let mut cmd = Command::new("java");
    cmd.arg("-cp").arg(dumper()).arg("-Xss8m");
    for e in EXPORTS {
        let flag = if *e == "parser" { "--add-opens" } else { "--add-exports" };
        cmd.arg(flag).arg(format!("jdk.compiler/com.sun.tools.javac.{e}=ALL-UNNAMED"));
    }
    cmd.arg("OutlineDump").arg(root).arg(list.path());
    let out = cmd.output().expect("running java OutlineDump");
    assert!(out.status.success(), "OutlineDump failed: {}", String::from_utf8_lossy(&out.stderr));
    let mut lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect();
    lines.sort();
    lines
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Our outline in OutlineDump's format: what the source declares (javac parses it without
/// Lombok, so the members Lombok generates, marked `generated`, are not javac's to agree with;
/// `tests/it/tools/lombok_oracle.rs` proves those against `delombok`).
fn our_lines(rel: &str, o: &FileOutline, out: &mut Vec<String>) {
    fn doc(j: &mcp_java_index::model::Javadoc) -> String {
        match (j.start_line, j.end_line) {
            (Some(s), Some(e)) => format!("{s}\t{e}"),
            _ => "-\t-".to_owned(),
        }
    }
    fn walk(rel: &str, t: &TypeDecl, out: &mut Vec<String>) {
        if t.generated.is_some() {
            return;
        }
        let q = &t.qualified_name;
        out.push(format!("{rel}\t{}\t{q}\t{}\t{}\t{}\t-", t.kind.as_str(), t.start_line, t.end_line, doc(&t.javadoc)));
        for c in t.record_components.iter().flatten() {
            out.push(format!("{rel}\trecordComponent\t{q}#{}\t-\t-\t-\t-\t{}", c.name, squash(&c.type_text)));
        }
        for c in t.enum_constants.iter().flatten() {
            out.push(format!(
                "{rel}\tenumConstant\t{q}#{}\t{}\t{}\t{}\t-",
                c.name,
                c.start_line,
                c.end_line,
                doc(&c.javadoc)
            ));
        }
        for f in t.fields.iter().filter(|f| f.generated.is_none()) {
            out.push(format!("{rel}\tfield\t{q}#{}\t{}\t{}\t{}\t-", f.name, f.start_line, f.end_line, doc(&f.javadoc)));
        }
        // Constructors, then methods: name, lines, javadoc and parameter types.
        let callables = t
            .constructors
            .iter()
            .filter(|c| c.generated.is_none())
            .map(|c| ("constructor", &c.name, c.start_line, c.end_line, &c.javadoc, &c.params));
        let methods = t
            .methods
            .iter()
            .filter(|m| m.generated.is_none())
            .map(|m| ("method", &m.name, m.start_line, m.end_line, &m.javadoc, &m.params));
        for (kind, name, start, end, javadoc, params) in callables.chain(methods) {
            let ps: Vec<_> = params.iter().map(|p| squash(&p.type_text)).collect();
            out.push(format!("{rel}\t{kind}\t{q}#{name}\t{start}\t{end}\t{}\t{}", doc(javadoc), ps.join(",")));
        }
        for i in &t.inner_classes {
            walk(rel, i, out);
        }
    }
    for t in &o.classes {
        walk(rel, t, out);
    }
}

fn rel_files(root: &Path, skip: impl Fn(&str) -> bool) -> Vec<String> {
    let mut files: Vec<String> = mcp_java_index::fs::walk::java_files(root)
        .files
        .iter()
        .filter_map(|p| p.strip_prefix(root).ok())
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .filter(|r| !skip(r))
        .collect();
    files.sort();
    files
}

/// Compares both sides over a corpus; panics with the first differences.
fn agree(root: &Path, files: &[String]) {
    let theirs = javac_lines(root, files);
    let errors: Vec<&String> = theirs.iter().filter(|l| l.split('\t').nth(1) == Some("ERROR")).collect();
    assert!(errors.is_empty(), "javac could not parse some corpus files: {errors:?}");
    compare(&theirs, files, root, parser::outline, "full parse");
    compare(&theirs, files, root, parser::outline_declarations, "skeleton parse (workspace index)");
}

/// Compares javac's lines with ours from one outline function.
fn compare(theirs: &[String], files: &[String], root: &Path, outline: fn(&str, &[u8]) -> FileOutline, what: &str) {
    let mut ours: Vec<String> = files
        .par_iter()
        .map(|rel| {
            let bytes = std::fs::read(root.join(rel)).expect("reading corpus file");
            let o = outline(rel, &bytes);
            let mut v = Vec::new();
            our_lines(rel, &o, &mut v);
            v
        })
        .flatten()
        .collect();
    ours.sort();
    // Group differences by file for a readable report.
    let mut diff: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let (mut i, mut j) = (0, 0);
    loop {
        let take_theirs = match (theirs.get(i), ours.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
                continue;
            }
            (Some(a), Some(b)) => a < b,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let (side, line) = if take_theirs { ("javac only", &theirs[i]) } else { ("ours only: ", &ours[j]) };
        diff.entry(line.split('\t').next().unwrap_or("")).or_default().push(format!("{side} {line}"));
        if take_theirs {
            i += 1;
        } else {
            j += 1;
        }
    }
    let mismatched: usize = diff.values().map(Vec::len).sum();
    let total = theirs.len();
    eprintln!(
        "agreement ({what}): {} files, {total} javac declarations, {mismatched} differing lines ({:.4}% agreement)",
        files.len(),
        100.0 * (1.0 - mismatched as f64 / (total.max(1) as f64))
    );
    if !diff.is_empty() {
        let mut report = String::new();
        for (file, lines) in diff.iter().take(40) {
            report.push_str(&format!("{file}:\n"));
            for l in lines.iter().take(12) {
                report.push_str(&format!("  {l}\n"));
            }
        }
        panic!("{what}: {} files disagree with javac:\n{report}", diff.len());
    }
}

#[test]
fn fixtures_agree_with_javac() {
    let root = manifest_dir().join("tests/fixtures");
    // Broken files are not javac's to parse.
    // Java 21+ syntax is not javac 17's either (its lines were checked with javac 25).
    let files = rel_files(&root, |r| r.contains("broken_") || r.starts_with("java21_"));
    assert!(files.len() >= 15, "expected at least 15 fixtures, found {}", files.len());
    agree(&root, &files);
}

/// A corpus full of JSpecify-style type-use annotations (issue 13): annotated varargs and
/// array dimensions, `Map.@Nullable Entry`, annotated bounds, type arguments and wildcards,
/// receiver parameters, throws, casts, records and enums.
#[test]
fn jspecify_corpus_agrees_with_javac() {
    let root = manifest_dir().join("tests/javac_corpus/jspecify");
    let files = rel_files(&root, |_| false);
    assert!(files.len() >= 8, "expected the JSpecify corpus, found {files:?}");
    agree(&root, &files);
}

#[test]
fn jdk_sources_agree_with_javac() {
    let root =
        std::env::var_os("JDK_SRC_DIR").map(PathBuf::from).unwrap_or_else(|| manifest_dir().join("target/jdk-src"));
    if !root.join("java.base").is_dir() {
        assert!(
            std::env::var("CI").is_err(),
            "JDK sources not found at {} (install openjdk-17-source and unzip src.zip there, as .ci/run does)",
            root.display()
        );
        eprintln!("skipping: no JDK sources at {}; run .ci/run or set JDK_SRC_DIR", root.display());
        return;
    }
    let files = rel_files(&root, |_| false);
    assert!(files.len() > 10_000, "only {} files under {}", files.len(), root.display());
    agree(&root, &files);
}
