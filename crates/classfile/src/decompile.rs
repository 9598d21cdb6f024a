//! Decompiling a class without sources: Procyon run on the class and its member classes,
//! copied into a private temporary directory (argv only, stdin closed, a timeout), its text
//! kept in a cache directory under the class bytes' hash and signed with the user's key.

use std::path::Path;

use crate::archive::Archive;
use crate::library::{read_signed, write_signed};
use crate::sha1_hex;

/// How long procyon may take for one class.
const DECOMPILE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Why a class could not be decompiled.
#[derive(Debug)]
pub enum DecompileError {
    /// The archive has no such class (its `jar:` path).
    NotFound(String),
    /// Reading the archive or running procyon failed.
    Failed { shown: String, reason: String },
}

fn failed(shown: &str, e: impl std::fmt::Display) -> DecompileError {
    DecompileError::Failed { shown: shown.to_owned(), reason: e.to_string() }
}

/// `internal` (a top-level class of `archive`, at most `max_entries` of whose entries are
/// read) decompiled by the `procyon` executable, from `cache_dir` when it was before.
pub fn decompile(
    procyon: &Path,
    archive: &Path,
    internal: &str,
    max_entries: usize,
    cache_dir: Option<&Path>,
) -> Result<String, DecompileError> {
    let shown = format!("jar:{}!/{internal}.class", archive.display());
    let mut a = Archive::open(archive, max_entries).map_err(|e| failed(&shown, e))?;
    let prefix = a.class_prefix();
    let names: Vec<String> = a
        .entries
        .iter()
        .filter_map(|e| e.name.strip_prefix(prefix)?.strip_suffix(".class").map(str::to_owned))
        .filter(|n| n == internal || n.starts_with(&format!("{internal}$")))
        .take(4096)
        .collect();
    let mut classes: Vec<(String, Vec<u8>)> = Vec::new();
    let mut hashed = String::new();
    for n in names {
        let bytes = a.read_named(&format!("{prefix}{n}.class")).map_err(|e| failed(&shown, e))?.unwrap_or_default();
        hashed.push_str(&sha1_hex(&bytes));
        classes.push((n, bytes));
    }
    if !classes.iter().any(|(n, _)| n == internal) {
        return Err(DecompileError::NotFound(shown));
    }
    let key = format!("{}.java", sha1_hex(hashed.as_bytes()));
    if let Some(dir) = cache_dir
        && let Some(text) = read_signed(&dir.join(&key))
    {
        return Ok(text);
    }
    let tmp = tempfile::tempdir().map_err(|e| failed(&shown, e))?;
    let (input, output) = (tmp.path().join("in"), tmp.path().join("out"));
    for (n, bytes) in &classes {
        // Through `mji_fs::write` below the directory just made: an entry's name that is no
        // plain relative path (`../x`) is refused, not followed out of it.
        let rel = Path::new("in").join(format!("{n}.class"));
        mji_fs::write::write_below(tmp.path(), &rel, bytes, mji_fs::write::Options::private())
            .map_err(|e| failed(&shown, e))?;
    }
    let mut child = std::process::Command::new(procyon)
        .arg("-o")
        .arg(&output)
        .arg(input.join(format!("{internal}.class")))
        .current_dir(tmp.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| failed(&shown, format!("running procyon: {e}")))?;
    let start = std::time::Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() < DECOMPILE_TIMEOUT => std::thread::sleep(std::time::Duration::from_millis(50)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(failed(&shown, format!("procyon took over {} s", DECOMPILE_TIMEOUT.as_secs())));
            }
        }
    }
    let text = mji_fs::read_regular(&output.join(format!("{internal}.java")), 64 << 20)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .ok_or_else(|| failed(&shown, "procyon wrote no source"))?;
    if let Some(dir) = cache_dir {
        write_signed(dir, &key, &text);
    }
    Ok(text)
}
