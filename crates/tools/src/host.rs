//! The host: the shared state every tool reads, behind private fields and a few methods — the
//! configuration, the roots and the one path policy, the caches, the live index and its
//! watcher, the reference engine and the world it last answered with, the problems engine,
//! the library index, the edit previews, the editor, and the build runs. Tools hold their own
//! bodies (`tool/`); nothing else adds methods here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::ToolError;
use mji_cache::{Cache, Counters};
use mji_classfile::LibraryIndex;
use mji_classfile::library::Origin;
use mji_config::Config;
use mji_edit::WorkspaceEdit;
use mji_fs::roots::{Resolved, Roots};
use mji_index::live::LiveIndex;
use mji_problems::{ProblemsEngine, Settings};
use mji_xref::engine::{FileStamp, Preload, XrefEngine};
use mji_xref::keeper::Keeper;
use mji_xref::world::World;

pub use mji_xref::keeper::ShownFiles;

/// The most previews kept for `apply`.
pub(crate) const MAX_PREVIEWS: usize = 32;

/// The last previews of the edit tools, by editId: what `apply` with `editIds` writes, and
/// whether each had conflicts.
#[derive(Default)]
pub struct Previews(Mutex<std::collections::VecDeque<(String, WorkspaceEdit, usize)>>);

impl Previews {
    pub(crate) fn keep(&self, id: &str, edit: WorkspaceEdit, conflicts: usize) {
        if let Ok(mut q) = self.0.lock() {
            q.retain(|(i, _, _)| i != id);
            if q.len() >= MAX_PREVIEWS {
                q.pop_front();
            }
            q.push_back((id.to_owned(), edit, conflicts));
        }
    }

    /// A preview's edit and its count of conflicts, by `editId` (the language server turns it
    /// into the client's `WorkspaceEdit`).
    pub fn get(&self, id: &str) -> Option<(WorkspaceEdit, usize)> {
        self.0.lock().ok()?.iter().find(|(i, _, _)| i == id).map(|(_, e, c)| (e.clone(), *c))
    }
}

/// Roots, caches, engines and session state of one server or CLI run.
pub struct Host {
    config: Config,
    roots: Roots,
    caches: Vec<Arc<Cache>>,
    index: OnceLock<Arc<LiveIndex>>,
    stop: Arc<AtomicBool>,
    /// The reference engine and what keeps it current (`mji_xref::keeper`), driven through
    /// this host's files ([`mji_xref::keeper::Files`]).
    keeper: Keeper,
    problems: OnceLock<Arc<ProblemsEngine>>,
    previews: Previews,
    editor: mji_editor::Editor,
    runs: mji_build::runs::Runs,
    /// The build models `maven_update_project` read last, by build root.
    build_models: Mutex<HashMap<PathBuf, mji_build::project::Project>>,
    /// The JDK's and the classpath's types, indexed on first use; forgotten by
    /// `maven_update_project` and when the stored Maven classpaths change.
    libraries: mji_classfile::lifecycle::Libraries,
    /// True once the xref engine has the classpath's library types.
    xref_libraries: Mutex<bool>,
    /// The SCIP exporter: its encoded documents, kept for their stamps between exports.
    scip: mji_scip::Exporter,
    /// The word filters of the view and configuration files `find_references` searched.
    view_filters: crate::xref::ViewFilters,
    /// True when this host answers one call (a command line's, [`Host::prepare`]).
    one_call: AtomicBool,
    /// The files' stamps a command line's call checks its world against, taken by
    /// [`Host::prepare`] while the reference store is still being read; the call's
    /// `stamped_now` takes them (once).
    stamped_ahead: Mutex<Option<StampedFiles>>,
}

/// Every Java and Kotlin file's stamp with the path it is shown by, and whether a watcher
/// keeps them (see [`mji_xref::keeper::Files::stamped_now`]).
type StampedFiles = (Vec<(FileStamp, String)>, bool);

/// What a call needs of a host opened for it alone (a command line's) before it runs. A
/// server's host has all of it from its start (the index built in the background, the world
/// read when first linked); a command reads only what its call will use, and the same call
/// then answers the same there and here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// Nothing: the call reads its files itself.
    Nothing,
    /// The workspace index: the call searches it, or reads a type's name as its file.
    Index,
    /// The index, and the persisted world read beside it: the call links every file's
    /// declarations. `references`: the reference index too (a definition reads none).
    World { references: bool },
}

impl Host {
    /// Opens the roots and their caches. Cache problems are warnings, never failures.
    pub fn open(config: Config) -> Result<Host, ToolError> {
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
            // One cache for a directory the user chose, else one per root, its database opened
            // when first used (a command that reads no outline never opens one). Each keeps
            // the warnings of its opening ([`Host::warnings`] reports them once).
            let dirs: Vec<PathBuf> = match config.cache_dir {
                Some(_) => vec![config.cache_dir_for(&roots.paths()[0])],
                None => roots.paths().iter().map(|r| config.cache_dir_for(r)).collect(),
            };
            caches.extend(dirs.iter().map(|d| Arc::new(Cache::open_on_first_use(d))));
        }
        for c in &caches {
            c.set_max_file_bytes(config.max_file_bytes);
        }
        let xref = match config.cache {
            true => mji_xref::engine::XrefEngine::with_store(xref_store(&config, &roots)),
            false => mji_xref::engine::XrefEngine::new(),
        };
        xref.set_memory_budget(usize::try_from(config.memory_budget_mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX));
        let stop = Arc::<AtomicBool>::default();
        let keeper = Keeper::new(xref, stop.clone());
        let editor = mji_editor::Editor::new(mji_editor::Settings::from_config(&config));
        Ok(Host {
            config,
            roots,
            caches,
            index: OnceLock::new(),
            stop,
            keeper,
            problems: OnceLock::new(),
            previews: Previews::default(),
            editor,
            runs: mji_build::runs::Runs::default(),
            build_models: Mutex::default(),
            libraries: Default::default(),
            xref_libraries: Mutex::new(false),
            scip: mji_scip::Exporter::new(),
            view_filters: Default::default(),
            one_call: AtomicBool::new(false),
            stamped_ahead: Mutex::new(None),
        })
    }

    /// The token budget of one tool answer.
    pub fn answer_tokens(&self) -> usize {
        usize::try_from(self.config.answer_tokens).unwrap_or(usize::MAX)
    }

    /// The answer budget of this workspace's clients as configured (see
    /// [`crate::budget::Budget`]).
    pub fn answer_budget(&self) -> crate::budget::Budget {
        self.answer_budget_for(self.config.structured_content)
    }

    /// The answer budget of a client that is (or is not) sent the structured JSON.
    pub fn answer_budget_for(&self, structured: bool) -> crate::budget::Budget {
        crate::budget::Budget { tokens: self.answer_tokens(), structured }
    }

    /// The workspace index, created (empty) on first use.
    pub fn index(&self) -> &Arc<LiveIndex> {
        self.index.get_or_init(|| {
            let index = LiveIndex::new(self.roots.clone(), self.caches.clone());
            // The reference engine reads declarations under the same `lombok.config`.
            self.keeper.engine().set_lombok(index.lombok().clone());
            index
        })
    }

    /// Starts the first indexing pass in the background and, if configured, the watcher.
    pub fn start_index(&self) {
        let index = self.index().clone();
        // Announced before the thread runs: a call made meanwhile waits for the pass.
        index.expect_pass();
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

    /// Readies a host opened for one call (a command line's) as the call's [`Start`] says:
    /// `pass` runs the first indexing pass on this thread (the shell shows its progress).
    /// A call that links the world reads the persisted world (and references) on a second
    /// thread and indexes the JDK's API table on a third while the pass walks, as a server's
    /// start does: neither waits for the other, and the answer is the same (issue 38). Then the
    /// pass's results are written and the index told that one call follows (no second stat
    /// of every file).
    pub fn prepare(&self, start: Start, pass: impl FnOnce()) {
        if start == Start::Nothing {
            return;
        }
        // Before the pass: the stamps made ahead below are the pass's own.
        self.index().set_one_shot();
        std::thread::scope(|s| {
            if let Start::World { references } = start {
                self.index().sequential_start();
                // The answer reads the walk's files and stamps, not the outline symbol table
                // (a definition of a type's name, say, finds it in the world): the table is
                // made only if something asks for it.
                self.index().defer_table();
                // A definition reads no references: their key table and postings stay on disk.
                // With references, the key table is read beside the world: this thread waits
                // for both once the pass is done.
                let what = if references { Preload::WithReferences } else { Preload::World };
                s.spawn(move || self.keeper.preload(self, what));
                // The committed JDK table every world links with (a table with libraries
                // shares its JDK part); its types are parsed when first asked for.
                s.spawn(|| mji_xref::world::jdk_api::JdkApi::shared().len());
            }
            pass();
            // The stamps the call's world is checked against, made while the store is read
            // rather than after (on the JDK, ~15 ms of a fresh `refs` command).
            if let Start::World { .. } = start
                && let Ok(mut ahead) = self.stamped_ahead.lock()
            {
                *ahead = Some(self.stamp_files());
            }
        });
        self.one_call.store(true, Ordering::Release);
        self.flush();
    }

    /// Whether this host answers one call ([`Host::prepare`]): nothing is kept for a next one.
    pub(crate) fn is_one_call(&self) -> bool {
        self.one_call.load(Ordering::Acquire)
    }

    /// The word filters of the view and configuration files `find_references` searched.
    pub fn view_filters(&self) -> &crate::xref::ViewFilters {
        &self.view_filters
    }

    /// Waits (up to the configured time) for the first indexing pass.
    pub fn wait_index(&self) -> bool {
        self.index().wait_complete(std::time::Duration::from_millis(self.config.index_wait_ms))
    }

    /// The configuration this run was opened with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The roots and their path policy.
    pub fn roots(&self) -> &Roots {
        &self.roots
    }

    /// Which Lombok a root's build names, said as `Lombok 1.18.30 (pom.xml)`: the first root
    /// that uses it.
    pub fn lombok(&self) -> Option<String> {
        self.roots.paths().iter().find_map(|r| mji_build::lombok::lombok_use(r).map(|u| u.describe(r)))
    }

    /// The reference engine.
    pub fn xref(&self) -> &XrefEngine {
        self.keeper.engine()
    }

    /// The calls waiting or running, which the background binding pass yields to: the server's
    /// call pool raises it around each call ([`Keeper::foreground`]).
    pub fn foreground(&self) -> &mji_model::foreground::Foreground {
        self.keeper.foreground()
    }

    /// The reference keeper (the engine, the world last answered with, the binding loop).
    pub fn keeper(&self) -> &Keeper {
        &self.keeper
    }

    /// The edit tools' last previews.
    pub fn scip_exporter(&self) -> &mji_scip::Exporter {
        &self.scip
    }

    pub fn previews(&self) -> &Previews {
        &self.previews
    }

    /// The user's editor.
    pub fn editor(&self) -> &mji_editor::Editor {
        &self.editor
    }

    /// Test runs and goals started in this session, by `runId`.
    pub fn runs(&self) -> &mji_build::runs::Runs {
        &self.runs
    }

    /// The build models `maven_update_project` read last, by build root.
    pub fn build_models(&self) -> &Mutex<HashMap<PathBuf, mji_build::project::Project>> {
        &self.build_models
    }

    /// The build's settings (the problems engine's, so both read the same classpaths).
    pub fn build_settings(&self) -> mji_build::Settings {
        self.problems_engine().settings().build()
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

    /// Warnings from opening the workspace (e.g. a cache that fell back to memory); opens
    /// the caches not opened yet.
    pub fn warnings(&self) -> Vec<String> {
        self.caches.iter().flat_map(|c| c.warnings()).collect()
    }

    /// [`Host::warnings`] of the caches opened so far (a one-shot command's, after its call:
    /// a cache it never used is neither opened nor reported).
    pub fn warnings_so_far(&self) -> Vec<String> {
        self.caches.iter().flat_map(|c| c.warnings_so_far()).collect()
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
        self.keeper.persist()
    }

    /// Every cache write that failed (see [`Cache::write_error`]); empty when all reached the
    /// disk. The server keeps answering from memory; the CLI reports them and fails.
    pub fn write_errors(&self) -> Vec<String> {
        let xref = self.keeper.write_error();
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
        use mji_fs::roots::PathError;
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
        self.roots.recheck(path, display).map_err(|e| ToolError::InvalidArgument(e.to_string()))?;
        crate::check_regular(path, display, self.roots.max_file_bytes()).map(|_| ())
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
                java_home: c.jdk_env.java_home.clone(),
                path_env: c.jdk_env.path.clone(),
                max_file_bytes: c.max_file_bytes,
                trusted: c.trusted,
                annotation_processing: c.annotation_processing,
                helper_dir: mji_problems::javac::user_helper_dir(),
            };
            Arc::new(ProblemsEngine::new(settings, self.roots.paths().to_vec()))
        })
    }

    /// The library index (the JDK's jmods, then the classpath jars), built on first use
    /// (cached per archive in the user cache dir).
    pub fn libraries(&self) -> Arc<LibraryIndex> {
        self.refresh_libraries();
        self.libraries.get_or_build(
            || {
                let mut archives: Vec<(PathBuf, Origin)> = Vec::new();
                if let Some(h) = self.config.jdk_env.jdk_home() {
                    archives.extend(mji_classfile::library::jdk_jmods(&h).into_iter().map(|p| (p, Origin::Jdk)));
                }
                archives.extend(self.classpath_jars().into_iter().map(|p| (p, Origin::Classpath)));
                archives
            },
            mji_fs::provenance::user_cache_dir().map(|d| d.join("libraries")).as_deref(),
            self.max_archive_entries(),
        )
    }

    /// The most entries read from one archive (`max_archive_entries`).
    pub fn max_archive_entries(&self) -> usize {
        usize::try_from(self.config.max_archive_entries).unwrap_or(usize::MAX)
    }

    /// Forgets the library types when the Maven classpaths stored in a trusted workspace's
    /// cache changed since they were read (a `get_problems` run resolved one): navigation then
    /// uses what Maven resolved without a restart. A listing of one directory; nothing untrusted.
    fn refresh_libraries(&self) {
        if self.config.trusted && self.libraries.forget_if_changed(&self.build_settings().cache_dir.join("classpaths"))
        {
            self.forget_libraries();
        }
    }

    /// Forgets the library index and the engine's library types: the next call reads the
    /// classpath again (after the build files changed; `maven_update_project`).
    pub fn forget_libraries(&self) {
        self.libraries.forget();
        if let Ok(mut done) = self.xref_libraries.lock() {
            *done = false;
        }
        // The world last answered is no answer for the next call.
        self.keeper.forget_world();
    }

    /// The workspace's classpath jars, in order: the configured `classpath`'s, then what the
    /// project model resolves for each module of each root's build (`mji_build::classpath`: a
    /// Maven module's dependencies from the local repository, a Gradle build's from its caches,
    /// a plain project's `lib/`). Navigation never runs the build. In a trusted workspace, a
    /// Maven module's classpath is the one Maven resolved when a run stored it (`get_problems`,
    /// `maven_update_project`: the test scope, else the compile scope); otherwise its pom's
    /// dependencies found in the local repository, without their own dependencies — a type
    /// whose supertypes are missing then stays `likely`, never guessed.
    ///
    /// Class directories are entries too (read like a jar): a configured one wherever it is; a
    /// resolved one (a reactor module's `target/classes`, a plain project's) only outside the
    /// roots, since inside them it is the workspace's own code compiled, whose sources are indexed.
    pub fn classpath_jars(&self) -> Vec<PathBuf> {
        mji_build::classpath::library_entries(self.roots.paths(), &self.config.classpath, &self.build_settings())
    }

    /// Gives the resolution engine the classpath's library types (their class files' signatures),
    /// once per workspace, before its first world: a call on a library method's result is then
    /// typed by the method's signature. Without classpath jars the engine keeps the JDK's alone.
    ///
    /// When the user's JDK is another version than the committed JDK table's, the JDK's part is
    /// read from its image (the table's packages) and its package and type names replace JDK
    /// 17's, so the JDK described — what an import or `java.lang` resolves to — is the one the
    /// user runs.
    pub(crate) fn library_types_to_xref(&self) {
        use mji_xref::world::jdk_api::JdkApi;
        let Ok(mut done) = self.xref_libraries.lock() else { return };
        if *done {
            return;
        }
        *done = true;
        let jars = self.classpath_jars();
        let jdk = crate::jdk::user_jdk_tables(&self.config.jdk_env);
        if jars.is_empty() && jdk.is_none() {
            // Nothing beyond the committed table (and, after `forget`, none of the old jars').
            self.xref().set_libraries(None);
            return;
        }
        let cache = mji_fs::provenance::user_cache_dir().map(|d| d.join("libraries"));
        let (table, _) =
            mji_classfile::api::table_cached_where(&jars, cache.as_deref(), None, self.max_archive_entries());
        let jdk = jdk.as_deref();
        let mut api = JdkApi::with_jdk(jdk.and_then(|j| j.api.as_deref()), &table);
        if let Some(names) = jdk.and_then(|j| j.names.as_deref()) {
            api = api.with_names(names);
        }
        self.xref().set_libraries(Some(Arc::new(api)));
    }

    /// The world of the workspace's Java files, re-read where a file changed since last time
    /// (stamps taken now, so answers are fresh even without a watcher), and the files with their
    /// display paths ([`Keeper::world`]).
    pub fn xref_world(&self) -> (Arc<World>, ShownFiles) {
        self.keeper.world(self)
    }

    /// Binds every file's references ([`Keeper::warm`]). Returns the files bound.
    pub fn warm_references(&self) -> usize {
        self.keeper.warm(self)
    }

    /// Binds every file's references on every core and writes them ([`Keeper::warm_now`]):
    /// `index DIR`, so that later commands find every file bound. Returns the files bound.
    pub fn warm_references_now(&self) -> usize {
        self.keeper.warm_now(self)
    }

    /// The server's reference keeper, on the calling thread until the workspace closes
    /// ([`Keeper::keep`]).
    pub fn keep_references(&self, every: std::time::Duration, after_pass: &dyn Fn()) {
        self.keeper.keep(self, every, after_pass);
    }

    /// Reads the persisted world and reference index now, without waiting for the first index
    /// pass ([`Keeper::preload`]): the reference index after the world.
    pub fn preload_references(&self) {
        self.keeper.preload(self, Preload::ThenReferences);
    }

    /// Frees what a pass over many files left behind ([`Keeper::compact`]); whether it read
    /// the store back.
    pub fn compact_references(&self) -> bool {
        self.keeper.compact()
    }

    /// How many files and references the cross-reference engine keeps bound.
    pub fn xref_bound(&self) -> (usize, usize) {
        self.xref().bound()
    }

    /// Heap bytes of the kept references, roughly.
    pub fn xref_bound_bytes(&self) -> usize {
        self.xref().bound_bytes()
    }

    pub(crate) fn display_of(&self, p: &Path) -> String {
        match self.roots.root_of(p) {
            Some(i) => self.roots.display(p, i),
            None => p.display().to_string(),
        }
    }

    /// The files a search could not bind fully ([`mji_edit::ctx::Ctx::incomplete`]).
    pub(crate) fn incomplete(&self, unbound: Vec<(Arc<Path>, mji_xref::bind::DepthCut)>) -> Vec<String> {
        mji_edit::ctx::Ctx::incomplete(self, unbound)
    }

    /// The Kotlin files that mention one of `names` as a word (a getter's or setter's property
    /// name too: Kotlin calls `getName()` as `.name`), each shown with how many times: the
    /// caller keeps those where no reference to the target was bound, and more mentions than
    /// the file's declarations of it.
    pub(crate) fn kotlin_mentions(&self, names: &[String]) -> Vec<(String, usize)> {
        let files = self.index().kotlin_files();
        if files.is_empty() {
            return Vec::new();
        }
        let mut words: Vec<String> = names.to_vec();
        for n in names {
            let rest = ["get", "set", "is"]
                .iter()
                .find_map(|p| n.strip_prefix(p))
                .filter(|r| r.starts_with(char::is_uppercase));
            if let Some(rest) = rest {
                let mut cs = rest.chars();
                words.extend(cs.next().map(|c| c.to_lowercase().collect::<String>() + cs.as_str()));
            }
        }
        words.sort();
        words.dedup();
        let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let finders: Vec<memchr::memmem::Finder> =
            words.iter().filter(|w| !w.is_empty()).map(|w| memchr::memmem::Finder::new(w.as_bytes())).collect();
        // Every occurrence that stands alone as a word. Non-overlapping ones suffice: a name is
        // word characters, so one that overlaps an earlier occurrence follows a word character.
        let mentions = |text: &[u8]| {
            finders
                .iter()
                .map(|f| {
                    let n = f.needle().len();
                    f.find_iter(text)
                        .filter(|&i| (i == 0 || !is_word(text[i - 1])) && text.get(i + n).is_none_or(|&b| !is_word(b)))
                        .count()
                })
                .sum::<usize>()
        };
        // Read and searched on every core (392 files, 1.2 MB, in spring-framework), in order.
        use rayon::prelude::*;
        files
            .par_iter()
            .filter_map(|(p, root)| {
                let display = self.roots().display(p, *root);
                let text = self.roots().read(p, &display).ok()?;
                let n = mentions(&text);
                (n > 0).then_some((display, n))
            })
            .collect()
    }
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

/// The keeper's view of this workspace: the live index's files and stamps, and the library
/// types.
impl mji_xref::keeper::Files for Host {
    fn settle(&self) {
        self.wait_index();
        self.refresh_libraries();
    }

    fn listed(&self, up_to: std::time::Duration) -> bool {
        self.index().wait_pass(up_to)
    }

    fn version(&self) -> (u64, bool) {
        (self.index().version(), self.index().is_watching())
    }

    fn give_libraries(&self, _: &XrefEngine) {
        self.library_types_to_xref();
    }

    fn stamped_now(&self) -> StampedFiles {
        if let Some(ahead) = self.stamped_ahead.lock().ok().and_then(|mut ahead| ahead.take()) {
            return ahead;
        }
        self.stamp_files()
    }

    /// The view and configuration files' word filters, made before the first search needs
    /// them ([`crate::xref::prepare_view_filters`]).
    fn prepare_calls(&self, pause: &dyn Fn() -> bool) {
        crate::xref::prepare_view_filters(self, pause);
    }
}

impl Host {
    /// Every Java and Kotlin file's stamp now (salted with its `lombok.config`'s) and shown
    /// path ([`mji_xref::keeper::Files::stamped_now`]).
    fn stamp_files(&self) -> StampedFiles {
        let (mut now, watching) = self.index().java_file_stamps_now();
        // Kotlin files too: the world holds their declarations as Java sees them.
        now.extend(self.index().kotlin_file_stamps_now());
        // The salt is a directory's: looked up once for each run of files in one directory
        // (the files come in path order), not by path for every file; with no `lombok.config`
        // in any root, not at all (every salt is 0).
        let configs = self.index().has_lombok_config();
        let mut last: Option<(Arc<Path>, u64)> = None;
        let stamps = now
            .into_iter()
            .map(|(p, root, mut st)| {
                let shown = self.roots.display(&p, root);
                // A file's `lombok.config` is part of what it declares: a changed one makes the
                // engine read and bind the file again, as an edit of it would.
                let salt = match (&last, p.parent()) {
                    _ if !configs => 0,
                    (Some((dir, salt)), Some(parent)) if dir.as_os_str() == parent.as_os_str() => *salt,
                    (_, parent) => {
                        let salt = self.index().lombok().salt(&p);
                        last = parent.map(|d| (Arc::from(d), salt));
                        salt
                    }
                };
                st.size ^= salt;
                (FileStamp { path: p, stamp: st }, shown)
            })
            .collect();
        (stamps, watching)
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
    }
}
