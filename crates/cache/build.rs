//! The model fingerprint (`codec::model_fingerprint`): a hash of every source that shapes a
//! cached outline (the parser's and the model's crates, the cache's encoding, and the
//! dependency lock, which pins the tree-sitter grammar), made once at build time. It used to be
//! a hash of the parser's outline of a canary file, computed by every process that opened a
//! cache: a millisecond and a half of each command's start (issue 38). A hash of the sources
//! changes whenever that output could: more often (a comment), never less.

use std::path::{Path, PathBuf};

/// At most this many directory levels are walked under an input.
const MAX_DEPTH: usize = 8;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let crates = manifest.parent().expect("crates/cache is inside crates/");
    let workspace = crates.parent().expect("crates/ is inside the workspace");
    let inputs = [
        crates.join("parser/src"),
        crates.join("parser/Cargo.toml"),
        crates.join("model/src"),
        crates.join("model/Cargo.toml"),
        manifest.join("src/codec.rs"),
        workspace.join("Cargo.lock"),
    ];
    let mut files = Vec::new();
    for input in &inputs {
        println!("cargo:rerun-if-changed={}", input.display());
        collect(input, 0, &mut files);
    }
    files.sort();
    // FNV-1a, 64 bits, over each file's path (relative to the workspace) and contents.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for f in &files {
        let rel = f.strip_prefix(workspace).unwrap_or(f);
        feed(rel.to_string_lossy().replace('\\', "/").as_bytes());
        feed(&[0]);
        let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("reading {}: {e}", f.display()));
        feed(&(bytes.len() as u64).to_le_bytes());
        feed(&bytes);
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("fingerprint.rs");
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    let text = format!(
        "/// The crate version and the hash of the sources that shape a cached outline (build.rs).\nconst MODEL_FINGERPRINT: &str = \"{version}-{h:016x}\";\n"
    );
    std::fs::write(&out, text).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
}

/// The files at or under `p` (a missing input adds none: the lock file of a packaged crate).
fn collect(p: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if p.is_file() {
        out.push(p.to_path_buf());
    } else if p.is_dir() && depth < MAX_DEPTH {
        let Ok(entries) = std::fs::read_dir(p) else { return };
        for e in entries.flatten() {
            collect(&e.path(), depth + 1, out);
        }
    }
}
