//! Whose cache directory this is. A repository can ship a `.mcp-java-index-cache/` whose
//! outlines, snapshot or classpaths lie; the cache is trusted only if this user made it for this
//! path on this machine: the directory holds [`MARK_FILE`], the MAC under the user's key
//! ([`mji_fs::trust::Key`]) of the directory's canonical path and [`MARK_VERSION`]. A directory
//! without a valid mark is moved aside (to `<name>.untrusted`, replacing one left before) and
//! started afresh, with one warning.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use mji_fs::trust::{Key, hex, same_mac};

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
    let mut warning = None;
    if let Ok(canon) = fs::canonicalize(dir) {
        let found = fs::read_to_string(canon.join(MARK_FILE)).unwrap_or_default();
        if same_mac(found.trim().as_bytes(), mark_of(key, &canon).as_bytes()) {
            return Ok(None);
        }
        if !is_empty(&canon) {
            let aside = aside_of(&canon);
            let _ = fs::remove_dir_all(&aside);
            fs::rename(&canon, &aside)
                .map_err(|e| format!("moving the untrusted cache {} aside: {e}", canon.display()))?;
            warning = Some(format!(
                "cache {} was not made by this user at this path (no valid {MARK_FILE}; a repository may have shipped it): moved it to {} and started a new one",
                canon.display(),
                aside.display()
            ));
        }
    }
    mark(key, dir)?;
    Ok(warning)
}

/// Creates `dir` if needed and writes its mark (temp + rename).
pub(crate) fn mark(key: &Key, dir: &Path) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("creating cache dir {}: {e}", dir.display()))?;
    let canon = fs::canonicalize(dir).map_err(|e| format!("resolving cache dir {}: {e}", dir.display()))?;
    let path = canon.join(MARK_FILE);
    let tmp = canon.join(format!("{MARK_FILE}.tmp{}", std::process::id()));
    let write = || -> io::Result<()> {
        fs::write(&tmp, format!("{}\n", mark_of(key, &canon)))?;
        fs::rename(&tmp, &path)
    };
    write().map_err(|e| {
        let _ = fs::remove_file(&tmp);
        format!("writing {}: {e}", path.display())
    })
}

/// Re-marks a cache directory this process created again (after it was deleted while in use).
pub(crate) fn remark(dir: &Path) -> Result<(), String> {
    mark(Key::user()?, dir)
}

/// Nothing in it but what an empty cache has (our `.gitignore`).
fn is_empty(dir: &Path) -> bool {
    fs::read_dir(dir).map(|mut it| it.all(|e| e.is_ok_and(|e| e.file_name() == ".gitignore"))).unwrap_or(false)
}

fn aside_of(dir: &Path) -> PathBuf {
    let mut s = dir.as_os_str().to_owned();
    s.push(".untrusted");
    PathBuf::from(s)
}
