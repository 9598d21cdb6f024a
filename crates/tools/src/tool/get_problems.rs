//! `get_problems`: syntax and javac diagnostics, as an IDE's Problems view.

use crate::ToolError;
use crate::problems::{ProblemsArgs, ProblemsResult};
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct GetProblems;

impl Tool for GetProblems {
    const NAME: &'static str = "get_problems";
    const TITLE: &'static str = "Get compile problems";
    const DESCRIPTION: &'static str = "Compile errors and warnings (syntax and javac) of files or the whole workspace: call it after editing code. complete=false: the check goes on in the background, call again.";

    const GROUP: &'static str = "problems";
    const ALIASES: &'static [(&'static str, &'static str)] = &[
        ("paths", "filePath"),
        ("severity_filter", "severityFilter"),
        ("line_range", "lineRange"),
        ("source_filter", "sourceFilter"),
    ];

    type Args = ProblemsArgs;
    type Output = ProblemsResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        let mut result = ws.get_problems(&args)?;
        if args.open
            && let Some(p) = result.diagnostics.first()
        {
            // Problems count columns from 1 in UTF-16 units; the editor from 0 in characters.
            let column = ws.char_column(&p.file, p.line, p.column);
            result.opened = Some(ws.open_in_editor(&p.file, p.line, column));
        }
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
