"""The first answer after a restart on a warm cache, as a real MCP client sees it (the official
Python SDK, mcp==2.3.0, over stdio), for one or more binaries, restarts alternated.

usage: target/venv/bin/python benches/restart.py ROOT RESTARTS BINARY[=CACHE] [BINARY[=CACHE]...]
  Each binary gets its own cache directory (a store is read only by the binary that wrote
  it), made warm by `index ROOT` (every file's references bound, the store written); or
  CACHE, one that binary's `index ROOT --cache-dir CACHE` made before (kept). Then,
  RESTARTS times, each binary in turn: a server started on that cache (the watcher on, as by
  default), and timed from the spawn: the `initialize` answer, the first `find_references`
  (one of eight types of ROOT, the next each restart), and a second one of another type.
  Before the restarts, a server on a one-file root gives the floor: spawn to the `initialize`
  answer and one tools/list. Prints the median and max of each, the machine's load average
  and its steal (`st` of /proc/stat) over the run."""

import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).parent))
from foreground import stat_cpu, targets  # noqa: E402


async def restart(binary, root, cache, first, second):
    params = StdioServerParameters(command=binary, args=["serve", "--root", str(root), "--cache-dir", str(cache)])
    out = {}
    start = time.perf_counter()
    async with Client(params, mode="legacy") as client:
        out["initialize answered"] = time.perf_counter() - start
        t = time.perf_counter()
        r = await client.call_tool("find_references", {"target": first, "limit": 20})
        assert not r.is_error, r.content
        out["first find_references, from the spawn"] = time.perf_counter() - start
        out["  the call alone"] = time.perf_counter() - t
        t = time.perf_counter()
        r = await client.call_tool("find_references", {"target": second, "limit": 20})
        assert not r.is_error, r.content
        out["second find_references (another type)"] = time.perf_counter() - t
    return out


async def floor(binary):
    root = Path(tempfile.mkdtemp(prefix="mji-restart-floor-"))
    (root / "Tiny.java").write_text("class Tiny {}\n")
    params = StdioServerParameters(command=binary, args=["serve", "--no-watch", "--root", str(root)])
    start = time.perf_counter()
    async with Client(params, mode="legacy") as client:
        init = time.perf_counter() - start
        await client.list_tools()
        listed = time.perf_counter() - start
    shutil.rmtree(root, ignore_errors=True)
    return init, listed


async def main(root, n, binaries):
    st0 = stat_cpu()
    caches, made = {}, []
    given = dict(a.split("=", 1) if "=" in a else (a, None) for a in binaries)
    binaries = list(given)
    for b in binaries:
        if given[b]:
            caches[b] = Path(given[b])
        else:
            cache = Path(tempfile.mkdtemp(prefix="mji-restart-cache-"))
            t = time.perf_counter()
            subprocess.run([b, "index", str(root), "--cache-dir", str(cache)], check=True, stdout=subprocess.DEVNULL)
            print(f"{b}: index {time.perf_counter() - t:.1f} s, cache {cache}")
            caches[b] = cache
            made.append(cache)
        init, listed = await floor(b)
        print(f"{b}: floor (one-file root): initialize {1000 * init:.1f} ms, first tools/list {1000 * listed:.1f} ms")
    types = targets(root)
    got = {b: {} for b in binaries}
    for i in range(n):
        for b in binaries if i % 2 == 0 else list(reversed(binaries)):
            out = await restart(b, root, caches[b], types[i % len(types)], types[(i + 1) % len(types)])
            for k, v in out.items():
                got[b].setdefault(k, []).append(v)
            sys.stdout.write(".")
            sys.stdout.flush()
    print()
    for b in binaries:
        for k, xs in got[b].items():
            print(f"{b}: {k}: median {1000 * statistics.median(xs):.1f} ms, max {1000 * max(xs):.1f} ms (n {len(xs)})")
    for cache in made:
        shutil.rmtree(cache, ignore_errors=True)
    st1 = stat_cpu()
    steal = 100 * (st1[0] - st0[0]) / max(1, st1[1] - st0[1])
    print(f"load average now {os.getloadavg()}; steal over the run {steal:.1f}%")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    asyncio.run(main(Path(sys.argv[1]).resolve(), int(sys.argv[2]), sys.argv[3:]))
