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
use mji_build::runs::{self, CompileError, Failure, Kind, Run, Status};
use mji_model::cancel::Cancel;
use serde::Serialize;

use crate::ToolError;
use crate::host::Host;

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

/// Longest log excerpt, in characters.
const LOG_EXCERPT_CHARS: usize = 3000;
/// Skipped tests listed.
const MAX_SKIPPED: usize = 50;

pub(crate) fn trust_note() -> String {
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
