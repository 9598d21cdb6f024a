//! Architecture invariants that the compiler does not check.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("reading src") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Architecture invariant: the core (model, parser, index, cache, problems) is synchronous and
/// knows nothing of the protocol, the async runtime, the command line or the terminal.
#[test]
fn the_core_has_no_shell_dependencies() {
    let mut files = Vec::new();
    for core in ["model", "parser", "index", "cache", "problems", "xref"] {
        let dir = src().join(core);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        }
    }
    assert!(files.len() >= 8, "core modules not found: {files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).expect("reading source");
        for banned in [
            "tokio",
            "rmcp",
            "clap",
            "axum",
            "println!",
            "eprintln!",
            "print!(",
            "crate::tools",
            "crate::cli",
            "crate::mcp_server",
        ] {
            assert!(!text.contains(banned), "{} uses `{banned}`", f.display());
        }
    }
}

/// Every source file says what it owns in its first line.
#[test]
fn every_source_file_starts_with_a_module_doc() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    for f in files {
        let text = std::fs::read_to_string(&f).expect("reading source");
        assert!(text.starts_with("//! "), "{} does not start with a `//!` line", f.display());
    }
}

/// The javac helper ships inside the binary: the problems engine embeds its source, and the
/// engine talks to it only through std::process (no async runtime in the core).
#[test]
fn the_javac_helper_is_embedded() {
    let javac = std::fs::read_to_string(src().join("problems/javac.rs")).expect("reading javac.rs");
    assert!(javac.contains("include_str!(\"JavacHelper.java\")"));
    assert!(src().join("problems/JavacHelper.java").is_file());
}
