"""Drives `mcp-java-index lsp` with pygls' language client (lsprotocol types), as an editor does.

Usage: lsp_client.py BINARY ROOT PLAN.json

PLAN names the requests: {"open": FILE, "at": [LINE, CHAR] (0-based, in FILE),
"symbols": [FILE, ...], "query": "...", "newName": "...", "implementation", "typeHierarchy",
"callsFrom": [FILE, LINE, CHAR], "signatureAt": [LINE, CHAR], "typeRename": [LINE, CHAR, NAME]}. The client opens FILE, asks definition, references (with the
declaration), declaration, documentHighlight, signatureHelp at "signatureAt" (in FILE), hover, documentSymbol and foldingRange of each of
"symbols", workspace/symbol, implementation,
the type hierarchy (its root, supertypes and subtypes), incoming calls at "at", outgoing calls
at "callsFrom", prepareRename and rename at "at"; it applies the rename's WorkspaceEdit to the
files on disk with pygls' own documents (UTF-16 positions), tells the server with didSave and
didChangeWatchedFiles, then makes the buffer dirty with an incremental didChange and asks the
rename again (refused: unsaved changes); then records the syntax diagnostics published after
an incremental change that breaks the file and a full one that mends it, with the milliseconds
from each change to its diagnostics. Last, it renames the type at "typeRename" (in FILE) and applies that edit, file move included.
Prints one JSON object of every answer.
"""

import asyncio
import json
import os
import sys
import time

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path
from pygls.workspace.text_document import TextDocument


def apply_workspace_edit(edit: t.WorkspaceEdit) -> list:
    """Applies documentChanges to the files, as an editor applies a rename; returns what it did."""
    done = []
    for change in edit.document_changes or []:
        if isinstance(change, t.TextDocumentEdit):
            path = t_path(change.text_document.uri)
            with open(path, encoding="utf-8", newline="") as f:
                doc = TextDocument(change.text_document.uri, f.read())
            # The edits of one document all refer to its text before the edit: last first.
            edits = sorted(change.edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True)
            for e in edits:
                doc.apply_change(t.TextDocumentContentChangePartial(range=e.range, text=e.new_text))
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(doc.source)
            done.append({"edited": path, "edits": len(edits)})
        elif isinstance(change, t.RenameFile):
            os.rename(t_path(change.old_uri), t_path(change.new_uri))
            done.append({"renamed": t_path(change.old_uri), "to": t_path(change.new_uri)})
    return done


def t_path(uri: str) -> str:
    from pygls.uris import to_fs_path

    return to_fs_path(uri)


async def main() -> None:
    binary, root, plan_path = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    client = LanguageClient("mji-lsp-test", "1")
    conv = client.protocol._converter
    out = {}
    published = []  # (time received, params) of every publishDiagnostics

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: t.PublishDiagnosticsParams):
        published.append((time.monotonic(), params))

    async def diagnostics_of(version: int, since: float):
        for _ in range(500):
            for when, p in published:
                if p.uri == uri and p.version == version:
                    ms = round((when - since) * 1000, 1) if since else None
                    return {"ms": ms, "diagnostics": conv.unstructure(p.diagnostics)}
            await asyncio.sleep(0.01)
        return None

    # No --root: the workspace is the client's folder.
    await client.start_io(binary, "lsp")
    init = await client.initialize_async(
        t.InitializeParams(
            capabilities=t.ClientCapabilities(
                workspace=t.WorkspaceClientCapabilities(
                    workspace_edit=t.WorkspaceEditClientCapabilities(
                        document_changes=True, resource_operations=[t.ResourceOperationKind.Rename]
                    )
                )
            ),
            workspace_folders=[t.WorkspaceFolder(uri=from_fs_path(root), name="root")],
        )
    )
    out["capabilities"] = conv.unstructure(init.capabilities)
    client.initialized(t.InitializedParams())

    path = os.path.join(root, plan["open"])
    uri = from_fs_path(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(t.TextDocumentItem(uri=uri, language_id="java", version=1, text=text))
    )
    doc = t.TextDocumentIdentifier(uri=uri)
    line, char = plan["at"]
    pos = t.Position(line=line, character=char)

    out["definition"] = conv.unstructure(await client.text_document_definition_async(t.DefinitionParams(text_document=doc, position=pos)))
    out["references"] = conv.unstructure(
        await client.text_document_references_async(
            t.ReferenceParams(context=t.ReferenceContext(include_declaration=True), text_document=doc, position=pos)
        )
    )
    out["declaration"] = conv.unstructure(
        await client.text_document_declaration_async(t.DeclarationParams(text_document=doc, position=pos))
    )
    out["highlight"] = conv.unstructure(
        await client.text_document_document_highlight_async(t.DocumentHighlightParams(text_document=doc, position=pos))
    )
    out["folding"] = {}
    for rel in plan["symbols"]:
        d = t.TextDocumentIdentifier(uri=from_fs_path(os.path.join(root, rel)))
        out["folding"][rel] = conv.unstructure(
            await client.text_document_folding_range_async(t.FoldingRangeParams(text_document=d))
        )
    out["signatureHelp"] = conv.unstructure(
        await client.text_document_signature_help_async(
            t.SignatureHelpParams(text_document=doc, position=t.Position(*plan["signatureAt"]))
        )
    )
    out["hover"] = conv.unstructure(await client.text_document_hover_async(t.HoverParams(text_document=doc, position=pos)))
    out["documentSymbol"] = {}
    for rel in plan["symbols"]:
        d = t.TextDocumentIdentifier(uri=from_fs_path(os.path.join(root, rel)))
        out["documentSymbol"][rel] = conv.unstructure(
            await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=d))
        )
    out["workspaceSymbol"] = conv.unstructure(
        await client.workspace_symbol_async(t.WorkspaceSymbolParams(query=plan["query"]))
    )

    def at(spec):
        return t.TextDocumentIdentifier(uri=from_fs_path(os.path.join(root, spec[0]))), t.Position(spec[1], spec[2])

    d, p = at(plan["implementation"])
    out["implementation"] = conv.unstructure(
        await client.text_document_implementation_async(t.ImplementationParams(text_document=d, position=p))
    )
    d, p = at(plan["typeHierarchy"])
    items = await client.text_document_prepare_type_hierarchy_async(
        t.TypeHierarchyPrepareParams(text_document=d, position=p)
    )
    out["typeHierarchy"] = conv.unstructure(items)
    out["supertypes"] = conv.unstructure(
        await client.type_hierarchy_supertypes_async(t.TypeHierarchySupertypesParams(item=items[0]))
    )
    out["subtypes"] = conv.unstructure(
        await client.type_hierarchy_subtypes_async(t.TypeHierarchySubtypesParams(item=items[0]))
    )
    items = await client.text_document_prepare_call_hierarchy_async(
        t.CallHierarchyPrepareParams(text_document=doc, position=pos)
    )
    out["callHierarchy"] = conv.unstructure(items)
    out["incomingCalls"] = conv.unstructure(
        await client.call_hierarchy_incoming_calls_async(t.CallHierarchyIncomingCallsParams(item=items[0]))
    )
    d, p = at(plan["callsFrom"])
    items = await client.text_document_prepare_call_hierarchy_async(
        t.CallHierarchyPrepareParams(text_document=d, position=p)
    )
    out["outgoingCalls"] = conv.unstructure(
        await client.call_hierarchy_outgoing_calls_async(t.CallHierarchyOutgoingCallsParams(item=items[0]))
    )
    out["prepareRename"] = conv.unstructure(
        await client.text_document_prepare_rename_async(t.PrepareRenameParams(text_document=doc, position=pos))
    )
    edit = await client.text_document_rename_async(t.RenameParams(text_document=doc, position=pos, new_name=plan["newName"]))
    out["rename"] = conv.unstructure(edit)
    out["applied"] = apply_workspace_edit(edit)
    changed = [from_fs_path(c.get("edited") or c.get("to")) for c in out["applied"]]
    client.workspace_did_change_watched_files(
        t.DidChangeWatchedFilesParams(changes=[t.FileEvent(uri=u, type=t.FileChangeType.Changed) for u in changed])
    )
    with open(path, encoding="utf-8") as f:
        client.text_document_did_change(
            t.DidChangeTextDocumentParams(
                t.VersionedTextDocumentIdentifier(uri=uri, version=2),
                [t.TextDocumentContentChangeWholeDocument(text=f.read())],
            )
        )
    client.text_document_did_save(t.DidSaveTextDocumentParams(text_document=doc))
    # The references of the new name, on the renamed files.
    out["referencesAfter"] = conv.unstructure(
        await client.text_document_references_async(
            t.ReferenceParams(context=t.ReferenceContext(include_declaration=True), text_document=doc, position=pos)
        )
    )
    # An unsaved edit (incremental): a rename is refused rather than planned on the saved file.
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(uri=uri, version=3),
            [t.TextDocumentContentChangePartial(range=t.Range(t.Position(0, 0), t.Position(0, 0)), text="// x\n")],
        )
    )
    try:
        await client.text_document_rename_async(t.RenameParams(text_document=doc, position=pos, new_name="again"))
        out["dirtyRename"] = "planned"
    except Exception as e:  # the server's error reaches the client as an exception
        out["dirtyRename"] = str(e)
    # Syntax diagnostics after each change: an unclosed class typed at the top (incremental),
    # then the saved text again (full).
    out["openDiagnostics"] = await diagnostics_of(1, 0.0)
    with open(path, encoding="utf-8") as f:
        saved = f.read()
    broken = "class Broken {\n// x\n" + saved
    since = time.monotonic()
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(uri=uri, version=4),
            [t.TextDocumentContentChangePartial(range=t.Range(t.Position(0, 0), t.Position(0, 0)), text="class Broken {\n")],
        )
    )
    out["brokenText"] = broken
    out["brokenDiagnostics"] = await diagnostics_of(4, since)
    since = time.monotonic()
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(uri=uri, version=5), [t.TextDocumentContentChangeWholeDocument(text=saved)]
        )
    )
    out["fixedDiagnostics"] = await diagnostics_of(5, since)
    # A public type renamed: its file moves with it (a RenameFile operation the client applies).
    client.text_document_did_save(t.DidSaveTextDocumentParams(text_document=doc))
    line, char, new_name = plan["typeRename"]
    edit = await client.text_document_rename_async(
        t.RenameParams(text_document=doc, position=t.Position(line, char), new_name=new_name)
    )
    out["typeRename"] = conv.unstructure(edit)
    out["typeApplied"] = apply_workspace_edit(edit)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    print(json.dumps(out))


asyncio.run(main())
