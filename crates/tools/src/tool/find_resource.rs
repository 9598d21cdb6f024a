//! `find_resource`: the IDE's Open Resource.

use crate::ToolError;
use crate::registry::Tool;
use crate::find::{self, FindResourceResult};
use crate::host::Host;

pub(crate) struct FindResource;

impl Tool for FindResource {
    const NAME: &'static str = "find_resource";
    const TITLE: &'static str = "Open resource";
    const DESCRIPTION: &'static str = "Find any workspace file (pom.xml, resources, .java) by name, prefix, camelCase, glob (`*.properties`) or path glob (`src/main/resources/*.xml`).";
    const NEEDS_INDEX: bool = true;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("pattern", "query"), ("maxResults", "limit")];

    type Args = crate::find::FindResourceArgs;
    type Output = crate::find::FindResourceResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(crate::lines::find_resource(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.results.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.keep_first(n, args.offset);
    }
}

/// `find_resource`.
pub fn run(ws: &Host, args: &crate::find::FindResourceArgs) -> Result<FindResourceResult, ToolError> {
    let under = ws.chosen_root(&args.root)?;
    ws.wait_index();
    let mut r = find::find_resource(ws.index(), under, args)?;
    r.index = find::IndexStatus::shown(r.index, args.include_index);
    Ok(r)
}
