//! Paths a repository chose, kept inside the workspace roots. A repository's files may name
//! paths (`log_file`, `cache_dir`, `classpath`); a symbolic link in the repository can point
//! such a path anywhere, even at a file that does not exist yet (`notes.log -> ~/.bash_profile`).
//!
//! The rule, argued: a path is inside when the file it leads to is inside. [`resolve`] finds
//! where it leads by looking at each component without following it (`lstat`): the part that
//! exists is resolved to its real path (every link in it followed to its end); the first
//! component that does not exist must not exist at all — `lstat` says *not found* — and then
//! nothing below it exists either, so the rest cannot hold a link and is appended as written.
//! A component that `lstat` finds but whose real path cannot be resolved (a dangling link, a
//! loop, a directory we may not search) leads to an unknown place and counts as outside.
//!
//! Checking is not enough where the file is then opened: a link swapped in between the check
//! and the open would redirect it. [`open_append`] therefore opens the checked path one
//! component at a time from its root's directory, never following a link (`openat` with
//! `O_NOFOLLOW`), and checks the opened descriptor's own path again.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// Where `path` really leads, judged as the module says: the real path of its existing part
/// with the rest appended. An error when a component exists but cannot be resolved.
pub fn resolve(path: &Path) -> io::Result<PathBuf> {
    let abs = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir()?.join(path) };
    let abs = crate::lexical_normalize(&abs);
    let mut probe = abs.as_path();
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    loop {
        match std::fs::symlink_metadata(probe) {
            Ok(_) => {
                let real = std::fs::canonicalize(probe).map_err(|e| {
                    io::Error::new(
                        e.kind(),
                        format!(
                            "{} cannot be resolved ({e}); a link whose target is missing leads nowhere known",
                            probe.display()
                        ),
                    )
                })?;
                return Ok(rest.iter().rev().fold(real, |acc, n| acc.join(n)));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => match (probe.file_name(), probe.parent()) {
                (Some(name), Some(parent)) => {
                    rest.push(name);
                    probe = parent;
                }
                _ => return Ok(abs.clone()),
            },
            Err(e) => return Err(io::Error::new(e.kind(), format!("{}: {e}", probe.display()))),
        }
    }
}

/// The root (of `roots`, real paths) that holds where `path` leads, and that place; an error
/// saying why when it leads outside every root or nowhere known.
pub fn inside(path: &Path, roots: &[PathBuf]) -> io::Result<(PathBuf, PathBuf)> {
    let real = resolve(path)?;
    roots
        .iter()
        .filter(|r| real.starts_with(r))
        .max_by_key(|r| r.as_os_str().len())
        .map(|r| (r.clone(), real.clone()))
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("{} leads to {}, outside the workspace roots", path.display(), real.display()),
            )
        })
}

/// Opens `path` for appending, created owner-only (0600) if absent. With `roots` (the path came
/// from a repository file), it must lead inside one of them, and it is opened without following
/// any link from the root down, then checked again on the descriptor; without, it is the
/// user's own choice and opened as named.
pub fn open_append(path: &Path, roots: Option<&[PathBuf]>) -> io::Result<File> {
    let Some(roots) = roots else {
        let mut o = std::fs::OpenOptions::new();
        o.create(true).append(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
        return o.open(path);
    };
    let (root, real) = inside(path, roots)?;
    let file = open_append_below(&root, &real)?;
    if let Some(now) = crate::real_path(&file)
        && !roots.iter().any(|r| now.starts_with(r))
    {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} was opened at {}, outside the workspace roots", path.display(), now.display()),
        ));
    }
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(crate::not_regular(&meta));
    }
    Ok(file)
}

#[cfg(unix)]
fn open_append_below(root: &Path, real: &Path) -> io::Result<File> {
    use rustix::fs::{CWD, Mode, OFlags, openat};
    let rel = real.strip_prefix(root).map_err(|_| io::Error::other("not below its root"))?;
    let mut names: Vec<&std::ffi::OsStr> = rel.iter().collect();
    let Some(last) = names.pop() else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{} is a directory", real.display())));
    };
    let dir_flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let refused = |name: &std::ffi::OsStr, e: rustix::io::Errno| {
        let e = io::Error::from(e);
        match e.raw_os_error() {
            Some(libc::ELOOP) | Some(libc::ENOTDIR) => io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!(
                    "{} is a symbolic link or not a directory; a repository's path is never followed through a link",
                    name.to_string_lossy()
                ),
            ),
            _ => io::Error::new(e.kind(), format!("{}: {e}", name.to_string_lossy())),
        }
    };
    let mut dir = openat(CWD, root, dir_flags, Mode::empty()).map_err(|e| refused(root.as_os_str(), e))?;
    for name in names {
        dir = openat(&dir, name, dir_flags, Mode::empty()).map_err(|e| refused(name, e))?;
    }
    let flags =
        OFlags::WRONLY | OFlags::APPEND | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    let fd = openat(&dir, last, flags, Mode::RUSR | Mode::WUSR).map_err(|e| refused(last, e))?;
    Ok(File::from(fd))
}

#[cfg(not(unix))]
fn open_append_below(_root: &Path, real: &Path) -> io::Result<File> {
    // No `openat` here: the path was checked just before, and the descriptor is checked after
    // where the platform can say where it is.
    std::fs::OpenOptions::new().create(true).append(true).open(real)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_dangling_link_leads_nowhere_known() {
        let outside = tempfile::tempdir().expect("tempdir");
        let root = tempfile::tempdir().expect("tempdir");
        let root_real = std::fs::canonicalize(root.path()).expect("canon");
        let target = outside.path().join("profile");
        symlink(&target, root.path().join("notes.log")).expect("symlink");
        let e = resolve(&root.path().join("notes.log")).expect_err("dangling");
        assert!(e.to_string().contains("cannot be resolved"), "{e}");
        let e =
            open_append(&root.path().join("notes.log"), Some(std::slice::from_ref(&root_real))).expect_err("refused");
        assert!(e.to_string().contains("cannot be resolved"), "{e}");
        assert!(!target.exists(), "the link's target was created");
    }

    #[test]
    fn links_are_judged_by_where_they_lead() {
        let outside = tempfile::tempdir().expect("tempdir");
        let root = tempfile::tempdir().expect("tempdir");
        let root_real = std::fs::canonicalize(root.path()).expect("canon");
        let roots = std::slice::from_ref(&root_real);
        std::fs::create_dir(root.path().join("logs")).expect("mkdir");
        symlink(root.path().join("logs"), root.path().join("in")).expect("symlink");
        symlink(outside.path(), root.path().join("out")).expect("symlink");
        // Not yet existing files below an existing directory, through links either way.
        let (_, real) = inside(&root.path().join("in/new/x.log"), roots).expect("inside");
        assert_eq!(real, root_real.join("logs/new/x.log"));
        let e = inside(&root.path().join("out/x.log"), roots).expect_err("outside");
        assert!(e.to_string().contains("outside the workspace roots"), "{e}");
        assert!(inside(&root.path().join("a/../../x.log"), roots).is_err());
        // An inside link is resolved before the open, which then follows no link.
        let f = open_append(&root.path().join("in/x.log"), Some(roots)).expect("open");
        drop(f);
        assert!(root.path().join("logs/x.log").is_file());
        assert!(open_append(&root.path().join("out/x.log"), Some(roots)).is_err());
        assert!(!outside.path().join("x.log").exists());
        // The user's own choice is opened as named.
        open_append(&outside.path().join("mine.log"), None).expect("user path");
    }

    #[test]
    fn a_link_swapped_in_after_the_check_is_not_followed() {
        let outside = tempfile::tempdir().expect("tempdir");
        let root = tempfile::tempdir().expect("tempdir");
        let root_real = std::fs::canonicalize(root.path()).expect("canon");
        std::fs::create_dir(root.path().join("d")).expect("mkdir");
        let (r, real) = inside(&root.path().join("d/x.log"), std::slice::from_ref(&root_real)).expect("inside");
        // Between the check and the open, `d` becomes a link out.
        std::fs::remove_dir(root.path().join("d")).expect("rmdir");
        symlink(outside.path(), root.path().join("d")).expect("symlink");
        let e = open_append_below(&r, &real).expect_err("not followed");
        assert!(e.to_string().contains("symbolic link"), "{e}");
        std::fs::remove_file(root.path().join("d")).expect("rm");
        std::fs::create_dir(root.path().join("d")).expect("mkdir");
        symlink(outside.path().join("t"), root.path().join("d/x.log")).expect("symlink");
        assert!(open_append_below(&r, &real).is_err());
        assert!(!outside.path().join("t").exists());
    }
}
