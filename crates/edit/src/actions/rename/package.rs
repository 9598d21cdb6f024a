//! A package rename: its Java files moved and every reference to its types rewritten
//! ([`rename_package`]), and its files that are not Java sources — resources and other files
//! under the package's directories in every source and resource root of the module — moved with
//! it, the old directories removed once the move emptied them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mji_xref::bind::DepthCut;
use mji_xref::world::World;

use crate::ctx::Ctx;
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

/// What a package rename plans over its packages: the edit, what it found in the way, and the
/// source roots the packages' files were found under (where their other files move from).
#[derive(Debug, Default)]
pub struct PackageMove {
    pub edit: WorkspaceEdit,
    pub conflicts: Vec<String>,
    pub warnings: Vec<String>,
    /// Java files moved.
    pub moved: usize,
    /// Qualified names and imports rewritten.
    pub references: usize,
    /// Files that could not be bound fully (references there may be missed).
    pub unbound: Vec<(Arc<Path>, DepthCut)>,
    /// The source roots the package's files were found under.
    pub bases: BTreeSet<PathBuf>,
    /// The packages renamed (`old`, and with `subpackages` each one under it).
    pub packages: Vec<String>,
}

/// Plans renaming (moving) package `old` to `new` as an IDE does: its files' package
/// declarations, every qualified reference to its types (searched in `scope`) and `import
/// old.*`; its Java files into the new package's directory under the same source root. With
/// `subpackages`, each package under `old` the same way. Its other files are
/// [`move_package_files`]'s.
pub fn rename_package(
    ctx: &dyn Ctx,
    w: &World,
    scope: &[Arc<Path>],
    old: &str,
    new: &str,
    subpackages: bool,
) -> Result<PackageMove, EditError> {
    let mut packages: Vec<String> = w
        .files
        .iter()
        .map(|f| f.decls().package.to_string())
        .filter(|p| p == old || (subpackages && p.starts_with(&format!("{old}."))))
        .collect();
    packages.sort();
    packages.dedup();
    let mut acc = PackageMove::default();
    for p in &packages {
        let to = format!("{new}{}", &p[old.len()..]);
        move_package(ctx, w, scope, p, &to, &mut acc)?;
    }
    acc.packages = packages;
    Ok(acc)
}

/// One package's part of a package rename: its Java files and the references to its types.
fn move_package(
    ctx: &dyn Ctx,
    w: &World,
    scope: &[Arc<Path>],
    old: &str,
    new: &str,
    acc: &mut PackageMove,
) -> Result<(), EditError> {
    let mut types = Vec::new();
    let old_dir = old.replace('.', "/");
    let new_dir = new.replace('.', "/");
    for f in w.files.iter().filter(|f| &*f.decls().package == old) {
        let display = ctx.display(&f.path);
        let doc = crate::Doc::read(&f.path, &display)?;
        let mut fe = doc.edit();
        for (s, e) in crate::actions::rename::syntax::package_name_ranges(&doc, old) {
            fe.edits.push(crate::TextEdit { start: s, end: e, text: new.to_owned() });
        }
        let dir = f.path.parent().unwrap_or(Path::new("/"));
        match dir.to_str().and_then(|d| d.strip_suffix(&old_dir)).filter(|b| b.ends_with('/')) {
            Some(base) => {
                let to = Path::new(base).join(&new_dir).join(f.path.file_name().unwrap_or_default());
                if to.exists() {
                    acc.conflicts.push(format!("{} already exists", ctx.display(&to)));
                }
                let to_display = match display.rsplit_once('/') {
                    Some((d, name)) => format!("{}{new_dir}/{name}", d.strip_suffix(&old_dir).unwrap_or("")),
                    None => format!("{new_dir}/{display}"),
                };
                fe.move_to = Some((to, to_display));
                acc.moved += 1;
                acc.bases.insert(PathBuf::from(base));
            }
            None => acc.warnings.push(format!("{display} is not in a directory named like its package; it stays")),
        }
        acc.edit.add(fe);
        for t in f.decls().types.iter().filter(|t| t.outer.is_none()) {
            let simple = &t.simple;
            if w.by_fqn(&format!("{new}.{simple}")).is_some() {
                acc.conflicts.push(format!("package {new} already has a type {simple}"));
            }
            types.push(t.fqn.to_string());
        }
    }
    // Qualified references to the package's types: `old.T` becomes `new.T`.
    let qualifier = format!("{old}.");
    for fqn in &types {
        let Ok(t) = mji_xref::target::resolve_target(w, fqn) else { continue };
        let found = ctx.references(w, scope, &t);
        acc.unbound.extend(found.unbound);
        for (p, refs) in found.hits {
            let doc = ctx.read(&p)?;
            let mut fe = doc.edit();
            for (r, _) in refs {
                let Some(at) = doc.offset(r.line, r.column) else { continue };
                let before = &doc.text()[..at];
                if before.ends_with(&qualifier) {
                    let start = at - qualifier.len();
                    // Not the tail of a longer name (`x.old.T`).
                    if before[..start].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$' || c == '.') {
                        continue;
                    }
                    fe.edits.push(crate::TextEdit { start, end: at - 1, text: new.to_owned() });
                    acc.references += 1;
                }
            }
            acc.edit.add(fe);
        }
    }
    // `import old.*;` in the other files.
    for f in w.files.iter().filter(|f| &*f.decls().package != old) {
        if !f.decls().imports.iter().any(|i| i.on_demand && &*i.path == old) {
            continue;
        }
        let doc = ctx.read(&f.path)?;
        let mut fe = doc.edit();
        for (s, e) in crate::actions::rename::syntax::package_name_ranges(&doc, old) {
            fe.edits.push(crate::TextEdit { start: s, end: e, text: new.to_owned() });
            acc.references += 1;
        }
        acc.edit.add(fe);
    }
    Ok(())
}

/// Every `src/*/java` and `src/*/resources` directory of the modules whose Maven/Gradle-shaped
/// source roots (`<module>/src/<set>/java`) are among `bases`; a directory that is a link is
/// not one (it may lead out of the workspace).
pub fn module_source_dirs(bases: &BTreeSet<PathBuf>) -> BTreeSet<PathBuf> {
    let mut dirs = BTreeSet::new();
    for base in bases {
        let src = base.parent().filter(|_| base.file_name().is_some_and(|n| n == "java")).and_then(Path::parent);
        let Some(src) = src.filter(|s| s.file_name().is_some_and(|n| n == "src")) else { continue };
        for set in std::fs::read_dir(src).into_iter().flatten().flatten() {
            for kind in ["java", "resources"] {
                let d = set.path().join(kind);
                if std::fs::symlink_metadata(&d).is_ok_and(|m| m.is_dir()) {
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
    ctx: &dyn Ctx,
) -> Result<PackageFiles, EditError> {
    let old_dir = old.replace('.', "/");
    let new_dir = new.replace('.', "/");
    let mut out = PackageFiles::default();
    for root in roots {
        let from = root.join(&old_dir);
        // Only a package directory that is where its root says: a link on the way (the package
        // directory or one above it, the root itself) may lead out of the workspace, and its
        // files are not the package's to move.
        let real = |p: &Path| std::fs::canonicalize(p).ok();
        if real(root).as_deref() != Some(root.as_path()) || real(&from) != Some(root.join(&old_dir)) {
            continue;
        }
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
                let shown = ctx.display(&path);
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
                    out.conflicts.push(format!("{} already exists", ctx.display(&to)));
                    continue;
                }
                let original = std::fs::read(&path).map_err(|e| EditError::Read(shown.clone(), e))?;
                let to_display = ctx.display(&to);
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A resource directory committed as a link out of the workspace is neither a source
    /// directory of the module nor a place whose files a package rename lists.
    #[test]
    fn linked_resource_directories_are_not_the_package_s() {
        let ws = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(ws.path()).expect("canon");
        let java = root.join("m/src/main/java");
        std::fs::create_dir_all(java.join("p")).expect("mkdir");
        std::fs::create_dir_all(outside.path().join("res/p")).expect("mkdir");
        std::fs::write(outside.path().join("res/p/secret.properties"), "k=v").expect("write");
        std::os::unix::fs::symlink(outside.path().join("res"), root.join("m/src/main/resources")).expect("link");
        std::fs::create_dir_all(root.join("m/src/test/resources")).expect("mkdir");
        std::os::unix::fs::symlink(outside.path().join("res/p"), root.join("m/src/test/resources/p")).expect("link");
        let dirs = module_source_dirs(&BTreeSet::from([java.clone()]));
        assert_eq!(dirs, BTreeSet::from([java.clone(), root.join("m/src/test/resources")]));
        let mut edit = WorkspaceEdit::default();
        let mut all = dirs.clone();
        all.insert(root.join("m/src/main/resources"));
        let ctx = crate::tests::TestCtx::new(&[]);
        let got = move_package_files(&mut edit, &all, "p", "q", true, &ctx).expect("moves");
        assert_eq!((got.moved, edit.contains(&outside.path().join("res/p/secret.properties"))), (0, false));
    }
}
