//! The engine both shells drive: the configured roots, their caches, and the tool calls with
//! their wire arguments. Every path goes through the roots' path policy first.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::find::{
    self, FindResourceArgs, FindResourceResult, FindSymbolArgs, FindSymbolResult, FindTypeArgs, FindTypeResult,
};
use crate::java_index::{IndexOptions, apply_options};
use crate::problems::{LineRange, ProblemsArgs, ProblemsResult, summarize};
use crate::read_javadoc::{JavadocOptions, JavadocResult, javadoc_of};
use crate::read_range::{RangeOptions, RangeResult, range_of};
use crate::xref::{
    self, DependenciesArgs, DependenciesResult, FindReferencesArgs, FindReferencesResult, ShowDefinitionArgs,
    ShowDefinitionResult, TargetCount,
};
use crate::{ToolError, io_error, read_error, require_java};
use mji_cache::{Cache, Counters, Outcome};
use mji_config::Config;
use mji_index::live::LiveIndex;
use mji_index::roots::{Resolved, Roots};
use mji_model::{FileOutline, OutlineOptions};
use mji_problems::{CheckFile, FileReport, FileState, Filter, ProblemSource, ProblemsEngine, Settings, Sources};
use mji_xref::engine::FileStamp;
use mji_xref::world::World;

/// Arguments of `java_index`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JavaIndexArgs {
    /// Workspace-relative (.java or .class), or a library class (java.util.HashMap) or jar: path.
    pub file_path: String,
    #[serde(default)]
    pub options: IndexOptions,
}

/// Arguments of `java_read_range`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadRangeArgs {
    /// Relative to the workspace root.
    pub file_path: String,
    /// 1-based.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u32>,
    /// Inclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    /// Instead of lines: a declaration's name or name(Type,…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    #[serde(default)]
    pub options: RangeOptions,
}

impl ReadRangeArgs {
    /// The lines to read: as given, or those of the one declaration `symbol` names in
    /// `outline` (several or none is an error that lists what there is and how to pick).
    fn lines(&self, outline: impl FnOnce() -> Result<FileOutline, ToolError>) -> Result<(u32, u32), ToolError> {
        let symbol = self.symbol.as_deref().map(str::trim).filter(|s| !s.is_empty());
        match (symbol, self.start_line, self.end_line) {
            (None, Some(start), Some(end)) => Ok((start, end)),
            (None, _, _) => Err(ToolError::InvalidArgument(
                "give startLine and endLine, or symbol (a declaration's name) instead".to_owned(),
            )),
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                Err(ToolError::InvalidArgument("give either symbol or startLine/endLine, not both".to_owned()))
            }
            (Some(symbol), None, None) => {
                let found = crate::java_index::declarations_named(&outline()?, symbol);
                match found.as_slice() {
                    [(_, start, end)] => Ok((*start, *end)),
                    [] => Err(ToolError::InvalidArgument(format!(
                        "{} declares nothing named `{symbol}`; java_index lists its declarations",
                        self.file_path
                    ))),
                    many => {
                        let list: Vec<String> =
                            many.iter().map(|(label, s, e)| format!("{label} (lines {s}-{e})")).collect();
                        Err(ToolError::InvalidArgument(format!(
                            "`{symbol}` names {} declarations in {}: {}; pick one with `name(Type,…)` or its \
                             startLine/endLine",
                            many.len(),
                            self.file_path,
                            list.join("; ")
                        )))
                    }
                }
            }
        }
    }
}

/// Arguments of `java_read_javadoc`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadJavadocArgs {
    /// Relative to the workspace root.
    pub file_path: String,
    /// From java_index.
    pub symbol_id: String,
    #[serde(default)]
    pub options: JavadocOptions,
}

/// An outline and whether it came from the cache.
#[derive(Debug, Clone)]
pub struct IndexAnswer {
    pub outline: FileOutline,
    pub outcome: Outcome,
    pub elapsed_ms: f64,
}

/// The workspace's Java files with their display paths, sorted by them.
pub type ShownFiles = Arc<Vec<(Arc<Path>, String)>>;

/// How a call names one target (the fields `find_references` and `refactor_actions` share).
pub(crate) struct TargetSpec<'a> {
    pub target: &'a str,
    pub kind: Option<xref::TargetKind>,
    pub symbol_id: &'a str,
    pub file_path: &'a str,
    pub line: u32,
    pub column: u32,
}

/// Roots, caches and configuration of one server or CLI run.
pub struct Workspace {
    pub config: Config,
    pub roots: Roots,
    caches: Vec<Arc<Cache>>,
    index: std::sync::OnceLock<Arc<LiveIndex>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
    pub(crate) xref: mji_xref::engine::XrefEngine,
    /// The world and files of the last cross-reference call and the index version they were
    /// taken at, reused while a watcher reports no change.
    pub(crate) xref_seen: std::sync::Mutex<Option<(u64, Arc<World>, ShownFiles)>>,
    /// The last failed write of the reference index, reported with the caches' write errors.
    xref_write_error: std::sync::Mutex<Option<String>>,
    problems: std::sync::OnceLock<Arc<ProblemsEngine>>,
    /// The last previews of the edit tools, by editId, for `refactor_actions`' `apply`.
    pub(crate) previews: crate::edit::Previews,
    /// The user's editor (the editor tools; `reload_files` after the server's own edits).
    pub(crate) editor: mji_editor::Editor,
    /// Test runs and goals started in this session, by `runId`.
    pub(crate) runs: mji_build::runs::Runs,
    /// The build models `maven_update_project` read last, by build root.
    pub(crate) build_models: std::sync::Mutex<std::collections::HashMap<PathBuf, mji_build::project::Project>>,
    /// The JDK's and the classpath's types, indexed on first use (`crate::libraries`).
    /// Dropped by `maven_update_project` (`crate::libraries::forget`), so an edited build's
    /// dependencies are read again.
    pub(crate) libraries: std::sync::RwLock<Option<Arc<mji_classfile::LibraryIndex>>>,
    /// True once the xref engine has the classpath's library types (`crate::libraries::type_xref`).
    pub(crate) xref_libraries: std::sync::Mutex<bool>,
    /// The Maven classpaths stored when the library types were read (`crate::libraries::refresh`).
    pub(crate) libraries_stamp: std::sync::atomic::AtomicU64,
}

/// Files a first binding pass binds between two writes of the reference index: a pass over a
/// big workspace then never holds every file's references in memory at once (the JDK's are
/// ~130 MB, which the allocator keeps mapped after they move to disk).
pub const BIND_CHUNK: usize = 2_000;

impl Workspace {
    /// Opens the roots and their caches. Cache problems are warnings, never failures.
    pub fn open(config: Config) -> Result<Workspace, ToolError> {
        let (policy, bad_globs) = mji_fs::secrets::ReadPolicy::new(&config.read_allow, &config.read_deny);
        for g in bad_globs {
            tracing::warn!("read_allow/read_deny: {g}");
        }
        let roots = Roots::new(config.roots.clone())
            .map_err(|e| ToolError::InvalidArgument(e.to_string()))?
            .with_max_file_bytes(config.max_file_bytes)
            .with_read_policy(policy);
        let mut caches: Vec<Arc<Cache>> = Vec::new();
        if !config.cache {
            caches.push(Arc::new(Cache::disabled()));
        } else {
            // One cache for a directory the user chose, else one per root. Each keeps the
            // warnings of its opening ([`Workspace::warnings`] reports them once).
            let dirs: Vec<PathBuf> = match config.cache_dir {
                Some(_) => vec![config.cache_dir_for(&roots.paths()[0])],
                None => roots.paths().iter().map(|r| config.cache_dir_for(r)).collect(),
            };
            caches.extend(dirs.iter().map(|d| Arc::new(Cache::open(d).0)));
        }
        for c in &caches {
            c.set_max_file_bytes(config.max_file_bytes);
        }
        let xref = match config.cache {
            true => mji_xref::engine::XrefEngine::with_store(xref_store(&config, &roots)),
            false => mji_xref::engine::XrefEngine::new(),
        };
        let editor = mji_editor::Editor::new(mji_editor::Settings::from_config(&config));
        Ok(Workspace {
            config,
            roots,
            caches,
            index: std::sync::OnceLock::new(),
            stop: Arc::default(),
            xref,
            xref_seen: std::sync::Mutex::default(),
            xref_write_error: std::sync::Mutex::default(),
            problems: std::sync::OnceLock::new(),
            previews: crate::edit::Previews::default(),
            editor,
            runs: mji_build::runs::Runs::default(),
            build_models: std::sync::Mutex::default(),
            libraries: std::sync::RwLock::new(None),
            xref_libraries: std::sync::Mutex::new(false),
            libraries_stamp: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// The token budget of one tool answer.
    pub fn answer_tokens(&self) -> usize {
        usize::try_from(self.config.answer_tokens).unwrap_or(usize::MAX)
    }

    /// The answer budget of this workspace's clients as configured (see
    /// [`crate::registry::Budget`]).
    pub fn answer_budget(&self) -> crate::registry::Budget {
        self.answer_budget_for(self.config.structured_content)
    }

    /// The answer budget of a client that is (or is not) sent the structured JSON.
    pub fn answer_budget_for(&self, structured: bool) -> crate::registry::Budget {
        crate::registry::Budget { tokens: self.answer_tokens(), structured }
    }

    /// The workspace index, created (empty) on first use.
    pub fn index(&self) -> &Arc<LiveIndex> {
        self.index.get_or_init(|| LiveIndex::new(self.roots.clone(), self.caches.clone()))
    }

    /// Starts the first indexing pass in the background and, if configured, the watcher.
    pub fn start_index(&self) {
        let index = self.index().clone();
        let watch = self.config.watch;
        let stop = self.stop.clone();
        let spawned = std::thread::Builder::new().name("index".to_owned()).spawn(move || {
            // Watch first, so that changes made during the first pass are not lost.
            if watch {
                let (i, s) = (index.clone(), stop.clone());
                let watcher = std::thread::Builder::new().name("watch".to_owned()).spawn(move || {
                    if let Err(e) = mji_index::live::watch(i, s) {
                        tracing::warn!("file watcher unavailable ({e}); answers re-check the files they return");
                    }
                });
                // The pass starts once the watcher is registered (or has failed): a file
                // created in between would otherwise be seen by neither.
                let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
                while let Ok(w) = &watcher
                    && !w.is_finished()
                    && !index.watcher_registered()
                    && std::time::Instant::now() < deadline
                {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
            }
            let t = std::time::Instant::now();
            index.build();
            let (files, symbols, resources) = index.counts();
            tracing::info!(files, symbols, resources, ms = t.elapsed().as_millis() as u64, "workspace indexed");
        });
        if let Err(e) = spawned {
            tracing::error!("cannot start indexing: {e}");
        }
    }

    /// Builds the index on this thread (for the CLI).
    pub fn build_index(&self) -> mji_index::live::PassStats {
        self.index().build()
    }

    /// Waits (up to the configured time) for the first indexing pass.
    pub fn wait_index(&self) -> bool {
        self.index().wait_complete(std::time::Duration::from_millis(self.config.index_wait_ms))
    }

    /// `java_find_symbol`. A `rootDir` of `.` (or empty) searches every root.
    pub fn java_find_symbol(&self, args: &FindSymbolArgs) -> Result<FindSymbolResult, ToolError> {
        let dir = args.root_dir.trim();
        let under = if dir.is_empty() || dir == "." || dir == "./" {
            None
        } else {
            let r = self.resolve(dir)?;
            if !r.path.is_dir() {
                return Err(ToolError::InvalidArgument(format!("rootDir {} is not a directory", args.root_dir)));
            }
            Some(r.path)
        };
        self.wait_index();
        let libs = (args.options.scope != find::Scope::Workspace).then(|| crate::libraries::index(self));
        find::find_symbol_scoped(self.index(), under.as_deref(), libs.as_deref(), args)
    }

    /// `find_type`.
    pub fn find_type(&self, args: &FindTypeArgs) -> Result<FindTypeResult, ToolError> {
        let under = self.chosen_root(&args.root)?;
        self.wait_index();
        let libs = (args.scope != find::Scope::Workspace).then(|| crate::libraries::index(self));
        find::find_type_scoped(self.index(), under, libs.as_deref(), args)
    }

    /// `find_resource`.
    pub fn find_resource(&self, args: &FindResourceArgs) -> Result<FindResourceResult, ToolError> {
        let under = self.chosen_root(&args.root)?;
        self.wait_index();
        find::find_resource(self.index(), under, args)
    }

    /// The root a search is limited to (a tool's `root`: a root's name or path), or `None`
    /// (every root) when not given.
    pub fn chosen_root(&self, root: &str) -> Result<Option<&Path>, ToolError> {
        if root.trim().is_empty() {
            return Ok(None);
        }
        let i = self.roots.find_root(root).map_err(|e| ToolError::InvalidArgument(e.to_string()))?;
        Ok(Some(&self.roots.paths()[i]))
    }

    /// Warnings from opening the workspace (e.g. a cache that fell back to memory).
    pub fn warnings(&self) -> Vec<String> {
        self.caches.iter().flat_map(|c| c.warnings()).collect()
    }

    /// The cache serving files of root `i`.
    pub fn cache(&self, root: usize) -> &Cache {
        &self.caches[root.min(self.caches.len() - 1)]
    }

    /// Hits and misses over all caches.
    pub fn counters(&self) -> Counters {
        self.caches
            .iter()
            .map(|c| c.counters())
            .fold(Counters::default(), |a, b| Counters { hits: a.hits + b.hits, misses: a.misses + b.misses })
    }

    /// Writes what is buffered: the caches, and the reference index when it changed.
    pub fn flush(&self) {
        self.caches.iter().for_each(|c| c.flush());
        self.persist_references();
    }

    /// Writes the world and the reference index beside the cache if they changed since the
    /// last write; a failure is logged (the index is an accelerator) and returned.
    pub fn persist_references(&self) -> Option<String> {
        match self.xref.save()? {
            Ok(files) => {
                tracing::debug!(files, "wrote the reference index");
                None
            }
            Err(e) => {
                let msg = format!("writing the reference index: {e}");
                // Said once: the server keeps answering from memory and tries again later.
                if let Ok(mut last) = self.xref_write_error.lock()
                    && last.replace(msg.clone()).is_none()
                {
                    tracing::warn!("{msg}");
                }
                Some(msg)
            }
        }
    }

    /// Every cache write that failed (see [`Cache::write_error`]); empty when all reached the
    /// disk. The server keeps answering from memory; the CLI reports them and fails.
    pub fn write_errors(&self) -> Vec<String> {
        let xref = self.xref_write_error.lock().ok().and_then(|e| e.clone());
        self.caches.iter().filter_map(|c| c.write_error()).chain(xref).collect()
    }

    /// Calls `hook` once per cache with its first failed write (at once for one that already
    /// failed); the server logs it this way and keeps answering from memory.
    pub fn on_cache_write_error(&self, hook: mji_cache::WriteErrorHook) {
        for c in &self.caches {
            c.on_write_error(hook.clone());
        }
    }

    /// Applies the path policy to a client-given path.
    pub fn resolve(&self, file_path: &str) -> Result<Resolved, ToolError> {
        use mji_index::roots::PathError;
        self.roots.resolve(file_path).or_else(|e| match e {
            PathError::NotFound { .. } => {
                let missing = ToolError::NotFound(e.to_string().trim_start_matches("file not found: ").to_owned());
                self.resolve_bare_name(file_path).unwrap_or(Err(missing))
            }
            other => Err(ToolError::InvalidArgument(other.to_string())),
        })
    }

    /// A bare file name (`StringUtils.java`) that is no path under a root: the one indexed Java
    /// file of that name, or an error listing them when several have it. None when the name is
    /// not bare or no indexed file has it.
    fn resolve_bare_name(&self, name: &str) -> Option<Result<Resolved, ToolError>> {
        let name = name.trim();
        if name.is_empty() || name.contains(['/', '\\']) || !name.ends_with(".java") {
            return None;
        }
        let index = self.index();
        let mut found: Vec<String> = index
            .java_files()
            .into_iter()
            .filter(|(p, _)| p.file_name().is_some_and(|n| n == std::ffi::OsStr::new(name)))
            .map(|(p, root)| self.roots.display(&p, root))
            .collect();
        found.sort();
        match found.len() {
            0 => None,
            1 => Some(self.roots.resolve(&found[0]).map_err(|e| ToolError::InvalidArgument(e.to_string()))),
            n => Some(Err(ToolError::InvalidArgument(format!(
                "{name} names {n} files; give its path: {}{}",
                found.iter().take(10).cloned().collect::<Vec<_>>().join(", "),
                if n > 10 { format!(" (and {} more)", n - 10) } else { String::new() }
            )))),
        }
    }

    /// Re-checks a resolved file at read time: still inside a root (a link swapped in since
    /// it was resolved is refused), no secret, a regular file, within the cap.
    pub(crate) fn check_file(&self, path: &Path, display: &str) -> Result<(), ToolError> {
        let canon = std::fs::canonicalize(path);
        if let Some(refusal) = canon.as_ref().ok().and_then(|c| self.roots.refusal(c)) {
            let e = mji_index::roots::PathError::Secret { given: display.to_owned(), refusal };
            return Err(ToolError::InvalidArgument(e.to_string()));
        }
        match canon {
            Ok(canon) if self.roots.root_of(&canon).is_none() => {
                return Err(ToolError::InvalidArgument(
                    mji_index::roots::PathError::Outside {
                        given: display.to_owned(),
                        roots: self
                            .roots
                            .paths()
                            .iter()
                            .map(|p| p.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                    }
                    .to_string(),
                ));
            }
            _ => {}
        }
        crate::check_regular(path, display, self.roots.max_file_bytes()).map(|_| ())
    }

    /// `java_index`.
    pub fn java_index(&self, args: &JavaIndexArgs) -> Result<IndexAnswer, ToolError> {
        let t = std::time::Instant::now();
        let opts = OutlineOptions::from(&args.options);
        // A class name or a `jar:` path names a library type, unless the workspace has the file.
        if let Some(lib) = crate::libraries::target(&args.file_path)
            && (args.file_path.starts_with("jar:") || self.resolve(&args.file_path).is_err())
        {
            let outline = crate::libraries::outline(self, &lib)?;
            let src = (opts.max_javadoc_preview_chars > 0 && outline.line_count > 0)
                .then(|| match &lib {
                    crate::libraries::LibraryTarget::Jar { archive, entry } => {
                        crate::libraries::source_bytes(self, archive, entry).ok()
                    }
                    crate::libraries::LibraryTarget::Class(_) => None,
                })
                .flatten()
                .map(|(b, _)| mji_parser::SourceText::decode(&b));
            let outline = apply_options(outline, &opts, src.as_ref());
            return Ok(IndexAnswer { outline, outcome: Outcome::Miss, elapsed_ms: t.elapsed().as_secs_f64() * 1e3 });
        }
        let r = self.resolve(&args.file_path)?;
        self.check_file(&r.path, &r.display)?;
        if crate::libraries::is_class_file(&r.path) {
            let outline = crate::libraries::class_file_outline(self, &r.path, &r.display)?;
            let outline = apply_options(outline, &opts, None);
            return Ok(IndexAnswer { outline, outcome: Outcome::Miss, elapsed_ms: t.elapsed().as_secs_f64() * 1e3 });
        }
        require_java(&r.path, &r.display)?;
        let cache = self.cache(r.root);
        let io = |e: std::io::Error| io_error(&r.display, e);
        let (outline, outcome) = if opts.max_javadoc_preview_chars > 0 {
            let (cached, src) = cache.outline_with_source(&r.path, &r.display).map_err(io)?;
            (apply_options(cached.outline, &opts, Some(&src)), cached.outcome)
        } else {
            let cached = cache.outline(&r.path, &r.display).map_err(io)?;
            (apply_options(cached.outline, &opts, None), cached.outcome)
        };
        Ok(IndexAnswer { outline, outcome, elapsed_ms: t.elapsed().as_secs_f64() * 1e3 })
    }

    /// `java_read_range`.
    pub fn java_read_range(&self, args: &ReadRangeArgs) -> Result<RangeResult, ToolError> {
        if let Some(crate::libraries::LibraryTarget::Jar { archive, entry }) = crate::libraries::target(&args.file_path)
        {
            let (bytes, shown) = crate::libraries::source_bytes(self, &archive, &entry)?;
            let src = mji_parser::SourceText::decode(&bytes);
            let (start, end) =
                args.lines(|| Ok(mji_parser::outline_source(&shown, mji_classfile::sha1_hex(&bytes), &src)))?;
            return range_of(&src, &shown, start, end, &args.options);
        }
        let r = self.resolve(&args.file_path)?;
        self.check_file(&r.path, &r.display)?;
        let (start, end) = args.lines(|| {
            require_java(&r.path, &r.display)?;
            let (cached, _) =
                self.cache(r.root).outline_with_source(&r.path, &r.display).map_err(|e| io_error(&r.display, e))?;
            Ok(cached.outline.clone())
        })?;
        let bytes = self.roots.read(&r.path, &r.display).map_err(read_error)?;
        let src = mji_parser::SourceText::decode(&bytes);
        range_of(&src, &r.display, start, end, &args.options)
    }

    /// The problems engine (classpaths, the warm javac, results), created on first use.
    pub fn problems_engine(&self) -> &Arc<ProblemsEngine> {
        self.problems.get_or_init(|| {
            let c = &self.config;
            // The helper and resolved classpaths live in the cache directory; without a cache,
            // in the system's temporary directory.
            let cache_dir = if c.cache {
                c.cache_dir_for(&self.roots.paths()[0]).join("problems")
            } else {
                std::env::temp_dir().join("mcp-java-index-problems")
            };
            let settings = Settings {
                cache_dir,
                budget: std::time::Duration::from_millis(c.problems_budget_ms),
                lint: c.javac_lint.clone(),
                javac_options: c.javac_options.clone(),
                classpath: c.classpath.clone(),
                maven_repo_local: c.maven_repo_local.clone(),
                gradle_user_home: c.gradle_user_home.clone().or_else(|| {
                    std::env::var_os("GRADLE_USER_HOME")
                        .filter(|h| !h.is_empty())
                        .map(std::path::PathBuf::from)
                        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".gradle")))
                }),
                java_home: std::env::var_os("JAVA_HOME").map(std::path::PathBuf::from),
                path_env: std::env::var_os("PATH"),
                max_file_bytes: c.max_file_bytes,
                trusted: c.trusted,
                annotation_processing: c.annotation_processing,
                helper_dir: mji_problems::javac::user_helper_dir(),
            };
            Arc::new(ProblemsEngine::new(settings, self.roots.paths().to_vec()))
        })
    }

    /// `get_problems`.
    pub fn get_problems(&self, args: &ProblemsArgs) -> Result<ProblemsResult, ToolError> {
        let t = std::time::Instant::now();
        let LineRange { start, end } = args.line_range;
        if end != 0 && start > end {
            return Err(ToolError::InvalidArgument(format!(
                "line_range start {start} is after its end {end}; give {{\"start\": N, \"end\": M}} with N <= M (end 0: to the end of the file)"
            )));
        }
        let lines = (start > 1 || end != 0).then_some((start, if end == 0 { u32::MAX } else { end }));
        let mut targets: Vec<CheckFile> = Vec::new();
        let mut skipped: Vec<FileReport> = Vec::new();
        let given: Vec<String> = if args.paths.is_empty() {
            self.roots.paths().iter().map(|p| p.to_string_lossy().into_owned()).collect()
        } else {
            args.paths.clone()
        };
        for g in &given {
            let r = self.resolve(g)?;
            if r.path.is_dir() {
                for f in
                    mji_index::walk::java_files(&r.path).files.into_iter().filter(|f| self.roots.refusal(f).is_none())
                {
                    let root = self.roots.root_of(&f).unwrap_or(r.root);
                    targets.push(CheckFile { display: self.roots.display(&f, root), path: f });
                }
            } else if require_java(&r.path, &r.display).is_err() {
                skipped.push(FileReport {
                    file: r.display.clone(),
                    status: FileState::Skipped,
                    reason: Some("not a .java file".to_owned()),
                });
            } else {
                self.check_file(&r.path, &r.display)?;
                targets.push(CheckFile { path: r.path, display: r.display });
            }
        }
        let mut seen = std::collections::HashSet::new();
        targets.retain(|t| seen.insert(t.path.clone()));
        let wanted = |s| args.source_filter.is_empty() || args.source_filter.contains(&s);
        let sources = Sources { syntax: wanted(ProblemSource::Syntax), javac: wanted(ProblemSource::Javac) };
        // Without a JDK the type errors cannot be known: an error that says how to fix it,
        // never an answer whose empty list reads as "no problems".
        if sources.javac
            && !targets.is_empty()
            && let Err(why) = self.problems_engine().jdk()
        {
            return Err(ToolError::InvalidArgument(format!(
                "{why}; get_problems needs javac for type errors. Without a JDK, ask for syntax problems alone: sourceFilter [\"syntax\"] (the CLI's --source syntax)"
            )));
        }
        let checked = self.problems_engine().check(&targets, sources, None);
        let filter = Filter { severities: args.severity_filter.clone(), sources: args.source_filter.clone(), lines };
        let (diagnostics, total, filtered, has_more) =
            mji_problems::page(checked.problems, &filter, args.offset as usize, args.limit as usize);
        skipped.extend(checked.files);
        let (file_counts, files, unlisted_files) = summarize(skipped);
        let next_offset = has_more.then(|| args.offset.saturating_add(diagnostics.len() as u32));
        Ok(ProblemsResult {
            diagnostics,
            total_count: total as u32,
            filtered_count: filtered as u32,
            has_more,
            next_offset,
            complete: checked.complete,
            file_counts,
            files,
            unlisted_files,
            javac: checked.javac,
            elapsed_ms: t.elapsed().as_millis() as u64,
            opened: None,
        })
    }

    /// `java_read_javadoc`.
    pub fn java_read_javadoc(&self, args: &ReadJavadocArgs) -> Result<JavadocResult, ToolError> {
        if let Some(crate::libraries::LibraryTarget::Jar { archive, entry }) = crate::libraries::target(&args.file_path)
        {
            let (bytes, shown) = crate::libraries::source_bytes(self, &archive, &entry)?;
            let src = mji_parser::SourceText::decode(&bytes);
            let outline = mji_parser::outline_source(&shown, mji_classfile::sha1_hex(&bytes), &src);
            return javadoc_of(&outline, &src, &shown, &args.symbol_id, &args.options);
        }
        let r = self.resolve(&args.file_path)?;
        self.check_file(&r.path, &r.display)?;
        require_java(&r.path, &r.display)?;
        if args.symbol_id.trim().is_empty() {
            return Err(ToolError::InvalidArgument("symbolId is empty; take one from java_index".to_owned()));
        }
        let (cached, src) =
            self.cache(r.root).outline_with_source(&r.path, &r.display).map_err(|e| io_error(&r.display, e))?;
        javadoc_of(&cached.outline, &src, &r.display, &args.symbol_id, &args.options)
    }
}

/// The hits without javadoc references when the call leaves them out, and without the override
/// declarations of keyless classes unless it includes overriders.
fn javadoc_filter(mut found: xref::Search, args: &FindReferencesArgs) -> xref::Search {
    // The overriding declarations of anonymous, enum-constant and local classes (which have no
    // key to bind calls to) are the family's, listed with the overriders' calls.
    if !args.include_overriders {
        for (_, refs) in &mut found.hits {
            refs.retain(|(r, _)| r.kind != mji_xref::RefKind::Override);
        }
        found.hits.retain(|(_, refs)| !refs.is_empty());
    }
    if args.include_javadoc == Some(false) {
        for (_, refs) in &mut found.hits {
            refs.retain(|(r, _)| r.kind != mji_xref::RefKind::Javadoc);
        }
        found.hits.retain(|(_, refs)| !refs.is_empty());
    }
    found
}

/// The cross-file tools.
impl Workspace {
    /// The world of the workspace's Java files, re-read where a file changed since last time
    /// (stamps taken now, so answers are fresh even without a watcher), and the files with their
    /// display paths.
    pub fn xref_world(&self) -> (Arc<World>, ShownFiles) {
        use rayon::prelude::*;
        self.wait_index();
        crate::libraries::refresh(self);
        // With a watcher running and no file event since the last call, nothing changed: no
        // stat of every file (tens of milliseconds on the JDK).
        let version = self.index().version();
        let watching = self.index().is_watching();
        if watching
            && let Ok(seen) = self.xref_seen.lock()
            && let Some((v, w, files)) = &*seen
            && *v == version
        {
            return (w.clone(), files.clone());
        }
        crate::libraries::type_xref(self);
        // Under a watcher that has applied every event, the index's stamps are the files'
        // own: no stat of every file (tens of milliseconds on the JDK) after an edit. A file
        // the index read within the racy window has a stamp that never matches (two
        // same-size writes would look alike): only those are stat-ed.
        let stamps: Vec<(FileStamp, String)> = if watching {
            self.index()
                .java_file_stamps()
                .into_iter()
                .filter_map(|(p, root, (size, mtime_ns))| {
                    let (size, mtime_ns) = match mtime_ns {
                        i128::MIN => mji_index::symbols::stamp(&std::fs::metadata(&p).ok()?),
                        _ => (size, mtime_ns),
                    };
                    let shown = self.roots.display(&p, root);
                    Some((FileStamp { path: p, size, mtime_ns }, shown))
                })
                .collect()
        } else {
            self.index()
                .java_files()
                .par_iter()
                .filter_map(|(p, root)| {
                    let m = std::fs::metadata(p).ok()?;
                    let (size, mtime_ns) = mji_index::symbols::stamp(&m);
                    Some((FileStamp { path: p.clone(), size, mtime_ns }, self.roots.display(p, *root)))
                })
                .collect()
        };
        let (w, _) = self.xref.world(&stamps.iter().map(|(s, _)| s.clone()).collect::<Vec<_>>());
        let mut shown: Vec<(Arc<Path>, String)> = stamps.into_iter().map(|(s, d)| (s.path, d)).collect();
        shown.sort_by(|a, b| a.1.cmp(&b.1));
        let shown = Arc::new(shown);
        if let Ok(mut seen) = self.xref_seen.lock() {
            *seen = watching.then(|| (version, w.clone(), shown.clone()));
        }
        (w, shown)
    }

    /// Binds every file's references in the background of a server (one thread, so calls
    /// keep a core), after which `find_references` reads no file. Returns the files bound.
    /// Every [`BIND_CHUNK`] files the index is written, so the references just bound live on
    /// disk from then on.
    pub fn warm_references(&self) -> usize {
        let mut total = 0;
        loop {
            let (w, files) = self.xref_world();
            let paths: Vec<Arc<Path>> = files.iter().map(|(p, _)| p.clone()).collect();
            let stop = self.stop.clone();
            let bound =
                self.xref.bind_all(&w, &paths, BIND_CHUNK, &move || stop.load(std::sync::atomic::Ordering::Relaxed));
            total += bound;
            if bound < BIND_CHUNK {
                return total;
            }
            self.persist_references();
        }
    }

    /// Reads the persisted world and reference index (with the classpath's library types
    /// first, which the store must match), without waiting for the first index pass: a
    /// server's reference keeper does it at start, so that a restart's first cross-reference
    /// answer finds the world linked.
    pub fn preload_references(&self) {
        crate::libraries::type_xref(self);
        self.xref.preload();
    }

    /// The server's reference keeper: binds every file, persists the index, then every
    /// `every` re-binds what edits dropped and persists again (at most once a minute), until
    /// the workspace closes. After a pass over many files it compacts what it keeps
    /// ([`Workspace::compact_references`]) and calls `after_pass`, where the server gives the memory
    /// the pass freed back to the system. Runs on the calling thread.
    pub fn keep_references(&self, every: std::time::Duration, after_pass: &dyn Fn()) {
        let stopped = || self.stop.load(std::sync::atomic::Ordering::Relaxed);
        self.preload_references();
        // However long the first pass takes (calls wait at most `index_wait_ms` for it; this
        // thread waits for all of it).
        while !stopped() && !self.index().wait_complete(std::time::Duration::from_millis(200)) {}
        let mut last_save: Option<std::time::Instant> = None;
        while !stopped() {
            let t = std::time::Instant::now();
            let files = self.warm_references();
            if files > 0 {
                let (_, refs) = self.xref_bound();
                tracing::info!(files, refs, ms = t.elapsed().as_millis() as u64, "references bound");
            }
            if last_save.is_none_or(|s| s.elapsed() >= std::time::Duration::from_secs(60)) {
                self.persist_references();
                last_save = Some(std::time::Instant::now());
            }
            if files >= BIND_CHUNK {
                self.compact_references();
                after_pass();
            }
            let until = std::time::Instant::now() + every;
            while !stopped() && std::time::Instant::now() < until {
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        }
    }

    /// Frees what a pass over many files left behind: the world and reference index are read
    /// back from the store just written, laid out as a restart has them
    /// ([`XrefEngine::reload`]), or else the memos the pass derived for every type are shed
    /// ([`XrefEngine::shed_memos`]); the world the last answer used is forgotten too. Returns
    /// whether it read the store back.
    pub fn compact_references(&self) -> bool {
        let reloaded = self.xref.reload();
        if !reloaded {
            self.xref.shed_memos();
        }
        if let Ok(mut seen) = self.xref_seen.lock() {
            *seen = None;
        }
        reloaded
    }

    /// How many files and references the cross-reference engine keeps bound.
    pub fn xref_bound(&self) -> (usize, usize) {
        self.xref.bound()
    }

    /// Heap bytes of the kept references, roughly.
    pub fn xref_bound_bytes(&self) -> usize {
        self.xref.bound_bytes()
    }

    pub(crate) fn display_of(&self, p: &Path) -> String {
        match self.roots.root_of(p) {
            Some(i) => self.roots.display(p, i),
            None => p.display().to_string(),
        }
    }

    fn progress(&self) -> crate::find::IndexStatus {
        crate::find::IndexStatus::of(self.index())
    }

    /// `find_references`.
    pub fn find_references(&self, args: &FindReferencesArgs) -> Result<FindReferencesResult, ToolError> {
        let (w, files) = self.xref_world();
        let bound_files = Some(self.xref.bound().0 as u64);
        let scope = xref::select_files(&files, &args.paths);
        if !args.targets.is_empty() {
            let list = &args.targets;
            if list.len() > 200 {
                return Err(ToolError::InvalidArgument("targets must list at most 200 targets".into()));
            }
            let mut unbound = Vec::new();
            let counts: Vec<TargetCount> = list
                .iter()
                .map(|spec| match self.target_of_spec(&w, spec) {
                    Ok(mut t) => {
                        if args.include_overriders {
                            xref::add_overriders(&w, &mut t);
                        }
                        let search = javadoc_filter(xref::search(&self.xref, &w, &scope, &t), args);
                        unbound.extend(search.unbound);
                        let found = search.hits;
                        let all: Vec<&(mji_xref::Ref, Option<String>)> = found.iter().flat_map(|(_, v)| v).collect();
                        let exact =
                            all.iter().filter(|(r, _)| r.confidence == mji_xref::Confidence::Exact).count() as u64;
                        // Nothing declares it and nothing references it: said, never a count of 0.
                        let error = (t.undeclared && all.is_empty()).then(|| xref::undeclared_message(&w, &t));
                        TargetCount {
                            target: t.label,
                            total: all.len() as u64,
                            exact,
                            likely: all.len() as u64 - exact,
                            files: found.len() as u64,
                            error,
                        }
                    }
                    Err(e) => TargetCount {
                        target: spec.clone(),
                        total: 0,
                        exact: 0,
                        likely: 0,
                        files: 0,
                        error: Some(e.to_string()),
                    },
                })
                .collect();
            return Ok(FindReferencesResult {
                target: list.join(", "),
                target_kind: "many".into(),
                total: counts.iter().map(|c| c.total).sum(),
                truncated: false,
                next_offset: None,
                files: Vec::new(),
                counts: Some(counts),
                incomplete: self.incomplete(unbound),
                incomplete_files: 0,
                overrider_references: 0,
                hint: String::new(),
                index: crate::find::IndexStatus { bound_files, ..self.progress() },
            }
            .with_incomplete_count());
        }
        let mut target = self.target_of(
            &w,
            &TargetSpec {
                target: &args.target,
                kind: args.target_kind,
                symbol_id: &args.symbol_id,
                file_path: &args.file_path,
                line: args.line,
                column: args.column,
            },
        )?;
        // The calls bound to overriders are counted when left out, so an answer never hides
        // that they exist (an interface method's callers are mostly its implementations').
        let mut overrider_references = 0;
        if args.include_overriders {
            xref::add_overriders(&w, &mut target);
        } else if target.category == mji_xref::Category::Method {
            let mut family = target.clone();
            xref::add_overriders(&w, &mut family);
            if !family.overriders.is_empty() {
                let only = xref::Target {
                    keys: family.overriders.keys().cloned().collect(),
                    overriders: std::collections::HashMap::new(),
                    ..family
                };
                let hits = javadoc_filter(xref::search(&self.xref, &w, &scope, &only), args).hits;
                overrider_references = hits.iter().map(|(_, v)| v.len() as u64).sum();
            }
        }
        let search = javadoc_filter(xref::search(&self.xref, &w, &scope, &target), args);
        if target.undeclared && search.hits.is_empty() {
            return Err(ToolError::NoSuchSymbol(xref::undeclared_message(&w, &target)));
        }
        let incomplete = self.incomplete(search.unbound);
        let found = search.hits;
        let mut texts = std::collections::HashMap::new();
        let mut flat: Vec<(Arc<Path>, xref::ReferenceOut)> = Vec::new();
        if args.include_declaration {
            for (p, line) in &target.decls {
                flat.push((
                    p.clone(),
                    xref::ReferenceOut {
                        line: *line,
                        column: 1,
                        kind: "declaration".into(),
                        confidence: mji_xref::Confidence::Exact,
                        text: String::new(),
                        overrider: None,
                    },
                ));
            }
        }
        for (p, refs) in &found {
            for (r, via) in refs {
                flat.push((
                    p.clone(),
                    xref::ReferenceOut {
                        line: r.line,
                        column: r.column,
                        kind: xref::kind_str(r.kind),
                        confidence: r.confidence,
                        text: String::new(),
                        overrider: via.clone(),
                    },
                ));
            }
        }
        let total = flat.len();
        let limit = args.limit.clamp(1, xref::MAX_LIMIT) as usize;
        let offset = args.offset as usize;
        let page: Vec<(Arc<Path>, xref::ReferenceOut)> =
            if args.count_only { Vec::new() } else { flat.into_iter().skip(offset).take(limit).collect() };
        let end = offset + page.len();
        let mut out: Vec<xref::FileReferences> = Vec::new();
        // Only the page's lines are read.
        for (p, mut r) in page {
            r.text = xref::line_text(&mut texts, &p, r.line);
            let disp = self.display_of(&p);
            match out.last_mut() {
                Some(f) if f.file == disp => f.references.push(r),
                _ => out.push(xref::FileReferences { file: disp, references: vec![r] }),
            }
        }
        let truncated = !args.count_only && end < total;
        Ok(FindReferencesResult {
            target: target.label,
            target_kind: match target.category {
                mji_xref::Category::Type => "type",
                mji_xref::Category::Method => "method",
                mji_xref::Category::Ctor => "constructor",
                mji_xref::Category::Field => "field",
            }
            .into(),
            total: total as u64,
            truncated,
            next_offset: truncated.then_some(end as u64),
            files: out,
            counts: None,
            incomplete,
            incomplete_files: 0,
            overrider_references,
            hint: if overrider_references > 0 {
                format!(
                    "{overrider_references} more reference(s) are bound to methods overriding it; pass includeOverriders: true to list them"
                )
            } else {
                String::new()
            },
            index: crate::find::IndexStatus { bound_files, ..self.progress() },
        }
        .with_incomplete_count())
    }

    /// The one target a call names: `target`, `symbolId`, or `filePath` + `line` (+ `column`).
    pub(crate) fn target_of(&self, w: &World, spec: &TargetSpec) -> Result<xref::Target, ToolError> {
        let nonempty = |s: &str| (!s.trim().is_empty()).then(|| s.to_owned());
        match (nonempty(spec.target), nonempty(spec.symbol_id), nonempty(spec.file_path)) {
            (Some(t), _, _) => Ok(xref::resolve_target_as(w, &t, spec.kind.map(Into::into))?),
            (None, Some(id), _) => {
                Ok(xref::resolve_target_as(w, &xref::target_of_symbol_id(&id)?, xref::kind_of_symbol_id(&id))?)
            }
            (None, None, Some(fp)) => {
                if spec.line == 0 {
                    return Err(ToolError::InvalidArgument("filePath needs line (and optionally column)".into()));
                }
                let r = self.resolve(&fp)?;
                self.check_file(&r.path, &r.display)?;
                require_java(&r.path, &r.display)?;
                Ok(xref::target_at(&self.xref, w, &r.path, spec.line, (spec.column > 0).then_some(spec.column))?)
            }
            _ => {
                Err(ToolError::InvalidArgument("give the target as target, symbolId, or filePath+line(+column)".into()))
            }
        }
    }

    /// One entry of `targets`: a name as `target` takes it, or a position `FILE:LINE[:COLUMN]`
    /// resolved as `filePath` + `line` (+ `column`) are, so a count agrees with the full answer.
    fn target_of_spec(&self, w: &World, spec: &str) -> Result<xref::Target, ToolError> {
        match xref::position_of(spec) {
            Some((file, line, column)) => self.target_of(
                w,
                &TargetSpec {
                    target: "",
                    kind: None,
                    symbol_id: "",
                    file_path: &file,
                    line,
                    column: column.unwrap_or(0),
                },
            ),
            None => Ok(xref::resolve_target(w, spec)?),
        }
    }

    /// The files a search could not bind fully, each once, in path order, with the reason.
    pub(crate) fn incomplete(&self, mut unbound: Vec<(Arc<Path>, mji_xref::resolve::DepthCut)>) -> Vec<String> {
        unbound.sort_by(|a, b| a.0.cmp(&b.0));
        unbound.dedup_by(|a, b| a.0 == b.0);
        unbound.into_iter().map(|(p, cut)| format!("{}: {cut}", self.display_of(&p))).collect()
    }

    /// `analyze_type_dependencies`.
    pub fn analyze_type_dependencies(&self, args: &DependenciesArgs) -> Result<DependenciesResult, ToolError> {
        let (w, _) = self.xref_world();
        let nonempty = |s: &String| (!s.trim().is_empty()).then(|| s.clone());
        let roots: Vec<mji_xref::world::TypeId> = match (nonempty(&args.type_name), nonempty(&args.file_path)) {
            (Some(t), _) => {
                let target = xref::resolve_target(&w, &t)?;
                let id = w
                    .workspace_type(&target.keys[0])
                    .filter(|_| target.category == mji_xref::Category::Type)
                    .ok_or_else(|| ToolError::NoSuchSymbol(format!("{t} is not a workspace type")))?;
                vec![id]
            }
            (None, Some(fp)) => {
                let r = self.resolve(&fp)?;
                self.check_file(&r.path, &r.display)?;
                require_java(&r.path, &r.display)?;
                let fi = mji_xref::engine::file_index(&w, &r.path);
                if fi == u32::MAX {
                    return Err(ToolError::NotFound(format!(
                        "{} is not indexed (outside the roots or ignored)",
                        r.display
                    )));
                }
                let n = w.files[fi as usize]
                    .decls
                    .types
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.outer.is_none())
                    .map(|(i, _)| i)
                    .collect::<Vec<_>>();
                if n.is_empty() {
                    return Err(ToolError::NotFound(format!("{} declares no type", r.display)));
                }
                n.into_iter().map(|i| w.type_in_file(fi, i as u32)).collect()
            }
            (None, None) => return Err(ToolError::InvalidArgument("give type (a qualified name) or filePath".into())),
        };
        xref::analyze(&w, &roots, args, &|p| self.display_of(p), &|p| self.xref.refs_of(&w, p))
    }

    /// `show_definition`.
    pub fn show_definition(&self, args: &ShowDefinitionArgs) -> Result<ShowDefinitionResult, ToolError> {
        if args.symbol.trim().is_empty() {
            return Err(ToolError::InvalidArgument("symbol is empty".into()));
        }
        let (w, _) = self.xref_world();
        let mut ctx_file = None;
        let mut exact: Vec<xref::Candidate> = Vec::new();
        if !args.file_path.trim().is_empty() {
            let r = self.resolve(&args.file_path)?;
            self.check_file(&r.path, &r.display)?;
            let fi = mji_xref::engine::file_index(&w, &r.path);
            ctx_file = (fi != u32::MAX).then_some(fi);
            if args.line > 0 {
                let line = args.line;
                let name = args.symbol.trim().rsplit(['.', '#']).next().unwrap_or("").to_string();
                let name = name.split('(').next().unwrap_or_default().trim().to_owned();
                // The symbol must be at the position given: never another name on that line.
                let bytes = self.roots.read(&r.path, &r.display).map_err(read_error)?;
                let src = mji_parser::SourceText::decode(&bytes);
                let text = src.lines.line_text(&src.text, line).to_string();
                let col = if args.column > 0 {
                    let there = word_at(&text, args.column);
                    if !name.is_empty() && there != Some(name.as_str()) {
                        return Err(ToolError::NoSuchSymbol(format!(
                            "`{}` is not at line {line}, column {} of {}: {}; give its own position, or leave out line and column to look it up by name",
                            mji_fs::clip(&name),
                            args.column,
                            r.display,
                            there.map_or("no name is there".to_owned(), |w| format!("`{w}` is there"))
                        )));
                    }
                    Some(args.column)
                } else {
                    match find_word(&text, &name) {
                        Some(i) => Some(text[..i].encode_utf16().count() as u32 + 1),
                        None => {
                            return Err(ToolError::NoSuchSymbol(format!(
                                "`{}` does not occur on line {line} of {}, which reads `{}`; give the line where it occurs, or leave out line to look it up by name",
                                mji_fs::clip(&name),
                                r.display,
                                mji_fs::clip(text.trim())
                            )));
                        }
                    }
                };
                if let Ok(t) = xref::target_at(&self.xref, &w, &r.path, line, col) {
                    for k in &t.keys {
                        let owner = k.split('#').next().unwrap_or(k);
                        let id = w.workspace_type(owner);
                        let line = t.decls.iter().find(|_| true).map(|d| d.1).unwrap_or(0);
                        exact.push(xref::Candidate {
                            key: k.clone(),
                            category: t.category,
                            type_id: id,
                            line,
                            rank: 0,
                        });
                    }
                    if t.keys.len() == 1 {
                        exact[0].line = t.decls.first().map(|d| d.1).unwrap_or_else(|| id_line(&w, &exact[0]));
                    }
                }
            }
        }
        use crate::find::Scope;
        let limit = args.limit.clamp(1, 200) as usize;
        // A candidate with a workspace type is the workspace's; the others the libraries'.
        let in_scope = |c: &xref::Candidate| match args.scope {
            Scope::Workspace => c.type_id.is_some(),
            Scope::Libraries => c.type_id.is_none(),
            Scope::All => true,
        };
        let resolved_here = !exact.is_empty();
        exact.retain(in_scope);
        let (resolution, list) = if !exact.is_empty() {
            ("exact", exact)
        } else if resolved_here {
            return Err(ToolError::NoSuchSymbol(format!(
                "{} at that position is defined outside scope {}; scope all shows it",
                args.symbol.trim(),
                serde_json::to_value(args.scope).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
            )));
        } else {
            let c =
                if args.scope == Scope::Libraries { Vec::new() } else { xref::candidates(&w, &args.symbol, ctx_file) };
            if c.is_empty() {
                // By name in the libraries (scope libraries, or all when the workspace has none).
                let (total, definitions) = if args.scope == Scope::Workspace {
                    (0, Vec::new())
                } else {
                    crate::libraries::definitions(self, &args.symbol, limit)
                };
                if total == 0 {
                    return Err(ToolError::NoSuchSymbol(format!(
                        "no type, method or field named {} in the {}",
                        args.symbol.trim(),
                        match args.scope {
                            Scope::Workspace => "workspace",
                            Scope::Libraries => "libraries (the JDK and the classpath jars)",
                            Scope::All => "workspace or its libraries (the JDK and the classpath jars)",
                        }
                    )));
                }
                return Ok(ShowDefinitionResult {
                    symbol: args.symbol.clone(),
                    resolution: if total == 1 { "exact" } else { "ranked" }.into(),
                    total: total as u64,
                    truncated: total > definitions.len(),
                    definitions,
                    opened: None,
                });
            }
            (if c.len() == 1 { "exact" } else { "ranked" }, c)
        };
        let total = list.len();
        let mut defs = Vec::new();
        for c in list.iter().take(limit) {
            let outline = c.type_id.and_then(|id| {
                let p = w.files[w.file_of(id) as usize].path.clone();
                let root = self.roots.root_of(&p).unwrap_or(0);
                self.cache(root).outline(&p, &self.display_of(&p)).ok().map(|o| o.outline)
            });
            let mut d = xref::describe(&w, c, outline.as_ref(), &|p| self.display_of(p));
            if d.file.is_none() && matches!(d.origin, mji_xref::world::Origin::Jdk | mji_xref::world::Origin::Library) {
                xref::describe_library(self, &mut d, c.category);
            }
            defs.push(d);
        }
        Ok(ShowDefinitionResult {
            symbol: args.symbol.clone(),
            resolution: resolution.into(),
            total: total as u64,
            truncated: total > limit,
            definitions: defs,
            opened: None,
        })
    }
}

fn id_line(w: &World, c: &xref::Candidate) -> u32 {
    c.type_id.map(|id| w.decl(id).start_line).unwrap_or(0)
}

/// Byte offset of `word` as a whole identifier in `text`.
/// The identifier covering a 1-based UTF-16 column of a line, if any.
fn word_at(text: &str, column: u32) -> Option<&str> {
    let is_id = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut col = 1u32;
    let mut start: Option<(usize, u32)> = None;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (is_id(c), start) {
            (true, None) => start = Some((i, col)),
            (false, Some((s, from))) => {
                if (from..col).contains(&column) {
                    return Some(&text[s..i]);
                }
                start = None;
            }
            _ => {}
        }
        col += c.len_utf16() as u32;
    }
    None
}

fn find_word(text: &str, word: &str) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let is_id = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let s = from + i;
        let e = s + word.len();
        let before = text[..s].chars().next_back().is_none_or(|c| !is_id(c));
        let after = text[e..].chars().next().is_none_or(|c| !is_id(c));
        if before && after {
            return Some(s);
        }
        from = e;
    }
    None
}

/// Where the world and reference index of a workspace are persisted: beside the first root's
/// cache, named by every root (a different set of roots binds differently).
fn xref_store(config: &Config, roots: &Roots) -> std::path::PathBuf {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for r in roots.paths() {
        for b in r.as_os_str().as_encoded_bytes().iter().chain(b"\0") {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    config.cache_dir_for(&roots.paths()[0]).join(format!("xref-{h:016x}.bin"))
}

impl Drop for Workspace {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Release);
    }
}
