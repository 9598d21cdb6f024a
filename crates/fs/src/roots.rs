//! Workspace roots and the path policy: every path a client gives resolves inside a root, or
//! is refused. A relative path resolves against every root (and, with several roots, a first
//! component naming a root against that root): found under exactly one it is that file, under
//! several it is refused as ambiguous with the candidates named. `..` and symlinks may not
//! escape; Windows-style paths are understood where they can be and refused clearly otherwise.

use std::path::{Path, PathBuf};

use crate::secrets::{ReadPolicy, Refusal};
use crate::{clip, lexical_normalize};

/// Why a path was refused. Every message quotes at most a short prefix of the path it was
/// given ([`clip`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error("filePath is empty; give a path relative to the workspace root ({roots}) or an absolute path inside it")]
    Empty { roots: String },
    #[error("{} is outside the workspace roots ({roots}); only files under a root can be read", clip(.given))]
    Outside { given: String, roots: String },
    #[error("file not found: {} (looked in {roots})", clip(.given))]
    NotFound { given: String, roots: String },
    #[error("{}: {}", clip(.given), clip(.reason))]
    Unsupported { given: String, reason: String },
    #[error("workspace root {root}: {reason}")]
    BadRoot { root: String, reason: String },
    #[error(
        "{} is ambiguous: it names {found}; give the absolute path, or prefix the relative one with its root's name",
        clip(.given)
    )]
    Ambiguous { given: String, found: String },
    #[error("no workspace root is named {}; the roots are {roots}", clip(.given))]
    NoSuchRoot { given: String, roots: String },
    /// A secret inside a root (see [`crate::secrets`]).
    #[error("{} {refusal}", clip(.given))]
    Secret { given: String, refusal: Refusal },
}

/// Why a file under the roots could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Path(PathError),
    #[error("reading {0}: {1}")]
    Io(String, #[source] std::io::Error),
}

/// A path resolved inside a root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// Canonical absolute path.
    pub path: PathBuf,
    /// Index of the root it is under.
    pub root: usize,
    /// How results name it: relative to its root (with `/`) when the workspace has one root,
    /// absolute otherwise.
    pub display: String,
}

/// The canonical workspace roots, the cap on the bytes read from one file under them, and
/// which files under them are never served ([`ReadPolicy`]).
#[derive(Debug, Clone)]
pub struct Roots {
    roots: Vec<PathBuf>,
    max_file_bytes: u64,
    policy: std::sync::Arc<ReadPolicy>,
    /// Which files with several hard links have all their names inside the roots.
    #[cfg(unix)]
    census: std::sync::Arc<crate::hardlinks::Census>,
}

/// `path` below `root` as [`Path::strip_prefix`] gives it, found by comparing bytes (a walk's
/// paths are its root's joined with names): None where the bytes do not say it plainly (the
/// root is not a byte prefix followed by a separator, or the rest has an empty, `.` or `..`
/// component), which [`Path::strip_prefix`] then answers. Comparing components took a tenth of
/// a warm one-shot `refs` on the JDK's walk thread.
#[cfg(unix)]
fn plain_rest<'a>(path: &'a Path, root: &Path) -> Option<&'a Path> {
    use std::os::unix::ffi::OsStrExt;
    let (p, r) = (path.as_os_str().as_bytes(), root.as_os_str().as_bytes());
    let rest = p.strip_prefix(r)?;
    let rest = match r.last() {
        Some(b'/') => rest,
        Some(_) => rest.strip_prefix(b"/")?,
        None => return None,
    };
    if rest.is_empty() || rest.split(|b| *b == b'/').any(|c| c.is_empty() || c == b"." || c == b"..") {
        return None;
    }
    Some(Path::new(std::ffi::OsStr::from_bytes(rest)))
}

#[cfg(not(unix))]
fn plain_rest<'a>(_: &'a Path, _: &Path) -> Option<&'a Path> {
    None
}

impl Roots {
    /// Canonicalizes the roots; each must be an existing directory.
    pub fn new(roots: impl IntoIterator<Item = PathBuf>) -> Result<Roots, PathError> {
        let mut out: Vec<PathBuf> = Vec::new();
        for r in roots {
            let shown = r.display().to_string();
            let canon = std::fs::canonicalize(&r)
                .map_err(|e| PathError::BadRoot { root: shown.clone(), reason: e.to_string() })?;
            if !canon.is_dir() {
                return Err(PathError::BadRoot { root: shown, reason: "is not a directory".to_owned() });
            }
            if !out.contains(&canon) {
                out.push(canon);
            }
        }
        if out.is_empty() {
            return Err(PathError::BadRoot { root: String::new(), reason: "no workspace root given".to_owned() });
        }
        Ok(Roots {
            roots: out,
            max_file_bytes: crate::DEFAULT_MAX_FILE_BYTES,
            policy: std::sync::Arc::new(ReadPolicy::default()),
            #[cfg(unix)]
            census: Default::default(),
        })
    }

    /// The same roots with another cap on the bytes read from one file (`max_file_bytes`).
    pub fn with_max_file_bytes(mut self, cap: u64) -> Roots {
        self.max_file_bytes = cap;
        self
    }

    /// The cap on the bytes read from one file.
    pub fn max_file_bytes(&self) -> u64 {
        self.max_file_bytes
    }

    /// The same roots with another policy on which files are never served.
    pub fn with_read_policy(mut self, policy: ReadPolicy) -> Roots {
        self.policy = std::sync::Arc::new(policy);
        self
    }

    /// Why a path under the roots is not served (a secret: see [`crate::secrets`]), judged on
    /// its path relative to the root holding it; `None` when it may be read, listed and
    /// searched, or lies under no root.
    pub fn refusal(&self, path: &Path) -> Option<Refusal> {
        self.refusal_in(path, self.root_of(path)?)
    }

    /// [`Roots::refusal`] of a path known to belong to root `root` ([`Roots::root_of`]); a
    /// path not under that root is judged as [`Roots::refusal`] judges it.
    pub fn refusal_in(&self, path: &Path, root: usize) -> Option<Refusal> {
        let root = self.roots.get(root);
        match root.and_then(|r| plain_rest(path, r)).or_else(|| root.and_then(|r| path.strip_prefix(r).ok())) {
            Some(rel) => self.policy.refusal(rel),
            None => self.refusal(path),
        }
    }

    /// [`Roots::refusal`] as the path error that names `given`.
    fn refuse_secret(&self, path: &Path, given: &str) -> Result<(), PathError> {
        match self.refusal(path) {
            Some(refusal) => Err(PathError::Secret { given: given.to_owned(), refusal }),
            None => Ok(()),
        }
    }

    pub fn paths(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The policy for a path the server found itself (the walker, the watcher, a stale file
    /// re-checked): its canonical form, which must lie inside a root, and that root. A symbolic
    /// link is judged by its target, so a link created while serving that points out of the
    /// workspace is refused like a client-given path would be.
    pub fn admit(&self, path: &Path) -> Result<(PathBuf, usize), PathError> {
        let shown = path.display().to_string();
        let canon = std::fs::canonicalize(path)
            .map_err(|_| PathError::NotFound { given: shown.clone(), roots: self.listing() })?;
        match self.root_of(&canon) {
            Some(root) => {
                self.refuse_secret(&canon, &shown)?;
                Ok((canon, root))
            }
            None => Err(PathError::Outside { given: shown, roots: self.listing() }),
        }
    }

    /// Opens a file for reading under the full policy, re-checked at read time: inside a root
    /// once opened (the descriptor's real path, where the platform tells it), a regular file
    /// (never a FIFO or a device, opened without blocking), at most `max_file_bytes`, no secret
    /// ([`Roots::refusal`]), and with every hard link of it inside the roots
    /// ([`crate::hardlinks`]).
    pub fn read(&self, path: &Path, display: &str) -> Result<Vec<u8>, ReadError> {
        use crate as read;
        let (file, meta) =
            read::open_regular(path, self.max_file_bytes).map_err(|e| ReadError::Io(display.to_owned(), e))?;
        let real = read::real_path(&file).unwrap_or_else(|| path.to_path_buf());
        if self.root_of(&real).is_none() {
            return Err(ReadError::Path(PathError::Outside { given: display.to_owned(), roots: self.listing() }));
        }
        self.refuse_secret(&real, display).map_err(ReadError::Path)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            if meta.nlink() > 1 {
                let inside = self.census.inside(&self.roots, meta.dev(), meta.ino(), meta.nlink());
                if inside < meta.nlink() {
                    let e = crate::hardlinks::linked_from_outside(Path::new(display), meta.nlink(), inside);
                    return Err(ReadError::Io(display.to_owned(), e));
                }
            }
        }
        let bytes =
            read::read_opened(file, &meta, self.max_file_bytes).map_err(|e| ReadError::Io(display.to_owned(), e))?;
        // Build files whose values are secrets only in part are served masked.
        Ok(match crate::secrets::mask(&real, &bytes) {
            std::borrow::Cow::Borrowed(_) => bytes,
            std::borrow::Cow::Owned(masked) => masked,
        })
    }

    /// The policy re-applied to a resolved file when it is read: once its links are resolved
    /// it is still inside a root (a link swapped in since it was resolved is refused) and no
    /// secret. A path that no longer resolves passes here: the read that follows reports it.
    pub fn recheck(&self, path: &Path, given: &str) -> Result<(), PathError> {
        let Ok(canon) = std::fs::canonicalize(path) else { return Ok(()) };
        self.refuse_secret(&canon, given)?;
        match self.root_of(&canon) {
            Some(_) => Ok(()),
            None => Err(PathError::Outside { given: given.to_owned(), roots: self.listing() }),
        }
    }

    fn listing(&self) -> String {
        self.roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>().join(", ")
    }

    /// The index of the root containing an absolute, canonical path.
    pub fn root_of(&self, canonical: &Path) -> Option<usize> {
        // The deepest root wins when roots nest.
        self.roots
            .iter()
            .enumerate()
            .filter(|(_, r)| canonical.starts_with(r))
            .max_by_key(|(_, r)| r.components().count())
            .map(|(i, _)| i)
    }

    /// How results name a canonical path under root `i`.
    pub fn display(&self, canonical: &Path, i: usize) -> String {
        if self.roots.len() != 1 {
            return canonical.to_string_lossy().into_owned();
        }
        // By the bytes where they say it plainly: a component parse of both paths for each of
        // a listing's files was half of a one-shot command's stamps (on the JDK, 15,000).
        let root = &self.roots[i];
        if let Some(rel) = plain_rest(canonical, root).or_else(|| canonical.strip_prefix(root).ok()) {
            let s = rel.to_string_lossy().replace('\\', "/");
            return if s.is_empty() { ".".to_owned() } else { s };
        }
        canonical.to_string_lossy().into_owned()
    }

    /// A root's name: the last component of its path (`/src/app` is `app`).
    pub fn name(&self, i: usize) -> String {
        self.roots[i]
            .file_name()
            .map_or_else(|| self.roots[i].display().to_string(), |n| n.to_string_lossy().into_owned())
    }

    /// The roots as `name (path)`, for messages.
    pub fn named_listing(&self) -> String {
        (0..self.roots.len())
            .map(|i| format!("{} ({})", self.name(i), self.roots[i].display()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The root a client chose (a tool's `root`): by its name, or by its path (absolute, or a
    /// `file://` URI).
    pub fn find_root(&self, given: &str) -> Result<usize, PathError> {
        let given = given.trim();
        let refuse = || PathError::NoSuchRoot { given: given.to_owned(), roots: self.named_listing() };
        let named: Vec<usize> = (0..self.roots.len()).filter(|&i| self.name(i) == given).collect();
        match named.as_slice() {
            [i] => return Ok(*i),
            [_, _, ..] => {
                let found = named.iter().map(|&i| self.roots[i].display().to_string()).collect::<Vec<_>>();
                return Err(PathError::Ambiguous {
                    given: given.to_owned(),
                    found: format!("the roots {}", found.join(" and ")),
                });
            }
            [] => {}
        }
        let path = normalize_input(given).map_err(|_| refuse())?;
        let canon = std::fs::canonicalize(lexical_normalize(&path)).map_err(|_| refuse())?;
        self.roots.iter().position(|r| *r == canon).ok_or_else(refuse)
    }

    /// Resolves a client-given path inside the roots.
    pub fn resolve(&self, given: &str) -> Result<Resolved, PathError> {
        let trimmed = given.trim();
        if trimmed.is_empty() {
            return Err(PathError::Empty { roots: self.listing() });
        }
        let normalized = normalize_input(trimmed)?;
        let mut candidates: Vec<PathBuf> = if normalized.is_absolute() {
            vec![normalized.clone()]
        } else {
            self.roots.iter().map(|r| r.join(&normalized)).collect()
        };
        // With several roots, `app/src/Foo.java` may also mean `src/Foo.java` under the root
        // named `app`.
        if !normalized.is_absolute() && self.roots.len() > 1 {
            let mut parts = normalized.components();
            if let Some(std::path::Component::Normal(first)) = parts.next() {
                let rest = parts.as_path();
                for r in &self.roots {
                    if r.file_name() == Some(first) {
                        candidates.push(r.join(rest));
                    }
                }
            }
        }
        let mut inside_any = false;
        let mut found: Vec<(PathBuf, usize)> = Vec::new();
        for cand in &candidates {
            let lexical = lexical_normalize(cand);
            if self.root_of(&lexical).is_none() {
                continue;
            }
            inside_any = true;
            if let Ok(canon) = std::fs::canonicalize(&lexical) {
                // A symlink may point out of the workspace.
                let Some(root) = self.root_of(&canon) else {
                    return Err(PathError::Outside { given: given.to_owned(), roots: self.listing() });
                };
                if !found.iter().any(|(p, _)| *p == canon) {
                    found.push((canon, root));
                }
            }
        }
        match found.len() {
            0 if inside_any => Err(PathError::NotFound { given: given.to_owned(), roots: self.listing() }),
            0 => Err(PathError::Outside { given: given.to_owned(), roots: self.listing() }),
            1 => {
                let (path, root) = found.remove(0);
                self.refuse_secret(&path, given)?;
                Ok(Resolved { display: self.display(&path, root), path, root })
            }
            _ => Err(PathError::Ambiguous {
                given: given.to_owned(),
                found: found.iter().map(|(p, _)| p.display().to_string()).collect::<Vec<_>>().join(" and "),
            }),
        }
    }
}

/// Whether a file may be written at `path` under one of the canonical `roots`: its directory,
/// links resolved, lies under a root; a directory a move creates (not there yet) has its nearest
/// existing ancestor under a root and no `..` in the path.
pub fn writable_under(roots: &[PathBuf], path: &Path) -> bool {
    let under = |d: &Path| roots.iter().any(|r| d.starts_with(r));
    match path.parent().and_then(|d| std::fs::canonicalize(d).ok()) {
        Some(d) => under(&d),
        None => {
            path.ancestors()
                .skip(1)
                .find(|a| a.exists())
                .and_then(|a| std::fs::canonicalize(a).ok())
                .is_some_and(|a| under(&a))
                && !path.components().any(|c| c == std::path::Component::ParentDir)
        }
    }
}

/// Turns what a client wrote into a path for this platform: `file://` URIs, Windows drive and
/// UNC paths, backslash separators, reserved device names.
pub fn normalize_input(given: &str) -> Result<PathBuf, PathError> {
    let unsupported = |reason: &str| PathError::Unsupported { given: given.to_owned(), reason: reason.to_owned() };
    let mut s = given.to_owned();
    if let Some(rest) = s.strip_prefix("file://") {
        // file:///abs/path, or file://localhost/abs/path
        let rest = rest.strip_prefix("localhost").unwrap_or(rest);
        s = percent_decode(rest).ok_or_else(|| unsupported("is a file URI with invalid percent-encoding"))?;
    }
    if s.contains('\0') {
        return Err(unsupported("contains a NUL character"));
    }
    // `/C:/x` (a URI path) is `C:/x`.
    let b = s.as_bytes();
    if b.len() >= 3 && b[0] == b'/' && b[1].is_ascii_alphabetic() && b[2] == b':' {
        s.remove(0);
    }
    let b = s.as_bytes();
    let drive = b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
    let unc = s.starts_with("\\\\") || s.starts_with("//");
    if cfg!(windows) {
        if let Some(dev) = s.split(['/', '\\']).find(|c| is_windows_device_name(c)) {
            return Err(unsupported(&format!("names the Windows device `{dev}`, not a file")));
        }
        return Ok(PathBuf::from(s));
    }
    if drive {
        return Err(unsupported(
            "is a Windows drive path, but this server runs on a Unix system; give the path relative to the workspace root, or its absolute path on this machine",
        ));
    }
    if unc && s.starts_with("\\\\") {
        return Err(unsupported(
            "is a Windows UNC path, which this Unix system cannot open; give a path inside the workspace root",
        ));
    }
    // On Unix a backslash is almost never part of a Java path: read it as a separator.
    Ok(PathBuf::from(s.replace('\\', "/")))
}

/// Windows reserves these names (with any extension) in every directory.
pub fn is_windows_device_name(component: &str) -> bool {
    let stem = component.split('.').next().unwrap_or("").trim_end().to_ascii_lowercase();
    matches!(stem.as_str(), "con" | "prn" | "aux" | "nul" | "conin$" | "conout$")
        || ((stem.starts_with("com") || stem.starts_with("lpt"))
            && stem.len() == 4
            && stem.as_bytes()[3].is_ascii_digit()
            && stem.as_bytes()[3] != b'0')
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-wise rest of a path below its root is what `strip_prefix` gives, or nothing
    /// (then `strip_prefix` answers): roots with and without a trailing `/`, `.` and `//` in
    /// the root or the rest, a sibling sharing the root's name as a prefix, the root itself.
    #[test]
    fn the_plain_rest_is_strip_prefixs() {
        let cases = [
            ("/w/a/B.java", "/w"),
            ("/w/a/B.java", "/w/"),
            ("/w/./a/B.java", "/w/."),
            ("/w//a/B.java", "/w"),
            ("/w/a/./B.java", "/w"),
            ("/w/a/../B.java", "/w"),
            ("/wx/a/B.java", "/w"),
            ("/w", "/w"),
            ("/w/", "/w"),
            ("/a", "/"),
            ("w/a", "w"),
        ];
        for (p, r) in cases {
            let (p, r) = (Path::new(p), Path::new(r));
            if let Some(rest) = plain_rest(p, r) {
                assert_eq!(Some(rest), p.strip_prefix(r).ok(), "{} below {}", p.display(), r.display());
                assert_eq!(rest.as_os_str(), p.strip_prefix(r).expect("below").as_os_str());
            }
        }
        #[cfg(unix)]
        {
            assert_eq!(plain_rest(Path::new("/w/a/B.java"), Path::new("/w")), Some(Path::new("a/B.java")));
            assert_eq!(plain_rest(Path::new("/wx/a"), Path::new("/w")), None);
        }
    }

    #[test]
    fn device_names() {
        for n in ["nul", "NUL.java", "con", "com1.txt", "LPT9", "aux"] {
            assert!(is_windows_device_name(n), "{n}");
        }
        for n in ["null", "com0", "console.java", "Nul2.java", "lpt"] {
            assert!(!is_windows_device_name(n), "{n}");
        }
    }

    /// Two roots, `app` and `lib`, each with a `Main.java`, and `app/Only.java`.
    fn two_roots() -> (tempfile::TempDir, Roots) {
        let t = tempfile::tempdir().expect("tempdir");
        for (dir, file) in [("app", "Main.java"), ("lib", "Main.java"), ("app", "Only.java")] {
            std::fs::create_dir_all(t.path().join(dir)).expect("mkdir");
            std::fs::write(t.path().join(dir).join(file), "class X {}").expect("write");
        }
        let roots = Roots::new([t.path().join("app"), t.path().join("lib")]).expect("roots");
        (t, roots)
    }

    /// The read-time re-check and the write check are the one policy: inside a root after
    /// links, and (reading) no secret; a package directory a move creates is judged by its
    /// nearest existing ancestor, and `..` never climbs out.
    #[cfg(unix)]
    #[test]
    fn rechecks_and_writes_go_through_the_roots() {
        let (t, roots) = two_roots();
        let app = &roots.paths()[0];
        assert_eq!(roots.recheck(&app.join("Only.java"), "Only.java"), Ok(()));
        std::fs::write(t.path().join("Out.java"), "class Out {}").expect("write");
        std::os::unix::fs::symlink(t.path().join("Out.java"), app.join("Link.java")).expect("link");
        let outside = roots.recheck(&app.join("Link.java"), "Link.java");
        assert!(matches!(outside, Err(PathError::Outside { .. })), "{outside:?}");
        std::fs::write(app.join(".env"), "KEY=1").expect("write");
        let secret = roots.recheck(&app.join(".env"), ".env");
        assert!(matches!(secret, Err(PathError::Secret { .. })), "{secret:?}");
        assert_eq!(roots.recheck(&app.join("Gone.java"), "Gone.java"), Ok(()), "the read reports it");

        let paths = roots.paths();
        assert!(writable_under(paths, &app.join("New.java")));
        assert!(writable_under(paths, &app.join("com/acme/New.java")), "a directory a move creates");
        assert!(!writable_under(paths, &t.path().join("New.java")));
        assert!(!writable_under(paths, &app.join("x/../../New.java")));
        std::os::unix::fs::symlink(t.path(), app.join("up")).expect("link");
        assert!(!writable_under(paths, &app.join("up/New.java")), "a link out of the root");
    }

    #[test]
    fn a_relative_path_under_one_root_is_that_file_under_several_it_is_ambiguous() {
        let (t, roots) = two_roots();
        let app = std::fs::canonicalize(t.path().join("app")).expect("canon");
        let r = roots.resolve("Only.java").expect("under one root");
        assert_eq!((r.path, r.root), (app.join("Only.java"), 0));
        let e = roots.resolve("Main.java").expect_err("under both roots");
        assert!(matches!(e, PathError::Ambiguous { .. }), "{e}");
        let msg = e.to_string();
        assert!(msg.contains("app/Main.java") && msg.contains("lib/Main.java") && msg.contains("root's name"), "{msg}");
        // The root's name chooses; an absolute path anywhere in the roots needs no choice.
        assert_eq!(roots.resolve("lib/Main.java").expect("named").root, 1);
        assert_eq!(roots.resolve("app/Main.java").expect("named").root, 0);
        let abs = std::fs::canonicalize(t.path().join("lib/Main.java")).expect("canon");
        assert_eq!(roots.resolve(&abs.to_string_lossy()).expect("absolute").root, 1);
        // "." names every root: ambiguous too.
        assert!(matches!(roots.resolve("."), Err(PathError::Ambiguous { .. })));
    }

    #[test]
    fn a_root_is_found_by_name_or_path_and_a_wrong_one_lists_them() {
        let (t, roots) = two_roots();
        assert_eq!(roots.find_root("lib"), Ok(1));
        assert_eq!(roots.find_root(&t.path().join("app").to_string_lossy()), Ok(0));
        assert_eq!(roots.find_root(&format!("file://{}", t.path().join("lib").display())), Ok(1));
        let e = roots.find_root("nope").expect_err("no such root").to_string();
        assert!(e.contains("app (") && e.contains("lib ("), "{e}");
        // A directory inside a root is not a root.
        std::fs::create_dir_all(t.path().join("app/sub")).expect("mkdir");
        assert!(roots.find_root(&t.path().join("app/sub").to_string_lossy()).is_err());
    }

    #[test]
    fn one_root_keeps_relative_paths_as_they_were() {
        let t = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(t.path().join("ws")).expect("mkdir");
        std::fs::write(t.path().join("ws/A.java"), "class A {}").expect("write");
        let roots = Roots::new([t.path().join("ws")]).expect("roots");
        assert_eq!(roots.resolve("A.java").expect("found").display, "A.java");
        assert_eq!(roots.resolve(".").expect("the root").display, ".");
        // The root's own name is no prefix with one root.
        assert!(matches!(roots.resolve("ws/A.java"), Err(PathError::NotFound { .. })));
    }

    #[cfg(unix)]
    #[test]
    fn a_secret_is_refused_by_resolve_admit_and_read_also_through_a_link() {
        let t = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(t.path().join("deploy")).expect("mkdir");
        std::fs::write(t.path().join("deploy/id_rsa"), "KEY").expect("write");
        std::fs::write(t.path().join("A.java"), "class A {}").expect("write");
        std::os::unix::fs::symlink(t.path().join("deploy/id_rsa"), t.path().join("key.txt")).expect("symlink");
        let roots = Roots::new([t.path().to_path_buf()]).expect("roots");
        for given in ["deploy/id_rsa", "key.txt"] {
            let e = roots.resolve(given).expect_err("a secret");
            assert!(matches!(&e, PathError::Secret { refusal, .. } if refusal.pattern == "id_rsa*"), "{e}");
            assert!(e.to_string().starts_with(given) && e.to_string().contains("read_allow"), "{e}");
        }
        let canon = std::fs::canonicalize(t.path().join("deploy/id_rsa")).expect("canon");
        assert!(matches!(roots.admit(&canon), Err(PathError::Secret { .. })));
        // By the root the walk knows, and by the path's own root when given another.
        assert!(roots.refusal_in(&canon, 0).is_some() && roots.refusal_in(&canon, 7).is_some());
        assert!(roots.refusal_in(&canon.with_file_name("ok.txt"), 0).is_none());
        assert!(matches!(roots.read(&canon, "deploy/id_rsa"), Err(ReadError::Path(PathError::Secret { .. }))));
        assert!(roots.resolve("A.java").is_ok());
        let (allow, _) = ReadPolicy::new(&["deploy/*".to_owned()], &["*.java".to_owned()]);
        let roots = roots.with_read_policy(allow);
        assert_eq!(roots.read(&canon, "deploy/id_rsa").expect("allowed"), b"KEY");
        assert!(matches!(roots.resolve("A.java"), Err(PathError::Secret { .. })));
    }

    #[test]
    fn a_path_error_quotes_a_short_prefix_of_a_long_path() {
        let t = tempfile::tempdir().expect("tempdir");
        let roots = Roots::new([t.path().to_path_buf()]).expect("roots");
        let long = "a/".repeat(5000);
        let e = roots.resolve(&long).expect_err("not found").to_string();
        assert!(e.len() < 400 && e.contains("characters)"), "{e}");
        let e = roots.find_root(&long).expect_err("no such root").to_string();
        assert!(e.len() < 400, "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn windows_paths_on_unix() {
        assert!(normalize_input("C:\\x\\Y.java").is_err());
        assert!(normalize_input("/C:/x/Y.java").is_err());
        assert!(normalize_input("\\\\server\\share\\Y.java").is_err());
        assert_eq!(normalize_input("src\\main\\Y.java"), Ok(PathBuf::from("src/main/Y.java")));
        assert_eq!(normalize_input("file:///tmp/a%20b/Y.java"), Ok(PathBuf::from("/tmp/a b/Y.java")));
    }
}
