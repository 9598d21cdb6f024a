//! `reload_buffer`: reverts the editor's buffers from disk after files changed outside it.

use crate::ToolError;
use crate::editor::{ReloadBufferArgs, ReloadResult};
use crate::registry::{Annotations, Tool};
use crate::workspace::Workspace;

pub(crate) struct ReloadBuffer;

impl Tool for ReloadBuffer {
    const NAME: &'static str = "reload_buffer";
    const TITLE: &'static str = "Reload editor buffers";
    const DESCRIPTION: &'static str = "After editing files outside the editor (sed, Write): revert the user's Emacs buffer of file_path, or without it every buffer of a workspace file changed on disk. Unsaved changes are kept unless force.";
    // force discards the user's unsaved changes.
    const ANNOTATIONS: Annotations =
        Annotations { read_only: false, destructive: true, idempotent: true, open_world: false };
    const GROUP: &'static str = "editor";
    const ALIASES: &'static [(&'static str, &'static str)] = &[("file_path", "filePath")];

    type Args = ReloadBufferArgs;
    type Output = ReloadResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.reload_buffer(&args)
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.reloaded.len() + output.skipped.len())
    }

    /// A reload is done once it answers: the list is shortened, and says so in `note`.
    fn cut(output: &mut Self::Output, _args: &Self::Args, n: usize) {
        let total = output.reloaded.len() + output.skipped.len();
        if n < total {
            let keep = n.min(output.reloaded.len());
            output.reloaded.truncate(keep);
            output.skipped.truncate(n - keep);
            output.note = Some(format!("{total} files handled; only {n} listed to fit the answer budget"));
        }
    }
}
