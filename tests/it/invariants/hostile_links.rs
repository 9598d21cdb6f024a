//! Every writer walked through a tree of hostile links (issue 50): a repository that commits
//! links where our files go — the client configurations `setup` writes, the SCIP export and
//! the temporary names the writers used to take, the cache directory, the doctor's probe —
//! changes nothing outside it, and reads none of the user's files into the project. What each
//! writer must do instead: refuse, saying the path is a link, or write inside.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::os::unix::fs::{FileTypeExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_java_index::tools::registry::dispatch;
use serde_json::json;

use crate::common;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-java-index");

/// Every file and link under `dir` (links not followed), with its bytes or where it points,
/// and its mode.
fn tree(dir: &Path) -> BTreeMap<PathBuf, (String, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            let m = std::fs::symlink_metadata(&p).expect("lstat");
            let what = if m.file_type().is_symlink() {
                format!("-> {}", std::fs::read_link(&p).expect("readlink").display())
            } else if m.is_dir() {
                stack.push(p.clone());
                "dir".to_owned()
            } else {
                String::from_utf8_lossy(&std::fs::read(&p).expect("read")).into_owned()
            };
            out.insert(p.strip_prefix(dir).expect("below").to_path_buf(), (what, m.permissions().mode() & 0o777));
        }
    }
    out
}

/// The user's files a repository aims at: a shell profile, Claude Code's user file with its key
/// (owner-only), global client configurations, a place for a cache.
fn outside() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let o = tempfile::tempdir().expect("tempdir");
    common::write(o.path(), "bashrc", "# mine\n");
    common::write(o.path(), "claude.json", "{\"primaryApiKey\": \"sk-secret\", \"mcpServers\": {}}\n");
    std::fs::set_permissions(o.path().join("claude.json"), std::fs::Permissions::from_mode(0o600)).expect("chmod");
    common::write(o.path(), "cursor/mcp.json", "{\"mcpServers\": {}}\n");
    common::write(o.path(), "codex/config.toml", "# the user's codex\n");
    std::fs::set_permissions(o.path().join("codex/config.toml"), std::fs::Permissions::from_mode(0o600))
        .expect("chmod");
    common::write(o.path(), "gemini/settings.json", "{}\n");
    std::fs::create_dir(o.path().join("cache")).expect("mkdir");
    o
}

/// A repository whose links aim every writer outside.
fn hostile(out: &Path) -> tempfile::TempDir {
    let ws = tempfile::tempdir().expect("tempdir");
    common::write(ws.path(), "src/p/Hello.java", "package p;\npublic class Hello { void greet() {} }\n");
    let link = |target: &str, at: &str| {
        let at = ws.path().join(at);
        std::fs::create_dir_all(at.parent().expect("parent")).expect("mkdir");
        symlink(out.join(target), at).expect("symlink");
    };
    link("claude.json", ".mcp.json");
    link("cursor", ".cursor");
    link("codex", ".codex");
    link("bashrc", ".vscode");
    link("gemini/settings.json", ".gemini/settings.json");
    // The temporary names the writers took before: the pid's range is the attacker's guess.
    link("bashrc", "index.scip.tmp");
    link("bashrc", ".index.scip.tmp");
    for pid in 1..400 {
        link("bashrc", &format!(".gemini/.settings.json.{pid}.tmp"));
    }
    link("bashrc", "out.scip");
    link("cache", ".mcp-java-index-cache");
    ws
}

fn cli(home: &Path, cwd: &Path, args: &[&str]) -> (bool, String) {
    let o = Command::new(BIN)
        .args(args)
        .current_dir(cwd)
        .env("HOME", home)
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env_remove("MCP_JAVA_INDEX_CACHE_DIR")
        .env_remove("CODEX_HOME")
        .output()
        .expect("run the CLI");
    (o.status.success(), String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout))
}

/// `export_scip` through the registry, as a client calls it.
fn export(host: &mcp_java_index::tools::host::Host, args: serde_json::Value) -> Result<serde_json::Value, String> {
    let serde_json::Value::Object(args) = args else { panic!("arguments must be an object") };
    dispatch(host, "export_scip", args).map(|a| a.value).map_err(|e| e.to_string())
}

#[test]
fn every_writer_refuses_the_repository_s_links_and_nothing_outside_changes() {
    let out = outside();
    let before = tree(out.path());
    let ws = hostile(out.path());
    let root = std::fs::canonicalize(ws.path()).expect("canon");
    let home = tempfile::tempdir().expect("home");
    let r = root.to_string_lossy().into_owned();

    // setup: every client's project file lies behind a link; each refuses and says why.
    for client in ["claude-code", "cursor", "codex", "vscode", "gemini"] {
        let (ok, said) = cli(home.path(), &root, &["setup", client, "--project", &r]);
        assert!(!ok, "setup {client} wrote through a link: {said}");
        assert!(said.contains("symbolic link"), "setup {client}: {said}");
    }
    assert!(!root.join(".mcp.json").is_file() || root.join(".mcp.json").is_symlink());

    // The SCIP export: the CLI into the project (the old temporary names planted), then onto a
    // committed link, then the tool with its default arguments.
    let (ok, said) = cli(home.path(), &root, &["export", "scip", "--output", "index.scip", "."]);
    assert!(ok, "{said}");
    let written = std::fs::symlink_metadata(root.join("index.scip")).expect("index.scip written");
    assert!(written.is_file() && written.len() > 0);
    let (ok, said) = cli(home.path(), &root, &["export", "scip", "--output", "out.scip", "."]);
    assert!(!ok && said.contains("symbolic link"), "{said}");
    std::fs::remove_file(root.join("index.scip")).expect("rm");
    let host = common::open(&root, false);
    host.build_index();
    let got = export(&host, json!({})).expect("export_scip with its defaults");
    assert!(got["bytes"].as_u64().unwrap_or(0) > 0, "{got}");
    assert!(std::fs::symlink_metadata(root.join("index.scip")).expect("written").is_file());
    let e = export(&host, json!({"filePath": "out.scip"})).expect_err("a committed link is not written through");
    assert!(e.contains("symbolic link"), "{e}");
    drop(host);

    // The caches (the index, the outline cache, the reference store) and the doctor's probe.
    let (ok, said) = cli(home.path(), &root, &["index", "."]);
    assert!(ok, "{said}");
    let (_, _) = cli(home.path(), &root, &["doctor"]);

    assert_eq!(tree(out.path()), before, "a file outside the workspace changed");
}

/// `setup` and `doctor` read the clients' files with a bound and only regular files: a FIFO
/// committed where a client's file goes (an archive can hold one) once hung them, and
/// `/dev/zero` behind the user's `~/.claude.json` grew their memory at a gigabyte a second.
#[test]
fn setup_and_doctor_read_client_files_with_a_bound_and_never_hang() {
    let ws = tempfile::tempdir().expect("tempdir");
    common::write(ws.path(), "src/p/Hello.java", "package p;\npublic class Hello {}\n");
    let root = std::fs::canonicalize(ws.path()).expect("canon");
    std::fs::create_dir(root.join(".vscode")).expect("mkdir");
    let fifo = root.join(".vscode/mcp.json");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    common::write(&root, ".gemini/settings.json", &format!("{{\"x\": \"{}\"}}", "a".repeat(17 << 20)));
    let home = tempfile::tempdir().expect("home");
    symlink("/dev/zero", home.path().join(".claude.json")).expect("symlink");
    let r = root.to_string_lossy().into_owned();
    let within = |args: &[&str]| -> (bool, String) {
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(&root)
            .env("HOME", home.path())
            .env("XDG_CACHE_HOME", home.path().join(".cache"))
            .env("XDG_CONFIG_HOME", home.path().join(".config"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn");
        let start = std::time::Instant::now();
        while child.try_wait().expect("wait").is_none() {
            if start.elapsed() > std::time::Duration::from_secs(120) {
                let _ = child.kill();
                panic!("{args:?} hangs");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let o = child.wait_with_output().expect("output");
        (o.status.success(), String::from_utf8_lossy(&o.stderr).into_owned())
    };
    let (ok, said) = within(&["setup", "vscode", "--project", &r]);
    assert!(!ok && said.contains("not a regular file"), "{said}");
    let (ok, said) = within(&["setup", "gemini", "--project", &r]);
    assert!(!ok && said.contains("cap"), "{said}");
    within(&["doctor"]);
    assert!(std::fs::symlink_metadata(&fifo).expect("fifo").file_type().is_fifo(), "the FIFO stays");
}
