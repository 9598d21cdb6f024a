"""Times `mcp-java-index lsp` on the JDK's sources under pygls' client, run by hand.

Usage: lsp_jdk_speed.py BINARY ROOT CACHE_DIR [N]

Starts `lsp --root ROOT --cache-dir CACHE_DIR` (ROOT: e.g. the JDK's java.base sources; the
cache outside it), and prints one JSON object: initialize, then the first references answer
(`ArrayList#trimToSize`, which waits for the index and the reference engine) counted from the
start of the process, then p50 and p95 of definition, hover and references over N (default 30)
public methods declared in ArrayList, HashMap and String (at each declaration's name), in
milliseconds as the client sees them. Run it twice on one CACHE_DIR: the first run is cold (the
cache built), the second warm.

Usage: lsp_jdk_speed.py --cold BINARY ROOT ROUNDS

Issue 54's cold goal, "initialize to the first references answer ... cold <= the time to
index": ROUNDS times, rotating which goes first, `lsp` from the process's start to the first
references answer (`ArrayList#trimToSize`), `index ROOT` to its exit (the declarations indexed
and every file's references bound, what a warm cache holds), and `index ROOT
--no-warm-references` (the declarations only), each on a fresh cache directory (the same cold
state); prints one JSON object with every round's times in milliseconds and their medians.
"""

import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

FILES = ["java/util/ArrayList.java", "java/util/HashMap.java", "java/lang/String.java"]
DECL = re.compile(r"^    public (?:static |final |synchronized )*[\w<>\[\], .?]+ (\w+)\(")


def targets(root: str, n: int) -> list:
    """(uri, line, character) of the first public methods' names of FILES, round robin."""
    per_file = []
    for rel in FILES:
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        found = []
        for i, line in enumerate(lines):
            m = DECL.match(line)
            if m:
                found.append((from_fs_path(path), i, m.start(1)))
        per_file.append(found)
    out = []
    k = 0
    while len(out) < n and any(k < len(f) for f in per_file):
        out += [f[k] for f in per_file if k < len(f)]
        k += 1
    return out[:n]


def ms(x: float) -> float:
    return round(x * 1000, 1)


async def first_references(c: LanguageClient, root: str) -> list:
    """The references of `ArrayList#trimToSize` (its declaration included)."""
    arraylist = os.path.join(root, "java/util/ArrayList.java")
    with open(arraylist, encoding="utf-8") as f:
        lines = f.read().split("\n")
    line = next(i for i, l in enumerate(lines) if "public void trimToSize()" in l)
    doc = t.TextDocumentIdentifier(uri=from_fs_path(arraylist))
    ctx = t.ReferenceContext(include_declaration=True)
    pos = t.Position(line, lines[line].index("trimToSize"))
    return await c.text_document_references_async(t.ReferenceParams(context=ctx, text_document=doc, position=pos))


async def cold_lsp(binary: str, root: str, cache: str) -> tuple:
    """Milliseconds from the start of `lsp` on a cold cache to its first references answer."""
    c = LanguageClient("mji-lsp-jdk-cold", "1")
    t0 = time.monotonic()
    await c.start_io(binary, "lsp", "--root", root, "--cache-dir", cache)
    await c.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities()))
    c.initialized(t.InitializedParams())
    refs = await first_references(c, root)
    took = time.monotonic() - t0
    await c.shutdown_async(None)
    c.exit(None)
    await c.stop()
    return ms(took), len(refs or [])


def cold_index(binary: str, root: str, cache: str, *flags: str) -> float:
    """Milliseconds of `index ROOT FLAGS` on a cold cache, to the process's exit."""
    t0 = time.monotonic()
    cmd = [binary, "index", root, "--cache-dir", cache, "--compact", *flags]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return ms(time.monotonic() - t0)


async def cold_main() -> None:
    binary, root, rounds = sys.argv[2], sys.argv[3], int(sys.argv[4])
    runs = []
    for k in range(rounds):
        got = {}
        for which in [["lsp", "index", "decl"][(k + i) % 3] for i in range(3)]:
            with tempfile.TemporaryDirectory() as cache:
                if which == "lsp":
                    got["lsp_first_references_ms"], got["references"] = await cold_lsp(binary, root, cache)
                elif which == "index":
                    got["index_ms"] = cold_index(binary, root, cache)
                else:
                    got["index_no_warm_references_ms"] = cold_index(binary, root, cache, "--no-warm-references")
        runs.append(got)
    out = {"rounds": runs}
    for key in ["lsp_first_references_ms", "index_ms", "index_no_warm_references_ms"]:
        out[key.removesuffix("_ms") + "_median_ms"] = statistics.median(r[key] for r in runs)
    print(json.dumps(out))


async def main() -> None:
    binary, root, cache = sys.argv[1], sys.argv[2], sys.argv[3]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    c = LanguageClient("mji-lsp-jdk-speed", "1")
    t0 = time.monotonic()
    await c.start_io(binary, "lsp", "--root", root, "--cache-dir", cache)
    await c.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities()))
    t1 = time.monotonic()
    c.initialized(t.InitializedParams())
    first = await first_references(c, root)
    t2 = time.monotonic()
    ctx = t.ReferenceContext(include_declaration=True)
    lat = {"definition": [], "hover": [], "references": []}
    sizes = []
    slowest = []
    for uri, line, char in targets(root, n):
        d, p = t.TextDocumentIdentifier(uri=uri), t.Position(line, char)
        s = time.monotonic()
        await c.text_document_definition_async(t.DefinitionParams(text_document=d, position=p))
        lat["definition"].append(time.monotonic() - s)
        s = time.monotonic()
        await c.text_document_hover_async(t.HoverParams(text_document=d, position=p))
        lat["hover"].append(time.monotonic() - s)
        s = time.monotonic()
        refs = await c.text_document_references_async(t.ReferenceParams(context=ctx, text_document=d, position=p))
        lat["references"].append(time.monotonic() - s)
        sizes.append(len(refs or []))
        slowest.append((ms(lat["references"][-1]), len(refs or []), f"{os.path.basename(uri)}:{line + 1}"))
    await c.shutdown_async(None)
    c.exit(None)
    await c.stop()

    out = {
        "initialize_ms": ms(t1 - t0),
        "first_references_ms_from_start": ms(t2 - t0),
        "first_references": len(first or []),
        "targets": len(sizes),
        "references_per_target_median": statistics.median(sizes) if sizes else 0,
    }
    out["slowest_references"] = sorted(slowest, reverse=True)[:3]
    for k, v in lat.items():
        v = sorted(v)
        out[k + "_p50_ms"] = ms(statistics.median(v))
        out[k + "_p95_ms"] = ms(v[int(0.95 * (len(v) - 1))])
    print(json.dumps(out))


asyncio.run(cold_main() if sys.argv[1] == "--cold" else main())
