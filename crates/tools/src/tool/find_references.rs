//! `find_references`: every reference to a type, method, constructor or field.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct FindReferences;

impl Tool for FindReferences {
    const NAME: &'static str = "find_references";
    const TITLE: &'static str = "Find references";
    const DESCRIPTION: &'static str = "Who uses this? Every reference to a type, method, constructor or field, bound like javac. Name it by `target`, `symbolId` or `filePath`+`line`.";
    const NEEDS_INDEX: bool = true;

    type Args = crate::xref::FindReferencesArgs;
    type Output = crate::xref::FindReferencesResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.find_references(&args)
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.files.iter().map(|f| f.references.len()).sum())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.keep_first(n, args.offset);
    }
}
