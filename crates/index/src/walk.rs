//! Walks directories for source files, `.gitignore`-aware, skipping build output and caches.

use std::path::{Path, PathBuf};

/// Directory names never descended into: VCS data, build output, dependency and tool caches.
pub const SKIPPED_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".idea",
    ".gradle",
    ".mvn",
    ".mcp-java-index-cache",
    "node_modules",
    "target",
    "build",
    "out",
];

/// Whether a directory name is one the walk skips.
pub fn is_skipped_dir(name: &str) -> bool {
    SKIPPED_DIRS.contains(&name)
}

/// The result of a walk: files found (sorted) and entries that could not be read.
#[derive(Debug, Default)]
pub struct Walked {
    pub files: Vec<PathBuf>,
    pub problems: Vec<String>,
}

/// Every `.java` file under `root` (or `root` itself when it is a file), in path order.
pub fn java_files(root: &Path) -> Walked {
    walk(root, |p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("java")))
}

/// Every file under `root` accepted by `keep`, in path order.
pub fn walk(root: &Path, keep: impl Fn(&Path) -> bool) -> Walked {
    let mut out = Walked::default();
    if root.is_file() {
        out.files.push(root.to_path_buf());
        return out;
    }
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .parents(true)
        .git_ignore(true)
        .git_exclude(true)
        .require_git(false)
        .filter_entry(|e| {
            !(e.depth() > 0
                && e.file_type().is_some_and(|t| t.is_dir())
                && e.file_name().to_str().is_some_and(is_skipped_dir))
        })
        .build();
    for entry in walker {
        match entry {
            Ok(e) if e.file_type().is_some_and(|t| t.is_file()) && keep(e.path()) => out.files.push(e.into_path()),
            Ok(_) => {}
            Err(err) => out.problems.push(err.to_string()),
        }
    }
    out.files.sort();
    out
}
