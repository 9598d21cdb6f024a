//! A walk's result kept between runs and trusted by each directory's stamp, so that a fresh
//! process on a tree whose directories did not change does not list them again (on the JDK's
//! 15,143 files, the walk was the larger part of a one-shot `refs --count-only`).
//!
//! Why a directory's stamp says its listing holds: a file added to, removed from or renamed
//! within a directory (or a subdirectory made or removed) rewrites the directory, which moves
//! its modification and status-change times ([`Stamp`] also holds its inode, so a directory
//! replaced by another differs too). An edit of a file in place does not, but the walk's result
//! is only the files' paths: each file's own `stat`, which the caller still takes, sees it.
//! What else decides the walk's result is recorded and checked too: the ignore files the walk
//! reads (`.gitignore`, `.ignore`, `.git/info/exclude` in every directory it listed and every
//! directory above the root, and the user's global excludes file with the working directory
//! it is read against), and for each directory named like build output, the decision of
//! [`walk::skip_reason`] (build files beside it, what it holds), taken again at each check.
//! The listing is used only when all of it is the same; anything else walks again, as before.
//!
//! The racy window (as `stamp.rs` argues for files): a directory rewritten within the same tick
//! of its clock as the walk's listing of it would show the same stamp after a second change
//! (the timestamps' granularity; on some file systems two seconds). So a listing is written
//! only when every directory and input it records was last changed at least
//! [`RACY_WINDOW`](crate::stamp::RACY_WINDOW) before the walk started: any later change then
//! carries a later time, never the recorded one. A directory changed within the window is
//! walked again at each run until it is older.
//!
//! The file ends with a MAC under the user's key ([`crate::provenance::Key::fast_mac`]), as
//! the index snapshot does: a listing this user's runs did not write (one in a cache directory
//! a repository shipped) could name files outside the tree; it is not used.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use crate::stamp::{RACY_WINDOW_NS, Stamp};
use crate::walk::{self, Looked, SkipReason, SkippedDirs, Walked};

const MAGIC: &[u8; 8] = b"MJILST01";
/// What the MAC covers besides the bytes; with the walk's rules (a build whose rules differ
/// writes another listing) and the crate's version.
const MAC_VERSION: &str = concat!("mcp-java-index walk listing 1, rules 1, ", env!("CARGO_PKG_VERSION"));
/// The largest listing read.
const MAX_BYTES: u64 = 256 << 20;
/// The names, in a directory, whose files decide what the walk ignores there (`.git` for its
/// `info/exclude`).
const IGNORE_INPUTS: [&str; 3] = [".gitignore", ".ignore", ".git"];

/// Where the listing of `root` lives in a cache directory.
pub fn path_for(cache_dir: &Path, root: &Path) -> PathBuf {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in root.as_os_str().as_encoded_bytes() {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    cache_dir.join(format!("listing-{h:016x}.bin"))
}

/// Where a [`walk`]'s files came from.
#[derive(Debug)]
pub enum Listed {
    /// The kept listing: it still holds.
    Kept,
    /// Walked, and the listing written for the next run.
    Written,
    /// Walked; no listing written: none asked for, or it could not be trusted later (a
    /// directory changed within the racy window, a problem met).
    Walked,
    /// Walked; writing the listing failed (the next run walks too).
    Failed(std::io::Error),
}

/// Every file under `root`, as [`walk::walk`]`(root, |_| true)` gives them, from the listing
/// kept at `kept` when it still holds (see the module's doc); else walked, and the listing
/// written there when it can be trusted later.
pub fn walk(root: &Path, kept: Option<&Path>) -> (Walked, Listed) {
    walk_within(root, kept, RACY_WINDOW_NS)
}

/// [`walk`] with another racy window (tests).
pub fn walk_within(root: &Path, kept: Option<&Path>, window_ns: i128) -> (Walked, Listed) {
    let Some(kept) = kept else { return (walk::walk(root, |_| true), Listed::Walked) };
    if let Some(w) = read(kept, root) {
        return (w, Listed::Kept);
    }
    let started = crate::stamp::now_ns();
    let mut looked = Looked::default();
    let walked = walk::walk_looking(root, |_| true, Some(&mut looked));
    if !walked.problems.is_empty() {
        return (walked, Listed::Walked);
    }
    let listed = match encode(root, &walked, &looked, started, window_ns) {
        None => Listed::Walked,
        Some(bytes) => match write(kept, &bytes) {
            Ok(()) => Listed::Written,
            Err(e) => Listed::Failed(e),
        },
    };
    (walked, listed)
}

/// A path's stamp now (following links), None when it is not there.
fn stamp_of(p: &Path) -> Option<Stamp> {
    std::fs::metadata(p).ok().map(|m| Stamp::of(&m))
}

/// The user's global excludes file (the walk reads it wherever it is) and, when there is one,
/// the directory its patterns are matched against (the working directory): without one, where
/// the command runs changes nothing.
fn global_inputs() -> (Vec<u8>, Option<PathBuf>) {
    let excludes = ignore::gitignore::gitconfig_excludes_path();
    let cwd = match excludes.as_deref().is_some_and(Path::is_file) {
        true => std::env::current_dir().map(|d| d.into_os_string().into_encoded_bytes()).unwrap_or_default(),
        false => Vec::new(),
    };
    (cwd, excludes)
}

/// The first line of a file, as the walk's ignore crate reads `.git` and `commondir`.
fn first_line(p: &Path) -> Option<String> {
    let f = std::fs::File::open(p).ok()?;
    std::io::BufReader::new(f).lines().next()?.ok()
}

/// The files that decide `dir/.git`'s excludes (as the ignore crate finds them: `info/exclude`
/// of the git directory, or of a linked worktree's common directory), each with its stamp.
fn git_exclude_inputs(dir: &Path, out: &mut Vec<(PathBuf, Option<Stamp>)>) {
    let git = dir.join(".git");
    match std::fs::metadata(&git) {
        Ok(m) if m.is_file() => {
            let Some(line) = first_line(&git) else { return };
            let Some(real) = line.strip_prefix("gitdir: ") else { return };
            let real = PathBuf::from(real);
            let commondir = real.join("commondir");
            out.push((commondir.clone(), stamp_of(&commondir)));
            let Some(common) = first_line(&commondir) else { return };
            let common = if common.starts_with('.') { real.join(common) } else { PathBuf::from(common) };
            let exclude = common.join("info/exclude");
            out.push((exclude.clone(), stamp_of(&exclude)));
        }
        Ok(_) => {
            let exclude = git.join("info/exclude");
            out.push((exclude.clone(), stamp_of(&exclude)));
        }
        Err(_) => {}
    }
}

/// Every file besides the directories' entries that the walk's ignore rules read, with its
/// stamp: above the root, each name of [`IGNORE_INPUTS`] present or not (those directories are
/// not stamped); in a listed directory, those present (one made there rewrites the directory).
/// None when a listed directory holds one as a link, which could start to point somewhere
/// without its directory changing.
fn ignore_inputs(root: &Path, dirs: &[PathBuf], excludes: Option<&Path>) -> Option<Vec<(PathBuf, Option<Stamp>)>> {
    let mut out = Vec::new();
    if let Some(p) = excludes {
        out.push((p.to_path_buf(), stamp_of(p)));
    }
    let canon = std::fs::canonicalize(root).ok()?;
    for a in canon.ancestors().skip(1) {
        for n in IGNORE_INPUTS {
            let p = a.join(n);
            let st = stamp_of(&p);
            out.push((p, st));
        }
        git_exclude_inputs(a, &mut out);
    }
    for d in dirs {
        for n in IGNORE_INPUTS {
            let p = d.join(n);
            match std::fs::symlink_metadata(&p) {
                Ok(m) if m.file_type().is_symlink() => return None,
                Ok(m) => {
                    out.push((p, Some(Stamp::of(&m))));
                    if n == ".git" {
                        git_exclude_inputs(d, &mut out);
                    }
                }
                Err(_) => {}
            }
        }
    }
    Some(out)
}

fn reason_code(r: Option<SkipReason>) -> u8 {
    match r {
        None => 0,
        Some(SkipReason::Maven) => 1,
        Some(SkipReason::Gradle) => 2,
        Some(SkipReason::Ide) => 3,
        Some(SkipReason::Markers) => 4,
    }
}

struct Out(Vec<u8>);

impl Out {
    fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len() as u32);
        self.0.extend_from_slice(b);
    }
    fn u32(&mut self, n: u32) {
        self.0.extend_from_slice(&n.to_le_bytes());
    }
    fn u64(&mut self, n: u64) {
        self.0.extend_from_slice(&n.to_le_bytes());
    }
    fn stamp(&mut self, s: Option<Stamp>) {
        match s {
            None => self.0.push(0),
            Some(s) => {
                self.0.push(1);
                self.u64(s.size);
                self.0.extend_from_slice(&s.mtime_ns.to_le_bytes());
            }
        }
    }
}

/// Where a path sits among the listed directories: its parent's index and its name, when
/// the parent was listed and joining the two gives the path back byte for byte.
fn place(path: &Path, index: &std::collections::HashMap<&[u8], u32>, dirs: &[PathBuf]) -> Option<(u32, Vec<u8>)> {
    let parent = path.parent()?;
    let name = path.file_name()?;
    let k = *index.get(parent.as_os_str().as_encoded_bytes())?;
    let joined = dirs.get(k as usize)?.join(name);
    (joined.as_os_str() == path.as_os_str()).then(|| (k, name.as_encoded_bytes().to_vec()))
}

/// The listing of a walk that started at `started`, or None when it could not be trusted
/// later: a directory or input changed within the racy window, a path the listing cannot
/// give back as the walk gave it.
fn encode(root: &Path, walked: &Walked, looked: &Looked, started: i128, window_ns: i128) -> Option<Vec<u8>> {
    let dirs = &looked.dirs;
    if dirs.first().map(|d| d.as_os_str()) != Some(root.as_os_str()) {
        return None;
    }
    let (cwd, excludes) = global_inputs();
    let inputs = ignore_inputs(root, dirs, excludes.as_deref())?;
    let racy = |s: &Stamp| s.is_racy_within(started, window_ns);
    if inputs.iter().any(|(_, s)| s.as_ref().is_some_and(racy)) {
        return None;
    }
    let mut dir_stamps = Vec::with_capacity(dirs.len());
    for d in dirs {
        let s = stamp_of(d)?;
        if racy(&s) {
            return None;
        }
        dir_stamps.push(s);
    }
    let index: std::collections::HashMap<&[u8], u32> =
        dirs.iter().enumerate().map(|(k, d)| (d.as_os_str().as_encoded_bytes(), k as u32)).collect();
    let mut o = Out(Vec::with_capacity(64 * walked.files.len() + 64 * dirs.len()));
    o.0.extend_from_slice(MAGIC);
    o.bytes(root.as_os_str().as_encoded_bytes());
    o.bytes(&cwd);
    match &excludes {
        None => o.0.push(0),
        Some(p) => {
            o.0.push(1);
            o.bytes(p.as_os_str().as_encoded_bytes());
        }
    }
    let s = &walked.skipped;
    for n in [s.maven, s.gradle, s.ide, s.markers] {
        o.u64(n as u64);
    }
    o.u32(inputs.len() as u32);
    for (p, s) in &inputs {
        o.bytes(p.as_os_str().as_encoded_bytes());
        o.stamp(*s);
    }
    o.u32(dirs.len() as u32);
    o.stamp(dir_stamps.first().copied());
    for (d, s) in dirs.iter().zip(&dir_stamps).skip(1) {
        let (k, name) = place(d, &index, dirs)?;
        o.u32(k);
        o.bytes(&name);
        o.stamp(Some(*s));
    }
    o.u32(looked.judged.len() as u32);
    for (d, r) in &looked.judged {
        let (k, name) = place(d, &index, dirs)?;
        o.u32(k);
        o.bytes(&name);
        o.0.push(reason_code(*r));
    }
    for list in [&walked.files, &walked.special] {
        o.u32(list.len() as u32);
        for f in list {
            let (k, name) = place(f, &index, dirs)?;
            o.u32(k);
            o.bytes(&name);
        }
    }
    Some(o.0)
}

fn write(path: &Path, body: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let key = crate::provenance::Key::user().map_err(std::io::Error::other)?;
    let mut mac = key.fast_mac(MAC_VERSION.as_bytes());
    mac.part(path.as_os_str().as_encoded_bytes());
    mac.update(body);
    let opts = crate::write::Options { create_dirs: false, ..crate::write::Options::private() };
    let mut pending = crate::write::pending_user(path, opts)?;
    {
        let mut w = std::io::BufWriter::new(pending.file());
        w.write_all(body)?;
        w.write_all(&mac.finish())?;
        w.flush()?;
    }
    pending.commit()
}

struct In<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> In<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|e| *e <= self.b.len())?;
        let s = &self.b[self.at..end];
        self.at = end;
        Some(s)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    fn stamp(&mut self) -> Option<Option<Stamp>> {
        match self.u8()? {
            0 => Some(None),
            1 => {
                let size = self.u64()?;
                let mtime_ns = i128::from_le_bytes(self.take(16)?.try_into().ok()?);
                Some(Some(Stamp { size, mtime_ns }))
            }
            _ => None,
        }
    }
    /// One name of a directory entry: never empty, `.`, `..` or holding a separator, so a
    /// path put together from names stays below the root.
    fn name(&mut self) -> Option<&'a std::ffi::OsStr> {
        let b = self.bytes()?;
        if b.is_empty() || b == b"." || b == b".." || b.contains(&b'/') || b.contains(&0) {
            return None;
        }
        #[cfg(windows)]
        if b.contains(&b'\\') {
            return None;
        }
        // The bytes were the encoding of an `OsStr` when written (the MAC says we wrote them).
        std::str::from_utf8(b).ok().map(std::ffi::OsStr::new).or_else(|| os_str(b))
    }
}

#[cfg(unix)]
fn os_str(b: &[u8]) -> Option<&std::ffi::OsStr> {
    use std::os::unix::ffi::OsStrExt;
    Some(std::ffi::OsStr::from_bytes(b))
}

#[cfg(not(unix))]
fn os_str(_: &[u8]) -> Option<&std::ffi::OsStr> {
    None
}

fn os_string(b: &[u8]) -> Option<PathBuf> {
    Some(PathBuf::from(std::str::from_utf8(b).ok().map(std::ffi::OsStr::new).or_else(|| os_str(b))?))
}

/// The walk kept at `path` for `root` when its MAC holds and everything it records is as it
/// was; None otherwise (absent, of another build, untrusted, or anything changed).
fn read(path: &Path, root: &Path) -> Option<Walked> {
    use std::io::Read;
    let key = crate::provenance::Key::user().ok()?;
    let file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    if len > MAX_BYTES {
        return None;
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(len).read_to_end(&mut bytes).ok()?;
    let body_len = bytes.len().checked_sub(32)?;
    let (body, found) = bytes.split_at(body_len);
    let mut mac = key.fast_mac(MAC_VERSION.as_bytes());
    mac.part(path.as_os_str().as_encoded_bytes());
    mac.update(body);
    if !crate::provenance::same_mac(found, &mac.finish()) {
        return None;
    }
    let mut r = In { b: body, at: 0 };
    if r.take(8)? != MAGIC || r.bytes()? != root.as_os_str().as_encoded_bytes() {
        return None;
    }
    let (cwd, excludes) = global_inputs();
    if r.bytes()? != cwd.as_slice() {
        return None;
    }
    match (r.u8()?, &excludes) {
        (0, None) => {}
        (1, Some(p)) => {
            if r.bytes()? != p.as_os_str().as_encoded_bytes() {
                return None;
            }
        }
        _ => return None,
    }
    let skipped = SkippedDirs {
        maven: r.u64()? as usize,
        gradle: r.u64()? as usize,
        ide: r.u64()? as usize,
        markers: r.u64()? as usize,
    };
    for _ in 0..r.u32()? {
        let p = os_string(r.bytes()?)?;
        if r.stamp()? != stamp_of(&p) {
            return None;
        }
    }
    let n_dirs = r.u32()? as usize;
    let mut dirs: Vec<PathBuf> = Vec::with_capacity(n_dirs.min(body.len()));
    if n_dirs == 0 || r.stamp()? != stamp_of(root) {
        return None;
    }
    dirs.push(root.to_path_buf());
    for _ in 1..n_dirs {
        let k = r.u32()? as usize;
        let d = dirs.get(k)?.join(r.name()?);
        if r.stamp()? != stamp_of(&d) {
            return None;
        }
        dirs.push(d);
    }
    for _ in 0..r.u32()? {
        let k = r.u32()? as usize;
        let name = r.name()?;
        let d = dirs.get(k)?.join(name);
        let now = walk::skip_reason(root, &d, name.to_str()?);
        if r.u8()? != reason_code(now) {
            return None;
        }
    }
    let mut lists: [Vec<PathBuf>; 2] = Default::default();
    for list in &mut lists {
        let n = r.u32()? as usize;
        list.reserve_exact(n.min(body.len()));
        for _ in 0..n {
            let k = r.u32()? as usize;
            list.push(dirs.get(k)?.join(r.name()?));
        }
    }
    if r.at != body.len() {
        return None;
    }
    let [files, special] = lists;
    Some(Walked { files, special, problems: Vec::new(), skipped })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree whose every directory and file was last changed an hour ago (older than any
    /// racy window), and the listing's path beside it.
    struct Tree {
        _dir: tempfile::TempDir,
        root: PathBuf,
        kept: PathBuf,
    }

    fn set_old(p: &Path) {
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        let f = std::fs::File::open(p).expect("open");
        f.set_modified(old).expect("set mtime");
    }

    /// Every directory and file under `p` made an hour old.
    fn age(p: &Path) {
        for e in std::fs::read_dir(p).expect("read_dir").map(|e| e.expect("entry")) {
            if e.file_type().expect("type").is_dir() {
                age(&e.path());
            }
            set_old(&e.path());
        }
        set_old(p);
    }

    fn tree(files: &[&str]) -> Tree {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("w");
        let cache = dir.path().join("cache");
        std::fs::create_dir(&cache).expect("mkdir");
        for f in files {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(&p, format!("class {f} {{}}")).expect("write");
        }
        age(&root);
        let kept = path_for(&cache, &root);
        Tree { _dir: dir, root, kept }
    }

    fn names(t: &Tree, w: &Walked) -> Vec<String> {
        w.files.iter().map(|f| f.strip_prefix(&t.root).expect("below").to_string_lossy().into_owned()).collect()
    }

    /// The listed walk next to a fresh walk of the same tree: the same files, special files
    /// and skipped directories; and where the files came from.
    fn check(t: &Tree) -> (Vec<String>, Listed) {
        let (listed, how) = walk(&t.root, Some(&t.kept));
        let fresh = walk::walk(&t.root, |_| true);
        assert_eq!(listed.files, fresh.files, "{how:?}");
        assert_eq!(listed.special, fresh.special);
        assert_eq!(listed.skipped, fresh.skipped);
        (names(t, &listed), how)
    }

    const FILES: [&str; 4] = ["a/A.java", "a/b/B.java", "c/C.java", "D.java"];

    /// An old tree is listed once, then taken from the listing while nothing changes.
    #[test]
    fn an_unchanged_tree_is_taken_from_its_listing() {
        let t = tree(&FILES);
        let (first, how) = check(&t);
        assert!(matches!(how, Listed::Written), "{how:?}");
        assert_eq!(first, ["D.java", "a/A.java", "a/b/B.java", "c/C.java"]);
        let (again, how) = check(&t);
        assert!(matches!(how, Listed::Kept), "{how:?}");
        assert_eq!(again, first);
        // An edit in place changes no directory: the listing holds (the file's own stat,
        // which the caller takes, sees the edit).
        std::fs::write(t.root.join("a/A.java"), "class A { int x; }").expect("write");
        assert!(matches!(check(&t).1, Listed::Kept));
    }

    /// A file added to, removed from or renamed within a listed directory, and a new
    /// subdirectory, are each seen at the next walk.
    #[test]
    fn files_added_removed_renamed_and_new_directories_are_seen() {
        type Change = fn(&Path);
        let cases: [(&str, Change, &[&str]); 5] = [
            (
                "added",
                |r| std::fs::write(r.join("a/b/New.java"), "class New {}").expect("write"),
                &["D.java", "a/A.java", "a/b/B.java", "a/b/New.java", "c/C.java"],
            ),
            (
                "removed",
                |r| std::fs::remove_file(r.join("a/b/B.java")).expect("rm"),
                &["D.java", "a/A.java", "c/C.java"],
            ),
            (
                "renamed",
                |r| std::fs::rename(r.join("a/b/B.java"), r.join("a/b/B2.java")).expect("mv"),
                &["D.java", "a/A.java", "a/b/B2.java", "c/C.java"],
            ),
            (
                "new subdirectory",
                |r| {
                    std::fs::create_dir(r.join("a/b/n")).expect("mkdir");
                    std::fs::write(r.join("a/b/n/N.java"), "class N {}").expect("write");
                },
                &["D.java", "a/A.java", "a/b/B.java", "a/b/n/N.java", "c/C.java"],
            ),
            (
                "directory removed",
                |r| std::fs::remove_dir_all(r.join("a/b")).expect("rm -r"),
                &["D.java", "a/A.java", "c/C.java"],
            ),
        ];
        for (what, change, want) in cases {
            let t = tree(&FILES);
            assert!(matches!(check(&t).1, Listed::Written), "{what}");
            change(&t.root);
            let (after, how) = check(&t);
            assert_eq!(after, want, "{what}");
            assert!(!matches!(how, Listed::Kept), "{what}: {how:?}");
        }
    }

    /// A directory changed within the racy window of the walk is not recorded: the listing is
    /// not written, and every run walks until the directory is older.
    #[test]
    fn a_directory_changed_within_the_racy_window_is_walked_again() {
        let t = tree(&FILES);
        std::fs::write(t.root.join("a/b/New.java"), "class New {}").expect("write");
        let (first, how) = check(&t);
        assert!(matches!(how, Listed::Walked), "{how:?}");
        assert!(!t.kept.exists());
        assert!(first.contains(&"a/b/New.java".to_owned()));
        std::fs::remove_file(t.root.join("a/b/New.java")).expect("rm");
        let (second, how) = check(&t);
        assert!(matches!(how, Listed::Walked), "{how:?}");
        assert!(!second.contains(&"a/b/New.java".to_owned()));
        // Recorded with a zero window (as if the walk came much later), the directory changed
        // after the listing still differs from its stamp: the listing is not used.
        let (_, how) = walk_within(&t.root, Some(&t.kept), 0);
        assert!(matches!(how, Listed::Written), "{how:?}");
        std::fs::write(t.root.join("a/b/Later.java"), "class Later {}").expect("write");
        let (later, how) = check(&t);
        assert!(!matches!(how, Listed::Kept), "{how:?}");
        assert!(later.contains(&"a/b/Later.java".to_owned()));
    }

    /// A `.gitignore` edited in place so that a file becomes ignored, then not ignored again,
    /// and one made in a listed directory or above the root.
    #[test]
    fn ignore_files_edited_or_made_are_seen() {
        let t = tree(&FILES);
        std::fs::write(t.root.join("a/.gitignore"), "# nothing\n").expect("write");
        age(&t.root);
        assert!(matches!(check(&t).1, Listed::Written));
        assert!(matches!(check(&t).1, Listed::Kept));
        std::fs::write(t.root.join("a/.gitignore"), "A.java\n").expect("write");
        let (ignored, how) = check(&t);
        assert!(!ignored.contains(&"a/A.java".to_owned()), "{how:?}");
        age(&t.root);
        assert!(matches!(check(&t).1, Listed::Written));
        std::fs::write(t.root.join("a/.gitignore"), "# A.java\n").expect("write");
        let (back, how) = check(&t);
        assert!(back.contains(&"a/A.java".to_owned()), "{how:?}");
        // A new `.gitignore` in a listed directory (which rewrites it).
        age(&t.root);
        assert!(matches!(check(&t).1, Listed::Written));
        std::fs::write(t.root.join("c/.gitignore"), "C.java\n").expect("write");
        let (made, how) = check(&t);
        assert!(!made.contains(&"c/C.java".to_owned()), "{how:?}");
        // One above the root, whose directory is never stamped.
        age(&t.root);
        assert!(matches!(check(&t).1, Listed::Written));
        let above = t.root.parent().expect("parent").join(".gitignore");
        std::fs::write(&above, "D.java\n").expect("write");
        let (from_above, how) = check(&t);
        assert!(!from_above.contains(&"D.java".to_owned()), "{how:?}");
        // A `.git` directory's excludes.
        std::fs::remove_file(&above).expect("rm");
        std::fs::create_dir_all(t.root.join(".git/info")).expect("mkdir");
        age(&t.root);
        assert!(matches!(check(&t).1, Listed::Written));
        std::fs::write(t.root.join(".git/info/exclude"), "B.java\n").expect("write");
        let (excluded, how) = check(&t);
        assert!(!excluded.contains(&"a/b/B.java".to_owned()), "{how:?}");
    }

    /// A directory named like build output is judged again: a build file made beside it
    /// (which rewrites the listed directory) and a marker made inside it (which does not).
    #[test]
    fn build_output_is_judged_again() {
        let t = tree(&["m/target/T.java", "m/src/S.java"]);
        assert!(matches!(check(&t).1, Listed::Written));
        assert!(matches!(check(&t).1, Listed::Kept));
        std::fs::write(t.root.join("m/pom.xml"), "<project/>").expect("write");
        let (maven, how) = check(&t);
        assert_eq!(maven, ["m/pom.xml", "m/src/S.java"], "{how:?}");
        std::fs::remove_file(t.root.join("m/pom.xml")).expect("rm");
        age(&t.root);
        let (_, how) = check(&t);
        assert!(matches!(how, Listed::Written), "{how:?}");
        // A marker made inside the listed `target`: now build output.
        std::fs::create_dir(t.root.join("m/target/classes")).expect("mkdir");
        let (markers, how) = check(&t);
        assert_eq!(markers, ["m/src/S.java"], "{how:?}");
    }

    /// A directory named like build output that holds a package (`org.example.build`) is
    /// walked; its file edited in place to declare another package changes no directory, but
    /// the directory's judgement, taken again, now skips it.
    #[test]
    fn an_edit_that_changes_a_judgement_is_seen() {
        let t = tree(&["m/build/P.java", "m/build/classes/K.java", "m/src/S.java"]);
        std::fs::write(t.root.join("m/build/P.java"), "package org.example.build;\nclass P {}").expect("write");
        age(&t.root);
        let (first, how) = check(&t);
        assert!(matches!(how, Listed::Written), "{how:?}");
        assert_eq!(first, ["m/build/P.java", "m/build/classes/K.java", "m/src/S.java"]);
        assert!(matches!(check(&t).1, Listed::Kept));
        std::fs::write(t.root.join("m/build/P.java"), "package org.example.other;\nclass P {}").expect("write");
        let (after, how) = check(&t);
        assert_eq!(after, ["m/src/S.java"], "{how:?}");
    }

    /// A listing not written by this user's runs (its MAC does not hold) is not used, nor one
    /// recorded for another root.
    #[test]
    fn a_forged_or_foreign_listing_is_not_used() {
        let t = tree(&FILES);
        assert!(matches!(check(&t).1, Listed::Written));
        let mut bytes = std::fs::read(&t.kept).expect("read");
        let n = bytes.len();
        bytes[n - 1] ^= 1;
        std::fs::write(&t.kept, &bytes).expect("write");
        assert!(matches!(check(&t).1, Listed::Written));
        let other = t.root.join("a");
        let (w, how) = walk(&other, Some(&t.kept));
        assert!(!matches!(how, Listed::Kept), "{how:?}");
        assert_eq!(w.files, walk::walk(&other, |_| true).files);
    }
}
