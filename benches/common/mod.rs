//! What the bench binaries share: where the JDK sources are.

use std::path::PathBuf;

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
