//! The structural refactorings of `refactor_actions` beyond rename: safe delete (the
//! reference index says whether a declaration has uses; [`mji_edit::delete`] removes it),
//! inline and extract. Each returns the edit and
//! the answer's summary; `finish` previews and applies it as every edit.

use std::path::Path;
use std::sync::Arc;

use mji_edit::delete::DeclKind;
use mji_edit::{Doc, WorkspaceEdit};
use mji_xref::{Category, Confidence, RefKind};

use crate::ToolError;
use crate::edit::{EditResult, RefactorArgs, empty_result};
use crate::host::Host;
use crate::xref::{self, TargetKind};

/// The most uses a refusal lists.
const MAX_USES: usize = 20;

/// `safe_delete`: a type, method or field with no uses is removed with its javadoc (the
/// imports of a deleted type too); with uses, refused listing them.
pub(crate) fn safe_delete(ws: &Host, args: &RefactorArgs) -> Result<(WorkspaceEdit, EditResult), ToolError> {
    let (w, files) = ws.xref_world();
    let target = args.target_in(ws, &w, (!args.target.contains('(')).then_some(TargetKind::Field))?;
    let refuse = |why: String| Err(ToolError::InvalidArgument(format!("{} not deleted: {why}", target.label)));
    let kind = match target.category {
        Category::Type => DeclKind::Type,
        Category::Method => DeclKind::Method,
        Category::Field => DeclKind::Field,
        Category::Ctor => return refuse("constructors are not deleted (delete the type, or edit it)".into()),
    };
    if target.keys.len() != 1 || target.decls.len() != 1 {
        return refuse(format!("it names {} declarations; name one", target.decls.len().max(target.keys.len())));
    }
    // A method in an override family: code may reach it through another member of it.
    if kind == DeclKind::Method {
        match mji_xref::rename::rename_family(&w, &target) {
            Ok(f) if f.decls.len() > 1 => {
                return refuse(format!(
                    "it overrides or is overridden by {} other method(s) in the workspace; calls may reach it through them",
                    f.decls.len() - 1
                ));
            }
            Ok(_) => {}
            Err(_) => {
                return refuse(
                    "it overrides a method outside the workspace (a JDK or library method), which code may call".into(),
                );
            }
        }
    }
    let key = &target.keys[0];
    let name = match kind {
        DeclKind::Type => key.rsplit(['.', '$']).next().unwrap_or(key).to_owned(),
        _ => xref::name_of_key(key),
    };
    let (path, line) = target.decls[0].clone();
    let display = ws.display_of(&path);
    let doc = Doc::read(&path, &display)?;
    // What the JVM or a framework calls by name has no uses in code and is not unused.
    let serializable =
        key.split_once('#').and_then(|(owner, _)| w.by_fqn(owner)).is_none_or(|id| w.may_be_serializable(id));
    if let Some(why) = mji_edit::delete::called_by_name(&doc, kind, &name, line, serializable) {
        return refuse(why);
    }
    // JUnit 3 runs a TestCase's `test…` methods by their names.
    if kind == DeclKind::Method
        && name.starts_with("test")
        && let Some(id) = key.split_once('#').and_then(|(owner, _)| w.by_fqn(owner))
        && w.supertype_names(id).iter().any(|s| s == "junit.framework.TestCase")
    {
        return refuse(format!("{name} is a JUnit 3 test of a TestCase: the runner calls it by its name"));
    }
    let removal = mji_edit::delete::declaration(&doc, kind, &name, line).map_err(ToolError::InvalidArgument)?;

    // Uses: type uses and constructor calls of a type; outside the declaration itself.
    let scope: Vec<Arc<Path>> = files.iter().map(|(p, _)| p.clone()).collect();
    let mut searches = vec![target.clone()];
    if kind == DeclKind::Type {
        let family = mji_xref::rename::rename_family(&w, &target).map_err(ToolError::InvalidArgument)?;
        let mut ctors = family.target.clone();
        ctors.category = Category::Ctor;
        ctors.keys.retain(|k| k.contains('#'));
        searches[0] = family.target;
        searches[0].keys.retain(|k| !k.contains('#'));
        if !ctors.keys.is_empty() {
            searches.push(ctors);
        }
    }
    let mut uses = Vec::new();
    let mut javadoc = Vec::new();
    let mut imports: Vec<(Arc<Path>, u32)> = Vec::new();
    let mut unbound = Vec::new();
    for t in &searches {
        let found = xref::search(ws.xref(), &w, &scope, t);
        unbound.extend(found.unbound);
        for (p, refs) in found.hits {
            for (r, _) in refs {
                // Its own code and javadoc go with it.
                if *p == *path && doc.offset(r.line, r.column).is_some_and(|o| removal.start <= o && o < removal.end) {
                    continue;
                }
                let at = format!("{}:{}:{}", ws.display_of(&p), r.line, r.column);
                match r.kind {
                    RefKind::Javadoc => javadoc.push(at),
                    RefKind::Import if r.confidence == Confidence::Exact => imports.push((p.clone(), r.line)),
                    _ => uses.push(at),
                }
            }
        }
    }
    if !uses.is_empty() {
        let n = uses.len();
        uses.truncate(MAX_USES);
        return refuse(format!(
            "it has {n} use{}: {}{}",
            if n == 1 { "" } else { "s" },
            uses.join(", "),
            if n > MAX_USES { ", …" } else { "" }
        ));
    }
    // A name in a view or configuration file (Spring XML, properties, JSP…) may be a use by
    // reflection: a type's qualified name is one, so it is refused; a member's name may be
    // any word, so it is said.
    let text_uses = xref::non_java_matches(ws, &target, &[]);
    let text_at: Vec<String> =
        text_uses.matches.iter().take(MAX_USES).map(|m| format!("{}:{}", m.file, m.line)).collect();
    if text_uses.total > 0 && kind == DeclKind::Type {
        return refuse(format!(
            "its qualified name is in {} line(s) of view or configuration files, which may create it by reflection: {}",
            text_uses.total,
            text_at.join(", ")
        ));
    }
    let mut conflicts = Vec::new();
    let incomplete = ws.incomplete(unbound);
    if !incomplete.is_empty() {
        conflicts.push(format!(
            "{} file(s) mention {name} but could not be bound fully, so uses there may be missed: {}",
            incomplete.len(),
            incomplete.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    let mut edit = WorkspaceEdit::default();
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
    let mut warnings = Vec::new();
    if !javadoc.is_empty() {
        warnings.push(format!("javadoc still names it (javac does not check it): {}", javadoc.join(", ")));
    }
    if text_uses.total > 0 {
        warnings.push(format!(
            "its name is in {} line(s) of view or configuration files, which may call it by reflection (not checked): {}",
            text_uses.total,
            text_at.join(", ")
        ));
    }
    let summary = format!(
        "safe delete {} ({}): no uses{}",
        target.label,
        xref::kind_name(target.category),
        if imports.is_empty() { String::new() } else { format!(", {} import(s) removed", imports.len()) }
    );
    Ok((edit, empty_result(summary, conflicts, warnings, Vec::new())))
}

/// `inline`: the local variable at `filePath` + `line` (+ `column`), or the method or constant
/// named by `target` (or whose declaration or use is at the position when no local is there).
pub(crate) fn inline(ws: &Host, args: &RefactorArgs) -> Result<(WorkspaceEdit, EditResult), ToolError> {
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
                    return Ok((edit, empty_result(summary, Vec::new(), Vec::new(), Vec::new())));
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

fn inline_constant(ws: &Host, args: &RefactorArgs) -> Result<(WorkspaceEdit, EditResult), ToolError> {
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
    Ok((edit, empty_result(summary, conflicts, warnings, Vec::new())))
}

/// `extract_variable` / `extract_constant`: the expression at the range (or the text on the
/// line) to a local before its statement, or a `static final` field of its class, typed as the
/// binder types it (`var` where the file shows its language level allows it).
pub(crate) fn extract(
    ws: &Host,
    args: &RefactorArgs,
    constant: bool,
) -> Result<(WorkspaceEdit, EditResult), ToolError> {
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
        type_text(&w, id, &t, &doc, &mut imports)
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
    Ok((edit, empty_result(summary, Vec::new(), Vec::new(), Vec::new())))
}

/// A type as the code inside type `id` can write it: simple names where they mean the type
/// (imported when they need it and can be), else qualified; `None` for what has no spelling
/// there (`null`'s type, a method's type variable, a local or anonymous class).
pub(crate) fn type_text(
    w: &mji_xref::world::World,
    id: mji_xref::world::TypeId,
    t: &mji_xref::ty::Ty,
    doc: &Doc,
    imports: &mut Vec<mji_edit::TextEdit>,
) -> Option<String> {
    use mji_xref::ty::Ty;
    match t {
        Ty::Prim(p) => Some(p.to_string()),
        Ty::Null => None,
        Ty::Array(e) => Some(format!("{}[]", type_text(w, id, e, doc, imports)?)),
        // A value of a `? extends X` type is an X (its capture's bound); as a type argument it is
        // refused below.
        Ty::Var(name, bound) if &**name == mji_xref::ty::WILDCARD => type_text(w, id, bound, doc, imports),
        Ty::Var(name, _) => w.decl(id).tparams.iter().any(|p| *p.name == **name).then(|| name.to_string()),
        Ty::Class(fqn, args) => {
            if fqn.contains('$') || !fqn.split('.').all(mji_edit::is_identifier) {
                return None;
            }
            let simple = fqn.rsplit('.').next().unwrap_or(fqn);
            let pkg_top = fqn.rsplit('.').nth(1).is_none_or(|q| q.starts_with(char::is_lowercase));
            let mut out = if w.qualify_in(id, simple).as_deref() == Some(&**fqn) {
                simple.to_owned()
            } else if pkg_top && let Ok(Some(e)) = mji_edit::imports::ensure_import_sorted(doc, fqn) {
                imports.push(e);
                simple.to_owned()
            } else {
                fqn.to_string()
            };
            // The binder reads a wildcard argument `?` and `? super X` as `Object`: `List<?>`
            // spelled `List<Object>` would not compile, so an `Object` argument is not spelled.
            if args.iter().any(|a| {
                matches!(a, Ty::Class(f, _) if &**f == "java.lang.Object")
                    || matches!(a, Ty::Var(n, _) if &**n == mji_xref::ty::WILDCARD)
            }) {
                return None;
            }
            if !args.is_empty() {
                let a: Option<Vec<String>> = args.iter().map(|a| type_text(w, id, a, doc, imports)).collect();
                out.push_str(&format!("<{}>", a?.join(", ")));
            }
            Some(out)
        }
    }
}
