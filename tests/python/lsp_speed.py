"""Times `mcp-java-index lsp` under pygls' client on a generated 5,000-line file.

Usage: lsp_speed.py BINARY DIR

Writes DIR/Big.java (a class of 1,000 small methods, each calling the one before), starts
`lsp --root DIR`, and prints one JSON object: initialize, the first definition (which waits for
the index), then p50 and p95 over 30 requests each of definition, hover and references, and of
the syntax diagnostics published after 30 one-character incremental changes (a `(` typed in a
method body and deleted again: half of them break the syntax, half mend it), and after 10
more that add a second unclosed `(` (each deleted again, untimed) (`diagnostics_two_unclosed`: the parser's
error recovery then runs over the rest of the file), in milliseconds as the client sees them.
"""

import asyncio
import json
import os
import statistics
import sys
import time

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path


def big_java() -> str:
    lines = ["package big;", "", "public class Big {"]
    i = 0
    while len(lines) < 4997:
        prev = max(i - 1, 0)
        lines += [f"    /** Method {i}. */", f"    int m{i}(int x) {{", f"        int y = x * {i} + 1;",
                  f"        return y + m{prev}(x - 1);", "    }"]
        i += 1
    lines.append("}")
    return "\n".join(lines) + "\n"


async def main() -> None:
    binary, root = sys.argv[1], sys.argv[2]
    path = os.path.join(root, "Big.java")
    text = big_java()
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    c = LanguageClient("mji-lsp-speed", "1")
    got = {}

    @c.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(p: t.PublishDiagnosticsParams):
        got[p.version] = time.monotonic()

    t0 = time.monotonic()
    await c.start_io(binary, "lsp", "--root", root)
    await c.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities()))
    t1 = time.monotonic()
    c.initialized(t.InitializedParams())
    uri = from_fs_path(path)
    c.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri=uri, language_id="java", version=1, text=text)))
    doc = t.TextDocumentIdentifier(uri=uri)
    # `m0` in `return y + m0(x - 1);` of m1 (line 12, 0-based 11).
    await c.text_document_definition_async(t.DefinitionParams(text_document=doc, position=t.Position(11, 20)))
    t2 = time.monotonic()
    lat = {"definition": [], "hover": [], "references": [], "diagnostics": []}
    for k in range(30):
        # `mK` in `return y + mK(x - 1);` of method K+1.
        p = t.Position(11 + 5 * k, 20)
        s = time.monotonic()
        await c.text_document_definition_async(t.DefinitionParams(text_document=doc, position=p))
        lat["definition"].append(time.monotonic() - s)
        s = time.monotonic()
        await c.text_document_hover_async(t.HoverParams(text_document=doc, position=p))
        lat["hover"].append(time.monotonic() - s)
        s = time.monotonic()
        ctx = t.ReferenceContext(include_declaration=True)
        await c.text_document_references_async(t.ReferenceParams(context=ctx, text_document=doc, position=p))
        lat["references"].append(time.monotonic() - s)
    async def change(v: int, start: int, end: int, new_text: str) -> float:
        s = time.monotonic()
        change = t.TextDocumentContentChangePartial(range=t.Range(t.Position(5, start), t.Position(5, end)), text=new_text)
        c.text_document_did_change(t.DidChangeTextDocumentParams(t.VersionedTextDocumentIdentifier(uri=uri, version=v), [change]))
        while v not in got:
            await asyncio.sleep(0.001)
        return got[v] - s

    # Typing in a method body: a `(` typed (the file no longer parses: one error), then deleted
    # (it parses again), 15 times each.
    for v in range(2, 32):
        if v % 2 == 0:
            lat["diagnostics"].append(await change(v, 4, 4, "("))
        else:
            lat["diagnostics"].append(await change(v, 4, 5, ""))
    # A second unclosed `(` on the same line: tree-sitter's error recovery then runs to the end
    # of the file (one error node over the 4,990 lines after it), on every parse of that text.
    lat["diagnostics_two_unclosed"] = []
    await change(32, 4, 4, "(")
    for v in range(33, 53):
        if v % 2 == 1:
            lat["diagnostics_two_unclosed"].append(await change(v, 4, 4, "("))
        else:
            await change(v, 4, 5, "")
    await c.shutdown_async(None)
    c.exit(None)
    await c.stop()

    def ms(x: float) -> float:
        return round(x * 1000, 1)

    out = {"initialize_ms": ms(t1 - t0), "first_definition_ms": ms(t2 - t1)}
    for k, v in lat.items():
        v = sorted(v)
        out[k + "_p50_ms"] = ms(statistics.median(v))
        out[k + "_p95_ms"] = ms(v[int(0.95 * (len(v) - 1))])
    print(json.dumps(out))


asyncio.run(main())
