//! `java_read_range`: reads a line range of any workspace file.

use crate::ToolError;
use crate::registry::Tool;
use crate::read_range::{RangeResult, range_of};
use crate::{io_error, read_error, require_java};
use crate::host::Host;

pub(crate) struct JavaReadRange;

impl Tool for JavaReadRange {
    const NAME: &'static str = "java_read_range";
    const TITLE: &'static str = "Read lines of a file";
    const DESCRIPTION: &'static str = "Read lines startLine..endLine of a workspace file, numbered, or one declaration by symbol (name, or name(Type,…)). Long reads stop at a line boundary (nextStartLine).";

    type Args = crate::workspace::ReadRangeArgs;
    type Output = crate::read_range::RangeResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(crate::read_range::render(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some((output.end_line + 1).saturating_sub(output.start_line) as usize)
    }

    fn cut(output: &mut Self::Output, _args: &Self::Args, n: usize) {
        crate::read_range::keep_lines(output, n);
    }
}

/// `java_read_range`.
pub fn run(ws: &Host, args: &crate::workspace::ReadRangeArgs) -> Result<RangeResult, ToolError> {
    // A type's name (or a `Type#member` symbol) instead of the file.
    let (file_path, symbol) = crate::locate::file_and_symbol(ws, &args.file_path, args.symbol.as_deref())?;
    let args = &crate::workspace::ReadRangeArgs { file_path, symbol, ..args.clone() };
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
        require_java(&r.path, &r.display)?;
        let (cached, _) =
            ws.cache(r.root).outline_with_source(&r.path, &r.display).map_err(|e| io_error(&r.display, e))?;
        Ok(cached.outline.clone())
    })?;
    let bytes = ws.roots().read(&r.path, &r.display).map_err(read_error)?;
    let src = mji_parser::SourceText::decode(&bytes);
    range_of(&src, &r.display, start, end, &args.options)
}
