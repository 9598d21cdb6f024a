//! The tool functions shared by the MCP server and the CLI: typed arguments in, typed results
//! out, errors as [`ToolError`] values. Synchronous; callers in async code use
//! `spawn_blocking`.

pub mod after_apply;
pub mod budget;
pub mod build;
pub mod catalog;
mod context;
pub mod editor;
pub mod find;
pub mod host;
mod jdk;
pub mod libraries;
mod lines;
mod locate;
mod lombok;
pub mod page;
mod quick_fix;
pub mod registry;
pub mod resources;
mod spelling;
mod targets;
pub mod tool;
pub mod xref;

use std::path::Path;

/// Files larger than this are refused by default (`max_file_bytes` changes it).
pub(crate) const MAX_FILE_BYTES: u64 = mji_fs::DEFAULT_MAX_FILE_BYTES;

/// Why a tool call failed. Each message names what was wrong and how to fix it.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    #[error("file not found: {0}")]
    NotFound(String),
    /// A type, member or name that does not exist (the message says what exists instead).
    #[error("not found: {0}")]
    NoSuchSymbol(String),
    #[error("{path}: {reason}")]
    BadFile { path: String, reason: String },
    #[error("reading {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The editor is not reachable, refused, or failed (the message says how to fix it).
    #[error("{0}")]
    Editor(String),
    /// A program the call runs is not installed (the message names it and how to get it).
    #[error("{0}")]
    NotInstalled(String),
}

impl From<mji_xref::target::TargetError> for ToolError {
    fn from(e: mji_xref::target::TargetError) -> ToolError {
        use mji_xref::target::TargetError as E;
        match e {
            E::Invalid(m) => ToolError::InvalidArgument(m),
            E::NotFound(m) => ToolError::NoSuchSymbol(m),
            E::Io { path, source } => ToolError::Io { path, source },
        }
    }
}

impl From<mji_edit::EditError> for ToolError {
    fn from(e: mji_edit::EditError) -> ToolError {
        match e {
            mji_edit::EditError::Read(path, source) => ToolError::Io { path, source },
            mji_edit::EditError::NotUtf8(path) => ToolError::BadFile {
                path,
                reason: "is not UTF-8 text; edits are refused rather than re-encoding it".into(),
            },
            other => ToolError::InvalidArgument(other.to_string()),
        }
    }
}

impl From<mji_edit::actions::ActionError> for ToolError {
    fn from(e: mji_edit::actions::ActionError) -> ToolError {
        match e {
            mji_edit::actions::ActionError::Refused(why) => ToolError::InvalidArgument(why),
            mji_edit::actions::ActionError::NotFound(what) => ToolError::NoSuchSymbol(what),
            mji_edit::actions::ActionError::Edit(e) => e.into(),
        }
    }
}

/// The checks every tool makes before reading: the file exists, is a regular file, is not huge.
pub fn read_file_checked(path: &Path, display: &str) -> Result<std::fs::Metadata, ToolError> {
    check_regular(path, display, MAX_FILE_BYTES)
}

/// [`read_file_checked`] with the workspace's cap on one file.
pub(crate) fn check_regular(path: &Path, display: &str, cap: u64) -> Result<std::fs::Metadata, ToolError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ToolError::NotFound(format!(
                "{display} (check the path; relative paths resolve against the workspace root)"
            )));
        }
        Err(e) => {
            return Err(ToolError::Io { path: display.to_owned(), source: e });
        }
    };
    if meta.is_dir() {
        return Err(ToolError::BadFile {
            path: display.to_owned(),
            reason: "is a directory, not a file (give a .java file)".to_owned(),
        });
    }
    if !meta.is_file() {
        return Err(ToolError::BadFile { path: display.to_owned(), reason: mji_fs::not_regular(&meta).to_string() });
    }
    if meta.len() > cap {
        return Err(ToolError::BadFile {
            path: display.to_owned(),
            reason: mji_fs::too_large(meta.len(), cap).to_string(),
        });
    }
    Ok(meta)
}

/// Reads a whole file after [`read_file_checked`] (a regular file, opened without blocking,
/// bounded by the default cap).
pub fn read_file(path: &Path, display: &str) -> Result<Vec<u8>, ToolError> {
    read_file_checked(path, display)?;
    mji_fs::read_regular(path, MAX_FILE_BYTES).map_err(|e| io_error(display, e))
}

/// A read failure as a tool error: refusals (not regular, over the cap) say why.
pub(crate) fn io_error(display: &str, e: std::io::Error) -> ToolError {
    match e.kind() {
        std::io::ErrorKind::NotFound => ToolError::NotFound(display.to_owned()),
        std::io::ErrorKind::InvalidInput | std::io::ErrorKind::FileTooLarge => {
            let reason = e.to_string();
            let reason = reason.strip_prefix(&format!("reading {display}: ")).unwrap_or(&reason).to_owned();
            ToolError::BadFile { path: display.to_owned(), reason }
        }
        _ => ToolError::Io { path: display.to_owned(), source: e },
    }
}

/// A read under the roots' policy as a tool error.
pub(crate) fn read_error(e: mji_fs::roots::ReadError) -> ToolError {
    match e {
        mji_fs::roots::ReadError::Path(p) => ToolError::InvalidArgument(p.to_string()),
        mji_fs::roots::ReadError::Io(display, e) => io_error(&display, e),
    }
}

/// Refuses anything that is not a `.java` file.
pub fn require_java(path: &Path, display: &str) -> Result<(), ToolError> {
    let is_java = path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("java"));
    if is_java {
        Ok(())
    } else {
        Err(ToolError::BadFile { path: display.to_owned(), reason: "is not a .java file".to_owned() })
    }
}

/// [`require_java`], or a Kotlin source (`.kt`): the tools that outline and read declarations
/// (`java_index`, `java_read_range`, `java_read_javadoc`) read both.
pub fn require_source(path: &Path, display: &str) -> Result<(), ToolError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext.eq_ignore_ascii_case("java") || ext == "kt" {
        Ok(())
    } else {
        Err(ToolError::BadFile { path: display.to_owned(), reason: "is not a .java or .kt file".to_owned() })
    }
}

/// Cuts a string to at most `max` chars on a char boundary; returns whether it was cut.
pub(crate) fn truncate_chars(s: &mut String, max: usize) -> bool {
    match s.char_indices().nth(max) {
        Some((i, _)) => {
            s.truncate(i);
            true
        }
        None => false,
    }
}

/// RFC 3339 UTC timestamp with milliseconds.
pub fn rfc3339(t: std::time::SystemTime) -> String {
    let d = t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_millis()
    )
}
