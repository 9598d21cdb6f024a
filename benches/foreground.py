"""Foreground first, as a real MCP client sees it (the official Python SDK, mcp==2.3.0, over
stdio): how long a search and a reference search take while the server's background pass
binds, beside the same calls on a server whose pass is off or done.

usage: target/venv/bin/python benches/foreground.py BINARY ROOT [SECONDS] [ROUNDS] [GAP_MS]
  ROOT is served with a fresh cache directory each cold run. Per round (runs alternated, so
  the machine's load falls on both alike):
  - cold, pass on: the first java_find_symbol (waits for the index), then for SECONDS
    (default 60) java_find_symbol and find_references in turn, each timed, GAP_MS (default
    0) apart: an agent's calls come seconds apart, and in those gaps the background pass runs,
    so that a call arrives while the pass is in the middle of a step (back to back, the pass
    runs only in the client's own round trips). The calls made before the pass logged its end
    (`references bound`) are also reported apart, "during the pass", with the slowest of them;
  - cold, pass off (`--no-warm-references`): the same calls, the quiet time;
  - warm restart (the cache the cold run left, completed by `index ROOT`; the watcher on, as
    by default): the first answer after the restart, then warm p50/p95 of find_references, java_find_symbol,
    type_hierarchy, call_hierarchy and show_definition.
  The machine's steal (`st` of /proc/stat over the run) is printed with the figures; each
  cold server's log (`-v`; RUST_LOG, passed on, says more: `RUST_LOG=mji_xref=debug` gives the
  pass's steps and every wait for the reference engine's locks) goes to a file whose path is
  printed (`references bound ... ms=`: how long the pass took)."""

import asyncio
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

SYMBOLS = ["toString", "get", "Builder", "parse", "Logger", "equals", "size", "Level"]


def stat_cpu():
    """(steal, total) jiffies from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return fields[7] if len(fields) > 7 else 0, sum(fields)


def ms(xs):
    if not xs:
        return "no calls"
    xs = sorted(xs)
    p = lambda q: 1000 * xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]  # noqa: E731
    return f"n {len(xs)}, p50 {p(0.5):.1f} ms, p95 {p(0.95):.1f} ms, max {1000 * xs[-1]:.1f} ms"


async def timed(client, tool, args):
    t = time.perf_counter()
    r = await client.call_tool(tool, args)
    dt = time.perf_counter() - t
    assert not r.is_error, (tool, args, r.content)
    return dt, r


def targets(root):
    """Eight types of the root to ask about, spread over its files: `package` + file name."""
    files = sorted(root.rglob("*.java"))
    out = []
    for f in files[:: max(1, len(files) // 8)]:
        m = re.search(r"^package\s+([\w.]+)\s*;", f.read_text(errors="replace"), re.M)
        if m and f.stem != "package-info" and f.stem != "module-info":
            out.append(f"{m.group(1)}.{f.stem}")
    return out[:8]


def methods(root):
    """Eight methods of the root (`pkg.Type#name`), the first declared in each of eight files."""
    files = sorted(root.rglob("*.java"))
    out = []
    for f in files[:: max(1, len(files) // 16)]:
        text = f.read_text(errors="replace")
        m = re.search(r"^package\s+([\w.]+)\s*;", text, re.M)
        d = re.search(r"^\s+(?:public|protected|private)\s+(?:static\s+)?[\w<>\[\]]+\s+(\w+)\s*\(", text, re.M)
        if m and d and d.group(1) not in ("if", "for", "while", "switch", "return", "new"):
            out.append(f"{m.group(1)}.{f.stem}#{d.group(1)}")
    return out[:8]


def pass_end(log, start_wall):
    """Seconds from the server's start to the pass's `references bound` line (its UTC time
    stamp), or None when the log has none."""
    for line in Path(log).read_text(errors="replace").splitlines():
        if "references bound" in line:
            m = re.match(r"\s*(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?)Z", re.sub(r"\x1b\[[0-9;]*m", "", line))
            if m:
                from datetime import datetime, timezone

                stamp = m.group(1)
                if "." in stamp:
                    head, frac = stamp.split(".")
                    stamp = f"{head}.{frac[:6]}"
                    fmt = "%Y-%m-%dT%H:%M:%S.%f"
                else:
                    fmt = "%Y-%m-%dT%H:%M:%S"
                t = datetime.strptime(stamp, fmt).replace(tzinfo=timezone.utc).timestamp()
                return t - start_wall
    return None


async def cold(binary, root, seconds, warm, gap):
    cache = Path(tempfile.mkdtemp(prefix="mji-fg-cache-"))
    # -v: the server's log says when the pass ends ("references bound", with its ms).
    args = ["serve", "--no-watch", "-v", "--root", str(root), "--cache-dir", str(cache)]
    if not warm:
        args.append("--no-warm-references")
    params = StdioServerParameters(command=binary, args=args, env=dict(os.environ))
    log = tempfile.NamedTemporaryFile(prefix="mji-fg-server-", suffix=".log", delete=False, mode="w")
    symbol, refs = [], []
    start = time.perf_counter()
    start_wall = time.time()
    async with Client(stdio_client(params, errlog=log), mode="legacy") as client:
        first, _ = await timed(client, "java_find_symbol", {"query": SYMBOLS[0]})
        first += time.perf_counter() - start - first
        types = targets(root)
        k = 0
        while time.perf_counter() - start < seconds:
            await asyncio.sleep(gap)
            at = time.perf_counter() - start
            dt, _ = await timed(client, "java_find_symbol", {"query": SYMBOLS[k % len(SYMBOLS)]})
            symbol.append((at, dt))
            await asyncio.sleep(gap)
            at = time.perf_counter() - start
            dt, _ = await timed(client, "find_references", {"target": types[k % len(types)], "limit": 20})
            refs.append((at, dt))
            k += 1
    log.close()
    return cache, first, symbol, refs, log.name, pass_end(log.name, start_wall)


async def warm_restart(binary, root, cache, n):
    # With the watcher, as a server runs by default: without it (`--no-watch`) every
    # cross-reference call stamps every file first (on the JDK 40-50 ms of each warm
    # find_references; the figures in docs/performance.md before issue 56's second part).
    params = StdioServerParameters(command=binary, args=["serve", "--root", str(root), "--cache-dir", str(cache)])
    out = {}
    # Found before the server starts: on the JDK their walk of 15,143 files took ~200 ms of
    # the bench's own, which the first answer's figure counted (issue 56's "380 ms").
    types = targets(root)
    calls_of = methods(root)
    start = time.perf_counter()
    async with Client(params, mode="legacy") as client:
        await client.list_tools()
        t0 = time.perf_counter()
        await timed(client, "find_references", {"target": types[0], "limit": 20})
        out["first find_references after restart (from start)"] = [time.perf_counter() - start]
        out["  of which the call"] = [time.perf_counter() - t0]
        calls = {
            "find_references": lambda k: {"target": types[k % len(types)], "limit": 20},
            "java_find_symbol": lambda k: {"query": SYMBOLS[k % len(SYMBOLS)]},
            "type_hierarchy": lambda k: {"target": types[k % len(types)]},
            "call_hierarchy": lambda k: {"target": calls_of[k % len(calls_of)]},
            "show_definition": lambda k: {"symbol": types[k % len(types)]},
        }
        for tool, make in calls.items():
            xs = []
            for k in range(n):
                try:
                    dt, _ = await timed(client, tool, make(k))
                except AssertionError as e:
                    if k == 0:
                        print(f"{tool}: {str(e)[:300]}", file=sys.stderr)
                    continue
                xs.append(dt)
            out[f"warm {tool}"] = xs
    return out


async def main(binary, root, seconds, rounds, gap):
    st0 = stat_cpu()
    for i in range(rounds):
        for warm in (True, False) if i % 2 == 0 else (False, True):
            cache, first, symbol, refs, log, end = await cold(binary, root, seconds, warm, gap)
            label = "pass on " if warm else "pass off"
            ended = "not within the run" if end is None else f"at {end:.1f} s"
            print(f"round {i} cold, {label}: first java_find_symbol {1000 * first:.0f} ms (from start); "
                  f"pass ended {ended}; calls {1000 * gap:.0f} ms apart; server log {log}")
            for what, xs in (("java_find_symbol", symbol), ("find_references ", refs)):
                early = [dt for at, dt in xs if at < first + 15]
                print(f"round {i} cold, {label}: {what} first 15 s after the index: {ms(early)}")
                print(f"round {i} cold, {label}: {what} all {seconds:.0f} s: {ms([dt for _, dt in xs])}")
                if warm:
                    during = [(at, dt) for at, dt in xs if end is None or at + dt < end]
                    slow = ", ".join(f"{1000 * dt:.0f} ms at {at:.1f} s" for at, dt in sorted(during, key=lambda x: -x[1])[:3])
                    print(f"round {i} cold, {label}: {what} during the pass: {ms([dt for _, dt in during])}; slowest {slow}")
            if warm:
                # `index DIR` binds what the cold server left unbound and writes the store, so
                # the warm figures are of a complete store.
                subprocess.run([binary, "index", str(root), "--cache-dir", str(cache)], check=True,
                               stdout=subprocess.DEVNULL)
                for what, xs in (await warm_restart(binary, root, cache, 20)).items():
                    print(f"round {i} warm: {what}: {ms(xs)}")
            shutil.rmtree(cache, ignore_errors=True)
            sys.stdout.flush()
    st1 = stat_cpu()
    steal = 100 * (st1[0] - st0[0]) / max(1, st1[1] - st0[1])
    print(f"steal over the run: {steal:.1f}%")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    asyncio.run(
        main(
            sys.argv[1],
            Path(sys.argv[2]).resolve(),
            float(sys.argv[3]) if len(sys.argv) > 3 else 60.0,
            int(sys.argv[4]) if len(sys.argv) > 4 else 1,
            float(sys.argv[5]) / 1000 if len(sys.argv) > 5 else 0.0,
        )
    )
