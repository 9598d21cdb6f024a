//! `java_read_javadoc`: only the javadoc block of one symbol, found by its symbolId — and
//! re-found by kind and signature when the id's line part is stale.

use std::path::Path;
use serde::{Deserialize, Serialize};
use crate::tool::java_read_range::{RangeOptions, range_of};
use crate::{ToolError, read_file};
use mji_model::symbol_id::split_key;
use mji_model::{FileOutline, Javadoc};
use mji_parser::SourceText;
use crate::registry::{Start, Tool};
use crate::io_error;
use crate::host::Host;

/// The `options` object of `java_read_javadoc` (spec §5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct JavadocOptions {
    pub include_line_numbers: bool,
    pub max_chars: u32,
}

impl Default for JavadocOptions {
    fn default() -> Self {
        JavadocOptions { include_line_numbers: true, max_chars: 8000 }
    }
}

/// The answer of `java_read_javadoc`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JavadocResult {
    pub file_path: String,
    pub symbol_id: String,
    /// True when the symbol exists and has a javadoc.
    pub found: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    pub line_count: u32,
    pub content: String,
    /// The symbol's current id when the given one was stale and was re-resolved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_symbol_id: Option<String>,
    /// Why nothing was found, or what was re-resolved or cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Every declaration of an outline as (symbolId, javadoc), in the order short ids count.
pub fn symbols(outline: &FileOutline) -> Vec<(&str, &Javadoc)> {
    outline.decls().into_iter().map(|d| (d.symbol_id(), d.javadoc())).collect()
}

/// How a symbolId was matched against the current outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    Exact(usize),
    /// The id's kind and signature matched, its lines did not.
    Relocated(usize),
    Missing,
}

/// Finds a symbolId (stable or `@N`) among an outline's symbols.
pub fn resolve(symbols: &[(&str, &Javadoc)], id: &str) -> Resolution {
    if let Some(n) = id.strip_prefix('@').and_then(|n| n.parse::<usize>().ok()) {
        return if n >= 1 && n <= symbols.len() { Resolution::Exact(n - 1) } else { Resolution::Missing };
    }
    if let Some(i) = symbols.iter().position(|(s, _)| *s == id) {
        return Resolution::Exact(i);
    }
    let (key, start) = split_key(id);
    let start = start.unwrap_or(0) as i64;
    symbols
        .iter()
        .enumerate()
        .filter(|(_, (s, _))| split_key(s).0 == key)
        .min_by_key(|(_, (s, _))| (split_key(s).1.unwrap_or(0) as i64 - start).abs())
        .map_or(Resolution::Missing, |(i, _)| Resolution::Relocated(i))
}

/// Reads the javadoc of `symbol_id` in a `.java` file.
pub fn read_javadoc(
    path: &Path,
    display: &str,
    symbol_id: &str,
    opts: &JavadocOptions,
) -> Result<JavadocResult, ToolError> {
    crate::require_source(path, display)?;
    if symbol_id.trim().is_empty() {
        return Err(ToolError::InvalidArgument("symbolId is empty; take one from java_index".to_owned()));
    }
    let bytes = read_file(path, display)?;
    let src = SourceText::decode(&bytes);
    let outline = mji_parser::outline_source(display, mji_parser::content_hash(&bytes), &src);
    javadoc_of(&outline, &src, display, symbol_id, opts)
}

/// Reads the javadoc of `symbol_id` given the file's outline and text.
pub(crate) fn javadoc_of(
    outline: &FileOutline,
    src: &SourceText,
    display: &str,
    symbol_id: &str,
    opts: &JavadocOptions,
) -> Result<JavadocResult, ToolError> {
    let syms = symbols(outline);
    let mut result = JavadocResult {
        file_path: display.to_owned(),
        symbol_id: symbol_id.to_owned(),
        found: false,
        start_line: None,
        end_line: None,
        line_count: 0,
        content: String::new(),
        resolved_symbol_id: None,
        note: None,
    };
    let (idx, relocated) = match resolve(&syms, symbol_id) {
        Resolution::Exact(i) => (i, false),
        Resolution::Relocated(i) => (i, true),
        Resolution::Missing => {
            result.note =
                Some(format!("no symbol {symbol_id} in {display}; call java_index on the file for current symbolIds"));
            return Ok(result);
        }
    };
    let (current, jd) = syms[idx];
    let mut notes = Vec::new();
    if relocated {
        result.resolved_symbol_id = Some(current.to_owned());
        notes.push(format!("symbolId was stale (the code moved); re-resolved by kind and signature to {current}"));
    }
    match (jd.present, jd.start_line, jd.end_line) {
        (true, Some(s), Some(e)) => {
            let range = range_of(
                src,
                display,
                s,
                e,
                &RangeOptions { include_line_numbers: opts.include_line_numbers, max_chars: opts.max_chars },
            )?;
            result.found = true;
            result.start_line = Some(s);
            result.end_line = Some(e);
            result.line_count = e - s + 1;
            result.content = range.content;
            if let Some(n) = range.note {
                notes.push(n);
            }
        }
        _ => notes.push("the symbol has no javadoc".to_owned()),
    }
    result.note = (!notes.is_empty()).then(|| notes.join("; "));
    Ok(result)
}

pub(crate) struct JavaReadJavadoc;

impl Tool for JavaReadJavadoc {
    const NAME: &'static str = "java_read_javadoc";
    const TITLE: &'static str = "Read a symbol's javadoc";
    const DESCRIPTION: &'static str =
        "Read one symbol's javadoc by its java_index symbolId: what it does, without reading its body.";

    type Args = ReadJavadocArgs;
    type Output = JavadocResult;

    fn start(args: &Self::Args) -> Start {
        crate::locate::start(&args.file_path, args.symbol.as_deref())
    }

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }
}

/// `java_read_javadoc`.
pub fn run(ws: &Host, args: &ReadJavadocArgs) -> Result<JavadocResult, ToolError> {
    // A type's name (or a `Type#member` symbol) instead of the file.
    let (file_path, symbol) = crate::locate::file_and_symbol(ws, &args.file_path, args.symbol.as_deref())?;
    let args = &ReadJavadocArgs { file_path, symbol, ..args.clone() };
    if let Some(crate::libraries::LibraryTarget::Jar { archive, entry }) = crate::libraries::target(&args.file_path)
    {
        let (bytes, shown) = crate::libraries::source_bytes(ws, &archive, &entry)?;
        let src = mji_parser::SourceText::decode(&bytes);
        let outline = mji_parser::outline_source(&shown, mji_classfile::sha1_hex(&bytes), &src);
        let id = args.id(&outline, &shown)?;
        return javadoc_of(&outline, &src, &shown, &id, &args.options);
    }
    let r = ws.resolve(&args.file_path)?;
    ws.check_file(&r.path, &r.display)?;
    crate::require_source(&r.path, &r.display)?;
    if args.symbol.is_none() && args.symbol_id.trim().is_empty() {
        return Err(ToolError::InvalidArgument(
            "symbolId is empty; take one from java_index, or give symbol (a declaration's name)".to_owned(),
        ));
    }
    let (cached, src) =
        ws.cache(r.root).outline_with_source(&r.path, &r.display).map_err(|e| io_error(&r.display, e))?;
    let id = args.id(&cached.outline, &r.display)?;
    javadoc_of(&cached.outline, &src, &r.display, &id, &args.options)
}

/// Arguments of `java_read_javadoc`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadJavadocArgs {
    /// Or a type's name.
    #[serde(default)]
    pub file_path: String,
    /// From java_index.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub symbol_id: String,
    /// Or a declaration's name(Type,…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    #[serde(flatten)]
    pub options: JavadocOptions,
}

impl ReadJavadocArgs {
    /// The symbolId to read: as given, or that of the one declaration `symbol` names (as
    /// `java_read_range` finds it).
    pub(crate) fn id(&self, outline: &FileOutline, file: &str) -> Result<String, ToolError> {
        let symbol = self.symbol.as_deref().map(str::trim).filter(|s| !s.is_empty());
        match (symbol, self.symbol_id.trim()) {
            (Some(_), id) if !id.is_empty() => {
                Err(ToolError::InvalidArgument("give either symbol or symbolId, not both".to_owned()))
            }
            (Some(symbol), _) => crate::tool::java_index::declaration_named(outline, symbol, file).map(|(_, _, id)| id),
            (None, "") => Err(ToolError::InvalidArgument(
                "give symbolId (from java_index) or symbol (a declaration's name)".to_owned(),
            )),
            (None, id) => Ok(id.to_owned()),
        }
    }
}
