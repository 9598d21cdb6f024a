//! `implementation` (find_implementations), `prepareTypeHierarchy`/`supertypes`/`subtypes`
//! (type_hierarchy) and `prepareCallHierarchy`/`incomingCalls`/`outgoingCalls`
//! (show_definition for the item, call_hierarchy for the calls), converted to LSP's types. An
//! item carries its tool target (a type's qualified name, a member's key) in `data`.

use lsp_server::ErrorCode;
use lsp_types as lsp;
use lsp_types::{Position, Range};
use serde_json::{Value, json};

use crate::nav::{At, lsp_uri};
use crate::shadow::LineMap;
use crate::{Reply, Server};

/// A member key's or a qualified name's simple name: `com.a.B#m(int)` is `m`, `com.a.B.C` is
/// `C`.
fn simple_name(name: &str) -> &str {
    let name = name.split('(').next().unwrap_or(name);
    match name.rsplit_once('#') {
        Some((_, member)) => member,
        None => name.rsplit(['.', '$']).next().unwrap_or(name),
    }
}

/// Every page of a paged tool's list `key` (`offset`/`nextOffset`).
fn all_pages(s: &Server, tool: &str, args: Value, key: &str) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    let mut offset = 0u64;
    loop {
        let mut a = args.clone();
        a["offset"] = json!(offset);
        let v = s.call(tool, a)?;
        out.extend(v[key].as_array().cloned().unwrap_or_default());
        match v["nextOffset"].as_u64() {
            Some(next) if next > offset => offset = next,
            _ => return Ok(out),
        }
    }
}

pub(crate) fn implementation(s: &mut Server, p: lsp::request::GotoImplementationParams) -> Reply {
    let Some(at) = s.at(&p.text_document_position_params) else { return Ok(Value::Null) };
    let mut args = at.args();
    args.insert("limit".into(), json!(1000));
    let found = match all_pages(s, "find_implementations", Value::Object(args), "implementations") {
        Ok(f) => f,
        Err(e) => {
            tracing::debug!("no implementations: {e}");
            return Ok(Value::Null);
        }
    };
    let locations: Vec<lsp::Location> = found
        .iter()
        .filter_map(|i| {
            let (file, line) = (i["file"].as_str()?, i["line"].as_u64()? as u32);
            let end = i["endLine"].as_u64().map_or(line, |l| l as u32);
            s.location(file, simple_name(i["name"].as_str().unwrap_or_default()), line, end)
        })
        .collect();
    Ok(serde_json::to_value(locations).unwrap_or(Value::Null))
}

/// An item of either hierarchy: its name, where it is, and its tool target in `data`.
struct Item {
    name: String,
    detail: Option<String>,
    kind: lsp::SymbolKind,
    uri: lsp::Uri,
    range: Range,
    selection_range: Range,
    target: String,
}

impl Server {
    /// The item of `target` declared in `file` (as the tools name it) at lines `from..=to`.
    fn item(&self, target: &str, kind: &str, file: &str, from: u32, to: u32) -> Option<Item> {
        let r = self.host.resolve(file).ok()?;
        let text = self.saved_text(&r.path)?;
        let name = simple_name(target).to_owned();
        let range = crate::docs::lines_range(&text, from, to);
        let selection_range = crate::docs::find_name(&text, &name, from, to)
            .filter(|n| n.start.line >= range.start.line && n.end.line <= range.end.line)
            .unwrap_or(Range { start: range.start, end: range.start });
        // In the file's open buffer; left out where its unsaved changes touched it.
        let map = self.line_map(&r.path);
        let (range, selection_range) = (map.range_to_buffer(range)?, map.range_to_buffer(selection_range)?);
        let kind = match kind {
            "interface" | "annotation" => lsp::SymbolKind::INTERFACE,
            "enum" => lsp::SymbolKind::ENUM,
            "method" => lsp::SymbolKind::METHOD,
            "constructor" => lsp::SymbolKind::CONSTRUCTOR,
            "field" => lsp::SymbolKind::FIELD,
            _ => lsp::SymbolKind::CLASS,
        };
        Some(Item {
            name,
            detail: Some(target.to_owned()),
            kind,
            uri: lsp_uri(&r.path)?,
            range,
            selection_range,
            target: target.to_owned(),
        })
    }
}

impl Item {
    fn type_item(self) -> lsp::TypeHierarchyItem {
        lsp::TypeHierarchyItem {
            name: self.name,
            kind: self.kind,
            tags: None,
            detail: self.detail,
            uri: self.uri,
            range: self.range,
            selection_range: self.selection_range,
            data: Some(json!({"target": self.target})),
        }
    }

    fn call_item(self) -> lsp::CallHierarchyItem {
        lsp::CallHierarchyItem {
            name: self.name,
            kind: self.kind,
            tags: None,
            detail: self.detail,
            uri: self.uri,
            range: self.range,
            selection_range: self.selection_range,
            data: Some(json!({"target": self.target})),
        }
    }
}

fn target_of(data: &Option<Value>) -> Result<String, (ErrorCode, String)> {
    data.as_ref()
        .and_then(|d| d["target"].as_str())
        .map(str::to_owned)
        .ok_or_else(|| (ErrorCode::InvalidParams, "the item has no target in its data: prepare it first".into()))
}

/// The type hierarchy's root at a position (`type_hierarchy`'s `root`).
pub(crate) fn prepare_type_hierarchy(s: &mut Server, p: lsp::TypeHierarchyPrepareParams) -> Reply {
    let Some(at) = s.at(&p.text_document_position_params) else { return Ok(Value::Null) };
    let mut args = at.args();
    args.insert("direction".into(), json!("supertypes"));
    args.insert("depth".into(), json!(1));
    let v = match s.call("type_hierarchy", Value::Object(args)) {
        Ok(v) => v,
        Err(e) => {
            tracing::debug!("no type hierarchy: {e}");
            return Ok(Value::Null);
        }
    };
    let root = &v["root"];
    let item = (|| {
        let (fqn, file) = (root["fqn"].as_str()?, root["file"].as_str()?);
        let from = root["startLine"].as_u64()? as u32;
        let to = root["endLine"].as_u64().map_or(from, |l| l as u32);
        s.item(fqn, root["kind"].as_str().unwrap_or("class"), file, from, to)
    })();
    Ok(item.map_or(Value::Null, |i| json!([i.type_item()])))
}

/// The direct supertypes or subtypes of an item (depth 1), those declared in the workspace.
pub(crate) fn type_relatives(s: &mut Server, item: &lsp::TypeHierarchyItem, direction: &str) -> Reply {
    let target = target_of(&item.data)?;
    let args = json!({"target": target, "direction": direction, "depth": 1, "limit": 1000});
    let types = all_pages(s, "type_hierarchy", args, "types").map_err(|e| (ErrorCode::RequestFailed, e))?;
    let items: Vec<lsp::TypeHierarchyItem> = types
        .iter()
        .filter(|t| t["depth"].as_u64() == Some(1))
        .filter_map(|t| {
            let (fqn, file) = (t["fqn"].as_str()?, t["file"].as_str()?);
            let from = t["startLine"].as_u64()? as u32;
            let to = t["endLine"].as_u64().map_or(from, |l| l as u32);
            s.item(fqn, t["kind"].as_str().unwrap_or("class"), file, from, to).map(Item::type_item)
        })
        .collect();
    Ok(serde_json::to_value(items).unwrap_or(Value::Null))
}

/// The call hierarchy's item at a position: the method or constructor `show_definition`
/// answers there, declared in the workspace.
pub(crate) fn prepare_call_hierarchy(s: &mut Server, p: lsp::CallHierarchyPrepareParams) -> Reply {
    let Some(at) = s.at(&p.text_document_position_params) else { return Ok(Value::Null) };
    let items: Vec<lsp::CallHierarchyItem> = call_items_at(s, &at).into_iter().map(Item::call_item).collect();
    Ok(if items.is_empty() { Value::Null } else { json!(items) })
}

fn call_items_at(s: &Server, at: &At) -> Vec<Item> {
    let mut args = at.args();
    args.insert("symbol".into(), json!(at.word));
    let Ok(v) = s.call("show_definition", Value::Object(args)) else { return Vec::new() };
    v["definitions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| matches!(d["kind"].as_str(), Some("method" | "constructor")))
        .filter_map(|d| {
            let (key, file) = (d["qualifiedName"].as_str()?, d["file"].as_str()?);
            let from = d["startLine"].as_u64()? as u32;
            let to = d["endLine"].as_u64().map_or(from, |l| l as u32);
            s.item(key, d["kind"].as_str().unwrap_or("method"), file, from, to)
        })
        .collect()
}

/// The call sites of one `call_hierarchy` entry, each the called name's width from its column,
/// in the open buffer of the file they are in (`map`; those on lines it changed left out).
fn sites(call: &Value, width: u32, map: &LineMap) -> Vec<Range> {
    call["sites"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|site| {
            let line = site["line"].as_u64()?.saturating_sub(1) as u32;
            let character = site["column"].as_u64()?.saturating_sub(1) as u32;
            let start = Position { line, character };
            map.range_to_buffer(Range { start, end: Position { line, character: character + width } })
        })
        .collect()
}

/// The item of a caller or callee of a `call_hierarchy` answer, declared in the workspace.
fn call_entry_item(s: &Server, call: &Value) -> Option<Item> {
    let (key, file) = (call["member"].as_str()?, call["file"].as_str()?);
    let from = call["line"].as_u64()? as u32;
    // The answer gives a member's first line: its declaration, through the name's line.
    s.item(key, call["kind"].as_str().unwrap_or("method"), file, from, from)
}

pub(crate) fn incoming_calls(s: &mut Server, p: lsp::CallHierarchyIncomingCallsParams) -> Reply {
    let target = target_of(&p.item.data)?;
    let width = simple_name(&target).encode_utf16().count() as u32;
    let args = json!({"target": target, "direction": "incoming", "depth": 1, "limit": 1000});
    let calls = all_pages(s, "call_hierarchy", args, "calls").map_err(|e| (ErrorCode::RequestFailed, e))?;
    let out: Vec<lsp::CallHierarchyIncomingCall> = calls
        .iter()
        .filter_map(|c| {
            // The sites are in the caller's file.
            let map = s.host.resolve(c["file"].as_str()?).map(|r| s.line_map(&r.path)).ok()?;
            let from = call_entry_item(s, c)?.call_item();
            Some(lsp::CallHierarchyIncomingCall { from, from_ranges: sites(c, width, &map) })
        })
        .collect();
    Ok(serde_json::to_value(out).unwrap_or(Value::Null))
}

pub(crate) fn outgoing_calls(s: &mut Server, p: lsp::CallHierarchyOutgoingCallsParams) -> Reply {
    let target = target_of(&p.item.data)?;
    let args = json!({"target": target, "direction": "outgoing", "depth": 1, "limit": 1000});
    let calls = all_pages(s, "call_hierarchy", args, "calls").map_err(|e| (ErrorCode::RequestFailed, e))?;
    // The sites are in the item's own file.
    let map = crate::uri::to_path(p.item.uri.as_str())
        .and_then(|path| s.host.resolve(&path.to_string_lossy()).ok())
        .map_or_else(LineMap::default, |r| s.line_map(&r.path));
    let out: Vec<lsp::CallHierarchyOutgoingCall> = calls
        .iter()
        .filter_map(|c| {
            let width = simple_name(c["member"].as_str()?).encode_utf16().count() as u32;
            let to = call_entry_item(s, c)?.call_item();
            Some(lsp::CallHierarchyOutgoingCall { to, from_ranges: sites(c, width, &map) })
        })
        .collect();
    Ok(serde_json::to_value(out).unwrap_or(Value::Null))
}

#[cfg(test)]
mod tests {
    #[test]
    fn simple_names_of_keys_and_qualified_names() {
        assert_eq!(super::simple_name("com.a.B#m(int, java.lang.String)"), "m");
        assert_eq!(super::simple_name("com.a.B#B(int)"), "B");
        assert_eq!(super::simple_name("com.a.B.C"), "C");
        assert_eq!(super::simple_name("Top"), "Top");
    }
}
