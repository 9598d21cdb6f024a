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

/// [`outline_class`] as its language declares it: a class compiled from Kotlin in Kotlin's view
/// ([`outline::kotlin_view`]), with the JVM members Java calls kept.
pub fn outline_class_as_declared(archive: &mut Archive, internal: &str) -> Result<mji_model::FileOutline, ClassError> {
    let mut o = outline_class(archive, internal)?;
    let prefix = archive.class_prefix();
    let entry = format!("{prefix}{internal}.class");
    if let Ok(Some(bytes)) = archive.read_named(&entry)
        && let Ok(cf) = reader::parse(&bytes)
        && cf.kotlin.is_some()
    {
        let mut load = |name: &str| archive.read_named(&format!("{prefix}{name}.class")).ok().flatten();
        outline::kotlin_view(&mut o, &cf, &mut load);
    }
    Ok(o)
}

/// What Kotlin declares the class `internal` of `archive` to be, in a line: `Kotlin data class`,
/// `Kotlin object`, `Kotlin file facade of Console.kt` (a multi-file facade's files read from its
/// parts); `None` when it was not compiled from Kotlin or its metadata does not decode.
pub fn kotlin_summary(archive: &mut Archive, internal: &str) -> Option<String> {
    use kotlin::{ClassKind, Kind};
    /// The most parts whose file names a summary lists.
    const MAX_LISTED: usize = 16;
    let prefix = archive.class_prefix().to_owned();
    let mut read = |name: &str| {
        archive.read_named(&format!("{prefix}{name}.class")).ok().flatten().and_then(|b| reader::parse(&b).ok())
    };
    let cf = read(internal)?;
    let v = kotlin::decode(cf.kotlin.as_ref()?)?;
    let file = cf.source_file.clone().unwrap_or_else(|| "its file".to_owned());
    Some(match v.kind {
        Kind::Class => {
            let c = v.class?;
            let kind = match c.kind {
                ClassKind::Class => "class",
                ClassKind::Interface => "interface",
                ClassKind::EnumClass => "enum class",
                ClassKind::EnumEntry => "enum entry",
                ClassKind::AnnotationClass => "annotation class",
                ClassKind::Object => "object",
                ClassKind::CompanionObject => "companion object",
            };
            let words: Vec<&str> = c
                .modifiers
                .iter()
                .map(String::as_str)
                .filter(|m| !matches!(*m, "public" | "object" | "companion"))
                .collect();
            let mut s = format!("Kotlin {}{kind}", words.iter().map(|w| format!("{w} ")).collect::<String>());
            if let Some(name) = &c.companion {
                s.push_str(&format!(" with companion object {name}"));
            }
            s
        }
        Kind::FileFacade => format!("Kotlin file facade of {file}: its top-level functions and properties"),
        Kind::MultiFilePart => {
            let of = v.facade.as_deref().map(signature::internal_to_source).unwrap_or_default();
            format!("part of the Kotlin file facade {of} ({file})")
        }
        Kind::MultiFileFacade => {
            let mut files: Vec<String> =
                v.parts.iter().take(MAX_LISTED).filter_map(|p| read(p).and_then(|c| c.source_file)).collect();
            files.dedup();
            if v.parts.len() > MAX_LISTED {
                files.push(format!("{} more parts", v.parts.len() - MAX_LISTED));
            }
            format!(
                "Kotlin file facade of {} files: {} (their top-level functions and properties)",
                v.parts.len(),
                files.join(", ")
            )
        }
        Kind::Synthetic => "a Kotlin synthetic class (a lambda's, a `when`'s)".to_owned(),
    })
}
