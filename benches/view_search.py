"""`find_references` of targets no Java file names, as a real MCP client sees it (the official
Python SDK over stdio): each such call searches the workspace's view and configuration files
(`nonJava`, up to 5,000 of them). The first call of a server reads them all; later ones
(issue 56) read only the files whose word filter does not rule the words out.

usage: target/venv/bin/python benches/view_search.py BINARY ROOT [ROOT ...] --target T [--target T ...] [--calls N]
  Serves the roots (`serve -v --cache-dir NEW --root R ...`, with the watcher), waits for the
  pass's end (`references bound`) and the write and compaction after it (RUST_LOG must hold
  `mji_xref=debug`; at most 20 s), then calls find_references on each target in turn, N rounds (default 10),
  and prints the first call's time and the p50/p95/max of the others. With several BINARYs
  (`A=PATH,B=PATH`) they run one after the other; run it twice in the other order to
  alternate them."""

import asyncio
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

sys.path.insert(0, str(Path(__file__).parent))
from cold_bind import log_ms  # noqa: E402
from foreground import ms, stat_cpu  # noqa: E402


async def one(binary, roots, targets, calls):
    cache = Path(tempfile.mkdtemp(prefix="mji-view-search-"))
    args = ["serve", "-v", "--cache-dir", str(cache)]
    for r in roots:
        args += ["--root", str(r)]
    log = tempfile.NamedTemporaryFile(prefix="mji-view-search-", suffix=".log", delete=False, mode="w")
    params = StdioServerParameters(command=binary, args=args, env=dict(os.environ))
    st0 = stat_cpu()
    start = time.perf_counter()
    first, rest, searched = [], [], set()
    async with Client(stdio_client(params, errlog=log), mode="legacy") as client:
        while log_ms(log.name, "references bound") is None and time.perf_counter() - start < 900:
            await asyncio.sleep(0.2)
        # The write and compaction after the pass (a small workspace writes once and compacts
        # nothing: 20 s at most).
        bound = time.perf_counter()
        while log_ms(log.name, "compacted the reference index") is None and time.perf_counter() - bound < 20:
            await asyncio.sleep(0.2)
        for k in range(calls):
            for t in targets:
                t0 = time.perf_counter()
                r = await client.call_tool("find_references", {"target": t, "limit": 20})
                assert not r.is_error, r.content
                (first if k == 0 and not first else rest).append(time.perf_counter() - t0)
                nj = (r.structured_content or {}).get("nonJava") or {}
                searched.add((t, nj.get("searchedFiles"), nj.get("files"), nj.get("total")))
    st1 = stat_cpu()
    log.close()
    shutil.rmtree(cache, ignore_errors=True)
    steal = 100 * (st1[0] - st0[0]) / max(1, st1[1] - st0[1])
    return first, rest, searched, steal, log.name


async def main(argv):
    calls, targets, rest = 10, [], []
    it = iter(argv)
    for a in it:
        if a == "--calls":
            calls = int(next(it))
        elif a == "--target":
            targets.append(next(it))
        else:
            rest.append(a)
    if len(rest) < 2 or not targets:
        sys.exit(__doc__)
    binaries = [b.split("=", 1) if "=" in b else (b, b) for b in rest[0].split(",")]
    roots = [Path(r).resolve() for r in rest[1:]]
    for name, path in binaries:
        first, others, searched, steal, log = await one(path, roots, targets, calls)
        print(
            f"{name}: first call {1000 * first[0]:.0f} ms; the others {ms(others)}; "
            f"(target, searchedFiles, files, total) {sorted(searched)}; steal {steal:.1f}%, "
            f"load {os.getloadavg()[0]:.1f}, log {log}",
            flush=True,
        )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
