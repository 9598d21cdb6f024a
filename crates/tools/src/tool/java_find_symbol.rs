//! `java_find_symbol`: finds types and members by name in the live index.

use crate::ToolError;
use crate::registry::Tool;
use crate::find::{self, FindSymbolResult};
use crate::host::Host;

pub(crate) struct JavaFindSymbol;

impl Tool for JavaFindSymbol {
    const NAME: &'static str = "java_find_symbol";
    const TITLE: &'static str = "Find symbols by name";
    const DESCRIPTION: &'static str = "Find types, methods and fields by name across the workspace (exact, prefix, camelCase `gSV`, substring, `*` wildcards; `Bar#doThing` or `com.foo.Bar` qualified), with their file and lines.";
    const NEEDS_INDEX: bool = true;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("rootDir", "root"), ("maxResults", "limit")];

    type Args = crate::find::FindSymbolArgs;
    type Output = crate::find::FindSymbolResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(crate::lines::find_symbol(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.results.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.keep_first(n, args.options.offset);
    }
}

/// `java_find_symbol`. A `rootDir` of `.` (or empty) searches every root.
pub fn run(ws: &Host, args: &crate::find::FindSymbolArgs) -> Result<FindSymbolResult, ToolError> {
    let dir = args.root_dir.trim();
    let under = if dir.is_empty() || dir == "." || dir == "./" {
        None
    } else {
        let r = ws.resolve(dir)?;
        if !r.path.is_dir() {
            return Err(ToolError::InvalidArgument(format!("root {} is not a directory", args.root_dir)));
        }
        Some(r.path)
    };
    ws.wait_index();
    let libs = (args.options.scope != find::Scope::Workspace).then(|| ws.libraries());
    let mut r = find::find_symbol_scoped(ws.index(), under.as_deref(), libs.as_deref(), args)?;
    r.index = find::IndexStatus::shown(r.index, args.options.include_index);
    Ok(r)
}
