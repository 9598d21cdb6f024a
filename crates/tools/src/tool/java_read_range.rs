//! `java_read_range`: reads a line range of any workspace file.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub struct JavaReadRange;

impl Tool for JavaReadRange {
    const NAME: &'static str = "java_read_range";
    const TITLE: &'static str = "Read lines of a file";
    const DESCRIPTION: &'static str = "Read lines startLine..endLine (1-based, inclusive) of a file in the workspace, with `N: ` line prefixes by default. Use it to read one method body after java_index gave its lines. Output is capped by options.maxChars (default 20000): a longer read stops at a line boundary with truncated=true and nextStartLine to continue from; endLine past the end of the file is clamped (said in `note`). Example: {\"filePath\": \"src/main/java/com/foo/Bar.java\", \"startLine\": 70, \"endLine\": 120}";

    type Args = crate::workspace::ReadRangeArgs;
    type Output = crate::read_range::RangeResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.java_read_range(&args)
    }
}
