//! The real binary on the command line: outputs, JSON Lines order, exit codes and messages.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Runs the binary; the cache goes to a temp directory so the fixtures stay clean.
fn run(args: &[&str], dir: &Path) -> Output {
    let cache = tempfile::tempdir().expect("tempdir");
    bin()
        .args(args)
        .env("MCP_JAVA_INDEX_CACHE_DIR", cache.path())
        .current_dir(dir)
        .output()
        .expect("running the binary")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn index_one_file_prints_one_json_document() {
    let o = run(&["index", "enums.java"], &fixtures());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON document");
    assert_eq!(v["filePath"], "enums.java");
    assert_eq!(v["language"], "java");
    assert!(v["classes"].as_array().is_some_and(|c| !c.is_empty()));
    // Options are flags named like the tool's options.
    let o = run(
        &[
            "index",
            "enums.java",
            "--include-fields",
            "false",
            "--stable-ids",
            "false",
            "--compact",
        ],
        &fixtures(),
    );
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(v["classes"][0]["fields"], serde_json::json!([]));
    assert_eq!(v["classes"][0]["symbolId"], "@1");
}

#[test]
fn index_directory_prints_json_lines_in_path_order() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    for (rel, body) in [
        ("src/b/B.java", "package b; class B {}"),
        ("src/a/A.java", "package a; class A { void f() {} }"),
        ("target/classes/Gen.java", "class Gen {}"),
        ("src/a/notes.txt", "not java"),
    ] {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, body).expect("write");
    }
    let o = run(&["index", "src", "target"], root);
    assert!(o.status.success(), "{}", stderr(&o));
    let paths: Vec<String> = stdout(&o)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("json line")["filePath"]
                .as_str()
                .expect("path")
                .to_owned()
        })
        .collect();
    // Build output is skipped even when named (a walk skips `target` below a root) — here
    // `target` is itself a root, so its file is listed.
    assert_eq!(
        paths,
        ["src/a/A.java", "src/b/B.java", "target/classes/Gen.java"]
    );
    let o = run(&["index", "."], root);
    let n = stdout(&o).lines().count();
    assert_eq!(n, 2, "target/ is skipped below a root:\n{}", stdout(&o));
}

#[test]
fn range_and_javadoc_commands() {
    let o = run(&["range", "javadoc_styles.java", "7", "8"], &fixtures());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(
        v["content"],
        "7: /** Single-line javadoc on the class. */\n8: class DocStyles {"
    );
    let o = run(
        &[
            "javadoc",
            "javadoc_styles.java",
            "Class#com.example.outline.javadoc.DocStyles|start:8|end:88",
        ],
        &fixtures(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["found"], true);
    assert_eq!(v["content"], "7: /** Single-line javadoc on the class. */");
}

#[test]
fn bad_input_exits_non_zero_with_a_clear_message() {
    for (args, want) in [
        (
            vec!["index", "missing.java"],
            "file not found: missing.java",
        ),
        (vec!["index", "../Cargo.toml"], "is not a .java file"),
        (
            vec!["range", "enums.java", "0", "3"],
            "startLine must be 1 or more",
        ),
        (
            vec!["range", "enums.java", "9", "3"],
            "endLine 3 is before startLine 9",
        ),
        (vec!["javadoc", "enums.java", ""], "symbolId is empty"),
        (vec!["range", "enums.java", "x", "3"], "invalid value 'x'"),
    ] {
        let o = run(&args, &fixtures());
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        assert!(
            stdout(&o).is_empty(),
            "{args:?} printed to stdout: {}",
            stdout(&o)
        );
    }
}

#[test]
fn help_is_everywhere() {
    for args in [
        vec!["--help"],
        vec!["index", "--help"],
        vec!["range", "--help"],
        vec!["javadoc", "--help"],
    ] {
        let o = run(&args, &fixtures());
        assert!(o.status.success(), "{args:?}");
        assert!(stdout(&o).contains("Usage:"), "{args:?}");
    }
}
