//! `source_actions`: generated members (getters, setters, constructor, toString,
//! equals/hashCode, serialVersionUID, overridden, implemented and delegate methods), previewed
//! as a diff and applied atomically: its arguments, the type they name, and
//! [`mji_edit::actions::generate`]'s outcome answered as `refactor_actions`' [`EditResult`].

use serde::{Deserialize, Serialize};

use mji_edit::ctx::{by_qualified_name, innermost_at};

use crate::ToolError;
use crate::host::Host;
use crate::registry::{Annotations, Tool};
use crate::tool::refactor_actions::{EditResult, Finish};
use crate::xref::is_zero;

pub(crate) struct SourceActions;

impl Tool for SourceActions {
    const NAME: &'static str = "source_actions";
    const TITLE: &'static str = "Generate members";
    const DESCRIPTION: &'static str = "Generate members in the class's style. Previews a diff and editId; writes on apply: true.";
    // Adds code to a file when applied; nothing is removed.
    const ANNOTATIONS: Annotations = Annotations { read_only: false, destructive: false, idempotent: false, open_world: false };
    const WAITS_FOR_INDEX: bool = true;
    const GROUP: &'static str = "edit";

    type Args = SourceArgs;
    type Output = EditResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(output.render())
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

/// `source_actions`.
pub fn run(ws: &Host, args: &SourceArgs) -> Result<EditResult, ToolError> {
    let (path, display) = if !args.type_name.trim().is_empty() {
        let (w, _) = ws.xref_world();
        let fqn = args.type_name.trim();
        let id = w.workspace_type(fqn).ok_or_else(|| {
            ToolError::NoSuchSymbol(format!("no type {fqn} in the workspace (find_type finds it by simple name)"))
        })?;
        let path = w.files[w.file_of(id) as usize].path.to_path_buf();
        let r = ws.resolve(&path.to_string_lossy())?;
        (r.path, r.display)
    } else if !args.file_path.trim().is_empty() && args.line > 0 {
        let r = ws.resolve(&args.file_path)?;
        (r.path, r.display)
    } else {
        return Err(ToolError::InvalidArgument(
            "give the type as `type` (qualified name) or filePath + line".into(),
        ));
    };
    ws.check_file(&path, &display)?;
    crate::require_java(&path, &display)?;
    let doc = mji_edit::Doc::read(&path, &display)?;
    let outline = mji_parser::outline_with(&display, &doc.bytes, &ws.xref().lombok_config(&path));
    let ty = if args.type_name.trim().is_empty() {
        innermost_at(&outline.classes, args.line)
            .ok_or_else(|| ToolError::NoSuchSymbol(format!("no type declared at {display}:{}", args.line)))?
    } else {
        by_qualified_name(&outline.classes, args.type_name.trim())
            .ok_or_else(|| ToolError::NoSuchSymbol(format!("{} is not declared in {display}", args.type_name)))?
    };
    let opts = mji_edit::generate::Options {
        fields: args.fields.clone(),
        after: args.after.clone(),
        final_params: args.final_parameters,
        methods: args.methods.clone(),
    };
    let outcome = mji_edit::actions::generate::run(ws, &doc, ty, args.action, &opts)?;
    let how = Finish { apply: args.apply, edit_id: &args.edit_id, force: false, offset: 0 };
    crate::tool::refactor_actions::finish(ws, outcome, &how)
}
