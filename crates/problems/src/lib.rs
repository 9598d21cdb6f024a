//! Problems of Java files (`get_problems`): syntax errors from our own parse and javac's
//! diagnostics from a warm compiler process, merged, cached by content, filtered, sorted
//! (errors first) and paged. Synchronous: a project-wide check that outlasts its time budget
//! answers with what it has and finishes on a background thread, into the cache.

pub mod hints;
pub mod javac;
mod missing;

/// The build context of a file now comes from the project model (`mji_build`).
pub use mji_build::classpath;
pub mod syntax;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::javac::{Failure, Helper, JdkInstall};
use mji_build::Context;

/// How serious a problem is (LSP's four levels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Severity {
    Error,
    Warning,
    Information,
    Hint,
}

/// Which checker found a problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ProblemSource {
    /// Our own tree-sitter parse: immediate, always available.
    Syntax,
    /// The JDK's compiler, with the project's source roots and classpath.
    Javac,
}

/// A 1-based line and column (columns count UTF-16 code units, a tab is one column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

/// Where a problem is: from its first character to just after its last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

/// One problem in one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Problem {
    /// The file, as the workspace shows it (relative to its root).
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub severity: Severity,
    pub source: ProblemSource,
    /// javac's diagnostic key (`compiler.err.cant.resolve.location`) or `syntax.missing`,
    /// `syntax.unexpected`, `syntax.lexical`.
    pub code: String,
    pub message: String,
    pub range: Range,
    /// `missing-dependency`: javac could not find a library type or package while the
    /// classpath is known to be incomplete, so the code may well be right; `generated-source`:
    /// a type or package the build generates (a Modello model's, an ANTLR grammar's) that it
    /// has not generated yet. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
    /// The quick fixes `refactor_actions` applies (`action: "quick_fix"`, `fixId`). Absent
    /// when there are none; the engine leaves it empty and the tools fill it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<Fix>,
}

/// One quick fix of a problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Fix {
    pub fix_id: String,
    pub title: String,
}

/// What happened to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FileState {
    /// Every requested source ran; no diagnostic means clean.
    Analysed,
    /// Only the syntax source ran (javac unavailable or failed; see `reason`).
    SyntaxOnly,
    /// Not analysed at all (see `reason`).
    Skipped,
    /// javac did not finish within the time budget; it continues in the background and the
    /// next call answers from its results. Syntax problems are included.
    TimedOut,
}

/// One file's state in an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FileReport {
    pub file: String,
    pub status: FileState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// What the javac source could do in this answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JavacStatus {
    /// Whether javac ran (false: `reason` says why; syntax problems are still reported).
    pub available: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The JDK's version, once its helper started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Whether every classpath used was determined completely (false: see `classpathNotes`
    /// and problems with `cause: "missing-dependency"`).
    pub classpath_complete: bool,
    /// How each project's classpath was found, and what is missing.
    pub classpath_notes: Vec<String>,
    /// Which annotation processor ran (`lombok (…)`), or why Lombok's members are not checked
    /// by javac; absent when the files use no processor's annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotation_processing: Option<String>,
}

/// A Lombok jar by its name: `lombok.jar`, `lombok-1.18.30.jar` (not `lombok-mapstruct-binding`).
pub fn is_lombok_jar(p: &Path) -> bool {
    let Some(name) = p.file_name().and_then(|n| n.to_str()) else { return false };
    let Some(stem) = name.strip_suffix(".jar") else { return false };
    stem == "lombok" || stem.strip_prefix("lombok-").is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()))
}

/// Which sources a check runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sources {
    pub syntax: bool,
    pub javac: bool,
}

/// The engine's settings (from the configuration).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Where the helper's class file and resolved classpaths are kept.
    pub cache_dir: PathBuf,
    /// How long a check waits for javac before answering with what it has.
    pub budget: Duration,
    /// `-Xlint:` categories (empty: no lint warnings).
    pub lint: String,
    /// More javac options, added last.
    pub javac_options: Vec<String>,
    /// Classpath entries added to every project's.
    pub classpath: Vec<PathBuf>,
    /// Maven's local repository (`-Dmaven.repo.local`); None: Maven's default.
    pub maven_repo_local: Option<PathBuf>,
    /// Gradle's user home, whose dependency cache (`caches/modules-2`) a Gradle build's
    /// libraries are found in; None: not looked for.
    pub gradle_user_home: Option<PathBuf>,
    /// Environment lookups (JAVA_HOME, PATH), a parameter so tests can give their own.
    pub java_home: Option<PathBuf>,
    pub path_env: Option<std::ffi::OsString>,
    /// The most bytes read from one file (larger files are skipped with the reason).
    pub max_file_bytes: u64,
    /// Whether the workspace is trusted to run its build (Maven runs the pom's plugins).
    pub trusted: bool,
    /// Run annotation processors (the user's choice; also needs a trusted workspace).
    pub annotation_processing: bool,
    /// Where the javac helper is compiled: a user-level directory, never one the repository
    /// could have filled (a class file planted there would run).
    pub helper_dir: PathBuf,
}

impl Settings {
    /// What the project model needs of these settings.
    pub fn build(&self) -> mji_build::Settings {
        mji_build::Settings {
            cache_dir: self.cache_dir.clone(),
            maven_repo_local: self.maven_repo_local.clone(),
            gradle_user_home: self.gradle_user_home.clone(),
            java_home: self.java_home.clone(),
            path_env: self.path_env.clone(),
            trusted: self.trusted,
        }
    }
}

/// The answer of a check, before filtering.
#[derive(Debug, Clone)]
pub struct Checked {
    pub problems: Vec<Problem>,
    pub files: Vec<FileReport>,
    pub javac: JavacStatus,
    pub complete: bool,
}

/// What [`ProblemsEngine::compile_now`] found.
#[derive(Debug, Clone, Default)]
pub struct Compiled {
    /// javac's problems of the compiled files, every severity.
    pub problems: Vec<Problem>,
    /// Files compiled.
    pub files: usize,
    /// Files left out: their classpath was still being resolved.
    pub unresolved: usize,
}

/// How long a check waits for a build context (Maven's classpath) before answering with
/// syntax problems only; the resolution goes on in the background.
const CLASSPATH_WAIT: Duration = Duration::from_secs(3);

/// A Kotlin source's state: its syntax checked, never javac.
pub const KOTLIN_SYNTAX_ONLY: &str = "a Kotlin source: syntax problems only (javac does not compile Kotlin)";

/// A project's context as resolved for a fingerprint of its build files; None while resolving.
type Resolution = (String, Option<Arc<Context>>);

/// Files compiled together in one javac request.
const BATCH: usize = 250;

type Key = String;

/// Files of one build context to compile with the same options.
struct Job {
    ctx: Arc<Context>,
    options: Vec<String>,
    items: Vec<(Key, CheckFile)>,
}

#[derive(Default)]
struct Results {
    done: HashMap<Key, Arc<Vec<Problem>>>,
    inflight: HashSet<Key>,
    failed: HashMap<Key, String>,
}

/// The problems engine of one workspace: classpaths, the warm javac, the result cache.
pub struct ProblemsEngine {
    settings: Settings,
    roots: Vec<PathBuf>,
    jdk: OnceLock<Result<JdkInstall, String>>,
    helper: Mutex<Option<Helper>>,
    version: Mutex<Option<String>>,
    /// Build contexts by project directory, with the fingerprint they were resolved for;
    /// None while a background thread resolves it.
    contexts: Mutex<HashMap<PathBuf, Resolution>>,
    context_landed: Condvar,
    results: Mutex<Results>,
    landed: Condvar,
    requests: std::sync::atomic::AtomicU64,
}

/// A file to check: its canonical path and how answers name it.
#[derive(Debug, Clone)]
pub struct CheckFile {
    pub path: PathBuf,
    pub display: String,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl ProblemsEngine {
    pub fn new(settings: Settings, roots: Vec<PathBuf>) -> ProblemsEngine {
        ProblemsEngine {
            settings,
            roots,
            jdk: OnceLock::new(),
            helper: Mutex::new(None),
            version: Mutex::new(None),
            contexts: Mutex::new(HashMap::new()),
            context_landed: Condvar::new(),
            results: Mutex::new(Results::default()),
            landed: Condvar::new(),
            requests: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Forgets every resolved build context, so the next check resolves them again (after the
    /// build files or the local repository changed: `maven_update_project`).
    pub fn forget_contexts(&self) {
        lock(&self.contexts).retain(|_, (_, c)| c.is_none());
    }

    /// The engine's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The JDK used, or why there is none.
    pub fn jdk(&self) -> Result<&JdkInstall, String> {
        self.jdk
            .get_or_init(|| javac::find_jdk(self.settings.java_home.as_deref(), self.settings.path_env.as_deref()))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The process id of the warm compiler, if it runs (for the benchmark's memory figure).
    pub fn helper_pid(&self) -> Option<u32> {
        lock(&self.helper).as_ref().map(Helper::pid)
    }

    /// How many javac requests the helper has been sent (answers from the cache send none).
    pub fn javac_requests(&self) -> u64 {
        self.requests.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The build contexts (source roots, classpath) of files, each resolved once per
    /// build-file content on a background thread (Maven may take many seconds, offline even
    /// to fail); waits for them until `until`. None: still being resolved.
    fn contexts_of(self: &Arc<Self>, files: &[&Path], until: Instant) -> Vec<Option<Arc<Context>>> {
        let mut by_dir: HashMap<PathBuf, (PathBuf, String)> = HashMap::new();
        let wanted: Vec<(PathBuf, String)> = files
            .iter()
            .map(|f| {
                let parent = f.parent().unwrap_or(f).to_path_buf();
                by_dir.entry(parent).or_insert_with(|| classpath::project_of(f, &self.roots)).clone()
            })
            .collect();
        // A project's contexts are kept by directory, and a Gradle module's test source sets
        // apart from its main one (their classpaths differ: `testImplementation`).
        let key_of = |dir: &PathBuf, fp: &str| if fp.ends_with(":test") { dir.join(":test") } else { dir.clone() };
        let wanted: Vec<(PathBuf, PathBuf, String)> =
            wanted.into_iter().map(|(dir, fp)| (key_of(&dir, &fp), dir, fp)).collect();
        let mut map = lock(&self.contexts);
        for ((key, dir, fp), file) in wanted.iter().zip(files) {
            if map.get(key).is_some_and(|(f, _)| f == fp) {
                continue;
            }
            map.insert(key.clone(), (fp.clone(), None));
            let (me, k, d, f, path) = (self.clone(), key.clone(), dir.clone(), fp.clone(), file.to_path_buf());
            let resolve = move || {
                let c = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    classpath::resolve(&d, &path, &me.roots, &me.settings.build())
                }));
                let mut map = lock(&me.contexts);
                if map.get(&k).is_none_or(|(now, _)| *now == f) {
                    match c {
                        Ok(c) => map.insert(k, (f, Some(Arc::new(c)))),
                        // Asked again, it is tried again.
                        Err(_) => map.remove(&k),
                    };
                }
                drop(map);
                me.context_landed.notify_all();
            };
            let spawned = std::thread::Builder::new().name("classpath".to_owned()).spawn(resolve);
            if let Err(e) = spawned {
                tracing::warn!("cannot start a classpath thread ({e}); resolving in the caller");
                drop(map);
                let c = Arc::new(classpath::resolve(dir, file, &self.roots, &self.settings.build()));
                map = lock(&self.contexts);
                map.insert(key.clone(), (fp.clone(), Some(c)));
            }
        }
        loop {
            let ready: Vec<Option<Arc<Context>>> = wanted
                .iter()
                .map(|(k, _, fp)| map.get(k).filter(|(f, _)| f == fp).and_then(|(_, c)| c.clone()))
                .collect();
            let now = Instant::now();
            if ready.iter().all(Option::is_some) || now >= until {
                return ready;
            }
            map = self.context_landed.wait_timeout(map, until - now).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// Lombok's jar on a trusted workspace's classpath (`lombok-1.18.30.jar`, `lombok.jar`), run
    /// as javac's only annotation processor: None when the workspace is untrusted (processors are
    /// code the user has not agreed to run) or no Lombok is on the classpath.
    fn lombok_processor(&self, ctx: &Context) -> Option<PathBuf> {
        if !self.settings.trusted {
            return None;
        }
        ctx.classpath.iter().chain(&self.settings.classpath).find(|p| is_lombok_jar(p)).cloned()
    }

    fn options(&self, ctx: &Context) -> Vec<String> {
        let join =
            |v: &[PathBuf]| std::env::join_paths(v).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let mut o: Vec<String> =
            ["-implicit:none", "-encoding", "UTF-8", "-Xmaxerrs", "100000", "-Xmaxwarns", "100000"]
                .into_iter()
                .map(str::to_owned)
                .collect();
        // Annotation processors are repository code: off unless the user turned them on for a
        // trusted workspace (then javac's default discovery runs them). Lombok alone runs in a
        // trusted workspace whose classpath has it: its members exist only once it ran.
        if !(self.settings.annotation_processing && self.settings.trusted) {
            match self.lombok_processor(ctx) {
                Some(jar) => {
                    o.push("-processorpath".to_owned());
                    o.push(jar.to_string_lossy().into_owned());
                }
                None => o.insert(0, "-proc:none".to_owned()),
            }
        }
        if !self.settings.lint.trim().is_empty() {
            o.push(format!("-Xlint:{}", self.settings.lint.trim()));
        }
        o.push("-sourcepath".to_owned());
        o.push(join(&ctx.source_roots));
        let mut cp = ctx.classpath.clone();
        cp.extend(self.settings.classpath.iter().cloned());
        o.push("-classpath".to_owned());
        o.push(join(&cp));
        o.extend(self.settings.javac_options.iter().cloned());
        o
    }

    /// Checks files with the requested sources. javac runs on a background thread; this call
    /// waits for it up to the time budget (`budget` overrides the configured one).
    pub fn check(self: &Arc<Self>, targets: &[CheckFile], sources: Sources, budget: Option<Duration>) -> Checked {
        let deadline = Instant::now() + budget.unwrap_or(self.settings.budget);
        let mut problems = Vec::new();
        let mut files = Vec::new();
        let mut javac = JavacStatus { classpath_complete: true, ..Default::default() };
        // Read every file; syntax now.
        let mut readable: Vec<(usize, &CheckFile, Vec<u8>)> = Vec::new();
        for t in targets {
            match mji_fs::read_regular(&t.path, self.settings.max_file_bytes) {
                Ok(bytes) => {
                    if sources.syntax {
                        problems.extend(syntax::check(&t.display, &bytes));
                    }
                    // A Kotlin source: its syntax alone (javac does not compile Kotlin).
                    if t.path.extension().is_some_and(|x| x == "kt") {
                        files.push(FileReport {
                            file: t.display.clone(),
                            status: if sources.javac { FileState::SyntaxOnly } else { FileState::Analysed },
                            reason: sources.javac.then(|| KOTLIN_SYNTAX_ONLY.to_owned()),
                        });
                        continue;
                    }
                    files.push(FileReport { file: t.display.clone(), status: FileState::Analysed, reason: None });
                    readable.push((files.len() - 1, t, bytes));
                }
                Err(e) => files.push(FileReport {
                    file: t.display.clone(),
                    status: FileState::Skipped,
                    reason: Some(format!("not read: {e}")),
                }),
            }
        }
        if !sources.javac || readable.is_empty() {
            // Kotlin sources alone: no javac to run.
            if sources.javac
                && !files.is_empty()
                && files.iter().all(|f| f.reason.as_deref() == Some(KOTLIN_SYNTAX_ONLY))
            {
                javac.reason = Some(KOTLIN_SYNTAX_ONLY.to_owned());
                return Checked { problems, files, javac, complete: true };
            }
            javac.reason = Some(if sources.javac { "no readable file".to_owned() } else { "not requested".to_owned() });
            return Checked { problems, files, javac, complete: true };
        }
        if let Err(reason) = self.jdk() {
            javac.reason = Some(reason.clone());
            for (i, _, _) in &readable {
                files[*i].status = FileState::SyntaxOnly;
                files[*i].reason = Some(format!("javac unavailable: {reason}"));
            }
            return Checked { problems, files, javac, complete: true };
        }
        // Group by build context; one key per file. A classpath still resolving (Maven) does
        // not hold the answer: its files answer with syntax problems and finish later.
        let paths: Vec<&Path> = readable.iter().map(|(_, t, _)| t.path.as_path()).collect();
        let resolved = self.contexts_of(&paths, deadline.min(Instant::now() + CLASSPATH_WAIT));
        let mut waiting_classpath = false;
        let mut contexts: Vec<(Arc<Context>, String)> = Vec::new();
        let mut keyed: Vec<(usize, Key, usize)> = Vec::new(); // (file index, key, context index)
        for ((i, t, bytes), ctx) in readable.iter().zip(resolved) {
            let Some(ctx) = ctx else {
                waiting_classpath = true;
                files[*i].status = FileState::TimedOut;
                files[*i].reason = Some(
                    "the project's classpath is being resolved in the background (Maven); syntax problems are included; call again for javac's"
                        .to_owned(),
                );
                continue;
            };
            let ci = match contexts.iter().position(|(c, _)| Arc::ptr_eq(c, &ctx)) {
                Some(ci) => ci,
                None => {
                    let fp = classpath::sources_fingerprint(&ctx.source_roots);
                    let salt = mji_parser::content_hash(format!("{fp}\n{:?}", self.options(&ctx)).as_bytes());
                    contexts.push((ctx, salt));
                    contexts.len() - 1
                }
            };
            let key = mji_parser::content_hash(
                format!("{}\n{}\n{}", contexts[ci].1, t.path.display(), mji_parser::content_hash(bytes)).as_bytes(),
            );
            keyed.push((*i, key, ci));
        }
        for (c, _) in &contexts {
            if let Some(jar) = self.lombok_processor(c) {
                let name = jar.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                javac.annotation_processing =
                    Some(format!("lombok ({name} from the classpath, the workspace is trusted)"));
            }
            javac.classpath_complete &= c.complete;
            for n in &c.notes {
                if !javac.classpath_notes.contains(n) {
                    javac.classpath_notes.push(n.clone());
                }
            }
        }
        // Start what is neither done nor running.
        let mut todo: Vec<Vec<(Key, CheckFile)>> = vec![Vec::new(); contexts.len()];
        {
            let mut r = lock(&self.results);
            for (i, key, ci) in &keyed {
                if r.done.contains_key(key) || r.inflight.contains(key) {
                    continue;
                }
                r.failed.remove(key);
                r.inflight.insert(key.clone());
                let t = readable.iter().find(|(j, _, _)| j == i).map(|(_, t, _)| (*t).clone());
                if let Some(t) = t {
                    todo[*ci].push((key.clone(), t));
                }
            }
        }
        let jobs: Vec<Job> = todo
            .into_iter()
            .enumerate()
            .filter(|(_, v)| !v.is_empty())
            .map(|(ci, items)| Job { ctx: contexts[ci].0.clone(), options: self.options(&contexts[ci].0), items })
            .collect();
        if !jobs.is_empty() {
            let me = self.clone();
            let spawned = std::thread::Builder::new().name("javac".to_owned()).spawn(move || me.run_jobs(jobs));
            if let Err(e) = spawned {
                let mut r = lock(&self.results);
                for (_, key, _) in &keyed {
                    if r.inflight.remove(key) {
                        r.failed.insert(key.clone(), format!("cannot start a thread: {e}"));
                    }
                }
            }
        }
        // Wait for our keys, up to the deadline, telling the call's progress sink (if the shell
        // installed one) how many files javac has answered as each batch lands.
        let progress = mji_model::progress::Progress::current();
        let mut r = lock(&self.results);
        loop {
            let pending = keyed.iter().filter(|(_, k, _)| r.inflight.contains(k)).count();
            if let Some(p) = &progress {
                let (done, total) = (keyed.len() - pending, keyed.len());
                p.report(done as f64, Some(total as f64), format!("javac: {done}/{total} files checked"));
            }
            let now = Instant::now();
            if pending == 0 || now >= deadline {
                break;
            }
            r = self.landed.wait_timeout(r, deadline - now).unwrap_or_else(|e| e.into_inner()).0;
        }
        let mut complete = !waiting_classpath;
        for (i, key, _) in &keyed {
            if let Some(found) = r.done.get(key) {
                problems.extend(found.iter().cloned());
            } else if let Some(reason) = r.failed.get(key) {
                files[*i].status = FileState::SyntaxOnly;
                files[*i].reason =
                    Some(if reason.starts_with("javac") { reason.clone() } else { format!("javac failed: {reason}") });
                javac.reason.get_or_insert_with(|| format!("{}: {reason}", files[*i].file));
            } else {
                complete = false;
                files[*i].status = FileState::TimedOut;
                files[*i].reason =
                    Some("javac is still running in the background; call again for its results".to_owned());
            }
        }
        drop(r);
        javac.available = files.iter().any(|f| f.status == FileState::Analysed) || !complete;
        if !javac.available && javac.reason.is_none() {
            javac.reason = Some("javac did not run".to_owned());
        }
        javac.version = lock(&self.version).clone();
        Checked { problems, files, javac, complete }
    }

    /// javac's problems of `targets` now, on the warm helper, without the result cache (the
    /// cache is keyed by a file's own text, so it cannot tell that a file broke because a
    /// file it uses changed: the check after an applied edit needs this). Same build
    /// contexts, options and trust rules as [`ProblemsEngine::check`]; files whose classpath
    /// is still being resolved after `wait` are left out and counted. Errs when javac cannot
    /// run at all.
    pub fn compile_now(self: &Arc<Self>, targets: &[CheckFile], wait: Duration) -> Result<Compiled, String> {
        self.jdk()?;
        let paths: Vec<&Path> = targets.iter().map(|t| t.path.as_path()).collect();
        let contexts = self.contexts_of(&paths, Instant::now() + wait);
        let mut out = Compiled::default();
        let mut groups: Vec<(Arc<Context>, Vec<&CheckFile>)> = Vec::new();
        for (t, ctx) in targets.iter().zip(contexts) {
            let Some(ctx) = ctx else {
                out.unresolved += 1;
                continue;
            };
            match groups.iter_mut().find(|(c, _)| Arc::ptr_eq(c, &ctx)) {
                Some((_, v)) => v.push(t),
                None => groups.push((ctx, vec![t])),
            }
        }
        for (ctx, files) in groups {
            let options = self.options(&ctx);
            for batch in files.chunks(BATCH) {
                let paths: Vec<&Path> = batch.iter().map(|t| t.path.as_path()).collect();
                let diags = self.compile(&options, &paths).map_err(|f| f.to_string())?;
                out.files += batch.len();
                for d in diags {
                    if let Some(t) = batch.iter().find(|t| t.path == d.path) {
                        let mut p = vec![d.into_problem(&t.display)];
                        if !ctx.complete {
                            missing::mark_missing_dependencies(&t.path, &mut p);
                        }
                        missing::mark_generated_sources(&ctx.generated, &mut p);
                        out.problems.extend(p);
                    }
                }
            }
        }
        Ok(out)
    }

    /// The background side: compiles each job in batches and files the results.
    /// A batch on which javac crashes is split in halves until the crashing file is alone, so
    /// the other files still get their answers.
    fn run_jobs(&self, jobs: Vec<Job>) {
        for Job { ctx, options, items } in jobs {
            let mut pending: Vec<Vec<(Key, CheckFile)>> = items.chunks(BATCH).rev().map(<[_]>::to_vec).collect();
            while let Some(batch) = pending.pop() {
                let paths: Vec<&Path> = batch.iter().map(|(_, t)| t.path.as_path()).collect();
                let outcome = self.compile(&options, &paths);
                let outcome = match outcome {
                    Err(Failure::Crashed(_)) if batch.len() > 1 => {
                        let (a, b) = batch.split_at(batch.len() / 2);
                        pending.push(b.to_vec());
                        pending.push(a.to_vec());
                        continue;
                    }
                    Err(Failure::Crashed(why)) => Err(format!(
                        "javac crashed on this file ({why}); the javac helper was restarted and the other files were checked"
                    )),
                    Err(Failure::Helper(why)) => Err(why),
                    Ok(d) => Ok(d),
                };
                let mut r = lock(&self.results);
                match outcome {
                    Ok(diags) => {
                        let mut by_file: HashMap<&Path, Vec<Problem>> = HashMap::new();
                        for d in diags {
                            if let Some((_, t)) = batch.iter().find(|(_, t)| t.path == d.path) {
                                by_file.entry(t.path.as_path()).or_default().push(d.into_problem(&t.display));
                            }
                        }
                        for (key, t) in &batch {
                            let mut found = by_file.remove(t.path.as_path()).unwrap_or_default();
                            if !ctx.complete {
                                missing::mark_missing_dependencies(&t.path, &mut found);
                            }
                            missing::mark_generated_sources(&ctx.generated, &mut found);
                            r.inflight.remove(key);
                            r.done.insert(key.clone(), Arc::new(found));
                        }
                    }
                    Err(reason) => {
                        for (key, _) in &batch {
                            r.inflight.remove(key);
                            r.failed.insert(key.clone(), reason.clone());
                        }
                    }
                }
                drop(r);
                self.landed.notify_all();
            }
        }
    }

    /// Compiles `files` on the warm helper and writes their class files into the `-d`
    /// directory `options` name (run_tests' fast path); javac's diagnostics, or why it could
    /// not run.
    pub fn generate_classes(&self, options: &[String], files: &[&Path]) -> Result<Vec<javac::RawDiag>, String> {
        self.request(options, files, true).map_err(|f| match f {
            Failure::Helper(m) | Failure::Crashed(m) => m,
        })
    }

    /// One javac analysis on the warm helper.
    fn compile(&self, options: &[String], files: &[&Path]) -> Result<Vec<javac::RawDiag>, Failure> {
        self.request(options, files, false)
    }

    /// One javac request on the warm helper, started (or restarted once) as needed.
    fn request(&self, options: &[String], files: &[&Path], generate: bool) -> Result<Vec<javac::RawDiag>, Failure> {
        let jdk = self.jdk().map_err(Failure::Helper)?;
        self.requests.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut slot = lock(&self.helper);
        for attempt in 0..2 {
            if slot.is_none() {
                let h = Helper::start(jdk, &self.settings.helper_dir, self.settings.max_file_bytes, &self.roots)
                    .map_err(Failure::Helper)?;
                *lock(&self.version) = Some(h.version().to_owned());
                *slot = Some(h);
            }
            let Some(h) = slot.as_mut() else { continue };
            let answer = if generate { h.generate(options, files) } else { h.compile(options, files) };
            match answer {
                Ok(d) => return Ok(d),
                Err(Failure::Crashed(why)) => {
                    // javac's state after an exception is not to be trusted: a fresh helper.
                    *slot = None;
                    return Err(Failure::Crashed(why));
                }
                Err(e) => {
                    // The helper died or spoke nonsense: start a fresh one and retry once.
                    *slot = None;
                    if attempt == 1 {
                        return Err(e);
                    }
                }
            }
        }
        Err(Failure::Helper("javac helper could not be started".to_owned()))
    }
}

// Which problems of the `missing-dependency` category a query keeps: those javac reports
// because the classpath is incomplete, which say nothing about the code itself. (No doc
// comment: tools/list would carry it to every client.)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MissingDependencies {
    #[default]
    Include,
    // The files' own problems alone.
    Exclude,
    Only,
}

/// Filters of a problems query.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Severities kept (empty: all).
    pub severities: Vec<Severity>,
    /// Sources kept (empty: all).
    pub sources: Vec<ProblemSource>,
    /// Lines kept, inclusive (a problem is kept when its start line is inside).
    pub lines: Option<(u32, u32)>,
    /// The `missing-dependency` category: kept, left out, or alone.
    pub missing: MissingDependencies,
}

impl Filter {
    pub fn keeps(&self, p: &Problem) -> bool {
        self.keeps_any_cause(p)
            && match self.missing {
                MissingDependencies::Include => true,
                MissingDependencies::Exclude => !p.is_missing_dependency() && !p.is_generated_source(),
                MissingDependencies::Only => p.is_missing_dependency() || p.is_generated_source(),
            }
    }

    /// [`Filter::keeps`] but for the category filter.
    fn keeps_any_cause(&self, p: &Problem) -> bool {
        (self.severities.is_empty() || self.severities.contains(&p.severity))
            && (self.sources.is_empty() || self.sources.contains(&p.source))
            && self.lines.is_none_or(|(a, b)| p.line >= a && p.line <= b)
    }
}

/// The `cause` of a problem javac reports only because the classpath is incomplete.
pub const MISSING_DEPENDENCY: &str = "missing-dependency";

/// The `cause` of a problem javac reports only because the build has not generated a type yet
/// (a Modello model's class, an ANTLR grammar's parser): the code may well be right.
pub const GENERATED_SOURCE: &str = "generated-source";

impl Problem {
    /// Whether javac reported it only because the classpath is incomplete.
    pub fn is_missing_dependency(&self) -> bool {
        self.cause.as_deref() == Some(MISSING_DEPENDENCY)
    }

    /// Whether javac reported it only because the build has not generated a type yet.
    pub fn is_generated_source(&self) -> bool {
        self.cause.as_deref() == Some(GENERATED_SOURCE)
    }
}

/// One page of a problems query and its counts.
#[derive(Debug, Clone, Default)]
pub struct Page {
    pub problems: Vec<Problem>,
    /// Problems found before filtering.
    pub total: usize,
    /// Problems left after the filters, before paging.
    pub filtered: usize,
    pub has_more: bool,
    /// Of the problems the other filters keep, those of the `missing-dependency` category
    /// (whether the category filter keeps them or not).
    pub missing_dependencies: usize,
}

/// Errors before warnings before information before hints; then by file, line, column.
pub fn sort(problems: &mut [Problem]) {
    problems.sort_by(|a, b| {
        (a.severity, &a.file, a.line, a.column, a.source, &a.message)
            .cmp(&(b.severity, &b.file, b.line, b.column, b.source, &b.message))
    });
}

/// One page of filtered problems, with the counts an answer reports.
pub fn page(mut all: Vec<Problem>, filter: &Filter, offset: usize, limit: usize) -> Page {
    let total = all.len();
    let missing_dependencies = all.iter().filter(|p| p.is_missing_dependency() && filter.keeps_any_cause(p)).count();
    all.retain(|p| filter.keeps(p));
    sort(&mut all);
    let filtered = all.len();
    let problems: Vec<Problem> = all.into_iter().skip(offset).take(limit).collect();
    let has_more = offset.saturating_add(problems.len()) < filtered;
    Page { problems, total, filtered, has_more, missing_dependencies }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(file: &str, line: u32, severity: Severity, source: ProblemSource) -> Problem {
        let at = Position { line, column: 1 };
        Problem {
            file: file.to_owned(),
            line,
            column: 1,
            severity,
            source,
            code: String::new(),
            message: String::new(),
            range: Range { start: at, end: at },
            cause: None,
            fixes: Vec::new(),
        }
    }

    #[test]
    fn errors_first_then_filters_and_pages() {
        let all = vec![
            p("B.java", 1, Severity::Warning, ProblemSource::Javac),
            p("B.java", 9, Severity::Error, ProblemSource::Javac),
            p("A.java", 5, Severity::Error, ProblemSource::Syntax),
            p("A.java", 2, Severity::Information, ProblemSource::Javac),
        ];
        let Page { problems: page1, total, filtered, has_more, .. } = page(all.clone(), &Filter::default(), 0, 2);
        assert_eq!((total, filtered, has_more), (4, 4, true));
        assert_eq!((page1[0].file.as_str(), page1[0].line), ("A.java", 5));
        assert_eq!((page1[1].file.as_str(), page1[1].line), ("B.java", 9));
        let rest = page(all.clone(), &Filter::default(), 2, 2);
        assert_eq!(rest.problems[0].severity, Severity::Warning);
        assert!(!rest.has_more);
        let f = Filter { severities: vec![Severity::Error], lines: Some((1, 6)), ..Default::default() };
        let only = page(all.clone(), &f, 0, 10);
        assert_eq!((only.total, only.filtered, only.problems[0].line), (4, 1, 5));
        let f = Filter { sources: vec![ProblemSource::Javac], ..Default::default() };
        assert_eq!(page(all, &f, 0, 10).filtered, 3);
    }

    /// Problems of an incomplete classpath are a category of their own: counted whatever the
    /// category filter, left out or kept alone on request; the other filters still apply.
    #[test]
    fn the_missing_dependency_category_is_counted_and_filtered() {
        let mut missing = p("A.java", 3, Severity::Error, ProblemSource::Javac);
        missing.cause = Some(MISSING_DEPENDENCY.to_owned());
        let mut missing_warning = p("A.java", 4, Severity::Warning, ProblemSource::Javac);
        missing_warning.cause = Some(MISSING_DEPENDENCY.to_owned());
        let own = p("A.java", 7, Severity::Error, ProblemSource::Javac);
        let all = vec![missing, missing_warning, own];
        let lines = |r: &Page| r.problems.iter().map(|p| p.line).collect::<Vec<_>>();
        let every = page(all.clone(), &Filter::default(), 0, 10);
        assert_eq!((lines(&every), every.missing_dependencies), (vec![3, 7, 4], 2));
        let f = Filter { missing: MissingDependencies::Exclude, ..Default::default() };
        let own_only = page(all.clone(), &f, 0, 10);
        assert_eq!((lines(&own_only), own_only.filtered, own_only.missing_dependencies), (vec![7], 1, 2));
        let f = Filter { missing: MissingDependencies::Only, severities: vec![Severity::Error], ..Default::default() };
        let cat = page(all, &f, 0, 10);
        assert_eq!((lines(&cat), cat.missing_dependencies), (vec![3], 1));
    }
}
