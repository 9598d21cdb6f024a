//! `textDocument/codeAction` and `codeAction/resolve`: the quick fixes `get_problems` attaches to
//! the problems in the range (each with the client's diagnostics it fixes), and the refactorings
//! of `refactor_actions` and `source_actions` that apply where the cursor is (extract, inline,
//! safe delete, convert, organize imports, generate; change signature's parameter removals and
//! moves on a declaration, a type's move to a nearby package, a static member's to a class
//! beside it). An action carries its tool call in `data`;
//! resolving it previews that call and sends the planned edit as a `WorkspaceEdit` (a client
//! without resolve support gets every edit at once). Nothing is written here: the client applies
//! the edit. A buffer with unsaved changes is offered nothing (the edits are planned on the saved
//! file).

use lsp_server::ErrorCode;
use lsp_types as lsp;
use serde_json::{Value, json};

use crate::{Reply, Server, docs, uri};

/// One action before it is resolved: its title, kind, the diagnostics it fixes and its call.
struct Offer {
    title: String,
    kind: lsp::CodeActionKind,
    diagnostics: Vec<lsp::Diagnostic>,
    tool: &'static str,
    args: Value,
    preferred: bool,
}

/// What `source_actions` generates, as offered: the action, the title and the kind's tail.
const GENERATE: &[(&str, &str, &str)] = &[
    ("getters_setters", "Generate getters and setters", "gettersSetters"),
    ("constructor", "Generate constructor", "constructor"),
    ("to_string", "Generate toString()", "toString"),
    ("equals_hash_code", "Generate equals() and hashCode()", "equalsHashCode"),
];

fn wanted(only: &Option<Vec<lsp::CodeActionKind>>, kind: &lsp::CodeActionKind) -> bool {
    only.as_ref().is_none_or(|only| {
        only.iter().any(|o| kind.as_str() == o.as_str() || kind.as_str().starts_with(&format!("{}.", o.as_str())))
    })
}

pub(crate) fn code_actions(s: &mut Server, p: lsp::CodeActionParams, resolves: bool) -> Reply {
    let u = p.text_document.uri.as_str();
    let Some(path) = uri::to_path(u) else { return Ok(json!([])) };
    let Ok(r) = s.host.resolve(&path.to_string_lossy()) else { return Ok(json!([])) };
    if !s.line_map(&r.path).is_clean() {
        tracing::debug!(uri = u, "code actions: the buffer has unsaved changes, nothing offered until it is saved");
        return Ok(json!([]));
    }
    let Some(text) = s.saved_text(&r.path) else { return Ok(json!([])) };
    let file = r.path.to_string_lossy().into_owned();
    let only = &p.context.only;
    let range = p.range;
    let mut offers: Vec<Offer> = Vec::new();

    if wanted(only, &lsp::CodeActionKind::QUICKFIX) {
        offers.extend(quick_fixes(s, &file, range, &p.context.diagnostics));
    }
    let (line, column) = (range.start.line + 1, range.start.character + 1);
    let at = |action: &str| json!({"action": action, "filePath": file, "line": line, "column": column});
    let mut refactor = |kind: lsp::CodeActionKind, title: String, tool: &'static str, args: Value| {
        if wanted(only, &kind) {
            offers.push(Offer { title, kind, diagnostics: Vec::new(), tool, args, preferred: false });
        }
    };
    if range.start != range.end {
        let (end_line, end_column) = (range.end.line + 1, range.end.character + 1);
        let span = |action: &str| {
            json!({"action": action, "filePath": file, "line": line, "column": column,
                "endLine": end_line, "endColumn": end_column})
        };
        let extract = lsp::CodeActionKind::REFACTOR_EXTRACT;
        if range.start.line == range.end.line {
            refactor(extract.clone(), "Extract to local variable".into(), "refactor_actions", span("extract_variable"));
            refactor(extract.clone(), "Extract to constant".into(), "refactor_actions", span("extract_constant"));
        }
        refactor(extract, "Extract to method".into(), "refactor_actions", span("extract_method"));
    }
    if let Some((word, w)) = docs::word_at(&text, range.start) {
        let named = json!({"action": "", "filePath": file, "line": line, "column": w.start.character + 1});
        let with = |action: &str| {
            let mut a = named.clone();
            a["action"] = json!(action);
            a
        };
        refactor(lsp::CodeActionKind::REFACTOR_INLINE, format!("Inline `{word}`"), "refactor_actions", with("inline"));
        refactor(
            lsp::CodeActionKind::REFACTOR,
            format!("Safe delete `{word}`"),
            "refactor_actions",
            with("safe_delete"),
        );
    }
    if wanted(only, &lsp::CodeActionKind::REFACTOR_REWRITE) || wanted(only, &lsp::CodeActionKind::REFACTOR) {
        match crate::nav::outline(s, &r.path) {
            Ok((outline, _)) => {
                for (kind, title, args) in declaration_offers(&outline, &text, &file, &r.path, range.start) {
                    refactor(kind, title, "refactor_actions", args);
                }
            }
            Err(e) => tracing::debug!("no change signature or move: {e}"),
        }
    }
    let line_text = docs::line_text(&text, line);
    if line_text.trim_start().starts_with("for") && line_text.contains(';') {
        let kind = lsp::CodeActionKind::REFACTOR_REWRITE;
        refactor(kind, "Convert to enhanced for".into(), "refactor_actions", at("convert"));
    }
    refactor(
        lsp::CodeActionKind::SOURCE_ORGANIZE_IMPORTS,
        "Organize imports".into(),
        "refactor_actions",
        json!({"action": "organize_imports", "filePath": file}),
    );
    for (action, title, kind) in GENERATE {
        let kind = lsp::CodeActionKind::from(format!("source.generate.{kind}"));
        refactor(
            kind,
            (*title).to_owned(),
            "source_actions",
            json!({"action": action, "filePath": file, "line": line}),
        );
    }

    let mut out: Vec<lsp::CodeAction> = Vec::new();
    for o in offers {
        let mut action = lsp::CodeAction {
            title: o.title,
            kind: Some(o.kind),
            diagnostics: (!o.diagnostics.is_empty()).then_some(o.diagnostics),
            is_preferred: o.preferred.then_some(true),
            data: Some(json!({"tool": o.tool, "args": o.args})),
            ..Default::default()
        };
        if !resolves {
            // A client that cannot resolve gets the edit now; an action the engine refuses
            // here is not offered.
            match edit_of(s, &action) {
                Ok(edit) => action.edit = Some(edit),
                Err((_, e)) => {
                    tracing::debug!(title = action.title, "not offered: {e}");
                    continue;
                }
            }
        }
        out.push(action);
    }
    Ok(serde_json::to_value(out).unwrap_or(Value::Null))
}

/// The most packages a type's name is offered a move to.
pub(crate) const MAX_MOVE_DESTINATIONS: usize = 5;

/// A callable of the outline: its name and parameters' names, and its lines.
struct Callable<'a> {
    name: &'a str,
    params: Vec<&'a str>,
    lines: (u32, u32),
    /// A static method (which `move` takes to another class).
    is_static: bool,
}

fn callables<'a>(t: &'a mji_model::TypeDecl, out: &mut Vec<Callable<'a>>) {
    let names = |ps: &'a [mji_model::Param]| ps.iter().map(|p| p.name.as_str()).collect();
    for c in &t.constructors {
        out.push(Callable {
            name: &c.name,
            params: names(&c.params),
            lines: (c.start_line, c.end_line),
            is_static: false,
        });
    }
    for m in &t.methods {
        let is_static = m.modifiers.iter().any(|m| m == "static");
        out.push(Callable { name: &m.name, params: names(&m.params), lines: (m.start_line, m.end_line), is_static });
    }
    for i in &t.inner_classes {
        callables(i, out);
    }
}

/// The end of the parameter list that opens after `from` (0-based line and UTF-16 column of
/// the name's end): the position of its closing `)` (nested parentheses of annotations
/// counted), or None.
fn params_end(text: &str, from: lsp::Position) -> Option<lsp::Position> {
    let mut depth = 0u32;
    for (n, line) in text.split('\n').enumerate().skip(from.line as usize) {
        let mut col = 0u32;
        for ch in line.chars() {
            let here = col;
            col += ch.len_utf16() as u32;
            if n == from.line as usize && here < from.character {
                continue;
            }
            match ch {
                '(' => depth += 1,
                ')' if depth <= 1 => return Some(lsp::Position { line: n as u32, character: here }),
                ')' => depth -= 1,
                '{' | ';' if depth == 0 => return None,
                _ => {}
            }
        }
    }
    None
}

/// The change signature and move offers of the declaration at `at`: on a method's or
/// constructor's name or parameter list, each parameter's removal and its move one place
/// left or right (the whole new list, `from` the old index); on a top-level type's name, its
/// move to the parent package and the sibling packages of its source root (at most
/// [`MAX_MOVE_DESTINATIONS`]).
fn declaration_offers(
    outline: &mji_model::FileOutline,
    text: &str,
    file: &str,
    path: &std::path::Path,
    at: lsp::Position,
) -> Vec<(lsp::CodeActionKind, String, Value)> {
    let mut out = Vec::new();
    let mut all = Vec::new();
    for t in &outline.classes {
        callables(t, &mut all);
    }
    let inside = |a: lsp::Position, b: lsp::Position| a <= at && at <= b;
    for c in all {
        let Some(name) = docs::find_name(text, c.name, c.lines.0, c.lines.1) else { continue };
        let Some(close) = params_end(text, name.end) else { continue };
        if !inside(name.start, close) {
            continue;
        }
        let call = |order: Vec<usize>| {
            let parameters: Vec<Value> = order.iter().map(|i| json!({"from": i})).collect();
            json!({"action": "change_signature", "filePath": file, "line": name.start.line + 1,
                "column": name.start.character + 1, "parameters": parameters})
        };
        let n = c.params.len();
        let kind = lsp::CodeActionKind::REFACTOR_REWRITE;
        for (i, p) in c.params.iter().enumerate() {
            let order: Vec<usize> = (0..n).filter(|&j| j != i).collect();
            out.push((kind.clone(), format!("Change signature: remove parameter `{p}`"), call(order)));
            if i > 0 {
                let mut order: Vec<usize> = (0..n).collect();
                order.swap(i - 1, i);
                out.push((kind.clone(), format!("Change signature: move `{p}` left"), call(order)));
            }
            if i + 1 < n {
                let mut order: Vec<usize> = (0..n).collect();
                order.swap(i, i + 1);
                out.push((kind.clone(), format!("Change signature: move `{p}` right"), call(order)));
            }
        }
        if c.is_static && inside(name.start, name.end) {
            out.extend(member_moves(path, outline, c.name, name));
        }
        return out;
    }
    let mut fields = Vec::new();
    for t in &outline.classes {
        static_fields(t, &mut fields);
    }
    for f in fields {
        let Some(name) = docs::find_name(text, &f.name, f.start_line, f.end_line) else { continue };
        if inside(name.start, name.end) {
            return member_moves(path, outline, &f.name, name);
        }
    }
    for t in &outline.classes {
        let Some(name) = docs::find_name(text, &t.name, t.start_line, t.end_line) else { continue };
        if !inside(name.start, name.end) {
            continue;
        }
        for dest in move_destinations(path, outline.package.as_deref().unwrap_or_default()) {
            out.push((
                lsp::CodeActionKind::REFACTOR,
                format!("Move `{}` to package `{dest}`", t.name),
                json!({"action": "move", "filePath": file, "line": name.start.line + 1,
                    "column": name.start.character + 1, "destination": dest}),
            ));
        }
    }
    out
}

fn static_fields<'a>(t: &'a mji_model::TypeDecl, out: &mut Vec<&'a mji_model::FieldDecl>) {
    out.extend(t.fields.iter().filter(|f| f.modifiers.iter().any(|m| m == "static")));
    for i in &t.inner_classes {
        static_fields(i, out);
    }
}

/// The moves of the static member `member` (its name at `name`) of the file `path`: to each
/// other top-level class of its package, read as the other `.java` files of its directory (a
/// public class is named after its file), by name, at most [`MAX_MOVE_DESTINATIONS`].
fn member_moves(
    path: &std::path::Path,
    outline: &mji_model::FileOutline,
    member: &str,
    name: lsp::Range,
) -> Vec<(lsp::CodeActionKind, String, Value)> {
    let Some(dir) = path.parent() else { return Vec::new() };
    let own = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let mut classes: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "java") && p.is_file())
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_owned))
        .filter(|n| n != own && n != "package-info" && is_java_name(n))
        .collect();
    classes.sort();
    classes.truncate(MAX_MOVE_DESTINATIONS);
    let package = outline.package.as_deref().unwrap_or_default();
    let file = path.to_string_lossy();
    classes
        .into_iter()
        .map(|c| {
            let dest = if package.is_empty() { c } else { format!("{package}.{c}") };
            (
                lsp::CodeActionKind::REFACTOR,
                format!("Move `{member}` to `{dest}`"),
                json!({"action": "move", "filePath": file, "line": name.start.line + 1,
                    "column": name.start.character + 1, "destination": dest}),
            )
        })
        .collect()
}

/// A directory name that can be a package's segment (letters, digits, `_`, `$`; not
/// starting with a digit).
fn is_java_name(n: &str) -> bool {
    n.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && n.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The packages a type of `package` in the file `path` is offered a move to: the parent
/// package, then the sibling packages (the directories beside the package's own that hold
/// a `.java` file), by name; at most [`MAX_MOVE_DESTINATIONS`]. None in the default package
/// or where the directories do not follow the package.
fn move_destinations(path: &std::path::Path, package: &str) -> Vec<String> {
    let parts: Vec<&str> = package.split('.').filter(|p| !p.is_empty()).collect();
    let Some(dir) = path.parent() else { return Vec::new() };
    let Some((last, parent)) = parts.split_last() else { return Vec::new() };
    if dir.file_name().and_then(|n| n.to_str()) != Some(*last) {
        return Vec::new();
    }
    let parent_package = parent.join(".");
    let mut out = Vec::new();
    if !parent_package.is_empty() {
        out.push(parent_package.clone());
    }
    let Some(up) = dir.parent() else { return out };
    let mut siblings: Vec<String> = std::fs::read_dir(up)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|n| n != last && is_java_name(n))
        .filter(|n| {
            std::fs::read_dir(up.join(n))
                .into_iter()
                .flatten()
                .flatten()
                .any(|f| f.path().extension().is_some_and(|x| x == "java"))
        })
        .collect();
    siblings.sort();
    for n in siblings {
        out.push(if parent_package.is_empty() { n } else { format!("{parent_package}.{n}") });
    }
    out.truncate(MAX_MOVE_DESTINATIONS);
    out
}

/// The quick fixes `get_problems` offers for the problems of the file in `range`, each with
/// the client's diagnostics it fixes (same code and range). Syntax problems alone unless the
/// client shows a javac diagnostic there: only then is javac asked.
fn quick_fixes(s: &Server, file: &str, range: lsp::Range, shown: &[lsp::Diagnostic]) -> Vec<Offer> {
    let javac = shown.iter().any(|d| d.source.as_deref() == Some(crate::diagnostics::JAVAC_SOURCE));
    let mut args = json!({"filePath": file, "lineRange": {"start": range.start.line + 1, "end": range.end.line + 1}});
    if !javac {
        args["sourceFilter"] = json!(["syntax"]);
    }
    let v = match s.call("get_problems", args) {
        Ok(v) => v,
        Err(e) => {
            tracing::debug!("no quick fixes: {e}");
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for d in v["diagnostics"].as_array().into_iter().flatten() {
        let fixes = d["fixes"].as_array().cloned().unwrap_or_default();
        if fixes.is_empty() {
            continue;
        }
        let n = |v: &Value| v.as_u64().unwrap_or(1).saturating_sub(1) as u32;
        let (a, b) = (&d["range"]["start"], &d["range"]["end"]);
        let problem = lsp::Range {
            start: lsp::Position { line: n(&a["line"]), character: n(&a["column"]) },
            end: lsp::Position { line: n(&b["line"]), character: n(&b["column"]) },
        };
        let code = d["code"].as_str().unwrap_or_default();
        let fixed: Vec<lsp::Diagnostic> = shown
            .iter()
            .filter(|c| c.range == problem && c.code == Some(lsp::NumberOrString::String(code.to_owned())))
            .cloned()
            .collect();
        for (i, f) in fixes.iter().enumerate() {
            let (Some(id), Some(title)) = (f["fixId"].as_str(), f["title"].as_str()) else { continue };
            out.push(Offer {
                title: title.to_owned(),
                kind: lsp::CodeActionKind::QUICKFIX,
                diagnostics: fixed.clone(),
                tool: "refactor_actions",
                args: json!({"action": "quick_fix", "fixId": id}),
                preferred: i == 0,
            });
        }
    }
    out
}

/// The edit of an action: its tool call previewed, the planned edit read back by `editId`.
fn edit_of(s: &Server, action: &lsp::CodeAction) -> Result<lsp::WorkspaceEdit, (ErrorCode, String)> {
    planned(s, action).map(|(edit, _)| edit)
}

/// [`edit_of`] with the tool's summary of the edit.
fn planned(s: &Server, action: &lsp::CodeAction) -> Result<(lsp::WorkspaceEdit, String), (ErrorCode, String)> {
    let data = action.data.as_ref().ok_or((ErrorCode::InvalidParams, "the action has no data".to_owned()))?;
    let tool = match data["tool"].as_str() {
        Some(t @ ("refactor_actions" | "source_actions")) => t,
        _ => return Err((ErrorCode::InvalidParams, "the action's data names no editing tool".into())),
    };
    let mut args = data["args"].clone();
    if !args.is_object() {
        return Err((ErrorCode::InvalidParams, "the action's data has no arguments".into()));
    }
    // A preview: the client applies the edit.
    args["apply"] = json!(false);
    let v = s.call(tool, args).map_err(|e| (ErrorCode::RequestFailed, e))?;
    let conflicts: Vec<&str> = v["conflicts"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    if !conflicts.is_empty() {
        return Err((ErrorCode::RequestFailed, format!("{}: {}", action.title, conflicts.join("; "))));
    }
    let Some(id) = v["editId"].as_str().filter(|i| !i.is_empty()) else {
        let why = v["summary"].as_str().unwrap_or("it changes nothing");
        return Err((ErrorCode::RequestFailed, format!("{}: {why}", action.title)));
    };
    let summary = v["summary"].as_str().unwrap_or_default().to_owned();
    Ok((crate::rename::workspace_edit(s, id)?, summary))
}

/// The command that runs any `refactor_actions` call: its one argument is the tool's own
/// arguments (for a client or agent that can give the input a code action cannot ask for).
pub const REFACTOR: &str = "mcp-java-index.refactor";

/// `workspace/executeCommand` `mcp-java-index.refactor`: the call previewed (`apply` is
/// ignored: the client applies), answered as `{summary, edit}`, the edit a `WorkspaceEdit`
/// as a resolved code action carries; a refusal or a conflict is the request's error.
pub(crate) fn execute(s: &mut Server, p: lsp::ExecuteCommandParams) -> Reply {
    let Some(args) = p.arguments.first().filter(|a| a.is_object()).cloned() else {
        return Err((ErrorCode::InvalidParams, format!("{REFACTOR} takes one argument: refactor_actions' arguments")));
    };
    let action = lsp::CodeAction {
        title: format!("refactor_actions {}", args["action"].as_str().unwrap_or("rename")),
        data: Some(json!({"tool": "refactor_actions", "args": args})),
        ..Default::default()
    };
    let (edit, summary) = planned(s, &action)?;
    Ok(json!({"summary": summary, "edit": edit}))
}

pub(crate) fn resolve(s: &mut Server, mut action: lsp::CodeAction) -> Reply {
    if action.edit.is_none() {
        action.edit = Some(edit_of(s, &action)?);
    }
    Ok(serde_json::to_value(action).unwrap_or(Value::Null))
}

#[cfg(test)]
mod tests {
    use lsp_types::CodeActionKind as K;

    #[test]
    fn only_selects_a_kind_and_its_sub_kinds() {
        let only = Some(vec![K::REFACTOR]);
        assert!(super::wanted(&only, &K::REFACTOR_EXTRACT) && super::wanted(&only, &K::REFACTOR));
        assert!(!super::wanted(&only, &K::QUICKFIX) && !super::wanted(&only, &K::from("refactoring")));
        assert!(super::wanted(&None, &K::SOURCE_ORGANIZE_IMPORTS));
    }

    #[test]
    fn a_parameter_list_ends_at_its_own_closing_parenthesis() {
        use lsp_types::Position as P;
        let text = "  void f(@A(\"x\") int a,\n      String b) {\n  }";
        assert_eq!(super::params_end(text, P { line: 0, character: 8 }), Some(P { line: 1, character: 14 }));
        assert_eq!(super::params_end("  int x = 1;", P { line: 0, character: 7 }), None);
    }

    #[test]
    fn package_segments_are_java_names() {
        assert!(super::is_java_name("util") && super::is_java_name("_x$1"));
        assert!(!super::is_java_name("1x") && !super::is_java_name("my-pkg") && !super::is_java_name(""));
    }
}
