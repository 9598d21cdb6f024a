//! Compiled Java: class files read into the outline shape sources have (`reader`,
//! `signature`, `outline`), the archives that hold them — jars, `-sources.jar`, `src.zip`,
//! `jmods/*.jmod` (`archive`) — and the library index from class name to archive entry,
//! cached per archive content under the user's cache directory (`library`).
//!
//! Architecture invariant: nothing here panics or allocates without a bound on hostile bytes;
//! every length is checked against what is left, every archive and entry size is capped.

pub mod api;
pub mod archive;
pub mod decompile;
pub mod jimage;
pub mod kotlin;
pub mod library;
pub mod lifecycle;
pub mod maven;
pub mod members;
pub mod outline;
pub mod reader;
pub mod signature;

/// Why a class file or an archive could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ClassError {
    #[error("not a class file (no 0xCAFEBABE)")]
    NotAClass,
    #[error("truncated at byte {0}")]
    Truncated(usize),
    #[error("bad constant-pool index {0}")]
    BadIndex(u16),
    #[error("unknown tag {0} at byte {1}")]
    BadTag(u8, usize),
    #[error("annotations nested too deep")]
    TooDeep,
    #[error("not a zip archive (no readable central directory)")]
    NotAZip,
    #[error("entry {0} is larger than the cap")]
    TooLarge(String),
    #[error("unsupported compression method {0}")]
    Compression(u16),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

pub use archive::Archive;
pub use library::{LibraryClass, LibraryIndex, Origin};
pub use reader::{ClassFile, parse};

/// The SHA-1 of `bytes`, lowercase hex (the outline's `hash`, as for sources).
pub fn sha1_hex(bytes: &[u8]) -> String {
    use sha1::Digest;
    let d = sha1::Sha1::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// Outlines the class `internal` (`java/util/HashMap`) of `archive`, with its member classes.
pub fn outline_class(archive: &mut Archive, internal: &str) -> Result<mji_model::FileOutline, ClassError> {
    let prefix = archive.class_prefix();
    let entry = format!("{prefix}{internal}.class");
    let bytes = archive
        .read_named(&entry)?
        .ok_or_else(|| ClassError::Io(std::io::Error::other(format!("no entry {entry}"))))?;
    let cf = reader::parse(&bytes)?;
    let path = format!("jar:{}!/{entry}", archive.path.display());
    let mut load = |name: &str| archive.read_named(&format!("{prefix}{name}.class")).ok().flatten();
    Ok(outline::outline(path, sha1_hex(&bytes), &cf, &mut load))
}
