//! The structural refactorings of `refactor_actions` not yet in [`mji_edit::actions`]: inline
//! and extract. Each returns the edit and
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

/// `extract_variable` / `extract_constant`: the expression at the range (or the text on the
/// line) to a local before its statement, or a `static final` field of its class, typed as the
/// binder types it (`var` where the file shows its language level allows it).
pub(crate) fn extract(ws: &Host, args: &RefactorArgs, constant: bool) -> Result<Outcome, ToolError> {
    let what = if constant { "extract_constant" } else { "extract_variable" };
    if args.file_path.trim().is_empty() || args.line == 0 {
        return Err(ToolError::InvalidArgument(format!(
            "{what} needs filePath and the expression: startLine/startColumn to endLine/endColumn, or line + text"
        )));
    }
    let r = ws.resolve(&args.file_path)?;
    ws.check_file(&r.path, &r.display)?;
    crate::require_java(&r.path, &r.display)?;
    let doc = Doc::read(&r.path, &r.display)?;
    let bad = |why: String| ToolError::InvalidArgument(format!("not extracted: {why}"));
    let (start, end) = if args.end_line > 0 {
        match (doc.offset(args.line, args.column.max(1)), doc.offset(args.end_line, args.end_column.max(1))) {
            (Some(s), Some(e)) if s < e => (s, e),
            _ => return Err(bad("the range is not inside the file, or ends before it starts".into())),
        }
    } else if !args.target.trim().is_empty() {
        mji_edit::extract::find_on_line(&doc, args.line, &args.target)
            .ok_or_else(|| bad(format!("`{}` is not on line {}", args.target.trim(), args.line)))?
    } else {
        return Err(bad("give endLine/endColumn, or the expression's text".into()));
    };
    let (start, end) = mji_edit::extract::expression_at(&doc, start, end).map_err(bad)?;
    let name = if !args.new_name.trim().is_empty() {
        args.new_name.trim().to_owned()
    } else if constant {
        "VALUE".to_owned()
    } else {
        mji_edit::extract::suggested_name(&doc, start, end)
    };
    if !mji_edit::is_identifier(&name) {
        return Err(bad(format!("`{name}` is not a Java identifier")));
    }
    let (w, _) = ws.xref_world();
    let mut imports = Vec::new();
    let ty = w.files.iter().position(|f| *f.path == *r.path).and_then(|fi| {
        let line = doc.line_of(start);
        let decls = &w.files[fi].decls().types;
        let ti = decls.iter().enumerate().rev().find(|(_, t)| t.start_line <= line && line <= t.end_line)?.0;
        let id = w.type_in_file(fi as u32, ti as u32);
        let t = mji_xref::resolve::expr_type(&w, fi as u32, &doc.bytes, start, end)?;
        mji_edit::imports::type_text(&w, id, &t, &doc, &mut imports)
    });
    let type_text = match ty {
        // A parameterized type is `var` where the file allows it: javac infers it exactly, where
        // the binder reads a wildcard `? extends X` argument as X (`List<? extends Number>` is
        // no `List<Number>`).
        Some(t) if t.contains('<') && !constant && mji_edit::extract::uses_var(&doc) => {
            imports.clear();
            "var".to_owned()
        }
        Some(t) => t,
        None if !constant && mji_edit::extract::uses_var(&doc) => {
            imports.clear();
            "var".to_owned()
        }
        None => {
            return Err(bad(
                "the binder could not type the expression, and `var` needs Java 10 (this file declares no `var`, so its language level is not known to allow it)"
                    .into(),
            ));
        }
    };
    // Without a newName: a call named like an accessor of nothing (`get`, `apply`) is named by
    // its type (`Calendar` -> `calendar`), and a taken name gets a number.
    let chosen = args.new_name.trim().is_empty();
    let mut name = name;
    if chosen && !constant && (name == "value" || name.len() <= 3 || name == "apply") {
        let simple = type_text.split(['<', '[']).next().unwrap_or("").rsplit('.').next().unwrap_or("");
        let mut c = simple.chars();
        let by_type = c.next().map(|f| f.to_lowercase().collect::<String>() + c.as_str()).unwrap_or_default();
        if simple.starts_with(char::is_uppercase) && mji_edit::is_identifier(&by_type) {
            name = by_type;
        }
    }
    let mut attempt = 1;
    let edits = loop {
        let candidate = if attempt == 1 { name.clone() } else { format!("{name}{attempt}") };
        let r = if constant {
            mji_edit::extract::extract_constant(&doc, start, end, &candidate, &type_text, args.replace_all)
        } else {
            mji_edit::extract::extract_variable(&doc, start, end, &candidate, &type_text, args.replace_all)
        };
        match r {
            Err(e) if chosen && attempt < 20 && e.contains("already names") => attempt += 1,
            r => {
                name = candidate;
                break r.map_err(bad)?;
            }
        }
    };
    let n = edits.len() - 1;
    let summary = format!(
        "{} {type_text} {name} = {}: {n} occurrence{}",
        what.replace('_', " "),
        &doc.text()[start..end],
        if n == 1 { "" } else { "s" }
    );
    let mut edit = WorkspaceEdit::default();
    let mut f = doc.edit();
    f.edits = edits;
    imports.dedup_by(|a, b| a.text == b.text);
    f.edits.extend(imports);
    edit.add(f);
    Ok(Outcome::new(edit, summary))
}
