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

/// Files that name the renamed packages outside Java code: what a rename changes exactly, and
/// what it lists as found and not changed.
#[derive(Debug, Default)]
pub struct NamedElsewhere {
    /// `module-info.java` and `META-INF/services` files changed (or moved).
    pub changed: usize,
    /// `path:line` of other files that name a renamed package, not changed.
    pub not_changed: Vec<String>,
}

/// The most non-Java files searched for a package's name, and their largest size.
const MAX_SEARCHED_FILES: usize = 500;
const MAX_SEARCHED_BYTES: u64 = 1 << 20;

/// The extensions of the files a package's name is searched in and listed (ProGuard/R8 rules,
/// Spring XML, properties, YAML…), not changed.
const NAMING_FILES: &[&str] = &["xml", "properties", "pro", "txt", "yml", "yaml", "json", "cfg", "conf"];

/// What `name` (a package, or a type in one) becomes under `renames` (old package → new):
/// the package itself, or a type directly in it.
fn renamed_name(name: &str, renames: &[(String, String)]) -> Option<String> {
    renames.iter().find_map(|(old, new)| {
        if name == old {
            return Some(new.clone());
        }
        let rest = name.strip_prefix(old.as_str())?.strip_prefix('.')?;
        // A type of the package (`old.T`, `old.T.Inner`), not a subpackage (`old.sub.T`).
        rest.starts_with(|c: char| c.is_uppercase()).then(|| format!("{new}.{rest}"))
    })
}

/// Rewrites the names of the renamed packages (`renames`: old → new) in each module's
/// `module-info.java` (`exports`, `opens`, `uses`, `provides … with`) and `META-INF/services`
/// files (a file named after a moved service type moves; a line naming a moved implementation
/// changes), and lists the other files of the modules that name a renamed package.
pub fn named_elsewhere(
    ctx: &dyn Ctx,
    edit: &mut WorkspaceEdit,
    bases: &BTreeSet<PathBuf>,
    renames: &[(String, String)],
) -> Result<NamedElsewhere, EditError> {
    let mut out = NamedElsewhere::default();
    let dirs = module_source_dirs(bases);
    let java_roots: BTreeSet<&PathBuf> = bases.iter().chain(dirs.iter().filter(|d| d.ends_with("java"))).collect();
    for root in java_roots {
        let path = root.join("module-info.java");
        if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let doc = ctx.read(&path)?;
        let edits = module_info_edits(&doc, renames);
        if !edits.is_empty() {
            let mut f = doc.edit();
            f.edits = edits;
            edit.add(f);
            out.changed += 1;
        }
    }
    for res in dirs.iter().filter(|d| d.ends_with("resources")) {
        let services = res.join("META-INF/services");
        let Ok(rd) = std::fs::read_dir(&services) else { continue };
        let mut files: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
        files.sort();
        for p in files {
            if !std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_file()) || edit.contains(&p) {
                continue;
            }
            let doc = ctx.read(&p)?;
            let mut f = doc.edit();
            let mut at = 0;
            for line in doc.text().split_inclusive('\n') {
                let code = line.split('#').next().unwrap_or("");
                let name = code.trim();
                if let Some(to) = renamed_name(name, renames) {
                    let start = at + code.find(name).unwrap_or(0);
                    f.edits.push(crate::TextEdit { start, end: start + name.len(), text: to });
                }
                at += line.len();
            }
            let file_name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if let Some(to) = renamed_name(file_name, renames) {
                let dest = services.join(&to);
                if dest.exists() {
                    return Err(EditError::Exists(ctx.display(&dest)));
                }
                let shown = ctx.display(&dest);
                f.move_to = Some((dest, shown));
            }
            if !f.edits.is_empty() || f.move_to.is_some() {
                edit.add(f);
                out.changed += 1;
            }
        }
    }
    // Other files naming a package: listed, never changed (a name in them may mean anything).
    let mut searched = 0;
    let mut stack: Vec<PathBuf> = dirs.iter().filter(|d| d.ends_with("resources")).cloned().collect();
    // The modules' own directories' files (ProGuard/R8 rules sit there), not their subtrees.
    let modules: BTreeSet<PathBuf> =
        bases.iter().filter_map(|b| b.parent()?.parent()?.parent().map(Path::to_path_buf)).collect();
    let mut candidates: Vec<PathBuf> = Vec::new();
    for m in &modules {
        let Ok(rd) = std::fs::read_dir(m) else { continue };
        candidates.extend(rd.flatten().map(|e| e.path()));
    }
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            match std::fs::symlink_metadata(&p) {
                Ok(m) if m.is_dir() && !p.ends_with("META-INF/services") => stack.push(p),
                _ => candidates.push(p),
            }
        }
    }
    candidates.sort();
    for p in candidates {
        if searched >= MAX_SEARCHED_FILES {
            break;
        }
        let Ok(meta) = std::fs::symlink_metadata(&p) else { continue };
        if !meta.is_file() || meta.len() > MAX_SEARCHED_BYTES || edit.contains(&p) {
            continue;
        }
        if !p.extension().and_then(|x| x.to_str()).is_some_and(|x| NAMING_FILES.contains(&x)) {
            continue;
        }
        searched += 1;
        let Ok(bytes) = mji_fs::read_regular(&p, MAX_SEARCHED_BYTES) else { continue };
        let text = String::from_utf8_lossy(&bytes);
        for (i, line) in text.lines().enumerate() {
            let names = renames.iter().any(|(old, _)| {
                line.match_indices(old.as_str()).any(|(at, _)| {
                    let before = line[..at].chars().last();
                    let after = line[at + old.len()..].chars().next();
                    before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.'))
                        && after.is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
                })
            });
            if names {
                out.not_changed.push(format!("{}:{}", ctx.display(&p), i + 1));
            }
        }
    }
    Ok(out)
}

/// The edits renaming the packages of `renames` in a `module-info.java`: `exports`/`opens`'
/// package, `uses`' type, `provides`' service and providers (never the module names of
/// `exports … to`).
fn module_info_edits(doc: &crate::Doc, renames: &[(String, String)]) -> Vec<crate::TextEdit> {
    use mji_parser::kind;
    let mut out = Vec::new();
    let Some(tree) = mji_parser::parse_tree(doc.text()) else { return out };
    let src = doc.text().as_bytes();
    let mut stack = vec![(tree.root_node(), 0u32)];
    while let Some((n, depth)) = stack.pop() {
        let fields: &[&str] = match n.kind() {
            kind::EXPORTS_MODULE_DIRECTIVE | kind::OPENS_MODULE_DIRECTIVE => &["package"],
            kind::USES_MODULE_DIRECTIVE => &["type"],
            kind::PROVIDES_MODULE_DIRECTIVE => &["provided", "provider"],
            _ => {
                if depth < 8 {
                    let mut c = n.walk();
                    stack.extend(n.named_children(&mut c).map(|k| (k, depth + 1)));
                }
                continue;
            }
        };
        // `provides S with A, B`: only the first provider carries the field; every name is one.
        let names: Vec<tree_sitter::Node> = if n.kind() == kind::PROVIDES_MODULE_DIRECTIVE {
            let mut c = n.walk();
            n.named_children(&mut c)
                .filter(|k| matches!(k.kind(), kind::IDENTIFIER | kind::SCOPED_IDENTIFIER))
                .collect()
        } else {
            let mut c = n.walk();
            fields.iter().flat_map(|f| n.children_by_field_name(f, &mut c).collect::<Vec<_>>()).collect()
        };
        {
            for name in names {
                let written = name.utf8_text(src).unwrap_or("");
                let compact: String = written.chars().filter(|c| !c.is_whitespace()).collect();
                if let Some(to) = renamed_name(&compact, renames) {
                    out.push(crate::TextEdit { start: name.start_byte(), end: name.end_byte(), text: to });
                }
            }
        }
    }
    out.sort_by_key(|e| e.start);
    out
}
