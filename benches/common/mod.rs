//! What the bench binaries share: where the JDK sources are, and `ctags -R` as the baseline.
// Each bench is a crate of its own that uses some of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The JDK source tree: `$JDK_SRC_DIR`, else `target/jdk-src` (which `.ci/run` unpacks).
pub fn jdk_dir() -> PathBuf {
    std::env::var_os("JDK_SRC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/jdk-src"))
}

/// The JDK source tree if it is there; else None, after saying so on stderr.
pub fn jdk_sources() -> Option<PathBuf> {
    let jdk = jdk_dir();
    if jdk.join("java.base").is_dir() {
        return Some(jdk);
    }
    eprintln!("no JDK sources at {} (set JDK_SRC_DIR or run .ci/run)", jdk.display());
    None
}

/// `ctags -R` over the Java files of `dir`, writing the tags file `tags` (as ctags is used):
/// its wall time, or None when ctags failed or is not installed.
pub fn ctags_tags(dir: &Path, tags: &Path) -> Option<f64> {
    let t = std::time::Instant::now();
    let ok = std::process::Command::new("ctags")
        .args(["-R", "--languages=Java", "-f"])
        .arg(tags)
        .arg(dir)
        .status()
        .is_ok_and(|s| s.success());
    ok.then(|| t.elapsed().as_secs_f64())
}
