//! `get_test_results`: waits again for a run that outlasted its call, or cancels it.

use crate::ToolError;
use crate::build::RunResult;
use crate::registry::{Annotations, Tool};
use crate::host::Host;
use serde::{Deserialize, Serialize};

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

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    crate::build::run_result_answer!();
}

/// `get_test_results`.
pub fn run(ws: &Host, args: &TestResultsArgs) -> Result<RunResult, ToolError> {
    let run = ws.runs().get(&args.run_id).ok_or_else(|| {
        ToolError::InvalidArgument(format!(
            "no run `{}` in this session (runs are kept while the server runs; start one with run_tests, maven_goal or gradle_task)",
            args.run_id
        ))
    })?;
    Ok(crate::build::wait_run(ws, &run, args.cancel))
}

/// Arguments of `get_test_results`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TestResultsArgs {
    pub run_id: String,
    #[serde(default)]
    pub cancel: bool,
}
