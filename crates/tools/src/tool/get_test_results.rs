//! `get_test_results`: waits again for a run that outlasted its call, or cancels it.

use crate::ToolError;
use crate::build::{RunResult, TestResultsArgs};
use crate::registry::{Annotations, Tool};
use crate::workspace::Workspace;

pub(crate) struct GetTestResults;

impl Tool for GetTestResults {
    const NAME: &'static str = "get_test_results";
    const TITLE: &'static str = "Get test or build results";
    const DESCRIPTION: &'static str = "Waits again for a run_tests or maven_goal runId, or cancel: true kills it.";
    const GROUP: &'static str = "build";
    const ANNOTATIONS: Annotations =
        Annotations { read_only: false, destructive: true, idempotent: false, open_world: false };

    type Args = TestResultsArgs;
    type Output = RunResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.get_test_results(&args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(crate::build::render_run(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.failures.len())
    }

    fn cut(output: &mut Self::Output, _args: &Self::Args, n: usize) {
        crate::build::keep_failures(output, n);
    }
}
