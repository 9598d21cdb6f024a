//! The file-system primitives every layer shares. Reading a workspace file safely: regular
//! files only (judged on the opened descriptor, not the path), opened without blocking (a FIFO
//! named `*.java` cannot hang a call), and bounded by a size cap read through `take`, so a file
//! that grows while it is read stays bounded. Which
//! files are never served (secrets inside a root) is [`secrets`]; how much of a value a message
//! quotes is [`clip`]. The workspace roots and the one path policy every layer applies are
//! [`roots`]; listing the files under a root is [`walk`].

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

pub mod confine;
#[cfg(unix)]
pub mod hardlinks;
pub mod jdk;
pub mod listing;
pub mod provenance;
pub mod roots;
pub mod secrets;
pub mod stamp;
pub mod walk;
pub mod write;

/// The default cap on the bytes read from one file (`max_file_bytes`).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// What kind of thing a non-regular file is, in words.
fn kind_of(meta: &Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else if meta.file_type().is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// The error for a file that is not regular.
pub fn not_regular(meta: &Metadata) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("is {}, not a regular file; only regular files are read", kind_of(meta)),
    )
}

/// The error for a file over the cap.
pub fn too_large(size: u64, cap: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "is {size} bytes, over the {cap}-byte cap on one file (max_file_bytes); it is not parsed (raise max_file_bytes in the user config to read it)"
        ),
    )
}

/// Opens `path` for reading without blocking and without following a symbolic link in its last
/// component (callers pass canonical paths), and checks on the opened descriptor that it is a
/// regular file of at most `cap` bytes. Returns the file and its metadata.
pub fn open_regular(path: &Path, cap: u64) -> io::Result<(File, Metadata)> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY);
    }
    let file = match opts.open(path) {
        Ok(f) => f,
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "is a symbolic link; only regular files are read (open the file it points to, if it is inside the workspace)",
            ));
        }
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    if meta.len() > cap {
        return Err(too_large(meta.len(), cap));
    }
    Ok((file, meta))
}

/// Reads a whole regular file of at most `cap` bytes (see [`open_regular`]); a file that grew
/// past the cap while it was read is refused the same way.
pub fn read_regular(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    let (file, meta) = open_regular(path, cap)?;
    read_opened(file, &meta, cap)
}

/// Reads an opened regular file, at most `cap` bytes.
pub fn read_opened(file: File, meta: &Metadata, cap: u64) -> io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(meta.len().min(cap) as usize);
    file.take(cap.saturating_add(1)).read_to_end(&mut out)?;
    if out.len() as u64 > cap {
        return Err(too_large(out.len() as u64, cap));
    }
    Ok(out)
}

/// The path an opened file really has (Linux: `/proc/self/fd`), to check after opening that it
/// is still where the caller meant it to be. None where the platform cannot say.
pub fn real_path(file: &File) -> Option<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = file;
        None
    }
}

/// The most characters of a value a message quotes (see [`clip`]).
pub const CLIP_CHARS: usize = 80;

/// A value as a message quotes it: whole when short, else its first [`CLIP_CHARS`] characters,
/// `…` and its length, so an error never echoes back a megabyte it was sent.
pub fn clip(value: &str) -> std::borrow::Cow<'_, str> {
    clip_to(value, CLIP_CHARS)
}

/// [`clip`] to `max` characters.
pub fn clip_to(value: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match value.char_indices().nth(max) {
        None => std::borrow::Cow::Borrowed(value),
        Some((i, _)) => std::borrow::Cow::Owned(format!("{}… ({} characters)", &value[..i], value.chars().count())),
    }
}

/// Reads exactly `buf.len()` bytes at `offset` without moving a shared cursor on Unix
/// (`pread`); on Windows `seek_read`, which moves the cursor: callers only read by position.
pub fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        let (mut done, mut at) = (0usize, offset);
        while done < buf.len() {
            match std::os::windows::fs::FileExt::seek_read(file, &mut buf[done..], at) {
                Ok(0) => return Err(io::Error::from(io::ErrorKind::UnexpectedEof)),
                Ok(n) => {
                    done += n;
                    at += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (file, buf, offset);
        Err(io::Error::new(io::ErrorKind::Unsupported, "positioned reads are not supported on this platform"))
    }
}

/// Removes `.` and resolves `..` without touching the file system.
pub fn lexical_normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_quotes_a_short_prefix_of_a_long_value() {
        assert_eq!(clip("Foo"), "Foo");
        let long = "é".repeat(100_000);
        let c = clip(&long);
        assert!(c.starts_with(&"é".repeat(CLIP_CHARS)) && c.ends_with("… (100000 characters)"), "{c}");
        assert!(c.chars().count() < CLIP_CHARS + 30);
    }

    #[test]
    fn caps_and_kinds() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("A.java");
        std::fs::write(&f, "class A {}").expect("write");
        assert_eq!(read_regular(&f, 100).expect("read"), b"class A {}");
        let e = read_regular(&f, 4).expect_err("over the cap");
        assert!(e.to_string().contains("4-byte cap"), "{e}");
        let e = read_regular(dir.path(), 100).expect_err("a directory");
        assert!(e.to_string().contains("directory"), "{e}");
        #[cfg(unix)]
        {
            let e = read_regular(Path::new("/dev/zero"), 100).expect_err("a device");
            assert!(e.to_string().contains("character device"), "{e}");
            let l = dir.path().join("L.java");
            std::os::unix::fs::symlink(&f, &l).expect("symlink");
            let e = read_regular(&l, 100).expect_err("a link");
            assert!(e.to_string().contains("symbolic link"), "{e}");
        }
    }
}
