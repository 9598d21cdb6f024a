//! `find_references`: every reference to a type, method, constructor or field.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct FindReferences;

impl Tool for FindReferences {
    const NAME: &'static str = "find_references";
    const TITLE: &'static str = "Find references";
    const DESCRIPTION: &'static str = "Who uses this? Every reference in the workspace to a type, method (overload-aware), constructor or field, bound as javac binds names, without compiling. Target: `target` (`com.foo.Bar`, `com.foo.Bar#doThing(int,String)`, `com.foo.Bar#Bar(int)`, `com.foo.Bar#count`; no parentheses = every overload), or `symbolId`, or `filePath`+`line` of an occurrence. Each reference: line, column, kind (call, new, type, field-read, javadoc, …), confidence (`exact` or `likely`) and the line's text. includeOverriders adds calls bound to overriding methods; includeJavadoc false leaves out javadoc links; `paths` globs restrict files; `targets`+`countOnly` counts many targets. Paged (nextOffset). Example: {\"target\": \"com.foo.Bar#doThing(int,String)\"}";
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
