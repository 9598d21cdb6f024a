//! `source_actions`' arguments, and the edit crate's errors as tool errors (the answer both
//! editing tools give is `refactor_actions`' [`crate::tool::refactor_actions::EditResult`]).

use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::xref::is_zero;
use mji_edit::EditError;

impl From<EditError> for ToolError {
    fn from(e: EditError) -> ToolError {
        match e {
            EditError::Read(path, source) => ToolError::Io { path, source },
            EditError::NotUtf8(path) => ToolError::BadFile {
                path,
                reason: "is not UTF-8 text; edits are refused rather than re-encoding it".into(),
            },
            other => ToolError::InvalidArgument(other.to_string()),
        }
    }
}

impl From<mji_edit::actions::ActionError> for ToolError {
    fn from(e: mji_edit::actions::ActionError) -> ToolError {
        match e {
            mji_edit::actions::ActionError::Refused(why) => ToolError::InvalidArgument(why),
            mji_edit::actions::ActionError::NotFound(what) => ToolError::NoSuchSymbol(what),
            mji_edit::actions::ActionError::Edit(e) => e.into(),
        }
    }
}

/// Arguments of `source_actions`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SourceArgs {
    pub action: mji_edit::generate::Action,
    /// Qualified name, or give filePath + line.
    #[serde(default, rename = "type", skip_serializing_if = "String::is_empty")]
    pub type_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file_path: String,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line: u32,
    /// Default: instance fields (constructor: final ones).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
    /// Insert after this member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    #[serde(default)]
    pub final_parameters: bool,
    /// Names or name(Type, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub methods: Vec<String>,
    #[serde(default)]
    pub apply: bool,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub edit_id: String,
}
