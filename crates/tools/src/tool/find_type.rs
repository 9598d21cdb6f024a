//! `find_type`: the IDE's Open Type.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct FindType;

impl Tool for FindType {
    const NAME: &'static str = "find_type";
    const TITLE: &'static str = "Open type";
    const DESCRIPTION: &'static str = "The IDE's Open Type: find classes, interfaces, enums, records and annotation types by simple name or prefix (`HashM`), camelCase initials (`NPE` finds NullPointerException, `HMap` HashMap), wildcards (`*Map`, `Abstract?ist`) or package-qualified pattern (`java.util.*Map`). Each result: fqn, kind, filePath, lines, modifiers, first sentence of its javadoc, symbolId. Paged with offset/nextOffset. Example: {\"pattern\": \"NPE\"} or {\"pattern\": \"com.acme.*Service\", \"kind\": \"interface\"}";
    const NEEDS_INDEX: bool = true;

    type Args = crate::find::FindTypeArgs;
    type Output = crate::find::FindTypeResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.find_type(&args)
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.results.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.keep_first(n, args.offset);
    }
}
