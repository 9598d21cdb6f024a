//! The editor tools' wire types and their `Workspace` calls: every path goes through the
//! roots' path policy before the editor (`mji-editor`) sees it, and editor failures become
//! tool errors that say how to enable an editor.

use std::path::{Path, PathBuf};

use mji_editor::{EditorError, Place, ReloadReport, Shown};
use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::host::Host;

/// The answer of `open_file` and `goto_location`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShowResult {
    pub success: bool,
    pub file_path: String,
    #[serde(flatten)]
    pub shown: Shown,
}

/// What `open: true` on another tool did in the editor.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Opened {
    pub success: bool,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub editor: String,
    pub file_path: String,
    pub line: u32,
    /// Why it was not shown (no editor: how to enable one).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

impl From<EditorError> for ToolError {
    fn from(e: EditorError) -> ToolError {
        ToolError::Editor(e.to_string())
    }
}

pub(crate) fn status_reason(status: &str) -> String {
    match status {
        "modified" => "has unsaved changes in the editor; not reloaded (force: true discards them)".into(),
        "deleted" => "deleted on disk; the buffer is left alone".into(),
        "not-visited" => "not open in the editor".into(),
        other => other.to_owned(),
    }
}

/// A workspace file for the editor: resolved by the path policy, still inside a root,
/// regular, within the cap. Returns the canonical path and its display.
pub(crate) fn editor_file(ws: &Host, file_path: &str) -> Result<(PathBuf, String), ToolError> {
    let r = ws.resolve(file_path)?;
    crate::check_regular(&r.path, &r.display, ws.roots().max_file_bytes())?;
    match std::fs::canonicalize(&r.path) {
        Ok(c) if ws.roots().root_of(&c).is_some() => Ok((c, r.display)),
        _ => Err(ToolError::InvalidArgument(format!("{} is not inside the workspace roots", r.display))),
    }
}

/// The 0-based character column (as Emacs counts) of a 1-based UTF-16 column (as javac
/// and get_problems count) on `line` of a workspace file: they differ after a character
/// outside the BMP. The UTF-16 column less one when the line cannot be read.
pub(crate) fn char_column(ws: &Host, file_path: &str, line: u32, utf16_column: u32) -> u32 {
    let units = utf16_column.saturating_sub(1);
    let text = ws.resolve(file_path).ok().and_then(|r| ws.roots().read(&r.path, &r.display).ok()).and_then(|b| {
        let src = mji_parser::SourceText::decode(&b);
        (line >= 1 && line <= src.lines.line_count()).then(|| src.lines.line_text(&src.text, line).to_owned())
    });
    text.map_or(units, |t| chars_within_utf16(&t, units))
}

/// The display of a canonical path inside a root.
pub(crate) fn editor_display(ws: &Host, p: &Path) -> Option<String> {
    ws.roots().root_of(p).map(|i| ws.roots().display(p, i))
}

/// For the edit tools: after applying an edit, reverts the editor's buffers of `files`
/// (canonical paths inside the roots) that have no unsaved changes. `None` when
/// `editor_auto_reload` is off or no editor is reachable; an edit never fails for want of
/// an editor, so the caller reports an error here beside its own result.
pub fn reload_files(ws: &Host, files: &[PathBuf]) -> Option<Result<ReloadReport, EditorError>> {
    let inside: Vec<PathBuf> = files.iter().filter(|f| ws.roots().root_of(f).is_some()).cloned().collect();
    ws.editor().reload_files(&inside)
}

/// `open: true` on another tool: shows `file_path` at `line` (1-based) and `column`
/// (0-based) in the editor; a failure is told in the answer, never fails the tool.
pub fn open_in_editor(ws: &Host, file_path: &str, line: u32, column: u32) -> Opened {
    let shown = editor_file(ws, file_path).and_then(|(path, _)| {
        let place = Place { line: Some(line.max(1)), column: Some(column) };
        ws.editor().show(&path, place, true, true).map_err(ToolError::from)
    });
    match shown {
        Ok(s) => Opened {
            success: true,
            editor: s.editor,
            file_path: file_path.to_owned(),
            line: s.line,
            message: String::new(),
        },
        Err(e) => Opened {
            success: false,
            editor: String::new(),
            file_path: file_path.to_owned(),
            line,
            message: e.to_string(),
        },
    }
}

/// How many characters of `text` its first `units` UTF-16 code units hold (a character is
/// counted once its units are all within).
pub(crate) fn chars_within_utf16(text: &str, units: u32) -> u32 {
    let mut used = 0u32;
    let mut chars = 0u32;
    for ch in text.chars() {
        used += ch.len_utf16() as u32;
        if used > units {
            break;
        }
        chars += 1;
    }
    chars
}

#[cfg(test)]
mod column_tests {
    use super::chars_within_utf16;

    #[test]
    fn utf16_columns_become_character_columns() {
        // `😀` is two UTF-16 units and one character: javac's column 9 after it is Emacs' 7th.
        let line = "s = \"😀\"; x;";
        assert_eq!(chars_within_utf16(line, 0), 0);
        assert_eq!(chars_within_utf16(line, 5), 5);
        assert_eq!(chars_within_utf16(line, 7), 6);
        assert_eq!(chars_within_utf16(line, 8), 7);
        assert_eq!(chars_within_utf16("ab", 10), 2);
    }
}
