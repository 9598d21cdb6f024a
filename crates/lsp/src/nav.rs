//! Navigation: `definition` (show_definition), `references` (find_references), `documentSymbol`
//! (java_index), `workspace/symbol` (java_find_symbol) and `hover` (show_definition and
//! java_read_javadoc), each a registry call whose answer is converted to LSP's types.

use std::path::PathBuf;

use lsp_server::ErrorCode;
use lsp_types as lsp;
use lsp_types::{Location, Position, Range};
use mji_model::{FileOutline, TypeDecl, TypeKind};
use serde_json::{Value, json};

use crate::docs::{self, find_name, lines_range};
use crate::{Reply, Server, uri};

/// A position in a file as the tools take it: the file's path, the identifier there, its range
/// in the text the editor shows, and its 1-based line in the file as saved (the one the tools
/// read) with the 1-based UTF-16 column of its first character.
pub(crate) struct At {
    pub path: PathBuf,
    pub word: String,
    pub range: Range,
    /// The 0-based line of `range` in the saved file (the same line unless the buffer has
    /// unsaved changes above it).
    pub saved_line: u32,
}

impl At {
    pub fn line(&self) -> u32 {
        self.saved_line + 1
    }

    pub fn column(&self) -> u32 {
        self.range.start.character + 1
    }

    /// `filePath`, `line` and `column` of a tool's arguments.
    pub fn args(&self) -> serde_json::Map<String, Value> {
        let mut m = serde_json::Map::new();
        m.insert("filePath".into(), json!(self.path.to_string_lossy()));
        m.insert("line".into(), json!(self.line()));
        m.insert("column".into(), json!(self.column()));
        m
    }
}

impl Server {
    /// The identifier at a document position, in the buffer the client shows (else the file),
    /// with its line in the saved file; None on a line the buffer's unsaved changes touched
    /// (the tools have not seen it: a query there would answer for another place).
    pub(crate) fn at(&self, doc: &lsp::TextDocumentPositionParams) -> Option<At> {
        let u = doc.text_document.uri.as_str();
        let path = uri::to_path(u)?;
        let (text, saved_line) = match self.docs.get(u) {
            Some(d) => {
                let saved_line = match &d.path {
                    Some(p) => self.line_map(p).to_saved(doc.position.line),
                    None => Some(doc.position.line),
                };
                (d.text.clone(), saved_line)
            }
            None => (self.saved_text(&path)?, Some(doc.position.line)),
        };
        let (word, range) = docs::word_at(&text, doc.position)?;
        let Some(saved_line) = saved_line else {
            tracing::debug!(uri = u, line = doc.position.line, "a line with unsaved changes: no answer until saved");
            return None;
        };
        Some(At { path, word, range, saved_line })
    }

    /// The location of a file's lines `from..=to` named by `file` as the tools answer it
    /// (relative to its root), narrowed to `name` when it is written there; in the file's open
    /// buffer when it has one (None when its unsaved changes touched that line).
    pub(crate) fn location(&self, file: &str, name: &str, from: u32, to: u32) -> Option<Location> {
        let r = self.host.resolve(file).ok()?;
        let text = self.saved_text(&r.path)?;
        let range = find_name(&text, name, from, to).unwrap_or_else(|| lines_range(&text, from, from));
        let range = self.line_map(&r.path).range_to_buffer(range)?;
        Some(Location { uri: lsp_uri(&r.path)?, range })
    }
}

pub(crate) fn lsp_uri(path: &std::path::Path) -> Option<lsp::Uri> {
    uri::from_path(path).parse().ok()
}

/// A tool error where a navigation request has no answer: logged, and the request answers
/// `null` (an editor shows "no definition found", not an error box, for a keyword or a blank).
fn none_because(tool: &str, e: &str) -> Reply {
    tracing::debug!(tool, "no answer: {e}");
    Ok(Value::Null)
}

/// The definitions `show_definition` answers for the identifier at a position.
pub(crate) fn definitions(s: &Server, at: &At) -> Result<Vec<Value>, String> {
    let mut args = at.args();
    args.insert("symbol".into(), json!(at.word));
    let v = s.call("show_definition", Value::Object(args))?;
    Ok(v["definitions"].as_array().cloned().unwrap_or_default())
}

pub(crate) fn definition(s: &mut Server, p: lsp::GotoDefinitionParams) -> Reply {
    let Some(at) = s.at(&p.text_document_position_params) else { return Ok(Value::Null) };
    let defs = match definitions(s, &at) {
        Ok(d) => d,
        Err(e) => return none_because("show_definition", &e),
    };
    Ok(locations_of(s, &at.word, &defs))
}

/// The locations of `show_definition`'s definitions of `name` in workspace files, at the name
/// (a library declaration has no file and is left out).
pub(crate) fn locations_of(s: &Server, name: &str, defs: &[Value]) -> Value {
    let locations: Vec<Location> = defs
        .iter()
        .filter_map(|d| {
            let file = d["file"].as_str()?;
            let from = d["startLine"].as_u64()? as u32;
            let to = d["endLine"].as_u64().map_or(from, |l| l as u32);
            s.location(file, name, from, to)
        })
        .collect();
    serde_json::to_value(locations).unwrap_or(Value::Null)
}

/// `references`: `find_references`' locations (the tool's query, its answer without line text),
/// each at the tool's line and UTF-16 column with the name's width; a declaration (answered
/// at its line's start) at its name, so only a file declaring the target is read. Each file's
/// path is the tool's own (not resolved again).
pub(crate) fn references(s: &mut Server, p: lsp::ReferenceParams) -> Reply {
    use mji_tools::tool::find_references::{FindReferencesArgs, locations};
    let Some(at) = s.at(&p.text_document_position) else { return Ok(Value::Null) };
    let width = at.word.encode_utf16().count() as u32;
    let mut out: Vec<Location> = Vec::new();
    let mut offset = 0u64;
    crate::wait_index_for(&s.host, "find_references");
    loop {
        let mut args = at.args();
        args.insert("includeDeclaration".into(), json!(p.context.include_declaration));
        args.insert("limit".into(), json!(1000));
        args.insert("offset".into(), json!(offset));
        let answer = serde_json::from_value::<FindReferencesArgs>(Value::Object(args))
            .map_err(|e| format!("invalid arguments for find_references: {e}"))
            .and_then(|args| locations(&s.host, &args).map_err(|e| e.to_string()));
        let (v, paths) = match answer {
            Ok(v) => v,
            Err(e) if offset == 0 => return none_because("find_references", &e),
            Err(e) => return Err((ErrorCode::RequestFailed, e)),
        };
        for (f, path) in v.files.iter().zip(&paths) {
            let Some(uri) = lsp_uri(path) else { continue };
            let map = s.line_map(path);
            // Read only where a declaration's name must be found on its line.
            let text = match f.references.iter().any(|r| r.kind == "declaration") {
                true => s.saved_text(path).unwrap_or_default(),
                false => String::new(),
            };
            let lines = docs::Lines::of(&text);
            for r in &f.references {
                let start = Position { line: r.line.saturating_sub(1), character: r.column.saturating_sub(1) };
                let end = Position { line: start.line, character: start.character + width };
                let range = match r.kind == "declaration" {
                    true => docs::find_name_in(|n| lines.line(n), &at.word, r.line, r.line),
                    false => None,
                };
                // In the open buffer; a reference on a line its unsaved changes touched is left out.
                if let Some(range) = map.range_to_buffer(range.unwrap_or(Range { start, end })) {
                    out.push(Location { uri: uri.clone(), range });
                }
            }
        }
        match v.page.next_offset {
            Some(next) if next > offset => offset = next,
            _ => break,
        }
    }
    Ok(serde_json::to_value(out).unwrap_or(Value::Null))
}

/// `documentHighlight`: `find_references`' references in this file (the declaration too),
/// writes as writes, the rest as reads.
pub(crate) fn highlights(s: &mut Server, p: lsp::DocumentHighlightParams) -> Reply {
    let here = p.text_document_position_params.text_document.uri.clone();
    let Some(at) = s.at(&p.text_document_position_params) else { return Ok(Value::Null) };
    let Ok(path) = s.host.resolve(&at.path.to_string_lossy()).map(|r| r.path) else { return Ok(Value::Null) };
    let mut args = at.args();
    args.insert("includeDeclaration".into(), json!(true));
    args.insert("limit".into(), json!(1000));
    let v = match s.call("find_references", Value::Object(args)) {
        Ok(v) => v,
        Err(e) => return none_because("find_references", &e),
    };
    let text = s.saved_text(&path).unwrap_or_default();
    let lines = docs::Lines::of(&text);
    let map = s.line_map(&path);
    let width = at.word.encode_utf16().count() as u32;
    let mut out: Vec<lsp::DocumentHighlight> = Vec::new();
    for f in v["files"].as_array().into_iter().flatten() {
        if f["file"].as_str().and_then(|file| s.host.resolve(file).ok()).is_none_or(|r| r.path != path) {
            continue;
        }
        for r in f["references"].as_array().into_iter().flatten() {
            let (Some(line), Some(col)) = (r["line"].as_u64(), r["column"].as_u64()) else { continue };
            let start = Position { line: line.saturating_sub(1) as u32, character: col.saturating_sub(1) as u32 };
            let named = docs::word_in_line(lines.line(line as u32), start)
                .is_some_and(|(w, r)| w == at.word && r.start == start);
            let range = match named {
                true => Range { start, end: Position { line: start.line, character: start.character + width } },
                false => match docs::find_name_in(|n| lines.line(n), &at.word, line as u32, line as u32) {
                    Some(r) => r,
                    None => continue,
                },
            };
            let kind = match r["kind"].as_str() {
                Some("write") => lsp::DocumentHighlightKind::WRITE,
                Some("read") => lsp::DocumentHighlightKind::READ,
                _ => lsp::DocumentHighlightKind::TEXT,
            };
            let Some(range) = map.range_to_buffer(range) else { continue };
            out.push(lsp::DocumentHighlight { range, kind: Some(kind) });
        }
    }
    tracing::debug!(uri = here.as_str(), highlights = out.len(), "documentHighlight");
    Ok(serde_json::to_value(out).unwrap_or(Value::Null))
}

/// The call around a position: the position of the name before its `(` and how many commas
/// of the argument list come before the position. Scanned back over the text, nested
/// parentheses skipped, stopping at a statement's or block's edge (`;`, `{`, `}`); commas
/// inside string literals are counted too.
fn call_around(text: &str, offset: usize) -> Option<(Position, u32)> {
    let (mut depth, mut commas) = (0u32, 0u32);
    let before = &text[..offset.min(text.len())];
    for (i, c) in before.char_indices().rev().take(4096) {
        match c {
            ')' | ']' => depth += 1,
            '(' | '[' if depth > 0 => depth -= 1,
            '(' => {
                let name_end = before[..i].trim_end().len();
                let name = &before[..name_end];
                let start =
                    name.char_indices().rev().take_while(|(_, c)| c.is_alphanumeric() || *c == '_' || *c == '$');
                let start = start.last()?.0;
                return Some((docs::position(text, start), commas));
            }
            ',' if depth == 0 => commas += 1,
            ';' | '{' | '}' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// The parameters of a signature as written (`int a, Map<K, V> m`), split at its top-level
/// commas.
fn parameters(signature: &str) -> Vec<String> {
    let Some(open) = signature.find('(') else { return Vec::new() };
    let mut out = Vec::new();
    let (mut depth, mut current) = (0i32, String::new());
    for c in signature[open + 1..].chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ']' => depth -= 1,
            ')' if depth == 0 => break,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(current.trim().to_owned());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_owned());
    }
    out
}

/// `signatureHelp`: the signatures `show_definition` answers for the called name around the
/// position, with the argument the cursor is in.
pub(crate) fn signature_help(s: &mut Server, p: lsp::SignatureHelpParams) -> Reply {
    let pos = &p.text_document_position_params;
    let u = pos.text_document.uri.as_str();
    let Some(path) = uri::to_path(u) else { return Ok(Value::Null) };
    let text = match s.docs.get(u) {
        Some(d) => d.text.clone(),
        None => s.saved_text(&path).unwrap_or_default(),
    };
    let Some((name_at, active)) = call_around(&text, docs::offset(&text, pos.position)) else { return Ok(Value::Null) };
    let at_name = lsp::TextDocumentPositionParams { text_document: pos.text_document.clone(), position: name_at };
    let Some(at) = s.at(&at_name) else { return Ok(Value::Null) };
    let defs = match definitions(s, &at) {
        Ok(d) => d,
        Err(e) => return none_because("show_definition", &e),
    };
    let signatures: Vec<lsp::SignatureInformation> = defs
        .iter()
        .filter(|d| matches!(d["kind"].as_str(), Some("method" | "constructor")))
        .filter_map(|d| {
            let label = d["signature"].as_str()?.to_owned();
            let parameters = parameters(&label)
                .into_iter()
                .map(|p| lsp::ParameterInformation { label: lsp::ParameterLabel::Simple(p), documentation: None })
                .collect();
            let documentation = d["javadoc"].as_str().map(|j| lsp::Documentation::String(j.to_owned()));
            Some(lsp::SignatureInformation {
                label,
                documentation,
                parameters: Some(parameters),
                active_parameter: None,
            })
        })
        .collect();
    if signatures.is_empty() {
        return Ok(Value::Null);
    }
    let help = lsp::SignatureHelp { signatures, active_signature: Some(0), active_parameter: Some(active) };
    Ok(serde_json::to_value(help).unwrap_or(Value::Null))
}

/// `foldingRange`: each declaration of `java_index`'s outline over more than one line, and
/// each javadoc (as a comment).
pub(crate) fn folding_ranges(s: &mut Server, p: lsp::FoldingRangeParams) -> Reply {
    let Some(path) = uri::to_path(p.text_document.uri.as_str()) else { return Ok(Value::Null) };
    let (outline, _) = outline(s, &path).map_err(|e| (ErrorCode::RequestFailed, e))?;
    let mut out: Vec<lsp::FoldingRange> = Vec::new();
    let mut fold = |from: u32, to: u32, kind: Option<lsp::FoldingRangeKind>| {
        if to > from && from > 0 {
            out.push(lsp::FoldingRange { start_line: from - 1, end_line: to - 1, kind, ..Default::default() });
        }
    };
    let doc = |j: &mji_model::Javadoc, fold: &mut dyn FnMut(u32, u32, Option<lsp::FoldingRangeKind>)| {
        if let (Some(a), Some(b)) = (j.start_line, j.end_line) {
            fold(a, b, Some(lsp::FoldingRangeKind::Comment));
        }
    };
    let mut stack: Vec<&TypeDecl> = outline.classes.iter().collect();
    while let Some(t) = stack.pop() {
        fold(t.start_line, t.end_line, None);
        doc(&t.javadoc, &mut fold);
        for m in &t.methods {
            fold(m.start_line, m.end_line, None);
            doc(&m.javadoc, &mut fold);
        }
        for c in &t.constructors {
            fold(c.start_line, c.end_line, None);
            doc(&c.javadoc, &mut fold);
        }
        for f in &t.fields {
            doc(&f.javadoc, &mut fold);
        }
        stack.extend(t.inner_classes.iter());
    }
    out.sort_by_key(|r| (r.start_line, r.end_line));
    out.dedup();
    Ok(serde_json::to_value(out).unwrap_or(Value::Null))
}

/// `selectionRange`: at each position, the identifier there, then each declaration of
/// `java_index`'s outline around it (a member, its type, the types around that), then the file,
/// innermost first (the buffer's outline when it has unsaved changes).
pub(crate) fn selection_ranges(s: &mut Server, p: lsp::SelectionRangeParams) -> Reply {
    let Some(path) = uri::to_path(p.text_document.uri.as_str()) else { return Ok(Value::Null) };
    let (outline, text) = outline(s, &path).map_err(|e| (ErrorCode::RequestFailed, e))?;
    let last = text.split('\n').count() as u32;
    let mut out = Vec::new();
    for pos in p.positions {
        let line = pos.line + 1;
        // Outermost first: the file, then each declaration around the line.
        let mut spans: Vec<(u32, u32)> = vec![(1, last)];
        let mut types: Vec<&TypeDecl> = outline.classes.iter().collect();
        while let Some(t) = types.pop() {
            if !(t.start_line..=t.end_line).contains(&line) {
                continue;
            }
            spans.push((t.start_line, t.end_line));
            let members = t.methods.iter().map(|m| (m.start_line, m.end_line));
            let members = members.chain(t.constructors.iter().map(|c| (c.start_line, c.end_line)));
            let members = members.chain(t.fields.iter().map(|f| (f.start_line, f.end_line)));
            let members = members.chain(t.enum_constants.iter().flatten().map(|c| (c.start_line, c.end_line)));
            spans.extend(members.filter(|(a, b)| (*a..=*b).contains(&line)));
            types.extend(t.inner_classes.iter());
        }
        spans.sort_by_key(|(a, b)| (std::cmp::Reverse(b - a), *a));
        spans.dedup();
        let mut chain: Option<lsp::SelectionRange> = None;
        for (a, b) in spans {
            let range = lines_range(&text, a, b);
            chain = Some(lsp::SelectionRange { range, parent: chain.map(Box::new) });
        }
        if let Some((_, word)) = docs::word_at(&text, pos) {
            chain = Some(lsp::SelectionRange { range: word, parent: chain.map(Box::new) });
        }
        out.push(chain.unwrap_or(lsp::SelectionRange { range: Range { start: pos, end: pos }, parent: None }));
    }
    Ok(serde_json::to_value(out).unwrap_or(Value::Null))
}

/// The outline `java_index` answers for a file (every declaration, as its defaults give), and
/// the text its lines are in: the file's open buffer when it has unsaved changes (outlined by
/// `java_index`'s own code on that text), else the file as saved.
pub(crate) fn outline(s: &Server, path: &std::path::Path) -> Result<(FileOutline, String), String> {
    let canonical = s.host.resolve(&path.to_string_lossy()).map(|r| r.path).ok();
    let saved = canonical.as_deref().and_then(|p| s.saved_text(p));
    if let Some(doc) = canonical.as_deref().and_then(|p| s.buffer_of(p))
        && saved.as_deref() != Some(doc.text.as_str())
    {
        let args = mji_tools::tool::java_index::JavaIndexArgs {
            file_path: path.to_string_lossy().into_owned(),
            options: Default::default(),
        };
        let outline =
            mji_tools::tool::java_index::run_on_text(&s.host, &args, doc.text.as_bytes()).map_err(|e| e.to_string())?;
        return Ok((outline, doc.text.clone()));
    }
    let v = s.call("java_index", json!({"filePath": path.to_string_lossy()}))?;
    if v["truncated"].as_bool() == Some(true) {
        tracing::warn!(file = %path.display(), "the outline was cut by the answer limit: its first part is shown");
    }
    let outline = serde_json::from_value(v).map_err(|e| format!("internal error: reading java_index's answer: {e}"))?;
    Ok((outline, saved.unwrap_or_default()))
}

pub(crate) fn document_symbols(s: &mut Server, p: lsp::DocumentSymbolParams) -> Reply {
    let Some(path) = uri::to_path(p.text_document.uri.as_str()) else { return Ok(Value::Null) };
    let (outline, text) = match outline(s, &path) {
        Ok(o) => o,
        Err(e) => return Err((ErrorCode::RequestFailed, e)),
    };
    let symbols: Vec<lsp::DocumentSymbol> = outline.classes.iter().map(|t| type_symbol(&text, t)).collect();
    Ok(serde_json::to_value(symbols).unwrap_or(Value::Null))
}

#[allow(deprecated)]
fn symbol(
    text: &str,
    name: &str,
    detail: Option<String>,
    kind: lsp::SymbolKind,
    lines: (u32, u32),
    children: Option<Vec<lsp::DocumentSymbol>>,
) -> lsp::DocumentSymbol {
    let range = lines_range(text, lines.0, lines.1);
    let selection_range =
        find_name(text, name, lines.0, lines.1).unwrap_or(Range { start: range.start, end: range.start });
    lsp::DocumentSymbol {
        name: name.to_owned(),
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range,
        children,
    }
}

fn type_kind(k: TypeKind) -> lsp::SymbolKind {
    match k {
        TypeKind::Class | TypeKind::Record => lsp::SymbolKind::CLASS,
        TypeKind::Interface | TypeKind::Annotation => lsp::SymbolKind::INTERFACE,
        TypeKind::Enum => lsp::SymbolKind::ENUM,
    }
}

/// A type of the outline and its members, each in its lines, in the order of the file.
fn type_symbol(text: &str, t: &TypeDecl) -> lsp::DocumentSymbol {
    let mut children: Vec<lsp::DocumentSymbol> = Vec::new();
    for c in t.enum_constants.iter().flatten() {
        children.push(symbol(text, &c.name, None, lsp::SymbolKind::ENUM_MEMBER, (c.start_line, c.end_line), None));
    }
    for f in &t.fields {
        let kind = if f.modifiers.iter().any(|m| m == "static") && f.modifiers.iter().any(|m| m == "final") {
            lsp::SymbolKind::CONSTANT
        } else {
            lsp::SymbolKind::FIELD
        };
        children.push(symbol(text, &f.name, Some(f.type_text.clone()), kind, (f.start_line, f.end_line), None));
    }
    for c in &t.constructors {
        let detail = Some(c.signature_text.clone());
        children.push(symbol(text, &c.name, detail, lsp::SymbolKind::CONSTRUCTOR, (c.start_line, c.end_line), None));
    }
    for m in &t.methods {
        let detail = Some(m.signature_text.clone());
        children.push(symbol(text, &m.name, detail, lsp::SymbolKind::METHOD, (m.start_line, m.end_line), None));
    }
    for inner in &t.inner_classes {
        children.push(type_symbol(text, inner));
    }
    children.sort_by_key(|c| (c.range.start.line, c.selection_range.start.character));
    let detail = Some(t.kind.as_str().to_owned());
    symbol(text, &t.name, detail, type_kind(t.kind), (t.start_line, t.end_line), Some(children))
}

pub(crate) fn workspace_symbols(s: &mut Server, p: lsp::WorkspaceSymbolParams) -> Reply {
    if p.query.trim().is_empty() {
        return Ok(json!([]));
    }
    let v = match s.call("java_find_symbol", json!({"query": p.query, "limit": 200})) {
        Ok(v) => v,
        Err(e) => return none_because("java_find_symbol", &e),
    };
    let mut out: Vec<lsp::SymbolInformation> = Vec::new();
    for r in v["results"].as_array().into_iter().flatten() {
        let (Some(file), Some(q)) = (r["filePath"].as_str(), r["qualifiedName"].as_str()) else { continue };
        if r.get("origin").is_some_and(|o| !o.is_null()) {
            continue;
        }
        let (container, name) = match q.rsplit_once('#') {
            Some((owner, member)) => (Some(owner.to_owned()), member.split('(').next().unwrap_or(member).to_owned()),
            None => match q.rsplit_once('.') {
                Some((pkg, n)) => (Some(pkg.to_owned()), n.to_owned()),
                None => (None, q.to_owned()),
            },
        };
        let from = r["startLine"].as_u64().unwrap_or(1) as u32;
        let to = r["endLine"].as_u64().map_or(from, |l| l as u32);
        let Some(location) = s.location(file, &name, from, to) else { continue };
        let kind = match (r["kind"].as_str(), r["typeKind"].as_str()) {
            (Some("method"), _) => lsp::SymbolKind::METHOD,
            (Some("constructor"), _) => lsp::SymbolKind::CONSTRUCTOR,
            (Some("field"), _) => lsp::SymbolKind::FIELD,
            (_, Some("interface" | "annotation")) => lsp::SymbolKind::INTERFACE,
            (_, Some("enum")) => lsp::SymbolKind::ENUM,
            _ => lsp::SymbolKind::CLASS,
        };
        #[allow(deprecated)]
        out.push(lsp::SymbolInformation {
            name,
            kind,
            tags: None,
            deprecated: None,
            location,
            container_name: container,
        });
    }
    Ok(serde_json::to_value(out).unwrap_or(Value::Null))
}

pub(crate) fn hover(s: &mut Server, p: lsp::HoverParams) -> Reply {
    let Some(at) = s.at(&p.text_document_position_params) else { return Ok(Value::Null) };
    let defs = match definitions(s, &at) {
        Ok(d) => d,
        Err(e) => return none_because("show_definition", &e),
    };
    let Some(d) = defs.first() else { return Ok(Value::Null) };
    let head = d["signature"].as_str().or(d["qualifiedName"].as_str()).unwrap_or(&at.word);
    let mut md = format!("```java\n{head}\n```");
    if let Some(q) = d["qualifiedName"].as_str().filter(|q| *q != head) {
        md.push_str(&format!("\n\n`{q}`"));
    }
    // The whole javadoc of a workspace declaration; a library's first sentence.
    let full = match (d["file"].as_str(), d["symbolId"].as_str()) {
        (Some(file), Some(id)) => s
            .call("java_read_javadoc", json!({"filePath": file, "symbolId": id, "includeLineNumbers": false}))
            .ok()
            .filter(|j| j["found"].as_bool() == Some(true))
            .and_then(|j| j["content"].as_str().map(javadoc_markdown)),
        _ => None,
    };
    if let Some(doc) = full.or_else(|| d["javadoc"].as_str().map(str::to_owned)).filter(|t| !t.trim().is_empty()) {
        md.push_str("\n\n---\n\n");
        md.push_str(doc.trim());
    }
    let hover = lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent { kind: lsp::MarkupKind::Markdown, value: md }),
        range: Some(at.range),
    };
    Ok(serde_json::to_value(hover).unwrap_or(Value::Null))
}

/// A javadoc comment as Markdown: the `/** … */` and each line's `*` gone, `{@code x}`,
/// `{@link X}` and `{@linkplain X}` as code, block tags (`@param who …`) on lines of their own.
fn javadoc_markdown(comment: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    for raw in comment.lines() {
        let mut l = raw.trim();
        l = l.strip_prefix("/**").unwrap_or(l);
        l = l.strip_suffix("*/").unwrap_or(l);
        let l = l.trim_start();
        let l = l.strip_prefix('*').map_or(l, |r| r.strip_prefix(' ').unwrap_or(r));
        if let Some(tag) = l.strip_prefix('@') {
            let (name, rest) = tag.split_once(' ').unwrap_or((tag, ""));
            let rest = match name {
                "param" | "throws" | "exception" => match rest.trim_start().split_once(' ') {
                    Some((p, d)) => format!("`{p}` {d}"),
                    None => format!("`{}`", rest.trim()),
                },
                _ => rest.to_owned(),
            };
            lines.push(String::new());
            lines.push(format!("*@{name}* {rest}").trim_end().to_owned());
        } else {
            lines.push(l.trim_end().to_owned());
        }
    }
    let mut md = lines.join("\n").trim().to_owned();
    for tag in ["{@code ", "{@link ", "{@linkplain ", "{@literal "] {
        while let Some(i) = md.find(tag) {
            let Some(close) = md[i..].find('}').map(|c| i + c) else { break };
            let inner = md[i + tag.len()..close].trim().to_owned();
            let inner = if tag == "{@literal " { inner } else { format!("`{inner}`") };
            md.replace_range(i..=close, &inner);
        }
    }
    md
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_call_around_a_position_and_its_argument() {
        let text = "  x = g.greet(a, f(b, c), \"d\"";
        let (name, commas) = super::call_around(text, text.len()).unwrap_or_default();
        assert_eq!((name.character, commas), (8, 2));
        assert_eq!(super::call_around("a; b", 4), None);
        assert_eq!(
            super::parameters("public <K> V put(Map<K, V> m, int[] a)"),
            vec!["Map<K, V> m".to_owned(), "int[] a".to_owned()]
        );
        assert!(super::parameters("void run()").is_empty());
    }

    #[test]
    fn a_javadoc_becomes_markdown_with_code_and_tags() {
        let c = "/**\n     * Says hello to {@code who}, see {@link Greeter}.\n     * @param who the one greeted\n     * @return the greeting\n     */";
        assert_eq!(
            super::javadoc_markdown(c),
            "Says hello to `who`, see `Greeter`.\n\n*@param* `who` the one greeted\n\n*@return* the greeting"
        );
    }
}
