//! Library types for the tools: the library index of this workspace (the JDK's jmods, then
//! the configured classpath jars), `java_index` of a class name or a `jar:` path (the source
//! file from a `-sources.jar` or the JDK's `src.zip` with exact lines, else the class file),
//! and reading inside a sources archive. Only archives the index knows are ever opened: a
//! `jar:` path names one of them or is refused.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use mji_classfile::library::{self, LibraryIndex, Origin};
use mji_classfile::{Archive, LibraryClass};
use mji_model::FileOutline;

use crate::ToolError;
use crate::workspace::Workspace;

/// The library index of `ws`, built on first use (cached per archive in the user cache dir).
pub fn index(ws: &Workspace) -> Arc<LibraryIndex> {
    ws.libraries
        .get_or_init(|| {
            let mut archives: Vec<(PathBuf, Origin)> = Vec::new();
            let home = library::find_jdk_home(
                std::env::var_os("JAVA_HOME").as_deref().map(Path::new),
                std::env::var_os("PATH").as_deref(),
            );
            if let Some(h) = &home {
                archives.extend(library::jdk_jmods(h).into_iter().map(|p| (p, Origin::Jdk)));
            }
            for p in &ws.config.classpath {
                if p.extension().is_some_and(|x| x == "jar") && p.is_file() {
                    archives.push((p.clone(), Origin::Classpath));
                }
            }
            let cache = mji_fs::trust::user_cache_dir().map(|d| d.join("libraries"));
            Arc::new(LibraryIndex::build(&archives, cache.as_deref()))
        })
        .clone()
}

/// What a `java_index` `filePath` names outside the workspace, if anything.
pub enum LibraryTarget {
    /// `jar:<archive>!/<entry>`.
    Jar { archive: PathBuf, entry: String },
    /// A qualified class name: `java.util.HashMap`.
    Class(String),
}

/// Reads `filePath` as a library target: a `jar:` path, or a qualified class name (dotted
/// identifiers, not a file name).
pub fn target(file_path: &str) -> Option<LibraryTarget> {
    if let Some(rest) = file_path.strip_prefix("jar:") {
        let rest = rest.strip_prefix("file://").unwrap_or(rest);
        let (archive, entry) = rest.split_once("!/")?;
        return Some(LibraryTarget::Jar { archive: PathBuf::from(archive), entry: entry.to_owned() });
    }
    let ident = |s: &str| {
        !s.is_empty()
            && s.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    };
    let parts: Vec<&str> = file_path.split('.').collect();
    let looks_like_class = parts.len() >= 2
        && parts.iter().all(|p| ident(p))
        && !matches!(parts.last(), Some(&"java") | Some(&"class"))
        && parts.last().is_some_and(|l| l.starts_with(char::is_uppercase));
    looks_like_class.then(|| LibraryTarget::Class(file_path.to_owned()))
}

/// The archives a `jar:` path may name: the indexed ones and their sources archives.
fn known_archive(ix: &LibraryIndex, path: &Path) -> Option<(PathBuf, Origin, bool)> {
    let canon = std::fs::canonicalize(path).ok()?;
    ix.archives.iter().find_map(|a| {
        let same = |p: &Path| std::fs::canonicalize(p).ok().is_some_and(|c| c == canon);
        if same(&a.path) {
            Some((a.path.clone(), a.origin, false))
        } else if a.sources.as_deref().is_some_and(same) {
            a.sources.clone().map(|s| (s, a.origin, true))
        } else {
            None
        }
    })
}

fn lib_err(what: &str, e: impl std::fmt::Display) -> ToolError {
    ToolError::BadFile { path: what.to_owned(), reason: e.to_string() }
}

/// The top-level class that holds `c` (`java/util/Map$Entry` -> `java/util/Map`).
fn top_level(internal: &str) -> &str {
    let file = internal.rfind('/').map_or(0, |i| i + 1);
    match internal[file..].find('$') {
        Some(d) => &internal[..file + d],
        None => internal,
    }
}

/// The entry of `c`'s source file in its sources archive: `java.base/java/util/HashMap.java`
/// in the JDK's `src.zip` (by module), `java/util/HashMap.java` in a `-sources.jar`.
fn source_entry(ix: &LibraryIndex, c: &LibraryClass) -> Option<(PathBuf, String)> {
    let a = ix.archive_of(c);
    let sources = a.sources.clone()?;
    let rel = format!("{}.java", top_level(&c.internal));
    let entry = match a.origin {
        Origin::Jdk => {
            let module = a.path.file_name()?.to_str()?.strip_suffix(".jmod")?;
            format!("{module}/{rel}")
        }
        Origin::Classpath => rel,
    };
    Some((sources, entry))
}

/// `java_index` of a library target: the outline and whether it came from a source file.
pub fn outline(ws: &Workspace, t: &LibraryTarget) -> Result<FileOutline, ToolError> {
    let ix = index(ws);
    match t {
        LibraryTarget::Class(name) => {
            let c = ix.get(name).ok_or_else(|| {
                ToolError::NoSuchSymbol(format!(
                    "no type `{name}` in the workspace's libraries ({} archives: the JDK's jmods and the configured classpath jars)",
                    ix.archives.len()
                ))
            })?;
            if let Some((sources, entry)) = source_entry(&ix, c)
                && let Ok(o) = source_outline(&sources, &entry)
            {
                return Ok(o);
            }
            let path = ix.archive_of(c).path.clone();
            let mut a = Archive::open(&path).map_err(|e| lib_err(&path.display().to_string(), e))?;
            mji_classfile::outline_class(&mut a, top_level(&c.internal)).map_err(|e| lib_err(name, e))
        }
        LibraryTarget::Jar { archive, entry } => {
            let shown = format!("jar:{}!/{entry}", archive.display());
            let (path, _, _) = known_archive(&ix, archive).ok_or_else(|| {
                ToolError::InvalidArgument(format!(
                    "{} is not a library archive of this workspace (the JDK's jmods and src.zip, the configured classpath jars and their -sources.jar)",
                    archive.display()
                ))
            })?;
            if entry.ends_with(".java") {
                source_outline(&path, entry)
            } else if let Some(internal) = entry.strip_suffix(".class") {
                let mut a = Archive::open(&path).map_err(|e| lib_err(&shown, e))?;
                let internal = internal.strip_prefix(a.class_prefix()).unwrap_or(internal).to_owned();
                mji_classfile::outline_class(&mut a, &internal).map_err(|e| lib_err(&shown, e))
            } else {
                Err(ToolError::InvalidArgument(format!("{shown}: name a .java or .class entry")))
            }
        }
    }
}

/// The bytes of a `.java` entry of a known sources archive, with its display path.
pub fn source_bytes(ws: &Workspace, archive: &Path, entry: &str) -> Result<(Vec<u8>, String), ToolError> {
    let ix = index(ws);
    let (path, _, _) = known_archive(&ix, archive).ok_or_else(|| {
        ToolError::InvalidArgument(format!("{} is not a library archive of this workspace", archive.display()))
    })?;
    read_entry(&path, entry)
}

fn read_entry(archive: &Path, entry: &str) -> Result<(Vec<u8>, String), ToolError> {
    let shown = format!("jar:{}!/{entry}", archive.display());
    let mut a = Archive::open(archive).map_err(|e| lib_err(&shown, e))?;
    let bytes =
        a.read_named(entry).map_err(|e| lib_err(&shown, e))?.ok_or_else(|| ToolError::NotFound(shown.clone()))?;
    Ok((bytes, shown))
}

/// The outline of a source file inside an archive: the parser's, exact lines.
fn source_outline(archive: &Path, entry: &str) -> Result<FileOutline, ToolError> {
    let (bytes, shown) = read_entry(archive, entry)?;
    Ok(mji_parser::outline(&shown, &bytes))
}

/// What the libraries hold of a type (for a `java-type://` read).
pub enum TypeSource {
    /// No library has it.
    Absent,
    /// A library has it, without a sources archive that declares it.
    NoSource,
    /// Its declaration: the archive entry as shown (`jar:…!/…`), its first and last line, and
    /// those lines.
    Lines { shown: String, first: u32, last: u32, text: String },
}

/// A library type's declaration in its sources archive (the JDK's `src.zip`, a `-sources.jar`).
pub fn type_source(ws: &Workspace, fqn: &str) -> TypeSource {
    let ix = index(ws);
    let Some(c) = ix.get(fqn) else { return TypeSource::Absent };
    let Some((sources, entry)) = source_entry(&ix, c) else { return TypeSource::NoSource };
    let Ok((bytes, shown)) = read_entry(&sources, &entry) else { return TypeSource::NoSource };
    let outline = mji_parser::outline(&shown, &bytes);
    fn find<'a>(types: &'a [mji_model::TypeDecl], fqn: &str) -> Option<&'a mji_model::TypeDecl> {
        types.iter().find_map(|t| if t.qualified_name == fqn { Some(t) } else { find(&t.inner_classes, fqn) })
    }
    let Some(t) = find(&outline.classes, fqn) else { return TypeSource::NoSource };
    let (first, last) = (t.start_line.max(1), t.end_line);
    let decoded = mji_parser::SourceText::decode(&bytes).text;
    let lines: Vec<&str> =
        decoded.lines().skip(first as usize - 1).take((last + 1).saturating_sub(first) as usize).collect();
    TypeSource::Lines { shown, first, last, text: lines.join("\n") }
}
