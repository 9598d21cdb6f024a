//! The wire arguments of the outline and reading tools (`java_index`, `java_read_range`,
//! `java_read_javadoc`), and `Workspace`, the name the shells know the host by.

use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::java_index::OutlineQuery;
use crate::read_javadoc::JavadocOptions;
use crate::read_range::RangeOptions;
use mji_cache::Outcome;
use mji_model::FileOutline;

/// The host (`crate::host::Host`), by the name the shells and tests use.
pub type Workspace = crate::host::Host;

/// Arguments of `java_index`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JavaIndexArgs {
    /// A .java or .class file, a type's name (Foo, java.util.HashMap) or a jar: path.
    pub file_path: String,
    #[serde(flatten)]
    pub options: OutlineQuery,
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
                crate::java_index::declaration_named(&outline()?, symbol, &self.file_path).map(|(s, e, _)| (s, e))
            }
        }
    }
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
            (Some(symbol), _) => crate::java_index::declaration_named(outline, symbol, file).map(|(_, _, id)| id),
            (None, "") => Err(ToolError::InvalidArgument(
                "give symbolId (from java_index) or symbol (a declaration's name)".to_owned(),
            )),
            (None, id) => Ok(id.to_owned()),
        }
    }
}

/// An outline and whether it came from the cache.
#[derive(Debug, Clone)]
pub struct CachedOutline {
    pub outline: FileOutline,
    pub outcome: Outcome,
    pub elapsed_ms: f64,
}
