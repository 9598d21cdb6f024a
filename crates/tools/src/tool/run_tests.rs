//! `run_tests`: runs tests through the project's own build and answers counts and failures.

use crate::ToolError;
use crate::build::{RunResult, RunTestsArgs};
use crate::registry::{Annotations, Tool};
use crate::workspace::Workspace;

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

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.run_tests(&args)
    }

    crate::build::run_result_answer!();
}
