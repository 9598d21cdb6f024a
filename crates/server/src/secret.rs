//! The secret that guards the network transports (HTTP, TCP, the shared server) and the
//! owner-only files and directories that hold it: the token file and the per-workspace
//! registration of a shared server. Nothing here is read from or written to a repository.

use std::io::{self, Read, Write};
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

/// Reads a file that must be the user's secret: a regular file (not a link) that no other
/// user may read or write. Anything else is refused with the reason.
pub fn read_private(path: &Path) -> Result<String, String> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.mode() & 0o077 != 0 {
            return Err(format!(
                "{} may be read or written by other users (mode {:o}); `chmod 600` it or remove it",
                path.display(),
                meta.mode() & 0o777
            ));
        }
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(64 * 1024).read_to_string(&mut text))
        .map_err(|e| format!("reading {}: {e}", path.display()))?;
    Ok(text)
}

/// Creates `path` with `text` as an owner-only (0600) file, atomically: a reader sees no file
/// or the whole text. Fails with `AlreadyExists` if `path` exists (it is not replaced).
pub fn create_private(path: &Path, text: &str) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    private_dir(dir)?;
    let tmp = dir.join(format!(".{}.{}.tmp", file_name(path), std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let written = o.open(&tmp).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.sync_all()
    });
    // A hard link fails if the name exists: the creation is atomic and never replaces.
    let linked = written.and_then(|()| std::fs::hard_link(&tmp, path));
    let _ = std::fs::remove_file(&tmp);
    linked
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
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
fn random_hex() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("reading random bytes: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Compares two secrets in time independent of where they differ.
pub fn same_secret(given: &[u8], expected: &[u8]) -> bool {
    given.len() == expected.len() && given.iter().zip(expected).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
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
    fn secrets_compare_whole() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abd", b"abc"));
        assert!(!same_secret(b"ab", b"abc"));
        assert!(!same_secret(b"", b"abc"));
    }
}
