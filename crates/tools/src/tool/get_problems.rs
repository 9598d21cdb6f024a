//! `get_problems`: syntax and javac diagnostics, as an IDE's Problems view.

use crate::ToolError;
use crate::problems::{ProblemsArgs, ProblemsResult};
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct GetProblems;

impl Tool for GetProblems {
    const NAME: &'static str = "get_problems";
    const TITLE: &'static str = "Get compile problems";
    const DESCRIPTION: &'static str = "Compile errors and warnings of Java files, as an IDE's Problems view: `syntax` (our parser, instant) and `javac` (the JDK's compiler with the project's source roots and Maven classpath, kept warm). Call it after editing code. Each diagnostic: file, line, column, severity, source, code (javac's key), message, range; errors first. Filter with severity_filter, line_range, source_filter; page with limit/offset. A check that outlasts the time budget answers complete=false and finishes in the background: call again. javac.classpath_complete=false marks an unsure classpath. Example: {\"paths\": [\"src/main/java/com/foo/Bar.java\"], \"severity_filter\": [\"Error\"]}";

    const GROUP: &'static str = "problems";

    type Args = ProblemsArgs;
    type Output = ProblemsResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        let result = ws.get_problems(&args)?;
        tracing::info!(
            files = result.file_counts.analysed,
            problems = result.total_count,
            complete = result.complete,
            ms = result.elapsed_ms,
            "get_problems"
        );
        Ok(result)
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.diagnostics.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        if n < output.diagnostics.len() {
            output.diagnostics.truncate(n);
            output.has_more = true;
            output.next_offset = Some(args.offset.saturating_add(n as u32));
        }
    }
}
