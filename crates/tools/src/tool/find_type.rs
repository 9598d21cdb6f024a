//! `find_type`: the IDE's Open Type.

use crate::ToolError;
use crate::registry::Tool;
use crate::find::{self, FindTypeResult};
use crate::host::Host;

pub(crate) struct FindType;

impl Tool for FindType {
    const NAME: &'static str = "find_type";
    const TITLE: &'static str = "Open type";
    const DESCRIPTION: &'static str = "Find a type by name, prefix, camelCase (`NPE`), wildcard (`*Map`) or qualified pattern (`java.util.*Map`), like an IDE's Open Type.";
    const NEEDS_INDEX: bool = true;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("pattern", "query"), ("maxResults", "limit")];

    type Args = crate::find::FindTypeArgs;
    type Output = crate::find::FindTypeResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(crate::lines::find_type(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.results.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.keep_first(n, args.offset);
    }
}

/// `find_type`.
pub fn run(ws: &Host, args: &crate::find::FindTypeArgs) -> Result<FindTypeResult, ToolError> {
    let under = ws.chosen_root(&args.root)?;
    ws.wait_index();
    let libs = (args.scope != find::Scope::Workspace).then(|| ws.libraries());
    let mut r = find::find_type_scoped(ws.index(), under, libs.as_deref(), args)?;
    r.index = find::IndexStatus::shown(r.index, args.include_index);
    Ok(r)
}
