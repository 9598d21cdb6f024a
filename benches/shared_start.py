"""A second agent session's first answers: through `bridge` to the workspace's warm shared
server, against a fresh stdio `serve` of its own (on the same, already warm, cache). Each
session initializes, then times `find_type` (which waits for the index) and
`find_references` (which needs every file naming its target bound). Standard library only.

usage: python3 benches/shared_start.py BINARY [ROOT [TYPE TARGET]]
  ROOT defaults to target/jdk-src (TYPE ArrayList, TARGET java.util.ArrayList#trimToSize()); the cache, state and runtime directories are fresh temp
  directories (the first session fills the cache, so the fresh server starts warm)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

TYPE = sys.argv[3] if len(sys.argv) > 4 else "ArrayList"
TARGET = sys.argv[4] if len(sys.argv) > 4 else "java.util.ArrayList#trimToSize()"


class Session:
    def __init__(self, args, env):
        self.t0 = time.perf_counter()
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)
        self.next_id = 0

    def request(self, method, params):
        self.next_id += 1
        rid = self.next_id
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EOFError(f"the server closed before answering {method}")
            msg = json.loads(line)
            if msg.get("id") == rid:
                return msg

    def start(self):
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "shared-start", "version": "0"}})
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        self.proc.stdin.flush()
        return time.perf_counter() - self.t0

    def first_answers(self):
        """Seconds from spawn to: initialized, a complete find_type, a find_references."""
        init = self.start()
        while True:
            r = self.request("tools/call", {"name": "find_type", "arguments": {"pattern": TYPE}})
            if r["result"]["structuredContent"].get("index", {}).get("complete", True):
                break
            time.sleep(0.1)
        types = time.perf_counter() - self.t0
        r = self.request("tools/call", {"name": "find_references", "arguments": {"target": TARGET, "limit": 20}})
        assert not r["result"].get("isError"), r
        refs = time.perf_counter() - self.t0
        return init, types, refs

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def main(binary, root):
    tmp = tempfile.mkdtemp(prefix="mji-shared-start-")
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(tmp, "state"), XDG_RUNTIME_DIR=os.path.join(tmp, "run"))
    common = ["--root", root, "--cache-dir", os.path.join(tmp, "cache"), "--shared-idle-secs", "5"]
    first = Session([binary, "bridge", *common], env)
    cold = first.first_answers()
    print(f"first session (bridge, starts the shared server, cold cache): initialized {cold[0]:.2f} s, "
          f"find_type {cold[1]:.2f} s, find_references {cold[2]:.2f} s")
    second = Session([binary, "bridge", *common], env)
    shared = second.first_answers()
    print(f"second session through bridge (warm shared server):          initialized {shared[0]:.3f} s, "
          f"find_type {shared[1]:.3f} s, find_references {shared[2]:.3f} s")
    second.close()
    fresh = Session([binary, "serve", *common], env)
    own = fresh.first_answers()
    print(f"second session with a fresh stdio server (warm cache):        initialized {own[0]:.3f} s, "
          f"find_type {own[1]:.3f} s, find_references {own[2]:.3f} s")
    fresh.close()
    first.close()
    time.sleep(6)  # the shared server stops after its idle time
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"first answers (find_type): {own[1] / shared[1]:.0f}x faster through the shared server; "
          f"find_references {own[2] / shared[2]:.0f}x")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "target/jdk-src")
