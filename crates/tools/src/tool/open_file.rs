//! `open_file`: shows a workspace file in the user's editor.

use crate::ToolError;
use crate::editor::ShowResult;
use crate::registry::{Annotations, Tool, Needs};
use mji_editor::Place;
use crate::host::Host;
use serde::{Deserialize, Serialize};

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
    const SHOWN_WHEN: Needs = Needs::Editor;

    type Args = OpenFileArgs;
    type Output = ShowResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }
}

/// `open_file`.
pub fn run(ws: &Host, args: &OpenFileArgs) -> Result<ShowResult, ToolError> {
    let (path, display) = crate::editor::editor_file(ws, &args.file_path)?;
    let place =
        Place { line: (args.line > 0).then_some(args.line), column: Some(args.column).filter(|_| args.line > 0) };
    let shown = ws.editor().show(&path, place, args.focus, false)?;
    Ok(ShowResult { success: true, file_path: display, shown })
}

fn yes() -> bool {
    true
}

/// Arguments of `open_file`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenFileArgs {
    /// A workspace file (relative to the root, or absolute inside it).
    pub file_path: String,
    /// 1-based; 0: where the buffer already is.
    #[serde(default)]
    pub line: u32,
    /// 0-based, in characters.
    #[serde(default)]
    pub column: u32,
    /// Select the editor's window (default true).
    #[serde(default = "yes")]
    pub focus: bool,
}
