//! Library types for the tools: the library index of this workspace (the JDK's jmods, then
//! the configured classpath jars), `java_index` of a class name or a `jar:` path (the source
//! file from a `-sources.jar` or the JDK's `src.zip` with exact lines, else the class file, in
//! Kotlin's view when it was compiled from Kotlin), and reading inside a sources archive. Only archives the index knows are ever opened: a
//! `jar:` path names one of them or is refused.

use std::path::{Path, PathBuf};

use mji_classfile::library::{LibraryIndex, Origin};
use mji_classfile::{Archive, LibraryClass};
use mji_model::FileOutline;

use crate::ToolError;
use crate::host::Host;

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
pub fn outline(ws: &Host, t: &LibraryTarget) -> Result<FileOutline, ToolError> {
    let ix = ws.libraries();
    match t {
        LibraryTarget::Class(name) => {
            let c = ix.get(name).ok_or_else(|| {
                ToolError::NoSuchSymbol(format!(
                    "no type `{name}` in the workspace's libraries ({} archives: the JDK's jmods and the configured classpath jars)",
                    ix.archives.len()
                ))
            })?;
            if let Some((sources, entry)) = source_entry(&ix, c)
                && let Ok(o) = source_outline(&sources, &entry, ix.max_entries)
            {
                return Ok(o);
            }
            let path = ix.archive_of(c).path.clone();
            if let Some(o) = decompiled_outline(ws, &path, top_level(&c.internal)) {
                return Ok(o);
            }
            let mut a = Archive::open(&path, ix.max_entries).map_err(|e| lib_err(&path.display().to_string(), e))?;
            mji_classfile::outline_class_as_declared(&mut a, top_level(&c.internal)).map_err(|e| lib_err(name, e))
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
                source_outline(&path, entry, ix.max_entries)
            } else if let Some(internal) = entry.strip_suffix(".class") {
                let mut a = Archive::open(&path, ix.max_entries).map_err(|e| lib_err(&shown, e))?;
                let internal = internal.strip_prefix(a.class_prefix()).unwrap_or(internal).to_owned();
                if let Some(o) = decompiled_outline(ws, &path, &internal) {
                    return Ok(o);
                }
                mji_classfile::outline_class_as_declared(&mut a, &internal).map_err(|e| lib_err(&shown, e))
            } else {
                Err(ToolError::InvalidArgument(format!("{shown}: name a .java or .class entry")))
            }
        }
    }
}

/// Whether `path` names a class file (`.class`, any case).
pub fn is_class_file(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("class"))
}

/// `java_index` of a loose class file of the workspace (`target/classes/demo/Greeter.class`),
/// already resolved and checked by the path policy: its outline in the shape of a jar entry's,
/// member classes read from their own class files beside it (`Greeter$Inner.class`), each
/// through the same policy (inside a root, regular, size-capped).
pub fn class_file_outline(ws: &Host, path: &Path, display: &str) -> Result<FileOutline, ToolError> {
    let bytes = ws.roots().read(path, display).map_err(crate::read_error)?;
    let cf = mji_classfile::parse(&bytes).map_err(|e| ToolError::BadFile {
        path: display.to_owned(),
        reason: format!("is not a readable class file ({e})"),
    })?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let package = cf.this_class.rfind('/').map_or("", |i| &cf.this_class[..=i]).to_owned();
    let mut load = |internal: &str| {
        // A member class of the same package only, as a file beside this one.
        let simple = internal.strip_prefix(package.as_str())?;
        if simple.contains('/') || simple.is_empty() {
            return None;
        }
        let p = dir.join(format!("{simple}.class"));
        ws.roots().read(&p, &p.display().to_string()).ok()
    };
    let mut outline =
        mji_classfile::outline::outline(display.to_owned(), mji_classfile::sha1_hex(&bytes), &cf, &mut load);
    // Compiled from Kotlin: Kotlin's view (a multi-file facade's parts are classes beside it).
    mji_classfile::outline::kotlin_view(&mut outline, &cf, &mut load);
    Ok(outline)
}

/// The bytes of a `.java` entry of a known sources archive, with its display path; for a
/// `.class` entry, its decompiled text (see [`decompile`]).
pub fn source_bytes(ws: &Host, archive: &Path, entry: &str) -> Result<(Vec<u8>, String), ToolError> {
    let ix = ws.libraries();
    let (path, _, _) = known_archive(&ix, archive).ok_or_else(|| {
        ToolError::InvalidArgument(format!("{} is not a library archive of this workspace", archive.display()))
    })?;
    if let Some(internal) = entry.strip_suffix(".class") {
        let shown = format!("jar:{}!/{entry}", path.display());
        let internal = internal.strip_prefix("classes/").unwrap_or(internal);
        return match decompile(ws, &path, internal)? {
            Some(text) => Ok((text.into_bytes(), shown)),
            None => Err(ToolError::InvalidArgument(format!(
                "{shown} is a class file: without sources it is read decompiled, which needs `procyon` (Debian's procyon-decompiler) on PATH and a trusted workspace; java_index outlines it"
            ))),
        };
    }
    read_entry(&path, entry, ix.max_entries)
}

/// What marks an outline read from decompiled code.
pub const DECOMPILED: &str = "decompiled by procyon from the class file (no sources): lines are the decompiled text's, which java_read_range reads at this filePath";

/// The outline of `internal`'s decompiled text, when it can be decompiled ([`decompile`]).
fn decompiled_outline(ws: &Host, archive: &Path, internal: &str) -> Option<FileOutline> {
    let text = decompile(ws, archive, internal).ok()??;
    let a = Archive::open(archive, ws.max_archive_entries()).ok()?;
    let shown = format!("jar:{}!/{}{internal}.class", archive.display(), a.class_prefix());
    let mut o = mji_parser::outline(&shown, text.as_bytes());
    o.errors.insert(
        0,
        mji_model::Diagnostic { level: mji_model::Level::Warning, message: DECOMPILED.to_owned(), line: None },
    );
    Some(o)
}

/// `internal` (a top-level class of `archive`) decompiled by Procyon
/// ([`mji_classfile::decompile`]) — a program run on a jar of the classpath, so only in a
/// trusted workspace. `None` when the workspace is not trusted or `procyon` is not on PATH.
pub fn decompile(ws: &Host, archive: &Path, internal: &str) -> Result<Option<String>, ToolError> {
    use mji_classfile::decompile::{self, DecompileError};
    if !ws.config().trusted {
        return Ok(None);
    }
    let Some(procyon) = ws
        .config()
        .jdk_env
        .path
        .as_deref()
        .into_iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join("procyon"))
        .find(|p| p.is_file())
    else {
        return Ok(None);
    };
    let cache = mji_fs::provenance::user_cache_dir().map(|d| d.join("libraries").join("decompiled"));
    match decompile::decompile(&procyon, archive, internal, ws.max_archive_entries(), cache.as_deref()) {
        Ok(text) => Ok(Some(text)),
        Err(DecompileError::NotFound(shown)) => Err(ToolError::NotFound(shown)),
        Err(DecompileError::Failed { shown, reason }) => Err(lib_err(&shown, reason)),
    }
}

fn read_entry(archive: &Path, entry: &str, max_entries: usize) -> Result<(Vec<u8>, String), ToolError> {
    let shown = format!("jar:{}!/{entry}", archive.display());
    let mut a = Archive::open(archive, max_entries).map_err(|e| lib_err(&shown, e))?;
    let bytes =
        a.read_named(entry).map_err(|e| lib_err(&shown, e))?.ok_or_else(|| ToolError::NotFound(shown.clone()))?;
    Ok((bytes, shown))
}

/// The outline of a source file inside an archive: the parser's, exact lines.
fn source_outline(archive: &Path, entry: &str, max_entries: usize) -> Result<FileOutline, ToolError> {
    let (bytes, shown) = read_entry(archive, entry, max_entries)?;
    Ok(mji_parser::outline(&shown, &bytes))
}

/// The declaration of the library type `fqn` (nested types too) with every type text
/// qualified, as its class file gives it; parameter names from its sources when the library
/// has them (class files seldom do). `None` when no archive of the index holds it.
pub(crate) fn qualified_decl(ws: &Host, fqn: &str) -> Option<mji_model::TypeDecl> {
    let ix = ws.libraries();
    let c = ix.get(fqn)?;
    let mut a = Archive::open(&ix.archive_of(c).path, ix.max_entries).ok()?;
    let outline = mji_classfile::outline_class(&mut a, top_level(&c.internal)).ok()?;
    let mut decl = find_decl(&outline.classes, fqn)?.clone();
    if let Some((sources, entry)) = source_entry(&ix, c)
        && let Ok(src) = source_outline(&sources, &entry, ix.max_entries)
        && let Some(s) = find_decl(&src.classes, fqn)
    {
        for m in &mut decl.methods {
            // The source method of the same name and parameter types (by simple name).
            let simple = |t: &str| {
                let t = t.split('<').next().unwrap_or(t).replace("...", "[]");
                t.rsplit('.').next().unwrap_or(&t).trim().to_owned()
            };
            let want: Vec<String> = m.params.iter().map(|p| simple(&p.type_text)).collect();
            let same = |x: &&mji_model::MethodDecl| {
                x.name == m.name && x.params.iter().map(|p| simple(&p.type_text)).eq(want.iter().cloned())
            };
            if let Some(sm) = s.methods.iter().find(same) {
                for (p, sp) in m.params.iter_mut().zip(&sm.params) {
                    p.name = sp.name.clone();
                }
            }
        }
    }
    Some(decl)
}

fn find_decl<'a>(types: &'a [mji_model::TypeDecl], fqn: &str) -> Option<&'a mji_model::TypeDecl> {
    types.iter().find_map(|t| if t.qualified_name == fqn { Some(t) } else { find_decl(&t.inner_classes, fqn) })
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
pub fn type_source(ws: &Host, fqn: &str) -> TypeSource {
    let ix = ws.libraries();
    let Some(c) = ix.get(fqn) else { return TypeSource::Absent };
    let Some((sources, entry)) = source_entry(&ix, c) else { return TypeSource::NoSource };
    let Ok((bytes, shown)) = read_entry(&sources, &entry, ix.max_entries) else { return TypeSource::NoSource };
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
