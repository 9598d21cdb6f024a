//! `reload_buffer`: reverts the editor's buffers from disk after files changed outside it.

use crate::ToolError;
use crate::registry::{Annotations, Tool, Needs};
use std::path::Path;
use crate::editor::status_reason;
use mji_editor::ReloadReport;
use crate::host::Host;
use serde::{Deserialize, Serialize};

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
    const SHOWN_WHEN: Needs = Needs::Editor;

    type Args = ReloadBufferArgs;
    type Output = ReloadResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
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

/// `reload_buffer`: one file, or every buffer visiting a workspace file changed on disk.
pub fn run(ws: &Host, args: &ReloadBufferArgs) -> Result<ReloadResult, ToolError> {
    let mut skipped = Vec::new();
    let files = if args.file_path.trim().is_empty() {
        let Some(stale) = ws.editor().stale_files()? else {
            let r = ws.editor().reload(&[], args.force)?;
            return Ok(ReloadResult {
                success: true,
                editor: r.editor,
                reloaded: Vec::new(),
                skipped,
                note: r.note,
            });
        };
        let mut files = Vec::new();
        for f in stale {
            match std::fs::canonicalize(&f) {
                Ok(c) if ws.roots().root_of(&c).is_some() => files.push(c),
                Err(_) if ws.roots().root_of(&f).is_some() => skipped.push(Skipped {
                    file: crate::editor::editor_display(ws, &f).unwrap_or_default(),
                    reason: status_reason("deleted"),
                }),
                // Outside the workspace: neither touched nor named.
                _ => {}
            }
        }
        files
    } else {
        vec![crate::editor::editor_file(ws, &args.file_path)?.0]
    };
    let report: ReloadReport = ws.editor().reload(&files, args.force)?;
    let mut reloaded = Vec::new();
    for f in &report.files {
        let display = crate::editor::editor_display(ws, Path::new(&f.file)).unwrap_or_else(|| f.file.clone());
        if f.status == "reloaded" {
            reloaded.push(display);
        } else {
            skipped.push(Skipped { file: display, reason: status_reason(&f.status) });
        }
    }
    if !args.file_path.trim().is_empty()
        && let Some(s) = skipped.first()
        && s.reason.starts_with("has unsaved")
    {
        return Err(ToolError::Editor(format!("refused: {} {}", s.file, s.reason)));
    }
    Ok(ReloadResult { success: true, editor: report.editor, reloaded, skipped, note: report.note })
}

/// Arguments of `reload_buffer`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReloadBufferArgs {
    /// Omitted: every buffer visiting a workspace file changed on disk.
    #[serde(default)]
    pub file_path: String,
    /// Also discard unsaved changes.
    #[serde(default)]
    pub force: bool,
}

/// The answer of `reload_buffer`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ReloadResult {
    pub success: bool,
    pub editor: String,
    /// Files reverted from disk.
    pub reloaded: Vec<String>,
    /// Files left alone, with why (unsaved changes, deleted on disk, not open).
    pub skipped: Vec<Skipped>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Skipped {
    pub file: String,
    pub reason: String,
}
