//! `goto_location`: jumps the user's editor to a line, recentered, optionally pulsed.

use crate::ToolError;
use crate::editor::{GotoLocationArgs, ShowResult};
use crate::registry::{Annotations, Tool};
use crate::workspace::Workspace;

pub(crate) struct GotoLocation;

impl Tool for GotoLocation {
    const NAME: &'static str = "goto_location";
    const TITLE: &'static str = "Go to location in editor";
    const DESCRIPTION: &'static str = "Jump the user's editor to file:line:column (recentered; highlight pulses the line), e.g. to show a problem from get_problems.";
    const ANNOTATIONS: Annotations = super::open_file::EDITOR_VIEW;
    const GROUP: &'static str = "editor";
    const ALIASES: &'static [(&'static str, &'static str)] = &[("file_path", "filePath")];

    type Args = GotoLocationArgs;
    type Output = ShowResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.goto_location(&args)
    }
}
