//! A package rename's files that are not its Java sources: resources and other files under the
//! package's directories in every source and resource root of the module, moved with it, and
//! the old directories removed once the move emptied them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::{EditError, FileEdit, Plan, WorkspaceEdit};

/// A file larger than this stays where it is (a move carries the file's bytes in the edit).
const MAX_MOVED_BYTES: u64 = 16 << 20;

/// What [`move_package_files`] added to an edit, and what it left.
#[derive(Debug, Default)]
pub struct PackageFiles {
    /// Files added to the edit as moves.
    pub moved: usize,
    /// Files left in place, and why.
    pub warnings: Vec<String>,
    /// Moves that would overwrite a file.
    pub conflicts: Vec<String>,
}

/// Every `src/*/java` and `src/*/resources` directory of the modules whose Maven/Gradle-shaped
/// source roots (`<module>/src/<set>/java`) are among `bases`.
pub fn module_source_dirs(bases: &BTreeSet<PathBuf>) -> BTreeSet<PathBuf> {
    let mut dirs = BTreeSet::new();
    for base in bases {
        let src = base.parent().filter(|_| base.file_name().is_some_and(|n| n == "java")).and_then(Path::parent);
        let Some(src) = src.filter(|s| s.file_name().is_some_and(|n| n == "src")) else { continue };
        for set in std::fs::read_dir(src).into_iter().flatten().flatten() {
            for kind in ["java", "resources"] {
                let d = set.path().join(kind);
                if d.is_dir() {
                    dirs.insert(d);
                }
            }
        }
    }
    dirs
}

/// Adds to `edit` a move of every regular file under package `old`'s directory of each root
/// (every level below with `subpackages`) to the same place under `new`'s, except files the
/// edit already holds (the package's sources), Java files (not in the package they sit in)
/// and files over 16 MiB. `display` names files for the answer.
pub fn move_package_files(
    edit: &mut WorkspaceEdit,
    roots: &BTreeSet<PathBuf>,
    old: &str,
    new: &str,
    subpackages: bool,
    display: &dyn Fn(&Path) -> String,
) -> Result<PackageFiles, EditError> {
    let old_dir = old.replace('.', "/");
    let new_dir = new.replace('.', "/");
    let mut out = PackageFiles::default();
    for root in roots {
        let from = root.join(&old_dir);
        let mut stack = vec![from.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for e in entries.flatten() {
                let path = e.path();
                let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
                if meta.is_dir() {
                    if subpackages {
                        stack.push(path);
                    }
                    continue;
                }
                if !meta.is_file() || edit.contains(&path) {
                    continue;
                }
                let shown = display(&path);
                if path.extension().is_some_and(|x| x == "java") {
                    out.warnings.push(format!("{shown} is not in the package it sits in; it stays"));
                    continue;
                }
                if meta.len() > MAX_MOVED_BYTES {
                    out.warnings.push(format!("{shown} is larger than 16 MiB; it stays"));
                    continue;
                }
                let Ok(rel) = path.strip_prefix(&from) else { continue };
                let to = root.join(&new_dir).join(rel);
                if to.exists() {
                    out.conflicts.push(format!("{} already exists", display(&to)));
                    continue;
                }
                let original = std::fs::read(&path).map_err(|e| EditError::Read(shown.clone(), e))?;
                let to_display = display(&to);
                edit.add(FileEdit {
                    path,
                    display: shown,
                    original,
                    edits: Vec::new(),
                    move_to: Some((to, to_display)),
                });
                out.moved += 1;
            }
        }
    }
    Ok(out)
}

impl Plan {
    /// After [`Plan::apply`]: the directories the plan's moves left empty are removed, each
    /// moved file's directory and its parents up to (not including) a root, stopping at the
    /// first that is not empty.
    pub fn remove_emptied_dirs(&self, roots: &[PathBuf]) {
        for f in self.files.iter().filter(|f| f.move_to.is_some()) {
            let mut dir = f.path.parent();
            while let Some(d) = dir {
                if roots.iter().any(|r| r == d) || std::fs::remove_dir(d).is_err() {
                    break;
                }
                dir = d.parent();
            }
        }
    }
}
