//! The workspace index snapshot: every indexed file's compact symbols in one file next to the
//! outline cache, so that a warm start reads one file instead of thousands of cache entries.
//! It is only an accelerator: an entry is used only when the file's size and mtime still
//! match, anything unreadable is ignored, and it is rewritten atomically (temp + rename).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::symbols::FileSymbols;

const MAGIC: &[u8; 8] = b"MJISYM02";

/// Files whose mtime is this close to the time of writing are left out (a same-size rewrite
/// within the clock's granularity would otherwise go unnoticed).
const RACY_WINDOW_NS: i128 = 2_000_000_000;

/// Where the snapshot of `root` lives in a cache directory.
pub(crate) fn path_for(cache_dir: &Path, root: &Path) -> PathBuf {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in root.as_os_str().as_encoded_bytes() {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    cache_dir.join(format!("symbols-{h:016x}.bin"))
}

/// Reads a snapshot written by the same build of the parser; None if absent or unusable.
/// Records are streamed (each is length-prefixed), so reading costs no more memory than the
/// symbols it yields.
pub fn read(path: &Path, root_dir: &Path, root: usize, fingerprint: &str) -> Option<HashMap<PathBuf, FileSymbols>> {
    use std::io::Read;
    let mut r = std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(path).ok()?);
    let u32_ = |r: &mut std::io::BufReader<std::fs::File>| -> Option<u32> {
        let mut b = [0u8; 4];
        r.read_exact(&mut b).ok()?;
        Some(u32::from_le_bytes(b))
    };
    let mut magic = [0u8; 8];
    r.read_exact(&mut magic).ok()?;
    if &magic != MAGIC {
        return None;
    }
    let fp_len = u32_(&mut r)? as usize;
    if fp_len > 4096 {
        return None;
    }
    let mut fp = vec![0u8; fp_len];
    r.read_exact(&mut fp).ok()?;
    if fp != fingerprint.as_bytes() {
        return None;
    }
    let count = u32_(&mut r)? as usize;
    let mut out = HashMap::with_capacity(count.min(1 << 22));
    let mut record = Vec::new();
    for _ in 0..count {
        let len = u32_(&mut r)? as usize;
        record.resize(len, 0);
        r.read_exact(&mut record).ok()?;
        let mut buf: &[u8] = &record;
        let f = FileSymbols::decode(&mut buf, root_dir, root)?;
        out.insert(f.path.to_path_buf(), f);
    }
    Some(out)
}

/// Writes the snapshot of the files under `root_dir`, atomically.
pub fn write<'a>(
    path: &Path,
    root_dir: &Path,
    fingerprint: &str,
    files: impl Iterator<Item = &'a FileSymbols>,
) -> std::io::Result<usize> {
    let now =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as i128).unwrap_or(0);
    let mut body = Vec::with_capacity(1 << 20);
    let mut count = 0u32;
    for f in files {
        let Ok(rel) = f.path.strip_prefix(root_dir) else { continue };
        let Some(rel) = rel.to_str() else { continue };
        // The stamp's low 64 bits are the mtime; `i128::MIN` marks a file read while racy.
        let stamp = f.stamp().1;
        if stamp == i128::MIN || now.saturating_sub(stamp & 0xFFFF_FFFF_FFFF_FFFF) < RACY_WINDOW_NS {
            continue;
        }
        let at = body.len();
        body.extend_from_slice(&[0; 4]);
        f.encode(rel, &mut body);
        let len = (body.len() - at - 4) as u32;
        body[at..at + 4].copy_from_slice(&len.to_le_bytes());
        count += 1;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        w.write_all(MAGIC)?;
        w.write_all(&(fingerprint.len() as u32).to_le_bytes())?;
        w.write_all(fingerprint.as_bytes())?;
        w.write_all(&count.to_le_bytes())?;
        w.write_all(&body)?;
        w.flush()?;
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })?;
    Ok(count as usize)
}
