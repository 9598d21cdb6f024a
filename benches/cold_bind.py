"""A cold server's background pass with no call waiting, as a real MCP client starts it (the
official Python SDK, mcp==2.3.0, over stdio): how long the index and the pass take, the
server's peak RSS, and `find_references` p50/p95 once the pass is done.

usage: target/venv/bin/python benches/cold_bind.py BINARY ROOT [ROOT ...] [--rounds N] [--calls N] [--watch] [--settle] [--perf OUT] [--cache DIR]
  Each round serves the roots (`serve --no-watch -v --root R ...`; with `--watch`, with the
  file watcher a server has by default, so a call after the pass stamps no file) with a fresh cache
  directory, sends `initialize` and nothing else until the server's log says
  `references bound` (the pass's end, with its `ms`: the issue 56 "cold bind"), then makes
  `--calls` (default 40) find_references calls over eight types of each root and reports
  their p50/p95 (with `--settle` and `mji_xref=debug` in RUST_LOG, only once the write and compaction after the pass are done:
  the calls' own time). The peak RSS is read at the pass's end, after the calls, and once the
  write and compaction after the pass are done (up to 120 s after the calls, under
  `mji_xref=debug`: the write waits while calls run). With several BINARYs (`A=PATH,B=PATH` as BINARY) the rounds alternate
  them, so the machine's load falls on both alike. With `--perf OUT`, `perf record -F 499
  --call-graph dwarf` follows the server through the calls (and nothing else) into
  `OUT.<binary>.<round>`, for `perf report -i`. With `--cache DIR`, every server uses DIR
  (`DIR/<binary>`, made if missing and kept): the first round is cold, the next warm restarts. The machine's steal (`st` of
  /proc/stat over each round) and load average are printed beside each figure; under
  `RUST_LOG=info,mji_xref=debug`, so are the pass's phases (the world, the binding steps, the
  writes during the pass, the write and compaction after it)."""

import asyncio
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

sys.path.insert(0, str(Path(__file__).parent))
from foreground import stat_cpu, targets  # noqa: E402


def children_of(pid):
    """The pids of `pid`'s children (Linux)."""
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def peak_rss_mb(pid):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def log_ms(log, what):
    """The `ms=` of the first log line containing `what`, or None."""
    for line in Path(log).read_text(errors="replace").splitlines():
        line = re.sub(r"\x1b\[[0-9;]*m", "", line)
        if what in line:
            m = re.search(r"\bms=(\d+)", line)
            if m:
                return int(m.group(1))
    return None


def phases(log):
    """Where the pass's time went, from the `mji_xref` debug lines (`RUST_LOG=info,mji_xref=debug`):
    the world's first read and link, the binding steps, the writes during the pass and the world
    taken again after them, then the write and compaction after the pass (all ms)."""
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in Path(log).read_text(errors="replace").splitlines()]
    end = next((i for i, line in enumerate(lines) if "references bound" in line), None)
    if end is None:
        return {}

    def ms(what, part):
        return [int(m.group(1)) for line in part if what in line for m in [re.search(r"\bms=(\d+)", line)] if m]

    world = ms("background pass: world taken", lines[:end])
    writes = ms("wrote the reference index", lines[:end])
    return {
        "world ms": world[0] if world else None,
        "world again ms": sum(world[1:]),
        "binding steps ms": sum(ms("background pass: step bound", lines[:end])),
        "writes during the pass": len(writes),
        "their ms": sum(writes),
        "write after the pass ms": next(iter(ms("wrote the reference index", lines[end:])), None),
        "compaction ms": next(iter(ms("compacted the reference index", lines[end:])), None),
        # Waits for the reference engine's locks after the pass (by calls or the keeper), longest first.
        "lock waits after the pass ms": sorted(ms("waited for the reference engine's lock", lines[end:]), reverse=True)[:4],
    }


def pct(xs, q):
    xs = sorted(xs)
    return 1000 * xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]


async def one(binary, roots, calls, watch=False, settle=False, perf=None, keep=None):
    cache = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="mji-cold-bind-"))
    cache.mkdir(parents=True, exist_ok=True)
    args = ["serve", *([] if watch else ["--no-watch"]), "-v", "--cache-dir", str(cache)]
    for r in roots:
        args += ["--root", str(r)]
    log = tempfile.NamedTemporaryFile(prefix="mji-cold-bind-", suffix=".log", delete=False, mode="w")
    params = StdioServerParameters(command=binary, args=args, env=dict(os.environ))
    before = set(children_of(os.getpid()))
    st0 = stat_cpu()
    start = time.perf_counter()
    out = {}
    async with Client(stdio_client(params, errlog=log), mode="legacy") as client:
        server = next(iter(set(children_of(os.getpid())) - before), None)
        while log_ms(log.name, "references bound") is None:
            await asyncio.sleep(0.2)
            if time.perf_counter() - start > 900:
                break
        out["pass end from start s"] = time.perf_counter() - start
        out["peak RSS MB after the pass"] = peak_rss_mb(server) if server else None
        if settle and "mji_xref" in os.environ.get("RUST_LOG", ""):
            # The calls after the write and compaction that follow the pass: their own time.
            while log_ms(log.name, "compacted the reference index") is None and time.perf_counter() - start < 900:
                await asyncio.sleep(0.2)
        types = [t for r in roots for t in targets(Path(r))]
        recorder = None
        if perf and server:
            recorder = await asyncio.create_subprocess_exec(
                "perf", "record", "-F", "499", "--call-graph", "dwarf", "-p", str(server), "-o", perf,
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
            await asyncio.sleep(1.0)
        xs = []
        for k in range(calls):
            t = time.perf_counter()
            r = await client.call_tool("find_references", {"target": types[k % len(types)], "limit": 20})
            assert not r.is_error, r.content
            xs.append(time.perf_counter() - t)
        out["find_references after the pass p50 ms"] = pct(xs, 0.5)
        out["find_references after the pass p95 ms"] = pct(xs, 0.95)
        out["max ms"] = 1000 * max(xs)
        if recorder:
            recorder.send_signal(2)
            await recorder.wait()
        # The three slowest calls, as `ms@n` (the n-th call after the pass's end).
        slow = sorted(range(len(xs)), key=lambda k: -xs[k])[:3]
        out["slowest"] = " ".join(f"{1000 * xs[k]:.0f}@{k}({types[k % len(types)].rsplit('.', 1)[-1]})" for k in slow)
        out["peak RSS MB"] = peak_rss_mb(server) if server else None
        # The write after the pass waits while calls run: its peak once it is done.
        waited = time.perf_counter()
        while "mji_xref" in os.environ.get("RUST_LOG", "") and log_ms(log.name, "compacted the reference index") is None and time.perf_counter() - waited < 120:
            await asyncio.sleep(0.2)
        out["peak RSS MB through the write"] = peak_rss_mb(server) if server else None
    st1 = stat_cpu()
    log.close()
    out["index ms"] = log_ms(log.name, "workspace indexed")
    out["pass ms (references bound)"] = log_ms(log.name, "references bound")
    out.update(phases(log.name))
    out["steal %"] = 100 * (st1[0] - st0[0]) / max(1, st1[1] - st0[1])
    out["load average"] = os.getloadavg()[0]
    out["log"] = log.name
    if not keep:
        shutil.rmtree(cache, ignore_errors=True)
    return out


async def main(argv):
    rounds, calls, watch, settle, perf, keep, rest = 1, 40, False, False, None, None, []
    it = iter(argv)
    for a in it:
        if a == "--watch":
            watch = True
        elif a == "--settle":
            settle = True
        elif a == "--rounds":
            rounds = int(next(it))
        elif a == "--cache":
            keep = next(it)
        elif a == "--perf":
            perf = next(it)
        elif a == "--calls":
            calls = int(next(it))
        else:
            rest.append(a)
    if len(rest) < 2:
        sys.exit(__doc__)
    binaries = [b.split("=", 1) if "=" in b else (b, b) for b in rest[0].split(",")]
    roots = [Path(r).resolve() for r in rest[1:]]
    results = {}
    for i in range(rounds):
        for name, path in binaries if i % 2 == 0 else binaries[::-1]:
            r = await one(path, roots, calls, watch, settle, perf and f"{perf}.{name}.{i}", keep and f"{keep}/{name}")
            results.setdefault(name, []).append(r)
            shown = ", ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}" for k, v in r.items())
            print(f"round {i} {name}: {shown}", flush=True)
    for name, rs in results.items():
        bound = [r["pass ms (references bound)"] for r in rs if r["pass ms (references bound)"] is not None]
        if bound:
            print(f"{name}: pass median {statistics.median(bound) / 1000:.1f} s over {len(bound)} rounds")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
