//! `prepareRename` and `rename`: the rename engine's preview (`refactor_actions` with action
//! `rename`), its planned edit read back by `editId` and sent as a `WorkspaceEdit` with
//! `documentChanges` (a renamed public type's file moved by a `RenameFile` operation). The
//! client applies it; nothing is written here.

use lsp_server::ErrorCode;
use lsp_types as lsp;
use serde_json::{Value, json};

use crate::docs::position;
use crate::nav::lsp_uri;
use crate::{Reply, Server};

pub(crate) fn prepare(s: &mut Server, p: lsp::TextDocumentPositionParams) -> Reply {
    let Some(at) = s.at(&p) else {
        return Err((ErrorCode::RequestFailed, "no name to rename here".into()));
    };
    let mut args = at.args();
    args.insert("symbol".into(), json!(at.word));
    let v = s.call("show_definition", Value::Object(args)).map_err(|e| (ErrorCode::RequestFailed, e))?;
    let defs = v["definitions"].as_array().cloned().unwrap_or_default();
    if !defs.is_empty() && defs.iter().all(|d| d["file"].is_null()) {
        return Err((
            ErrorCode::RequestFailed,
            format!("`{}` is declared in a library, not in the workspace: it cannot be renamed", at.word),
        ));
    }
    Ok(json!({"range": at.range, "placeholder": at.word}))
}

pub(crate) fn rename(s: &mut Server, p: lsp::RenameParams) -> Reply {
    let Some(at) = s.at(&p.text_document_position) else {
        return Err((ErrorCode::RequestFailed, "no name to rename here".into()));
    };
    if s.docs.get(p.text_document_position.text_document.uri.as_str()).is_some_and(|d| d.dirty) {
        return Err(unsaved(&at.path.to_string_lossy()));
    }
    let mut args = at.args();
    args.insert("action".into(), json!("rename"));
    args.insert("newName".into(), json!(p.new_name));
    let v = s.call("refactor_actions", Value::Object(args)).map_err(|e| (ErrorCode::RequestFailed, e))?;
    let conflicts: Vec<&str> = v["conflicts"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    if !conflicts.is_empty() {
        return Err((ErrorCode::RequestFailed, format!("the rename conflicts: {}", conflicts.join("; "))));
    }
    let Some(id) = v["editId"].as_str().filter(|i| !i.is_empty()) else {
        return Err((ErrorCode::RequestFailed, "the rename changes nothing".into()));
    };
    let edit = workspace_edit(s, id)?;
    Ok(serde_json::to_value(edit).unwrap_or(Value::Null))
}

/// The edit a preview of the editing tools planned (its `editId`), as a `WorkspaceEdit` with
/// `documentChanges`: each file's edits (at the versions of the client's open buffers) and a
/// `RenameFile` where a file moves. Refused when a file it edits has unsaved changes in the
/// client: the edit is planned on the saved files.
pub(crate) fn workspace_edit(s: &Server, id: &str) -> Result<lsp::WorkspaceEdit, (ErrorCode, String)> {
    let Some((edit, _)) = s.host.previews().get(id) else {
        return Err((ErrorCode::InternalError, format!("internal error: preview {id} is gone")));
    };
    let mut changes: Vec<lsp::DocumentChangeOperation> = Vec::new();
    for f in edit.files() {
        let uri = lsp_uri(&f.path).ok_or_else(|| (ErrorCode::InternalError, format!("no URI for {}", f.display)))?;
        let open = s.buffer_of(&f.path);
        if open.is_some_and(|d| d.dirty) {
            return Err(unsaved(&f.display));
        }
        let original = String::from_utf8_lossy(&f.original);
        // As the kernel plans them: in order, an edit found twice (`new Greeter(…)` is a type's
        // and a constructor's reference) made once.
        let mut planned: Vec<_> = f.edits.iter().collect();
        planned.sort_by_key(|e| (e.start, e.end));
        planned.dedup();
        let edits: Vec<lsp::OneOf<lsp::TextEdit, lsp::AnnotatedTextEdit>> = planned
            .iter()
            .map(|e| {
                let range = lsp::Range { start: position(&original, e.start), end: position(&original, e.end) };
                lsp::OneOf::Left(lsp::TextEdit { range, new_text: e.text.clone() })
            })
            .collect();
        if f.original.is_empty() && !f.path.exists() {
            // A file the edit creates (a quick fix's new class).
            changes.push(lsp::DocumentChangeOperation::Op(lsp::ResourceOp::Create(lsp::CreateFile {
                uri: uri.clone(),
                options: None,
                annotation_id: None,
            })));
        }
        if !edits.is_empty() {
            let text_document =
                lsp::OptionalVersionedTextDocumentIdentifier { uri: uri.clone(), version: open.map(|d| d.version) };
            changes.push(lsp::DocumentChangeOperation::Edit(lsp::TextDocumentEdit { text_document, edits }));
        }
        if let Some((to, display)) = &f.move_to {
            let new_uri = lsp_uri(to).ok_or_else(|| (ErrorCode::InternalError, format!("no URI for {display}")))?;
            changes.push(lsp::DocumentChangeOperation::Op(lsp::ResourceOp::Rename(lsp::RenameFile {
                old_uri: uri,
                new_uri,
                options: None,
                annotation_id: None,
            })));
        }
    }
    Ok(lsp::WorkspaceEdit {
        changes: None,
        document_changes: Some(lsp::DocumentChanges::Operations(changes)),
        change_annotations: None,
    })
}

/// The refusal of a rename that would edit a buffer with unsaved changes: the engine plans on
/// the saved files, so its positions would be wrong in the buffer.
fn unsaved(file: &str) -> (ErrorCode, String) {
    (
        ErrorCode::ContentModified,
        format!("{file} has unsaved changes: save it first (renames are planned on the saved files)"),
    )
}
