//! `find_resource`: the IDE's Open Resource.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct FindResource;

impl Tool for FindResource {
    const NAME: &'static str = "find_resource";
    const TITLE: &'static str = "Open resource";
    const DESCRIPTION: &'static str = "Find any workspace file (pom.xml, resources, .java) by name, prefix, camelCase, glob (`*.properties`) or path glob (`src/main/resources/*.xml`).";
    const NEEDS_INDEX: bool = true;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("pattern", "query"), ("maxResults", "limit")];

    type Args = crate::find::FindResourceArgs;
    type Output = crate::find::FindResourceResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.find_resource(&args)
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.results.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.keep_first(n, args.offset);
    }
}
