//! The workspace index snapshot: every indexed file's compact symbols in one file next to the
//! outline cache, so that a warm start reads one file instead of thousands of cache entries,
//! followed by the name search buffers over those records (a warm start neither rebuilds them
//! nor decodes every record to do so: records are decoded when first used).
//! It is only an accelerator: an entry is used only when the file's size and mtime still
//! match, anything unreadable is ignored, and it is rewritten atomically (temp + rename).
//! It ends with a MAC under the user's key ([`mji_fs::provenance::Key::fast_mac`], a keyed
//! BLAKE3) of its path and every byte before it, checked before any byte is used, so a
//! snapshot this user's runs did not write here (one a repository shipped or altered) is not
//! used.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::symbols::FileSymbols;

const MAGIC: &[u8; 8] = b"MJISYM08";
/// The largest snapshot read.
const MAX_BYTES: u64 = 1 << 30;
/// What the MAC covers besides the bytes.
const MAC_VERSION: &[u8] = b"mcp-java-index symbols snapshot 3";

/// Where the snapshot of `root` lives in a cache directory.
pub(crate) fn path_for(cache_dir: &Path, root: &Path) -> PathBuf {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in root.as_os_str().as_encoded_bytes() {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    cache_dir.join(format!("symbols-{h:016x}.bin"))
}

/// Why a snapshot was not used.
#[derive(Debug, PartialEq, Eq)]
pub enum Unusable {
    /// Absent, or of another format or build: rebuilt without a word.
    Stale,
    /// Its MAC does not hold: not written here by this user (or cut short).
    Untrusted,
}

fn mac_start(key: &mji_fs::provenance::Key, path: &Path) -> mji_fs::provenance::FastMac {
    let mut mac = key.fast_mac(MAC_VERSION);
    mac.part(path.as_os_str().as_encoded_bytes());
    mac
}

/// A snapshot's records in its order, and the search buffers persisted with them.
#[derive(Debug, Default)]
pub struct Snapshot {
    pub files: Vec<FileSymbols>,
    pub names: Option<(String, String)>,
}

/// Reads a snapshot written by the same build of the parser, by this user, at this path. It is
/// read whole and its MAC checked before anything in it is looked at; then only the records'
/// paths and stamps are read: each file's symbols stay bytes, shared with the snapshot, until
/// first used (decoding them all was a third of a one-shot query on the JDK's java.base).
pub fn read(path: &Path, root_dir: &Path, root: usize, fingerprint: &str) -> Result<Snapshot, Unusable> {
    use std::io::Read;
    let key = mji_fs::provenance::Key::user().map_err(|_| Unusable::Stale)?;
    let file = std::fs::File::open(path).map_err(|_| Unusable::Stale)?;
    let len = file.metadata().map_err(|_| Unusable::Stale)?.len();
    // A snapshot the size no workspace's is (one planted in a cache directory inside the
    // workspace) is not read into memory: the JDK's 15,143 files made about 55 MB before the
    // records' bodies were compressed (java.base's 3,102: 10.9 MB then, 5.8 MB now).
    if len > MAX_BYTES {
        return Err(Unusable::Stale);
    }
    let len = usize::try_from(len).map_err(|_| Unusable::Stale)?;
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(len).map_err(|_| Unusable::Stale)?;
    // Read through a small buffer and copied: a `read` straight into the fresh 11 MB (java.base,
    // before the bodies were compressed) took 40 ms instead of 5 when the command's reference
    // preload ran beside it (the kernel's copy faulting each page in, against the other
    // threads' heap growth); copied, 6-8 ms.
    let mut file = file.take(len as u64);
    let mut chunk = vec![0u8; 1 << 18];
    loop {
        match file.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Err(Unusable::Stale),
        }
    }
    let Some(body_len) = bytes.len().checked_sub(32) else { return Err(Unusable::Stale) };
    let (body, found) = bytes.split_at(body_len);
    let mut mac = mac_start(key, path);
    mac.update(body);
    if !mji_fs::provenance::same_mac(found, &mac.finish()) {
        // An old format's snapshot is stale, not untrusted: its MAC covered other words.
        return Err(if body.starts_with(MAGIC) { Unusable::Untrusted } else { Unusable::Stale });
    }
    bytes.truncate(body_len);
    let bytes = Arc::new(bytes);
    parse(&bytes, root_dir, root, fingerprint).ok_or(Unusable::Stale)
}

fn parse(bytes: &Arc<Vec<u8>>, root_dir: &Path, root: usize, fingerprint: &str) -> Option<Snapshot> {
    let mut at = 0usize;
    let mut take = |n: usize| -> Option<(usize, usize)> {
        let end = at.checked_add(n).filter(|e| *e <= bytes.len())?;
        let span = (at, end);
        at = end;
        Some(span)
    };
    let u32_at =
        |(a, _): (usize, usize)| -> Option<u32> { Some(u32::from_le_bytes(bytes.get(a..a + 4)?.try_into().ok()?)) };
    let magic = take(8)?;
    if bytes.get(magic.0..magic.1)? != MAGIC {
        return None;
    }
    let fp_len = u32_at(take(4)?)? as usize;
    let fp = take(fp_len)?;
    if bytes.get(fp.0..fp.1)? != fingerprint.as_bytes() {
        return None;
    }
    let count = u32_at(take(4)?)? as usize;
    let mut files = Vec::with_capacity(count.min(bytes.len() / 8));
    for _ in 0..count {
        let len = u32_at(take(4)?)? as usize;
        let (a, e) = take(len)?;
        // Written by us (the MAC held): a record that does not read is a bug; that file is
        // parsed again.
        if let Some(f) = FileSymbols::lazy(bytes, a, e, root_dir, root) {
            files.push(f);
        }
    }
    let mut text = || -> Option<String> {
        let len = u32_at(take(4)?)? as usize;
        let (a, e) = take(len)?;
        String::from_utf8(bytes.get(a..e)?.to_vec()).ok()
    };
    let names = text().zip(text());
    Some(Snapshot { files, names })
}

/// Writes the snapshot of the files under `root_dir`, atomically, with their search buffers.
pub fn write<'a>(
    path: &Path,
    root_dir: &Path,
    fingerprint: &str,
    files: impl Iterator<Item = &'a FileSymbols>,
) -> std::io::Result<usize> {
    let now =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as i128).unwrap_or(0);
    let mut body = Vec::with_capacity(1 << 20);
    let mut written: Vec<&FileSymbols> = Vec::new();
    // In the walk's order (`mji_fs::walk::sort_paths`), so that a warm start finds the walk's
    // k-th file in the k-th record without hashing its path.
    let mut files: Vec<(&FileSymbols, &str)> = files
        .filter(|f| !f.stamp().is_racy_at(now))
        .filter_map(|f| Some((f, f.path.strip_prefix(root_dir).ok()?.to_str()?)))
        .collect();
    let mut order: Vec<PathBuf> = files.iter().map(|(f, _)| f.path.to_path_buf()).collect();
    mji_fs::walk::sort_paths(&mut order);
    let rank: std::collections::HashMap<&Path, usize> =
        order.iter().enumerate().map(|(k, p)| (p.as_path(), k)).collect();
    files.sort_by_key(|(f, _)| rank.get(&*f.path).copied().unwrap_or(usize::MAX));
    // Pieces of consecutive records encoded on threads of their own, then joined in order:
    // deflating every body (a cold start's snapshot) took 75 ms on one thread for java.base
    // (LZ4, which replaced deflate, costs less).
    // Scoped threads, not rayon's pool: the caller holds the index's lock, which a pool job
    // queued before these may be waiting for.
    let encode = |piece: &[(&FileSymbols, &str)]| {
        let mut out = Vec::new();
        for (f, rel) in piece {
            let at = out.len();
            out.extend_from_slice(&[0; 4]);
            f.encode(rel, &mut out);
            let len = (out.len() - at - 4) as u32;
            out[at..at + 4].copy_from_slice(&len.to_le_bytes());
        }
        out
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(4);
    let per = files.len().div_ceil(threads).max(256);
    std::thread::scope(|s| {
        let mut pieces = files.chunks(per);
        let first = pieces.next();
        let rest: Vec<_> = pieces.map(|p| s.spawn(move || encode(p))).collect();
        body.extend_from_slice(&first.map(encode).unwrap_or_default());
        for h in rest {
            // A panic goes on as it would have in one loop.
            body.extend_from_slice(&h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
    });
    written.extend(files.iter().map(|(f, _)| *f));
    let (names, initials) = crate::symbols::search_names(written.iter().copied());
    for text in [names, initials] {
        body.extend_from_slice(&(text.len() as u32).to_le_bytes());
        body.extend_from_slice(text.as_bytes());
    }
    let count = written.len() as u32;
    let key = mji_fs::provenance::Key::user().map_err(std::io::Error::other)?;
    let mut head = Vec::with_capacity(16 + fingerprint.len());
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&(fingerprint.len() as u32).to_le_bytes());
    head.extend_from_slice(fingerprint.as_bytes());
    head.extend_from_slice(&count.to_le_bytes());
    let mut mac = mac_start(key, path);
    mac.update(&head);
    mac.update(&body);
    // Written as every file is (mji_fs::write): a new temporary file, never through a link.
    let opts = mji_fs::write::Options { create_dirs: false, ..mji_fs::write::Options::private() };
    let mut pending = mji_fs::write::pending_user(path, opts)?;
    {
        let mut w = std::io::BufWriter::new(pending.file());
        w.write_all(&head)?;
        w.write_all(&body)?;
        w.write_all(&mac.finish())?;
        w.flush()?;
    }
    pending.commit()?;
    Ok(count as usize)
}
