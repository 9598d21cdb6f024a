//! `run_tests`, `get_test_results`, `maven_goal`, `maven_update_project` and `gradle_task`: the wire
//! arguments and results around [`mji_build`], the trust gate (the build runs the
//! repository's code: only in a trusted workspace), and the runs of this workspace.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use mji_build::junit::Counts;
use mji_build::process::Spec;
use mji_build::project::{BuildSystem, Project};
use mji_build::runs::{self, CompileError, Failure, Kind, MavenCall, Run, Status};
use mji_model::cancel::Cancel;
use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::host::Host;

/// Arguments of `run_tests`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RunTestsArgs {
    /// pkg.Class#method, class, package, module or test file; empty: all.
    #[serde(default)]
    pub target: String,
    #[serde(default)]
    pub offline: bool,
    #[serde(default)]
    pub properties: BTreeMap<String, String>,
    /// false: always Maven, no fast path.
    #[serde(default = "yes")]
    pub fast: bool,
    // The tests affected_tests lists for the working tree's changes against git HEAD.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub affected: bool,
}

fn yes() -> bool {
    true
}

impl Default for RunTestsArgs {
    fn default() -> Self {
        RunTestsArgs { target: String::new(), offline: false, properties: BTreeMap::new(), fast: true, affected: false }
    }
}

/// Arguments of `get_test_results`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TestResultsArgs {
    pub run_id: String,
    #[serde(default)]
    pub cancel: bool,
}

/// Arguments of `maven_goal`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MavenGoalArgs {
    pub goals: Vec<String>,
    #[serde(default)]
    pub profiles: Vec<String>,
    #[serde(default)]
    pub properties: BTreeMap<String, String>,
    #[serde(default)]
    pub offline: bool,
    /// artifactId or directory (`-pl M -am`).
    #[serde(default)]
    pub module: String,
}

/// Arguments of `gradle_task`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GradleTaskArgs {
    /// `build`, `:app:test`, …
    pub tasks: Vec<String>,
    #[serde(default)]
    pub properties: BTreeMap<String, String>,
    #[serde(default)]
    pub offline: bool,
}

/// Arguments of `maven_update_project`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UpdateProjectArgs {
    /// A file or directory in the build; empty: the first root.
    #[serde(rename = "filePath", default)]
    pub path: String,
}

/// The answer of `run_tests`, `maven_goal` and `get_test_results`.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    /// False: nothing ran (an untrusted workspace); `command` is what would run.
    pub ran: bool,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub run_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// Which path ran: `maven`, `gradle`, `fast` or `plain` (javac and the JUnit launcher).
    pub path: String,
    pub command: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    pub duration_ms: u64,
    /// Tests counted from the JUnit XML reports.
    pub counts: Counts,
    pub failures: Vec<Failure>,
    /// Skipped tests (the first 50).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// The compiler's errors, when compiling failed before the tests ran.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compile_errors: Vec<CompileError>,
    /// The build's `[ERROR]` lines when it failed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
    pub warnings: u32,
    /// The whole log.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub log: String,
    /// The log's head and tail, capped (goals, and runs that failed without reports).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub log_excerpt: String,
    /// What to do next (wait with `get_test_results`, trust the workspace, …).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// Failures left out of this answer for its size (see `get_test_results` for the rest).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failures_omitted: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What changed in the build model.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateResult {
    pub system: String,
    pub root: String,
    pub modules: Vec<String>,
    /// False on the first read of this build in this session (everything is new).
    pub compared: bool,
    pub modules_added: Vec<String>,
    pub modules_removed: Vec<String>,
    pub source_roots_added: Vec<String>,
    pub source_roots_removed: Vec<String>,
    pub dependencies_added: Vec<String>,
    pub dependencies_removed: Vec<String>,
    /// Artifacts the build could not resolve, per module.
    pub unresolved: Vec<String>,
    /// How each module's classpath was found.
    pub classpath_notes: Vec<String>,
    /// Build files that could not be read.
    pub problems: Vec<String>,
    /// Files the index took in anew after the re-read.
    pub indexed_changes: u32,
}

/// Longest log excerpt, in characters.
const LOG_EXCERPT_CHARS: usize = 3000;
/// Skipped tests listed.
const MAX_SKIPPED: usize = 50;

fn trust_note() -> String {
    format!(
        "not run: the workspace is not trusted, and the build runs the repository's own code and plugins. To allow it, pass --trust, set MCP_JAVA_INDEX_TRUST=1, or add the root to trusted_roots in the user config ~/.config/{}",
        mji_config::USER_FILE
    )
}

/// Where the build's logs go: the cache directory of the first root (`runs/`).
pub(crate) fn run_log_dir(ws: &Host) -> PathBuf {
    if ws.config().cache {
        ws.config().cache_dir_for(&ws.roots().paths()[0]).join("runs")
    } else {
        std::env::temp_dir().join("mcp-java-index-runs")
    }
}

/// The build holding `given` (a path; empty: the first root) and the root it is under.
pub(crate) fn project_at(ws: &Host, given: &str) -> Result<(Project, PathBuf, Option<PathBuf>), ToolError> {
    let (path, root) = if given.trim().is_empty() {
        (ws.roots().paths()[0].clone(), ws.roots().paths()[0].clone())
    } else {
        let r = ws.resolve(given)?;
        (r.path, ws.roots().paths()[r.root].clone())
    };
    let repo = mji_build::classpath::repo_local(&ws.build_settings());
    let probe = if path.is_dir() && path.join("pom.xml").is_file() { path.join("pom.xml") } else { path.clone() };
    let project = mji_build::project::project_for(&probe, ws.roots().paths(), Some(&repo), &[]);
    Ok((project, root, path.is_file().then_some(path)))
}

pub(crate) fn run_maven_tests(
    ws: &Host,
    project: &Project,
    sel: &runs::Selection,
    args: &RunTestsArgs,
) -> Result<RunResult, ToolError> {
    let settings = ws.build_settings();
    let mut properties: Vec<(String, String)> = vec![
        ("surefire.failIfNoSpecifiedTests".into(), "false".into()),
        ("failIfNoTests".into(), "false".into()),
        // Every module's tests run and report; the reports say what failed.
        ("maven.test.failure.ignore".into(), "true".into()),
        ("trimStackTrace".into(), "false".into()),
    ];
    if let Some(t) = sel.surefire() {
        properties.push(("test".into(), t));
    }
    properties.extend(args.properties.iter().map(|(k, v)| (k.clone(), v.clone())));
    let module = sel.module.as_ref().filter(|m| **m != project.root).map(|m| relative(m, &project.root));
    let call =
        MavenCall { goals: vec!["test".into()], profiles: Vec::new(), properties, offline: args.offline, module };
    let mvn = mvn(ws, &settings)?;
    let spec = runs::maven_spec(&mvn, &project.root, &call, &settings);
    let reports: Vec<PathBuf> = project.modules.iter().map(|m| m.dir.join("target/surefire-reports")).collect();
    start_run(ws, Kind::Tests, "maven", spec, None, reports, project)
}

/// Maven on the configured PATH. Where the run would start (a trusted workspace), its absence
/// is said as such rather than as a failed start.
pub(crate) fn mvn(ws: &Host, settings: &mji_build::Settings) -> Result<PathBuf, ToolError> {
    match runs::find_mvn(settings) {
        Ok(mvn) => Ok(mvn),
        Err(_) if ws.config().trusted => Err(ToolError::NotInstalled(
            "Maven is not installed: no `mvn` on PATH; install Maven (apt-get install maven, brew install maven) or put its bin directory on PATH".to_owned(),
        )),
        Err(_) => Ok(PathBuf::from("mvn")),
    }
}

/// The fast path for one class or method of a Maven module that Maven compiled before:
/// the sources changed since (newer than their class files) compiled with javac into a
/// directory of our own, then the JUnit console launcher on the module's resolved test
/// classpath. Err: why not (empty when the caller did not want it), and Maven runs.
pub(crate) fn fast_path(
    ws: &Host,
    project: &Project,
    sel: &runs::Selection,
    args: &RunTestsArgs,
) -> Result<FastPlan, String> {
    if !args.fast || !ws.config().trusted {
        return Err(String::new());
    }
    let class = match sel.class.as_ref() {
        Some(c) => c.clone(),
        None if !sel.tests.is_empty() => String::new(),
        None => return Err("the fast path runs one class or method, or the affected tests of one module".into()),
    };
    let dir = sel.module.as_ref().ok_or("no module")?;
    let m = project.modules.iter().find(|m| &m.dir == dir).ok_or("no module")?;
    let (classes, test_classes) = (m.dir.join("target/classes"), m.dir.join("target/test-classes"));
    if !test_classes.is_dir() {
        return Err("the module was not compiled by Maven yet".into());
    }
    let settings = ws.build_settings();
    let console =
        mji_build::junit::fast_launcher(settings.path_env.as_deref()).map_err(|e| format!("{e} (Debian: junit5)"))?;
    let probe = m.test_roots.first().map(|r| r.join("x.java")).ok_or("the module has no test root")?;
    let ctx = mji_build::classpath::resolve(&m.dir, &probe, ws.roots().paths(), &settings);
    if !ctx.complete {
        return Err("the module's test classpath is not resolved".into());
    }
    if !ctx
        .classpath
        .iter()
        .any(|j| j.file_name().is_some_and(|n| n.to_string_lossy().starts_with("junit-jupiter-engine")))
    {
        return Err("the module does not test on JUnit Jupiter".into());
    }
    let own = run_log_dir(ws).join(format!("fast-{}", mji_parser::content_hash(m.dir.as_os_str().as_encoded_bytes())));
    let out = own.join("classes");
    let reports = own.join("reports");
    let _ = std::fs::remove_dir_all(&reports);
    let changed = mji_build::junit::stale_sources(
        &[(m.source_roots.as_slice(), classes.as_path()), (m.test_roots.as_slice(), test_classes.as_path())],
        &out,
    );
    let mut cp: Vec<PathBuf> = vec![out.clone(), test_classes, classes];
    cp.extend(ctx.classpath.iter().cloned());
    cp.extend(console);
    let cp_text = std::env::join_paths(&cp).map_err(|e| e.to_string())?;
    let java_bin = |name: &str| -> std::ffi::OsString {
        settings
            .java_home
            .as_ref()
            .map(|h| h.join("bin").join(name))
            .filter(|p| p.is_file())
            .unwrap_or_else(|| PathBuf::from(name))
            .into()
    };
    let env: Vec<(std::ffi::OsString, std::ffi::OsString)> =
        settings.path_env.iter().map(|p| ("PATH".into(), p.clone())).collect();
    let sp: Vec<PathBuf> = m.source_roots.iter().chain(m.test_roots.iter()).cloned().collect();
    let mut javac_options: Vec<String> = vec![
        "-d".into(),
        out.display().to_string(),
        "-cp".into(),
        cp_text.to_string_lossy().into_owned(),
        "-encoding".into(),
        "UTF-8".into(),
        "-g".into(),
        "-implicit:none".into(),
        "-proc:none".into(),
    ];
    if let Ok(sp) = std::env::join_paths(&sp) {
        javac_options.extend(["-sourcepath".into(), sp.to_string_lossy().into_owned()]);
    }
    let mut argv: Vec<std::ffi::OsString> = vec![java_bin("java")];
    // A JVM that lives a second: C1 only, the serial collector and no perf data file cost
    // about 40% less CPU to start and run one test (0.55 s of user time instead of 0.9 s
    // for the launcher on one method, JDK 17); a long computation in a test runs slower
    // on C1 code, which `"fast": false` avoids.
    argv.extend(["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData"].map(std::ffi::OsString::from));
    argv.extend(args.properties.iter().map(|(k, v)| format!("-D{k}={v}").into()));
    argv.extend([
        "-cp".into(),
        cp_text,
        "org.junit.platform.console.ConsoleLauncher".into(),
        "--disable-banner".into(),
        "--details=none".into(),
        "--reports-dir".into(),
        reports.clone().into(),
    ]);
    if sel.tests.is_empty() {
        argv.push(match &sel.method {
            Some(meth) => format!("--select-method={class}#{meth}").into(),
            None => format!("--select-class={class}").into(),
        });
    } else {
        argv.extend(sel.tests.iter().map(|t| format!("--select-method={t}").into()));
    }
    Ok(FastPlan { changed, javac_options, out, run: Spec { argv, cwd: m.dir.clone(), env }, reports })
}

/// The fast path: the changed sources through the warm javac of `get_problems` (class
/// files into our directory), then the launcher; a compile error answers at once.
pub(crate) fn run_fast(ws: &Host, project: &Project, plan: FastPlan) -> Result<RunResult, ToolError> {
    let t = std::time::Instant::now();
    let names: Vec<String> = plan.changed.iter().map(|c| mji_build::junit::shown(c, ws.roots().paths())).collect();
    let warm = format!("javac (warm, in the get_problems helper) -d {} {}", plan.out.display(), names.join(" "));
    if !ws.config().trusted {
        return Ok(RunResult {
            ran: false,
            path: "fast".into(),
            command: warm,
            note: trust_note(),
            ..Default::default()
        });
    }
    if !plan.changed.is_empty() {
        let _ = std::fs::create_dir_all(&plan.out);
        let files: Vec<&Path> = plan.changed.iter().map(PathBuf::as_path).collect();
        let diags = ws
            .problems_engine()
            .generate_classes(&plan.javac_options, &files)
            .map_err(|why| ToolError::InvalidArgument(format!("the warm javac could not run: {why}")))?;
        let errors: Vec<CompileError> = diags
            .into_iter()
            .filter(|d| d.kind == "ERROR")
            .map(|d| CompileError {
                file: mji_build::junit::shown(&d.path, ws.roots().paths()),
                line: d.start.line,
                column: d.start.column,
                message: d.message,
            })
            .collect();
        if !errors.is_empty() {
            return Ok(RunResult {
                ran: true,
                status: Some(Status::Finished),
                path: "fast".into(),
                command: warm,
                duration_ms: t.elapsed().as_millis() as u64,
                compile_errors: errors,
                note: "compilation failed: the tests did not run".into(),
                ..Default::default()
            });
        }
    }
    let mut r = start_run(ws, Kind::Tests, "fast", plan.run, None, vec![plan.reports], project)?;
    if !plan.changed.is_empty() {
        r.command = format!("{warm} && {}", r.command);
    }
    Ok(r)
}

/// Plain sources: javac into a directory of our own, then the JUnit console launcher.
pub(crate) fn run_plain_tests(ws: &Host, project: &Project, sel: &runs::Selection) -> Result<RunResult, ToolError> {
    let settings = ws.build_settings();
    let launcher = mji_build::junit::console_launcher(settings.path_env.as_deref()).map_err(|why| {
        ToolError::InvalidArgument(format!(
            "{} is a plain project (no pom.xml or Gradle build): its tests run on the JUnit console launcher, which is not installed ({why}; Debian: apt-get install junit5)",
            project.root.display()
        ))
    })?;
    let java_bin = |name: &str| -> PathBuf {
        settings
            .java_home
            .as_ref()
            .map(|h| h.join("bin").join(name))
            .filter(|p| p.is_file())
            .unwrap_or_else(|| PathBuf::from(name))
    };
    let m = &project.modules[0];
    let out = run_log_dir(ws)
        .join(format!("plain-{}", mji_parser::content_hash(project.root.as_os_str().as_encoded_bytes())));
    let classes = out.join("classes");
    let reports = out.join("reports");
    let _ = std::fs::remove_dir_all(&reports);
    let mut cp: Vec<PathBuf> = vec![launcher.clone()];
    mji_build::classpath::jars_in(&m.dir.join("lib"), &mut cp);
    cp.extend(ws.config().classpath.iter().cloned());
    let cp_text = std::env::join_paths(&cp).map_err(|e| ToolError::InvalidArgument(e.to_string()))?;
    let mut sources: Vec<PathBuf> = Vec::new();
    for r in m.source_roots.iter().chain(m.test_roots.iter()) {
        sources.extend(mji_fs::walk::java_files(r).files);
    }
    sources.sort();
    let mut javac: Vec<std::ffi::OsString> = vec![
        java_bin("javac").into(),
        "-d".into(),
        classes.clone().into(),
        "-cp".into(),
        cp_text.clone(),
        "-encoding".into(),
        "UTF-8".into(),
        "-g".into(),
    ];
    javac.extend(sources.iter().map(|s| s.clone().into_os_string()));
    let env: Vec<(std::ffi::OsString, std::ffi::OsString)> =
        settings.path_env.iter().map(|p| ("PATH".into(), p.clone())).collect();
    let compile = Spec { argv: javac, cwd: project.root.clone(), env: env.clone() };
    let mut full_cp = cp.clone();
    full_cp.insert(0, classes.clone());
    let full_cp = std::env::join_paths(&full_cp).map_err(|e| ToolError::InvalidArgument(e.to_string()))?;
    let mut launch: Vec<std::ffi::OsString> = vec![
        java_bin("java").into(),
        "-jar".into(),
        launcher.into(),
        "-cp".into(),
        full_cp,
        "--disable-banner".into(),
        "--details=none".into(),
        "--reports-dir".into(),
        reports.clone().into(),
    ];
    match (&sel.class, &sel.method, &sel.package) {
        _ if !sel.tests.is_empty() => launch.extend(sel.tests.iter().map(|t| format!("--select-method={t}").into())),
        (Some(c), Some(meth), _) => launch.push(format!("--select-method={c}#{meth}").into()),
        (Some(c), None, _) => launch.push(format!("--select-class={c}").into()),
        (None, _, Some(p)) => launch.push(format!("--select-package={p}").into()),
        _ => launch.push(format!("--scan-classpath={}", classes.display()).into()),
    }
    let run = Spec { argv: launch, cwd: project.root.clone(), env };
    start_run(ws, Kind::Tests, "plain", compile, Some(run), vec![reports], project)
}

pub(crate) fn start_run(
    ws: &Host,
    kind: Kind,
    path: &'static str,
    spec: Spec,
    then: Option<Spec>,
    reports: Vec<PathBuf>,
    project: &Project,
) -> Result<RunResult, ToolError> {
    let mut command = spec.shown();
    if let Some(t) = &then {
        command = format!("{command} && {}", t.shown());
    }
    if !ws.config().trusted {
        return Ok(RunResult { ran: false, path: path.into(), command, note: trust_note(), ..Default::default() });
    }
    let run = ws
        .runs()
        .start(kind, path, &spec, then, &run_log_dir(ws), reports, ws.roots().paths(), project.all_roots())
        .map_err(ToolError::InvalidArgument)?;
    Ok(wait_run(ws, &run, false))
}

/// Waits for `run` up to the wait budget (killing it on cancellation or `kill`) and says
/// what it reported.
pub(crate) fn wait_run(ws: &Host, run: &Arc<Run>, kill: bool) -> RunResult {
    let budget = Duration::from_millis(ws.config().build_wait_ms);
    let cancel = Cancel::current();
    let progress = mji_model::progress::Progress::current();
    let exit = run.wait(budget, &cancel, kill, &|p| {
        if let Some(pr) = &progress {
            pr.report(p.done as f64, None, format!("{} test classes reported; {}", p.done, p.message));
        }
    });
    let results = runs::outcome(run, exit);
    let status = match exit {
        None => Status::Running,
        Some(e) if e.killed => Status::Cancelled,
        Some(_) => Status::Finished,
    };
    let duration = exit.map(|e| e.duration).unwrap_or_else(|| run.process.started.elapsed());
    let failed_build = exit.is_some_and(|e| e.code != Some(0) && !e.killed);
    let no_tests = results.counts.run == 0;
    let log_excerpt = if exit.is_some()
        && (run.kind == Kind::Goal || (failed_build && no_tests && results.compile_errors.is_empty()))
    {
        runs::log_excerpt(&run.log_text(), LOG_EXCERPT_CHARS)
    } else {
        String::new()
    };
    let note = match status {
        Status::Running => format!(
            "still running after {} s: call get_test_results {{\"runId\": \"{}\"}} to wait again, with \"cancel\": true to stop it",
            duration.as_secs(),
            run.id
        ),
        Status::Cancelled => {
            "cancelled: the build's whole process tree was killed; counts are what was reported before".into()
        }
        Status::Finished if !results.compile_errors.is_empty() => "compilation failed: the tests did not run".into(),
        // A test run that reported tests exits non-zero for their failures, not the build's.
        Status::Finished if failed_build && (run.kind == Kind::Goal || no_tests) => {
            "the build failed: see errors and the log".into()
        }
        Status::Finished => String::new(),
    };
    let mut skipped = results.skipped;
    skipped.truncate(MAX_SKIPPED);
    RunResult {
        ran: true,
        run_id: run.id.clone(),
        status: Some(status),
        path: run.path.into(),
        command: run.command.clone(),
        exit_code: exit.and_then(|e| e.code),
        duration_ms: duration.as_millis() as u64,
        counts: results.counts,
        failures: results.failures,
        skipped,
        compile_errors: results.compile_errors,
        errors: results.errors,
        warnings: results.warnings,
        log: run.process.log.display().to_string(),
        log_excerpt,
        note,
        failures_omitted: 0,
    }
}

/// The build at the first root, which a goal tool runs, if it is a `system` build; the
/// properties' names checked to be plain words.
pub(crate) fn goal_build(
    ws: &Host,
    system: BuildSystem,
    properties: &BTreeMap<String, String>,
) -> Result<Project, ToolError> {
    for k in properties.keys() {
        check_word("property", k)?;
    }
    let (project, _, _) = project_at(ws, "")?;
    if project.system != system {
        let files = if system == BuildSystem::Maven { "pom.xml" } else { "settings.gradle or build.gradle(.kts)" };
        return Err(ToolError::InvalidArgument(format!(
            "{} has no {files}: not a {system:?} build",
            project.root.display()
        )));
    }
    Ok(project)
}

/// What the fast path does: the sources to recompile (with these javac options, into `out`),
/// then the launcher run, whose reports land in `reports`.
pub(crate) struct FastPlan {
    changed: Vec<PathBuf>,
    javac_options: Vec<String>,
    out: PathBuf,
    run: Spec,
    reports: PathBuf,
}

pub(crate) fn relative(p: &Path, base: &Path) -> String {
    match p.strip_prefix(base) {
        Ok(r) if r.as_os_str().is_empty() => ".".into(),
        Ok(r) => r.to_string_lossy().replace('\\', "/"),
        Err(_) => p.display().to_string(),
    }
}

/// Where a Gradle build's modules write their JUnit XML reports.
pub(crate) fn gradle_reports(project: &Project) -> Vec<PathBuf> {
    project.modules.iter().map(|m| m.dir.join("build/test-results/test")).collect()
}

/// Every one of `given` (goals, tasks) is a plain word the user's `setting` list allows
/// (`ok(allowed, given)`); else the error lists what is allowed.
pub(crate) fn allowlisted(
    what: &str,
    setting: &str,
    given: &[String],
    allowed: &[String],
    ok: impl Fn(&str, &str) -> bool,
) -> Result<(), ToolError> {
    if given.is_empty() {
        return Err(ToolError::InvalidArgument(format!("no {what}s given; allowed: {}", allowed.join(", "))));
    }
    for g in given {
        if !runs::plain_word(g) || !allowed.iter().any(|a| ok(a, g)) {
            return Err(ToolError::InvalidArgument(format!(
                "{what} `{g}` is not allowed; allowed: {} (the user's `{setting}` setting changes the list)",
                allowed.join(", ")
            )));
        }
    }
    Ok(())
}

pub(crate) fn check_word(what: &str, s: &str) -> Result<(), ToolError> {
    if runs::plain_word(s) && !s.contains('=') {
        Ok(())
    } else {
        Err(ToolError::InvalidArgument(format!(
            "{what} `{s}` is not a plain name (letters, digits, . _ - :; no leading -)"
        )))
    }
}

/// The text a model reads of a run.
pub fn render_run(r: &RunResult) -> String {
    let mut s = String::new();
    if !r.ran {
        s.push_str(&format!("{}\nwould run: {}\n", r.note, r.command));
        return s;
    }
    let c = &r.counts;
    s.push_str(&format!(
        "run {} [{}] {:?}, exit {}, {} ms: {} run, {} passed, {} failed, {} errored, {} skipped ({:.3} s)\n",
        r.run_id,
        r.path,
        r.status.unwrap_or(Status::Running),
        r.exit_code.map(|c| c.to_string()).unwrap_or_else(|| "-".into()),
        r.duration_ms,
        c.run,
        c.passed,
        c.failed,
        c.errored,
        c.skipped,
        c.time_s
    ));
    for e in &r.compile_errors {
        s.push_str(&format!("compile error {}:{}:{}: {}\n", e.file, e.line, e.column, e.message));
    }
    for f in &r.failures {
        s.push_str(&format!("{:?} {}: {}\n", f.outcome, f.test, f.message.lines().next().unwrap_or("")));
        if let (Some(e), Some(a)) = (&f.expected, &f.actual) {
            s.push_str(&format!("  expected: {e}\n  actual:   {a}\n"));
        }
        if !f.exception.is_empty() {
            s.push_str(&format!("  {}\n", f.exception));
        }
        for fr in &f.stack {
            match &fr.file {
                Some(file) => s.push_str(&format!("  at {} ({file}:{})\n", fr.at, fr.line)),
                None => s.push_str(&format!("  at {} (line {})\n", fr.at, fr.line)),
            }
        }
        if f.frames_omitted > 0 {
            s.push_str(&format!("  … {} frames outside the workspace\n", f.frames_omitted));
        }
        if !f.output.is_empty() {
            s.push_str(&format!("  output: {}\n", f.output.replace('\n', "\n          ")));
        }
    }
    if r.failures_omitted > 0 {
        s.push_str(&format!("{} more failures left out for size\n", r.failures_omitted));
    }
    if !r.skipped.is_empty() {
        s.push_str(&format!("skipped: {}\n", r.skipped.join(", ")));
    }
    for e in &r.errors {
        s.push_str(&format!("[ERROR] {e}\n"));
    }
    if r.warnings > 0 {
        s.push_str(&format!("warnings: {}\n", r.warnings));
    }
    if !r.log_excerpt.is_empty() {
        s.push_str(&format!("log (head and tail):\n{}\n", r.log_excerpt));
    }
    s.push_str(&format!("command: {}\nlog: {}\n", r.command, r.log));
    if !r.note.is_empty() {
        s.push_str(&format!("{}\n", r.note));
    }
    s
}

/// Keeps the first `n` failures (the answer budget's cut).
pub fn keep_failures(r: &mut RunResult, n: usize) {
    if n < r.failures.len() {
        r.failures_omitted += (r.failures.len() - n) as u32;
        r.failures.truncate(n);
    }
}

/// The answer half of a [`crate::registry::Tool`] whose output is a [`RunResult`] (`run_tests`,
/// `get_test_results`, `maven_goal`, `gradle_task`): the text [`render_run`] writes, and the
/// failures as the list the answer budget cuts ([`keep_failures`]).
macro_rules! run_result_answer {
    () => {
        fn render(output: &Self::Output) -> Option<String> {
            Some(crate::build::render_run(output))
        }

        fn page_len(output: &Self::Output) -> Option<usize> {
            Some(output.failures.len())
        }

        fn cut(output: &mut Self::Output, _args: &Self::Args, n: usize) {
            crate::build::keep_failures(output, n);
        }
    };
}
pub(crate) use run_result_answer;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_maven_would_read_as_options_are_refused() {
        assert!(check_word("profile", "ci").is_ok());
        assert!(check_word("profile", "-Dx=y").is_err());
        assert!(check_word("property", "a b").is_err());
        assert!(check_word("property", "a=b").is_err());
    }
}
