//! Quick fixes: the fixes each `get_problems` diagnostic offers (`fixes: [{fixId, title}]`)
//! and `refactor_actions {action: "quick_fix", fixId}`, which previews and applies one. The
//! fixes themselves are [`mji_edit::fixes`]', [`mji_edit::imports`]' and
//! [`mji_edit::inherit`]'s; this glue finds the candidates (the world's types of a name) and
//! checks a fix id against the file it names.

use std::collections::HashMap;

use mji_edit::fixes::{self, FixId, Offer};
use mji_edit::{Doc, WorkspaceEdit};
use mji_problems::{Fix, Problem};

use mji_edit::ctx::Outcome;

use crate::ToolError;
use crate::edit::RefactorArgs;
use crate::host::Host;

/// Fills each problem's `fixes` with what it offers (files read once; the world only when an
/// import is offered).
pub(crate) fn attach(ws: &Host, problems: &mut [Problem]) {
    let mut docs: HashMap<String, Option<Doc>> = HashMap::new();
    let mut world = None;
    for p in problems.iter_mut() {
        let Some(offer) = fixes::offer(&p.code, &p.message) else { continue };
        let doc = docs.entry(p.file.clone()).or_insert_with(|| {
            let r = ws.resolve(&p.file).ok()?;
            Doc::read(&r.path, &p.file).ok()
        });
        let Some(doc) = doc.as_ref() else { continue };
        let Some(at) = doc.offset(p.line, p.column) else { continue };
        let id = |kind: &str, arg: &str| FixId::new(&p.file, p.line, p.column, kind, arg, &doc.bytes).encode();
        let simple = |q: &str| q.rsplit('.').next().unwrap_or(q).to_owned();
        match offer {
            Offer::Import(name) => {
                let w = world.get_or_insert_with(|| ws.xref_world().0);
                for c in mji_edit::imports::candidates(w, &name) {
                    if matches!(mji_edit::imports::ensure_import(doc, &c), Ok(Some(_))) {
                        p.fixes.push(Fix { fix_id: id("import", &c), title: format!("import {c}") });
                    }
                }
                if let Ok(c) = mji_edit::fixes::create_class::new_class(ws, w, doc, at, &name) {
                    p.fixes.push(Fix {
                        fix_id: id("class", &name),
                        title: format!("create class {name} in {}", c.display()),
                    });
                }
            }
            Offer::Exception(x) => {
                if fixes::add_throws(doc, at, &x).is_ok() {
                    p.fixes.push(Fix { fix_id: id("throws", &x), title: format!("add throws {}", simple(&x)) });
                }
                if fixes::surround_with_try(doc, at, &x).is_ok() {
                    p.fixes
                        .push(Fix { fix_id: id("try", &x), title: format!("surround with try/catch {}", simple(&x)) });
                }
            }
            Offer::AddOverride => {
                if fixes::add_override(doc, at).is_ok() {
                    p.fixes.push(Fix { fix_id: id("override", ""), title: "add @Override".into() });
                }
            }
            Offer::RemoveImport => {
                if fixes::remove_import(doc, at).is_ok() {
                    p.fixes.push(Fix { fix_id: id("unimport", ""), title: "remove the unused import".into() });
                }
            }
            Offer::RemoveLocal => {
                let name = p.message.split('`').nth(1).unwrap_or_default().to_owned();
                if fixes::remove_local(doc, at).is_ok() {
                    p.fixes.push(Fix {
                        fix_id: id("unlocal", &name),
                        title: format!("remove the unused variable {name}"),
                    });
                }
            }
            Offer::Cast(ty) => {
                // At the expression javac's range spans (its position may be an operator's).
                let (s, e) = (p.range.start, p.range.end);
                let (Some(from), Some(to)) = (doc.offset(s.line, s.column), doc.offset(e.line, e.column)) else {
                    continue;
                };
                if fixes::expression_at(doc, from) == Some((from, to)) && fixes::add_cast(doc, from, &ty).is_ok() {
                    let fix_id = FixId::new(&p.file, s.line, s.column, "cast", &ty, &doc.bytes).encode();
                    p.fixes.push(Fix { fix_id, title: format!("cast to {}", simple(&ty)) });
                }
            }
            Offer::CreateMethod(name, args) => {
                if fixes::create_method(doc, at, &name, &args).is_ok() {
                    let sig = format!("{name}({})", args.join(","));
                    p.fixes.push(Fix { fix_id: id("method", &sig), title: format!("create method {sig}") });
                }
            }
            Offer::CreateVariable(name) => {
                if fixes::create_field(doc, at, &name).is_ok() {
                    p.fixes.push(Fix { fix_id: id("field", &name), title: format!("create field {name}") });
                }
                if fixes::create_local(doc, at, &name).is_ok() {
                    p.fixes.push(Fix { fix_id: id("local", &name), title: format!("create local variable {name}") });
                }
            }
            Offer::Implement(name) => {
                let outline = mji_parser::outline(&doc.display, &doc.bytes);
                if type_named(&outline.classes, &name, p.line).is_some() {
                    p.fixes.push(Fix {
                        fix_id: id("implement", &name),
                        title: format!("implement the abstract methods of {name}"),
                    });
                }
            }
        }
    }
}

/// Diagnostic key of a method that overrides a visible supertype method without `@Override`.
pub(crate) const MISSING_OVERRIDE: &str = "hint.missing.override";

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

/// The type named `simple` whose lines hold `line`, the innermost first.
fn type_named<'a>(types: &'a [mji_model::TypeDecl], simple: &str, line: u32) -> Option<&'a mji_model::TypeDecl> {
    types.iter().filter(|t| t.start_line <= line && line <= t.end_line).find_map(|t| {
        type_named(&t.inner_classes, simple, line)
            .or((t.qualified_name.rsplit(['.', '$']).next() == Some(simple)).then_some(t))
    })
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
    if id.is_stale(&doc.bytes) {
        return Err(ToolError::InvalidArgument(format!(
            "stale fixId: {} changed since get_problems listed this fix; nothing was written. Call get_problems again for the current fixes",
            id.file
        )));
    }
    let at = doc.offset(id.line, id.column).ok_or_else(|| {
        ToolError::InvalidArgument(format!("fixId names {}:{}:{}, not in the file", id.file, id.line, id.column))
    })?;
    let refused = |why: String| ToolError::InvalidArgument(format!("fix {} refused: {why}", id.kind));
    if id.kind == "class" {
        return Ok(mji_edit::fixes::create_class::create(ws, &doc, at, &id.arg)?);
    }
    let (edits, summary) = match id.kind.as_str() {
        "import" => match mji_edit::imports::ensure_import_sorted(&doc, &id.arg) {
            Ok(Some(e)) => (vec![e], format!("import {} in {}", id.arg, r.display)),
            Ok(None) => return Err(refused(format!("{} is usable in {} already", id.arg, r.display))),
            Err(()) => return Err(refused(format!("another type named like {} is imported", id.arg))),
        },
        "throws" => (fixes::add_throws(&doc, at, &id.arg).map_err(refused)?, format!("add throws {}", id.arg)),
        "try" => (
            fixes::surround_with_try(&doc, at, &id.arg).map_err(refused)?,
            format!("surround with try/catch {}", id.arg),
        ),
        "unimport" | "unlocal" => {
            // Only what the file's hints still call unused.
            let code = if id.kind == "unimport" {
                mji_problems::hints::UNUSED_IMPORT
            } else {
                mji_problems::hints::UNUSED_LOCAL
            };
            let hinted = mji_problems::syntax::check(&r.display, &doc.bytes)
                .iter()
                .any(|p| p.code == code && (p.line, p.column) == (id.line, id.column));
            if !hinted {
                return Err(refused(format!("nothing unused at {}:{}", id.line, id.column)));
            }
            if id.kind == "unimport" {
                (fixes::remove_import(&doc, at).map_err(refused)?, format!("remove an unused import of {}", r.display))
            } else {
                (fixes::remove_local(&doc, at).map_err(refused)?, format!("remove the unused variable {}", id.arg))
            }
        }
        "override" => {
            let hinted = override_hints(ws, &[(r.path.clone(), r.display.clone())])
                .iter()
                .any(|p| (p.line, p.column) == (id.line, id.column));
            if !hinted {
                return Err(refused(format!("no method overriding a supertype's at {}:{}", id.line, id.column)));
            }
            (fixes::add_override(&doc, at).map_err(refused)?, "add @Override".to_owned())
        }
        "cast" => (fixes::add_cast(&doc, at, &id.arg).map_err(refused)?, format!("cast to {}", id.arg)),
        "method" => {
            let bad = || refused(format!("`{}` is not a method signature", id.arg));
            let (name, args) = id.arg.strip_suffix(')').and_then(|a| a.split_once('(')).ok_or_else(bad)?;
            let args = fixes::split_types(args);
            (fixes::create_method(&doc, at, name, &args).map_err(refused)?, format!("create method {}", id.arg))
        }
        "field" => (fixes::create_field(&doc, at, &id.arg).map_err(refused)?, format!("create field {}", id.arg)),
        "local" => {
            (fixes::create_local(&doc, at, &id.arg).map_err(refused)?, format!("create local variable {}", id.arg))
        }
        _ => {
            let outline = mji_parser::outline(&r.display, &doc.bytes);
            let ty = type_named(&outline.classes, &id.arg, id.line)
                .ok_or_else(|| refused(format!("no class {} at line {}", id.arg, id.line)))?;
            let opts = mji_edit::generate::Options::default();
            let g = mji_edit::actions::generate::inherited(
                ws,
                &doc,
                ty,
                mji_edit::generate::Action::ImplementMethods,
                &opts,
            )?;
            if g.members.is_empty() {
                return Err(refused(format!("{} has no abstract method left to implement", id.arg)));
            }
            (g.edits, format!("implement {} in {}", g.members.join(", "), ty.qualified_name))
        }
    };
    let mut edit = WorkspaceEdit::default();
    let mut f = doc.edit();
    f.edits = edits;
    edit.add(f);
    Ok(Outcome::new(edit, summary))
}
