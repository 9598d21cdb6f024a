//! The structural refactoring of `refactor_actions` not yet in [`mji_edit::actions`]: inline. Each returns the edit and
//! the answer's summary; `finish` previews and applies it as every edit.

use std::path::Path;
use std::sync::Arc;

use mji_edit::delete::DeclKind;
use mji_edit::{Doc, WorkspaceEdit};
use mji_xref::{Category, Confidence, RefKind};

use mji_edit::ctx::Outcome;

use crate::ToolError;
use crate::edit::RefactorArgs;
use crate::host::Host;
use crate::xref::{self, TargetKind};

/// `inline`: the local variable at `filePath` + `line` (+ `column`), or the method or constant
/// named by `target` (or whose declaration or use is at the position when no local is there).
pub(crate) fn inline(ws: &Host, args: &RefactorArgs) -> Result<Outcome, ToolError> {
    let mut why = None;
    if args.target.trim().is_empty() {
        if args.file_path.trim().is_empty() || args.line == 0 {
            return Err(ToolError::InvalidArgument(
                "inline needs filePath + line (+ column) of a local variable, or target: a constant".into(),
            ));
        }
        let r = ws.resolve(&args.file_path)?;
        ws.check_file(&r.path, &r.display)?;
        crate::require_java(&r.path, &r.display)?;
        let doc = Doc::read(&r.path, &r.display)?;
        for at in identifier_starts(&doc, args.line, args.column) {
            match mji_edit::inline::inline_local(&doc, at) {
                Ok(i) => {
                    let summary = format!(
                        "inline local variable {}: {} use{}",
                        i.name,
                        i.uses,
                        if i.uses == 1 { "" } else { "s" }
                    );
                    let mut edit = WorkspaceEdit::default();
                    let mut f = doc.edit();
                    f.edits = i.edits;
                    edit.add(f);
                    return Ok(Outcome::new(edit, summary));
                }
                Err(e) if e.starts_with("no local") || e.contains("is not a local variable here") => {}
                Err(e) => {
                    why.get_or_insert(e);
                }
            }
        }
    }
    if let Some(e) = why {
        return Err(ToolError::InvalidArgument(format!("not inlined: {e}")));
    }
    if let Some(r) = crate::refactor_method::inline_method(ws, args) {
        return r;
    }
    inline_constant(ws, args)
}

/// The byte offsets to try on `line`: the column's, or each identifier's start.
fn identifier_starts(doc: &Doc, line: u32, column: u32) -> Vec<usize> {
    if column > 0 {
        return doc.offset(line, column).into_iter().collect();
    }
    let Some(start) = doc.offset(line, 1) else { return Vec::new() };
    let text = doc.src.lines.line_text(doc.text(), line);
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.char_indices()
        .filter(|(i, c)| is_ident(*c) && !c.is_ascii_digit() && !text[..*i].chars().last().is_some_and(is_ident))
        .map(|(i, _)| start + i)
        .collect()
}

fn inline_constant(ws: &Host, args: &RefactorArgs) -> Result<Outcome, ToolError> {
    let (w, files) = ws.xref_world();
    let target = args.target_in(ws, &w, Some(TargetKind::Field))?;
    let refuse = |why: String| Err(ToolError::InvalidArgument(format!("{} not inlined: {why}", target.label)));
    if target.category != Category::Field || target.keys.len() != 1 || target.decls.len() != 1 {
        return refuse("not a local variable or a constant of the workspace".into());
    }
    let name = xref::name_of_key(&target.keys[0]);
    let (path, line) = target.decls[0].clone();
    let doc = Doc::read(&path, &ws.display_of(&path))?;
    let (init, ty) = match mji_edit::inline::constant_decl(&doc, &name, line) {
        Ok(x) => x,
        Err(e) => return refuse(e),
    };
    let scope: Vec<Arc<Path>> = files.iter().map(|(p, _)| p.clone()).collect();
    let found = xref::search(ws.xref(), &w, &scope, &target);
    let mut conflicts = Vec::new();
    let incomplete = ws.incomplete(found.unbound);
    if !incomplete.is_empty() {
        conflicts.push(format!(
            "{} file(s) mention {name} but could not be bound fully, so uses there may be missed: {}",
            incomplete.len(),
            incomplete.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    let mut edit = WorkspaceEdit::default();
    let (mut uses, mut javadoc, mut likely) = (0, Vec::new(), Vec::new());
    let mut imports = Vec::new();
    for (p, refs) in found.hits {
        let d = Doc::read(&p, &ws.display_of(&p))?;
        let mut f = d.edit();
        for (r, _) in refs {
            let at = format!("{}:{}:{}", d.display, r.line, r.column);
            match r.kind {
                RefKind::Javadoc => javadoc.push(at),
                RefKind::Import => imports.push((p.clone(), r.line)),
                _ if r.confidence == Confidence::Likely => likely.push(at),
                _ => match d.offset(r.line, r.column).and_then(|o| mji_edit::inline::constant_use(&d, o, &init, &ty)) {
                    Some(e) => {
                        f.edits.push(e);
                        uses += 1;
                    }
                    None => return refuse(format!("the use at {at} could not be read")),
                },
            }
        }
        edit.add(f);
    }
    if !likely.is_empty() {
        return refuse(format!("uses the binder is not sure of: {}", likely.join(", ")));
    }
    let mut warnings = Vec::new();
    if javadoc.is_empty() {
        let removal =
            mji_edit::delete::declaration(&doc, DeclKind::Field, &name, line).map_err(ToolError::InvalidArgument)?;
        let mut f = doc.edit();
        f.edits.push(mji_edit::TextEdit { start: removal.start, end: removal.end, text: String::new() });
        edit.add(f);
        for (p, line) in &imports {
            let d = Doc::read(p, &ws.display_of(p))?;
            if let Some(e) = mji_edit::delete::import_line(&d, *line) {
                let mut f = d.edit();
                f.edits.push(e);
                edit.add(f);
            }
        }
    } else {
        warnings.push(format!("the declaration stays: javadoc links to it at {}", javadoc.join(", ")));
    }
    let summary = format!("inline constant {} = {init}: {uses} use{}", target.label, if uses == 1 { "" } else { "s" });
    Ok(Outcome { edit, summary, conflicts, warnings, ..Outcome::default() })
}
