//! Architecture invariants. The layering itself is the compiler's: each layer is a crate, so
//! an upward `use` does not compile. These tests pin the crate graph to the documented one,
//! keep the shells' crates (async runtime, protocol, command line) out of the core, and keep
//! the print lints on every crate below the shells.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The allowed edges between the project's crates: each crate and the crates it may use.
/// ARCHITECTURE.md draws the same graph; a new edge is a design decision made here first.
const ALLOWED: &[(&str, &[&str])] = &[
    ("mji-fs", &[]),
    ("mji-model", &[]),
    ("mji-config", &["mji-fs"]),
    ("mji-parser", &["mji-model"]),
    ("mji-cache", &["mji-fs", "mji-model", "mji-parser"]),
    ("mji-index", &["mji-fs", "mji-model", "mji-parser", "mji-cache"]),
    ("mji-xref", &["mji-fs", "mji-model", "mji-parser"]),
    ("mji-problems", &["mji-fs", "mji-model", "mji-parser", "mji-index", "mji-config", "mji-build"]),
    ("mji-edit", &["mji-fs", "mji-model", "mji-parser", "mji-xref"]),
    (
        "mji-tools",
        &[
            "mji-fs",
            "mji-model",
            "mji-parser",
            "mji-cache",
            "mji-config",
            "mji-index",
            "mji-xref",
            "mji-problems",
            "mji-edit",
            "mji-editor",
            "mji-build",
            "mji-classfile",
        ],
    ),
    ("mji-server", &["mji-model", "mji-cache", "mji-config", "mji-tools"]),
    (
        "mcp-java-index",
        &[
            "mji-fs",
            "mji-model",
            "mji-parser",
            "mji-cache",
            "mji-config",
            "mji-index",
            "mji-xref",
            "mji-problems",
            "mji-tools",
            "mji-server",
            "mji-edit",
            "mji-editor",
            "mji-build",
            "mji-classfile",
        ],
    ),
    ("mji-editor", &["mji-config"]),
    ("mji-build", &["mji-fs", "mji-model", "mji-parser", "mji-index", "mji-config"]),
    ("mji-classfile", &["mji-fs", "mji-model"]),
];

/// Crates that only the shells may depend on.
const SHELL_ONLY: &[&str] = &["tokio", "rmcp", "clap", "axum", "tracing-subscriber", "anyhow"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Each workspace crate and its normal (non-dev) dependencies, from `cargo metadata`.
fn crate_graph() -> BTreeMap<String, BTreeSet<String>> {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(root())
        .output()
        .expect("running cargo metadata");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata JSON");
    let mut graph = BTreeMap::new();
    for p in meta["packages"].as_array().expect("packages") {
        let name = p["name"].as_str().expect("name").to_owned();
        let deps = p["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            .filter(|d| d["kind"].is_null())
            .map(|d| d["name"].as_str().expect("dependency name").to_owned())
            .collect();
        graph.insert(name, deps);
    }
    graph
}

#[test]
fn the_crate_graph_is_the_documented_one() {
    let graph = crate_graph();
    let ours: BTreeSet<&str> = ALLOWED.iter().map(|(n, _)| *n).collect();
    let found: BTreeSet<&str> = graph.keys().map(String::as_str).collect();
    assert_eq!(found, ours, "the workspace's crates differ from the documented layers");
    for (name, allowed) in ALLOWED {
        let internal: BTreeSet<&str> = graph[*name].iter().map(String::as_str).filter(|d| ours.contains(d)).collect();
        let allowed: BTreeSet<&str> = allowed.iter().copied().collect();
        let extra: Vec<_> = internal.difference(&allowed).collect();
        assert!(extra.is_empty(), "{name} depends on {extra:?}, an edge not in the documented graph");
    }
}

/// Architecture invariant: below the shells nothing knows the async runtime, the protocol or
/// the command line.
#[test]
fn the_core_has_no_shell_dependencies() {
    let graph = crate_graph();
    for (name, deps) in &graph {
        if name == "mji-server" || name == "mcp-java-index" {
            continue;
        }
        for banned in SHELL_ONLY {
            assert!(!deps.contains(*banned), "{name} depends on {banned}, which only the shells may use");
        }
    }
    // The tools layer does not know MCP: only the server speaks it.
    assert!(!graph["mji-tools"].contains("rmcp"));
}

/// Architecture invariant: nothing below the shells writes to stdout or stderr. Every crate
/// under `crates/` takes the workspace lints, which deny `print_stdout` and `print_stderr`
/// (clippy runs with `-D warnings` in CI), and no crate root allows them back.
#[test]
fn the_crates_below_the_shells_cannot_print() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("reading Cargo.toml");
    let lints = manifest.split("[workspace.lints.clippy]").nth(1).expect("workspace clippy lints");
    let lints = lints.split("\n[").next().unwrap_or_default();
    assert!(lints.contains("print_stdout = \"deny\"") && lints.contains("print_stderr = \"deny\""), "{lints}");
    let mut crates = 0;
    for e in std::fs::read_dir(root().join("crates")).expect("reading crates/") {
        let dir = e.expect("entry").path();
        let toml = std::fs::read_to_string(dir.join("Cargo.toml")).expect("crate manifest");
        assert!(toml.contains("[lints]\nworkspace = true"), "{} does not take the workspace lints", dir.display());
        let mut files = Vec::new();
        rust_files(&dir.join("src"), &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).expect("reading source");
            assert!(!text.contains("allow(clippy::print_std"), "{} allows printing", f.display());
        }
        crates += 1;
    }
    assert!(crates >= 10, "expected the layer crates under crates/, found {crates}");
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("reading a source directory") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every source file says what it owns in its first line.
#[test]
fn every_source_file_starts_with_a_module_doc() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    for e in std::fs::read_dir(root().join("crates")).expect("reading crates/") {
        rust_files(&e.expect("entry").path().join("src"), &mut files);
    }
    assert!(files.len() > 40, "sources not found: {}", files.len());
    for f in files {
        let text = std::fs::read_to_string(&f).expect("reading source");
        assert!(text.starts_with("//! "), "{} does not start with a `//!` line", f.display());
    }
}

/// Adding a tool is one file in `tool/` and one line in `tool/mod.rs`'s `tools!` list (which
/// declares the module and registers it): every file there is a registered tool named as the
/// file, and every registered tool has its file. A file left out of the list is not compiled,
/// so it shows here as a file with no registered tool.
#[test]
fn every_tool_is_one_file_in_the_registry() {
    let dir = root().join("crates/tools/src/tool");
    let mut files: BTreeSet<String> = BTreeSet::new();
    for e in std::fs::read_dir(&dir).expect("reading tool/") {
        let name = e.expect("entry").file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".rs").filter(|s| *s != "mod") {
            files.insert(stem.to_owned());
        }
    }
    let registered: BTreeSet<String> =
        mcp_java_index::tools::registry::registry().iter().map(|e| e.spec.name.to_owned()).collect();
    assert_eq!(files, registered, "tool files and registered tools differ");
}

/// The javac helper ships inside the binary: the problems engine embeds its source, and the
/// engine talks to it only through std::process (no async runtime in the core).
#[test]
fn the_javac_helper_is_embedded() {
    let dir = root().join("crates/problems/src");
    let javac = std::fs::read_to_string(dir.join("javac.rs")).expect("reading javac.rs");
    assert!(javac.contains("include_str!(\"JavacHelper.java\")"));
    assert!(dir.join("JavacHelper.java").is_file());
}
