//! `refactor_actions`: rename, organize imports, quick fixes, safe delete, inline and extract,
//! previewed as a diff and applied atomically.

use mji_edit::Doc;
use mji_edit::ctx::Outcome;

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
    const WAITS_FOR_INDEX: bool = true;
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
        RefactorAction::Rename => rename(ws, args)?,
        RefactorAction::OrganizeImports => organize_imports(ws, args)?,
        RefactorAction::QuickFix => crate::quick_fix::quick_fix(ws, args)?,
        RefactorAction::SafeDelete => safe_delete(ws, args)?,
        RefactorAction::Inline => inline(ws, args)?,
        RefactorAction::ExtractVariable => extract(ws, args, false)?,
        RefactorAction::ExtractConstant => extract(ws, args, true)?,
        RefactorAction::ExtractMethod => extract_method(ws, args)?,
        RefactorAction::ChangeSignature => change_signature(ws, args)?,
        RefactorAction::Move => move_(ws, args)?,
        RefactorAction::Convert => convert(ws, args)?,
        RefactorAction::Apply => return crate::edit::apply_previews(ws, args),
    };
    crate::edit::finish(ws, outcome, args)
}

/// The Java file `filePath` names, through the path policy, as a [`Doc`].
pub(crate) fn java_doc(ws: &Host, file_path: &str) -> Result<Doc, ToolError> {
    let r = ws.resolve(file_path)?;
    ws.check_file(&r.path, &r.display)?;
    crate::require_java(&r.path, &r.display)?;
    Ok(Doc::read(&r.path, &r.display)?)
}

/// `convert`: [`mji_edit::actions::convert`] at `filePath` + `line` (+ `column`).
fn convert(ws: &Host, args: &RefactorArgs) -> Result<Outcome, ToolError> {
    if args.file_path.trim().is_empty() || args.line == 0 {
        return Err(ToolError::InvalidArgument("convert needs filePath + line of an indexed `for`".into()));
    }
    let doc = java_doc(ws, &args.file_path)?;
    Ok(mji_edit::actions::convert::run(ws, &doc, args.line, args.column)?)
}

/// `organize_imports`: [`mji_edit::actions::organize_imports`] of `filePath`.
fn organize_imports(ws: &Host, args: &RefactorArgs) -> Result<Outcome, ToolError> {
    if args.file_path.trim().is_empty() {
        return Err(ToolError::InvalidArgument("organize_imports needs filePath".into()));
    }
    let doc = java_doc(ws, &args.file_path)?;
    Ok(mji_edit::actions::organize_imports::run(ws, &doc, &args.choose)?)
}

/// `move`: [`mji_edit::actions::r#move`] of the declaration the call names to `destination`.
fn move_(ws: &Host, args: &RefactorArgs) -> Result<Outcome, ToolError> {
    let (w, _) = ws.xref_world();
    let target = args.target_in(ws, &w, (!args.target.contains('(')).then_some(crate::xref::TargetKind::Field))?;
    Ok(mji_edit::actions::r#move::run(ws, &target, &args.destination)?)
}

/// `safe_delete`: [`mji_edit::actions::safe_delete`] of the declaration the call names.
fn safe_delete(ws: &Host, args: &RefactorArgs) -> Result<Outcome, ToolError> {
    let (w, _) = ws.xref_world();
    let target = args.target_in(ws, &w, (!args.target.contains('(')).then_some(crate::xref::TargetKind::Field))?;
    Ok(mji_edit::actions::safe_delete::run(ws, &target)?)
}

/// `extract_variable` / `extract_constant`: [`mji_edit::actions::extract`] of the expression
/// at the range (or the text on the line).
fn extract(ws: &Host, args: &RefactorArgs, constant: bool) -> Result<Outcome, ToolError> {
    let what = if constant { "extract_constant" } else { "extract_variable" };
    if args.file_path.trim().is_empty() || args.line == 0 {
        return Err(ToolError::InvalidArgument(format!(
            "{what} needs filePath and the expression: startLine/startColumn to endLine/endColumn, or line + text"
        )));
    }
    let doc = java_doc(ws, &args.file_path)?;
    let request = mji_edit::actions::extract::Request {
        constant,
        line: args.line,
        column: args.column,
        end_line: args.end_line,
        end_column: args.end_column,
        text: &args.target,
        new_name: &args.new_name,
        replace_all: args.replace_all,
    };
    Ok(mji_edit::actions::extract::run(ws, &doc, &request)?)
}

/// `inline`: the local variable at `filePath` + `line` (+ `column`), or the method or constant
/// named by `target` (or whose declaration or use is at the position when no local is there);
/// [`mji_edit::actions::inline`].
fn inline(ws: &Host, args: &RefactorArgs) -> Result<Outcome, ToolError> {
    use mji_edit::actions::inline;
    if args.target.trim().is_empty() {
        if args.file_path.trim().is_empty() || args.line == 0 {
            return Err(ToolError::InvalidArgument(
                "inline needs filePath + line (+ column) of a local variable, or target: a constant".into(),
            ));
        }
        let doc = java_doc(ws, &args.file_path)?;
        if let Some(done) = inline::local(&doc, args.line, args.column)? {
            return Ok(done);
        }
    }
    let (w, _) = ws.xref_world();
    if let Ok(target) = args.target_in(ws, &w, None)
        && target.category == mji_xref::Category::Method
    {
        // One call, by position (the action ignores a position on the declaration).
        let at = (!args.file_path.trim().is_empty() && args.line > 0)
            .then(|| ws.resolve(&args.file_path).ok())
            .flatten()
            .map(|r| (r.path, args.line, args.column));
        return Ok(inline::method(ws, &target, at)?);
    }
    let target = args.target_in(ws, &w, Some(crate::xref::TargetKind::Field))?;
    Ok(inline::constant(ws, &target)?)
}

/// `extract_method`: [`mji_edit::actions::extract_method`] of the statements from `startLine`
/// to `endLine` (or the exact range with columns) to a private method named `newName`.
fn extract_method(ws: &Host, args: &RefactorArgs) -> Result<Outcome, ToolError> {
    if args.file_path.trim().is_empty() || args.line == 0 || args.end_line == 0 {
        return Err(ToolError::InvalidArgument(
            "not extracted: extract_method needs filePath, startLine and endLine (and columns for a part of a line)"
                .into(),
        ));
    }
    let doc = java_doc(ws, &args.file_path)?;
    let request = mji_edit::actions::extract_method::Request {
        line: args.line,
        column: args.column,
        end_line: args.end_line,
        end_column: args.end_column,
        new_name: &args.new_name,
        replace_all: args.replace_all,
    };
    Ok(mji_edit::actions::extract_method::run(ws, &doc, &request)?)
}

/// `change_signature`: [`mji_edit::actions::change_signature`] of the method or constructor
/// the call names.
fn change_signature(ws: &Host, args: &RefactorArgs) -> Result<Outcome, ToolError> {
    use mji_edit::actions::change_signature::{ParamSpec, Request, run};
    let (w, _) = ws.xref_world();
    let target = args.target_in(ws, &w, None)?;
    let parameters = args.parameters.as_ref().map(|given| {
        given
            .iter()
            .map(|p| ParamSpec {
                from: p.from,
                name: p.name.clone(),
                ty: p.ty.clone(),
                default_value: p.default_value.clone(),
            })
            .collect()
    });
    let request = Request { new_name: &args.new_name, parameters, include_likely: args.include_likely };
    Ok(run(ws, &target, &request)?)
}

/// `rename`: [`mji_edit::actions::rename`] of the local at `filePath` + `line` (+ `column`), the
/// package `target` names, or the declaration it names.
fn rename(ws: &Host, args: &RefactorArgs) -> Result<Outcome, ToolError> {
    use mji_edit::actions::rename;
    let new = args.new_name.trim();
    if !new.split('.').all(mji_edit::is_identifier) || (new.contains('.') && args.target.contains('#')) {
        return Err(ToolError::InvalidArgument(format!(
            "newName `{}` is not a Java identifier (letters, digits, `_`, `$`; not a keyword)",
            args.new_name
        )));
    }
    // A local variable or parameter: the syntax of its method answers it exactly. Without a
    // column, a line that declares a member means that member (`void reset(String reason)`
    // renames reset), never a parameter named after it on the line.
    if !args.file_path.trim().is_empty() && args.line > 0 && args.target.trim().is_empty() {
        let doc = java_doc(ws, &args.file_path)?;
        if (args.column > 0 || !rename::declares_member_on(ws, &doc, args.line))
            && let Some(done) = rename::local(&doc, args.line, args.column, new)
        {
            return Ok(done);
        }
    }
    let (w, _) = ws.xref_world();
    let spec = args.target.trim();
    if rename::names_package(&w, spec, args.include_subpackages) {
        return Ok(rename::package(ws, spec, new, args.include_subpackages)?);
    }
    let target = args.target_in(ws, &w, (!args.target.contains('(')).then_some(crate::xref::TargetKind::Field))?;
    Ok(rename::member(ws, &target, new, args.include_likely)?)
}
