"""Load over Streamable HTTP: one `serve --http` process, 8 clients each in its own MCP
session (its own keep-alive connection) making 1,000 mixed calls at once (the calls of
benches/load.py; each client keeps one request outstanding, so 8 are in flight). Every call
must be answered; prints p50/p99 latency per tool and overall, and the server's thread count
and resident memory (/proc/PID/status) before and after. Standard library only.

usage: python3 benches/http_load.py BINARY [ROOT] [--clients N] [--calls N]
  ROOT defaults to target/jdk-src; the cache and the token go to fresh temp directories, and
  the load starts once the server has indexed and bound every file."""

import atexit
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_common import Sampler, Tally, arguments, failure_of, mixed_call, proc_status, report  # noqa: E402


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
        try:
            self.conn.request("POST", "/mcp", body=json.dumps(msg), headers=self.headers)
        except (BrokenPipeError, ConnectionResetError):
            # The server closes a keep-alive connection idle for 30 s (hyper's header read
            # timeout), e.g. while the first session waits for every file to be bound.
            self.conn.close()
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
    # A network server outlives a failed script (a stdio one sees its pipe close): stop it.
    atexit.register(lambda: proc.poll() is None and proc.kill())
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
    sampler = Sampler(proc.pid, before)
    tally = Tally()

    def client(c):
        s = Session(port, token)
        for k in range(calls):
            tool, args = mixed_call(c, k)
            t = time.perf_counter()
            try:
                r = s.call(tool, args)
                failure = failure_of(r)
            except Exception as e:  # a transport failure is an unanswered call
                failure, r = f"transport: {e}", None
            tally.record(tool, time.perf_counter() - t, r is not None, failure)

    start = time.perf_counter()
    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    peak_threads = sampler.stop()
    after = proc_status(proc.pid)
    proc.terminate()
    proc.wait()
    shutil.rmtree(tmp, ignore_errors=True)
    return report(f"{binary} serve --http --root {root}", warm, "HTTP sessions", clients, calls, tally, wall,
                  before, after, peak_threads)


if __name__ == "__main__":
    a = arguments(__doc__)
    sys.exit(main(a.binary, a.root, a.clients, a.calls))
