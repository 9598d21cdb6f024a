//! `gradle_task`: runs allowlisted Gradle tasks and answers the errors, not the whole log.

use crate::ToolError;
use crate::build::{GradleTaskArgs, RunResult};
use crate::registry::{Annotations, Tool};
use crate::workspace::Workspace;

pub(crate) struct GradleTask;

impl Tool for GradleTask {
    const NAME: &'static str = "gradle_task";
    const TITLE: &'static str = "Run Gradle tasks";
    const DESCRIPTION: &'static str = "Run allowlisted Gradle tasks (build, test, compileJava, clean, dependencies, …): exit code, compiler errors (file:line), failed tests, what went wrong, log head/tail. Trusted workspaces only.";
    const GROUP: &'static str = "build";
    // `clean` deletes build/ directories.
    const ANNOTATIONS: Annotations =
        Annotations { read_only: false, destructive: true, idempotent: false, open_world: true };

    type Args = GradleTaskArgs;
    type Output = RunResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.gradle_task(&args)
    }

    crate::build::run_result_answer!();
}
