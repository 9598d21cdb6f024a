//! The real binary on the command line: outputs, JSON Lines order, exit codes and messages.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::json;

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
    let o =
        run(&["index", "enums.java", "--include-fields", "false", "--stable-ids", "false", "--compact"], &fixtures());
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(v["classes"][0]["fields"], serde_json::json!([]));
    assert_eq!(v["classes"][0]["symbolId"], "@1");
}

#[test]
fn index_outlines_prints_json_lines_in_path_order() {
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
    let o = run(&["index", "--outlines", "src", "target"], root);
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
    assert_eq!(paths, ["src/a/A.java", "src/b/B.java", "target/classes/Gen.java"]);
    let o = run(&["index", "--outlines", "."], root);
    let n = stdout(&o).lines().count();
    assert_eq!(n, 2, "target/ is skipped below a root:\n{}", stdout(&o));
}

#[test]
fn range_and_javadoc_commands() {
    // The tool's text: the numbered lines, as java_read_range answers a model.
    let o = run(&["range", "javadoc_styles.java", "7", "8"], &fixtures());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "7 /** Single-line javadoc on the class. */\n8 class DocStyles {\n");
    // --json: the tool's structured answer.
    let o = run(&["range", "javadoc_styles.java", "7", "8", "--json"], &fixtures());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["content"], "7: /** Single-line javadoc on the class. */\n8: class DocStyles {");
    let o = run(
        &["javadoc", "javadoc_styles.java", "Class#com.example.outline.javadoc.DocStyles|start:8|end:88"],
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
        (vec!["index", "missing.java"], "file not found: missing.java"),
        (vec!["index", "../../Cargo.toml"], "is not a .java or .kt file"),
        (vec!["index", "enums.java", "."], "enums.java is not a directory: `index DIR` indexes directories"),
        (vec!["index", "--root", ".", "."], "drop --root"),
        (vec!["index", "--include-fields", "false", "."], "pass --outlines"),
        (vec!["range", "enums.java", "0", "3"], "startLine must be 1 or more"),
        (vec!["range", "enums.java", "9", "3"], "endLine 3 is before startLine 9"),
        (vec!["javadoc", "enums.java", ""], "symbolId is empty"),
        (vec!["range", "enums.java", "x", "3"], "invalid value 'x'"),
    ] {
        let o = run(&args, &fixtures());
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?} printed to stdout: {}", stdout(&o));
    }
}

#[test]
fn help_is_everywhere() {
    for args in [vec!["--help"], vec!["index", "--help"], vec!["range", "--help"], vec!["javadoc", "--help"]] {
        let o = run(&args, &fixtures());
        assert!(o.status.success(), "{args:?}");
        assert!(stdout(&o).contains("Usage:"), "{args:?}");
    }
}

fn stats_of(o: &Output) -> serde_json::Value {
    let err = stderr(o);
    let last = err.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("last stderr line is not the stats JSON ({e}): {err}"))
}

#[test]
fn index_stats_show_the_cache_working() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    for i in 0..5 {
        std::fs::write(root.join(format!("C{i}.java")), format!("class C{i} {{ void m{i}() {{}} }}\n")).expect("write");
    }
    let index = || bin().args(["index", "--outlines", "--stats", "."]).current_dir(root).output().expect("run");
    let first = index();
    assert!(first.status.success(), "{}", stderr(&first));
    let s = stats_of(&first);
    assert_eq!(
        (s["files"].as_u64(), s["parsed"].as_u64(), s["cacheMisses"].as_u64(), s["cacheHits"].as_u64()),
        (Some(5), Some(5), Some(5), Some(0)),
        "{s}"
    );
    assert!(s["elapsedMs"].is_u64() && s["errors"] == 0, "{s}");
    let second = index();
    let s = stats_of(&second);
    assert_eq!((s["cacheHits"].as_u64(), s["cacheMisses"].as_u64()), (Some(5), Some(0)), "{s}");
    assert_eq!(stdout(&first), stdout(&second), "cached output differs from parsed output");
    std::fs::write(root.join("C2.java"), "class C2 { void changed() {} }\n").expect("edit");
    let third = index();
    let s = stats_of(&third);
    assert_eq!((s["cacheHits"].as_u64(), s["cacheMisses"].as_u64()), (Some(4), Some(1)), "{s}");
    assert!(stdout(&third).contains("changed"));
    // The cache can be inspected and cleared.
    let o = bin().args(["cache", "stats"]).current_dir(root).output().expect("run");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert!(v[0]["entries"].as_u64().is_some_and(|n| n >= 5), "{v}");
    let o = bin().args(["cache", "clear"]).current_dir(root).output().expect("run");
    assert!(o.status.success());
    let s = stats_of(&index());
    assert_eq!(s["cacheMisses"].as_u64(), Some(5), "{s}");
    // --no-cache neither reads nor writes it.
    let o = bin().args(["index", "--stats", "--no-cache", "."]).current_dir(root).output().expect("run");
    assert_eq!(stats_of(&o)["cacheHits"].as_u64(), Some(0));
}

/// `index DIR` builds the workspace index a server on DIR uses (as ctags writes its tags file)
/// and prints a summary; a second run takes every unchanged file from the snapshot, and a
/// query on the same root starts from it too.
#[test]
fn index_directory_builds_the_workspace_index_and_summarises_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for i in 0..5 {
        let p = root.join(format!("p/C{i}.java"));
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, format!("package p; class C{i} {{ void m{i}() {{}} int f{i}; }}\n")).expect("write");
        // Settled files: the snapshot leaves out files modified in the last seconds.
        std::fs::File::options().write(true).open(&p).expect("open").set_modified(hour_ago).expect("mtime");
    }
    std::fs::write(root.join("notes.txt"), "not java").expect("write");
    let work = tempfile::tempdir().expect("tempdir");
    let index = || {
        let o = bin().args(["index", "--stats"]).arg(root).current_dir(work.path()).output().expect("run");
        assert!(o.status.success(), "{}", stderr(&o));
        let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON summary on stdout");
        assert_eq!(summary, stats_of(&o), "--stats repeats the summary on stderr");
        summary
    };
    let s = index();
    let canonical = std::fs::canonicalize(root).expect("canonical");
    assert_eq!(s["roots"], serde_json::json!([canonical]), "{s}");
    assert_eq!(s["cacheDirs"], serde_json::json!([canonical.join(".mcp-java-index-cache")]), "{s}");
    // Five classes with a method and a field each; the text file is a resource.
    let counts = |s: &serde_json::Value| {
        ["files", "declarations", "resources", "parsed", "cacheHits", "errors"].map(|k| s[k].as_u64().unwrap_or(99))
    };
    assert_eq!(counts(&s), [5, 15, 6, 5, 0, 0], "{s}");
    assert_eq!(counts(&index()), [5, 15, 6, 0, 5, 0], "the second run reads the snapshot");
    std::fs::write(root.join("p/C2.java"), "package p; class C2 { void changed() {} }\n").expect("edit");
    assert_eq!(counts(&index()), [5, 14, 6, 1, 4, 0], "only the edited file is parsed");
    // A query on the same root starts from what `index` kept (-vv logs the files reused).
    let o = bin()
        .args(["types", "C1", "-vv", "--root"])
        .arg(root)
        .env_remove("RUST_LOG")
        .current_dir(work.path())
        .output()
        .expect("run");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("p.C1"), "{}", stdout(&o));
    assert!(stderr(&o).contains("reused=4"), "{}", stderr(&o));
}

#[test]
fn config_reports_each_value_with_its_source() {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(tmp.path().join("mcp-java-index.toml"), "cache = false\n").expect("write");
    let o = bin()
        .args(["config", "--root"])
        .arg(tmp.path())
        .env("MCP_JAVA_INDEX_LOG_LEVEL", "debug")
        .output()
        .expect("run");
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["cache"]["value"], false);
    assert!(v["cache"]["source"].as_str().is_some_and(|s| s.ends_with("mcp-java-index.toml")), "{v}");
    assert_eq!(v["log_level"]["source"], "environment MCP_JAVA_INDEX_LOG_LEVEL");
    assert_eq!(v["roots"]["source"], "flag --root");
    std::fs::write(tmp.path().join("mcp-java-index.toml"), "cache = \"sometimes\"\n").expect("write");
    // A repository's bad value is ignored with a warning naming the file, never a stop.
    let o = bin().args(["config", "--root"]).arg(tmp.path()).output().expect("run");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("ignored `cache` from") && stderr(&o).contains("mcp-java-index.toml"),
        "{}",
        stderr(&o)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(
        (v["cache"]["value"].clone(), v["cache"]["source"].clone()),
        (serde_json::json!(true), "default".into())
    );
}

/// Every configuration key has a flag, derived from its declaration, and `config --reference`
/// prints the table docs/configuration.md shows.
#[test]
fn every_key_is_a_flag() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = bin()
        .args(["config", "-vv", "--no-watch", "--answer-tokens", "700", "--tools", "navigation", "--tools", "edit"])
        .args(["--classpath", "a.jar", "--classpath", "b", "--root"])
        .arg(tmp.path())
        .env_remove("MCP_JAVA_INDEX_LOG_LEVEL")
        .output()
        .expect("run");
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!((v["watch"]["value"].clone(), v["watch"]["source"].clone()), (false.into(), "flag --no-watch".into()));
    assert_eq!((v["answer_tokens"]["value"].clone(), v["log_level"]["value"].clone()), (700.into(), "debug".into()));
    assert_eq!(v["tools"]["value"], serde_json::json!(["navigation", "edit"]));
    assert_eq!(v["classpath"]["value"], serde_json::json!(["a.jar", "b"]));
    let o = bin().args(["config", "--tools", "everything", "--root"]).arg(tmp.path()).output().expect("run");
    assert!(!o.status.success() && stderr(&o).contains("`everything`"), "{}", stderr(&o));
    let o = bin().args(["config", "--reference"]).output().expect("run");
    let page = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/configuration.md"))
        .expect("docs/configuration.md");
    assert!(o.status.success() && page.contains(&stdout(&o)), "{}", stdout(&o));
    assert!(stdout(&o).contains("| `cache` |") && stdout(&o).contains("`--no-cache`"), "{}", stdout(&o));
}

/// `tools` and `call` iterate the same registry the server serves: every tool is callable by
/// name from the command line, with the server's arguments and answers.
#[test]
fn call_runs_any_registered_tool_by_name() {
    let o = run(&["tools"], &fixtures());
    assert!(o.status.success(), "{}", stderr(&o));
    let names: Vec<String> = stdout(&o).lines().map(|l| l.split('\t').next().unwrap_or("").to_owned()).collect();
    assert!(
        names.len() >= 10 && names.contains(&"java_index".to_owned()) && names.contains(&"get_problems".to_owned())
    );

    let range = r#"{"filePath": "enums.java", "startLine": 1, "endLine": 2}"#;
    let o = run(&["call", "java_read_range", range, "--json"], &fixtures());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("the tool's JSON");
    assert_eq!((v["startLine"].as_u64(), v["endLine"].as_u64()), (Some(1), Some(2)));
    // Without --json: the text a model reads, the numbered lines themselves.
    let o = run(&["call", "java_read_range", range], &fixtures());
    let text = stdout(&o);
    // (line 2 is blank: left empty)
    assert!(
        text.starts_with("1 package com.example.outline.enums;\n\n") && text.trim_end().lines().count() == 1,
        "{text}"
    );

    let o = run(&["call", "find_type", r#"{"pattern": "Color*"}"#, "--json"], &fixtures());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert!(v["results"].as_array().is_some_and(|r| !r.is_empty()), "{v}");

    // A tool error exits 1 and says what was wrong; an unknown tool lists the real ones.
    let o = run(
        &["call", "java_read_range", r#"{"filePath": "enums.java", "startLine": 9999, "endLine": 9999}"#],
        &fixtures(),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("past the end of enums.java"), "{}", stderr(&o));
    let o = run(&["call", "no_such_tool"], &fixtures());
    assert!(!o.status.success());
    assert!(stderr(&o).contains("the tools are: java_index"), "{}", stderr(&o));
    let o = run(&["call", "java_index", "[1]"], &fixtures());
    assert!(!o.status.success());
    assert!(stderr(&o).contains("must be a JSON object"), "{}", stderr(&o));
}

/// A cache write that fails (here the file-size limit, as a full disk would) is reported on
/// stderr, naming the cache and the error, and the exit code is non-zero; the outline is
/// still printed.
#[test]
fn a_cache_write_that_fails_is_an_error_naming_the_cache() {
    let ws = tempfile::tempdir().expect("tempdir");
    let mut src = String::from("package p;\nclass Big {\n");
    for i in 0..3000 {
        src.push_str(&format!("  /** doc {i} */\n  public int method{i}(int a, String b) {{ return a; }}\n"));
    }
    src.push_str("}\n");
    std::fs::write(ws.path().join("Big.java"), src).expect("write");
    let o = Command::new("bash")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 64; exec \"$0\" index Big.java")
        .arg(env!("CARGO_BIN_EXE_mcp-java-index"))
        .current_dir(ws.path())
        .env_remove("MCP_JAVA_INDEX_CACHE_DIR")
        .env_remove("MCP_JAVA_INDEX_ROOTS")
        .output()
        .expect("run");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let cache = ws.path().canonicalize().expect("canonical").join(".mcp-java-index-cache");
    assert!(err.contains(&format!("error: writing cache {}: ", cache.display())), "{err}");
    assert!(stdout(&o).contains("\"method2999\""), "the outline is printed");
}

/// The server under the same file-size limit: the cache cannot be written, the failure is
/// logged once on stderr (naming the cache), and every call is still answered, from memory.
#[test]
fn the_server_logs_a_failed_cache_write_once_and_keeps_answering() {
    use std::io::{BufRead, Write};
    let ws = tempfile::tempdir().expect("tempdir");
    let mut src = String::from("package p;\nclass Big {\n");
    for i in 0..1500 {
        src.push_str(&format!("  /** doc {i} */\n  public int method{i}(int a, String b) {{ return a; }}\n"));
    }
    src.push_str("}\n");
    std::fs::write(ws.path().join("Big.java"), &src).expect("write");
    std::fs::write(ws.path().join("Small.java"), "package p;\nclass Small { void m() {} }\n").expect("write");
    let mut child = Command::new("bash")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 64; exec \"$0\" serve --no-watch --root .")
        .arg(env!("CARGO_BIN_EXE_mcp-java-index"))
        .current_dir(ws.path())
        .env_remove("MCP_JAVA_INDEX_CACHE_DIR")
        .env_remove("MCP_JAVA_INDEX_ROOTS")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = std::io::BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut ask = |id: u64, method: &str, params: serde_json::Value| -> serde_json::Value {
        let msg = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{msg}").expect("write");
        stdin.flush().expect("flush");
        if method == "initialize" {
            writeln!(stdin, r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#).expect("write");
        }
        loop {
            let line = lines.next().expect("an answer").expect("line");
            let v: serde_json::Value = serde_json::from_str(&line).expect("json");
            if v["id"] == id {
                return v;
            }
        }
    };
    ask(
        0,
        "initialize",
        serde_json::json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
    );
    let call = |name: &str, args: serde_json::Value| serde_json::json!({"name": name, "arguments": args});
    for round in 0..3 {
        let id = 1 + 3 * round;
        let big = ask(id, "tools/call", call("java_index", serde_json::json!({"filePath": "Big.java"})));
        assert_eq!(big["result"]["isError"], false, "{big}");
        // The whole outline, in pages: 1,501 declarations, the first page from the top.
        let page = &big["result"]["structuredContent"];
        assert_eq!(page["totalDeclarations"], 1501, "round {round}");
        assert!(
            big["result"]["content"][0]["text"]
                .as_str()
                .is_some_and(|t| t.contains("public int method0(int a, String b)")),
            "round {round}"
        );
        let small = ask(id + 1, "tools/call", call("java_index", serde_json::json!({"filePath": "Small.java"})));
        assert_eq!(small["result"]["isError"], false, "{small}");
        let found = ask(id + 2, "tools/call", call("find_type", serde_json::json!({"pattern": "Big"})));
        assert_eq!(found["result"]["isError"], false, "{found}");
        // Let the cache's writer try (and fail) between rounds.
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    drop(stdin);
    let status = child.wait().expect("wait");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err).expect("stderr");
    assert!(status.success(), "{err}");
    let cache = ws.path().canonicalize().expect("canonical").join(".mcp-java-index-cache");
    let logged = format!("writing cache {}: ", cache.display());
    assert_eq!(err.matches(&logged).count(), 1, "logged once: {err}");
    assert!(err.contains("keeps new entries in memory"), "{err}");
}

/// A server's log written to a pipe or a file carries no terminal colour codes.
#[test]
fn the_log_is_plain_text_off_a_terminal() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
        .args(["serve", "--no-watch", "--log-level", "info", "--root"])
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("running the server");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("serving MCP on stdio"), "{log}");
    assert!(!log.contains('\u{1b}'), "colour codes in the log: {log:?}");
}

/// Copies a fixture tree with modification times in the past (the persisted reference index
/// leaves out files modified within two seconds of its write).
fn copy_old(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            std::fs::create_dir_all(&dst).expect("mkdir");
            copy_old(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("copy");
            let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
            std::fs::File::options().write(true).open(&dst).expect("open").set_modified(old).expect("mtime");
        }
    }
}

#[test]
fn refs_reads_the_reference_index_a_previous_call_persisted() {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_old(&fixtures().join("xref"), dir.path());
    let cache = tempfile::tempdir().expect("tempdir");
    let refs = || {
        let o = bin()
            .args([
                "call",
                "find_references",
                r#"{"target": "xref.model.Money#plus(Money)", "includeIndex": true}"#,
                "--json",
            ])
            .env("MCP_JAVA_INDEX_CACHE_DIR", cache.path())
            .current_dir(dir.path())
            .output()
            .expect("running the binary");
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str::<serde_json::Value>(&stdout(&o)).expect("JSON")
    };
    let first = refs();
    assert_eq!(first["index"]["boundFiles"], 0, "nothing bound before the first call: {first}");
    assert!(first["total"].as_u64() > Some(0), "{first}");
    let second = refs();
    assert!(
        second["index"]["boundFiles"].as_u64() > Some(0),
        "the second call starts from the files the first one bound: {second}"
    );
    assert_eq!(first["files"], second["files"], "the same references either way");
}

/// `index DIR` leaves a warm cache with every file's references bound, so a `refs` that
/// follows binds nothing: it starts with every file bound and answers as a cold one does.
#[test]
fn index_binds_every_file_so_refs_starts_warm() {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_old(&fixtures().join("xref"), dir.path());
    let cold = tempfile::tempdir().expect("tempdir");
    let warm = tempfile::tempdir().expect("tempdir");
    let call = r#"{"target": "xref.model.Money#plus(Money)", "includeIndex": true}"#;
    let refs = |cache: &Path| {
        let o = bin()
            .args(["call", "find_references", call, "--json", "--no-daemon"])
            .env("MCP_JAVA_INDEX_CACHE_DIR", cache)
            .current_dir(dir.path())
            .output()
            .expect("running the binary");
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str::<serde_json::Value>(&stdout(&o)).expect("JSON")
    };
    let o = bin().arg("index").arg(dir.path()).env("MCP_JAVA_INDEX_CACHE_DIR", warm.path()).output().expect("run");
    assert!(o.status.success(), "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON summary");
    assert!(summary["files"].as_u64() > Some(1), "{summary}");
    assert_eq!(summary["boundFiles"], summary["files"], "every file bound: {summary}");
    let (first, indexed) = (refs(cold.path()), refs(warm.path()));
    assert_eq!(indexed["index"]["boundFiles"], summary["files"], "{indexed}");
    assert_eq!(first["files"], indexed["files"], "the same references either way");
    assert_eq!(first["total"], indexed["total"]);
}

/// `refs` says on stderr which files the binder could not bind fully (nested past its depth
/// limit), as the answer's `incomplete` does.
#[test]
fn refs_warns_of_a_file_nested_past_the_depth_limit() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let depth = 3_500;
    std::fs::write(tmp.path().join("Util.java"), "class Util { static int twice(int x) { return 2 * x; } }\n")
        .expect("write");
    let deep =
        format!("class Deep {{ int f() {{ return {}1{}; }} }}\n", "Util.twice(".repeat(depth), ")".repeat(depth));
    std::fs::write(tmp.path().join("Deep.java"), deep).expect("write");
    let o = run(&["refs", "Util#twice(int)", "--count-only", "--root", ".", "--json"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: Deep.java: code nested deeper than 3000 levels from line 1 was not bound"),
        "{}",
        stderr(&o)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["incompleteFiles"], 1, "{v}");
}

/// A path `index` is given that does not exist is said to be missing (it was "is not a .java
/// file").
#[test]
fn index_of_a_missing_path_says_it_does_not_exist() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for args in [&["index", "nonexist/"][..], &["index", "--outlines", "Nope.java", "."][..]] {
        let o = bin().args(args).current_dir(tmp.path()).output().expect("run");
        let err = stderr(&o);
        assert!(!o.status.success(), "{args:?}: {err}");
        assert!(err.contains("file not found: ") && !err.contains("not a .java file"), "{args:?}: {err}");
    }
}

/// Runs the binary in `dir` with its cache elsewhere; `(exit code, stdout, stderr)`.
fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let o = run(args, dir);
    (o.status.code(), stdout(&o), stderr(&o))
}

/// `range` and `javadoc` go through the tools' path policy: a file outside the roots is
/// refused with the very error the tool gives an MCP client (they read it before).
#[test]
fn range_and_javadoc_refuse_a_file_outside_the_roots_as_the_tool_does() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (ws, out) = (tmp.path().join("ws"), tmp.path().join("out"));
    std::fs::create_dir_all(&ws).expect("mkdir");
    std::fs::create_dir_all(&out).expect("mkdir");
    std::fs::write(ws.join("A.java"), "class A {}\n").expect("write");
    std::fs::write(out.join("Secret.java"), "package p;\n/** SECRET doc. */\nclass Secret {}\n").expect("write");
    let absolute = out.join("Secret.java").to_string_lossy().into_owned();
    for file in ["../out/Secret.java", absolute.as_str()] {
        let range = json!({"filePath": file, "startLine": 1, "endLine": 3}).to_string();
        let javadoc = json!({"filePath": file, "symbolId": "@1"}).to_string();
        for (cli, tool) in [
            (vec!["range", file, "1", "3"], vec!["call", "java_read_range", range.as_str()]),
            (vec!["javadoc", file, "@1"], vec!["call", "java_read_javadoc", javadoc.as_str()]),
        ] {
            let (code, out, err) = run_in(&ws, &cli);
            assert_eq!(code, Some(1), "{cli:?}: {out} {err}");
            assert!(out.is_empty() && !err.contains("SECRET"), "{cli:?}: {out} {err}");
            assert!(err.contains("is outside the workspace roots"), "{cli:?}: {err}");
            assert_eq!((code, out, err), run_in(&ws, &tool), "{cli:?} and {tool:?}");
        }
        // The hidden `tree` reads under the same policy.
        let (code, out, err) = run_in(&ws, &["tree", file]);
        assert!(code == Some(1) && out.is_empty() && err.contains("is outside the workspace roots"), "{out} {err}");
    }
}

/// A query on the command line is held to the tools' argument limits, with their error.
#[test]
fn a_cli_query_hits_the_argument_limit_the_tool_has() {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(tmp.path().join("A.java"), "class A {}\n").expect("write");
    let long = "Q".repeat(70_000);
    for (cli, tool, args) in [
        (vec!["types", long.as_str()], "find_type", json!({"query": long, "kind": "any", "limit": 50, "offset": 0})),
        (vec!["refs", long.as_str()], "find_references", json!({"target": long})),
    ] {
        let (code, out, err) = run_in(tmp.path(), &cli);
        assert_eq!(code, Some(1), "{}: {out}", cli[0]);
        assert!(err.contains("is 70000 characters, over the limit of 65536"), "{}: {err}", cli[0]);
        assert!(err.len() < 1000, "{}: the error quotes what it was sent: {err}", cli[0]);
        let (_, _, tool_err) = run_in(tmp.path(), &["call", tool, &args.to_string()]);
        let limit = |e: &str| e.lines().find(|l| l.contains("over the limit")).map(str::to_owned);
        assert_eq!(limit(&err), limit(&tool_err), "{}", cli[0]);
    }
}

/// A command's `--help` lists its own options with `--root` and `-v`; the configuration keys
/// are listed once, by `config --reference`, and still accepted as flags everywhere.
#[test]
fn help_lists_a_command_s_own_options_not_every_configuration_key() {
    let (_, help, _) = run_in(&fixtures(), &["types", "--help"]);
    for own in ["--kind", "--max-results", "--json", "--root", "--verbose", "config --reference"] {
        assert!(help.contains(own), "{own} missing: {help}");
    }
    let listed: Vec<&str> = help.lines().map(str::trim_start).filter(|l| l.starts_with("--")).collect();
    for key in ["--answer-tokens", "--javac-options", "--no-cache", "--maven-goals"] {
        assert!(!listed.iter().any(|l| l.starts_with(key)), "{key} listed: {help}");
    }
    assert!(help.lines().count() < 40, "{help}");
    let (code, out, err) = run_in(&fixtures(), &["types", "Color", "--no-cache", "--answer-tokens", "900"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Color"), "{out}");
    let (_, reference, _) = run_in(&fixtures(), &["config", "--reference"]);
    assert!(reference.contains("--answer-tokens") && reference.contains("--javac-options"), "{reference}");
}

/// `find` takes its query as `types` does (the `--query` flag still works), and enum values
/// are taken in any case.
#[test]
fn find_takes_its_query_as_types_does_and_enum_values_take_any_case() {
    let total = |args: &[&str]| {
        let (code, out, err) = run_in(&fixtures(), args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        serde_json::from_str::<serde_json::Value>(&out).expect("json")["total"].as_u64().unwrap_or(0)
    };
    let positional = total(&["find", "Color", "--match-kind", "CLASS", "--json"]);
    assert!(positional > 0);
    assert_eq!(positional, total(&["find", "--query", "Color", "--match-kind", "class", "--json"]));
    assert_eq!(
        total(&["types", "Color", "--kind", "Enum", "--json"]),
        total(&["types", "Color", "--kind", "enum", "--json"])
    );
    let (code, _, err) = run_in(&fixtures(), &["types", "Color", "--kind", "colour"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("possible values: any, class, interface, enum, record, annotation"), "{err}");
}

/// `config` prints each key as the configuration file spells it.
#[test]
fn config_prints_keys_as_the_file_spells_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(tmp.path().join("mcp-java-index.toml"), "answer_tokens = 900\n").expect("write");
    let (code, out, err) = run_in(tmp.path(), &["config"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["answer_tokens"]["value"], 900, "{v}");
    let keys: Vec<&String> = v.as_object().expect("object").keys().collect();
    assert!(keys.iter().all(|k| !k.chars().any(|c| c.is_ascii_uppercase())), "{keys:?}");
    assert!(keys.iter().any(|k| *k == "log_level"), "{keys:?}");
}

/// `cache stats` reports what the cache directory holds on disk (outlines, the index snapshot,
/// the rest), not the outline database alone.
#[test]
fn cache_stats_reports_the_size_on_disk() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for i in 0..400 {
        let p = tmp.path().join(format!("p/C{i}.java"));
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        let members: String =
            (0..12).map(|m| format!("  public int method{m}_{i}(String a, int b) {{ return b; }}\n")).collect();
        std::fs::write(&p, format!("package p;\npublic class C{i} {{\n{members}}}\n")).expect("write");
        std::fs::File::options().write(true).open(&p).expect("open").set_modified(old).expect("mtime");
    }
    let root = tmp.path().to_string_lossy().into_owned();
    let o = bin().args(["index", &root]).env_remove("MCP_JAVA_INDEX_CACHE_DIR").output().expect("run");
    assert!(o.status.success(), "{}", stderr(&o));
    let o =
        bin().args(["cache", "stats", "--root", &root]).env_remove("MCP_JAVA_INDEX_CACHE_DIR").output().expect("run");
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let dir = tmp.path().join(".mcp-java-index-cache");
    let on_disk: u64 =
        std::fs::read_dir(&dir).expect("cache dir").flatten().map(|e| e.metadata().map(|m| m.len()).unwrap_or(0)).sum();
    let snapshot: u64 = std::fs::read_dir(&dir)
        .expect("cache dir")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("symbols-"))
        .map(|e| e.metadata().map(|m| m.len()).unwrap_or(0))
        .sum();
    assert!(snapshot > 40_000, "a snapshot worth counting: {snapshot}");
    let (bytes, outline) = (v[0]["bytes"].as_u64().unwrap_or(0), v[0]["outlineBytes"].as_u64().unwrap_or(0));
    assert!(bytes >= on_disk && outline + snapshot <= bytes, "{v} on disk {on_disk}");
}

/// A reader that stops early (`| head -1`) ends the command quietly: no error, exit 0.
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for i in 0..400 {
        let body = format!("package p;\nclass C{i} {{ void method{i}(int a) {{}} int field{i}; }}\n");
        std::fs::write(tmp.path().join(format!("C{i}.java")), body).expect("write");
    }
    for cmd in [
        "index --outlines .",
        "call java_find_symbol '{\"rootDir\": \".\", \"query\": \"C\", \"options\": {\"maxResults\": 400}}'",
    ] {
        let o = Command::new("bash")
            .arg("-c")
            .arg(format!("\"$0\" {cmd} | head -c 10 >/dev/null; echo \"${{PIPESTATUS[0]}}\""))
            .arg(env!("CARGO_BIN_EXE_mcp-java-index"))
            .current_dir(tmp.path())
            .env("MCP_JAVA_INDEX_CACHE_DIR", tmp.path().join("cache"))
            .output()
            .expect("run");
        assert_eq!(stdout(&o).trim(), "0", "{cmd}: {}", stderr(&o));
        assert!(!stderr(&o).contains("error") && !stderr(&o).contains("panicked"), "{cmd}: {}", stderr(&o));
    }
}

/// `mvn` where Maven is not installed says so (it said "invalid argument: starting mvn").
#[test]
fn mvn_without_maven_says_maven_is_not_installed() {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        tmp.path().join("pom.xml"),
        "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version></project>\n",
    )
    .expect("write");
    let o = bin()
        .args(["mvn", "compile", "--trust", "--root", "."])
        .current_dir(tmp.path())
        .env("MCP_JAVA_INDEX_CACHE_DIR", tmp.path().join("cache"))
        .env("PATH", "/nonexistent")
        .output()
        .expect("run");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("Maven is not installed") && !err.contains("invalid argument"), "{err}");
}

/// Ctrl-C cancels a command's call as a client's cancellation does: `mvn` kills the build's
/// process tree and says it was cancelled (before, the build ran on after the command died).
#[cfg(unix)]
#[test]
fn ctrl_c_cancels_the_call_and_kills_the_build() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (ws, bin_dir) = (tmp.path().join("ws"), tmp.path().join("bin"));
    std::fs::create_dir_all(&ws).expect("mkdir");
    std::fs::create_dir_all(&bin_dir).expect("mkdir");
    std::fs::write(
        ws.join("pom.xml"),
        "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version></project>\n",
    )
    .expect("write");
    let pid_file = tmp.path().join("mvn.pid");
    let mvn = bin_dir.join("mvn");
    crate::common::write_executable(&mvn, &format!("#!/bin/sh\necho $$ > '{}'\nexec sleep 600\n", pid_file.display()));
    let child = bin()
        .args(["mvn", "compile", "--trust", "--root", "."])
        .current_dir(&ws)
        .env("MCP_JAVA_INDEX_CACHE_DIR", tmp.path().join("cache"))
        .env("PATH", format!("{}:/usr/bin:/bin", bin_dir.display()))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    // The build has started when it has written its pid (bounded: a minute).
    let mut waited = 0;
    let build_pid = loop {
        match std::fs::read_to_string(&pid_file).map(|s| s.trim().to_owned()) {
            Ok(pid) if !pid.is_empty() => break pid,
            _ if waited > 1200 => panic!("the build never started"),
            _ => {
                std::thread::sleep(std::time::Duration::from_millis(50));
                waited += 1;
            }
        }
    };
    let interrupt = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(interrupt.success());
    let o = child.wait_with_output().expect("wait");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cancelled: maven_goal"), "{err}");
    // The build is gone (or a zombie waiting for init to reap it).
    let alive = std::fs::read_to_string(format!("/proc/{build_pid}/stat"))
        .is_ok_and(|s| s.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')));
    assert!(!alive, "the build {build_pid} still runs: {err}");
}

/// `export scip DIR --output FILE` writes a SCIP index the `scip` crate reads back, with one
/// document per Java file, and prints its summary.
#[test]
fn export_scip_writes_an_index_of_the_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("proj/p");
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::write(src.join("A.java"), "package p;\npublic class A { int f; void m() { f = 1; } }\n").expect("write");
    std::fs::write(src.join("B.java"), "package p;\nclass B { void n(A a) { a.m(); } }\n").expect("write");
    let out = dir.path().join("out.scip");
    let o = run(&["export", "scip", "--no-cache", "--output", out.to_str().expect("utf-8"), "proj"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json summary");
    assert_eq!(summary["documents"], 2, "{summary}");
    let index = mcp_java_index::scip::from_bytes(&std::fs::read(&out).expect("written")).expect("reads back");
    let b = index.documents.iter().find(|d| d.relative_path == "p/B.java").expect("B's document");
    assert!(b.occurrences.iter().any(|o| o.symbol == "scip-java maven . . p/A#m()."), "{:?}", b.occurrences);
}

/// `hierarchy`, `impls` and `refs --kind` answer as the tools they call (issue 33).
#[test]
fn hierarchy_impls_and_refs_by_kind_on_the_command_line() {
    let tmp = tempfile::tempdir().expect("tempdir");
    crate::common::copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/nav_fixtures/src"), tmp.path());
    let (code, out, err) = run_in(tmp.path(), &["hierarchy", "nav.shapes.Polygon", "--depth", "0", "--no-daemon"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("subtypes:\n  class nav.shapes.AbstractPolygon") && out.contains("\n    class nav.shapes.Square"),
        "{out}"
    );
    let (code, out, err) = run_in(tmp.path(), &["impls", "nav.store.Repo#save(Object)", "--no-daemon"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("4 implementation(s)") && out.contains("anonymous nav.store.Repo#save"), "{out}");
    let (code, out, err) =
        run_in(tmp.path(), &["refs", "nav.shapes.Shapes#count", "--kind", "write", "--no-daemon", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.matches("\"write\"").count(), 6, "five writes and their count: {out}");
}

/// `refs FILE:LINE:COLUMN` names the declaration at that position, as the tool's `filePath` +
/// `line` + `column` do: the same answer as the target by name.
#[test]
fn refs_by_position_answers_as_by_name() {
    let tmp = tempfile::tempdir().expect("tempdir");
    crate::common::copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/nav_fixtures/src"), tmp.path());
    let by = |target: &str| {
        let (code, out, err) = run_in(tmp.path(), &["refs", target, "--no-daemon", "--json"]);
        assert_eq!(code, Some(0), "{target}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("json");
        (v["total"].clone(), v["files"].clone())
    };
    let named = by("nav.shapes.Shapes#count");
    assert!(named.0.as_u64().is_some_and(|n| n >= 5), "{named:?}");
    assert_eq!(by("nav/shapes/Shapes.java:15:9"), named);
}

/// `types` and `find` in their own processes see an edit, an added, a deleted and a renamed
/// file made between two commands: the index snapshot (its records and the name search
/// buffers persisted with them) only serves the files whose stamp still matches, and the
/// snapshot a command rewrites serves the next one the same answers.
#[test]
fn types_and_find_see_every_change_made_between_two_commands() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let put = |rel: &str, text: &str, age: std::time::Duration| {
        let p = tmp.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
        std::fs::File::options().write(true).open(&p).expect("open").set_modified(old + age).expect("mtime");
    };
    let zero = std::time::Duration::ZERO;
    for i in 0..300 {
        put(&format!("p/Filler{i}.java"), &format!("package p;\nclass Filler{i} {{ void fill{i}() {{}} }}\n"), zero);
    }
    put("p/Edited.java", "package p;\nclass Edited { void before() {} }\n", zero);
    put("p/Deleted.java", "package p;\nclass Deleted { void gone() {} }\n", zero);
    put("p/Moved.java", "package p;\nclass Moved { void moved() {} }\n", zero);
    let cache = tmp.path().join("cache");
    let total = |args: &[&str]| {
        let o = own_process_json(tmp.path(), &cache, args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        serde_json::from_str::<serde_json::Value>(&stdout(&o)).expect("json")["total"].as_u64().unwrap_or(0)
    };
    let answers = || {
        [
            total(&["types", "Edited"]),
            total(&["find", "before"]),
            total(&["find", "after"]),
            total(&["types", "Deleted"]),
            total(&["find", "gone"]),
            total(&["types", "Added"]),
            total(&["find", "aDDed"]),
            total(&["find", "moved"]),
            total(&["types", "Filler299"]),
        ]
    };
    assert_eq!(answers(), [1, 1, 0, 1, 1, 0, 0, 2, 1]);
    let snapshot = || {
        std::fs::read_dir(&cache)
            .expect("cache dir")
            .flatten()
            .find(|e| e.file_name().to_string_lossy().starts_with("symbols-"))
            .map(|e| std::fs::read(e.path()).expect("read"))
            .expect("a snapshot")
    };
    let first = snapshot();
    // An edit keeping the size and an old mtime, an added file, a deleted one, a renamed one.
    put("p/Edited.java", "package p;\nclass Edited { void after_() {} }\n", std::time::Duration::from_secs(5));
    put("p/Added.java", "package p;\nclass Added { void addedHere() {} }\n", zero);
    std::fs::remove_file(tmp.path().join("p/Deleted.java")).expect("delete");
    std::fs::rename(tmp.path().join("p/Moved.java"), tmp.path().join("p/Elsewhere.java")).expect("rename");
    let want = [1, 0, 1, 0, 0, 1, 2, 2, 1];
    assert_eq!(answers(), want);
    assert_ne!(snapshot(), first, "the snapshot was rewritten");
    assert_eq!(answers(), want, "from the rewritten snapshot");
    let o = bin()
        .args(["find", "moved", "--no-daemon"])
        .env("MCP_JAVA_INDEX_CACHE_DIR", &cache)
        .current_dir(tmp.path())
        .output()
        .expect("run");
    assert!(stdout(&o).contains("Elsewhere.java") && !stdout(&o).contains("Moved.java"), "{}", stdout(&o));
}

/// `def` and `hierarchy` on a warm cache restore the linked world the store keeps (issue 38):
/// a subtype added, a method renamed and a file deleted between two commands change their
/// answers as they change a world linked from the files, and the store the command rewrites
/// serves the next one the same answers.
#[test]
fn def_and_hierarchy_see_every_change_made_between_two_commands() {
    let project = Between::new();
    let put = |rel: &str, text: &str| project.put(rel, text);
    for i in 0..50 {
        put(&format!("p/Filler{i}.java"), &format!("package p;\nclass Filler{i} {{ void fill{i}() {{}} }}\n"));
    }
    put("p/Base.java", "package p;\npublic class Base { void run() {} }\n");
    put("p/Sub.java", "package p;\nclass Sub extends Base { void beforeEdit() {} }\n");
    put("p/Gone.java", "package p;\nclass Gone extends Base { void vanishing() {} }\n");
    let json = |args: &[&str]| project.json(args);
    let answers = || {
        let subtypes: Vec<String> = json(&["hierarchy", "p.Base"])["types"]
            .as_array()
            .map(|v| v.iter().map(|t| t["fqn"].as_str().unwrap_or("").to_owned()).collect())
            .unwrap_or_default();
        let def = |name: &str| json(&["def", name])["definitions"][0]["qualifiedName"].as_str().map(str::to_owned);
        (subtypes, def("beforeEdit"), def("afterEdit"), def("vanishing"), def("Added"))
    };
    project.index();
    let s = |x: &str| Some(x.to_owned());
    assert_eq!(
        answers(),
        (vec!["p.Gone".into(), "p.Sub".into()], s("p.Sub#beforeEdit()"), None, s("p.Gone#vanishing()"), None)
    );
    put("p/Added.java", "package p;\nclass Added extends Base { }\n");
    put("p/Sub.java", "package p;\nclass Sub extends Base { void afterEdit() {} }\n");
    project.remove("p/Gone.java");
    let want = (vec!["p.Added".into(), "p.Sub".into()], None, s("p.Sub#afterEdit()"), None, s("p.Added"));
    assert_eq!(answers(), want);
    assert_eq!(answers(), want, "from the store the command rewrote");
    // A method renamed alone (the world relinked in place of the file's declarations).
    put("p/Sub.java", "package p;\nclass Sub extends Base { void beforeEdit() {} }\n");
    let want = (vec!["p.Added".into(), "p.Sub".into()], s("p.Sub#beforeEdit()"), None, None, s("p.Added"));
    assert_eq!(answers(), want);
    assert_eq!(answers(), want, "from the store the command rewrote");
}

/// `refs` and `callers` on a warm cache read the store's key table in place (issue 38): a call
/// added (in a new method: a key the table lacks) and a file deleted between two commands change
/// their answers, and the store the command rewrites serves the next one the same answers.
#[test]
fn refs_and_callers_see_every_change_made_between_two_commands() {
    let project = Between::new();
    let put = |rel: &str, text: &str| project.put(rel, text);
    // Enough keys that the table's text is read in several chunks.
    for i in 0..200 {
        put(
            &format!("p/Filler{i}.java"),
            &format!("package p;\nclass Filler{i} {{ void fill{i}(String s) {{ s.length(); }} }}\n"),
        );
    }
    put("p/Target.java", "package p;\npublic class Target { public void hit() {} }\n");
    put("p/A.java", "package p;\nclass A { void run() { new Target().hit(); } }\n");
    put("p/B.java", "package p;\nclass B { void two() { Target t = new Target(); t.hit(); t.hit(); } }\n");
    let json = |args: &[&str]| project.json(args);
    let answers = || {
        let count = json(&["refs", "p.Target#hit", "--count-only"])["total"].as_u64();
        let callers: Vec<String> = json(&["callers", "p.Target#hit"])["calls"]
            .as_array()
            .map(|v| {
                v.iter().map(|c| format!("{} {}", c["member"], c["sites"].as_array().map_or(0, |s| s.len()))).collect()
            })
            .unwrap_or_default();
        (count, callers)
    };
    project.index();
    let calls = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(answers(), (Some(3), calls(&["\"p.A#run()\" 1", "\"p.B#two()\" 2"])));
    put(
        "p/A.java",
        "package p;\nclass A { void run() { new Target().hit(); } void added() { new Target().hit(); } }\n",
    );
    project.remove("p/B.java");
    let want = (Some(2), calls(&["\"p.A#added()\" 1", "\"p.A#run()\" 1"]));
    assert_eq!(answers(), want);
    assert_eq!(answers(), want, "from the store the command rewrote");
}

/// The commands that link the world (`refs`, `callers`, `def`) put the outline symbol table
/// off and answer from the walk's files (issue 38): a file added, edited and deleted between
/// two of them changes their answers, and a `types` after them, which builds the table from
/// the snapshot none of them rewrote, sees the same files.
#[test]
fn xref_commands_see_every_change_without_the_outline_table() {
    let project = Between::new();
    let put = |rel: &str, text: &str| project.put(rel, text);
    for i in 0..20 {
        put(&format!("p/Filler{i}.java"), &format!("package p;\nclass Filler{i} {{ void fill{i}() {{}} }}\n"));
    }
    put("p/Base.java", "package p;\npublic class Base { void run() {} }\n");
    put("p/Caller.java", "package p;\nclass Caller { void go(Base b) { b.run(); } }\n");
    put("p/Gone.java", "package p;\nclass Gone { void go(Base b) { b.run(); } }\n");
    let json = |args: &[&str]| project.json(args);
    let answers = || {
        let refs = json(&["refs", "p.Base#run()", "--count-only"])["total"].as_u64();
        let callers: Vec<String> = json(&["callers", "p.Base#run()"])["calls"]
            .as_array()
            .map(|v| v.iter().map(|c| c["member"].as_str().unwrap_or("").to_owned()).collect())
            .unwrap_or_default();
        let def = json(&["def", "Added"])["definitions"][0]["qualifiedName"].as_str().map(str::to_owned);
        (refs, callers, def)
    };
    project.index();
    let before = answers();
    assert_eq!(before.0, Some(2), "{before:?}");
    assert_eq!(before.2, None);
    put("p/Added.java", "package p;\nclass Added { void a(Base b) { b.run(); b.run(); } }\n");
    put("p/Caller.java", "package p;\nclass Caller { void go(Base b) { b.run(); b.run(); } }\n");
    project.remove("p/Gone.java");
    let after = answers();
    assert_eq!((after.0, after.2.as_deref()), (Some(4), Some("p.Added")), "{after:?}");
    assert_eq!(before.1, ["p.Caller#go(p.Base)", "p.Gone#go(p.Base)"]);
    assert_eq!(after.1, ["p.Added#a(p.Base)", "p.Caller#go(p.Base)"]);
    assert_eq!(answers(), after);
    let types = |q: &str| json(&["types", q])["total"].as_u64();
    assert_eq!((types("Added"), types("Gone"), types("Caller")), (Some(1), Some(0), Some(1)));
}

/// A project whose directories are an hour old too, so that the walk's listing is kept and
/// trusted by their stamps (issue 56), its cache outside it: a file added to, removed from and
/// renamed within a listed directory, a new subdirectory, and a `.gitignore` edited in place
/// (a file ignored, then not), each between two commands, change `refs`' answer.
#[test]
fn refs_see_every_change_in_a_tree_whose_walk_is_kept() {
    let project = Between::outside();
    let put = |rel: &str, text: &str| project.put(rel, text);
    for i in 0..20 {
        put(&format!("p/Filler{i}.java"), &format!("package p;\nclass Filler{i} {{ void fill{i}() {{}} }}\n"));
    }
    put("p/Base.java", "package p;\npublic class Base { public void run() {} }\n");
    put("p/Caller.java", "package p;\nclass Caller { void go(Base b) { b.run(); } }\n");
    put(".gitignore", "# nothing ignored\n");
    let refs = || project.json(&["refs", "p.Base#run()", "--count-only"])["total"].as_u64();
    // Each change is made after a command that found the tree old and kept its listing.
    let listing = || {
        let found: Vec<_> = std::fs::read_dir(&project.cache)
            .expect("cache")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("listing-")))
            .collect();
        assert_eq!(found.len(), 1, "the walk's listing is kept: {found:?}");
        std::fs::metadata(&found[0]).expect("listing")
    };
    let kept = || {
        project.age();
        project.index();
        let before = listing();
        let n = refs();
        // Not written again: the command took the files from it.
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            assert_eq!(listing().ino(), before.ino(), "the listing was trusted");
        }
        let _ = before;
        n
    };
    assert_eq!(kept(), Some(1));
    put("p/Added.java", "package p;\nclass Added { void a(Base b) { b.run(); } }\n");
    assert_eq!(refs(), Some(2), "a file added");
    assert_eq!(kept(), Some(2));
    std::fs::rename(project.root.join("p/Added.java"), project.root.join("p/Added.java.orig")).expect("mv");
    assert_eq!(refs(), Some(1), "a file renamed away from .java");
    assert_eq!(kept(), Some(1));
    put("q/Q.java", "package q;\nclass Q { void q(p.Base b) { b.run(); b.run(); } }\n");
    assert_eq!(refs(), Some(3), "a new subdirectory");
    assert_eq!(kept(), Some(3));
    std::fs::write(project.root.join(".gitignore"), "q/\n").expect("write");
    assert_eq!(refs(), Some(1), "a .gitignore edited in place: q ignored");
    assert_eq!(kept(), Some(1));
    std::fs::write(project.root.join(".gitignore"), "# q/\n").expect("write");
    assert_eq!(refs(), Some(3), "the .gitignore edited back");
    assert_eq!(kept(), Some(3));
    project.remove("p/Caller.java");
    assert_eq!(refs(), Some(2), "a file removed");
}

/// A project edited between commands, each run in its own process (`--no-daemon`) with its
/// cache in the project's `cache` (outside it with [`Between::outside`]): its files are
/// written an hour in the past, so that no stamp is too recent to trust and an edit is seen
/// by its content or size.
struct Between {
    _tmp: tempfile::TempDir,
    root: std::path::PathBuf,
    cache: std::path::PathBuf,
}

impl Between {
    fn new() -> Between {
        let tmp = tempfile::tempdir().expect("tempdir");
        let cache = tmp.path().join("cache");
        Between { root: tmp.path().to_path_buf(), _tmp: tmp, cache }
    }

    /// The project in `w`, its cache beside it in `cache`.
    fn outside() -> Between {
        let tmp = tempfile::tempdir().expect("tempdir");
        let (root, cache) = (tmp.path().join("w"), tmp.path().join("cache"));
        std::fs::create_dir(&root).expect("mkdir");
        Between { _tmp: tmp, root, cache }
    }

    fn put(&self, rel: &str, text: &str) {
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
        std::fs::File::options().write(true).open(&p).expect("open").set_modified(old).expect("mtime");
    }

    /// Every directory of the project made an hour old (its files are already).
    fn age(&self) {
        fn walk(d: &std::path::Path, old: std::time::SystemTime) {
            for e in std::fs::read_dir(d).expect("read_dir").map(|e| e.expect("entry")) {
                if e.file_type().expect("type").is_dir() {
                    walk(&e.path(), old);
                }
            }
            std::fs::File::open(d).expect("open").set_modified(old).expect("mtime");
        }
        walk(&self.root, std::time::SystemTime::now() - std::time::Duration::from_secs(3600));
    }

    fn remove(&self, rel: &str) {
        std::fs::remove_file(self.root.join(rel)).expect("delete");
    }

    /// `index DIR`: the warm cache the commands start from.
    fn index(&self) {
        let o = bin().arg("index").arg(&self.root).env("MCP_JAVA_INDEX_CACHE_DIR", &self.cache).output().expect("run");
        assert!(o.status.success(), "{}", stderr(&o));
    }

    /// A command's JSON answer; null when it fails.
    fn json(&self, args: &[&str]) -> serde_json::Value {
        let o = own_process_json(&self.root, &self.cache, args);
        serde_json::from_str(&stdout(&o)).unwrap_or(serde_json::Value::Null)
    }
}

/// A command's JSON answer in its own process (`--no-daemon`), run in `dir` with its cache in
/// `cache`.
fn own_process_json(dir: &std::path::Path, cache: &std::path::Path, args: &[&str]) -> std::process::Output {
    bin()
        .args(args)
        .args(["--json", "--no-daemon"])
        .env("MCP_JAVA_INDEX_CACHE_DIR", cache)
        .current_dir(dir)
        .output()
        .expect("run")
}
