"""Load over Streamable HTTP: one `serve --http` process, 8 clients each in its own MCP
session (its own keep-alive connection) making 1,000 mixed calls at once (the calls of
benches/load.py; each client keeps one request outstanding, so 8 are in flight). Every call
must be answered; prints p50/p99 latency per tool and overall, and the server's thread count
and resident memory (/proc/PID/status) before and after. Standard library only.

usage: python3 benches/http_load.py BINARY [ROOT] [--clients N] [--calls N]
  ROOT defaults to target/jdk-src; the cache and the token go to fresh temp directories, and
  the load starts once the server has indexed and bound every file."""

import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import mixed_call, pct, proc_status  # noqa: E402


class Session:
    """One MCP session over its own HTTP/1.1 connection (legacy era: initialize, session id)."""

    def __init__(self, port, token):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        self.headers = {
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        self.next_id = 0
        r = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "http-load", "version": "0"}})
        assert "result" in r, r
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def post(self, msg):
        self.conn.request("POST", "/mcp", body=json.dumps(msg), headers=self.headers)
        resp = self.conn.getresponse()
        body = resp.read().decode()
        if resp.status >= 400:
            raise RuntimeError(f"HTTP {resp.status}: {body[:200]}")
        sid = resp.getheader("mcp-session-id")
        if sid:
            self.headers["Mcp-Session-Id"] = sid
            self.headers["MCP-Protocol-Version"] = "2025-06-18"
        return body

    def request(self, method, params):
        self.next_id += 1
        rid = self.next_id
        body = self.post({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        if body.lstrip().startswith("{"):
            return json.loads(body)
        for line in body.splitlines():  # an SSE stream: the answer is one `data:` event
            if line.startswith("data:") and line[5:].strip():
                msg = json.loads(line[5:])
                if msg.get("id") == rid:
                    return msg
        raise RuntimeError(f"no answer to {method} in: {body[:300]}")

    def call(self, tool, args):
        return self.request("tools/call", {"name": tool, "arguments": args})


def main(binary, root, clients, calls):
    tmp = tempfile.mkdtemp(prefix="mji-http-load-")
    token_file = os.path.join(tmp, "token")
    proc = subprocess.Popen(
        [binary, "serve", "--http", "0", "--token-file", token_file, "--no-watch", "--root", root,
         "--cache-dir", os.path.join(tmp, "cache"), "--log-level", "info"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    port = None
    bound = threading.Event()

    def read_log():
        nonlocal port
        for line in proc.stderr:
            if line.startswith("listening: MCP Streamable HTTP at http://"):
                port = int(line.split("http://")[1].split("/")[0].rsplit(":", 1)[1])
            if "references bound" in line:
                bound.set()

    threading.Thread(target=read_log, daemon=True).start()
    t0 = time.perf_counter()
    while port is None:
        time.sleep(0.05)
    token = open(token_file).read().strip()
    first = Session(port, token)
    while True:  # the first indexing pass
        r = first.call("find_type", {"pattern": "String"})
        if r["result"]["structuredContent"].get("index", {}).get("complete", True):
            break
        time.sleep(0.2)
    bound.wait(timeout=1200)
    for k in range(16):  # warm every kind of call once
        first.call(*mixed_call(0, k))
    warm = time.perf_counter() - t0
    before = proc_status(proc.pid)
    peak_threads = int(before["Threads"])
    done = threading.Event()

    def sample():
        nonlocal peak_threads
        while not done.is_set():
            peak_threads = max(peak_threads, int(proc_status(proc.pid)["Threads"]))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    lat, errors, answered = {}, {}, [0]
    lock = threading.Lock()

    def client(c):
        s = Session(port, token)
        for k in range(calls):
            tool, args = mixed_call(c, k)
            t = time.perf_counter()
            try:
                r = s.call(tool, args)
                failed = r.get("error") or (r["result"].get("isError") and r["result"]["content"][0]["text"][:200])
            except Exception as e:  # a transport failure is an unanswered call
                failed, r = f"transport: {e}", None
            dt = time.perf_counter() - t
            with lock:
                lat.setdefault(tool, []).append(dt)
                if r is not None:
                    answered[0] += 1
                if failed:
                    errors.setdefault(tool, []).append(failed)

    start = time.perf_counter()
    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    after = proc_status(proc.pid)
    proc.terminate()
    proc.wait()
    shutil.rmtree(tmp, ignore_errors=True)

    every = [x for xs in lat.values() for x in xs]
    ms = lambda x: f"{1000 * x:.1f} ms"
    n = answered[0]
    print(f"server: {binary} serve --http --root {root} ({os.cpu_count()} cores); index, every file bound, warm-up {warm:.1f} s")
    print(f"{clients} HTTP sessions x {calls} calls = {clients * calls} calls, {n} answered, "
          f"{sum(len(e) for e in errors.values())} errors, {wall:.1f} s ({n / wall:.0f} calls/s)")
    print(f"latency: p50 {ms(statistics.median(every))}, p99 {ms(pct(every, 0.99))}, max {ms(max(every))}")
    for tool, xs in sorted(lat.items()):
        print(f"  {tool:27} n={len(xs):5}  p50 {ms(statistics.median(xs)):>9}  p99 {ms(pct(xs, 0.99)):>9}")
    print(f"threads: {before['Threads']} before, {after['Threads']} after, {peak_threads} at most during the load")
    print(f"RSS: {before['VmRSS']} before, {after['VmRSS']} after (peak {after['VmHWM']})")
    for tool, es in errors.items():
        print(f"  errors from {tool}: {len(es)}, e.g. {es[0]}", file=sys.stderr)
    rss = lambda st: int(st["VmRSS"].split()[0]) / 1024
    ok = n == clients * calls and not errors
    print(f"RSS growth {rss(after) - rss(before):.1f} MB; {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("root", nargs="?", default="target/jdk-src")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--calls", type=int, default=1000)
    a = ap.parse_args()
    sys.exit(main(a.binary, a.root, a.clients, a.calls))
