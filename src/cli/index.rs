//! `index` (a workspace's index, or outlines of files), `cache` (its cache) and the hidden
//! `tree` (tree-sitter's syntax tree, for debugging the parser).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use rayon::prelude::*;

use super::progress::with_progress;
use super::{WorkspaceFlags, display, flushed, init_logging, print_json};
use crate::model::OutlineOptions;
use crate::tools::host::Host;
use crate::tools::tool::java_index::{OutlineQuery, apply_options};
use crate::tools::{ToolError, require_source};

#[derive(Debug, Args)]
pub struct IndexArgs {
    /// .java files or directories (walked recursively, skipping ignored and build directories)
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub options: IndexFlags,
    /// Print one-line JSON even for a single file
    #[arg(long)]
    pub compact: bool,
    /// Print a JSON summary (files, parsed, cacheHits, cacheMisses, errors, elapsedMs) as the
    /// last line on stderr
    #[arg(long)]
    pub stats: bool,
    /// Print every file's outline (JSON Lines) for directories too, instead of indexing them
    /// (a full parse of every file: slower than the index)
    #[arg(long)]
    pub outlines: bool,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct IndexFlags {
    /// Include private members and nested types
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub include_private: bool,
    /// Include fields
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub include_fields: bool,
    /// Include nested types
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub include_inner_classes: bool,
    /// Include constructors
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub include_constructors: bool,
    /// Add javadoc previews cut to this many characters (0: none)
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub max_javadoc_preview_chars: u32,
    /// Stable symbolIds (false: short positional ids such as @3)
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub stable_ids: bool,
}

impl From<&IndexFlags> for OutlineQuery {
    fn from(f: &IndexFlags) -> Self {
        OutlineQuery {
            include_private: f.include_private,
            include_fields: f.include_fields,
            include_inner_classes: f.include_inner_classes,
            include_constructors: f.include_constructors,
            max_javadoc_preview_chars: f.max_javadoc_preview_chars,
            stable_ids: f.stable_ids,
            ..OutlineQuery::default()
        }
    }
}

/// Counts for `index --stats`.
#[derive(Debug, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct IndexStats {
    files: u64,
    parsed: u64,
    cache_hits: u64,
    cache_misses: u64,
    errors: u64,
    files_with_syntax_errors: u64,
    /// Directories named `target`, `build` or `out` left out as build output, per reason.
    skipped_dirs: crate::tools::find::SkippedDirsStatus,
    elapsed_ms: u64,
}

/// `index DIR...`: what the directories' workspace index holds and how it was built.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct WorkspaceSummary {
    /// The roots indexed (canonical).
    roots: Vec<PathBuf>,
    /// Java files indexed.
    files: u64,
    /// Types, methods, constructors and fields the index holds (what java_find_symbol searches).
    declarations: u64,
    /// Every file under the roots (what find_resource searches).
    resources: u64,
    /// Java files read and parsed: the snapshot had no entry for their stamp.
    parsed: u64,
    /// Java files taken from the snapshot without reading them.
    cache_hits: u64,
    /// Java files whose references are bound and kept, so `refs`, `callers`, `hierarchy` …
    /// read no source file for them (0 with `warm_references` off).
    bound_files: u64,
    cache_misses: u64,
    /// Files and directories that could not be read.
    errors: u64,
    /// Java files not indexed: over the size cap or not regular files.
    skipped_files: u64,
    /// Directories left out as build output, per reason.
    skipped_dirs: crate::tools::find::SkippedDirsStatus,
    /// Where the index is kept (none with --no-cache).
    cache_dirs: Vec<PathBuf>,
    elapsed_ms: u64,
}

/// Builds (or refreshes) the workspace index of `dirs` as `serve --root DIR...` would, writing
/// its snapshot to the roots' cache, and prints a summary.
fn index_workspace(mut args: IndexArgs, dirs: Vec<PathBuf>, started: std::time::Instant) -> anyhow::Result<ExitCode> {
    if args.ws.0.has("roots") {
        anyhow::bail!("`index DIR` indexes each DIR as a workspace root: drop --root (or pass --outlines)");
    }
    if OutlineOptions::from(&OutlineQuery::from(&args.options)) != OutlineOptions::default() {
        anyhow::bail!("the outline options apply to outlines: pass --outlines to print a directory's outlines");
    }
    args.ws.0.give("roots", dirs.iter().map(|d| d.to_string_lossy().into_owned()).collect());
    let config = args.ws.config()?;
    init_logging(&config.log_level);
    let ws = Host::open(config)?;
    for w in ws.warnings() {
        eprintln!("warning: {w}");
    }
    let pass = build_index(&ws);
    // A warm cache has every file's references bound, as a server keeps them: the reference
    // commands that follow then bind nothing (a command binds only the files it must read,
    // and a query for another name would read and bind others).
    if ws.config().warm_references {
        ws.index().set_one_shot();
        with_progress("binding references", &|| None, || ws.warm_references_now());
    }
    let code = flushed(&ws);
    let index = ws.index();
    let problems = index.problems();
    for p in &problems.samples {
        eprintln!("warning: {p}");
    }
    if problems.count > problems.samples.len() {
        eprintln!("warning: {} more file(s) or directories could not be read", problems.count - problems.samples.len());
    }
    let status = crate::tools::find::IndexStatus::of(index);
    let (files, declarations, resources) = index.counts();
    let roots = ws.roots().paths().to_vec();
    let summary = WorkspaceSummary {
        cache_dirs: (0..roots.len()).filter_map(|i| ws.cache(i).dir()).collect(),
        roots,
        files: files as u64,
        declarations: declarations as u64,
        resources: resources as u64,
        parsed: pass.parsed as u64,
        cache_hits: pass.from_snapshot as u64,
        bound_files: ws.xref_bound().0 as u64,
        cache_misses: pass.parsed as u64,
        errors: problems.count as u64,
        skipped_files: status.skipped_files,
        skipped_dirs: status.skipped_dirs,
        elapsed_ms: started.elapsed().as_millis() as u64,
    };
    print_json(&summary, args.compact)?;
    if args.stats {
        eprintln!("{}", serde_json::to_string(&summary)?);
    }
    Ok(code)
}

pub fn index(args: IndexArgs) -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    // A path that is not there is said so (a missing directory was "is not a .java file").
    if let Some(missing) = args.paths.iter().find(|p| std::fs::symlink_metadata(p).is_err()) {
        return Err(ToolError::NotFound(display(missing)).into());
    }
    // Directories are indexed as roots unless outlines are asked for.
    let dirs: Vec<PathBuf> = args.paths.iter().filter(|p| p.is_dir()).cloned().collect();
    if !args.outlines && !dirs.is_empty() {
        if let Some(file) = args.paths.iter().find(|p| !p.is_dir()) {
            anyhow::bail!(
                "{} is not a directory: `index DIR` indexes directories; pass --outlines to print the outlines of files and directories together",
                display(file)
            );
        }
        return index_workspace(args, dirs, started);
    }
    let config = args.ws.config()?;
    init_logging(&config.log_level);
    let ws = Host::open(config)?;
    for w in ws.warnings() {
        eprintln!("warning: {w}");
    }
    let cache = ws.cache(0);
    let opts = OutlineOptions::from(&OutlineQuery::from(&args.options));
    let defaults = opts == OutlineOptions::default();
    // One outline as JSON: the cached JSON itself when the options are the defaults.
    let one = |path: &Path, d: &str| -> Result<(String, crate::cache::Outcome), ToolError> {
        let io = |e: std::io::Error| ToolError::Io { path: d.to_owned(), source: e };
        if defaults {
            return cache.outline_json(path, d).map_err(io);
        }
        let (outline, outcome) = if opts.max_javadoc_preview_chars > 0 {
            let (c, src) = cache.outline_with_source(path, d).map_err(io)?;
            (apply_options(c.outline, &opts, Some(&src)), c.outcome)
        } else {
            let c = cache.outline(path, d).map_err(io)?;
            (apply_options(c.outline, &opts, None), c.outcome)
        };
        let json =
            serde_json::to_string(&outline).map_err(|e| ToolError::InvalidArgument(format!("serializing: {e}")))?;
        Ok((json, outcome))
    };
    let mut stats = IndexStats::default();
    let count = |outcome: crate::cache::Outcome, json: &str, stats: &mut IndexStats| {
        stats.files += 1;
        match outcome {
            crate::cache::Outcome::Hit => stats.cache_hits += 1,
            crate::cache::Outcome::Miss => {
                stats.cache_misses += 1;
                stats.parsed += 1;
            }
        }
        if json.contains("\"level\":\"error\"") {
            stats.files_with_syntax_errors += 1;
        }
    };
    let finish = |stats: &mut IndexStats| {
        let code = flushed(&ws);
        if args.stats {
            stats.elapsed_ms = started.elapsed().as_millis() as u64;
            eprintln!("{}", serde_json::to_string(stats).unwrap_or_default());
        }
        code
    };
    // A single file argument prints one JSON document.
    if let [single] = args.paths.as_slice()
        && !single.is_dir()
    {
        let d = display(single);
        require_source(single, &d)?;
        crate::tools::read_file_checked(single, &d)?;
        let (json, outcome) = one(single, &d)?;
        count(outcome, &json, &mut stats);
        if args.compact {
            println!("{json}");
        } else {
            let v: serde_json::Value = serde_json::from_str(&json)?;
            print_json(&v, false)?;
        }
        return Ok(finish(&mut stats));
    }
    let mut files = Vec::new();
    for p in &args.paths {
        if !p.exists() {
            return Err(ToolError::NotFound(display(p)).into());
        }
        let walked = crate::fs::walk::java_files(p);
        for msg in &walked.problems {
            eprintln!("warning: {msg}");
        }
        stats.errors += walked.problems.len() as u64;
        let s = walked.skipped;
        if s.total() > 0 {
            eprintln!(
                "note: {} build-output director{} not indexed under {} (maven {}, gradle {}, ide {}, output markers {})",
                s.total(),
                if s.total() == 1 { "y" } else { "ies" },
                p.display(),
                s.maven,
                s.gradle,
                s.ide,
                s.markers
            );
        }
        let k = &mut stats.skipped_dirs;
        k.maven += s.maven as u64;
        k.gradle += s.gradle as u64;
        k.ide += s.ide as u64;
        k.markers += s.markers as u64;
        files.extend(walked.files);
    }
    files.sort();
    files.dedup();
    // In a terminal, past a second: how many outlines are out.
    let done = std::sync::atomic::AtomicUsize::new(0);
    let poll = || Some(format!("{} of {} files", done.load(std::sync::atomic::Ordering::Relaxed), files.len()));
    with_progress("outlines", &poll, || -> anyhow::Result<()> {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        for chunk in files.chunks(512) {
            let results: Vec<_> = chunk.par_iter().map(|f| one(f, &display(f))).collect();
            for r in results {
                match r {
                    Ok((json, outcome)) => {
                        count(outcome, &json, &mut stats);
                        out.write_all(json.as_bytes())?;
                        out.write_all(b"\n")?;
                    }
                    Err(e) => {
                        stats.errors += 1;
                        eprintln!("warning: skipped {e}");
                    }
                }
            }
            done.fetch_add(chunk.len(), std::sync::atomic::Ordering::Relaxed);
        }
        out.flush()?;
        Ok(())
    })?;
    if stats.errors > 0 {
        eprintln!("warning: {} file(s) or directories could not be read; see above", stats.errors);
    }
    Ok(finish(&mut stats))
}

/// Builds the workspace index on this thread; in a terminal, past a second, its progress on
/// stderr (the index's own counts, polled).
pub(crate) fn build_index(ws: &Host) -> crate::index::live::PassStats {
    let index = ws.index().clone();
    let poll = move || Some(indexing_message(&index.progress()));
    with_progress("indexing", &poll, || ws.build_index())
}

/// How far indexing got, in words.
fn indexing_message(p: &crate::index::live::Progress) -> String {
    if p.total == 0 {
        "walking the workspace roots".to_owned()
    } else {
        format!("{} of {} Java files", p.indexed, p.total)
    }
}

/// What `cache` does.
#[derive(Debug, Subcommand)]
pub enum CacheAction {
    /// Entries, size on disk and location of each root's cache.
    Stats,
    /// Remove every cached outline.
    Clear,
}

/// One root's cache as `cache stats` prints it: the cache's own figures, with `bytes` the size
/// of everything in its directory (outlines, the index snapshot, references, run logs), as
/// `du` counts it, and `outlineBytes` the outline database's share.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct CacheStats {
    #[serde(flatten)]
    info: crate::cache::CacheInfo,
    outline_bytes: u64,
}

/// Bytes of the regular files under `dir`, at any depth (links are not followed).
pub(crate) fn size_on_disk(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(e.path()),
                Ok(t) if t.is_file() => total += e.metadata().map(|m| m.len()).unwrap_or(0),
                _ => {}
            }
        }
    }
    total
}

/// `cache stats` and `cache clear`.
pub fn cache(action: CacheAction, ws: WorkspaceFlags) -> anyhow::Result<ExitCode> {
    let config = ws.config()?;
    let workspace = Host::open(config)?;
    for w in workspace.warnings() {
        eprintln!("warning: {w}");
    }
    let n = workspace.roots().paths().len();
    match action {
        CacheAction::Stats => {
            let stats: Vec<CacheStats> = (0..n)
                .map(|i| {
                    let mut info = workspace.cache(i).info();
                    let outline_bytes = info.bytes;
                    if let Some(dir) = &info.dir {
                        info.bytes = size_on_disk(dir);
                    }
                    CacheStats { info, outline_bytes }
                })
                .collect();
            print_json(&stats, false)?;
        }
        CacheAction::Clear => {
            for i in 0..n {
                workspace.cache(i).clear()?;
            }
            eprintln!("cleared {n} cache(s)");
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Debug, Args)]
pub struct TreeArgs {
    pub file: PathBuf,
    /// Deepest level printed
    #[arg(long, default_value_t = 6)]
    pub depth: usize,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

/// `tree FILE`: tree-sitter's syntax tree with 1-based lines; the file is read under the
/// tools' path policy (inside a root, no secret, within the size cap).
pub fn tree(a: TreeArgs) -> anyhow::Result<ExitCode> {
    let ws = Host::open(a.ws.config()?)?;
    let file = ws.resolve(&super::query::file_arg(ws.roots().paths(), &a.file))?;
    let bytes = ws.roots().read(&file.path, &file.display).map_err(|e| anyhow::anyhow!("{e}"))?;
    let depth = a.depth;
    let src = crate::parser::SourceText::decode(&bytes);
    let prep = crate::parser::Prepared::new(&src.text);
    let tree = crate::parser::parse_tree(&prep.text).ok_or_else(|| anyhow::anyhow!("the parser gave up"))?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut stack = vec![(tree.root_node(), 0usize)];
    while let Some((n, d)) = stack.pop() {
        let (s, e) = (
            src.lines.line_of(prep.to_original(n.start_byte())),
            src.lines.line_of(prep.to_original(n.end_byte().saturating_sub(1))),
        );
        let flag = if n.is_missing() { " MISSING" } else { "" };
        writeln!(out, "{}{} {s}-{e}{flag}", "  ".repeat(d), n.kind())?;
        if d < depth {
            let mut c = n.walk();
            let kids: Vec<_> = n.children(&mut c).collect();
            stack.extend(kids.into_iter().rev().map(|k| (k, d + 1)));
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
