//! The user's secret key and keyed MACs (HMAC-SHA256) over it: what lets the cache tell the
//! files this user's own runs wrote from files a repository shipped. The key is 32 random
//! bytes created once in the user's cache directory (`$XDG_CACHE_HOME/mcp-java-index/`, else
//! `~/.cache/mcp-java-index/`), readable by its owner only; a repository cannot read it, so it
//! cannot forge a MAC. Large files (the index snapshot) use [`FastMac`], a keyed BLAKE3 under a
//! key derived from the same secret: the same guarantee, several times faster to check.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

/// The key's file name in the user's cache directory.
pub const KEY_FILE: &str = "cache-key";

/// The user's cache directory for this program: `$XDG_CACHE_HOME/mcp-java-index` (when
/// absolute), else `~/.cache/mcp-java-index`, else (Windows, where HOME is seldom set)
/// `%LOCALAPPDATA%\mcp-java-index`; None without any. Never under a workspace.
pub fn user_cache_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".cache")))
        .or_else(|| {
            cfg!(windows)
                .then(|| std::env::var_os("LOCALAPPDATA"))
                .flatten()
                .filter(|h| !h.is_empty())
                .map(PathBuf::from)
        })
        .map(|b| b.join("mcp-java-index"))
}

/// A 32-byte secret.
pub struct Key([u8; 32]);

/// A MAC being computed: feed it with [`Mac::update`], end with [`Mac::finish`].
pub struct Mac {
    inner: Sha256,
    outer_pad: [u8; 64],
}

impl Mac {
    pub fn update(&mut self, bytes: &[u8]) {
        self.inner.update(bytes);
    }

    /// A length-prefixed part, so that parts cannot run into each other.
    pub fn part(&mut self, bytes: &[u8]) {
        self.inner.update((bytes.len() as u64).to_le_bytes());
        self.inner.update(bytes);
    }

    pub fn finish(self) -> [u8; 32] {
        let inner = self.inner.finalize();
        let mut outer = Sha256::new();
        outer.update(self.outer_pad);
        outer.update(inner);
        let mut out = [0u8; 32];
        out.copy_from_slice(&outer.finalize());
        out
    }
}

/// A keyed BLAKE3 MAC being computed, for large files: the user's key is not used directly
/// but through a subkey (its HMAC of a label), so no key serves two algorithms.
pub struct FastMac(blake3::Hasher);

impl FastMac {
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// A length-prefixed part, so that parts cannot run into each other.
    pub fn part(&mut self, bytes: &[u8]) {
        self.0.update(&(bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    pub fn finish(self) -> [u8; 32] {
        *self.0.finalize().as_bytes()
    }
}

impl Key {
    /// A keyed BLAKE3 MAC under this key's subkey for `purpose` (a fixed label), to be fed.
    pub fn fast_mac(&self, purpose: &[u8]) -> FastMac {
        FastMac(blake3::Hasher::new_keyed(&self.mac_of(&[b"mcp-java-index blake3 subkey", purpose])))
    }

    /// The keyed BLAKE3 MAC under `purpose`'s subkey of length-prefixed `parts`.
    pub fn fast_mac_of(&self, purpose: &[u8], parts: &[&[u8]]) -> [u8; 32] {
        let mut m = self.fast_mac(purpose);
        for p in parts {
            m.part(p);
        }
        m.finish()
    }

    /// The user's key, loaded (or created) once per process. Without a user cache directory
    /// the key lives for this process only, so nothing written now is trusted by a later run.
    pub fn user() -> Result<&'static Key, String> {
        static KEY: OnceLock<Result<Key, String>> = OnceLock::new();
        KEY.get_or_init(|| match user_cache_dir() {
            Some(dir) => load_or_create(&dir.join(KEY_FILE)),
            None => random().map(Key).map_err(|e| format!("reading random bytes: {e}")),
        })
        .as_ref()
        .map_err(Clone::clone)
    }

    /// A MAC under this key, to be fed.
    pub fn mac(&self) -> Mac {
        let mut inner_pad = [0x36u8; 64];
        let mut outer_pad = [0x5cu8; 64];
        for (i, b) in self.0.iter().enumerate() {
            inner_pad[i] ^= b;
            outer_pad[i] ^= b;
        }
        let mut inner = Sha256::new();
        inner.update(inner_pad);
        Mac { inner, outer_pad }
    }

    /// The MAC of length-prefixed `parts`.
    pub fn mac_of(&self, parts: &[&[u8]]) -> [u8; 32] {
        let mut m = self.mac();
        for p in parts {
            m.part(p);
        }
        m.finish()
    }
}

/// Compares two MACs in time independent of where they differ.
pub fn same_mac(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn random() -> io::Result<[u8; 32]> {
    let mut k = [0u8; 32];
    File::open("/dev/urandom")?.read_exact(&mut k)?;
    Ok(k)
}

/// Reads the key at `path`, or creates it (mode 0600 in a 0700 directory) if absent. Two
/// processes creating it at once agree: each writes a temporary file and links it into place,
/// and the one that finds the key already there reads that one.
fn load_or_create(path: &Path) -> Result<Key, String> {
    match read_key(path) {
        Ok(k) => return Ok(k),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("reading the cache key {}: {e}", path.display())),
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut b = fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    // A new file only (never replacing one another process made first), as every file is written.
    let name = path.file_name().map(Path::new).unwrap_or(Path::new(KEY_FILE));
    let written = random().and_then(|bytes| {
        match crate::write::write_below(dir, name, &bytes, crate::write::Options::private().new_only()) {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(e),
            _ => Ok(()),
        }
    });
    written.map_err(|e| format!("creating the cache key {}: {e}", path.display()))?;
    read_key(path).map_err(|e| format!("reading the cache key {}: {e}", path.display()))
}

/// The key at `path`: a regular file of 32 bytes that only its owner, this user, can read.
fn read_key(path: &Path) -> io::Result<Key> {
    let meta = fs::symlink_metadata(path)?;
    if !meta.is_file() || meta.len() != 32 {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "not a 32-byte regular file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.mode() & 0o077 != 0 {
            return Err(io::Error::new(io::ErrorKind::PermissionDenied, "others may read it (chmod 600 it)"));
        }
        // `/proc/self` is owned by this process's user.
        if let Ok(me) = fs::metadata("/proc/self")
            && me.uid() != meta.uid()
        {
            return Err(io::Error::new(io::ErrorKind::PermissionDenied, "another user owns it"));
        }
    }
    let mut k = [0u8; 32];
    File::open(path)?.read_exact(&mut k)?;
    Ok(Key(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_sha256_matches_rfc_4231_case_2() {
        // RFC 4231 test case 2 has a 4-byte key ("Jefe"), zero-padded like ours.
        let mut k = [0u8; 32];
        k[..4].copy_from_slice(b"Jefe");
        let mut m = Key(k).mac();
        m.update(b"what do ya want for nothing?");
        assert_eq!(hex(&m.finish()), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }

    #[test]
    fn the_key_is_created_once_owner_only_and_refused_when_others_may_read_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("sub").join(KEY_FILE);
        let a = load_or_create(&path).expect("created");
        let b = load_or_create(&path).expect("read back");
        assert_eq!(a.0, b.0);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(fs::metadata(&path).expect("meta").permissions().mode() & 0o777, 0o600);
            fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).expect("chmod");
            let e = load_or_create(&path).err().expect("refused");
            assert!(e.contains("others may read it"), "{e}");
        }
    }

    #[test]
    fn fast_macs_depend_on_the_key_the_purpose_and_every_byte() {
        let mac = |key: u8, purpose: &[u8], parts: &[&[u8]]| {
            let mut m = Key([key; 32]).fast_mac(purpose);
            parts.iter().for_each(|p| m.part(p));
            m.finish()
        };
        let base = mac(7, b"a", &[b"xy"]);
        assert!(same_mac(&base, &mac(7, b"a", &[b"xy"])));
        assert_ne!(base, mac(8, b"a", &[b"xy"]));
        assert_ne!(base, mac(7, b"b", &[b"xy"]));
        assert_ne!(base, mac(7, b"a", &[b"xz"]));
        assert_ne!(mac(7, b"a", &[b"ab", b"c"]), mac(7, b"a", &[b"a", b"bc"]));
        // The subkey is not the key: the plain keyed hash under the user's key differs.
        let mut plain = blake3::Hasher::new_keyed(&[7; 32]);
        plain.update(&2u64.to_le_bytes());
        plain.update(b"xy");
        assert_ne!(base, *plain.finalize().as_bytes());
    }

    #[test]
    fn parts_are_length_prefixed() {
        let k = Key([7; 32]);
        assert_ne!(k.mac_of(&[b"ab", b"c"]), k.mac_of(&[b"a", b"bc"]));
        assert!(same_mac(&k.mac_of(&[b"x"]), &k.mac_of(&[b"x"])));
    }
}
