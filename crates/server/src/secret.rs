//! The secret that guards the network transports (HTTP, TCP, the shared server) and the
//! owner-only files and directories that hold it: the token file and the per-workspace
//! registration of a shared server; and the HMAC-SHA256 with which a shared server proves it
//! holds its registration's key before a client sends it the token (see `shared.rs`). A file
//! that holds a secret is read only when it is a regular file (opened without following a
//! link), owned by this user and closed to every other; a registration only from a directory
//! this user owns that no one else may write. Nothing here is read from or written to a
//! repository.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The user's state directory for this program: `$XDG_STATE_HOME/mcp-java-index`, else
/// `~/.local/state/mcp-java-index`.
pub fn state_dir() -> Option<PathBuf> {
    let base = non_empty_env("XDG_STATE_HOME")
        .or_else(|| non_empty_env("HOME").map(|h| h.join(".local").join("state")))
        // Windows, where HOME is seldom set.
        .or_else(|| cfg!(windows).then(|| non_empty_env("LOCALAPPDATA")).flatten())?;
    Some(base.join("mcp-java-index"))
}

/// Where shared servers register: `$XDG_RUNTIME_DIR/mcp-java-index` (the user's own tmpfs,
/// emptied at logout), else the state directory.
pub fn runtime_dir() -> Option<PathBuf> {
    non_empty_env("XDG_RUNTIME_DIR").map(|d| d.join("mcp-java-index")).or_else(state_dir)
}

/// The token file used when none is configured: `<state dir>/token`.
pub fn default_token_path() -> Option<PathBuf> {
    state_dir().map(|d| d.join("token"))
}

fn non_empty_env(name: &str) -> Option<PathBuf> {
    std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// Creates `dir` and its parents; the ones created are owner-only (0700).
pub fn private_dir(dir: &Path) -> io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

/// Reads a file that must be the user's secret: a regular file (opened without following a
/// link), owned by this user, that no other user may read or write. Anything else is refused
/// with the reason.
pub fn read_private(path: &Path) -> Result<String, String> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    // No link followed, and a FIFO does not block the open (it is refused below).
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut o, libc::O_NOFOLLOW | libc::O_NONBLOCK);
    let file = o.open(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => format!("reading {}: {e}", path.display()),
        // ELOOP: the name is a symbolic link.
        _ if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) => {
            format!("{} is a symbolic link, not a regular file", path.display())
        }
        _ => format!("reading {}: {e}", path.display()),
    })?;
    let meta = file.metadata().map_err(|e| format!("reading {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Some(me) = current_uid()
            && meta.uid() != me
        {
            return Err(format!(
                "{} is owned by another user (uid {}, this user is {me}); remove it",
                path.display(),
                meta.uid()
            ));
        }
        if meta.mode() & 0o077 != 0 {
            return Err(format!(
                "{} may be read or written by other users (mode {:o}); `chmod 600` it or remove it",
                path.display(),
                meta.mode() & 0o777
            ));
        }
    }
    let mut text = String::new();
    file.take(64 * 1024).read_to_string(&mut text).map_err(|e| format!("reading {}: {e}", path.display()))?;
    Ok(text)
}

/// Checks that `dir` is a directory (not a link) owned by this user that no other user may
/// write: one where no one else can place, replace or remove a file. The reason when not.
pub fn check_private_dir(dir: &Path) -> Result<(), String> {
    let meta = std::fs::symlink_metadata(dir).map_err(|e| format!("reading {}: {e}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Some(me) = current_uid()
            && meta.uid() != me
        {
            return Err(format!("{} is owned by another user (uid {}, this user is {me})", dir.display(), meta.uid()));
        }
        if meta.mode() & 0o022 != 0 {
            return Err(format!(
                "{} may be written by other users (mode {:o}); `chmod 700` it",
                dir.display(),
                meta.mode() & 0o777
            ));
        }
    }
    Ok(())
}

/// This process's user id: the owner of `/proc/self` (Linux), else of a file it creates; None
/// when neither can be learnt (then ownership is not checked, only the mode).
#[cfg(unix)]
pub fn current_uid() -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    static UID: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();
    *UID.get_or_init(|| {
        if let Ok(m) = std::fs::metadata("/proc/self") {
            return Some(m.uid());
        }
        let probe = std::env::temp_dir().join(format!(".mcp-java-index-uid-{}", std::process::id()));
        let _ = std::fs::remove_file(&probe);
        let made = std::fs::OpenOptions::new().write(true).create_new(true).open(&probe);
        let uid = made.and_then(|f| f.metadata()).map(|m| m.uid()).ok();
        let _ = std::fs::remove_file(&probe);
        uid
    })
}

/// Creates `path` with `text` as an owner-only (0600) file, atomically: a reader sees no file
/// or the whole text. Fails with `AlreadyExists` if `path` exists (it is not replaced). Written
/// through `mji_fs::write` (a temporary file renamed without replacing).
pub fn create_private(path: &Path, text: &str) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    private_dir(dir)?;
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, format!("{} names no file", path.display())))?;
    let opts = mji_fs::write::Options::private().new_only();
    mji_fs::write::write_below(dir, Path::new(name), text.as_bytes(), opts)
}

/// The shortest token accepted from a file (a configured one may not be guessable).
pub const MIN_TOKEN_CHARS: usize = 16;

/// The token in `path`, or a new one (32 random bytes in hex) written there owner-only when
/// the file does not exist. Returns the token and whether it was created.
pub fn load_or_create_token(path: &Path) -> Result<(String, bool), String> {
    if std::fs::symlink_metadata(path).is_err() {
        let token = random_hex()?;
        match create_private(path, &format!("{token}\n")) {
            Ok(()) => return Ok((token, true)),
            // Another process created it first: use theirs.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(format!("creating the token file {}: {e}", path.display())),
        }
    }
    let token = read_private(path)?.trim().to_owned();
    if token.len() < MIN_TOKEN_CHARS || token.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "the token in {} must be one line of at least {MIN_TOKEN_CHARS} characters without spaces",
            path.display()
        ));
    }
    Ok((token, false))
}

/// 32 bytes from the system's random source, in hex.
pub fn random_hex() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("reading random bytes: {e}"))?;
    Ok(hex(&bytes))
}

/// Compares two secrets in time independent of where they differ.
pub fn same_secret(given: &[u8], expected: &[u8]) -> bool {
    given.len() == expected.len() && given.iter().zip(expected).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

/// HMAC-SHA256 (RFC 2104) of `message` under `key`.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&sha2::Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let mut inner = sha2::Sha256::new();
    inner.update(block.map(|b| b ^ 0x36));
    inner.update(message);
    let mut outer = sha2::Sha256::new();
    outer.update(block.map(|b| b ^ 0x5c));
    outer.update(inner.finalize());
    let mut out = [0u8; 32];
    out.copy_from_slice(&outer.finalize());
    out
}

/// What a shared server answers a client's challenge `nonce` with: the HMAC under its
/// registration's key of a fixed label and the nonce, in hex.
pub fn proof(key: &str, nonce: &str) -> String {
    let message = [b"mcp-java-index shared server proof v1\0".as_slice(), nonce.as_bytes()].concat();
    hex(&hmac_sha256(key.as_bytes(), &message))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_created_owner_only_reused_and_refused_when_others_may_read_it() {
        let dir = std::env::temp_dir().join(format!("mji-secret-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("sub").join("token");
        let (first, created) = load_or_create_token(&path).expect("created");
        assert!(created && first.len() == 64, "{first}");
        let (again, created) = load_or_create_token(&path).expect("read");
        assert!(!created && again == first);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
            let err = load_or_create_token(&path).expect_err("refused");
            assert!(err.contains("other users"), "{err}");
        }
        // create_private never replaces an existing file.
        let err = create_private(&path, "x").expect_err("exists");
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn hmac_is_rfc_4231s() {
        // RFC 4231, test cases 2 and 6 (a key longer than the block).
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(hex(&mac), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        let mac = hmac_sha256(&[0xaa; 131], b"Test Using Larger Than Block-Size Key - Hash Key First");
        assert_eq!(hex(&mac), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
        // A proof depends on the key and the nonce.
        assert_ne!(proof("k1", "n"), proof("k2", "n"));
        assert_ne!(proof("k1", "n"), proof("k1", "m"));
        assert_eq!(proof("k1", "n").len(), 64);
    }

    #[test]
    #[cfg(unix)]
    fn a_secret_file_is_refused_through_a_link_as_a_fifo_or_owned_by_another_user() {
        let dir = std::env::temp_dir().join(format!("mji-secret-own-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        private_dir(&dir).expect("dir");
        let real = dir.join("real");
        create_private(&real, "secret-secret-secret").expect("file");
        assert_eq!(read_private(&real).as_deref(), Ok("secret-secret-secret"));
        let link = dir.join("link");
        std::os::unix::fs::symlink(&real, &link).expect("link");
        let err = read_private(&link).expect_err("a link");
        assert!(err.contains("symbolic link"), "{err}");
        let fifo = dir.join("fifo");
        if std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
            let err = read_private(&fifo).expect_err("a fifo");
            assert!(err.contains("not a regular file"), "{err}");
        }
        assert_eq!(check_private_dir(&dir), Ok(()));
        assert!(check_private_dir(&real).is_err());
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o770)).expect("chmod");
        assert!(check_private_dir(&dir).expect_err("group-writable").contains("other users"));
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        // As root (the only user that can give a file away): another user's file is refused.
        if current_uid() == Some(0) {
            std::os::unix::fs::chown(&real, Some(65534), Some(65534)).expect("chown");
            let err = read_private(&real).expect_err("another user's");
            assert!(err.contains("owned by another user"), "{err}");
            std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).expect("chown");
            assert!(check_private_dir(&dir).expect_err("another user's").contains("another user"));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abd", b"abc"));
        assert!(!same_secret(b"ab", b"abc"));
        assert!(!same_secret(b"", b"abc"));
    }
}
