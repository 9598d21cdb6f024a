//! The one way to write a file, used by every writer (setup, the SCIP export, the caches and
//! stores, the log's rotation, the edits, the build's stored classpaths): nothing a repository
//! committed can redirect it.
//!
//! A write has an *anchor*, a directory the caller trusts as named (a workspace root, the user's
//! cache or state directory, the directory of a path the user typed), and a path below it. The
//! argument, component by component:
//! - The anchor is opened as named, following links: it is the user's choice.
//! - Every directory below it is opened with `openat(…, O_DIRECTORY | O_NOFOLLOW)` from the one
//!   above, so a committed `.codex -> ~/.codex` is refused rather than followed, and a link
//!   swapped in after a check cannot redirect the open (there is no check to race: the open is
//!   the check). A missing directory is made with `mkdirat` and then opened the same way.
//! - The target itself is looked at with `fstatat(AT_SYMLINK_NOFOLLOW)`: a link is refused (a
//!   rename would replace the link, so nothing outside would change, but the caller meant the
//!   file the link names, and a repository's link to `~/.claude.json` means a user file is being
//!   aimed at); anything but a regular file is refused; a regular file's mode is kept.
//! - The bytes go to a temporary file created with `O_CREAT | O_EXCL | O_NOFOLLOW` under a
//!   name with 64 random bits, in the same opened directory: a committed `.x.tmp -> ~/.bashrc`
//!   is never opened (`O_EXCL` fails on any existing name, a link included), and the names
//!   cannot be guessed to plant such links ahead. The file is given the mode (the umask does not
//!   apply), synced, and renamed over the target with `renameat` in that directory (with
//!   `RENAME_NOREPLACE` when the caller must not replace a file); the directory is synced.
//! - A failure removes the temporary file; the target is then as it was.
//!
//! Reading a file a repository may have placed (a client's configuration in the project) goes
//! the same way: [`read_below`] opens every component without following a link and reads at
//! most a bound, refusing what is not a regular file (a FIFO, `/dev/zero`).

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};

/// How a file is written.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The mode of a new file (an existing file keeps its own).
    pub mode: u32,
    /// Make missing directories below the anchor (0700 when `mode` is owner-only, else 0755).
    pub create_dirs: bool,
    /// Refuse to replace an existing file.
    pub no_clobber: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { mode: 0o644, create_dirs: true, no_clobber: false }
    }
}

impl Options {
    /// A file only its owner may read (tokens, keys, caches of what a user may not show).
    pub fn private() -> Options {
        Options { mode: 0o600, ..Options::default() }
    }

    /// A new file only: an existing one is an error ([`io::ErrorKind::AlreadyExists`]).
    pub fn new_only(self) -> Options {
        Options { no_clobber: true, ..self }
    }

    fn dir_mode(&self) -> u32 {
        if self.mode & 0o077 == 0 { 0o700 } else { 0o755 }
    }
}

/// The error for a link met where a write or a read goes.
fn link_refused(shown: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!(
            "{} is a symbolic link; files are never written or read through a link there (remove the link or name its target)",
            shown.display()
        ),
    )
}

/// The relative path's components, every one a plain name.
fn names(rel: &Path) -> io::Result<Vec<&OsStr>> {
    let mut out = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::CurDir => {}
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{} is not a plain relative path", rel.display()),
                ));
            }
        }
    }
    Ok(out)
}

/// Splits an absolute (or relative to the current directory) `path` into the longest of
/// `anchors` that holds it lexically and the rest; an error when none does.
pub fn split<'a>(path: &'a Path, anchors: &'a [PathBuf]) -> io::Result<(&'a Path, PathBuf)> {
    let abs = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir()?.join(path) };
    let abs = crate::lexical_normalize(&abs);
    anchors
        .iter()
        .filter(|a| abs.starts_with(a))
        .max_by_key(|a| a.as_os_str().len())
        .map(|a| (a.as_path(), abs.strip_prefix(a).map(Path::to_path_buf).unwrap_or_default()))
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("{} is outside the workspace roots", path.display()),
            )
        })
}

/// A path the user typed (a flag): its directory as named, links followed (the user's choice),
/// and the file's name below it, the anchor and the rest of a write. The file itself is not
/// resolved: a write refuses it if it is a link, since the link may be a repository's (a
/// committed `index.scip -> ~/.bashrc` in the directory the user exports into).
pub fn user_anchor(path: &Path) -> io::Result<(PathBuf, PathBuf)> {
    let abs = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir()?.join(path) };
    let abs = crate::lexical_normalize(&abs);
    match (abs.parent(), abs.file_name()) {
        (Some(dir), Some(name)) => Ok((dir.to_path_buf(), PathBuf::from(name))),
        _ => Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{} names no file", path.display()))),
    }
}

/// A file being written: the temporary file in its opened directory until [`Pending::commit`]
/// renames it over the target. Dropped uncommitted, the temporary file is removed.
pub struct Pending {
    file: Option<File>,
    inner: imp::Pending,
    shown: PathBuf,
}

impl Pending {
    /// Starts writing `rel` below `anchor` (see the module's doc).
    pub fn below(anchor: &Path, rel: &Path, opts: Options) -> io::Result<Pending> {
        let names = names(rel)?;
        let Some((last, dirs)) = names.split_last() else {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{} names no file", rel.display())));
        };
        let shown = anchor.join(rel);
        let (file, inner) = imp::start(anchor, dirs, last, opts, &shown)?;
        Ok(Pending { file: Some(file), inner, shown })
    }

    /// Where the temporary file is (as the anchor was named), for a program that writes it.
    pub fn path(&self) -> PathBuf {
        self.shown.with_file_name(self.inner.temp_name())
    }

    /// The temporary file, to write into.
    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("a pending file is open until committed")
    }

    /// Syncs the bytes and renames the temporary file over the target.
    pub fn commit(mut self) -> io::Result<()> {
        let file = self.file.take().expect("a pending file is open until committed");
        file.sync_all().map_err(|e| with_path(e, &self.shown))?;
        drop(file);
        self.inner.commit().map_err(|e| with_path(e, &self.shown))
    }
}

impl Write for Pending {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            self.inner.abandon();
        }
    }
}

fn with_path(e: io::Error, shown: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("writing {}: {e}", shown.display()))
}

/// Writes `bytes` to `rel` below `anchor` (see the module's doc).
pub fn write_below(anchor: &Path, rel: &Path, bytes: &[u8], opts: Options) -> io::Result<()> {
    let mut p = Pending::below(anchor, rel, opts)?;
    p.file().write_all(bytes).map_err(|e| with_path(e, &anchor.join(rel)))?;
    p.commit()
}

/// Writes `bytes` to `path`, which must lie below one of `anchors` (the workspace roots' real
/// paths, a cache directory): nothing below the anchor is followed.
pub fn write_within(path: &Path, anchors: &[PathBuf], bytes: &[u8], opts: Options) -> io::Result<()> {
    let (anchor, rel) = split(path, anchors)?;
    write_below(anchor, &rel, bytes, opts)
}

/// Writes `bytes` to a path the user chose (see [`user_anchor`]).
pub fn write_user(path: &Path, bytes: &[u8], opts: Options) -> io::Result<()> {
    let (anchor, rel) = user_anchor(path)?;
    write_below(&anchor, &rel, bytes, opts)
}

/// Starts writing a path the user typed (see [`user_anchor`]).
pub fn pending_user(path: &Path, opts: Options) -> io::Result<Pending> {
    let (anchor, rel) = user_anchor(path)?;
    Pending::below(&anchor, &rel, opts)
}

/// Reads `rel` below `anchor`, following no link below the anchor, at most `cap` bytes of a
/// regular file. `Ok(None)` when it does not exist.
pub fn read_below(anchor: &Path, rel: &Path, cap: u64) -> io::Result<Option<Vec<u8>>> {
    let names = names(rel)?;
    let Some((last, dirs)) = names.split_last() else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{} names no file", rel.display())));
    };
    let shown = anchor.join(rel);
    let file = match imp::open_read(anchor, dirs, last, &shown) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} {}", shown.display(), crate::not_regular(&meta)),
        ));
    }
    let mut out = Vec::with_capacity(meta.len().min(cap) as usize);
    file.take(cap.saturating_add(1)).read_to_end(&mut out)?;
    if out.len() as u64 > cap {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("{} {}", shown.display(), crate::too_large(out.len() as u64, cap)),
        ));
    }
    Ok(Some(out))
}

/// Reads a file of the user's own (under their home: `~/.claude.json`), at most `cap` bytes of
/// a regular file; a link there is the user's (dotfiles kept as links) and followed to its end.
/// `Ok(None)` when it does not exist.
pub fn read_user(path: &Path, cap: u64) -> io::Result<Option<Vec<u8>>> {
    let real = match std::fs::canonicalize(path) {
        Ok(p) => p,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
    };
    let (anchor, rel) = user_anchor(&real)?;
    read_below(&anchor, &rel, cap)
}

/// 64 random bits for a temporary name: the standard library's per-process random hash keys,
/// stirred with a counter and the time.
fn random_suffix() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(N.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0));
    h.write_u32(std::process::id());
    h.finish()
}

/// Whether `file` is the name of a temporary file of a write of `target` (another process's
/// write in progress).
pub fn is_temporary_of(file: &str, target: &str) -> bool {
    file.strip_prefix('.').and_then(|f| f.strip_suffix(".tmp")).and_then(|f| f.rsplit_once('.')).is_some_and(
        |(name, hex)| target.starts_with(name) && hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit()),
    )
}

/// A temporary name beside `name`: hidden, the name cut to keep under 255 bytes.
fn temp_name(name: &OsStr) -> OsString {
    let s = name.to_string_lossy();
    let mut cut = s.as_ref();
    while cut.len() > 200 {
        let mut end = 200.min(cut.len());
        while !cut.is_char_boundary(end) {
            end -= 1;
        }
        cut = &cut[..end];
    }
    OsString::from(format!(".{cut}.{:016x}.tmp", random_suffix()))
}

#[cfg(unix)]
mod imp {
    use super::*;
    use rustix::fd::OwnedFd;
    use rustix::fs::{
        AtFlags, CWD, FileType, Mode, OFlags, RenameFlags, mkdirat, openat, renameat_with, statat, unlinkat,
    };
    use rustix::io::Errno;

    pub struct Pending {
        dir: OwnedFd,
        tmp: OsString,
        name: OsString,
        no_clobber: bool,
    }

    const DIR: OFlags = OFlags::RDONLY.union(OFlags::DIRECTORY).union(OFlags::CLOEXEC);

    fn err(e: Errno, what: &Path) -> io::Error {
        let e = io::Error::from(e);
        io::Error::new(e.kind(), format!("{}: {e}", what.display()))
    }

    /// The directory `dirs` below `anchor`, opened without following a link (made when asked).
    fn open_dirs(anchor: &Path, dirs: &[&OsStr], create: Option<u32>) -> io::Result<OwnedFd> {
        let mut dir = openat(CWD, anchor, DIR, Mode::empty()).map_err(|e| err(e, anchor))?;
        let mut at = anchor.to_path_buf();
        for name in dirs {
            at.push(name);
            let opened = match openat(&dir, *name, DIR | OFlags::NOFOLLOW, Mode::empty()) {
                Err(Errno::NOENT) if create.is_some() => {
                    let mode = Mode::from_bits_truncate(create.unwrap_or(0o755));
                    match mkdirat(&dir, *name, mode) {
                        Ok(()) | Err(Errno::EXIST) => {}
                        Err(e) => return Err(err(e, &at)),
                    }
                    openat(&dir, *name, DIR | OFlags::NOFOLLOW, Mode::empty())
                }
                other => other,
            };
            dir = match opened {
                Ok(d) => d,
                Err(Errno::LOOP) | Err(Errno::NOTDIR) => {
                    return Err(match statat(&dir, *name, AtFlags::SYMLINK_NOFOLLOW) {
                        Ok(st) if FileType::from_raw_mode(st.st_mode) == FileType::Symlink => link_refused(&at),
                        _ => {
                            io::Error::new(io::ErrorKind::InvalidInput, format!("{} is not a directory", at.display()))
                        }
                    });
                }
                Err(e) => return Err(err(e, &at)),
            };
        }
        Ok(dir)
    }

    pub fn start(
        anchor: &Path,
        dirs: &[&OsStr],
        last: &OsStr,
        opts: Options,
        shown: &Path,
    ) -> io::Result<(File, Pending)> {
        let dir = open_dirs(anchor, dirs, opts.create_dirs.then(|| opts.dir_mode()))?;
        let mode = match statat(&dir, last, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => {
                let t = FileType::from_raw_mode(st.st_mode);
                if t == FileType::Symlink {
                    return Err(link_refused(shown));
                }
                if t != FileType::RegularFile {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("{} is not a regular file", shown.display()),
                    ));
                }
                if opts.no_clobber {
                    return Err(io::Error::new(io::ErrorKind::AlreadyExists, format!("{} exists", shown.display())));
                }
                st.st_mode & 0o7777
            }
            Err(Errno::NOENT) => opts.mode,
            Err(e) => return Err(err(e, shown)),
        };
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let mut tries = 0;
        loop {
            let tmp = temp_name(last);
            match openat(&dir, tmp.as_os_str(), flags, Mode::from_bits_truncate(0o600)) {
                Ok(fd) => {
                    // The mode as meant, whatever the umask (owner-only until now).
                    rustix::fs::fchmod(&fd, Mode::from_bits_truncate(mode)).map_err(|e| err(e, shown))?;
                    let file = File::from(fd);
                    let p = Pending { dir, tmp, name: last.to_os_string(), no_clobber: opts.no_clobber };
                    return Ok((file, p));
                }
                Err(Errno::EXIST) if tries < 16 => tries += 1,
                Err(e) => return Err(err(e, shown)),
            }
        }
    }

    impl Pending {
        pub fn commit(&mut self) -> io::Result<()> {
            let flags = if self.no_clobber { RenameFlags::NOREPLACE } else { RenameFlags::empty() };
            if let Err(e) = renameat_with(&self.dir, self.tmp.as_os_str(), &self.dir, self.name.as_os_str(), flags) {
                self.abandon();
                return Err(io::Error::from(e));
            }
            // The rename made durable; a failure here loses nothing already in place.
            let _ = rustix::fs::fsync(&self.dir);
            Ok(())
        }

        pub fn abandon(&mut self) {
            let _ = unlinkat(&self.dir, self.tmp.as_os_str(), AtFlags::empty());
        }

        pub fn temp_name(&self) -> &OsStr {
            &self.tmp
        }
    }

    pub fn open_read(anchor: &Path, dirs: &[&OsStr], last: &OsStr, shown: &Path) -> io::Result<File> {
        let dir = open_dirs(anchor, dirs, None)?;
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        match openat(&dir, last, flags, Mode::empty()) {
            Ok(fd) => Ok(File::from(fd)),
            Err(Errno::LOOP) => Err(link_refused(shown)),
            Err(e) => Err(err(e, shown)),
        }
    }
}

#[cfg(not(unix))]
mod imp {
    //! Without `openat`: the path is checked component by component just before it is used.
    use super::*;

    pub struct Pending {
        tmp: PathBuf,
        target: PathBuf,
        no_clobber: bool,
    }

    fn checked(anchor: &Path, dirs: &[&OsStr], create: bool) -> io::Result<PathBuf> {
        let mut at = anchor.to_path_buf();
        for name in dirs {
            at.push(name);
            match std::fs::symlink_metadata(&at) {
                Ok(m) if m.file_type().is_symlink() => return Err(link_refused(&at)),
                Ok(m) if m.is_dir() => {}
                Ok(_) => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("{} is not a directory", at.display()),
                    ));
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound && create => std::fs::create_dir(&at)?,
                Err(e) => return Err(e),
            }
        }
        Ok(at)
    }

    pub fn start(
        anchor: &Path,
        dirs: &[&OsStr],
        last: &OsStr,
        opts: Options,
        shown: &Path,
    ) -> io::Result<(File, Pending)> {
        let dir = checked(anchor, dirs, opts.create_dirs)?;
        let target = dir.join(last);
        match std::fs::symlink_metadata(&target) {
            Ok(m) if m.file_type().is_symlink() => return Err(link_refused(shown)),
            Ok(m) if !m.is_file() => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{} is not a regular file", shown.display()),
                ));
            }
            Ok(_) if opts.no_clobber => {
                return Err(io::Error::new(io::ErrorKind::AlreadyExists, format!("{} exists", shown.display())));
            }
            _ => {}
        }
        let tmp = dir.join(temp_name(last));
        let file = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        Ok((file, Pending { tmp, target, no_clobber: opts.no_clobber }))
    }

    impl Pending {
        pub fn commit(&mut self) -> io::Result<()> {
            if self.no_clobber && self.target.exists() {
                self.abandon();
                return Err(io::Error::new(io::ErrorKind::AlreadyExists, format!("{} exists", self.target.display())));
            }
            std::fs::rename(&self.tmp, &self.target).inspect_err(|_| self.abandon())
        }

        pub fn abandon(&mut self) {
            let _ = std::fs::remove_file(&self.tmp);
        }

        pub fn temp_name(&self) -> &OsStr {
            self.tmp.file_name().unwrap_or_default()
        }
    }

    pub fn open_read(anchor: &Path, dirs: &[&OsStr], last: &OsStr, shown: &Path) -> io::Result<File> {
        let dir = checked(anchor, dirs, false)?;
        let target = dir.join(last);
        if std::fs::symlink_metadata(&target)?.file_type().is_symlink() {
            return Err(link_refused(shown));
        }
        File::open(target)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    fn setup() -> (tempfile::TempDir, tempfile::TempDir, PathBuf) {
        let root = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        let real = std::fs::canonicalize(root.path()).expect("canon");
        (root, outside, real)
    }

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).expect("meta").permissions().mode() & 0o777
    }

    #[test]
    fn writes_a_new_file_with_its_directories_and_leaves_no_temporary_file() {
        let (_r, _o, root) = setup();
        write_below(&root, Path::new("a/b/c.txt"), b"hi", Options::default()).expect("write");
        assert_eq!(std::fs::read(root.join("a/b/c.txt")).expect("read"), b"hi");
        assert_eq!(mode(&root.join("a/b/c.txt")), 0o644);
        assert_eq!(std::fs::read_dir(root.join("a/b")).expect("ls").count(), 1, "only the file");
        write_below(&root, Path::new("p/k"), b"secret", Options::private()).expect("write");
        assert_eq!(mode(&root.join("p/k")), 0o600);
        assert_eq!(mode(&root.join("p")), 0o700);
    }

    #[test]
    fn an_existing_file_keeps_its_mode() {
        let (_r, _o, root) = setup();
        let f = root.join("conf.toml");
        std::fs::write(&f, "old").expect("write");
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        write_below(&root, Path::new("conf.toml"), b"new", Options::default()).expect("write");
        assert_eq!(std::fs::read(&f).expect("read"), b"new");
        assert_eq!(mode(&f), 0o600, "a 0600 file stays 0600");
    }

    #[test]
    fn a_link_as_the_target_or_a_directory_is_refused_and_nothing_outside_changes() {
        let (_r, outside, root) = setup();
        let victim = outside.path().join("bashrc");
        std::fs::write(&victim, "mine").expect("write");
        symlink(&victim, root.join("index.scip")).expect("symlink");
        let e = write_below(&root, Path::new("index.scip"), b"x", Options::default()).expect_err("link");
        assert!(e.to_string().contains("symbolic link"), "{e}");
        symlink(outside.path(), root.join(".codex")).expect("symlink");
        let e = write_below(&root, Path::new(".codex/config.toml"), b"x", Options::default()).expect_err("dir link");
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert!(!outside.path().join("config.toml").exists());
        // A dangling link to where a file would be made.
        symlink(outside.path().join("made"), root.join("new.txt")).expect("symlink");
        assert!(write_below(&root, Path::new("new.txt"), b"x", Options::default()).is_err());
        assert!(!outside.path().join("made").exists());
        assert_eq!(std::fs::read(&victim).expect("read"), b"mine");
    }

    #[test]
    fn planted_temporary_names_are_never_opened() {
        let (_r, outside, root) = setup();
        let victim = outside.path().join("bashrc");
        std::fs::write(&victim, "mine").expect("write");
        // Every name the old writers used, planted as links.
        let pid = std::process::id();
        for n in [format!(".config.toml.{pid}.tmp"), "index.scip.tmp".to_owned(), format!("config.toml.tmp{pid}")] {
            symlink(&victim, root.join(n)).expect("symlink");
        }
        write_below(&root, Path::new("config.toml"), b"[x]", Options::default()).expect("write");
        write_below(&root, Path::new("index.scip"), b"scip", Options::default()).expect("write");
        assert_eq!(std::fs::read(&victim).expect("read"), b"mine");
        assert!(temp_name(OsStr::new("a")) != temp_name(OsStr::new("a")), "names differ");
        let t = temp_name(OsStr::new("mark"));
        assert!(is_temporary_of(&t.to_string_lossy(), "mark"));
        assert!(!is_temporary_of(".mark.tmp", "mark") && !is_temporary_of("mark", "mark"));
    }

    #[test]
    fn new_only_refuses_an_existing_file() {
        let (_r, _o, root) = setup();
        write_below(&root, Path::new("k"), b"1", Options::private().new_only()).expect("first");
        let e = write_below(&root, Path::new("k"), b"2", Options::private().new_only()).expect_err("second");
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists, "{e}");
        assert_eq!(std::fs::read(root.join("k")).expect("read"), b"1");
    }

    #[test]
    fn an_abandoned_write_leaves_the_target_as_it_was() {
        let (_r, _o, root) = setup();
        std::fs::write(root.join("f"), "old").expect("write");
        {
            let mut p = Pending::below(&root, Path::new("f"), Options::default()).expect("start");
            p.write_all(b"half").expect("write");
        }
        assert_eq!(std::fs::read(root.join("f")).expect("read"), b"old");
        assert_eq!(std::fs::read_dir(&root).expect("ls").count(), 1, "no temporary file left");
    }

    #[test]
    fn paths_that_leave_the_anchor_are_refused() {
        let (_r, _o, root) = setup();
        assert!(write_below(&root, Path::new("../x"), b"x", Options::default()).is_err());
        assert!(write_below(&root, Path::new("/etc/x"), b"x", Options::default()).is_err());
        let roots = vec![root.clone()];
        assert!(write_within(Path::new("/elsewhere/x"), &roots, b"x", Options::default()).is_err());
        write_within(&root.join("d/../y"), &roots, b"y", Options::default()).expect("normalised inside");
        assert!(root.join("y").is_file());
    }

    #[test]
    fn reads_refuse_links_fifos_and_what_is_over_the_bound() {
        let (_r, outside, root) = setup();
        let secret = outside.path().join("claude.json");
        std::fs::write(&secret, "{\"key\":1}").expect("write");
        symlink(&secret, root.join(".mcp.json")).expect("symlink");
        assert!(
            read_below(&root, Path::new(".mcp.json"), 1 << 20).expect_err("link").to_string().contains("symbolic link")
        );
        symlink("/dev/zero", root.join("zero.json")).expect("symlink");
        assert!(read_below(&root, Path::new("zero.json"), 1 << 20).is_err());
        rustix::fs::mknodat(
            rustix::fs::CWD,
            root.join("fifo.json"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_bits_truncate(0o600),
            0,
        )
        .expect("mkfifo");
        assert!(read_below(&root, Path::new("fifo.json"), 1 << 20).is_err(), "a FIFO neither hangs nor is read");
        std::fs::write(root.join("big"), vec![b'x'; 100]).expect("write");
        assert_eq!(read_below(&root, Path::new("big"), 10).expect_err("big").kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(read_below(&root, Path::new("absent"), 10).expect("absent"), None);
        // The user's own link is theirs to follow.
        let mine = root.join("mine.json");
        symlink(&secret, &mine).expect("symlink");
        assert_eq!(read_user(&mine, 100).expect("read").as_deref(), Some(&b"{\"key\":1}"[..]));
        // A path the user typed is written as named, never through a link at its end.
        assert!(write_user(&mine, b"{}", Options::default()).is_err());
        assert_eq!(std::fs::read(&secret).expect("read"), b"{\"key\":1}");
    }
}
