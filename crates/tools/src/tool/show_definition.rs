//! `show_definition`: where a name is defined.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct ShowDefinition;

impl Tool for ShowDefinition {
    const NAME: &'static str = "show_definition";
    const TITLE: &'static str = "Show definition";
    const DESCRIPTION: &'static str = "Where is this defined? A name (`Bar`, `doThing`, `Bar.doThing`, `com.foo.Bar#count`) to its definition(s): file, startLine/endLine (for java_read_range), signature, javadoc summary, symbolId. With `filePath`+`line` of a use, the name there is resolved exactly (imports, scopes, receiver types); otherwise candidates are ranked by the file's imports and package. Example: {\"symbol\": \"doThing\", \"filePath\": \"src/main/java/com/foo/App.java\", \"line\": 42}";
    const NEEDS_INDEX: bool = true;

    type Args = crate::xref::ShowDefinitionArgs;
    type Output = crate::xref::ShowDefinitionResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.show_definition(&args)
    }
}
