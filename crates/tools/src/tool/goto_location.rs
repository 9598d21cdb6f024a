//! `goto_location`: jumps the user's editor to a line, recentered, optionally pulsed.

use crate::ToolError;
use crate::editor::ShowResult;
use crate::registry::{Annotations, Tool, Needs};
use mji_editor::Place;
use crate::host::Host;
use serde::{Deserialize, Serialize};

pub(crate) struct GotoLocation;

impl Tool for GotoLocation {
    const NAME: &'static str = "goto_location";
    const TITLE: &'static str = "Go to location in editor";
    const DESCRIPTION: &'static str = "Jump the user's editor to file:line:column (recentered; highlight pulses the line), e.g. to show a problem from get_problems.";
    const ANNOTATIONS: Annotations = super::open_file::EDITOR_VIEW;
    const GROUP: &'static str = "editor";
    const ALIASES: &'static [(&'static str, &'static str)] = &[("file_path", "filePath")];
    const SHOWN_WHEN: Needs = Needs::Editor;

    type Args = GotoLocationArgs;
    type Output = ShowResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }
}

/// `goto_location`.
pub fn run(ws: &Host, args: &GotoLocationArgs) -> Result<ShowResult, ToolError> {
    if args.line == 0 {
        return Err(ToolError::InvalidArgument("line is 1-based; give the line to go to".into()));
    }
    let (path, display) = crate::editor::editor_file(ws, &args.file_path)?;
    let place = Place { line: Some(args.line), column: Some(args.column) };
    let shown = ws.editor().show(&path, place, true, args.highlight)?;
    Ok(ShowResult { success: true, file_path: display, shown })
}

/// Arguments of `goto_location`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GotoLocationArgs {
    pub file_path: String,
    /// 1-based.
    pub line: u32,
    /// 0-based, in characters.
    #[serde(default)]
    pub column: u32,
    /// Pulse the line.
    #[serde(default)]
    pub highlight: bool,
}
