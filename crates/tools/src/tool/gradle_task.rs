//! `gradle_task`: runs allowlisted Gradle tasks and answers the errors, not the whole log.

use crate::ToolError;
use crate::build::RunResult;
use crate::registry::{Annotations, Tool, Needs};
use std::path::PathBuf;
use mji_build::project::BuildSystem;
use mji_build::runs::{self, Kind};
use crate::build::{allowlisted, gradle_reports};
use crate::host::Host;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub(crate) struct GradleTask;

impl Tool for GradleTask {
    const NAME: &'static str = "gradle_task";
    const TITLE: &'static str = "Run Gradle tasks";
    const DESCRIPTION: &'static str = "Run allowlisted Gradle tasks (build, test, compileJava, clean, dependencies, …): exit code, compiler errors (file:line), failed tests, what went wrong, log head/tail. Trusted workspaces only.";
    const GROUP: &'static str = "build";
    const SHOWN_WHEN: Needs = Needs::GradleBuild;
    // `clean` deletes build/ directories.
    const ANNOTATIONS: Annotations =
        Annotations { read_only: false, destructive: true, idempotent: false, open_world: true };

    type Args = GradleTaskArgs;
    type Output = RunResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    crate::build::run_result_answer!();
}

/// `gradle_task`: allowlisted tasks of the Gradle build at the first root, through its
/// wrapper or `gradle`.
pub fn run(ws: &Host, args: &GradleTaskArgs) -> Result<RunResult, ToolError> {
    // `:app:test` is `test` of the project `:app`.
    allowlisted("task", "gradle_tasks", &args.tasks, &ws.config().gradle_tasks, |a, t| {
        a == t.rsplit(':').next().unwrap_or(t)
    })?;
    let project = crate::build::goal_build(ws, BuildSystem::Gradle, &args.properties)?;
    let settings = ws.build_settings();
    let call = runs::GradleCall {
        tasks: args.tasks.clone(),
        task_args: Vec::new(),
        properties: args.properties.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        offline: args.offline,
    };
    let gradle = runs::find_gradle(&project.root, &settings).unwrap_or_else(|_| PathBuf::from("gradle"));
    let spec = runs::gradle_spec(&gradle, &project.root, &call, &settings);
    crate::build::start_run(ws, Kind::Goal, "gradle", spec, None, gradle_reports(&project), &project)
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
