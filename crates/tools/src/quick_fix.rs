//! Quick fixes: the fixes each `get_problems` diagnostic offers (`fixes: [{fixId, title}]`)
//! and `refactor_actions {action: "quick_fix", fixId}`, which previews and applies one. What
//! each diagnostic offers, the dispatch and the edits are [`mji_edit::fixes`]'; this maps
//! `get_problems`' problems and `refactor_actions`' arguments to it, and makes the
//! `hint.missing.override` hints (the world's overrides).

use std::collections::HashMap;

use mji_edit::Doc;
use mji_edit::ctx::Outcome;
use mji_edit::fixes::{self, FixId};
use mji_problems::{Fix, Problem};

use crate::ToolError;
use crate::host::Host;
use crate::tool::refactor_actions::RefactorArgs;

/// Fills each problem's `fixes` with what it offers.
pub(crate) fn attach(ws: &Host, problems: &mut [Problem]) {
    let diagnostics: Vec<fixes::Diagnostic> = problems
        .iter()
        .map(|p| fixes::Diagnostic {
            file: &p.file,
            code: &p.code,
            message: &p.message,
            line: p.line,
            column: p.column,
            range: ((p.range.start.line, p.range.start.column), (p.range.end.line, p.range.end.column)),
        })
        .collect();
    let offered = fixes::offered(ws, &diagnostics);
    for (p, offered) in problems.iter_mut().zip(offered) {
        p.fixes.extend(offered.into_iter().map(|f| Fix { fix_id: f.fix_id, title: f.title }));
    }
}

/// Diagnostic key of a method that overrides a visible supertype method without `@Override`.
pub(crate) const MISSING_OVERRIDE: &str = fixes::MISSING_OVERRIDE;

/// The `hint.missing.override` hints of `files` (canonical path, display): methods the world
/// says override a supertype's public or protected method, not marked `@Override`.
pub(crate) fn override_hints(ws: &Host, files: &[(std::path::PathBuf, String)]) -> Vec<Problem> {
    let mut out = Vec::new();
    if files.is_empty() {
        return out;
    }
    let (w, _) = ws.xref_world();
    let index: HashMap<&std::path::Path, usize> = w.files.iter().enumerate().map(|(i, f)| (&*f.path, i)).collect();
    for (path, display) in files {
        let Some(&fi) = index.get(path.as_path()) else { continue };
        let Ok(doc) = Doc::read(path, display) else { continue };
        let text = doc.text();
        let decls = w.files[fi].decls().clone();
        for (i, t) in decls.types.iter().enumerate() {
            let id = w.type_in_file(fi as u32, i as u32);
            for m in t.methods.iter().filter(|m| !m.marked_override && w.overrides_visible(id, m)) {
                // The name on its line, followed by `(`.
                let Some(ls) = doc.offset(m.line, 1) else { continue };
                let line = &text[ls..text[ls..].find('\n').map_or(text.len(), |e| ls + e)];
                let Some(col) = line.match_indices(&*m.name).find_map(|(c, _)| {
                    let before = line[..c].chars().next_back().is_none_or(|ch| !(ch.is_alphanumeric() || ch == '_'));
                    (before && line[c + m.name.len()..].trim_start().starts_with('(')).then_some(c)
                }) else {
                    continue;
                };
                let column = line[..col].encode_utf16().count() as u32 + 1;
                let end =
                    mji_problems::Position { line: m.line, column: column + m.name.encode_utf16().count() as u32 };
                out.push(Problem {
                    file: display.clone(),
                    line: m.line,
                    column,
                    severity: mji_problems::Severity::Hint,
                    source: mji_problems::ProblemSource::Syntax,
                    code: MISSING_OVERRIDE.to_owned(),
                    message: format!("`{}` overrides a supertype's method without @Override", m.name),
                    range: mji_problems::Range { start: mji_problems::Position { line: m.line, column }, end },
                    cause: None,
                    fixes: Vec::new(),
                });
            }
        }
    }
    out
}

/// `quick_fix`: the edit a fix id names, refused when its file changed since it was listed.
pub(crate) fn quick_fix(ws: &Host, args: &RefactorArgs) -> Result<Outcome, ToolError> {
    if args.fix_id.trim().is_empty() {
        return Err(ToolError::InvalidArgument("quick_fix needs fixId: one of get_problems' fixes".into()));
    }
    let id = FixId::parse(&args.fix_id).map_err(ToolError::InvalidArgument)?;
    let r = ws.resolve(&id.file)?;
    ws.check_file(&r.path, &r.display)?;
    crate::require_java(&r.path, &r.display)?;
    let doc = Doc::read(&r.path, &r.display)?;
    Ok(fixes::run(ws, &doc, &id)?)
}
