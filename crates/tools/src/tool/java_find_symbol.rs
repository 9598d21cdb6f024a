//! `java_find_symbol`: finds types and members by name in the live index.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct JavaFindSymbol;

impl Tool for JavaFindSymbol {
    const NAME: &'static str = "java_find_symbol";
    const TITLE: &'static str = "Find symbols by name";
    const DESCRIPTION: &'static str = "Find types, methods and fields by name across the workspace (exact, prefix, camelCase `gSV`, substring, `*` wildcards; `Bar#doThing` or `com.foo.Bar` qualified), with their file and lines.";
    const NEEDS_INDEX: bool = true;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("rootDir", "root"), ("maxResults", "limit")];

    type Args = crate::find::FindSymbolArgs;
    type Output = crate::find::FindSymbolResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.java_find_symbol(&args)
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.results.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.keep_first(n, args.options.offset);
    }
}
