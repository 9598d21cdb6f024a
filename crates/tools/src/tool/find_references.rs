//! `find_references`: every reference to a type, method, constructor or field.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct FindReferences;

impl Tool for FindReferences {
    const NAME: &'static str = "find_references";
    const TITLE: &'static str = "Find references";
    const DESCRIPTION: &'static str = "Who uses this? Every reference in the workspace to a type, method (overload-aware), constructor or field, bound as javac binds names (imports, scopes, receiver types, inheritance, overloads) without compiling. Target: `target` (`com.foo.Bar`, `com.foo.Bar#doThing(int,String)`, `com.foo.Bar#Bar(int)` constructor, `com.foo.Bar#count` field; no parentheses = every overload), or `symbolId`, or `filePath`+`line`(+`column`) of any occurrence. Each reference: line, column, kind (import, extends, implements, type, new, call, field-read, field-write, annotation, method-ref, this-call, super-call), confidence (`exact`, or `likely` when the receiver's type could not be known) and the line's text. A call on a subclass that overrides the method binds to the override: includeOverriders adds those, marked. Paged (limit/offset, total, truncated, nextOffset); `paths` globs restrict files; `targets`+`countOnly` counts many targets at once. Example: {\"target\": \"com.foo.Bar#doThing(int,String)\", \"limit\": 50}";
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
