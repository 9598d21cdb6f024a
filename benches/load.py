"""Load: one server process on the JDK sources, 8 clients each making 1,000 mixed calls at
once over its stdio pipe (pipelined: each client keeps one request outstanding, so 8 are in
flight at any time). Every call must be answered; prints p50/p99 latency per tool and overall,
and the server's thread count and resident memory (/proc/PID/status) before and after.
Standard library only.

usage: python3 benches/load.py BINARY [JDK_SRC] [--clients N] [--calls N]
  JDK_SRC defaults to target/jdk-src (`.ci/run` unpacks it); the cache goes to a fresh temp
  directory, and the first indexing pass finishes before the load starts."""

import asyncio
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_common import Sampler, Tally, arguments, failure_of, mixed_call, proc_status, report  # noqa: E402


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
    sampler = Sampler(proc.pid, before)
    tally = Tally()

    async def client(c):
        for k in range(calls):
            tool, args = mixed_call(c, k)
            t = time.perf_counter()
            r = await s.call(tool, args)
            tally.record(tool, time.perf_counter() - t, True, failure_of(r))

    start = time.perf_counter()
    await asyncio.gather(*(client(c) for c in range(clients)))
    wall = time.perf_counter() - start
    peak_threads = sampler.stop()
    after = proc_status(proc.pid)
    proc.stdin.close()
    await proc.wait()
    logger.cancel()
    shutil.rmtree(cache, ignore_errors=True)
    return report(f"{binary} serve --root {root}", warm, "clients", clients, calls, tally, wall, before, after,
                  peak_threads)


if __name__ == "__main__":
    a = arguments(__doc__)
    sys.exit(asyncio.run(main(a.binary, a.root, a.clients, a.calls)))
