//! `refactor_actions`: rename, organize imports, quick fixes, safe delete, inline and extract,
//! previewed as a diff and applied atomically.

use crate::ToolError;
use crate::edit::{EditResult, RefactorArgs};
use crate::registry::{Annotations, Tool};
use crate::edit::RefactorAction;
use crate::host::Host;

pub(crate) struct RefactorActions;

impl Tool for RefactorActions {
    const NAME: &'static str = "refactor_actions";
    const TITLE: &'static str = "Refactor: rename, inline, extract, fix";
    const DESCRIPTION: &'static str = "Refactor by `action` (quick_fix takes get_problems' fixId). Previews diff + editId; apply: true writes.";
    // Writes files when applied (a renamed type's file is moved); a repeated apply is refused
    // as stale.
    const ANNOTATIONS: Annotations = Annotations { read_only: false, destructive: true, idempotent: false, open_world: false };
    const NEEDS_INDEX: bool = true;
    const GROUP: &'static str = "edit";
    const ALIASES: &'static [(&'static str, &'static str)] =
        &[("startLine", "line"), ("startColumn", "column"), ("text", "target")];

    type Args = RefactorArgs;
    type Output = EditResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(output.render())
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.files.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.keep_first(n, args.offset);
    }
}

/// `refactor_actions`.
pub fn run(ws: &Host, args: &crate::edit::RefactorArgs) -> Result<EditResult, ToolError> {
    let outcome = match args.action {
        RefactorAction::Rename => crate::edit::rename(ws, args)?,
        RefactorAction::OrganizeImports => crate::edit::organize_imports(ws, args)?,
        RefactorAction::QuickFix => crate::quick_fix::quick_fix(ws, args)?,
        RefactorAction::SafeDelete => crate::refactor::safe_delete(ws, args)?,
        RefactorAction::Inline => crate::refactor::inline(ws, args)?,
        RefactorAction::ExtractVariable => crate::refactor::extract(ws, args, false)?,
        RefactorAction::ExtractConstant => crate::refactor::extract(ws, args, true)?,
        RefactorAction::ExtractMethod => crate::refactor_method::extract_method(ws, args)?,
        RefactorAction::ChangeSignature => crate::signature::change_signature(ws, args)?,
        RefactorAction::Move => crate::signature::move_type(ws, args)?,
        RefactorAction::Convert => crate::convert_lambda::convert(ws, args)?,
        RefactorAction::Apply => return crate::edit::apply_previews(ws, args),
    };
    crate::edit::finish(ws, outcome, args)
}
