//! The workspace index snapshot: every indexed file's compact symbols in one file next to the
//! outline cache, so that a warm start reads one file instead of thousands of cache entries.
//! It is only an accelerator: an entry is used only when the file's size and mtime still
//! match, anything unreadable is ignored, and it is rewritten atomically (temp + rename).
//! It ends with a MAC under the user's key ([`mji_fs::provenance::Key::fast_mac`], a keyed
//! BLAKE3) of its path and every byte before it, so a snapshot this user's runs did not write here (one a repository shipped or altered) is not
//! used.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::symbols::FileSymbols;

const MAGIC: &[u8; 8] = b"MJISYM04";
/// What the MAC covers besides the bytes.
const MAC_VERSION: &[u8] = b"mcp-java-index symbols snapshot 2";

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

/// The snapshot's bytes before its MAC, fed to the MAC as they are read: a buffered reader
/// over it asks for whole buffers, so the MAC takes them in large blocks (what lets BLAKE3
/// hash many chunks at once).
struct MacRead {
    file: std::fs::File,
    mac: mji_fs::provenance::FastMac,
    /// Bytes left before the MAC.
    left: u64,
}

impl std::io::Read for MacRead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let want = buf.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.file.read(&mut buf[..want])?;
        self.mac.update(&buf[..n]);
        self.left -= n as u64;
        Ok(n)
    }
}

/// Reads a snapshot written by the same build of the parser, by this user, at this path.
/// Records are streamed (each is length-prefixed), so reading costs no more memory than the
/// symbols it yields; none is used before the MAC at the end holds.
pub fn read(
    path: &Path,
    root_dir: &Path,
    root: usize,
    fingerprint: &str,
) -> Result<HashMap<PathBuf, FileSymbols>, Unusable> {
    use std::io::Read;
    let key = mji_fs::provenance::Key::user().map_err(|_| Unusable::Stale)?;
    let file = std::fs::File::open(path).map_err(|_| Unusable::Stale)?;
    let len = file.metadata().map_err(|_| Unusable::Stale)?.len();
    let Some(left) = len.checked_sub(32) else { return Err(Unusable::Stale) };
    let mut r = std::io::BufReader::with_capacity(1 << 18, MacRead { file, mac: mac_start(key, path), left });
    fn u32_(r: &mut impl Read) -> Option<u32> {
        let mut b = [0u8; 4];
        r.read_exact(&mut b).ok().map(|_| u32::from_le_bytes(b))
    }
    let body = (|| {
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
            // A record that does not decode is judged by the MAC below: damage or forgery.
            if let Some(f) = FileSymbols::decode(&mut buf, root_dir, root) {
                out.insert(f.path.to_path_buf(), f);
            }
        }
        Some(out)
    })()
    .ok_or(Unusable::Stale)?;
    // Whatever is left before the MAC still counts.
    std::io::copy(&mut r, &mut std::io::sink()).map_err(|_| Unusable::Stale)?;
    let MacRead { mut file, mac, .. } = r.into_inner();
    let mut found = [0u8; 32];
    file.read_exact(&mut found).map_err(|_| Unusable::Stale)?;
    if !mji_fs::provenance::same_mac(&found, &mac.finish()) {
        return Err(Unusable::Untrusted);
    }
    Ok(body)
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
        if f.stamp().is_racy_at(now) {
            continue;
        }
        let at = body.len();
        body.extend_from_slice(&[0; 4]);
        f.encode(rel, &mut body);
        let len = (body.len() - at - 4) as u32;
        body[at..at + 4].copy_from_slice(&len.to_le_bytes());
        count += 1;
    }
    let key = mji_fs::provenance::Key::user().map_err(std::io::Error::other)?;
    let mut head = Vec::with_capacity(16 + fingerprint.len());
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&(fingerprint.len() as u32).to_le_bytes());
    head.extend_from_slice(fingerprint.as_bytes());
    head.extend_from_slice(&count.to_le_bytes());
    let mut mac = mac_start(key, path);
    mac.update(&head);
    mac.update(&body);
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        w.write_all(&head)?;
        w.write_all(&body)?;
        w.write_all(&mac.finish())?;
        w.flush()?;
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })?;
    Ok(count as usize)
}
