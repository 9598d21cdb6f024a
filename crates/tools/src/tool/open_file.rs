//! `open_file`: shows a workspace file in the user's editor.

use crate::ToolError;
use crate::editor::{OpenFileArgs, ShowResult};
use crate::registry::{Annotations, Tool};
use crate::workspace::Workspace;

pub(crate) struct OpenFile;

/// Changes what the editor shows, never a file.
pub(crate) const EDITOR_VIEW: Annotations =
    Annotations { read_only: false, destructive: false, idempotent: true, open_world: false };

impl Tool for OpenFile {
    const NAME: &'static str = "open_file";
    const TITLE: &'static str = "Open file in editor";
    const DESCRIPTION: &'static str = "Open a workspace file in the user's editor (Emacs, VS Code or a configured command), optionally at line/column, to show it to the user.";
    const ANNOTATIONS: Annotations = EDITOR_VIEW;
    const GROUP: &'static str = "editor";
    const ALIASES: &'static [(&'static str, &'static str)] = &[("file_path", "filePath")];

    type Args = OpenFileArgs;
    type Output = ShowResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.open_file(&args)
    }
}
