//! The fuzz targets' inputs replayed under the stable toolchain: every committed seed
//! (`fuzz/seeds/<target>/`) and every input that once crashed a target
//! (`fuzz/regressions/<target>/`) goes through the same function the target calls
//! (`fuzz/harness.rs`), which panics when an invariant breaks.

#[allow(clippy::unwrap_used, clippy::expect_used)]
#[path = "../../../fuzz/harness.rs"]
mod harness;

use std::path::{Path, PathBuf};

/// The committed inputs of one target, seeds and regressions. The parse target's seeds are
/// the outline fixtures themselves (`tests/fixtures/*.java`), not copies of them.
fn inputs(target: &str) -> Vec<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let seeds = if target == "parse" { repo.join("tests/fixtures") } else { repo.join("fuzz/seeds").join(target) };
    let mut out = Vec::new();
    for dir in [seeds, repo.join("fuzz/regressions").join(target)] {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        out.extend(entries.map(|e| e.expect("entry").path()).filter(|p| p.is_file()));
    }
    out.sort();
    out
}

fn replay(target: &str, run: impl Fn(&[u8])) -> usize {
    let files = inputs(target);
    assert!(files.len() >= 3, "{target}: expected the committed seeds, found {files:?}");
    for f in &files {
        let data = std::fs::read(f).expect("read");
        eprintln!("{target}: {}", f.display());
        run(&data);
    }
    files.len()
}

#[test]
fn parse_inputs() {
    replay("parse", harness::parse);
}

#[test]
fn classfile_inputs() {
    replay("classfile", harness::classfile);
}

#[test]
fn path_policy_inputs() {
    replay("path_policy", |data| {
        harness::path_policy(data);
    });
}

#[test]
fn repo_config_inputs() {
    replay("repo_config", harness::repo_config);
}

#[test]
fn settings_merge_inputs() {
    replay("settings_merge", harness::settings_merge);
}

#[test]
fn jsonrpc_inputs() {
    replay("jsonrpc", |data| {
        harness::jsonrpc(data);
    });
}

/// The JSON-RPC harness really reaches the tools: a seed's calls are answered with results,
/// not only with errors (a harness that never got past the handshake would pass everything).
#[test]
fn the_jsonrpc_harness_reaches_the_tools() {
    let seed = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/jsonrpc/seed-outline.jsonl");
    let lines = harness::jsonrpc(&std::fs::read(seed).expect("seed"));
    let answers: Vec<serde_json::Value> = lines.iter().map(|l| serde_json::from_str(l).expect("json")).collect();
    let outline = answers.iter().find(|a| a["id"] == 1).expect("an answer to the java_index call");
    assert_eq!(outline["result"]["isError"], false, "{outline}");
    assert_eq!(outline["result"]["structuredContent"]["classes"][0]["name"], "A", "{outline}");
    assert_eq!(answers.iter().filter(|a| a.get("id").is_some()).count(), 4, "{lines:#?}");
}

/// The path harness sees links out of the roots (planted in its tree) refused, and a path
/// inside accepted, so its invariant is checked on both sides.
#[test]
fn the_path_harness_tree_has_both_sides() {
    let inside = harness::path_policy(b"p/./q/../In.java").expect("a link to a file inside is accepted");
    assert!(inside.ends_with("root/p/A.java"), "{inside:?}");
    assert_eq!(harness::path_policy(b"p/Out.java"), None, "a link out of the root is refused");
    assert_eq!(harness::path_policy(b"out/S.java"), None, "a directory link out of the root is refused");
}
