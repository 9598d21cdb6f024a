//! `java_read_range`: the lines an agent asks for of any workspace file (or one declaration's),
//! bounds-checked and hard-capped.

use std::path::Path;
use serde::{Deserialize, Serialize};
use crate::{ToolError, read_file};
use mji_model::FileOutline;
use mji_parser::SourceText;
use crate::registry::{Start, Tool};
use crate::{io_error, read_error};
use crate::host::Host;

/// Default and ceiling of `maxChars`.
pub const DEFAULT_MAX_CHARS: u32 = 20_000;
pub(crate) const MAX_MAX_CHARS: u32 = 200_000;

/// The `options` object of `java_read_range` (spec §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct RangeOptions {
    pub include_line_numbers: bool,
    /// At most 200000; a longer read stops at a line boundary.
    pub max_chars: u32,
}

impl Default for RangeOptions {
    fn default() -> Self {
        RangeOptions { include_line_numbers: true, max_chars: DEFAULT_MAX_CHARS }
    }
}

/// The answer of `java_read_range`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RangeResult {
    pub file_path: String,
    /// First line returned (1-based).
    pub start_line: u32,
    /// Last line returned, complete or cut (1-based); less than asked when truncated.
    pub end_line: u32,
    /// Lines in the file.
    pub line_count: u32,
    pub content: String,
    /// True when `maxChars` stopped the read before the requested end line.
    pub truncated: bool,
    /// Where to continue after a truncated read; null when complete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_start_line: Option<u32>,
    /// What was adjusted or cut, in words; null when the read is exactly what was asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The last line the call asked for (within the file): where a continuation ends.
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) asked_end: u32,
}

/// Reads lines `start..=end` of a file.
pub fn read_range(
    path: &Path,
    display: &str,
    start: u32,
    end: u32,
    opts: &RangeOptions,
) -> Result<RangeResult, ToolError> {
    let bytes = read_file(path, display)?;
    let src = SourceText::decode(&bytes);
    range_of(&src, display, start, end, opts)
}

/// Reads lines `start..=end` of decoded text.
pub(crate) fn range_of(
    src: &SourceText,
    display: &str,
    start: u32,
    end: u32,
    opts: &RangeOptions,
) -> Result<RangeResult, ToolError> {
    let count = src.lines.line_count();
    if start < 1 {
        return Err(ToolError::InvalidArgument(format!(
            "startLine must be 1 or more (lines are 1-based); {display} has lines 1-{count}"
        )));
    }
    if end < start {
        return Err(ToolError::InvalidArgument(format!(
            "endLine {end} is before startLine {start}; give endLine >= startLine"
        )));
    }
    if count == 0 {
        return Err(ToolError::InvalidArgument(format!("{display} is empty (0 lines); there is nothing to read")));
    }
    if start > count {
        return Err(ToolError::InvalidArgument(format!(
            "startLine {start} is past the end of {display}, which has lines 1-{count}"
        )));
    }
    if opts.max_chars == 0 {
        return Err(ToolError::InvalidArgument("maxChars must be at least 1".to_owned()));
    }
    let max = opts.max_chars.min(MAX_MAX_CHARS) as usize;
    let mut notes = Vec::new();
    let last = if end > count {
        notes.push(format!("endLine {end} is past the last line; read to line {count}"));
        count
    } else {
        end
    };
    let mut content = String::new();
    let mut chars = 0usize;
    let mut shown = start - 1;
    let mut truncated = false;
    for line in start..=last {
        let text = src.lines.line_text(&src.text, line);
        let mut piece = String::with_capacity(text.len() + 8);
        if line > start {
            piece.push('\n');
        }
        if opts.include_line_numbers {
            piece.push_str(&line.to_string());
            piece.push_str(": ");
        }
        piece.push_str(text);
        let n = piece.chars().count();
        if chars + n > max {
            truncated = true;
            if line == start {
                // A single line longer than the cap: return its first part.
                crate::truncate_chars(&mut piece, max);
                content.push_str(&piece);
                shown = line;
                notes.push(format!("line {line} is longer than maxChars ({max}) and was cut"));
            }
            break;
        }
        chars += n;
        content.push_str(&piece);
        shown = line;
    }
    let next_start_line = truncated.then_some(shown + 1).filter(|&n| n <= last);
    if truncated {
        notes.push(match next_start_line {
            Some(n) => format!("output capped at maxChars ({max}); continue with startLine {n}, endLine {last}"),
            None => format!("output capped at maxChars ({max})"),
        });
    }
    Ok(RangeResult {
        file_path: display.to_owned(),
        start_line: start,
        end_line: shown,
        line_count: count,
        content,
        truncated,
        next_start_line,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
        asked_end: last,
    })
}

/// Keeps the first `n` lines of a read (the answer budget's cut) and says where to continue.
pub(crate) fn keep_lines(r: &mut RangeResult, n: usize) {
    let shown = (r.end_line + 1).saturating_sub(r.start_line) as usize;
    if n >= shown || n == 0 {
        return;
    }
    let cut = r.content.match_indices('\n').nth(n - 1).map_or(r.content.len(), |(i, _)| i);
    r.content.truncate(cut);
    r.end_line = r.start_line + n as u32 - 1;
    r.truncated = true;
    r.next_start_line = Some(r.end_line + 1);
    let note = format!("answer budget reached; continue with startLine {}, endLine {}", r.end_line + 1, r.asked_end);
    // An earlier note about maxChars no longer says where to continue.
    let kept: Vec<&str> =
        r.note.as_deref().into_iter().flat_map(|x| x.split("; ")).filter(|x| !x.contains("continue")).collect();
    r.note = Some(kept.into_iter().chain([note.as_str()]).collect::<Vec<_>>().join("; "));
}

/// A read as a model reads it: each line after its number and a space (`N line`; the JSON's
/// `N: ` costs more), blank lines left empty and lines of brackets alone (`}`, `});`) left
/// unnumbered, then what was adjusted or cut, if anything. A number is at least one o200k
/// token (two from line 1000 on: digits go in threes), so numbering costs about one token a
/// line: on the 16 method reads of `benches/answer_tokens.rs` every line numbered costs 1.20x
/// the raw lines' tokens (`N<tab>` 1.23x, `N: ` 1.30x), brackets unnumbered 1.17x.
pub fn render(r: &RangeResult) -> String {
    let mut out = String::with_capacity(r.content.len() + 80);
    for (i, line) in r.content.split('\n').enumerate() {
        let n = (r.start_line as usize + i).to_string();
        match line.strip_prefix(n.as_str()).and_then(|rest| rest.strip_prefix(": ")) {
            Some(text) if text.trim().is_empty() => {}
            // A line of brackets alone (`}`, `});`) is numbered by its neighbours: its number
            // would cost as many tokens as the line.
            Some(text) if text.trim().chars().all(|c| "{}()[];,".contains(c)) => out.push_str(text),
            Some(text) => {
                out.push_str(&n);
                out.push(' ');
                out.push_str(text);
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    if let Some(note) = &r.note {
        out.push('[');
        out.push_str(&r.file_path);
        out.push_str(": ");
        out.push_str(note);
        out.push_str("]\n");
    }
    out
}

pub(crate) struct JavaReadRange;

impl Tool for JavaReadRange {
    const NAME: &'static str = "java_read_range";
    const TITLE: &'static str = "Read lines of a file";
    const DESCRIPTION: &'static str = "Read lines startLine..endLine of a workspace file, numbered, or one declaration by symbol (name, or name(Type,…)). Long reads stop at a line boundary (nextStartLine).";

    type Args = ReadRangeArgs;
    type Output = RangeResult;

    fn start(args: &Self::Args) -> Start {
        crate::locate::start(&args.file_path, args.symbol.as_deref())
    }

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(render(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some((output.end_line + 1).saturating_sub(output.start_line) as usize)
    }

    fn cut(output: &mut Self::Output, _args: &Self::Args, n: usize) {
        keep_lines(output, n);
    }
}

/// `java_read_range`.
pub fn run(ws: &Host, args: &ReadRangeArgs) -> Result<RangeResult, ToolError> {
    // A type's name (or a `Type#member` symbol) instead of the file.
    let (file_path, symbol) = crate::locate::file_and_symbol(ws, &args.file_path, args.symbol.as_deref())?;
    let args = &ReadRangeArgs { file_path, symbol, ..args.clone() };
    if let Some(crate::libraries::LibraryTarget::Jar { archive, entry }) = crate::libraries::target(&args.file_path)
    {
        let (bytes, shown) = crate::libraries::source_bytes(ws, &archive, &entry)?;
        let src = mji_parser::SourceText::decode(&bytes);
        let (start, end) =
            args.lines(|| Ok(mji_parser::outline_source(&shown, mji_classfile::sha1_hex(&bytes), &src)))?;
        return range_of(&src, &shown, start, end, &args.options);
    }
    let r = ws.resolve(&args.file_path)?;
    ws.check_file(&r.path, &r.display)?;
    let (start, end) = args.lines(|| {
        crate::require_source(&r.path, &r.display)?;
        let (cached, _) =
            ws.cache(r.root).outline_with_source(&r.path, &r.display).map_err(|e| io_error(&r.display, e))?;
        Ok(cached.outline.clone())
    })?;
    let bytes = ws.roots().read(&r.path, &r.display).map_err(read_error)?;
    let src = mji_parser::SourceText::decode(&bytes);
    range_of(&src, &r.display, start, end, &args.options)
}

/// Arguments of `java_read_range`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadRangeArgs {
    /// Or a type's name.
    #[serde(default)]
    pub file_path: String,
    /// 1-based.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u32>,
    /// Inclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    /// Instead of lines: a declaration's name or name(Type,…) (Type#name: no filePath).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    #[serde(flatten)]
    pub options: RangeOptions,
}

impl ReadRangeArgs {
    /// The lines to read: as given, or those of the one declaration `symbol` names in
    /// `outline` (several or none is an error that lists what there is and how to pick).
    pub(crate) fn lines(
        &self,
        outline: impl FnOnce() -> Result<FileOutline, ToolError>,
    ) -> Result<(u32, u32), ToolError> {
        let symbol = self.symbol.as_deref().map(str::trim).filter(|s| !s.is_empty());
        match (symbol, self.start_line, self.end_line) {
            (None, Some(start), Some(end)) => Ok((start, end)),
            (None, _, _) => Err(ToolError::InvalidArgument(
                "give startLine and endLine, or symbol (a declaration's name) instead".to_owned(),
            )),
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                Err(ToolError::InvalidArgument("give either symbol or startLine/endLine, not both".to_owned()))
            }
            (Some(symbol), None, None) => {
                crate::tool::java_index::declaration_named(&outline()?, symbol, &self.file_path).map(|(s, e, _)| (s, e))
            }
        }
    }
}
