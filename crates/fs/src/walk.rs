//! Walks directories for source files, `.gitignore`-aware, skipping build output and caches.
//!
//! A directory named `target`, `build` or `out` is build output only where a build tool puts
//! it: beside a `pom.xml`, a Gradle build file, an IntelliJ module (`.iml`) or an Ant
//! `build.xml`, or holding what builds leave (`classes`, `maven-status`, `tmp`, …). Inside a
//! source root's package tree (`src/main/java/org/example/build`) it is a package and walked.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Directory names never descended into: VCS data, dependency and tool caches.
pub(crate) const SKIPPED_DIRS: &[&str] =
    &[".git", ".hg", ".svn", ".idea", ".gradle", ".mvn", ".mcp-java-index-cache", "node_modules"];

/// Directory names that are build output when a build tool's files say so.
pub(crate) const BUILD_OUTPUT_NAMES: &[&str] = &["target", "build", "out"];

/// Whether a directory name is one the walk always skips (VCS data and caches; build output
/// depends on where the directory is, see [`skip_reason`]).
pub fn is_skipped_dir(name: &str) -> bool {
    SKIPPED_DIRS.contains(&name)
}

/// Why a directory named like build output was skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipReason {
    /// Beside a `pom.xml`.
    Maven,
    /// Beside a Gradle build or settings file.
    Gradle,
    /// Beside an IntelliJ module file (`.iml`), an `.idea` directory or an Ant `build.xml`.
    Ide,
    /// No build file beside it, but it holds what builds leave (`classes`, `maven-status`, …).
    Markers,
}

/// How many directories a walk skipped as build output, per reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SkippedDirs {
    pub maven: usize,
    pub gradle: usize,
    pub ide: usize,
    pub markers: usize,
}

impl SkippedDirs {
    pub fn total(&self) -> usize {
        self.maven + self.gradle + self.ide + self.markers
    }

    pub fn add(&mut self, other: &SkippedDirs) {
        self.maven += other.maven;
        self.gradle += other.gradle;
        self.ide += other.ide;
        self.markers += other.markers;
    }
}

/// Whether a directory is walked: None when it is, else why not. `dir` is the directory under
/// the walk's `root`, `name` its file name. VCS and cache directories ([`SKIPPED_DIRS`]) are
/// answered by [`is_skipped_dir`]; this judges `target`, `build` and `out`.
pub fn skip_reason(root: &Path, dir: &Path, name: &str) -> Option<SkipReason> {
    if !BUILD_OUTPUT_NAMES.contains(&name) || in_package_tree(root, dir) {
        return None;
    }
    let parent = dir.parent()?;
    let beside = |f: &str| parent.join(f).is_file();
    if beside("pom.xml") {
        return Some(SkipReason::Maven);
    }
    if name != "target"
        && ["build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"].iter().any(|f| beside(f))
    {
        return Some(SkipReason::Gradle);
    }
    if name != "target" && (beside("build.xml") || parent.join(".idea").is_dir() || has_iml(parent)) {
        return Some(SkipReason::Ide);
    }
    let markers: &[&str] = match name {
        "target" => {
            &["classes", "test-classes", "maven-status", "maven-archiver", "generated-sources", "surefire-reports"]
        }
        "build" => &["classes", "tmp", "libs", "intermediates", "test-results", "generated/sources"],
        _ => &["production", "artifacts"],
    };
    if markers.iter().any(|m| dir.join(m).is_dir()) && !holds_package(dir, name) {
        return Some(SkipReason::Markers);
    }
    None
}

/// Whether `dir` sits inside a source root's package tree: below `src/<set>/java` (or
/// kotlin, groovy, scala) anywhere in its path, or below a `src` directory of the walked
/// root with at least one level between (`src/org/example/build`, not `src/build`).
fn in_package_tree(root: &Path, dir: &Path) -> bool {
    let names = |p: &Path| -> Vec<String> {
        p.components().filter_map(|c| c.as_os_str().to_str()).map(str::to_owned).collect()
    };
    let all = names(dir);
    let Some((_, ancestors)) = all.split_last() else { return false };
    if ancestors.windows(3).any(|w| w[0] == "src" && matches!(w[2].as_str(), "java" | "kotlin" | "groovy" | "scala")) {
        return true;
    }
    let rel = names(dir.strip_prefix(root).unwrap_or(dir));
    let Some((_, rel_ancestors)) = rel.split_last() else { return false };
    rel_ancestors.iter().rev().skip(1).any(|c| c == "src")
}

fn has_iml(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|rd| {
        rd.take(1000).filter_map(Result::ok).any(|e| e.file_name().to_str().is_some_and(|n| n.ends_with(".iml")))
    })
}

/// Whether one of the first few `.java` files directly in `dir` declares a package ending
/// in `.name` (or named `name`): then `dir` is that package, whatever it holds.
fn holds_package(dir: &Path, name: &str) -> bool {
    let Ok(rd) = std::fs::read_dir(dir) else { return false };
    rd.filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x.eq_ignore_ascii_case("java")))
        .take(3)
        .any(|e| {
            let Ok(bytes) = std::fs::read(e.path()) else { return false };
            let text = String::from_utf8_lossy(&bytes[..bytes.len().min(16 * 1024)]);
            package_of(&text).is_some_and(|p| p == name || p.ends_with(&format!(".{name}")))
        })
}

/// The package a file's text declares, read crudely (comments before it skipped line-wise).
fn package_of(text: &str) -> Option<String> {
    let at = text.find("package ")?;
    let rest = &text[at + "package ".len()..];
    let end = rest.find(';')?;
    Some(rest[..end].chars().filter(|c| !c.is_whitespace()).collect())
}

/// The result of a walk: files found (sorted), entries that could not be read, and the
/// directories skipped as build output.
#[derive(Debug, Default)]
pub struct Walked {
    pub files: Vec<PathBuf>,
    /// Entries accepted by the filter that are neither regular files, directories nor links:
    /// FIFOs, sockets, devices. Never opened; the index counts them as skipped.
    pub special: Vec<PathBuf>,
    pub problems: Vec<String>,
    pub skipped: SkippedDirs,
}

/// Every `.java` file under `root` (or `root` itself when it is a file), in path order.
pub fn java_files(root: &Path) -> Walked {
    walk(root, |p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("java")))
}

/// Sorts paths in `Path`'s order (component by component), without its cost: on the JDK's
/// java.base the comparisons, each splitting both paths into components, took a fifth of the
/// walk. A path with no empty, `.` or trailing component compares by components as its bytes
/// do with each `/` made the lowest byte (a component that is a prefix of another sorts
/// first either way); others are sorted by `Path`'s own order.
pub fn sort_paths(paths: &mut [PathBuf]) {
    #[cfg(unix)]
    {
        let plain = |p: &PathBuf| {
            let b = p.as_os_str().as_encoded_bytes();
            !b.ends_with(b"/")
                && !b.ends_with(b"/.")
                && !b.windows(2).any(|w| w == b"//")
                && !b.windows(3).any(|w| w == b"/./")
        };
        if paths.iter().all(plain) {
            paths.sort_by_cached_key(|p| {
                p.as_os_str().as_encoded_bytes().iter().map(|&b| if b == b'/' { 0 } else { b }).collect::<Vec<u8>>()
            });
            return;
        }
    }
    paths.sort();
}

/// What a walk looked at besides the files it kept ([`walk_looking`]): every directory it
/// listed, in the walk's order (the root first), and every directory named like build output
/// whose fate [`skip_reason`] decided, with the decision. A kept listing
/// (`crate::listing`) is trusted only while these say the same.
#[derive(Debug, Default)]
pub(crate) struct Looked {
    pub dirs: Vec<PathBuf>,
    pub judged: Judged,
}

/// The directories named like build output a walk judged, with the judgement.
type Judged = Vec<(PathBuf, Option<SkipReason>)>;

/// Every file under `root` accepted by `keep`, in path order.
pub fn walk(root: &Path, keep: impl Fn(&Path) -> bool) -> Walked {
    walk_looking(root, keep, None)
}

/// [`walk`], telling `looked` (when given) the directories it listed and judged.
pub(crate) fn walk_looking(root: &Path, keep: impl Fn(&Path) -> bool, mut looked: Option<&mut Looked>) -> Walked {
    let mut out = Walked::default();
    if root.is_file() {
        out.files.push(root.to_path_buf());
        return out;
    }
    let counts: Arc<[AtomicUsize; 4]> = Arc::new(Default::default());
    let seen = counts.clone();
    let judged: Arc<std::sync::Mutex<Judged>> = Arc::default();
    let judging = looked.is_some().then(|| judged.clone());
    if let Some(l) = looked.as_deref_mut() {
        l.dirs.push(root.to_path_buf());
    }
    let root_path = root.to_path_buf();
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .parents(true)
        .git_ignore(true)
        .git_exclude(true)
        .require_git(false)
        .filter_entry(move |e| {
            if e.depth() == 0 || !e.file_type().is_some_and(|t| t.is_dir()) {
                return true;
            }
            let Some(name) = e.file_name().to_str() else { return true };
            if is_skipped_dir(name) {
                return false;
            }
            let reason = skip_reason(&root_path, e.path(), name);
            if let Some(j) = &judging
                && BUILD_OUTPUT_NAMES.contains(&name)
            {
                j.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((e.path().to_path_buf(), reason));
            }
            match reason {
                Some(r) => {
                    seen[r as usize].fetch_add(1, Ordering::Relaxed);
                    false
                }
                None => true,
            }
        })
        .build();
    for entry in walker {
        match entry {
            Ok(e) if e.file_type().is_some_and(|t| t.is_file()) && keep(e.path()) => out.files.push(e.into_path()),
            Ok(e)
                if e.file_type().is_some_and(|t| !t.is_file() && !t.is_dir() && !t.is_symlink()) && keep(e.path()) =>
            {
                out.special.push(e.into_path())
            }
            Ok(e) if e.depth() > 0 && e.file_type().is_some_and(|t| t.is_dir()) => {
                if let Some(l) = looked.as_deref_mut() {
                    l.dirs.push(e.into_path());
                }
            }
            Ok(_) => {}
            Err(err) => out.problems.push(err.to_string()),
        }
    }
    if let Some(l) = looked {
        l.judged = std::mem::take(&mut *judged.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    }
    sort_paths(&mut out.files);
    out.special.sort();
    let n = |r: SkipReason| counts[r as usize].load(Ordering::Relaxed);
    out.skipped = SkippedDirs {
        maven: n(SkipReason::Maven),
        gradle: n(SkipReason::Gradle),
        ide: n(SkipReason::Ide),
        markers: n(SkipReason::Markers),
    };
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast sort gives `Path`'s order: a component that is a prefix of another, names
    /// around `/` in byte order (`-`, `.` below it; `0`, `A`, `_`, `a` above), non-ASCII names,
    /// and paths that are not plain.
    #[test]
    fn paths_sort_in_paths_order() {
        let names =
            ["a", "a.b", "a-b", "a0", "aA", "a_", "ab", "é", "a/b", "a/b/c", "a.b/c", "a-b/c", "a/b.c", "a/bc", "b"];
        for root in ["/w", "/w/x", "w"] {
            let mut fast: Vec<PathBuf> = names.iter().rev().map(|n| Path::new(root).join(n)).collect();
            let mut want = fast.clone();
            want.sort();
            sort_paths(&mut fast);
            assert_eq!(fast, want, "{root}");
        }
        let mut odd = vec![PathBuf::from("/w/a//b"), PathBuf::from("/w/a.b"), PathBuf::from("/w/a/c")];
        let mut want = odd.clone();
        want.sort();
        sort_paths(&mut odd);
        assert_eq!(odd, want);
    }

    #[test]
    fn package_tree_is_recognised() {
        let root = Path::new("/home/u/src/p");
        assert!(in_package_tree(root, Path::new("/home/u/src/p/src/main/java/org/example/target")));
        assert!(in_package_tree(root, Path::new("/home/u/src/p/src/org/example/build")));
        assert!(!in_package_tree(root, Path::new("/home/u/src/p/target")));
        assert!(!in_package_tree(root, Path::new("/home/u/src/p/m/target")));
        assert!(!in_package_tree(root, Path::new("/home/u/src/p/src/build")));
        assert_eq!(package_of("// x\npackage org.example .build ;\nclass A {}"), Some("org.example.build".into()));
    }
}
