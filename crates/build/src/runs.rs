//! Test runs and build goals through the project's own build: the command (Maven's argv,
//! or javac and the JUnit console launcher for plain projects), the runs in flight by
//! `runId`, waiting with a budget, progress, cancellation, and the answer read from the JUnit
//! XML reports and the log (compiler errors, `[ERROR]` lines, warnings).

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use mji_model::cancel::Cancel;
use serde::Serialize;

use crate::Settings;
use crate::junit::{self, Counts, Frame, Outcome};
use crate::process::{Exit, Process, Spec};
use crate::project::{BuildSystem, Module, Project};

/// What a run is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Tests,
    Goal,
}

/// One run in flight or finished.
#[derive(Debug)]
pub struct Run {
    pub id: String,
    pub kind: Kind,
    /// Which path ran: `maven`, `gradle`, `fast` (warm javac + the JUnit launcher), or `plain`
    /// (javac + the JUnit console launcher).
    pub path: &'static str,
    pub command: String,
    pub process: Arc<Process>,
    /// Where the JUnit XML reports land.
    pub report_dirs: Vec<PathBuf>,
    /// Reports older than this are a previous run's.
    pub since: SystemTime,
    /// The workspace roots (answers show paths relative to them).
    pub roots: Vec<PathBuf>,
    /// Source and test roots, where stack frames are looked up.
    pub source_roots: Vec<PathBuf>,
    /// Later steps of a plain run (the launcher after javac), started when the first ends well.
    next: Mutex<Option<(Spec, PathBuf)>>,
    current: Mutex<Arc<Process>>,
}

/// The runs of one workspace by id.
#[derive(Debug, Default)]
pub struct Runs {
    map: Mutex<HashMap<String, Arc<Run>>>,
    next: AtomicU64,
}

/// The most runs remembered; the oldest finished ones are forgotten first.
const MAX_RUNS: usize = 64;

impl Runs {
    pub fn get(&self, id: &str) -> Option<Arc<Run>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }

    /// Starts `spec` (and, when it exits 0, `then`) as a new run.
    #[allow(clippy::too_many_arguments)]
    pub fn start(
        &self,
        kind: Kind,
        path: &'static str,
        spec: &Spec,
        then: Option<Spec>,
        log_dir: &Path,
        report_dirs: Vec<PathBuf>,
        roots: &[PathBuf],
        source_roots: Vec<PathBuf>,
    ) -> Result<Arc<Run>, String> {
        let n = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let stamp = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
        let id = format!("{}-{n}", if kind == Kind::Tests { "test" } else { "goal" });
        let log = log_dir.join(format!("{id}-{stamp}.log"));
        // File times have a coarse clock on some file systems: a second of slack.
        let since = SystemTime::now() - Duration::from_secs(1);
        let process = Process::start(spec, &log)?;
        let mut command = spec.shown();
        let next = then.map(|s| {
            command.push_str(" && ");
            command.push_str(&s.shown());
            (s, log.with_extension("2.log"))
        });
        let run = Arc::new(Run {
            id: id.clone(),
            kind,
            path,
            command,
            process: process.clone(),
            report_dirs,
            since,
            roots: roots.to_vec(),
            source_roots,
            next: Mutex::new(next),
            current: Mutex::new(process),
        });
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= MAX_RUNS {
            let mut done: Vec<(String, std::time::Instant)> = map
                .values()
                .filter(|r| r.current().exit().is_some())
                .map(|r| (r.id.clone(), r.process.started))
                .collect();
            done.sort_by_key(|d| d.1);
            for (id, _) in done.into_iter().take(map.len() + 1 - MAX_RUNS) {
                map.remove(&id);
            }
        }
        map.insert(id, run.clone());
        drop(map);
        // A later step starts when the first ends well, whether or not anyone is waiting.
        if run.next.lock().unwrap_or_else(|e| e.into_inner()).is_some() {
            let r = run.clone();
            let _ = std::thread::Builder::new().name(format!("{}-steps", run.id)).spawn(move || {
                while r.process.wait_for(Duration::from_secs(3600)).is_none() {}
                let _ = r.exit();
            });
        }
        Ok(run)
    }
}

/// How far a run got, for progress notifications: reports written, and a word on the phase.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub done: u64,
    pub message: String,
}

impl Run {
    /// The step running now (javac, then the launcher, for a plain run).
    pub fn current(&self) -> Arc<Process> {
        self.current.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The end of the whole run, once every step ended.
    pub fn exit(&self) -> Option<Exit> {
        // The next step's lock is held while it starts, so no caller sees the first step's
        // end as the run's in between.
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        let exit = self.current().exit()?;
        if exit.code == Some(0)
            && let Some((spec, log)) = next.take()
            && let Ok(p) = Process::start(&spec, &log)
        {
            *self.current.lock().unwrap_or_else(|e| e.into_inner()) = p;
            return None;
        }
        Some(exit)
    }

    /// Waits up to `budget` for the end; kills the whole process tree when `cancel` is set
    /// (the client cancelled the waiting request) or `kill` asks. `progress` hears the test
    /// classes reported so far, at most every 500 ms and only when it moved.
    pub fn wait(&self, budget: Duration, cancel: &Cancel, kill: bool, progress: &dyn Fn(&Progress)) -> Option<Exit> {
        let deadline = std::time::Instant::now() + budget;
        let mut last = None;
        loop {
            if kill || cancel.is_cancelled() {
                self.next.lock().unwrap_or_else(|e| e.into_inner()).take();
                return self.current().kill();
            }
            if let Some(e) = self.exit() {
                return Some(e);
            }
            let now = std::time::Instant::now();
            if now >= deadline {
                return None;
            }
            let p = Progress {
                done: self.reports_written(),
                message: format!("{} running for {} s", self.path, self.process.started.elapsed().as_secs()),
            };
            if last.as_ref().is_none_or(|l: &Progress| l.done != p.done) {
                progress(&p);
                last = Some(p);
            }
            self.current().wait_for((deadline - now).min(Duration::from_millis(500)));
        }
    }

    fn reports_written(&self) -> u64 {
        let mut n = 0;
        for d in &self.report_dirs {
            let Ok(rd) = std::fs::read_dir(d) else { continue };
            n += rd
                .flatten()
                .filter(|e| e.file_name().to_str().is_some_and(|n| n.starts_with("TEST-") && n.ends_with(".xml")))
                .filter(|e| e.metadata().and_then(|m| m.modified()).is_ok_and(|m| m >= self.since))
                .count() as u64;
        }
        n
    }

    /// The whole log text (every step's), lossily decoded, at most 8 MB of each.
    pub fn log_text(&self) -> String {
        let mut text = String::new();
        for p in [self.process.log.clone(), self.process.log.with_extension("2.log")] {
            if let Ok(b) = mji_fs::read_regular(&p, 8 << 20) {
                text.push_str(&crate::classpath::strip_ansi(&String::from_utf8_lossy(&b)));
            }
        }
        text
    }
}

/// The state of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Still running: call `get_test_results` with the `runId`.
    Running,
    Finished,
    /// Killed on request (the whole process tree).
    Cancelled,
}

/// One failed or errored test.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    /// `pkg.Class#method` (a parameterized case keeps its index: `add(int)[2]`).
    pub test: String,
    pub outcome: Outcome,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual: Option<String>,
    /// The exception type.
    pub exception: String,
    /// The stack: frames in workspace files first (file and line), then the first other frame.
    pub stack: Vec<Frame>,
    /// Frames left out (outside the workspace).
    pub frames_omitted: u32,
    /// The test's captured output, capped.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub output: String,
}

/// A compiler error the build printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CompileError {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// What a finished (or still running) run says.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Results {
    pub counts: Counts,
    pub failures: Vec<Failure>,
    pub skipped: Vec<String>,
    pub compile_errors: Vec<CompileError>,
    /// `[ERROR]` lines of the log (deduplicated, capped) when the build failed.
    pub errors: Vec<String>,
    pub warnings: u32,
    /// Reports that could not be read.
    pub unreadable_reports: Vec<String>,
}

/// Longest captured output kept per failure, in characters.
const MAX_OUTPUT_CHARS: usize = 2000;
/// Most workspace frames kept per failure.
const MAX_FRAMES: usize = 8;
/// Most `[ERROR]` lines kept.
const MAX_ERROR_LINES: usize = 30;

/// The run's results: the JUnit XML reports and what the log says.
pub fn outcome(run: &Run, exit: Option<Exit>) -> Results {
    let (cases, unreadable) = junit::read_reports(&run.report_dirs, Some(run.since));
    let counts = Counts::of(&cases);
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    for c in &cases {
        match c.outcome {
            Outcome::Skipped => skipped.push(format!("{}#{}", c.class, c.name)),
            Outcome::Failed | Outcome::Errored => failures.push(failure(c, run)),
            Outcome::Passed => {}
        }
    }
    let log = if exit.is_some() { run.log_text() } else { String::new() };
    let failed_build = exit.is_some_and(|e| e.code != Some(0) && !e.killed);
    let compile_errors = compile_errors(&log, &run.roots);
    let errors = if failed_build { error_lines(&log) } else { Vec::new() };
    // Maven's `[WARNING]` lines, and javac's own (`A.java:3: warning: …`, as Gradle shows them).
    let warnings =
        log.lines().filter(|l| l.starts_with("[WARNING]") || l.contains(".java:") && l.contains(": warning: ")).count()
            as u32;
    Results { counts, failures, skipped, compile_errors, errors, warnings, unreadable_reports: unreadable }
}

fn failure(c: &junit::Case, run: &Run) -> Failure {
    let (expected, actual) = junit::expected_actual(&c.message).unzip();
    let all = junit::frames(&c.stack);
    let mut stack: Vec<Frame> = Vec::new();
    let mut other: Option<Frame> = None;
    for (at, file, line) in &all {
        match junit::frame_file(at, file, &run.source_roots) {
            Some(p) if stack.len() < MAX_FRAMES => {
                stack.push(Frame { at: at.clone(), file: Some(junit::shown(&p, &run.roots)), line: *line })
            }
            Some(_) => {}
            None if other.is_none() => other = Some(Frame { at: at.clone(), file: None, line: *line }),
            None => {}
        }
    }
    stack.extend(other);
    let message = c.message.strip_prefix(&format!("{}: ", c.kind)).unwrap_or(&c.message).to_owned();
    Failure {
        test: format!("{}#{}", c.class, c.name),
        outcome: c.outcome,
        message: junit::cap(&message, MAX_OUTPUT_CHARS),
        expected,
        actual,
        exception: c.kind.clone(),
        frames_omitted: (all.len() - stack.len().min(all.len())) as u32,
        stack,
        output: junit::cap(&c.output, MAX_OUTPUT_CHARS),
    }
}

/// Compiler errors as Maven's compiler plugin prints them (`[ERROR] /p/A.java:[3,5] msg`) and
/// as javac does (`/p/A.java:3: error: msg`), each once.
pub fn compile_errors(log: &str, roots: &[PathBuf]) -> Vec<CompileError> {
    let mut out: Vec<CompileError> = Vec::new();
    for l in log.lines() {
        let e = if let Some(rest) = l.strip_prefix("[ERROR] ") {
            // `/path/A.java:[12,5] message`
            rest.split_once(".java:[").and_then(|(file, pos)| {
                let (pos, msg) = pos.split_once("] ")?;
                let (line, col) = pos.split_once(',')?;
                Some(CompileError {
                    file: format!("{file}.java"),
                    line: line.parse().ok()?,
                    column: col.parse().ok()?,
                    message: msg.trim().to_owned(),
                })
            })
        } else {
            // javac: `/path/A.java:12: error: message`; Gradle's plain console may print it
            // on the line of the task's name (`:app:compileJava/path/A.java:12: error: …`).
            l.split_once(".java:").and_then(|(file, rest)| {
                let (line, msg) = rest.split_once(": error: ")?;
                let file = match file.find('/') {
                    Some(i) if file.starts_with(':') => &file[i..],
                    _ => file,
                };
                Some(CompileError {
                    file: format!("{file}.java"),
                    line: line.parse().ok()?,
                    column: 0,
                    message: msg.trim().to_owned(),
                })
            })
        };
        if let Some(mut e) = e {
            e.file = junit::shown(Path::new(&e.file), roots);
            if !out.contains(&e) {
                out.push(e);
            }
        }
    }
    out
}

/// The log's error lines worth reading, each once: Maven's `[ERROR]` lines (its help
/// boilerplate left out) and what Gradle says under `* What went wrong:`.
pub fn error_lines(log: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut gradle_block = false;
    for l in log.lines() {
        if l.starts_with("* What went wrong:") {
            gradle_block = true;
            continue;
        }
        if gradle_block && (l.starts_with("* ") || l.starts_with("BUILD FAILED")) {
            gradle_block = false;
        }
        let rest = match l.strip_prefix("[ERROR]") {
            Some(rest) => rest.trim(),
            None if gradle_block => l.trim().trim_start_matches("> ").trim(),
            None => continue,
        };
        let boiler = ["To see the full stack trace", "Re-run Maven using", "For more information about", "[Help "];
        if rest.is_empty() || rest.starts_with("->") || boiler.iter().any(|b| rest.starts_with(b)) {
            continue;
        }
        if !out.iter().any(|o| o == rest) {
            out.push(rest.to_owned());
        }
        if out.len() >= MAX_ERROR_LINES {
            break;
        }
    }
    out
}

/// The head and tail of the log, `max` characters at most.
pub fn log_excerpt(log: &str, max: usize) -> String {
    junit::cap(log, max)
}

/// What to run Maven with.
#[derive(Debug, Clone, Default)]
pub struct MavenCall {
    pub goals: Vec<String>,
    pub profiles: Vec<String>,
    pub properties: Vec<(String, String)>,
    pub offline: bool,
    /// `-pl DIR -am`: this module and what it needs.
    pub module: Option<String>,
}

/// `mvn` on the configured PATH.
pub fn find_mvn(settings: &Settings) -> Result<PathBuf, String> {
    let path = settings.path_env.clone().or_else(|| std::env::var_os("PATH")).unwrap_or_default();
    std::env::split_paths(&path).map(|d| d.join("mvn")).find(|p| p.is_file()).ok_or_else(|| "mvn is not on PATH".into())
}

/// Gradle for the build at `root`: its wrapper (`gradlew`) when it has one, else `gradle` on
/// the configured PATH.
pub fn find_gradle(root: &Path, settings: &Settings) -> Result<PathBuf, String> {
    let wrapper = root.join("gradlew");
    if wrapper.is_file() {
        return Ok(wrapper);
    }
    let path = settings.path_env.clone().or_else(|| std::env::var_os("PATH")).unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join("gradle"))
        .find(|p| p.is_file())
        .ok_or_else(|| "gradle is not on PATH and the build has no gradlew".into())
}

/// What to run Gradle with.
#[derive(Debug, Clone, Default)]
pub struct GradleCall {
    /// Tasks, each already qualified by its project (`:app:test`) when it is one project's.
    pub tasks: Vec<String>,
    /// Arguments after the tasks (`--tests pkg.Class`).
    pub task_args: Vec<String>,
    pub properties: Vec<(String, String)>,
    pub offline: bool,
}

/// Gradle's argv for `call` on the build at `root`: plain console, no daemon (the run's
/// process group is its whole tree, killed on cancel), `--continue` so every module's tests
/// run and report; `GRADLE_USER_HOME` when configured.
pub fn gradle_spec(gradle: &Path, root: &Path, call: &GradleCall, settings: &Settings) -> Spec {
    let mut argv: Vec<OsString> =
        vec![gradle.into(), "--console=plain".into(), "--no-daemon".into(), "-p".into(), root.into()];
    if call.offline {
        argv.push("--offline".into());
    }
    argv.push("--continue".into());
    for (k, v) in &call.properties {
        argv.push(format!("-D{k}={v}").into());
    }
    argv.extend(call.tasks.iter().map(OsString::from));
    argv.extend(call.task_args.iter().map(OsString::from));
    let mut env = build_env(settings);
    if let Some(h) = &settings.gradle_user_home {
        env.push(("GRADLE_USER_HOME".into(), h.clone().into()));
    }
    Spec { argv, cwd: root.to_path_buf(), env }
}

/// The Gradle project path of `module` qualifying a task (`:app:` ; the root project: none).
pub fn gradle_prefix(module: &Module) -> String {
    if module.name == ":" || module.name.is_empty() { String::new() } else { format!("{}:", module.name) }
}

/// Gradle's argv for the tests `sel` names in the build: `:module:test` (or `test`) with
/// `--tests` (`pkg.Class`, `pkg.Class.method`, `pkg.*`).
pub fn gradle_test_spec(
    gradle: &Path,
    project: &Project,
    sel: &Selection,
    offline: bool,
    properties: &[(String, String)],
    settings: &Settings,
) -> Spec {
    let prefix = sel
        .module
        .as_ref()
        .and_then(|d| project.modules.iter().find(|m| &m.dir == d))
        .map(gradle_prefix)
        .unwrap_or_default();
    let filter = match (&sel.class, &sel.method, &sel.package) {
        _ if !sel.tests.is_empty() => None,
        (Some(c), Some(m), _) => Some(format!("{c}.{m}")),
        (Some(c), None, _) => Some(c.clone()),
        (None, _, Some(p)) => Some(format!("{p}.*")),
        _ => None,
    };
    let mut task_args: Vec<String> = filter.map(|f| vec!["--tests".to_owned(), f]).unwrap_or_default();
    for t in &sel.tests {
        task_args.extend(["--tests".to_owned(), t.replace('#', ".")]);
    }
    let call = GradleCall { tasks: vec![format!("{prefix}test")], task_args, properties: properties.to_vec(), offline };
    gradle_spec(gradle, &project.root, &call, settings)
}

/// A name Maven takes as one argument and never as an option (no leading `-`, no spaces).
pub fn plain_word(s: &str) -> bool {
    !s.is_empty() && !s.starts_with('-') && s.chars().all(|c| c.is_ascii_alphanumeric() || "._-:/@,*#$!?[]".contains(c))
}

/// Maven's argv for `call` on the reactor at `top`.
pub fn maven_spec(mvn: &Path, top: &Path, call: &MavenCall, settings: &Settings) -> Spec {
    let mut argv: Vec<OsString> = vec![mvn.into(), "-B".into(), "-Dstyle.color=never".into()];
    if call.offline {
        argv.push("-o".into());
    }
    argv.push("-f".into());
    argv.push(top.join("pom.xml").into());
    if let Some(r) = &settings.maven_repo_local {
        argv.push(format!("-Dmaven.repo.local={}", r.display()).into());
    }
    if !call.profiles.is_empty() {
        argv.push("-P".into());
        argv.push(call.profiles.join(",").into());
    }
    if let Some(m) = &call.module {
        argv.extend(["-pl".into(), m.into(), "-am".into()]);
    }
    for (k, v) in &call.properties {
        argv.push(format!("-D{k}={v}").into());
    }
    argv.extend(call.goals.iter().map(OsString::from));
    Spec { argv, cwd: top.to_path_buf(), env: build_env(settings) }
}

/// The environment a build runs with: the configured `PATH` and `JAVA_HOME`.
fn build_env(settings: &Settings) -> Vec<(OsString, OsString)> {
    let mut env = Vec::new();
    if let Some(p) = &settings.path_env {
        env.push(("PATH".into(), p.clone()));
    }
    if let Some(h) = &settings.java_home {
        env.push(("JAVA_HOME".into(), h.clone().into()));
    }
    env
}

/// Which tests a target names, for one build.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Surefire's `-Dtest` / the launcher's selector: `pkg.Class`, `pkg.Class#method`,
    /// `pkg/**/*`; None: every test.
    pub class: Option<String>,
    pub method: Option<String>,
    pub package: Option<String>,
    /// The module the target lies in (None: the whole build).
    pub module: Option<PathBuf>,
    /// Several test methods, `pkg.Class#method` (affected tests), in place of the above.
    pub tests: Vec<String>,
}

impl Selection {
    /// Surefire's `-Dtest` value.
    pub fn surefire(&self) -> Option<String> {
        if !self.tests.is_empty() {
            // `A#m1+m2,B#m3`, classes in order of first appearance.
            let mut by_class: Vec<(String, Vec<String>)> = Vec::new();
            for t in &self.tests {
                let (c, m) = t.split_once('#').unwrap_or((t, ""));
                match by_class.iter_mut().find(|(k, _)| k == c) {
                    Some((_, ms)) => ms.push(m.to_owned()),
                    None => by_class.push((c.to_owned(), vec![m.to_owned()])),
                }
            }
            let parts: Vec<String> = by_class
                .into_iter()
                .map(|(c, ms)| if ms.iter().any(String::is_empty) { c } else { format!("{c}#{}", ms.join("+")) })
                .collect();
            return Some(parts.join(","));
        }
        match (&self.class, &self.method, &self.package) {
            (Some(c), Some(m), _) => Some(format!("{c}#{m}")),
            (Some(c), None, _) => Some(c.clone()),
            (None, _, Some(p)) => Some(format!("{}/**/*", p.replace('.', "/"))),
            _ => None,
        }
    }
}

/// The class a test file declares, from its path under a test root.
fn class_of(file: &Path, roots: &[PathBuf]) -> Option<String> {
    let rel = roots.iter().find_map(|r| file.strip_prefix(r).ok())?;
    let s = rel.with_extension("").to_string_lossy().replace(['/', '\\'], ".");
    Some(s)
}

/// What `target` names in `project`: a file (absolute), `pkg.Class#method`, `pkg.Class`, a
/// simple class name, a package, a module (name or directory), or everything (empty, `all`).
pub fn select(project: &Project, target: &str, file: Option<&Path>) -> Result<Selection, String> {
    let test_roots: Vec<PathBuf> = project.modules.iter().flat_map(|m| m.test_roots.iter().cloned()).collect();
    let module_of = |p: &Path| project.module_of(p).map(|m: &Module| m.dir.clone());
    if let Some(f) = file {
        if f.is_dir() {
            if let Some(m) = project.modules.iter().find(|m| m.dir == f) {
                return Ok(Selection { module: Some(m.dir.clone()), ..Default::default() });
            }
            let package = class_of(&f.join("x.java"), &test_roots)
                .and_then(|c| c.rsplit_once('.').map(|(p, _)| p.to_owned()))
                .ok_or_else(|| format!("{} is not a test directory of the build", f.display()))?;
            return Ok(Selection { package: Some(package), module: module_of(f), ..Default::default() });
        }
        let class = class_of(f, &test_roots)
            .ok_or_else(|| format!("{} is not under a test source root of the build", f.display()))?;
        return Ok(Selection { class: Some(class), module: module_of(f), ..Default::default() });
    }
    let t = target.trim();
    if t.is_empty() || t == "all" {
        return Ok(Selection::default());
    }
    if let Some(m) = project.modules.iter().find(|m| m.name == t || m.name == format!(":{t}")) {
        return Ok(Selection { module: Some(m.dir.clone()), ..Default::default() });
    }
    let (class, method) = match t.split_once('#') {
        Some((c, m)) => (c, Some(m.to_owned())),
        None => (t, None),
    };
    if !class.chars().all(|c| c.is_alphanumeric() || c == '.' || c == '_' || c == '$') || class.is_empty() {
        return Err(format!("`{t}` is not a test class, method (`pkg.Class#method`), package, module or file"));
    }
    let as_path = class.replace('.', "/");
    let outer = as_path.split('$').next().unwrap_or(&as_path).to_owned();
    for f in test_roots.iter().flat_map(|r| [r.join(format!("{outer}.java")), r.join(format!("{outer}.kt"))]) {
        if f.is_file() {
            return Ok(Selection {
                class: Some(class.to_owned()),
                method,
                module: module_of(&f),
                ..Default::default()
            });
        }
    }
    if method.is_none()
        && let Some(r) = test_roots.iter().find(|r| r.join(&as_path).is_dir())
    {
        let dir = r.join(&as_path);
        return Ok(Selection { package: Some(class.to_owned()), module: module_of(&dir), ..Default::default() });
    }
    // A simple name: the test file of that name.
    if !class.contains('.') {
        for r in &test_roots {
            let found = mji_fs::walk::walk(r, |f| {
                f.file_name().is_some_and(|n| {
                    n.to_string_lossy() == format!("{class}.java") || n.to_string_lossy() == format!("{class}.kt")
                })
            });
            if let Some(f) = found.files.first() {
                let fq = class_of(f, &test_roots).unwrap_or_else(|| class.to_owned());
                return Ok(Selection { class: Some(fq), method, module: module_of(f), ..Default::default() });
            }
        }
    }
    Err(format!(
        "no test class or package `{class}` in the test roots of the {} build at {}",
        match project.system {
            BuildSystem::Maven => "Maven",
            BuildSystem::Gradle => "Gradle",
            BuildSystem::Plain => "plain",
        },
        project.root.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gradle's plain console as Debian's Gradle 4.4 prints a failed compilation.
    const GRADLE_LOG: &str = "> Configure project :\n:app:compileJava/w/app/src/main/java/p/A.java:12: error: cannot find symbol\n        return side * sid;\n/w/app/src/main/java/p/A.java:3: warning: [deprecation] Old in p has been deprecated\n1 error\n:app:compileJava FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:compileJava'.\n> Compilation failed; see the compiler error output for details.\n\n* Try:\nRun with --stacktrace option to get the stack trace.\n\nBUILD FAILED in 2s\n";

    #[test]
    fn gradle_compile_errors_and_what_went_wrong_are_read() {
        let errors = compile_errors(GRADLE_LOG, &[PathBuf::from("/w")]);
        assert_eq!(
            errors,
            [CompileError {
                file: "app/src/main/java/p/A.java".into(),
                line: 12,
                column: 0,
                message: "cannot find symbol".into()
            }]
        );
        assert_eq!(
            error_lines(GRADLE_LOG),
            [
                "Execution failed for task ':app:compileJava'.",
                "Compilation failed; see the compiler error output for details."
            ]
        );
    }

    /// Issue 55: a JUnit test written in Kotlin under `src/test/kotlin` is selected by class,
    /// simple name and `.kt` file, as one under `src/test/java` is.
    #[test]
    fn kotlin_tests_are_selected_by_class_name_and_file() {
        let t = tempfile::tempdir().expect("tmp");
        let r = t.path();
        for (rel, text) in [
            ("m/pom.xml", "<project><groupId>g</groupId><artifactId>m</artifactId><version>1</version></project>"),
            ("m/src/test/kotlin/p/UtilTest.kt", "package p\nclass UtilTest\n"),
        ] {
            std::fs::create_dir_all(r.join(rel).parent().expect("parent")).expect("mkdir");
            std::fs::write(r.join(rel), text).expect("write");
        }
        let p = crate::project::project_for(&r.join("m/pom.xml"), &[r.to_path_buf()], None, &[]);
        for target in ["p.UtilTest", "UtilTest", "p.UtilTest#twice"] {
            let sel = select(&p, target, None).expect(target);
            assert_eq!(sel.class.as_deref(), Some("p.UtilTest"), "{target}");
            assert_eq!(sel.module.as_deref(), Some(r.join("m").as_path()), "{target}");
        }
        let sel = select(&p, "", Some(&r.join("m/src/test/kotlin/p/UtilTest.kt"))).expect("by file");
        assert_eq!(sel.class.as_deref(), Some("p.UtilTest"));
    }
}
