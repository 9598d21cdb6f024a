//! `show_definition`: where a name is defined.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct ShowDefinition;

impl Tool for ShowDefinition {
    const NAME: &'static str = "show_definition";
    const TITLE: &'static str = "Show definition";
    const DESCRIPTION: &'static str = "Go to definition: where a name (`Bar`, `doThing`, `Bar.doThing`, `com.foo.Bar#count`) is declared, with lines and signature. With `filePath`+`line` of a use it is resolved exactly. open: show it in the editor.";
    const NEEDS_INDEX: bool = true;

    type Args = crate::xref::ShowDefinitionArgs;
    type Output = crate::xref::ShowDefinitionResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        let mut r = ws.show_definition(&args)?;
        if args.open {
            r.opened = Some(match r.definitions.iter().find_map(|d| Some((d.file.clone()?, d.start_line?))) {
                Some((file, line)) => ws.open_in_editor(&file, line, 0),
                None => crate::editor::Opened {
                    success: false,
                    editor: String::new(),
                    file_path: String::new(),
                    line: 0,
                    message: "no definition in a workspace file to show".into(),
                },
            });
        }
        Ok(r)
    }
}
