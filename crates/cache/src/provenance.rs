//! Whose cache directory this is. A repository can ship a `.mcp-java-index-cache/` whose
//! outlines, snapshot or classpaths lie; the cache is believed only if this user made it for this
//! path on this machine: the directory holds [`MARK_FILE`], the MAC under the user's key
//! ([`mji_fs::provenance::Key`]) of the directory's canonical path and [`MARK_VERSION`]. A directory
//! without a valid mark is moved aside (to `<name>.unverified`, replacing one left before) and
//! started afresh, with one warning.

use std::fs;
use std::path::{Path, PathBuf};

use mji_fs::provenance::{Key, hex, same_mac};

/// The mark's file name in the cache directory.
pub const MARK_FILE: &str = "owner.mac";
/// The version of what the mark covers.
const MARK_VERSION: &[u8] = b"mcp-java-index cache dir 1";

fn mark_of(key: &Key, canon: &Path) -> String {
    hex(&key.mac_of(&[MARK_VERSION, canon.as_os_str().as_encoded_bytes()]))
}

/// Makes `dir` a cache directory of this user: created (and marked) if absent; kept if its mark
/// is valid; otherwise moved aside and created again. Returns the warning to log, if any; an
/// error if the key or the directory is unusable (the caller caches in memory).
pub(crate) fn claim(dir: &Path) -> Result<Option<String>, String> {
    let key = Key::user().map_err(|e| format!("cannot verify the cache {}: {e}", dir.display()))?;
    let Ok(meta) = fs::symlink_metadata(dir) else {
        mark(key, dir)?;
        return Ok(None);
    };
    // A link is never followed: a repository could point it anywhere, and the directory is
    // moved aside below. The link itself is what moves.
    let real_dir = meta.is_dir() && !meta.file_type().is_symlink();
    if real_dir && let Ok(canon) = fs::canonicalize(dir) {
        let marked = || {
            let found = fs::read_to_string(canon.join(MARK_FILE)).unwrap_or_default();
            same_mac(found.trim().as_bytes(), mark_of(key, &canon).as_bytes())
        };
        if marked() {
            return Ok(None);
        }
        if is_empty(&canon) {
            mark(key, dir)?;
            return Ok(None);
        }
        // Another process starting on the same new cache may have written its mark (by
        // rename, whole) after the first read and its database before the listing: the mark
        // is read once more before the directory counts as someone else's.
        if marked() {
            return Ok(None);
        }
    }
    let aside = aside_of(dir);
    match fs::symlink_metadata(&aside) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(&aside),
        Ok(_) => fs::remove_file(&aside),
        Err(_) => Ok(()),
    }
    .map_err(|e| format!("removing {}: {e}", aside.display()))?;
    fs::rename(dir, &aside).map_err(|e| format!("moving the unverified cache {} aside: {e}", dir.display()))?;
    mark(key, dir)?;
    Ok(Some(format!(
        "cache {} was not made by this user at this path (no valid {MARK_FILE}; a repository may have shipped it): moved it to {} and started a new one",
        dir.display(),
        aside.display()
    )))
}

/// Creates `dir` if needed and writes its mark (temp + rename).
pub(crate) fn mark(key: &Key, dir: &Path) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("creating cache dir {}: {e}", dir.display()))?;
    let canon = fs::canonicalize(dir).map_err(|e| format!("resolving cache dir {}: {e}", dir.display()))?;
    let path = canon.join(MARK_FILE);
    let opts = mji_fs::write::Options { create_dirs: false, ..Default::default() };
    mji_fs::write::write_below(&canon, Path::new(MARK_FILE), format!("{}\n", mark_of(key, &canon)).as_bytes(), opts)
        .map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Re-marks a cache directory this process created again (after it was deleted while in use).
pub(crate) fn remark(dir: &Path) -> Result<(), String> {
    mark(Key::user()?, dir)
}

/// Nothing in it but what an empty cache has: our `.gitignore`, or the mark another process
/// is writing right now (two processes starting on a new cache at once both mark it, with the
/// same mark, rather than one moving the other's directory aside).
fn is_empty(dir: &Path) -> bool {
    let ours = |n: &std::ffi::OsStr| {
        let n = n.to_string_lossy();
        n == ".gitignore" || mji_fs::write::is_temporary_of(&n, MARK_FILE)
    };
    fs::read_dir(dir).map(|mut it| it.all(|e| e.is_ok_and(|e| ours(&e.file_name())))).unwrap_or(false)
}

fn aside_of(dir: &Path) -> PathBuf {
    let mut s = dir.as_os_str().to_owned();
    s.push(".unverified");
    PathBuf::from(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cache_dir_is_claimed_once_and_kept_while_its_mark_holds() {
        let root = tempfile::tempdir().expect("tempdir");
        let dir = root.path().join(".cache");
        assert_eq!(claim(&dir), Ok(None), "a new directory is made and marked");
        fs::write(dir.join("data"), "x").expect("write");
        assert_eq!(claim(&dir), Ok(None), "its own mark holds");
        assert!(dir.join("data").is_file());
        // A copy elsewhere is unverified: moved aside, started afresh.
        let copy = root.path().join("copy");
        fs::create_dir(&copy).expect("mkdir");
        for f in [MARK_FILE, "data"] {
            fs::copy(dir.join(f), copy.join(f)).expect("copy");
        }
        let w = claim(&copy).expect("claimed").expect("a warning");
        assert!(w.contains("not made by this user at this path"), "{w}");
        assert!(!copy.join("data").exists() && aside_of(&copy).join("data").is_file());
    }

    /// A repository's cache directory that is a link is moved aside as a link: the directory it
    /// points to, outside the repository, is neither moved nor read.
    #[cfg(unix)]
    #[test]
    fn a_linked_cache_dir_moves_aside_without_touching_its_target() {
        let root = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        fs::write(outside.path().join("precious"), "keep").expect("write");
        let dir = root.path().join(".cache");
        std::os::unix::fs::symlink(outside.path(), &dir).expect("symlink");
        let w = claim(&dir).expect("claimed").expect("a warning");
        assert!(w.contains("moved it to"), "{w}");
        assert!(outside.path().join("precious").is_file(), "the link's target was moved");
        let meta = fs::symlink_metadata(&dir).expect("the cache dir");
        assert!(meta.is_dir() && !meta.file_type().is_symlink());
        assert!(fs::symlink_metadata(aside_of(&dir)).expect("aside").file_type().is_symlink());
    }
}
