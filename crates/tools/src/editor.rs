//! The editor tools' wire types and their `Workspace` calls: every path goes through the
//! roots' path policy before the editor (`mji-editor`) sees it, and editor failures become
//! tool errors that say how to enable an editor.

use std::path::{Path, PathBuf};

use mji_editor::{EditorError, ElispOutcome, Place, ReloadReport, Shown};
use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::workspace::Workspace;

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

/// Arguments of `run_elisp`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RunElispArgs {
    /// One form; several go in (progn …).
    pub code: String,
    /// Return what it printed to standard-output.
    #[serde(default)]
    pub capture_output: bool,
    /// Say what would run, run nothing.
    #[serde(default)]
    pub dry_run: bool,
}

/// The answer of `open_file` and `goto_location`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShowResult {
    pub success: bool,
    pub file_path: String,
    #[serde(flatten)]
    pub shown: Shown,
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

/// The answer of `run_elisp`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RunElispResult {
    /// The code ran.
    pub success: bool,
    #[serde(flatten)]
    pub outcome: ElispOutcome,
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

fn status_reason(status: &str) -> String {
    match status {
        "modified" => "has unsaved changes in the editor; not reloaded (force: true discards them)".into(),
        "deleted" => "deleted on disk; the buffer is left alone".into(),
        "not-visited" => "not open in the editor".into(),
        other => other.to_owned(),
    }
}

impl Workspace {
    /// A workspace file for the editor: resolved by the path policy, still inside a root,
    /// regular, within the cap. Returns the canonical path and its display.
    fn editor_file(&self, file_path: &str) -> Result<(PathBuf, String), ToolError> {
        let r = self.resolve(file_path)?;
        crate::check_regular(&r.path, &r.display, self.roots.max_file_bytes())?;
        match std::fs::canonicalize(&r.path) {
            Ok(c) if self.roots.root_of(&c).is_some() => Ok((c, r.display)),
            _ => Err(ToolError::InvalidArgument(format!("{} is not inside the workspace roots", r.display))),
        }
    }

    /// The 0-based character column (as Emacs counts) of a 1-based UTF-16 column (as javac
    /// and get_problems count) on `line` of a workspace file: they differ after a character
    /// outside the BMP. The UTF-16 column less one when the line cannot be read.
    pub(crate) fn char_column(&self, file_path: &str, line: u32, utf16_column: u32) -> u32 {
        let units = utf16_column.saturating_sub(1);
        let text = self.resolve(file_path).ok().and_then(|r| self.roots.read(&r.path, &r.display).ok()).and_then(|b| {
            let src = mji_parser::SourceText::decode(&b);
            (line >= 1 && line <= src.lines.line_count()).then(|| src.lines.line_text(&src.text, line).to_owned())
        });
        text.map_or(units, |t| chars_within_utf16(&t, units))
    }

    /// The display of a canonical path inside a root.
    fn editor_display(&self, p: &Path) -> Option<String> {
        self.roots.root_of(p).map(|i| self.roots.display(p, i))
    }

    /// `open_file`.
    pub fn open_file(&self, args: &OpenFileArgs) -> Result<ShowResult, ToolError> {
        let (path, display) = self.editor_file(&args.file_path)?;
        let place =
            Place { line: (args.line > 0).then_some(args.line), column: Some(args.column).filter(|_| args.line > 0) };
        let shown = self.editor.show(&path, place, args.focus, false)?;
        Ok(ShowResult { success: true, file_path: display, shown })
    }

    /// `goto_location`.
    pub fn goto_location(&self, args: &GotoLocationArgs) -> Result<ShowResult, ToolError> {
        if args.line == 0 {
            return Err(ToolError::InvalidArgument("line is 1-based; give the line to go to".into()));
        }
        let (path, display) = self.editor_file(&args.file_path)?;
        let place = Place { line: Some(args.line), column: Some(args.column) };
        let shown = self.editor.show(&path, place, true, args.highlight)?;
        Ok(ShowResult { success: true, file_path: display, shown })
    }

    /// `reload_buffer`: one file, or every buffer visiting a workspace file changed on disk.
    pub fn reload_buffer(&self, args: &ReloadBufferArgs) -> Result<ReloadResult, ToolError> {
        let mut skipped = Vec::new();
        let files = if args.file_path.trim().is_empty() {
            let Some(stale) = self.editor.stale_files()? else {
                let r = self.editor.reload(&[], args.force)?;
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
                    Ok(c) if self.roots.root_of(&c).is_some() => files.push(c),
                    Err(_) if self.roots.root_of(&f).is_some() => skipped.push(Skipped {
                        file: self.editor_display(&f).unwrap_or_default(),
                        reason: status_reason("deleted"),
                    }),
                    // Outside the workspace: neither touched nor named.
                    _ => {}
                }
            }
            files
        } else {
            vec![self.editor_file(&args.file_path)?.0]
        };
        let report: ReloadReport = self.editor.reload(&files, args.force)?;
        let mut reloaded = Vec::new();
        for f in &report.files {
            let display = self.editor_display(Path::new(&f.file)).unwrap_or_else(|| f.file.clone());
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

    /// `run_elisp`.
    pub fn run_elisp(&self, args: &RunElispArgs) -> Result<RunElispResult, ToolError> {
        let outcome = self.editor.run_elisp(&args.code, args.capture_output, args.dry_run)?;
        Ok(RunElispResult { success: outcome.ran, outcome })
    }

    /// For the edit tools: after applying an edit, reverts the editor's buffers of `files`
    /// (canonical paths inside the roots) that have no unsaved changes. `None` when
    /// `editor_auto_reload` is off or no editor is reachable; an edit never fails for want of
    /// an editor, so the caller reports an error here beside its own result.
    pub fn reload_files(&self, files: &[PathBuf]) -> Option<Result<ReloadReport, EditorError>> {
        let inside: Vec<PathBuf> = files.iter().filter(|f| self.roots.root_of(f).is_some()).cloned().collect();
        self.editor.reload_files(&inside)
    }

    /// `open: true` on another tool: shows `file_path` at `line` (1-based) and `column`
    /// (0-based) in the editor; a failure is told in the answer, never fails the tool.
    pub fn open_in_editor(&self, file_path: &str, line: u32, column: u32) -> Opened {
        let shown = self.editor_file(file_path).and_then(|(path, _)| {
            let place = Place { line: Some(line.max(1)), column: Some(column) };
            self.editor.show(&path, place, true, true).map_err(ToolError::from)
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
