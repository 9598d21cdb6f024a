//! `source_actions`: generated members (getters, setters, constructor, toString,
//! equals/hashCode, serialVersionUID, overridden, implemented and delegate methods), previewed as a diff and applied atomically.

use crate::ToolError;
use crate::edit::{EditResult, SourceArgs};
use crate::registry::{Annotations, Tool};
use crate::workspace::Workspace;

pub(crate) struct SourceActions;

impl Tool for SourceActions {
    const NAME: &'static str = "source_actions";
    const TITLE: &'static str = "Generate members";
    const DESCRIPTION: &'static str = "Generate members in the class's style. Previews a diff and editId; writes on apply: true.";
    // Adds code to a file when applied; nothing is removed.
    const ANNOTATIONS: Annotations = Annotations { read_only: false, destructive: false, idempotent: false, open_world: false };
    const NEEDS_INDEX: bool = true;
    const GROUP: &'static str = "edit";

    type Args = SourceArgs;
    type Output = EditResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.source_actions(&args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(output.render())
    }
}
