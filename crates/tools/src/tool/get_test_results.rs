//! `get_test_results`: waits again for a run that outlasted its call, or cancels it.

use crate::ToolError;
use crate::build::{RunResult, TestResultsArgs};
use crate::registry::{Annotations, Tool};
use crate::workspace::Workspace;

pub(crate) struct GetTestResults;

impl Tool for GetTestResults {
    const NAME: &'static str = "get_test_results";
    const TITLE: &'static str = "Get test or build results";
    const DESCRIPTION: &'static str = "Waits again for a run_tests, maven_goal or gradle_task runId, or cancel: true kills it.";
    const GROUP: &'static str = "build";
    const ANNOTATIONS: Annotations =
        Annotations { read_only: false, destructive: true, idempotent: false, open_world: false };

    type Args = TestResultsArgs;
    type Output = RunResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.get_test_results(&args)
    }

    crate::build::run_result_answer!();
}
