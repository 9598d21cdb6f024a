//! The one check on what the project model yields: every directory or file a build file can
//! name — source and test roots, modules, included builds, `files(…)` jars, the entries of a
//! resolved classpath (a `systemPath` jar among them) — lies inside a workspace root, judged on
//! its real path (a link is followed, then judged), or it is left out with a note saying what
//! and why. A path that does not exist is dropped without one. Only the user's own
//! configuration reaches outside: library jars under the user's Maven local repository or
//! Gradle user home stay, and the `classpath` key's entries are added by the compiler's
//! caller, after this check.
//!
//! Applied where the model's answers leave it ([`crate::project::project_for`],
//! [`crate::classpath::resolve`], [`crate::classpath::maven_stored`]), never per caller.

use std::path::{Component, Path, PathBuf};

use crate::Settings;

/// The workspace roots, and the user's library homes, as judged paths.
#[derive(Debug, Clone, Default)]
pub struct Bounds {
    /// The workspace roots, canonical (as given when they cannot be resolved).
    roots: Vec<PathBuf>,
    /// The user's Maven local repository and Gradle user home, as given and canonical: a
    /// classpath jar may lie under them (Debian's repository links into `/usr/share/java`, so
    /// the path as listed counts too: the user chose the directory).
    homes: Vec<PathBuf>,
}

/// What an entry is, for the check and the note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Sources javac reads (`-sourcepath`), or a module's directory: inside a root only.
    Sources,
    /// A classpath entry: inside a root, or a library under the user's homes.
    Classpath,
}

/// Which build-file statement named a path (a module's directory, a source directory), for
/// the notes: the path and the words (`pom.xml sourceDirectory`, `settings.gradle includeFlat
/// 'x'`). A path under a named one is named by it.
pub type Origins = [(PathBuf, String)];

fn canonical_or_given(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| mji_fs::lexical_normalize(p))
}

impl Bounds {
    /// The bounds of `roots`, with the user's library homes from `settings`.
    pub fn new(roots: &[PathBuf], settings: &Settings) -> Bounds {
        let mut homes: Vec<PathBuf> = Vec::new();
        for h in [Some(crate::files::repo_local(settings)), settings.gradle_user_home.clone()].into_iter().flatten() {
            if h.as_os_str().is_empty() {
                continue;
            }
            homes.push(mji_fs::lexical_normalize(&h));
            homes.push(canonical_or_given(&h));
        }
        Bounds { roots: roots.iter().map(|r| canonical_or_given(r)).collect(), homes }
    }

    /// The bounds of `roots` alone (sources: no library home counts).
    pub fn of_roots(roots: &[PathBuf]) -> Bounds {
        Bounds { roots: roots.iter().map(|r| canonical_or_given(r)).collect(), homes: Vec::new() }
    }

    /// Whether `p` exists (`None` when not) and may be used as `kind`.
    pub fn admits(&self, p: &Path, kind: Kind) -> Option<bool> {
        let real = std::fs::canonicalize(p).ok()?;
        if self.roots.iter().any(|r| real.starts_with(r)) {
            return Some(true);
        }
        let given = mji_fs::lexical_normalize(p);
        Some(kind == Kind::Classpath && self.homes.iter().any(|h| real.starts_with(h) || given.starts_with(h)))
    }

    /// Keeps the entries of `paths` that may be used as `kind`; each one left out for lying
    /// outside gets a note in `notes` (shown relative to `base`, named by `origins` when a
    /// build-file statement named it). Entries that do not exist go silently.
    pub fn retain(
        &self,
        paths: &mut Vec<PathBuf>,
        kind: Kind,
        base: &Path,
        origins: &Origins,
        notes: &mut Vec<String>,
    ) {
        paths.retain(|p| match self.admits(p, kind) {
            Some(true) => true,
            None => false,
            Some(false) => {
                notes.push(self.note(p, kind, base, origins));
                false
            }
        });
    }

    /// The note for `p`, left out.
    pub fn note(&self, p: &Path, kind: Kind, base: &Path, origins: &Origins) -> String {
        let at = mji_fs::lexical_normalize(p);
        let what = origins
            .iter()
            .filter(|(o, _)| at.starts_with(mji_fs::lexical_normalize(o)))
            .max_by_key(|(o, _)| o.components().count())
            .map(|(_, words)| words.clone())
            .unwrap_or_else(|| match kind {
                Kind::Sources => "a source directory of the build".to_owned(),
                Kind::Classpath => "a classpath entry of the build".to_owned(),
            });
        let whose = match kind {
            Kind::Sources => "the workspace roots",
            Kind::Classpath => "the workspace roots and the user's Maven and Gradle homes",
        };
        format!("left out `{}` ({what}): it is outside {whose}", relative(p, base))
    }
}

/// `p` relative to `base` (with `..` where it leaves it), `/`-separated; absolute when they
/// share nothing.
pub fn relative(p: &Path, base: &Path) -> String {
    let (p, base) = (mji_fs::lexical_normalize(p), mji_fs::lexical_normalize(base));
    let pc: Vec<Component> = p.components().collect();
    let bc: Vec<Component> = base.components().collect();
    let common = pc.iter().zip(&bc).take_while(|(a, b)| a == b).count();
    // Sharing only the filesystem root: the absolute path says more.
    if common <= 1 {
        return p.to_string_lossy().replace('\\', "/");
    }
    let mut parts: Vec<String> = std::iter::repeat_n("..".to_owned(), bc.len() - common).collect();
    parts.extend(pc[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    if parts.is_empty() { ".".to_owned() } else { parts.join("/") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_judged_by_where_they_really_are() {
        let t = tempfile::tempdir().expect("tmp");
        let (ws, secret, repo) = (t.path().join("ws"), t.path().join("secret"), t.path().join("m2"));
        for d in [&ws.join("src"), &secret, &repo.join("g/a/1")] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        std::fs::write(repo.join("g/a/1/a-1.jar"), "").expect("write");
        std::fs::write(secret.join("s.jar"), "").expect("write");
        let settings = Settings { maven_repo_local: Some(repo.clone()), ..Default::default() };
        let b = Bounds::new(std::slice::from_ref(&ws), &settings);
        assert_eq!(b.admits(&ws.join("src"), Kind::Sources), Some(true));
        assert_eq!(b.admits(&ws.join("src/../../secret"), Kind::Sources), Some(false));
        assert_eq!(b.admits(&ws.join("missing"), Kind::Sources), None);
        // A library of the user's repository is a classpath entry, never sources.
        assert_eq!(b.admits(&repo.join("g/a/1/a-1.jar"), Kind::Classpath), Some(true));
        assert_eq!(b.admits(&repo.join("g/a/1"), Kind::Sources), Some(false));
        // A link inside a root that leads outside is outside.
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&secret, ws.join("link")).expect("link");
            assert_eq!(b.admits(&ws.join("link"), Kind::Sources), Some(false));
            assert_eq!(b.admits(&ws.join("link/s.jar"), Kind::Classpath), Some(false));
        }
        let mut paths = vec![ws.join("src"), ws.join("../secret"), ws.join("gone")];
        let mut notes = Vec::new();
        let origins = [(ws.join("../secret"), "pom.xml sourceDirectory".to_owned())];
        b.retain(&mut paths, Kind::Sources, &ws, &origins, &mut notes);
        assert_eq!(paths, [ws.join("src")]);
        assert_eq!(notes, ["left out `../secret` (pom.xml sourceDirectory): it is outside the workspace roots"]);
    }

    #[test]
    fn relative_paths_climb_with_dots() {
        assert_eq!(relative(Path::new("/a/b/c"), Path::new("/a/b")), "c");
        assert_eq!(relative(Path::new("/a/x/../s"), Path::new("/a/b/c")), "../../s");
        assert_eq!(relative(Path::new("/a/b"), Path::new("/a/b")), ".");
        assert_eq!(relative(Path::new("/etc/passwd"), Path::new("/a/b")), "/etc/passwd");
    }
}
