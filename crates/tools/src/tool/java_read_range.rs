//! `java_read_range`: reads a line range of any workspace file.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct JavaReadRange;

impl Tool for JavaReadRange {
    const NAME: &'static str = "java_read_range";
    const TITLE: &'static str = "Read lines of a file";
    const DESCRIPTION: &'static str = "Read lines startLine..endLine of a workspace file, numbered, or one declaration by symbol (name, or name(Type,…)). Long reads stop at a line boundary (nextStartLine).";

    type Args = crate::workspace::ReadRangeArgs;
    type Output = crate::read_range::RangeResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.java_read_range(&args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(crate::read_range::render(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some((output.end_line + 1).saturating_sub(output.start_line) as usize)
    }

    fn cut(output: &mut Self::Output, _args: &Self::Args, n: usize) {
        crate::read_range::keep_lines(output, n);
    }
}
