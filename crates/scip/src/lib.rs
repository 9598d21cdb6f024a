//! The workspace's reference index exported as a SCIP index (Sourcegraph's code-intelligence
//! format), with the symbols scip-java writes, so the two interoperate.
//!
//! [`symbols`] turns the engine's keys into scip-java's symbols, [`document`] makes one SCIP
//! document of a Java file (declarations and locals from its syntax, references from the
//! reference index), [`kotlin`] one of a Kotlin file (its declarations in their JVM view, the
//! Kotlin binder's references), and [`Exporter`] assembles the index, re-encoding only the files whose stamp or
//! world changed since its last export.

pub mod document;
pub mod kotlin;
pub mod libraries;
pub mod symbols;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use mji_xref::decls::FileDecls;
use mji_xref::engine::{FileStamp, XrefEngine, same_shape};
use mji_xref::world::World;
use protobuf::Message;
use rayon::prelude::*;
use scip::types::{Document, Index, Metadata, TextEncoding, ToolInfo};

/// The protocol's own bindings, for readers of an exported index.
pub use scip as protocol;
pub use symbols::Coordinates;

/// What an export is told.
#[derive(Debug, Clone, Default)]
pub struct ExportOptions {
    /// The project root the documents' paths are relative to (also `Metadata.project_root`).
    pub project_root: PathBuf,
    /// The workspace's own coordinates (`. .` when the build does not say them).
    pub workspace: Coordinates,
    /// The build's modules with coordinates of their own, by directory: a workspace type
    /// declared under one (the deepest) carries its coordinates instead of `workspace`'s.
    pub modules: Vec<(PathBuf, Coordinates)>,
    /// The JDK's version in `jdk <version>` symbols.
    pub jdk_version: String,
    /// The tool's version for `ToolInfo`.
    pub tool_version: String,
    /// The classpath's archives, in order: a library type's symbol carries the coordinates of
    /// the first that holds it.
    pub classpath: Vec<PathBuf>,
    /// Maven repository roots a classpath archive's path may be under (its coordinates then
    /// read from the path when the archive has no `pom.properties`).
    pub maven_repos: Vec<PathBuf>,
    /// The most entries listed per archive (0: `mji_classfile`'s default).
    pub max_archive_entries: usize,
}

/// How an export went.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportStats {
    pub documents: usize,
    /// Documents encoded by this export (the rest came from the exporter's cache).
    pub encoded: usize,
    pub occurrences: usize,
    pub symbols: usize,
    /// Files that could not be read (skipped).
    pub skipped: usize,
    /// The Kotlin documents' `likely` references, left out (as the Java documents' are).
    pub kotlin_likely: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("encoding the SCIP index: {0}")]
    Encode(String),
    #[error("writing {path}: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// A cached document: valid for the file's stamp while the world declares the same.
struct Cached {
    stamp: mji_fs::stamp::Stamp,
    doc: Arc<Encoded>,
}

/// One document as protobuf bytes, with its counts.
struct Encoded {
    bytes: Vec<u8>,
    occurrences: usize,
    symbols: usize,
    /// `likely` references left out (counted for Kotlin documents).
    likely: usize,
}

/// The declarations the cached documents were encoded under.
type Declared = (u64, HashMap<Arc<Path>, Arc<FileDecls>>);

/// What the cached documents depend on beside the files: root, coordinates, JDK version and
/// the classpath's archives with their stamps.
type Made = (PathBuf, Coordinates, Vec<(PathBuf, Coordinates)>, String, Vec<(PathBuf, Option<mji_fs::stamp::Stamp>)>);

/// Exports one workspace, keeping each encoded document for the next export.
#[derive(Default)]
pub struct Exporter {
    cache: Mutex<HashMap<Arc<Path>, Cached>>,
    /// The options the cache was made with (other options, or a changed archive, empty it).
    made_with: Mutex<Option<Made>>,
    /// The classpath's archives as read.
    archives: libraries::ArchiveCache,
    /// Each workspace method's overriders by key, made when a document is encoded and kept
    /// while the kept documents are (it depends on the declarations alone).
    overriders: Mutex<Option<Arc<symbols::Overriders>>>,
    /// The world's shape and declarations at the last export.
    declared: Mutex<Option<Declared>>,
}

impl Exporter {
    pub fn new() -> Exporter {
        Exporter::default()
    }

    /// The SCIP index of `files`, as protobuf bytes, from the engine's reference index (a file
    /// whose references are not kept is bound now, and kept). Unreadable files are skipped
    /// and counted. `None` when `stop` said so midway (what was encoded stays kept).
    pub fn export(
        &self,
        engine: &XrefEngine,
        world: &World,
        files: &[FileStamp],
        opts: &ExportOptions,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<(Vec<u8>, ExportStats)> {
        let made = (
            opts.project_root.clone(),
            opts.workspace.clone(),
            opts.modules.clone(),
            opts.jdk_version.clone(),
            libraries::ArchiveCache::key(&opts.classpath),
        );
        if let Ok(mut m) = self.made_with.lock()
            && m.as_ref() != Some(&made)
        {
            *m = Some(made);
            if let Ok(mut c) = self.cache.lock() {
                c.clear();
            }
            if let Ok(mut o) = self.overriders.lock() {
                *o = None;
            }
        }
        // A document names other files' declarations (overload suffixes, nesting): kept
        // documents serve only while every file declares the same (lines aside), which a
        // body edit leaves so.
        let now: HashMap<Arc<Path>, Arc<FileDecls>> =
            world.files.iter().map(|f| (f.path.clone(), f.decls().clone())).collect();
        if let Ok(mut last) = self.declared.lock() {
            let same = last.as_ref().is_some_and(|(shape, old)| {
                *shape == world.shape
                    || (old.len() == now.len()
                        && now.iter().all(|(p, d)| old.get(p).is_some_and(|o| Arc::ptr_eq(o, d) || same_shape(o, d))))
            });
            if !same {
                if let Ok(mut c) = self.cache.lock() {
                    c.clear();
                }
                if let Ok(mut o) = self.overriders.lock() {
                    *o = None;
                }
            }
            *last = Some((world.shape, now));
        }
        let max_entries = if opts.max_archive_entries == 0 {
            mji_classfile::archive::DEFAULT_MAX_ENTRIES
        } else {
            opts.max_archive_entries
        };
        let packages = self.archives.packages(&opts.classpath, &opts.maven_repos, max_entries);
        let cached = |f: &FileStamp| -> Option<Arc<Encoded>> {
            let c = self.cache.lock().ok()?;
            let e = c.get(&f.path)?;
            (e.stamp == f.stamp).then(|| e.doc.clone())
        };
        // scip-java's inverse relationships (a method's overriders) need every file's
        // declarations: found once, when some document is encoded again.
        let overriders = match self.overriders.lock() {
            Ok(mut o) => match &*o {
                Some(x) => x.clone(),
                None if files.iter().all(|f| cached(f).is_some()) => Arc::default(),
                None => {
                    let x = Arc::new(symbols::Overriders::of(world));
                    *o = Some(x.clone());
                    x
                }
            },
            Err(_) => Arc::new(symbols::Overriders::of(world)),
        };
        let sy = symbols::Symbols::new(world, opts.workspace.clone(), &opts.jdk_version)
            .with_libraries(Arc::new(packages))
            .with_overriders(overriders)
            .with_modules(&opts.modules);
        // The call's progress (MCP `notifications/progress`, the CLI's stderr line): documents
        // done of all, kept ones counted as they are copied.
        let counter = mji_model::progress::Progress::counter(files.len(), "SCIP documents");
        let docs: Vec<Option<(Arc<Encoded>, bool)>> = files
            .par_iter()
            .map(|f| {
                mji_model::progress::tick(&counter);
                if let Some(d) = cached(f) {
                    return Some((d, false));
                }
                if stop() {
                    return None;
                }
                let (d, likely) = encode_file(engine, world, &sy, &f.path, &opts.project_root)?;
                let doc = Arc::new(Encoded {
                    bytes: d.write_to_bytes().ok()?,
                    occurrences: d.occurrences.len(),
                    symbols: d.symbols.len(),
                    likely,
                });
                if let Ok(mut c) = self.cache.lock() {
                    c.insert(f.path.clone(), Cached { stamp: f.stamp, doc: doc.clone() });
                }
                Some((doc, true))
            })
            .collect();
        if stop() {
            return None;
        }
        let mut stats = ExportStats::default();
        let index = Index {
            metadata: Some(Metadata {
                tool_info: Some(ToolInfo {
                    name: "mcp-java-index".into(),
                    version: opts.tool_version.clone(),
                    ..Default::default()
                })
                .into(),
                project_root: file_uri(&opts.project_root),
                text_document_encoding: TextEncoding::UTF8.into(),
                ..Default::default()
            })
            .into(),
            ..Default::default()
        };
        // The index's bytes: its metadata, then each document as field 2 (length-delimited),
        // the encoded documents copied as they are.
        let mut bytes = index.write_to_bytes().unwrap_or_default();
        for d in docs {
            match d {
                Some((doc, fresh)) => {
                    stats.documents += 1;
                    stats.encoded += usize::from(fresh);
                    stats.occurrences += doc.occurrences;
                    stats.symbols += doc.symbols;
                    stats.kotlin_likely += doc.likely;
                    bytes.push(0x12);
                    let mut n = doc.bytes.len() as u64;
                    while n >= 0x80 {
                        bytes.push((n as u8) | 0x80);
                        n >>= 7;
                    }
                    bytes.push(n as u8);
                    bytes.extend_from_slice(&doc.bytes);
                }
                None => stats.skipped += 1,
            }
        }
        if let Ok(mut c) = self.cache.lock() {
            let live: std::collections::HashSet<&Arc<Path>> = files.iter().map(|f| &f.path).collect();
            c.retain(|p, _| live.contains(p));
        }
        Some((bytes, stats))
    }
}

fn encode_file(
    engine: &XrefEngine,
    world: &World,
    sy: &symbols::Symbols,
    path: &Arc<Path>,
    root: &Path,
) -> Option<(Document, usize)> {
    let bytes = mji_fs::read_regular(path, mji_fs::DEFAULT_MAX_FILE_BYTES).ok()?;
    let refs = engine.refs_in(world, path, &bytes);
    let src = mji_parser::SourceText::decode(&bytes);
    let fi = mji_xref::engine::file_index(world, path);
    let empty = mji_xref::decls::FileDecls::default();
    let decls = world.files.get(fi as usize).map(|f| &**f.decls()).unwrap_or(&empty);
    let rel = path.strip_prefix(root).unwrap_or(path);
    let relative_path = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
    if mji_xref::kotlin::is_kotlin(path) {
        let input = kotlin::KotlinInput { relative_path, text: &src.text, refs: &refs, decls, file: fi };
        return Some(kotlin::encode(sy, &input));
    }
    let lombok = engine.lombok_config(path);
    let input = document::FileInput { relative_path, text: &src.text, refs: &refs, decls, lombok };
    Some((document::encode(sy, &input), 0))
}

/// `file:///abs/path` of a directory.
fn file_uri(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    if s.starts_with('/') { format!("file://{s}") } else { format!("file:///{s}") }
}

/// An index's protobuf bytes (for indexes built by hand, as the tests' estimates).
pub fn to_bytes(index: &Index) -> Result<Vec<u8>, ExportError> {
    index.write_to_bytes().map_err(|e| ExportError::Encode(e.to_string()))
}

/// Reads an index back (for tests and tools that check a written file).
pub fn from_bytes(bytes: &[u8]) -> Result<Index, ExportError> {
    Index::parse_from_bytes(bytes).map_err(|e| ExportError::Encode(e.to_string()))
}

/// Writes an index's bytes to `rel` below `anchor` (a root, or the directory of a path the
/// user typed) through [`mji_fs::write`]: no link below the anchor followed, the target never a
/// link, the temporary file new under a random name. Returns the bytes written.
pub fn write(bytes: &[u8], anchor: &Path, rel: &Path) -> Result<u64, ExportError> {
    let path = anchor.join(rel);
    mji_fs::write::write_below(anchor, rel, bytes, mji_fs::write::Options { create_dirs: false, ..Default::default() })
        .map_err(|source| ExportError::Write { path, source })?;
    Ok(bytes.len() as u64)
}

/// Whether a symbol parses with the `scip` crate's parser and formats back the same.
pub fn symbol_is_valid(s: &str) -> bool {
    if s.starts_with("local ") {
        return scip::symbol::try_parse_local_symbol(s).is_ok_and(|x| x.is_some());
    }
    scip::symbol::parse_symbol(s).is_ok_and(|p| scip::symbol::format_symbol(p) == s)
}
