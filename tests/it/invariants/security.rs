//! Safe on a hostile repository: the real binary as an MCP server over a workspace that
//! tries to escape it (symbolic links made while serving), to hang it (a FIFO named `*.java`)
//! or to exhaust it (a huge file, a link to a device).

use std::io::{BufRead, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-java-index");

/// A running server driven by raw JSON lines, answers read on a thread.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<Value>,
    next_id: i64,
    /// The answer to `initialize`.
    init: Value,
}

impl Server {
    fn start(root: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut cmd = Command::new(BIN);
        cmd.arg("serve").arg("--root").arg(root).args(args);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child =
            cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("spawn the server");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let mut s = Server { child, stdin, answers: rx, next_id: 1, init: Value::Null };
        s.send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "security", "version": "0"}}}));
        s.init = s.wait_for(0, Duration::from_secs(20));
        s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s
    }

    fn send(&mut self, v: Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{v}").expect("write");
        stdin.flush().expect("flush");
    }

    fn wait_for(&mut self, id: i64, timeout: Duration) -> Value {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.answers.recv_timeout(left) {
                Ok(v) if v["id"] == id => return v,
                Ok(_) => continue,
                Err(_) => panic!("no answer to request {id} within {timeout:?} (the server hangs)"),
            }
        }
    }

    /// Calls a tool; returns (isError, text, structuredContent), failing if no answer comes in
    /// `timeout`.
    fn call_within(&mut self, tool: &str, args: Value, timeout: Duration) -> (bool, String, Value) {
        let id = self.next_id;
        self.next_id += 1;
        self.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": args}}),
        );
        let v = self.wait_for(id, timeout);
        let r = &v["result"];
        let text = r["content"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n");
        (r["isError"] == true, text, r["structuredContent"].clone())
    }

    fn call(&mut self, tool: &str, args: Value) -> (bool, String, Value) {
        self.call_within(tool, args, Duration::from_secs(30))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("Hello.java"), "public class Hello { void greet() {} }\n").expect("write");
    dir
}

#[test]
fn a_symlink_made_while_serving_that_points_outside_is_neither_indexed_nor_read() {
    let ws = workspace();
    let outside = tempfile::tempdir().expect("tempdir");
    let secret = outside.path().join("Secret.java");
    std::fs::write(&secret, "public class Secret { String hunter2Password; }\n").expect("write");
    let mut s = Server::start(ws.path(), &[], &[]);
    // The first pass is done once a search answers complete.
    let (err, text, v) = s.call("find_type", json!({"pattern": "Hello", "includeIndex": true}));
    assert!(!err && v["index"]["complete"] == true, "{text}");
    std::os::unix::fs::symlink(&secret, ws.path().join("Evil.java")).expect("symlink");
    std::os::unix::fs::symlink(outside.path(), ws.path().join("evildir")).expect("dir symlink");
    // A control file made at the same time shows the watcher has applied the batch.
    std::fs::write(ws.path().join("Later.java"), "public class Later {}\n").expect("write");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (_, _, v) = s.call("find_type", json!({"pattern": "Later"}));
        if v["total"] == 1 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the watcher never indexed Later.java");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(300));
    let (_, text, v) = s.call("find_type", json!({"pattern": "Secret"}));
    assert_eq!(v["total"], 0, "a type outside the workspace was indexed: {text}");
    let (_, text, v) = s.call("java_find_symbol", json!({"rootDir": ".", "query": "hunter2Password"}));
    assert_eq!(v["total"], 0, "a field outside the workspace was indexed: {text}");
    let (_, text, v) = s.call("find_resource", json!({"pattern": "*.java"}));
    assert!(!text.contains("Evil.java") && !text.contains("Secret.java"), "listed: {v}");
    for (tool, args) in [
        ("java_index", json!({"filePath": "Evil.java"})),
        ("java_read_range", json!({"filePath": "Evil.java", "startLine": 1, "endLine": 1})),
        ("java_index", json!({"filePath": "evildir/Secret.java"})),
    ] {
        let (err, text, _) = s.call(tool, args);
        assert!(err, "{tool} read a file outside the workspace: {text}");
        assert!(
            text.contains("outside the workspace") && (text.contains("Evil.java") || text.contains("evildir")),
            "{tool}: {text}"
        );
        assert!(!text.contains("hunter2Password"), "{tool} leaked the content: {text}");
    }
}

#[test]
fn a_fifo_named_java_neither_hangs_the_index_nor_a_call() {
    let ws = workspace();
    let fifo = ws.path().join("Pipe.java");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let mut s = Server::start(ws.path(), &[], &[]);
    let (err, text, v) = s.call_within("find_type", json!({"pattern": "Hello"}), Duration::from_secs(20));
    assert!(!err && v["index"]["complete"] == true && v["total"] == 1, "{text}");
    for (tool, args) in [
        ("java_index", json!({"filePath": "Pipe.java"})),
        ("java_read_range", json!({"filePath": "Pipe.java", "startLine": 1, "endLine": 1})),
        ("java_read_javadoc", json!({"filePath": "Pipe.java", "symbolId": "@1"})),
        ("get_problems", json!({"paths": ["Pipe.java"], "source_filter": ["syntax"]})),
    ] {
        let (err, text, v) = s.call_within(tool, args, Duration::from_secs(10));
        if tool == "get_problems" {
            assert!(text.contains("FIFO") || v.to_string().contains("FIFO"), "{tool}: {text}");
        } else {
            assert!(err, "{tool}: {text}");
            assert!(text.contains("Pipe.java") && text.contains("not a regular file"), "{tool}: {text}");
        }
    }
    // A FIFO made while serving is not opened by the watcher either.
    let made = Command::new("mkfifo").arg(ws.path().join("Later.java")).status().expect("mkfifo");
    assert!(made.success());
    std::thread::sleep(Duration::from_millis(800));
    let (err, text, _) = s.call_within("find_type", json!({"pattern": "Hello"}), Duration::from_secs(10));
    assert!(!err, "{text}");
}

#[test]
fn a_fifo_found_at_start_up_is_counted_as_skipped_and_said() {
    let ws = workspace();
    let made = Command::new("mkfifo").arg(ws.path().join("Pipe.java")).status().expect("mkfifo");
    assert!(made.success());
    let mut s = Server::start(ws.path(), &["--index-wait-ms", "60000"], &[]);
    let (err, text, v) = s.call_within("find_type", json!({"pattern": "Hello"}), Duration::from_secs(20));
    assert!(!err && v["index"]["complete"] == true, "{text}");
    assert_eq!(v["index"]["skippedFiles"], 1, "{v}");
    let why = v["index"]["skipped"].to_string();
    assert!(why.contains("Pipe.java") && why.contains("FIFO") && why.contains("not a regular file"), "{why}");
    // The text a model reads says it too.
    assert!(text.contains("Pipe.java"), "{text}");
}

#[test]
fn a_link_to_a_device_is_refused() {
    let ws = workspace();
    std::os::unix::fs::symlink("/dev/zero", ws.path().join("Zero.java")).expect("symlink");
    let mut s = Server::start(ws.path(), &[], &[]);
    let (err, text, _) = s.call_within("java_index", json!({"filePath": "Zero.java"}), Duration::from_secs(10));
    assert!(err && text.contains("Zero.java") && text.contains("outside the workspace"), "{text}");
    std::os::unix::fs::symlink("/dev/zero", ws.path().join("Zero2.java")).expect("symlink");
    std::thread::sleep(Duration::from_millis(800));
    let (err, text, v) = s.call_within("find_resource", json!({"pattern": "Zero*"}), Duration::from_secs(10));
    assert!(!err && v["total"] == 0, "{text}");
}

fn big_java(path: &Path, bytes: usize) {
    let mut s = String::from("public class Big {\n");
    let mut i = 0;
    while s.len() < bytes {
        s.push_str(&format!("    int field{i} = {i};\n"));
        i += 1;
    }
    s.push_str("}\n");
    std::fs::write(path, s).expect("write");
}

#[test]
fn a_file_over_the_cap_is_skipped_and_said_so() {
    let ws = workspace();
    big_java(&ws.path().join("Big.java"), 9 * 1024 * 1024);
    let mut s = Server::start(ws.path(), &["--index-wait-ms", "60000"], &[]);
    let (err, text, v) = s.call("find_type", json!({"pattern": "Big"}));
    assert!(!err, "{text}");
    assert_eq!(v["total"], 0, "{text}");
    assert_eq!(v["index"]["skippedFiles"], 1, "{v}");
    let why = v["index"]["skipped"].to_string();
    assert!(why.contains("Big.java") && why.contains("8388608-byte cap"), "{why}");
    for (tool, args) in [
        ("java_index", json!({"filePath": "Big.java"})),
        ("java_read_range", json!({"filePath": "Big.java", "startLine": 1, "endLine": 2})),
    ] {
        let (err, text, _) = s.call(tool, args);
        assert!(
            err && text.contains("Big.java") && text.contains("8388608-byte cap") && text.contains("max_file_bytes"),
            "{tool}: {text}"
        );
    }
    drop(s);
    // The cap is a setting.
    let mut s =
        Server::start(ws.path(), &["--index-wait-ms", "60000"], &[("MCP_JAVA_INDEX_MAX_FILE_BYTES", "20000000")]);
    let (_, text, v) = s.call("find_type", json!({"pattern": "Big"}));
    assert_eq!(v["total"], 1, "{text}");
}

/// A home directory with no user configuration, so only the repository's files speak.
fn empty_home() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

fn config_of(root: &Path, home: &Path, extra: &[&str]) -> (Value, String) {
    let o = Command::new(BIN)
        .args(["config", "--root"])
        .arg(root)
        .args(extra)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("MCP_JAVA_INDEX_TRUST")
        .output()
        .expect("run config");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    (serde_json::from_slice(&o.stdout).expect("config prints JSON"), err)
}

#[test]
fn a_repository_config_cannot_set_what_executes_or_reaches_outside() {
    let ws = workspace();
    let outside = tempfile::tempdir().expect("tempdir");
    let log = outside.path().join("log.txt");
    let cache = outside.path().join("cache");
    std::fs::write(
        ws.path().join("mcp-java-index.toml"),
        format!(
            "javac_options = [\"-Xplugin:Evil\", \"-J-Dx=1\", \"-processorpath\", \"/tmp/evil\"]\nlog_file = {:?}\ncache_dir = {:?}\nmaven_repo_local = \"/tmp/evil-m2\"\nannotation_processing = true\ntrusted_roots = [\".\"]\njavac_lint = \"deprecation\"\nclasspath = [{:?}]\n",
            log.display().to_string(),
            cache.display().to_string(),
            outside.path().join("secret-sources.jar").display().to_string()
        ),
    )
    .expect("write");
    std::fs::write(ws.path().join("mcp-java-index.local.toml"), "log_file = \"../escape.log\"\n").expect("write");
    let home = empty_home();
    let (v, err) = config_of(ws.path(), home.path(), &[]);
    assert_eq!(v["javac_options"]["value"], json!([]), "{v}");
    assert_eq!(v["javac_options"]["source"], "default", "{v}");
    assert_eq!(v["log_file"]["value"], Value::Null, "{v}");
    assert_eq!(v["cache_dir"]["value"], Value::Null, "{v}");
    assert_eq!(v["maven_repo_local"]["value"], Value::Null, "{v}");
    assert_eq!(v["annotation_processing"]["value"], false, "{v}");
    assert_eq!(v["trusted"]["value"], false, "a workspace cannot trust itself: {v}");
    // What the repository may set still applies.
    assert_eq!(v["javac_lint"]["value"], "deprecation", "{v}");
    let ignored = v["ignored"].to_string();
    assert_eq!(v["classpath"]["value"], json!([]), "a repository names no jar outside: {v}");
    for key in [
        "javac_options",
        "log_file",
        "cache_dir",
        "maven_repo_local",
        "annotation_processing",
        "trusted_roots",
        "classpath",
    ] {
        assert!(ignored.contains(&format!("`{key}`")) && ignored.contains("untrusted"), "{key}: {ignored}");
        assert!(err.contains(&format!("warning: ignored `{key}`")), "{key} not warned on stderr: {err}");
    }
    // get_problems still works, with javac, and nothing is written outside the root.
    let mut s = Server::start(ws.path(), &[], &[("HOME", &home.path().to_string_lossy())]);
    let (e, text, v) = s.call_within("get_problems", json!({"paths": ["Hello.java"]}), Duration::from_secs(60));
    assert!(!e, "{text}");
    assert_eq!(v["javac"]["available"], true, "{v}");
    assert_eq!(v["total"], 0, "{v}");
    drop(s);
    assert!(!log.exists() && !cache.exists(), "the server wrote outside the workspace");
    assert!(!ws.path().parent().expect("parent").join("escape.log").exists());
}

/// A dangling link in the repository, named by its `log_file` or `cache_dir`, once made the
/// server create the link's target outside the workspace (`notes.log -> ~/.bash_profile`) and
/// write every message into it, with the root given as an absolute path as every README
/// example registers it.
#[cfg(unix)]
#[test]
fn a_dangling_link_cannot_take_the_log_or_the_cache_outside() {
    let ws = workspace();
    let outside = tempfile::tempdir().expect("tempdir");
    let profile = outside.path().join(".bash_profile");
    let cache = outside.path().join("cache");
    std::os::unix::fs::symlink(&profile, ws.path().join("notes.log")).expect("link");
    std::os::unix::fs::symlink(&cache, ws.path().join("c")).expect("link");
    std::fs::write(ws.path().join("mcp-java-index.toml"), "log_file = \"notes.log\"\ncache_dir = \"c\"\n")
        .expect("write");
    let home = empty_home();
    let root = std::fs::canonicalize(ws.path()).expect("canon");
    let (v, err) = config_of(&root, home.path(), &[]);
    assert_eq!((v["log_file"]["value"].clone(), v["cache_dir"]["value"].clone()), (Value::Null, Value::Null), "{v}");
    for key in ["log_file", "cache_dir"] {
        assert!(err.contains(&format!("warning: ignored `{key}`")) && err.contains("outside"), "{key}: {err}");
    }
    let mut s = Server::start(&root, &[], &[("HOME", &home.path().to_string_lossy())]);
    let (e, text, _) = s.call("java_index", json!({"filePath": "Hello.java"}));
    assert!(!e, "{text}");
    drop(s);
    assert!(!profile.exists() && !cache.exists(), "the server wrote outside the workspace");
    // A log file inside the workspace, named by the repository, is still written.
    std::fs::write(ws.path().join("mcp-java-index.toml"), "log_file = \"messages.log\"\n").expect("write");
    let mut s = Server::start(&root, &[], &[("HOME", &home.path().to_string_lossy())]);
    let (e, text, _) = s.call("java_index", json!({"filePath": "Hello.java"}));
    assert!(!e, "{text}");
    drop(s);
    let log = std::fs::read_to_string(ws.path().join("messages.log")).expect("the log inside");
    assert!(log.contains("java_index"), "{log}");
}

/// One line in a repository's configuration once stopped `serve` and `config` (exit 1): an
/// unknown key, a value of the wrong type, a file that does not parse. Now each is ignored with
/// a warning on stderr, in `config`'s `ignored` and in the server's instructions, and the
/// file's valid keys still apply.
#[test]
fn a_bad_repository_config_line_never_stops_the_server() {
    let home = empty_home();
    let cases = [
        ("trusted = true\njavac_lint = \"cast\"\n", "unknown key `trusted`", true),
        ("watch = \"yes\"\njavac_lint = \"cast\"\n", "`watch`", true),
        ("javac_lint = \"cast\"\nwatch = [\n", "whole", false),
    ];
    for (text, why, applied) in cases {
        let ws = workspace();
        std::fs::write(ws.path().join("mcp-java-index.toml"), text).expect("write");
        let (v, err) = config_of(ws.path(), home.path(), &[]);
        assert!(v["ignored"].to_string().contains(why), "{text}: {v}");
        assert!(err.contains("warning: ignored") && err.contains(why), "{text}: {err}");
        assert_eq!(v["javac_lint"]["value"] == "cast", applied, "{text}: {v}");
        if applied {
            assert!(v["javac_lint"]["source"].as_str().is_some_and(|s| s.ends_with("mcp-java-index.toml")), "{v}");
        }
        let mut s = Server::start(ws.path(), &[], &[("HOME", &home.path().to_string_lossy())]);
        let instructions = s.init["result"]["instructions"].as_str().unwrap_or_default().to_owned();
        assert!(instructions.contains("ignored") && instructions.contains(why), "{text}: {instructions}");
        let (e, answer, _) = s.call("java_index", json!({"filePath": "Hello.java"}));
        assert!(!e && answer.contains("greet"), "{text}: {answer}");
    }
}

#[test]
fn the_user_config_sets_what_the_repository_may_not() {
    let ws = workspace();
    let home = empty_home();
    let user = home.path().join(".config/mcp-java-index/config.toml");
    std::fs::create_dir_all(user.parent().expect("parent")).expect("mkdir");
    std::fs::write(
        &user,
        format!("javac_options = [\"-g\"]\ntrusted_roots = [{:?}]\n", ws.path().display().to_string()),
    )
    .expect("write");
    let (v, err) = config_of(ws.path(), home.path(), &[]);
    assert_eq!(v["javac_options"]["value"], json!(["-g"]), "{v}");
    assert!(v["javac_options"]["source"].as_str().is_some_and(|s| s.ends_with("config.toml")), "{v}");
    assert_eq!(v["trusted"]["value"], true, "{v}");
    assert!(v["ignored"].as_array().is_some_and(Vec::is_empty) && !err.contains("ignored"), "{v} {err}");
    let (v, _) = config_of(ws.path(), empty_home().path(), &["--trust"]);
    assert_eq!((v["trusted"]["value"].clone(), v["trusted"]["source"].clone()), (json!(true), json!("flag --trust")));
}

/// A Maven project and a fake `mvn` first on PATH that records each run.
fn maven_project() -> (tempfile::TempDir, tempfile::TempDir, std::path::PathBuf) {
    let ws = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        ws.path().join("pom.xml"),
        "<project><modelVersion>4.0.0</modelVersion><groupId>x</groupId><artifactId>a</artifactId><version>1</version></project>\n",
    )
    .expect("write");
    let src = ws.path().join("src/main/java/com/x");
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::write(src.join("A.java"), "package com.x;\n\npublic class A { int n = 1; }\n").expect("write");
    let bin = tempfile::tempdir().expect("tempdir");
    let marker = bin.path().join("mvn-was-run");
    let mvn = bin.path().join("mvn");
    std::fs::write(&mvn, format!("#!/bin/sh\necho \"$@\" >> '{}'\nexit 1\n", marker.display())).expect("write");
    let mut perms = std::fs::metadata(&mvn).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&mvn, perms).expect("chmod");
    (ws, bin, marker)
}

#[test]
fn maven_runs_only_in_a_trusted_workspace() {
    let (ws, bin, marker) = maven_project();
    let home = empty_home();
    let path = format!("{}:{}", bin.path().display(), std::env::var("PATH").unwrap_or_default());
    let env = [("PATH", path.as_str()), ("HOME", &*home.path().to_string_lossy())];
    let file = json!({"paths": ["src/main/java/com/x/A.java"]});
    let mut s = Server::start(ws.path(), &[], &env);
    let (e, text, v) = s.call_within("get_problems", file.clone(), Duration::from_secs(60));
    assert!(!e, "{text}");
    drop(s);
    assert!(!marker.exists(), "mvn ran in an untrusted workspace");
    assert_eq!(v["javac"]["available"], true, "{v}");
    assert_eq!(v["javac"]["classpathComplete"], false, "{v}");
    let notes = v["javac"]["classpathNotes"].to_string();
    assert!(
        notes.contains("not trusted") && notes.contains("dependency:build-classpath") && notes.contains("--trust"),
        "{notes}"
    );
    let mut s = Server::start(ws.path(), &["--trust"], &env);
    let (e, text, _) = s.call_within("get_problems", file, Duration::from_secs(60));
    assert!(!e, "{text}");
    drop(s);
    let ran = std::fs::read_to_string(&marker).expect("mvn ran with --trust");
    assert!(ran.contains("dependency:build-classpath"), "{ran}");
}

/// The CLI on `root` with its own user cache directory (where the cache key lives).
fn cli_as(home: &Path, root: &Path, args: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .args(args)
        .current_dir(root)
        .env("HOME", home)
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env_remove("MCP_JAVA_INDEX_CACHE_DIR")
        .output()
        .expect("run the CLI")
}

/// `index --outlines --stats`' last stderr line: the outline cache's (hits, misses), the
/// outlines printed and the whole stderr.
fn index_stats(home: &Path, root: &Path) -> (u64, u64, String, String) {
    let o = cli_as(home, root, &["index", "--outlines", "--stats", "."]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    let s: Value = serde_json::from_str(err.lines().last().unwrap_or_default()).expect("stats JSON");
    let n = |k: &str| s[k].as_u64().expect("count");
    (n("cacheHits"), n("cacheMisses"), String::from_utf8_lossy(&o.stdout).into_owned(), err)
}

/// A workspace whose one file was last modified an hour ago (old enough to be trusted by its
/// stamp and kept in the index snapshot).
fn settled_workspace() -> tempfile::TempDir {
    let ws = workspace();
    let f = std::fs::File::options().write(true).open(ws.path().join("Hello.java")).expect("open");
    f.set_modified(std::time::SystemTime::now() - Duration::from_secs(3600)).expect("set mtime");
    ws
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        if e.file_type().expect("type").is_dir() {
            copy_tree(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
        }
    }
}

/// A repository can commit a `.mcp-java-index-cache/` whose outlines lie. The cache is used
/// only if this user made it for this path: one built in workspace A, poisoned and copied into
/// workspace B is moved aside there and rebuilt (B's answers are B's files), with one warning,
/// while A's and then B's own warm starts hit their caches.
#[test]
fn a_cache_this_user_did_not_make_here_is_moved_aside_and_rebuilt() {
    let home = empty_home();
    let (a, b) = (settled_workspace(), settled_workspace());
    assert_eq!(index_stats(home.path(), a.path()).1, 1, "A's cold start parses");
    let (hits, misses, _, err) = index_stats(home.path(), a.path());
    assert_eq!((hits, misses), (1, 0), "A's warm start hits its cache: {err}");
    assert!(!err.contains("not made by this user"), "{err}");

    // Poison A's outline of Hello.java, then ship A's cache in B.
    let cache_a = a.path().join(".mcp-java-index-cache");
    let db = rusqlite::Connection::open(cache_a.join("outlines.sqlite3")).expect("open the cache");
    let poisoned = db.execute("UPDATE outlines SET json = replace(json, 'greet', 'pwned')", []).expect("poison");
    assert_eq!(poisoned, 1);
    drop(db);
    copy_tree(&cache_a, &b.path().join(".mcp-java-index-cache"));

    let (hits, misses, out, err) = index_stats(home.path(), b.path());
    assert!(out.contains("greet") && !out.contains("pwned"), "B answered from the shipped cache: {out}");
    assert_eq!((hits, misses), (0, 1), "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("not made by this user at this path")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(b.path().join(".mcp-java-index-cache.unverified/outlines.sqlite3").is_file());
    // B's own cache from now on: a warm start hits, with no warning.
    let (hits, misses, out, err) = index_stats(home.path(), b.path());
    assert_eq!((hits, misses), (1, 0), "{err}");
    assert!(out.contains("greet") && !err.contains("not made by this user"), "{err}");

    // Another user (another key) does not trust A's cache either.
    let other = empty_home();
    let (_, _, out, err) = index_stats(other.path(), a.path());
    assert!(out.contains("greet") && !out.contains("pwned"), "{out}");
    assert!(err.contains("not made by this user at this path"), "{err}");
}

/// The index snapshot carries a MAC of its bytes: one altered after this user wrote it is not
/// used (its names would otherwise be served), and an intact one still gives a warm start.
#[test]
fn an_altered_index_snapshot_is_not_used() {
    let home = empty_home();
    let ws = settled_workspace();
    let find = |query: &str| {
        let o = cli_as(home.path(), ws.path(), &["find", "--query", query, "--root", ".", "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
        v["total"].as_u64().expect("total")
    };
    assert_eq!(find("greet"), 1);
    let cache = ws.path().join(".mcp-java-index-cache");
    let snapshot = std::fs::read_dir(&cache)
        .expect("cache dir")
        .map(|e| e.expect("entry").path())
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("symbols-")))
        .expect("a snapshot was written");
    let bytes = std::fs::read(&snapshot).expect("read");
    let at = bytes.windows(5).position(|w| w == b"greet").expect("the name is in the snapshot");
    let mut altered = bytes.clone();
    altered[at..at + 5].copy_from_slice(b"pwned");
    std::fs::write(&snapshot, &altered).expect("alter");
    assert_eq!(find("pwned"), 0, "an altered snapshot was used");
    assert_eq!(find("greet"), 1);
}

/// The reference store carries a MAC of what it holds: one altered after this user wrote it is
/// not used (its targets would otherwise be answered), and the references are bound again.
#[test]
fn an_altered_reference_store_is_not_used() {
    let home = empty_home();
    let ws = settled_workspace();
    let caller = ws.path().join("Caller.java");
    std::fs::write(&caller, "public class Caller { void run(Hello h) { h.greet(); h.greet(); } }\n").expect("write");
    let f = std::fs::File::options().write(true).open(&caller).expect("open");
    f.set_modified(std::time::SystemTime::now() - Duration::from_secs(3600)).expect("set mtime");
    let count = || {
        let o = cli_as(
            home.path(),
            ws.path(),
            &["refs", "Hello#greet()", "--count-only", "--root", ".", "--json", "--no-daemon"],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
        v["total"].as_u64().expect("total")
    };
    assert_eq!(count(), 2);
    let cache = ws.path().join(".mcp-java-index-cache");
    let store = std::fs::read_dir(&cache)
        .expect("cache dir")
        .map(|e| e.expect("entry").path())
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("xref-")))
        .expect("a reference store was written");
    let bytes = std::fs::read(&store).expect("read");
    let mut altered = bytes.clone();
    let mut n = 0;
    while let Some(at) = altered.windows(5).position(|w| w == b"greet") {
        altered[at..at + 5].copy_from_slice(b"pwned");
        n += 1;
    }
    assert!(n > 0, "the name is in the store");
    std::fs::write(&store, &altered).expect("alter");
    assert_eq!(count(), 2, "an altered store was used");
}

/// Every kind of secret the server never serves, at the paths a repository keeps them, each
/// holding a marker that must never reach an answer.
const SECRETS: &[&str] = &[
    ".git/config",
    ".env",
    "app/.env.production",
    "deploy/id_rsa",
    "deploy/id_ed25519",
    "certs/server.pem",
    "certs/tls.key",
    "certs/client.p12",
    "certs/client.pfx",
    "src/main/resources/store.jks",
    "release.keystore",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    ".docker/config.json",
    ".aws/credentials",
    ".ssh/config",
    ".gnupg/gpg.conf",
    // Issue 50's round: build tools', databases', web servers' and clusters' credentials.
    ".m2/settings.xml",
    "settings-security.xml",
    ".gradle/gradle.properties",
    "config/credentials.json",
    ".pgpass",
    "web/.htpasswd",
    "kubeconfig",
    ".kube/config",
    "config/secrets.yml",
    "deploy/prod.env",
];

/// A workspace holding [`SECRETS`] (each `SECRET-<its index>`), `Hello.java` and `notes.txt`.
fn workspace_with_secrets() -> tempfile::TempDir {
    let ws = workspace();
    for (i, rel) in SECRETS.iter().enumerate() {
        let p = ws.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        let text = if *rel == ".git/config" {
            format!("[remote \"origin\"]\n\turl = https://deploy:SECRET-{i}@git.example/repo.git\n")
        } else {
            format!("SECRET-{i}\n")
        };
        std::fs::write(&p, text).expect("write");
    }
    std::fs::write(ws.path().join("notes.txt"), "PUBLIC notes\n").expect("write");
    ws
}

impl Server {
    /// Sends one request; returns its answer (`result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait_for(id, Duration::from_secs(30))
    }

    /// Every `resources/list` page's URIs, joined.
    fn listed_resources(&mut self) -> String {
        let mut uris = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let params = cursor.as_ref().map_or(json!({}), |c| json!({"cursor": c}));
            let v = self.request("resources/list", params);
            for r in v["result"]["resources"].as_array().expect("resources") {
                uris.push(r["uri"].as_str().expect("uri").to_owned());
            }
            match v["result"]["nextCursor"].as_str() {
                Some(c) => cursor = Some(c.to_owned()),
                None => return uris.join("\n"),
            }
        }
    }
}

/// A home directory whose user config holds `toml`.
fn home_with_config(toml: &str) -> tempfile::TempDir {
    let home = empty_home();
    let user = home.path().join(".config/mcp-java-index/config.toml");
    std::fs::create_dir_all(user.parent().expect("parent")).expect("mkdir");
    std::fs::write(&user, toml).expect("write");
    home
}

fn start_as(home: &Path, root: &Path) -> Server {
    let home_s = home.to_string_lossy().into_owned();
    Server::start(root, &[], &[("HOME", &home_s), ("XDG_CONFIG_HOME", &format!("{home_s}/.config"))])
}

/// The file URI of a path under the (canonical) workspace.
fn file_uri_of(ws: &Path, rel: &str) -> String {
    format!("file://{}", std::fs::canonicalize(ws).expect("canon").join(rel).display())
}

#[test]
fn secrets_inside_the_root_are_neither_read_nor_listed_nor_searched() {
    let ws = workspace_with_secrets();
    let home = empty_home();
    let mut s = start_as(home.path(), ws.path());
    let (err, text, v) = s.call("find_type", json!({"pattern": "Hello", "includeIndex": true}));
    assert!(!err && v["index"]["complete"] == true, "{text}");
    for (i, rel) in SECRETS.iter().enumerate() {
        let marker = format!("SECRET-{i}");
        let (err, text, _) = s.call("java_read_range", json!({"filePath": rel, "startLine": 1, "endLine": 2}));
        assert!(err, "java_read_range served {rel}: {text}");
        assert!(text.contains("not served") && text.contains("read_allow"), "{rel}: {text}");
        assert!(!text.contains(&marker), "{rel} leaked: {text}");
        let v = s.request("resources/read", json!({"uri": file_uri_of(ws.path(), rel)}));
        let answer = v.to_string();
        assert!(v["error"]["message"].as_str().is_some_and(|m| m.contains("not served")), "resources/read {rel}: {v}");
        assert!(!answer.contains(&marker), "resources/read {rel} leaked: {answer}");
        // The other ways a file is read or named: none serves it either.
        for (tool, args) in [
            ("java_index", json!({"filePath": rel})),
            ("java_read_javadoc", json!({"filePath": rel, "symbolId": "@1"})),
            ("get_problems", json!({"paths": [rel]})),
        ] {
            let (_, text, v) = s.call(tool, args);
            assert!(!text.contains(&marker) && !v.to_string().contains(&marker), "{tool} leaked {rel}: {text}");
        }
    }
    let listed = s.listed_resources();
    assert!(listed.contains("notes.txt") && listed.contains("Hello.java"), "{listed}");
    let (_, found, _) = s.call("find_resource", json!({"pattern": "*"}));
    let completed = s.request(
        "completion/complete",
        json!({"ref": {"type": "ref/resource", "uri": "file:///{path}"}, "argument": {"name": "path", "value": ""}}),
    );
    for rel in SECRETS {
        let name = rel.rsplit('/').next().expect("name");
        assert!(!listed.contains(rel), "resources/list lists {rel}: {listed}");
        assert!(!found.contains(name), "find_resource lists {rel}: {found}");
        assert!(!completed.to_string().contains(rel), "completion offers {rel}: {completed}");
    }
    // What is not a secret is still served.
    let v = s.request("resources/read", json!({"uri": file_uri_of(ws.path(), "notes.txt")}));
    assert!(v.to_string().contains("PUBLIC notes"), "{v}");
}

/// A build's properties and Maven's settings are served with their secret values masked (their
/// versions, repositories and mirrors are what an agent needs), by every way a file is read.
#[test]
fn build_files_are_served_with_their_secret_values_masked() {
    let ws = workspace();
    std::fs::write(ws.path().join("gradle.properties"), "version=1.0\nsigning.password=SECRET-PW\n").expect("write");
    std::fs::create_dir(ws.path().join("ci")).expect("mkdir");
    std::fs::write(
        ws.path().join("ci/settings.xml"),
        "<settings><servers><server><id>r</id><password>SECRET-XML</password></server></servers></settings>\n",
    )
    .expect("write");
    let home = empty_home();
    let mut s = start_as(home.path(), ws.path());
    let v = s.request("resources/read", json!({"uri": file_uri_of(ws.path(), "gradle.properties")}));
    let read = v.to_string();
    assert!(read.contains("version=1.0") && read.contains("signing.password=********"), "{v}");
    assert!(!read.contains("SECRET-PW"), "{v}");
    let v = s.request("resources/read", json!({"uri": file_uri_of(ws.path(), "ci/settings.xml")}));
    assert!(v.to_string().contains("<id>r</id>") && !v.to_string().contains("SECRET-XML"), "{v}");
    let (err, text, _) =
        s.call("java_read_range", json!({"filePath": "gradle.properties", "startLine": 1, "endLine": 2}));
    assert!(!err && text.contains("version=1.0") && !text.contains("SECRET-PW"), "{text}");
}

/// A hard link is the file itself under another name: one whose other name is outside the
/// roots (`~/.aws/credentials` linked in as `notes.txt`) passes every check by path, and is
/// refused by its link count; a file whose names are all inside is served.
#[cfg(unix)]
#[test]
fn a_hard_link_to_a_file_outside_is_not_served() {
    let ws = workspace();
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("credentials"), "OUTSIDE-SECRET\n").expect("write");
    std::fs::hard_link(outside.path().join("credentials"), ws.path().join("notes.txt")).expect("link");
    std::fs::write(ws.path().join("a.txt"), "BOTH-INSIDE\n").expect("write");
    std::fs::hard_link(ws.path().join("a.txt"), ws.path().join("b.txt")).expect("link");
    let home = empty_home();
    let mut s = start_as(home.path(), ws.path());
    let v = s.request("resources/read", json!({"uri": file_uri_of(ws.path(), "notes.txt")}));
    assert!(!v.to_string().contains("OUTSIDE-SECRET"), "{v}");
    assert!(v.to_string().contains("hard links"), "{v}");
    let (err, text, _) = s.call("java_read_range", json!({"filePath": "notes.txt", "startLine": 1, "endLine": 1}));
    assert!(err && !text.contains("OUTSIDE-SECRET"), "{text}");
    let v = s.request("resources/read", json!({"uri": file_uri_of(ws.path(), "b.txt")}));
    assert!(v.to_string().contains("BOTH-INSIDE"), "{v}");
}

#[test]
fn a_secret_made_while_serving_is_not_listed_and_a_link_to_one_is_not_read() {
    let ws = workspace();
    let home = empty_home();
    let mut s = start_as(home.path(), ws.path());
    let (err, text, v) = s.call("find_type", json!({"pattern": "Hello", "includeIndex": true}));
    assert!(!err && v["index"]["complete"] == true, "{text}");
    std::fs::create_dir_all(ws.path().join("deploy")).expect("mkdir");
    std::fs::write(ws.path().join("deploy/id_rsa"), "SECRET-KEY\n").expect("write");
    std::fs::write(ws.path().join(".env"), "SECRET-ENV\n").expect("write");
    std::os::unix::fs::symlink(ws.path().join(".env"), ws.path().join("settings.txt")).expect("symlink");
    // A control file made at the same time shows the watcher has applied the batch.
    std::fs::write(ws.path().join("Later.java"), "public class Later {}\n").expect("write");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while s.call("find_type", json!({"pattern": "Later"})).2["total"] != 1 {
        assert!(std::time::Instant::now() < deadline, "the watcher never indexed Later.java");
        std::thread::sleep(Duration::from_millis(100));
    }
    let (_, found, _) = s.call("find_resource", json!({"pattern": "*"}));
    assert!(!found.contains("id_rsa") && !found.contains(".env"), "{found}");
    assert!(!s.listed_resources().contains("id_rsa"));
    let (err, text, _) = s.call("java_read_range", json!({"filePath": "settings.txt", "startLine": 1, "endLine": 1}));
    assert!(err && text.contains("not served") && !text.contains("SECRET-ENV"), "{text}");
}

#[test]
fn the_user_allows_a_secret_with_read_allow_and_read_deny_narrows() {
    let ws = workspace_with_secrets();
    std::fs::write(ws.path().join("mcp-java-index.toml"), "read_deny = [\"*.txt\"]\n").expect("write");
    let home = home_with_config("read_allow = [\"deploy/id_rsa\", \"/.env\"]\n");
    let mut s = start_as(home.path(), ws.path());
    let (err, text, v) = s.call("find_type", json!({"pattern": "Hello", "includeIndex": true}));
    assert!(!err && v["index"]["complete"] == true, "{text}");
    let id_rsa = SECRETS.iter().position(|r| *r == "deploy/id_rsa").expect("listed");
    let env = SECRETS.iter().position(|r| *r == ".env").expect("listed");
    let (err, text, _) = s.call("java_read_range", json!({"filePath": "deploy/id_rsa", "startLine": 1, "endLine": 1}));
    assert!(!err && text.contains(&format!("SECRET-{id_rsa}")), "read_allow: {text}");
    let v = s.request("resources/read", json!({"uri": file_uri_of(ws.path(), ".env")}));
    assert!(v.to_string().contains(&format!("SECRET-{env}")), "read_allow `/.env`: {v}");
    assert!(s.listed_resources().contains("deploy/id_rsa"), "an allowed file is listed");
    // What the user did not allow stays refused: the anchored `/.env` is not app/.env.production.
    let (err, text, _) =
        s.call("java_read_range", json!({"filePath": "deploy/id_ed25519", "startLine": 1, "endLine": 1}));
    assert!(err && text.contains("not served"), "{text}");
    let (err, text, _) =
        s.call("java_read_range", json!({"filePath": "app/.env.production", "startLine": 1, "endLine": 1}));
    assert!(err && text.contains("not served"), "{text}");
    // The repository's read_deny refuses a file that is no secret, and says which pattern.
    let (err, text, _) = s.call("java_read_range", json!({"filePath": "notes.txt", "startLine": 1, "endLine": 1}));
    assert!(err && text.contains("read_deny") && text.contains("*.txt") && !text.contains("PUBLIC"), "{text}");
    assert!(!s.listed_resources().contains("notes.txt"));
}

/// A repository's `read_deny = ["nothing-here"]` once replaced the user's own `read_deny`, and
/// the files the user had denied were served; it adds to the user's now.
#[test]
fn a_repository_read_deny_adds_to_the_users_and_never_replaces_it() {
    let ws = workspace_with_secrets();
    std::fs::write(ws.path().join("mcp-java-index.toml"), "read_deny = [\"nothing-here\"]\n").expect("write");
    let home = home_with_config("read_deny = [\"*.txt\"]\n");
    let (v, _) = config_of(ws.path(), home.path(), &[]);
    assert_eq!(v["read_deny"]["value"], json!(["*.txt", "nothing-here"]), "{v}");
    let mut s = start_as(home.path(), ws.path());
    let (err, text, _) = s.call("java_read_range", json!({"filePath": "notes.txt", "startLine": 1, "endLine": 1}));
    assert!(err && text.contains("read_deny") && text.contains("*.txt") && !text.contains("PUBLIC"), "{text}");
    assert!(!s.listed_resources().contains("notes.txt"));
}

/// A repository's `tools` list once turned back on the groups the user had switched off; it
/// may only leave groups out, and `export_scip`, which writes, is not in the navigation group.
#[test]
fn a_repository_cannot_turn_tool_groups_back_on() {
    let ws = workspace();
    std::fs::write(
        ws.path().join("mcp-java-index.toml"),
        "tools = [\"navigation\", \"edit\", \"build\", \"export\"]\n",
    )
    .expect("write");
    let home = home_with_config("tools = [\"navigation\"]\n");
    let (v, err) = config_of(ws.path(), home.path(), &[]);
    assert_eq!(v["tools"]["value"], json!(["navigation"]), "{v}");
    assert!(err.contains("warning: ignored `tools`") && err.contains("`edit`"), "{err}");
    let mut s = start_as(home.path(), ws.path());
    let listed = s.request("tools/list", json!({})).to_string();
    assert!(listed.contains("\"find_references\""), "{listed}");
    for name in ["refactor_actions", "run_tests", "export_scip"] {
        assert!(!listed.contains(&format!("\"{name}\"")), "{name} listed: {listed}");
    }
}

/// A repository's `answer_tokens = 10000000` was accepted (a 3.97 MB answer); a repository may
/// only lower the budget, and says which value was kept.
#[test]
fn a_repository_cannot_raise_the_answer_budget() {
    let ws = workspace();
    std::fs::write(ws.path().join("mcp-java-index.toml"), "answer_tokens = 10000000\nshared_idle_secs = 0\n")
        .expect("write");
    let home = empty_home();
    let (v, err) = config_of(ws.path(), home.path(), &[]);
    assert_eq!(
        (v["answer_tokens"]["value"].clone(), v["shared_idle_secs"]["value"].clone()),
        (json!(20000), json!(900))
    );
    assert!(
        err.contains("warning: ignored `answer_tokens`") && err.contains("10000000") && err.contains("20000"),
        "{err}"
    );
    assert!(err.contains("warning: ignored `shared_idle_secs`"), "{err}");
}

/// A repository's `log_file = ".git/config"` appended the protocol log to the clone's git
/// configuration and broke its git.
#[test]
fn a_repository_log_file_never_goes_into_git() {
    let ws = workspace();
    std::fs::create_dir_all(ws.path().join(".git")).expect("mkdir");
    let config = "[core]\n\trepositoryformatversion = 0\n";
    std::fs::write(ws.path().join(".git/config"), config).expect("write");
    std::fs::write(ws.path().join("mcp-java-index.toml"), "log_file = \".git/config\"\n").expect("write");
    let home = empty_home();
    let (v, err) = config_of(ws.path(), home.path(), &[]);
    assert_eq!(v["log_file"]["value"], Value::Null, "{v}");
    assert!(err.contains("warning: ignored `log_file`") && err.contains("`.git`"), "{err}");
    let mut s = start_as(home.path(), ws.path());
    let (e, text, _) = s.call("java_index", json!({"filePath": "Hello.java"}));
    assert!(!e, "{text}");
    drop(s);
    assert_eq!(std::fs::read_to_string(ws.path().join(".git/config")).expect("read"), config);
}

#[test]
fn a_repository_cannot_allow_its_own_secrets() {
    let ws = workspace_with_secrets();
    std::fs::write(ws.path().join("mcp-java-index.toml"), "read_allow = [\"*\", \".git/\", \".env\"]\n")
        .expect("write");
    let home = empty_home();
    let (v, err) = config_of(ws.path(), home.path(), &[]);
    assert_eq!(v["read_allow"]["value"], json!([]), "{v}");
    let ignored = v["ignored"].to_string();
    assert!(ignored.contains("`read_allow`") && err.contains("warning: ignored `read_allow`"), "{ignored} {err}");
    let mut s = start_as(home.path(), ws.path());
    for rel in [".env", ".git/config", "deploy/id_rsa"] {
        let (err, text, _) = s.call("java_read_range", json!({"filePath": rel, "startLine": 1, "endLine": 1}));
        assert!(err && text.contains("not served") && !text.contains("SECRET"), "{rel}: {text}");
    }
}

#[test]
fn the_cli_range_and_javadoc_refuse_secrets_too() {
    let ws = workspace_with_secrets();
    let home = empty_home();
    for args in
        [&["range", "deploy/id_rsa", "1", "1"][..], &["range", ".git/config", "1", "2"], &["javadoc", ".env", "@1"]]
    {
        let o = cli_as(home.path(), ws.path(), args);
        let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(!o.status.success() && err.contains("not served"), "{args:?}: {out} {err}");
        assert!(!out.contains("SECRET") && !err.contains("SECRET"), "{args:?}: {out} {err}");
    }
    let o = cli_as(home.path(), ws.path(), &["range", "notes.txt", "1", "1"]);
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("PUBLIC"));
}

/// The longest answer an error may be: a message and a short prefix of what it names.
const SHORT_ANSWER: usize = 16 * 1024;

#[test]
fn errors_quote_a_short_prefix_of_what_they_were_sent() {
    let ws = workspace();
    let home = empty_home();
    let mut s = start_as(home.path(), ws.path());
    let huge = "Q".repeat(1 << 20);
    let long = "Q".repeat(60_000);
    // A resource URI obeys the cap on a string argument, and its error does not quote it.
    let v = s.request("resources/read", json!({"uri": format!("java-type://{huge}")}));
    let answer = v.to_string();
    assert!(v["error"].is_object() && answer.len() < SHORT_ANSWER, "{} bytes: {}", answer.len(), &answer[..200]);
    for uri in [format!("java-type://{long}"), format!("file:///{long}"), format!("nope://{long}")] {
        let answer = s.request("resources/read", json!({ "uri": uri })).to_string();
        assert!(answer.contains("error") && answer.len() < SHORT_ANSWER, "{}", &answer[..200.min(answer.len())]);
        assert!(answer.contains("QQQ…") || answer.contains("characters"), "{}", &answer[..200.min(answer.len())]);
    }
    let answer = s
        .request(
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": long}, "argument": {"name": long, "value": "x"}}),
        )
        .to_string();
    assert!(answer.len() < SHORT_ANSWER, "completion: {}", &answer[..200]);
    // The first symbol lookup loads the JDK's API table, which in a debug build on a loaded
    // machine has taken more than the 30 s a call below may take: load it first.
    let (err, text, _) = s.call_within("show_definition", json!({"symbol": "Hello"}), Duration::from_secs(180));
    assert!(!err, "{text}");
    // Tools: every kind of value an error names (a path, a symbol, a target, a name, an unknown
    // argument), each well under the cap on one argument.
    for (tool, args) in [
        ("java_read_range", json!({"filePath": long, "startLine": 1, "endLine": 1})),
        ("java_read_range", json!({"filePath": "Hello.java", "symbol": long})),
        ("java_index", json!({"filePath": format!("{long}.java")})),
        ("show_definition", json!({"symbol": long})),
        ("find_references", json!({"target": long})),
        ("find_type", json!({"pattern": "Hello", "root": long})),
        ("java_find_symbol", json!({"query": "x", "rootDir": long})),
        ("get_problems", json!({"paths": [long]})),
        ("java_read_javadoc", json!({"filePath": "Hello.java", "symbolId": long})),
        ("find_type", json!({"pattern": "Hello", "kind": long})),
        ("find_type", json!({ "pattern": "Hello", long.as_str(): 1 })),
    ] {
        let (err, text, _) = s.call(tool, args.clone());
        assert!(err, "{tool} {}: {}", &args.to_string()[..100], &text[..200.min(text.len())]);
        assert!(text.len() < SHORT_ANSWER, "{tool} answered {} bytes: {}", text.len(), &text[..300]);
    }
    let id = s.next_id;
    s.next_id += 1;
    s.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": long, "arguments": {}}}));
    let answer = s.wait_for(id, Duration::from_secs(30)).to_string();
    assert!(answer.len() < SHORT_ANSWER, "unknown tool: {}", &answer[..300]);
    let answer = s.request("resources/list", json!({ "cursor": long })).to_string();
    assert!(answer.len() < SHORT_ANSWER, "cursor: {}", &answer[..300]);
}
