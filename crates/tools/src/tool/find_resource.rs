//! `find_resource`: the IDE's Open Resource.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct FindResource;

impl Tool for FindResource {
    const NAME: &'static str = "find_resource";
    const TITLE: &'static str = "Open resource";
    const DESCRIPTION: &'static str = "The IDE's Open Resource: find any workspace file (Java or not: pom.xml, .properties, resources) by name or prefix, camelCase (`AJI`), glob (`*.properties`), or path glob containing `/` (`src/main/resources/*.xml`). Results: filePath, size, modified. Build output, .git and ignored files are not indexed. Paged with offset/nextOffset. Example: {\"pattern\": \"pom.xml\"}";
    const NEEDS_INDEX: bool = true;

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
