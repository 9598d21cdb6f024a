//! `run_tests`: runs tests through the project's own build and answers counts and failures.

use crate::ToolError;
use crate::build::RunResult;
use crate::registry::{Annotations, Tool};
use std::path::PathBuf;
use mji_build::project::BuildSystem;
use mji_build::runs::{self, Kind};
use crate::build::{check_word, gradle_reports, mvn, relative, run_log_dir, start_run, trust_note};
use crate::host::Host;
use mji_build::process::Spec;
use mji_build::project::Project;
use mji_build::runs::{CompileError, MavenCall, Status};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

pub(crate) struct RunTests;

impl Tool for RunTests {
    const NAME: &'static str = "run_tests";
    const TITLE: &'static str = "Run tests";
    const DESCRIPTION: &'static str = "Run tests through the build (Maven, Gradle, or javac + JUnit launcher): counts, each failure with expected/actual and workspace frames (file:line). Past the wait: a runId for get_test_results. Trusted workspaces only.";
    const GROUP: &'static str = "build";
    const ANNOTATIONS: Annotations =
        Annotations { read_only: false, destructive: false, idempotent: false, open_world: false };

    type Args = RunTestsArgs;
    type Output = RunResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    crate::build::run_result_answer!();
}

/// `run_tests`.
pub fn run(ws: &Host, args: &RunTestsArgs) -> Result<RunResult, ToolError> {
    for k in args.properties.keys() {
        check_word("property", k)?;
    }
    // A target that names a path is resolved through the roots; otherwise a name.
    let looks_like_path = args.target.ends_with(".java") || args.target.contains('/');
    let (project, _, file) = if looks_like_path {
        let r = ws.resolve(&args.target)?;
        let (p, root, _) = crate::build::project_at(ws, &args.target)?;
        (p, root, Some(r.path))
    } else {
        crate::build::project_at(ws, "")?
    };
    let sel = if args.affected {
        if !args.target.trim().is_empty() {
            return Err(ToolError::InvalidArgument("give target or affected: true, not both".into()));
        }
        let crate::tool::affected_tests::Affected { tests, code, .. } = crate::tool::affected_tests::affected(
            ws,
            &crate::tool::affected_tests::AffectedTestsArgs {
                changed: crate::tool::affected_tests::ChangedArg::All(true),
                ..Default::default()
            },
        )?;
        if tests.is_empty() {
            return Err(ToolError::NoSuchSymbol(format!(
                "no test reaches what changed against git HEAD ({}): nothing to run",
                if code.is_empty() { "no Java member changed".to_owned() } else { code.join(", ") }
            )));
        }
        let mut modules: Vec<&str> = tests.iter().map(|t| t.module.as_str()).collect();
        modules.dedup();
        let module = match modules.as_slice() {
            [one] => project.modules.iter().find(|m| m.name == *one).map(|m| m.dir.clone()),
            _ => None,
        };
        runs::Selection { module, tests: tests.into_iter().map(|t| t.test).collect(), ..Default::default() }
    } else {
        runs::select(&project, if looks_like_path { "" } else { &args.target }, file.as_deref())
            .map_err(ToolError::InvalidArgument)?
    };
    match project.system {
        BuildSystem::Maven => match fast_path(ws, &project, &sel, args) {
            Ok(plan) => run_fast(ws, &project, plan),
            Err(why) => {
                let mut r = run_maven_tests(ws, &project, &sel, args)?;
                if !why.is_empty() {
                    r.note = [format!("maven path ({why})"), r.note]
                        .iter()
                        .filter(|s| !s.is_empty())
                        .cloned()
                        .collect::<Vec<_>>()
                        .join("; ");
                }
                Ok(r)
            }
        },
        BuildSystem::Plain => run_plain_tests(ws, &project, &sel),
        BuildSystem::Gradle => {
            let settings = ws.build_settings();
            let gradle = runs::find_gradle(&project.root, &settings).unwrap_or_else(|_| PathBuf::from("gradle"));
            let props: Vec<(String, String)> =
                args.properties.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            let spec = runs::gradle_test_spec(&gradle, &project, &sel, args.offline, &props, &settings);
            crate::build::start_run(ws, Kind::Tests, "gradle", spec, None, gradle_reports(&project), &project)
        }
    }
}

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
    // The fast path recompiles changed sources with javac: Kotlin's are the build's to compile.
    if m.source_roots.iter().chain(&m.test_roots).any(|r| r.ends_with("kotlin")) {
        return Err("the module has Kotlin sources, which only its build compiles".into());
    }
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

/// What the fast path does: the sources to recompile (with these javac options, into `out`),
/// then the launcher run, whose reports land in `reports`.
pub(crate) struct FastPlan {
    changed: Vec<PathBuf>,
    javac_options: Vec<String>,
    out: PathBuf,
    run: Spec,
    reports: PathBuf,
}
