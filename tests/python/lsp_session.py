"""Drives `mcp-java-index lsp` with pygls' language client (lsprotocol types) through a list of
steps, as an editor does, for tests/it/shells/lsp.rs.

Usage: lsp_session.py BINARY ROOT STEPS.json

Each step (FILE is relative to ROOT; positions are 0-based, UTF-16):
  {"capabilities": true, "key": KEY}              keeps the server's capabilities (initialize's answer)
  {"open": FILE}                                  didOpen with the file's text (version 1)
  {"change": FILE, "version": N, "edits": [[L0, C0, L1, C1, TEXT], ...]}   one incremental didChange
  {"change": FILE, "version": N, "full": TEXT}    one full didChange
  {"save": FILE}                                  didSave (the client wrote the file before)
  {"close": FILE}                                 didClose
  {"write": FILE, "text": TEXT}                   writes the file (as the editor's save does)
  {"ask": METHOD, "file": FILE, "at": [L, C], "key": KEY, ...}   a request, its result kept as KEY:
      definition, typeDefinition, references (with the declaration), hover, documentSymbol, foldingRange,
      codeAction ("range": [L0, C0, L1, C1], "only": [KIND...], the diagnostics published last
      for FILE attached), codeActionResolve ("action": KEY of a codeAction answer, "title": T),
      diagnostic (textDocument/diagnostic), implementation, supertypes and subtypes (prepareTypeHierarchy,
      then typeHierarchy/supertypes or /subtypes of its first item), incomingCalls and outgoingCalls (prepareCallHierarchy,
      then the calls of its first item), rename ("newName": N; the WorkspaceEdit kept, not applied),
      selectionRange, codeLens, executeCommand ("command": C, "arguments": [...])
  {"apply": KEY, "title": T} or {"apply": KEY, "kind": K}   applies the edit of the code action
      titled T (or the first of kind K) of the answer KEY (resolved first when it has none) to the
      files, as the client does, then sends each open buffer it edited (full didChange, didSave)
  {"applyEdit": KEY}                              applies the WorkspaceEdit kept as KEY (a rename's
      answer) to the files, as the client does, then sends each open buffer it edited
  {"diagnostics": FILE, "version": N, "key": KEY, "until": SOURCE}  waits for the
      publishDiagnostics of version N (of any version when N is null; with "until", the first
      holding a diagnostic of that source) and keeps them
  {"cancelBoth": FILE, "at": [L, C], "key": KEY}   sends textDocument/diagnostic (slow: javac) and
      a hover at the position behind it, cancels both ($/cancelRequest: the hover's first) at once, and keeps how
      each ended ("answered" or the error)
Prints one JSON object: every kept answer, an "error: ..." string where a request failed, and
"messages": the window/showMessage notifications received.
"""

import asyncio
import json
import os
import sys
import time

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace.text_document import TextDocument


def apply_workspace_edit(edit: t.WorkspaceEdit) -> list:
    """Applies an edit's documentChanges (or changes) to the files on disk, as an editor applies
    a workspace edit; returns what it did."""
    done = []
    changes = list(edit.document_changes or [])
    for uri, edits in (edit.changes or {}).items():
        changes.append(t.TextDocumentEdit(t.OptionalVersionedTextDocumentIdentifier(uri=uri), edits))
    for change in changes:
        if isinstance(change, t.TextDocumentEdit):
            path = to_fs_path(change.text_document.uri)
            with open(path, encoding="utf-8", newline="") as f:
                doc = TextDocument(change.text_document.uri, f.read())
            edits = sorted(change.edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True)
            for e in edits:
                doc.apply_change(t.TextDocumentContentChangePartial(range=e.range, text=e.new_text))
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(doc.source)
            done.append({"edited": path, "edits": len(edits)})
        elif isinstance(change, t.RenameFile):
            os.rename(to_fs_path(change.old_uri), to_fs_path(change.new_uri))
            done.append({"renamed": to_fs_path(change.old_uri), "to": to_fs_path(change.new_uri)})
        elif isinstance(change, t.CreateFile):
            path = to_fs_path(change.uri)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "a").close()
            done.append({"created": path})
        elif isinstance(change, t.DeleteFile):
            os.remove(to_fs_path(change.uri))
            done.append({"deleted": to_fs_path(change.uri)})
    return done


async def main() -> None:
    binary, root, steps_path = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(steps_path, encoding="utf-8") as f:
        steps = json.load(f)
    client = LanguageClient("mji-lsp-session", "1")
    conv = client.protocol._converter
    out = {}
    typed = {}  # KEY -> the typed answer, for "apply" and "codeActionResolve"
    published = []  # (time received, params)
    versions = {}  # URI -> the version of each open buffer

    messages = []

    @client.feature(t.WINDOW_SHOW_MESSAGE)
    def on_message(params: t.ShowMessageParams):
        messages.append(conv.unstructure(params))

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: t.PublishDiagnosticsParams):
        published.append((time.monotonic(), params))

    def uri_of(rel):
        return from_fs_path(os.path.join(root, rel))

    await client.start_io(binary, "lsp")
    initialized = await client.initialize_async(
        t.InitializeParams(
            capabilities=t.ClientCapabilities(
                workspace=t.WorkspaceClientCapabilities(
                    workspace_edit=t.WorkspaceEditClientCapabilities(
                        document_changes=True,
                        resource_operations=[
                            t.ResourceOperationKind.Rename,
                            t.ResourceOperationKind.Create,
                            t.ResourceOperationKind.Delete,
                        ],
                    )
                ),
                text_document=t.TextDocumentClientCapabilities(
                    code_action=t.CodeActionClientCapabilities(
                        code_action_literal_support=t.ClientCodeActionLiteralOptions(
                            code_action_kind=t.ClientCodeActionKindOptions(value_set=[])
                        ),
                        resolve_support=t.ClientCodeActionResolveOptions(properties=["edit"]),
                        data_support=True,
                    )
                ),
            ),
            workspace_folders=[t.WorkspaceFolder(uri=from_fs_path(root), name="root")],
        )
    )
    client.initialized(t.InitializedParams())

    async def request(step):
        method = step["ask"]
        doc = t.TextDocumentIdentifier(uri=uri_of(step["file"])) if "file" in step else None
        pos = t.Position(*step["at"]) if "at" in step else None
        if method == "definition":
            return await client.text_document_definition_async(t.DefinitionParams(text_document=doc, position=pos))
        if method == "typeDefinition":
            return await client.text_document_type_definition_async(
                t.TypeDefinitionParams(text_document=doc, position=pos)
            )
        if method == "references":
            ctx = t.ReferenceContext(include_declaration=True)
            return await client.text_document_references_async(
                t.ReferenceParams(context=ctx, text_document=doc, position=pos)
            )
        if method == "hover":
            return await client.text_document_hover_async(t.HoverParams(text_document=doc, position=pos))
        if method == "documentSymbol":
            return await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc))
        if method == "foldingRange":
            return await client.text_document_folding_range_async(t.FoldingRangeParams(text_document=doc))
        if method == "diagnostic":
            return await client.text_document_diagnostic_async(t.DocumentDiagnosticParams(text_document=doc))
        if method == "codeAction":
            l0, c0, l1, c1 = step["range"]
            mine = [p for _, p in published if p.uri == doc.uri]
            diagnostics = mine[-1].diagnostics if mine else []
            ctx = t.CodeActionContext(diagnostics=diagnostics, only=step.get("only"))
            rng = t.Range(t.Position(l0, c0), t.Position(l1, c1))
            return await client.text_document_code_action_async(
                t.CodeActionParams(text_document=doc, range=rng, context=ctx)
            )
        if method == "implementation":
            return await client.text_document_implementation_async(
                t.ImplementationParams(text_document=doc, position=pos)
            )
        if method in ("supertypes", "subtypes"):
            items = await client.text_document_prepare_type_hierarchy_async(
                t.TypeHierarchyPrepareParams(text_document=doc, position=pos)
            )
            if not items:
                return None
            if method == "subtypes":
                return await client.type_hierarchy_subtypes_async(t.TypeHierarchySubtypesParams(item=items[0]))
            return await client.type_hierarchy_supertypes_async(t.TypeHierarchySupertypesParams(item=items[0]))
        if method in ("incomingCalls", "outgoingCalls"):
            items = await client.text_document_prepare_call_hierarchy_async(
                t.CallHierarchyPrepareParams(text_document=doc, position=pos)
            )
            if not items:
                return None
            if method == "incomingCalls":
                return await client.call_hierarchy_incoming_calls_async(t.CallHierarchyIncomingCallsParams(item=items[0]))
            return await client.call_hierarchy_outgoing_calls_async(t.CallHierarchyOutgoingCallsParams(item=items[0]))
        if method == "rename":
            return await client.text_document_rename_async(
                t.RenameParams(text_document=doc, position=pos, new_name=step["newName"])
            )
        if method == "selectionRange":
            return await client.text_document_selection_range_async(
                t.SelectionRangeParams(text_document=doc, positions=[pos])
            )
        if method == "codeLens":
            return await client.text_document_code_lens_async(t.CodeLensParams(text_document=doc))
        if method == "executeCommand":
            return await client.workspace_execute_command_async(
                t.ExecuteCommandParams(command=step["command"], arguments=step.get("arguments"))
            )
        if method == "codeActionResolve":
            action = next(a for a in typed[step["action"]] if a.title == step["title"])
            return await client.code_action_resolve_async(action)
        raise ValueError(f"unknown request {method}")

    def resync(done):
        """Sends each open buffer an applied edit changed (full didChange, then didSave)."""
        for d in done if isinstance(done, list) else []:
            path = d.get("edited")
            uri = from_fs_path(path) if path else None
            if uri in versions:
                versions[uri] += 1
                with open(path, encoding="utf-8", newline="") as f:
                    text = f.read()
                ident = t.VersionedTextDocumentIdentifier(uri=uri, version=versions[uri])
                client.text_document_did_change(
                    t.DidChangeTextDocumentParams(ident, [t.TextDocumentContentChangeWholeDocument(text=text)])
                )
                client.text_document_did_save(t.DidSaveTextDocumentParams(t.TextDocumentIdentifier(uri)))

    for step in steps:
        if "capabilities" in step:
            out[step["key"]] = conv.unstructure(initialized.capabilities)
        elif "open" in step:
            with open(os.path.join(root, step["open"]), encoding="utf-8", newline="") as f:
                text = f.read()
            item = t.TextDocumentItem(uri=uri_of(step["open"]), language_id="java", version=1, text=text)
            client.text_document_did_open(t.DidOpenTextDocumentParams(item))
            versions[item.uri] = 1
        elif "change" in step:
            ident = t.VersionedTextDocumentIdentifier(uri=uri_of(step["change"]), version=step["version"])
            versions[ident.uri] = step["version"]
            if "full" in step:
                changes = [t.TextDocumentContentChangeWholeDocument(text=step["full"])]
            else:
                changes = [
                    t.TextDocumentContentChangePartial(range=t.Range(t.Position(a, b), t.Position(c, d)), text=x)
                    for a, b, c, d, x in step["edits"]
                ]
            client.text_document_did_change(t.DidChangeTextDocumentParams(ident, changes))
        elif "close" in step:
            client.text_document_did_close(t.DidCloseTextDocumentParams(t.TextDocumentIdentifier(uri_of(step["close"]))))
        elif "save" in step:
            client.text_document_did_save(t.DidSaveTextDocumentParams(t.TextDocumentIdentifier(uri_of(step["save"]))))
        elif "write" in step:
            with open(os.path.join(root, step["write"]), "w", encoding="utf-8", newline="") as f:
                f.write(step["text"])
        elif "ask" in step:
            try:
                answer = await request(step)
                typed[step["key"]] = answer
                out[step["key"]] = conv.unstructure(answer)
            except Exception as e:  # the server's error reaches the client as an exception
                out[step["key"]] = f"error: {e}"
        elif "apply" in step:
            actions = typed[step["apply"]]
            if "title" in step:
                action = next(a for a in actions if getattr(a, "title", None) == step["title"])
            else:
                action = next(a for a in actions if getattr(a, "kind", None) == step["kind"])
            if action.edit is None:
                action = await client.code_action_resolve_async(action)
            done = apply_workspace_edit(action.edit) if action.edit else "no edit"
            out[step["apply"] + "/applied"] = done
            resync(done)
        elif "applyEdit" in step:
            done = apply_workspace_edit(typed[step["applyEdit"]])
            out[step["applyEdit"] + "/applied"] = done
            resync(done)
        elif "cancelBoth" in step:
            doc = t.TextDocumentIdentifier(uri=uri_of(step["cancelBoth"]))
            slow = client.protocol.send_request_async(
                t.TEXT_DOCUMENT_DIAGNOSTIC, t.DocumentDiagnosticParams(text_document=doc), msg_id="slow-1"
            )
            queued = client.protocol.send_request_async(
                t.TEXT_DOCUMENT_HOVER, t.HoverParams(text_document=doc, position=t.Position(*step["at"])), msg_id="queued-2"
            )
            # The queued one first: the server reads the two cancels in order, so when it sees
            # the slow one's before starting it, the hover's is seen too, and when it starts the
            # slow one first (javac: seconds), both arrive while it runs. In the other order the
            # slow one could be skipped and the hover answered before its cancel was read.
            for msg_id in ["queued-2", "slow-1"]:
                client.protocol.notify(t.CANCEL_REQUEST, t.CancelParams(id=msg_id))
            ended = {}
            for name, future in [("slow", slow), ("queued", queued)]:
                try:
                    await future
                    ended[name] = "answered"
                except Exception as e:
                    ended[name] = f"{type(e).__name__}: {e}"
            out[step["key"]] = ended
        elif "diagnostics" in step:
            uri = uri_of(step["diagnostics"])
            got = None
            for _ in range(3000):
                mine = [
                    p
                    for _, p in published
                    if p.uri == uri
                    and (step["version"] is None or p.version == step["version"])
                    and ("until" not in step or any(d.source == step["until"] for d in p.diagnostics))
                ]
                if mine:
                    got = conv.unstructure(mine[-1].diagnostics)
                    break
                await asyncio.sleep(0.01)
            out[step["key"]] = got
        else:
            raise ValueError(f"unknown step {step}")
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    out["messages"] = messages
    print(json.dumps(out))


asyncio.run(main())
