//! `refactor_actions`: rename, organize imports, quick fixes, safe delete, inline, extract,
//! change signature, move and convert, previewed as a diff and applied atomically. Its
//! arguments and the mapping of each action to [`mji_edit::actions`]; the answer both editing
//! tools give, [`EditResult`], and how an action's [`Outcome`] becomes it (`finish`: previewed
//! as a unified diff per file with an `editId`; `apply: true` writes all files or none,
//! refuses a stale preview, reloads the editor's buffers).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use mji_edit::ctx::Outcome;
use mji_edit::{Doc, WorkspaceEdit};

use crate::ToolError;
use crate::host::Host;
use crate::registry::{Annotations, Tool};
use crate::targets::TargetSpec;
use crate::xref::{TargetKind, is_zero};

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

// What `refactor_actions` does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RefactorAction {
    #[default]
    Rename,
    OrganizeImports,
    // A fix get_problems listed, by its fixId.
    QuickFix,
    SafeDelete,
    Inline,
    ExtractVariable,
    ExtractConstant,
    ExtractMethod,
    ChangeSignature,
    // A top-level type to the package `destination`; a static member or nested type to the class.
    Move,
    // An indexed `for` at filePath + line to an enhanced `for`.
    Convert,
    // Applies the previews named by `editIds` (of either edit tool) as one atomic edit.
    Apply,
}

/// Arguments of `refactor_actions`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefactorArgs {
    pub action: RefactorAction,
    // As find_references takes it (extract_*: the expression's text on `line`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file_path: String,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub column: u32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub new_name: String,
    /// Change `likely` ones too.
    #[serde(default)]
    pub include_likely: bool,
    #[serde(default)]
    pub include_subpackages: bool,
    /// Write it: all files or none.
    #[serde(default)]
    pub apply: bool,
    /// The preview's (refused if stale).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub edit_id: String,
    /// Previews to apply together.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edit_ids: Vec<String>,
    /// Apply despite conflicts.
    #[serde(default)]
    pub force: bool,
    /// Picks for ambiguous imports.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choose: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub fix_id: String,
    // extract_*: the expression from line/column (alias startLine/startColumn) to just before
    // endLine/endColumn, or on `line` the text given as `target` (alias `text`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub end_line: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub end_column: u32,
    #[serde(default)]
    pub replace_all: bool,
    #[serde(default)]
    pub offset: u32,
    // change_signature: the new list; `from` is the old index (null: a new parameter). Absent:
    // the parameters stay; `[]`: every one is removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Vec<ParamArg>>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub destination: String,
}

// One parameter of change_signature's new list.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ParamArg {
    #[serde(default)]
    pub from: Option<u32>,
    #[serde(default)]
    pub name: String,
    #[serde(default, rename = "type")]
    pub ty: String,
    #[serde(default)]
    pub default_value: String,
}

impl RefactorArgs {
    /// The declaration the call names (`target`, or `filePath` + `line` (+ `column`)); `kind`
    /// chooses between a field and a method of one name (`Bar#name` without parameters is the
    /// field when there is one).
    pub(crate) fn target_in(
        &self,
        ws: &Host,
        w: &mji_xref::world::World,
        kind: Option<TargetKind>,
    ) -> Result<crate::xref::Target, ToolError> {
        crate::targets::target_of(
            ws,
            w,
            &TargetSpec {
                target: &self.target,
                kind,
                symbol_id: "",
                file_path: &self.file_path,
                line: self.line,
                column: self.column,
            },
        )
    }
}

/// One file of an edit.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileDiff {
    pub file: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved_to: Option<String>,
    pub edits: u32,
    pub diff: String,
}

/// The answer of an editing action: the preview, or what was written.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditResult {
    pub summary: String,
    /// Pass with apply: true.
    pub edit_id: String,
    pub applied: bool,
    /// In the summary and the paging line.
    #[serde(skip)]
    pub total_files: u32,
    pub files: Vec<FileDiff>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Not changed: `file:line:column`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub likely: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ambiguous: Vec<String>,
    /// Syntax errors after apply.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// After apply: javac on the edited files and their dependents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compile_check: Option<crate::after_apply::CompileCheck>,
    pub truncated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u32>,
}

impl EditResult {
    /// Keeps the first `n` file diffs of the page and says where the next page starts.
    pub(crate) fn keep_first(&mut self, n: usize, offset: u32) {
        if n < self.files.len() {
            self.files.truncate(n);
            self.truncated = true;
            self.next_offset = Some(offset + n as u32);
        }
    }

    /// The text a model reads: summary, lists, then the diffs as they are.
    pub(crate) fn render(&self) -> String {
        let mut out =
            format!("{}\neditId: {}{}\n", self.summary, self.edit_id, if self.applied { " (applied)" } else { "" });
        let mut list = |title: &str, items: &[String]| {
            if !items.is_empty() {
                out.push_str(&format!("{title}:\n"));
                for i in items {
                    out.push_str(&format!("  {i}\n"));
                }
            }
        };
        list("conflicts", &self.conflicts);
        list("warnings", &self.warnings);
        list("likely references, not changed", &self.likely);
        list("ambiguous", &self.ambiguous);
        list("problems after the edit", &self.problems);
        if let Some(c) = &self.compile_check {
            out.push_str(&c.render());
        }

        for f in &self.files {
            if !f.diff.contains("@@") {
                // Moved unchanged (a resource): no hunk says it.
                if let Some(to) = &f.moved_to {
                    out.push_str(&format!("moved {} -> {to}\n", f.file));
                }
                continue;
            }
            out.push_str(&f.diff);
            if !f.diff.ends_with('\n') {
                out.push('\n');
            }
        }
        if let Some(n) = self.next_offset {
            out.push_str(&format!(
                "[{} of {} files shown; the rest with offset={n}]\n",
                self.files.len(),
                self.total_files
            ));
        }
        out
    }
}

/// `refactor_actions`.
pub fn run(ws: &Host, args: &RefactorArgs) -> Result<EditResult, ToolError> {
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
        RefactorAction::Apply => return apply_previews(ws, args),
    };
    finish(ws, outcome, &args.finish())
}

/// `apply` with `editIds`: the previews' edits merged into one plan, written all or none.
pub(crate) fn apply_previews(ws: &Host, args: &RefactorArgs) -> Result<EditResult, ToolError> {
    if args.edit_ids.is_empty() {
        return Err(ToolError::InvalidArgument("action apply needs editIds: the previews to apply".into()));
    }
    let mut edit = WorkspaceEdit::default();
    let mut conflicts = Vec::new();
    for id in &args.edit_ids {
        let Some((e, c)) = ws.previews().get(id) else {
            return Err(ToolError::InvalidArgument(format!(
                "editId {id} is not a preview of this server (the last {} are kept); preview again",
                crate::host::MAX_PREVIEWS
            )));
        };
        if c > 0 {
            conflicts.push(format!("the preview {id} has {c} conflict(s)"));
        }
        edit.merge(e);
    }
    let summary = format!("apply {} previews together", args.edit_ids.len());
    let how = Finish { apply: true, edit_id: "", ..args.finish() };
    finish(ws, Outcome { edit, summary, conflicts, ..Outcome::default() }, &how)
}

/// What [`finish`] does with an outcome, as the editing tools' arguments say: preview it (the
/// file diffs from `offset` on), or apply it when `apply` (refused when `editId` is stale, or
/// on conflicts without `force`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Finish<'a> {
    pub apply: bool,
    pub edit_id: &'a str,
    pub force: bool,
    pub offset: u32,
}

impl RefactorArgs {
    fn finish(&self) -> Finish<'_> {
        Finish { apply: self.apply, edit_id: &self.edit_id, force: self.force, offset: self.offset }
    }
}

/// The answer of an action's outcome: filled from the edit's plan, kept for `apply`, and, when
/// asked, applied.
pub(crate) fn finish(ws: &Host, outcome: Outcome, args: &Finish) -> Result<EditResult, ToolError> {
    let Outcome { edit, summary, conflicts, warnings, likely, ambiguous } = outcome;
    let mut out = empty_result(summary, conflicts, warnings, likely);
    out.ambiguous = ambiguous;
    let kept = edit.clone();
    let plan = edit.plan()?;
    ws.previews().keep(&plan.edit_id, kept, out.conflicts.len());
    out.edit_id = plan.edit_id.clone();
    out.total_files = plan.files.len() as u32;
    let edits: usize = plan.files.iter().map(|f| f.edits).sum();
    out.summary = format!(
        "{} in {} file{}, {} edit{}{}",
        out.summary,
        plan.files.len(),
        if plan.files.len() == 1 { "" } else { "s" },
        edits,
        if edits == 1 { "" } else { "s" },
        if out.conflicts.is_empty() { String::new() } else { format!("; {} conflicts", out.conflicts.len()) }
    );
    out.files = plan
        .files
        .iter()
        .skip(args.offset as usize)
        .map(|f| FileDiff {
            file: f.display.clone(),
            moved_to: f.move_to.as_ref().map(|(_, d)| d.clone()),
            edits: f.edits as u32,
            diff: f.diff(),
        })
        .collect();
    if !args.apply {
        return Ok(out);
    }
    if !args.edit_id.is_empty() && args.edit_id != plan.edit_id {
        return Err(ToolError::InvalidArgument(format!(
            "stale preview: editId {} no longer matches the files (the edit computed now is {}); nothing was written. \
             Review the new preview and apply its editId",
            args.edit_id, plan.edit_id
        )));
    }
    if !out.conflicts.is_empty() && !args.force {
        return Err(ToolError::InvalidArgument(format!(
            "not applied: {} conflict{}: {}. Resolve them, choose another name, or pass force: true",
            out.conflicts.len(),
            if out.conflicts.len() == 1 { "" } else { "s" },
            out.conflicts.join("; ")
        )));
    }
    // javac before the write, to tell the errors the edit brings from those already there.
    let check = ws.config().compile_after_apply.then(|| crate::after_apply::Scope::of(ws, &plan)).flatten().map(|s| {
        let before = s.compile_before(ws);
        (s, before)
    });
    let roots: Vec<PathBuf> = ws.roots().paths().to_vec();
    let changed = plan.apply(&roots)?;
    // A package's old directories, once their files moved out, go too (only empty ones, up
    // to a root).
    plan.remove_emptied_dirs(&roots);
    ws.index().changed(&changed);
    out.applied = true;
    // The user's editor shows the new text (buffers without unsaved changes).
    let canonical: Vec<PathBuf> = changed.iter().filter_map(|p| std::fs::canonicalize(p).ok()).collect();
    let editor = match crate::editor::reload_files(ws, &canonical) {
        Some(Ok(r)) => {
            let reloaded = r.files.iter().filter(|f| f.status == "reloaded").count();
            let kept: Vec<&str> = r.files.iter().filter(|f| f.status == "modified").map(|f| f.file.as_str()).collect();
            Some(format!(
                "{}: {reloaded} buffer(s) reloaded{}",
                r.editor,
                if kept.is_empty() {
                    String::new()
                } else {
                    format!("; not reloaded, they have unsaved changes: {}", kept.join(", "))
                }
            ))
        }
        Some(Err(e)) => Some(format!("the editor's buffers were not reloaded: {e}")),
        None => None,
    };
    // Said with the warnings: the edit is written either way.
    out.warnings.extend(editor.map(|e| format!("editor: {e}")));
    for f in &plan.files {
        let path = f.move_to.as_ref().map_or(&f.path, |(p, _)| p);
        let display = ws.display_of(path);
        for p in mji_problems::syntax::check(&display, &f.new) {
            out.problems.push(format!("{}:{}:{}: {}", p.file, p.line, p.column, p.message));
        }
    }
    out.compile_check = check.map(|(s, before)| s.check_after(ws, before));
    Ok(out)
}

fn empty_result(summary: String, conflicts: Vec<String>, warnings: Vec<String>, likely: Vec<String>) -> EditResult {
    EditResult {
        summary,
        edit_id: String::new(),
        applied: false,
        total_files: 0,
        files: Vec::new(),
        conflicts,
        warnings,
        likely,
        ambiguous: Vec::new(),
        problems: Vec::new(),
        compile_check: None,
        truncated: false,
        next_offset: None,
    }
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
    // (A Kotlin file's line names its declaration: its locals are not renamed here.)
    let kotlin = args.file_path.trim().ends_with(".kt");
    if !args.file_path.trim().is_empty() && args.line > 0 && args.target.trim().is_empty() && !kotlin {
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
