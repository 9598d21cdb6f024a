"""Load: one server process on the JDK sources, 8 clients each making 1,000 mixed calls at
once over its stdio pipe (pipelined: each client keeps one request outstanding, so 8 are in
flight at any time). Every call must be answered; prints p50/p99 latency per tool and overall,
and the server's thread count and resident memory (/proc/PID/status) before and after.
Standard library only.

usage: python3 benches/load.py BINARY [JDK_SRC] [--clients N] [--calls N]
  JDK_SRC defaults to target/jdk-src (`.ci/run` unpacks it); the cache goes to a fresh temp
  directory, and the first indexing pass finishes before the load starts."""

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

FILES = [
    "java.base/java/lang/String.java",
    "java.base/java/util/HashMap.java",
    "java.base/java/util/ArrayList.java",
    "java.base/java/util/concurrent/ConcurrentHashMap.java",
    "java.base/java/lang/Character.java",
    "java.base/java/io/File.java",
    "java.base/java/net/URI.java",
    "java.base/java/util/Collections.java",
    "java.sql/java/sql/DriverManager.java",
    "java.base/java/time/LocalDate.java",
]
TYPES = ["ArrayList", "HashMap", "String", "LocalDate", "URI", "Collections", "DriverManager", "File"]
QUALIFIED = [
    "java.util.ArrayList",
    "java.util.HashMap",
    "java.net.URI",
    "java.time.LocalDate",
    "java.sql.DriverManager",
    "java.io.File",
]
REF_TARGETS = [
    "java.util.ArrayList#trimToSize()",
    "java.util.HashMap#treeifyBin",
    "java.net.URI#parseServerAuthority()",
    "java.time.LocalDate#plusDays(long)",
    "java.sql.DriverManager#getConnection",
    "java.io.File#toPath()",
]
SYMBOLS = ["trimToSize", "treeifyBin", "getConnection", "plusDays", "parseServerAuthority", "toPath"]


def mixed_call(client: int, k: int):
    """The k-th call of a client: (tool, arguments), cycling through the tools."""
    n = client * 7919 + k
    f = FILES[n % len(FILES)]
    index = ("java_index", {"filePath": f})
    read = ("java_read_range", {"filePath": f, "startLine": 1 + (n % 50), "endLine": 60 + (n % 50)})
    symbol = ("java_find_symbol", {"rootDir": ".", "query": SYMBOLS[n % len(SYMBOLS)]})
    exact = ("find_type", {"pattern": TYPES[n % len(TYPES)]})
    wild = ("find_type", {"pattern": TYPES[n % len(TYPES)][:3] + "*"})
    definition = ("show_definition", {"symbol": QUALIFIED[n % len(QUALIFIED)]})
    deps = ("analyze_type_dependencies", {"type": QUALIFIED[n % len(QUALIFIED)]})
    # find_references parses and binds every file naming its target on each call (about a
    # second on the JDK, README), so it is one call in 16 and its targets have rare names.
    refs = ("find_references", {"target": REF_TARGETS[n % len(REF_TARGETS)], "limit": 20})
    ops = [index, exact, read, symbol, definition, wild, index, deps,
           read, exact, symbol, index, definition, wild, read, refs]
    return ops[k % len(ops)]


def proc_status(pid: int):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("Threads", "VmRSS", "VmHWM"):
                out[key] = value.strip()
    return out


class Server:
    def __init__(self, proc):
        self.proc = proc
        self.next_id = 0
        self.waiting = {}
        self.reader = asyncio.create_task(self.read())

    async def read(self):
        while True:
            line = await self.proc.stdout.readline()
            if not line:
                break
            msg = json.loads(line)
            fut = self.waiting.pop(msg.get("id"), None)
            if fut is not None and not fut.done():
                fut.set_result(msg)
        for fut in self.waiting.values():
            if not fut.done():
                fut.set_exception(EOFError("the server closed its stdout"))

    async def request(self, method, params):
        self.next_id += 1
        rid = self.next_id
        fut = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}) + "\n").encode())
        await self.proc.stdin.drain()
        return await fut

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())

    async def call(self, tool, args):
        return await self.request("tools/call", {"name": tool, "arguments": args})


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * (len(xs) - 1) + 0.5))]


async def main(binary, root, clients, calls):
    cache = tempfile.mkdtemp(prefix="mji-load-cache-")
    proc = await asyncio.create_subprocess_exec(
        binary, "serve", "--no-watch", "--root", root, "--cache-dir", cache, "--log-level", "info",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        limit=64 * 1024 * 1024,
    )
    s = Server(proc)
    await s.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "load", "version": "0"}})
    s.notify("notifications/initialized")
    t0 = time.perf_counter()
    while True:  # the first indexing pass
        r = await s.call("find_type", {"pattern": "String"})
        if r["result"]["structuredContent"].get("index", {}).get("complete", True):
            break
        await asyncio.sleep(0.2)
    # The server binds every file's references in the background after its first index pass;
    # the load starts once that is done, so the memory it keeps is not counted as growth.
    bound = asyncio.Event()

    async def read_log():
        while True:
            line = await proc.stderr.readline()
            if not line:
                return
            if b"references bound" in line:
                bound.set()

    logger = asyncio.create_task(read_log())
    await asyncio.wait_for(bound.wait(), timeout=600)
    # Warm every kind of call once.
    for k in range(8):
        await s.call(*mixed_call(0, k))
    warm = time.perf_counter() - t0
    before = proc_status(proc.pid)

    peak_threads = int(before["Threads"])
    done = False

    async def sample():
        nonlocal peak_threads
        while not done:
            peak_threads = max(peak_threads, int(proc_status(proc.pid)["Threads"]))
            await asyncio.sleep(0.05)

    sampler = asyncio.create_task(sample())
    lat = {}
    errors = {}
    answered = 0

    async def client(c):
        nonlocal answered
        for k in range(calls):
            tool, args = mixed_call(c, k)
            t = time.perf_counter()
            r = await s.call(tool, args)
            lat.setdefault(tool, []).append(time.perf_counter() - t)
            answered += 1
            if "error" in r or r["result"].get("isError"):
                errors.setdefault(tool, []).append(r.get("error") or r["result"]["content"][0]["text"][:200])

    start = time.perf_counter()
    await asyncio.gather(*(client(c) for c in range(clients)))
    wall = time.perf_counter() - start
    done = True
    await sampler
    after = proc_status(proc.pid)
    proc.stdin.close()
    await proc.wait()
    logger.cancel()
    shutil.rmtree(cache, ignore_errors=True)

    every = [x for xs in lat.values() for x in xs]
    ms = lambda x: f"{1000 * x:.1f} ms"
    print(f"server: {binary} serve --root {root} ({os.cpu_count()} cores); index, every file bound, warm-up {warm:.1f} s")
    print(f"{clients} clients x {calls} calls = {clients * calls} calls, {answered} answered, "
          f"{sum(len(e) for e in errors.values())} tool errors, {wall:.1f} s ({answered / wall:.0f} calls/s)")
    print(f"latency: p50 {ms(statistics.median(every))}, p99 {ms(pct(every, 0.99))}, max {ms(max(every))}")
    for tool, xs in sorted(lat.items()):
        print(f"  {tool:27} n={len(xs):5}  p50 {ms(statistics.median(xs)):>9}  p99 {ms(pct(xs, 0.99)):>9}")
    print(f"threads: {before['Threads']} before, {after['Threads']} after, {peak_threads} at most during the load")
    print(f"RSS: {before['VmRSS']} before, {after['VmRSS']} after (peak {after['VmHWM']})")
    for tool, es in errors.items():
        print(f"  errors from {tool}: {len(es)}, e.g. {es[0]}", file=sys.stderr)
    rss = lambda st: int(st["VmRSS"].split()[0]) / 1024
    ok = answered == clients * calls and not errors
    print(f"RSS growth {rss(after) - rss(before):.1f} MB; {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("root", nargs="?", default="target/jdk-src")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--calls", type=int, default=1000)
    a = ap.parse_args()
    sys.exit(asyncio.run(main(a.binary, a.root, a.clients, a.calls)))
