//! The editor tools against a real Emacs (`emacs --daemon`, one per test binary's Emacs test,
//! killed at the end even when a step fails) and VS Code's backend and the command template
//! through a recording script standing in for `code` (VS Code cannot be installed here).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::editor::sexp::elisp_string;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::{dispatch, find};
use serde_json::{Value, json};

use crate::common;

/// An Emacs daemon on a socket in a temporary directory; dropping it kills it.
struct Daemon {
    _dir: tempfile::TempDir,
    socket: PathBuf,
}

impl Daemon {
    fn start() -> Daemon {
        let dir = tempfile::tempdir().expect("tempdir");
        let socket = dir.path().join("emacs.sock");
        // The timer ends a daemon a crashed test could not kill. Its output goes to a file:
        // with stderr on /dev/null, Emacs 28's daemon never reports that it started.
        let log = std::fs::File::create(dir.path().join("daemon.log")).expect("log");
        let status = Command::new("emacs")
            .args(["-Q", &format!("--daemon={}", socket.display()), "--eval", "(run-at-time 300 nil #'kill-emacs)"])
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .status()
            .expect("emacs is not installed: apt-get install emacs-nox (.ci/run does)");
        assert!(status.success(), "emacs --daemon failed: {status}");
        Daemon { _dir: dir, socket }
    }

    /// Evaluates `form` in the daemon; its printed value.
    fn eval(&self, form: &str) -> String {
        let out = Command::new("emacsclient")
            .arg("-s")
            .arg(&self.socket)
            .arg("--eval")
            .arg(form)
            .output()
            .expect("emacsclient");
        assert!(out.status.success(), "{form}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = Command::new("emacsclient")
            .arg("-s")
            .arg(&self.socket)
            .args(["--eval", "(kill-emacs)"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// A workspace under `root` whose user config (a temporary HOME) holds `config`.
fn workspace(root: &Path, home: &Path, config: &str) -> Host {
    let file = home.join(".config/mcp-java-index/config.toml");
    std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
    std::fs::write(&file, config).expect("config");
    let home_s = home.to_string_lossy().into_owned();
    let env = move |k: &str| (k == "HOME").then(|| home_s.clone());
    let flags = Flags::roots([root]).set("watch", false).set("cache", false);
    Host::open(Config::load(&flags, &env).expect("config")).expect("workspace")
}

/// Calls a tool as a client would; every answer is checked against the tool's outputSchema.
fn call(ws: &Host, tool: &str, args: Value) -> Result<Value, String> {
    let Value::Object(m) = args else { panic!("arguments must be an object") };
    let v = dispatch(ws, tool, m).map(|a| a.value)?;
    let schema = Value::Object(find(tool).expect("registered").spec.output_schema.clone());
    let validator = jsonschema::validator_for(&schema).expect("output schema compiles");
    let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{tool}'s answer does not match its outputSchema: {errors:?}\n{v}");
    Ok(v)
}

/// Rewrites `path` and moves its modification time on, so Emacs sees it changed on disk.
fn rewrite(path: &Path, text: &str) {
    std::fs::write(path, text).expect("write");
    let f = std::fs::File::options().write(true).open(path).expect("open");
    f.set_modified(std::time::SystemTime::now() + Duration::from_secs(5)).expect("mtime");
}

fn emacs_settings(d: &Daemon, extra: &str) -> String {
    format!("editor = \"emacs\"\nemacs_socket = {}\neditor_timeout_ms = 5000\n{extra}", toml_str(&d.socket))
}

fn toml_str(p: &Path) -> String {
    Value::String(p.to_string_lossy().into_owned()).to_string()
}

/// What the selected window shows: buffer, line, column.
fn selected(d: &Daemon) -> String {
    d.eval(
        "(with-current-buffer (window-buffer (selected-window)) \
         (save-excursion (goto-char (window-point)) (format \"%s|%d|%d\" (buffer-name) (line-number-at-pos) (current-column))))",
    )
}

/// Whether the buffer visiting `path` holds exactly the file's bytes.
fn buffer_equals_file(d: &Daemon, path: &Path) -> String {
    let f = elisp_string(&path.to_string_lossy());
    d.eval(&format!(
        "(let ((b (find-buffer-visiting {f}))) (and b (string= (with-current-buffer b (buffer-string)) \
         (with-temp-buffer (insert-file-contents {f}) (buffer-string)))))"
    ))
}

#[test]
fn emacs_end_to_end() {
    let d = Daemon::start();
    let root = tempfile::tempdir().expect("root");
    let home = tempfile::tempdir().expect("home");
    let src = root.path().join("src");
    std::fs::create_dir_all(&src).expect("mkdir");
    let a = src.join("A.java");
    let b = src.join("B.java");
    std::fs::write(&a, "package p;\n\nclass A {\n    int x;\n    void m() {}\n}\n").expect("write");
    std::fs::write(&b, "package p;\nclass B {\n}\n").expect("write");
    let canon = |p: &Path| std::fs::canonicalize(p).expect("canonical");
    let (a, b) = (canon(&a), canon(&b));
    let allow = r#"elisp_allowlist = ["progn", "let", "message", "princ", "make-directory", "format"]"#;
    let ws = workspace(root.path(), home.path(), &emacs_settings(&d, &format!("run_elisp = \"allowlist\"\n{allow}\n")));

    // goto_location: the buffer, line and column, as Emacs itself reports them.
    let r = call(&ws, "goto_location", json!({"file_path": "src/A.java", "line": 4, "column": 6, "highlight": true}))
        .expect("goto");
    assert_eq!(
        (r["success"].clone(), r["bufferName"].clone(), r["line"].clone()),
        (json!(true), json!("A.java"), json!(4))
    );
    assert_eq!(selected(&d), "\"A.java|4|6\"");
    // A column past the line's end stops at it; open_file without focus leaves the window.
    let r = call(&ws, "open_file", json!({"file_path": "src/B.java", "line": 2, "column": 99, "focus": false}))
        .expect("open");
    assert_eq!(
        (r["bufferName"].clone(), r["line"].clone(), r["column"].clone()),
        (json!("B.java"), json!(2), json!(9))
    );
    assert_eq!(selected(&d), "\"A.java|4|6\"");

    // An external edit, then reload_buffer: the buffer holds the file's text.
    rewrite(&a, "package p;\n\nclass A {\n    int changedOnDisk;\n}\n");
    assert_eq!(buffer_equals_file(&d, &a), "nil", "the buffer is stale before the reload");
    let r = call(&ws, "reload_buffer", json!({"file_path": "src/A.java"})).expect("reload");
    assert_eq!(r["reloaded"], json!(["src/A.java"]), "{r}");
    assert_eq!(buffer_equals_file(&d, &a), "t");

    // Unsaved changes are not clobbered: refused, then listed by the scan, then forced.
    let fa = elisp_string(&a.to_string_lossy());
    d.eval(&format!(
        "(with-current-buffer (find-buffer-visiting {fa}) (goto-char (point-max)) (insert \"// unsaved\"))"
    ));
    rewrite(&a, "package p;\nclass A { int again; }\n");
    rewrite(&b, "package p;\nclass B { int b; }\n");
    let e = call(&ws, "reload_buffer", json!({"file_path": "src/A.java"})).expect_err("modified buffer");
    assert!(e.contains("unsaved changes") && e.contains("force"), "{e}");
    let unsaved = format!(
        "(with-current-buffer (find-buffer-visiting {fa}) (and (string-match-p \"// unsaved\" (buffer-string)) t))"
    );
    assert_eq!(d.eval(&unsaved), "t");
    let r = call(&ws, "reload_buffer", json!({})).expect("scan");
    assert_eq!(r["reloaded"], json!(["src/B.java"]), "{r}");
    assert_eq!(r["skipped"][0]["file"], json!("src/A.java"), "{r}");
    assert!(r["skipped"][0]["reason"].as_str().is_some_and(|s| s.contains("unsaved")), "{r}");
    assert_eq!(buffer_equals_file(&d, &b), "t");
    let r = call(&ws, "reload_buffer", json!({"file_path": "src/A.java", "force": true})).expect("forced");
    assert_eq!(r["reloaded"], json!(["src/A.java"]));
    assert_eq!(buffer_equals_file(&d, &a), "t");

    // The API the edit tools call after applying an edit.
    rewrite(&b, "package p;\nclass B { int byAnEdit; }\n");
    let report = mcp_java_index::tools::editor::reload_files(&ws, std::slice::from_ref(&b))
        .expect("editor configured")
        .expect("reloaded");
    assert_eq!(report.files[0].status, "reloaded");
    assert_eq!(buffer_equals_file(&d, &b), "t");
    // Showing an unmodified, out-of-date buffer reverts it first (editor_auto_reload).
    rewrite(&b, "package p;\nclass B { int shownFresh; }\n");
    let r = call(&ws, "open_file", json!({"file_path": "src/B.java", "focus": false})).expect("open stale");
    assert_eq!(r["reloaded"], json!(true), "{r}");
    assert_eq!(buffer_equals_file(&d, &b), "t");
    // An edit tool's apply reloads the buffers it changed (issue 17 with issue 18).
    ws.build_index();
    let args = json!({"action": "rename", "target": "p.B#shownFresh", "newName": "renamedByTool"});
    let preview = call(&ws, "refactor_actions", args.clone()).expect("preview");
    let mut apply = args;
    apply["apply"] = json!(true);
    apply["editId"] = preview["editId"].clone();
    let done = call(&ws, "refactor_actions", apply).expect("apply");
    assert!(done["warnings"].to_string().contains("1 buffer(s) reloaded"), "{done}");
    assert!(std::fs::read_to_string(&b).expect("read").contains("renamedByTool"));
    assert_eq!(buffer_equals_file(&d, &b), "t");

    // Hostile file names stay names: the buffer visits exactly that file and no code ran.
    let pwned = root.path().join("pwned");
    let hostile = [
        "q\"uote.java".to_owned(),
        "back\\slash.java".to_owned(),
        "new\nline.java".to_owned(),
        format!("\")(shell-command \"touch {}\")(\".java", pwned.display()).replace('/', "_"),
        format!("x\\\")(make-directory \\\"{}\\\")(\".java", pwned.display()).replace('/', "_"),
    ];
    for name in &hostile {
        let f = root.path().join(name);
        std::fs::write(&f, "class H {}\n").expect("write hostile");
        let f = canon(&f);
        let want = elisp_string(&f.to_string_lossy());
        // The path policy reads a backslash as a Windows separator, so that name is reached
        // through the edit tools' API, which takes paths.
        if !name.contains('\\') {
            let r =
                call(&ws, "goto_location", json!({"file_path": f.to_string_lossy(), "line": 1})).expect("hostile name");
            assert_eq!(r["success"], json!(true), "{name:?}");
            assert_eq!(
                d.eval(&format!("(string= (buffer-file-name (window-buffer (selected-window))) {want})")),
                "t",
                "{name:?}"
            );
        } else {
            d.eval(&format!("(progn (find-file-noselect {want}) t)"));
        }
        rewrite(&f, "class H { int reloaded; }\n");
        let report = mcp_java_index::tools::editor::reload_files(&ws, std::slice::from_ref(&f))
            .expect("editor")
            .expect("reload");
        assert_eq!(
            (report.files[0].file.as_str(), report.files[0].status.as_str()),
            (f.to_str().expect("utf-8"), "reloaded")
        );
        assert_eq!(buffer_equals_file(&d, &f), "t", "{name:?}");
    }
    assert!(!pwned.exists(), "a file name ran code");

    // run_elisp, allowlist mode: allowed, refused (also when hidden), special bindings, output.
    let r = call(&ws, "run_elisp", json!({"code": "(format \"%s-%s\" 1 \"two\")"})).expect("allowed");
    assert_eq!(
        (r["success"].clone(), r["decidedBy"].clone(), r["result"].clone()),
        (json!(true), json!("allowlist"), json!("\"1-two\""))
    );
    let victim = root.path().join("victim.txt");
    std::fs::write(&victim, "keep").expect("write");
    let code =
        format!("(progn (message \"hi\") (let ((x 1)) (delete-file {})))", elisp_string(&victim.to_string_lossy()));
    let r = call(&ws, "run_elisp", json!({"code": code})).expect("refusal is an answer");
    assert_eq!(
        (r["success"].clone(), r["decidedBy"].clone(), r["decision"].clone()),
        (json!(false), json!("allowlist"), json!("refused"))
    );
    assert!(r["reason"].as_str().is_some_and(|s| s.contains("delete-file")), "{r}");
    assert!(victim.exists());
    let r = call(&ws, "run_elisp", json!({"code": "(let ((default-directory \"/\")) (message default-directory))"}))
        .expect("special binding");
    assert_eq!((r["ran"].clone(), r["decidedBy"].clone()), (json!(false), json!("allowlist")), "{r}");
    assert!(r["reason"].as_str().is_some_and(|s| s.contains("default-directory")), "{r}");
    let r = call(&ws, "run_elisp", json!({"code": "(progn (princ \"printed\") 7)", "capture_output": true}))
        .expect("output");
    assert_eq!((r["result"].clone(), r["output"].clone()), (json!("7"), json!("printed")), "{r}");
    // Dry run: said, not done.
    let made = root.path().join("made");
    let code = format!("(make-directory {})", elisp_string(&made.to_string_lossy()));
    let r = call(&ws, "run_elisp", json!({"code": code, "dry_run": true})).expect("dry run");
    assert_eq!(
        (r["ran"].clone(), r["decidedBy"].clone(), r["decision"].clone()),
        (json!(false), json!("dry_run"), json!("dry-run"))
    );
    assert_eq!(r["code"], json!(code));
    assert!(!made.exists(), "a dry run ran");
    call(&ws, "run_elisp", json!({"code": code})).expect("real run");
    assert!(made.is_dir());

    // Confirmation mode: answered yes and no through a y-or-n-p advice; no answer in time.
    let confirm =
        workspace(root.path(), home.path(), &emacs_settings(&d, "run_elisp = \"confirm\"\nelisp_confirm_ms = 700\n"));
    d.eval(
        "(progn (defvar mji-test-answer nil) (defvar mji-test-prompt nil) \
         (advice-add 'y-or-n-p :around (lambda (orig prompt) (setq mji-test-prompt prompt) \
           (cond ((eq mji-test-answer 'yes) t) ((eq mji-test-answer 'no) nil) (t (funcall orig prompt))))) t)",
    );
    for (answer, dir, ran, decision) in
        [("yes", "confirmed", true, "ran"), ("no", "denied", false, "no"), ("nil", "unanswered", false, "timeout")]
    {
        d.eval(&format!("(setq mji-test-answer '{answer})"));
        let target = root.path().join(dir);
        let code = format!("(make-directory {})", elisp_string(&target.to_string_lossy()));
        let r = call(&confirm, "run_elisp", json!({"code": code})).expect("decided");
        assert_eq!(
            (r["ran"].clone(), r["decidedBy"].clone(), r["decision"].clone()),
            (json!(ran), json!("confirmation"), json!(decision)),
            "{answer}: {r}"
        );
        assert_eq!(target.exists(), ran, "{answer}");
        assert!(d.eval("mji-test-prompt").contains("make-directory"), "the prompt shows the code");
    }
    let r = call(&confirm, "run_elisp", json!({"code": "(delete-file \"x\")", "dry_run": true})).expect("dry");
    assert_eq!((r["ran"].clone(), r["decidedBy"].clone()), (json!(false), json!("dry_run")));

    // open: true on get_problems shows the first problem.
    std::fs::write(src.join("Broken.java"), "package p;\nclass Broken {\n    int x = ;\n}\n").expect("write");
    let r = call(&ws, "get_problems", json!({"paths": ["src/Broken.java"], "source_filter": ["syntax"], "open": true}))
        .expect("problems");
    assert_eq!(r["opened"]["success"], json!(true), "{r}");
    assert!(selected(&d).starts_with("\"Broken.java|3|"), "{}", selected(&d));
    // After a character outside the BMP, javac's UTF-16 column is one more than Emacs' column.
    let line = "    String s = \"\u{1F600}\"; int x = ;";
    std::fs::write(src.join("Wide.java"), format!("package p;\nclass Wide {{\n{line}\n}}\n")).expect("write");
    let r = call(&ws, "get_problems", json!({"paths": ["src/Wide.java"], "source_filter": ["syntax"], "open": true}))
        .expect("problems");
    let utf16 = r["diagnostics"][0]["column"].as_u64().expect("column") as usize;
    let chars = line.chars().scan(0, |units, c| {
        *units += c.len_utf16();
        Some(*units)
    });
    let want = chars.take_while(|&units| units < utf16).count();
    assert_eq!(want + 2, utf16, "the problem is after the emoji: {r}");
    // Characters from the line's start (`current-column` would count the emoji's two display
    // columns).
    let offset = d.eval("(with-selected-window (selected-window) (- (window-point) (line-beginning-position)))");
    assert_eq!(offset, want.to_string(), "{r}");

    // open: true on show_definition shows the definition.
    ws.build_index();
    let r = call(&ws, "show_definition", json!({"symbol": "p.B", "open": true})).expect("definition");
    assert_eq!(r["opened"]["success"], json!(true), "{r}");
    assert_eq!(selected(&d), "\"B.java|2|0\"");

    // A busy Emacs costs a call its timeout, never a hang. The busy form writes a marker
    // first, so the call below is known to meet a busy Emacs.
    let marker = root.path().join("busy-now");
    let busy_form = format!(
        "(progn (write-region \"\" nil {}) (let ((end (+ (float-time) 3))) (while (< (float-time) end))))",
        elisp_string(&marker.to_string_lossy())
    );
    let busy = Command::new("emacsclient")
        .arg("-s")
        .arg(&d.socket)
        .args(["--eval", &busy_form])
        .stdout(Stdio::null())
        .spawn()
        .expect("busy");
    let waited = std::time::Instant::now();
    while !marker.exists() && waited.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(marker.exists(), "Emacs never started the busy form");
    let quick = workspace(
        root.path(),
        home.path(),
        &format!("editor = \"emacs\"\nemacs_socket = {}\neditor_timeout_ms = 400\n", toml_str(&d.socket)),
    );
    let t = std::time::Instant::now();
    let e = call(&quick, "goto_location", json!({"file_path": "src/A.java", "line": 1})).expect_err("busy");
    assert!(e.contains("did not answer within 400 ms"), "{e}");
    assert!(t.elapsed() < Duration::from_millis(2500), "{:?}", t.elapsed());
    let _ = busy.wait_with_output();
}

#[test]
fn no_emacs_running_is_a_clear_error() {
    let root = tempfile::tempdir().expect("root");
    let home = tempfile::tempdir().expect("home");
    std::fs::write(root.path().join("A.java"), "class A {}\n").expect("write");
    let gone = root.path().join("no-such-socket");
    let ws = workspace(root.path(), home.path(), &format!("editor = \"emacs\"\nemacs_socket = {}\n", toml_str(&gone)));
    let e = call(&ws, "goto_location", json!({"file_path": "A.java", "line": 1})).expect_err("no server");
    assert!(e.contains("no Emacs server answers") && e.contains("server-start"), "{e}");
    let a = std::fs::canonicalize(root.path().join("A.java")).expect("canonical");
    assert!(
        mcp_java_index::tools::editor::reload_files(&ws, std::slice::from_ref(&a)).is_none(),
        "Emacs configured, not running"
    );
    // A form longer than one argument may be is refused as such, not as "no Emacs".
    let ws = workspace(
        root.path(),
        home.path(),
        &format!("editor = \"emacs\"\nemacs_socket = {}\nrun_elisp = \"allowlist\"\n", toml_str(&gone)),
    );
    let long = format!("(message \"{}\")", "\u{e9}".repeat(40_000));
    let e = call(&ws, "run_elisp", json!({"code": long})).expect_err("too long");
    assert!(e.contains("shorten the code"), "{e}");
    let ws = workspace(root.path(), home.path(), "editor = \"none\"\n");
    let e = call(&ws, "open_file", json!({"file_path": "A.java"})).expect_err("none");
    assert!(e.contains("editor_command") && e.contains("server-start"), "{e}");
    // Paths still go through the path policy first.
    let e = call(&ws, "open_file", json!({"file_path": "/etc/passwd"})).expect_err("outside");
    assert!(e.contains("outside"), "{e}");
    assert!(
        mcp_java_index::tools::editor::reload_files(&ws, &[root.path().join("A.java")]).is_none(),
        "no editor: edits go on without one"
    );
    let off = workspace(root.path(), home.path(), "editor = \"emacs\"\neditor_auto_reload = false\n");
    assert!(
        mcp_java_index::tools::editor::reload_files(&off, &[root.path().join("A.java")]).is_none(),
        "auto reload off"
    );
}

/// VS Code's backend with a recording script named `code` first on PATH, and the command
/// template, both through the real binary.
#[test]
fn vscode_and_the_command_template_run_argv_without_a_shell() {
    let root = tempfile::tempdir().expect("root");
    let home = tempfile::tempdir().expect("home");
    let bin = tempfile::tempdir().expect("bin");
    let record = bin.path().join("record");
    let script = bin.path().join("code");
    common::write_executable(
        &script,
        &format!("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done >> '{}'\n", record.display()),
    );
    let name = "we\"ird $(touch pwned) {line}.java";
    std::fs::write(root.path().join(name), "class W {}\n").expect("write");
    let file = std::fs::canonicalize(root.path().join(name)).expect("canonical");
    let run = |config: &str, tool: &str, args: Value| {
        let cfg = home.path().join("mcp-java-index/config.toml");
        std::fs::create_dir_all(cfg.parent().expect("parent")).expect("mkdir");
        std::fs::write(&cfg, config).expect("config");
        let path = format!("{}:{}", bin.path().display(), std::env::var("PATH").unwrap_or_default());
        Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
            .args(["call", tool, &args.to_string(), "--json", "--no-cache", "--no-watch", "--root"])
            .arg(root.path())
            .env("XDG_CONFIG_HOME", home.path())
            .env("PATH", path)
            .output()
            .expect("run")
    };
    let recorded = || {
        let r = std::fs::read(&record).unwrap_or_default();
        let _ = std::fs::remove_file(&record);
        String::from_utf8_lossy(&r).split('\0').filter(|s| !s.is_empty()).map(str::to_owned).collect::<Vec<_>>()
    };
    let out = run("editor = \"vscode\"\n", "goto_location", json!({"file_path": name, "line": 3, "column": 4}));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(recorded(), ["--reuse-window", "--goto", &format!("{}:3:5", file.display())]);
    let out = run("editor = \"vscode\"\n", "reload_buffer", json!({"file_path": name}));
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v["note"].as_str().is_some_and(|n| n.contains("by itself")), "{v}");
    let out = run("editor = \"vscode\"\nrun_elisp = \"allowlist\"\n", "run_elisp", json!({"code": "(message \"x\")"}));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs Emacs"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(recorded().is_empty());
    let template =
        format!("editor_command = [{}, \"{{file}}:{{line}}:{{column}}\", \"--line={{line}}\"]\n", toml_str(&script));
    let out = run(&template, "open_file", json!({"file_path": name, "line": 2}));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(recorded(), [format!("{}:2:1", file.display()), "--line=2".to_owned()]);
    assert!(!root.path().join("pwned").exists() && !bin.path().join("pwned").exists());
}
