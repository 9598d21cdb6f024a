//! Leaf helpers the build modules share (a build file read as text, the jars of a directory,
//! the local Maven repository) and the context a resolution answers: kept apart so that
//! `classpath`, `gradle`, `pom` and `bounds` do not import each other in a circle.

use std::path::{Path, PathBuf};

use crate::Settings;

/// Source roots and classpath of one project, and how sure we are of them.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// The project (Maven module, Gradle project, or plain source root).
    pub dir: PathBuf,
    pub source_roots: Vec<PathBuf>,
    pub classpath: Vec<PathBuf>,
    /// False when dependencies may be missing from `classpath`.
    pub complete: bool,
    /// How the classpath was found, and what is missing, in words.
    pub notes: Vec<String>,
    /// Types the build generates that no source root holds until it runs (simple names).
    pub generated: Vec<String>,
}

/// A build or source file as text: a regular file within the default cap, never blocking.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = mji_fs::read_regular(path, mji_fs::DEFAULT_MAX_FILE_BYTES)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The `.jar` files directly in `dir`, sorted, appended to `out`.
pub fn jars_in(dir: &Path, out: &mut Vec<PathBuf>) {
    if let Ok(rd) = std::fs::read_dir(dir) {
        let mut jars: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("jar")))
            .collect();
        jars.sort();
        out.extend(jars);
    }
}

/// The local Maven repository: the configured one, else `~/.m2/repository`.
pub fn repo_local(settings: &Settings) -> PathBuf {
    settings
        .maven_repo_local
        .clone()
        .unwrap_or_else(|| std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default().join(".m2/repository"))
}
