//! `maven_goal`: runs allowlisted Maven goals and answers the errors, not the whole log.

use crate::ToolError;
use crate::build::{MavenGoalArgs, RunResult};
use crate::registry::{Annotations, Tool};
use crate::workspace::Workspace;

pub(crate) struct MavenGoal;

impl Tool for MavenGoal {
    const NAME: &'static str = "maven_goal";
    const TITLE: &'static str = "Run Maven goals";
    const DESCRIPTION: &'static str = "Run allowlisted Maven goals (compile, test, package, clean, dependency:tree, …): exit code, compiler errors (file:line), failed tests, [ERROR] lines, log head/tail. Trusted workspaces only.";
    const GROUP: &'static str = "build";
    // `clean` deletes target/ directories.
    const ANNOTATIONS: Annotations =
        Annotations { read_only: false, destructive: true, idempotent: false, open_world: true };

    type Args = MavenGoalArgs;
    type Output = RunResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.maven_goal(&args)
    }

    crate::build::run_result_answer!();
}
