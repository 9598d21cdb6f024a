//! `run_tests`: runs tests through the project's own build and answers counts and failures.

use crate::ToolError;
use crate::build::{RunResult, RunTestsArgs};
use crate::registry::{Annotations, Tool};
use std::path::PathBuf;
use mji_build::project::BuildSystem;
use mji_build::runs::{self, Kind};
use crate::build::{check_word, gradle_reports};
use crate::host::Host;

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
pub fn run(ws: &Host, args: &crate::build::RunTestsArgs) -> Result<RunResult, ToolError> {
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
        BuildSystem::Maven => match crate::build::fast_path(ws, &project, &sel, args) {
            Ok(plan) => crate::build::run_fast(ws, &project, plan),
            Err(why) => {
                let mut r = crate::build::run_maven_tests(ws, &project, &sel, args)?;
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
        BuildSystem::Plain => crate::build::run_plain_tests(ws, &project, &sel),
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
