"""The command line's answer time as a whole process (issue 38): each query command run the way
a shell runs it, on a warm cache (`index DIR` first, which also binds every file's references),
answered in its own process (`--no-daemon`) and by the workspace's running shared server, beside
the same call timed inside one connection to that server (the server's own time) and ctags'
`readtags` for the name lookups.

usage: python3 benches/cli_latency.py BINARY [ROOT] [N]
  ROOT (default target/corpus/commons-lang3) is copied to a temporary directory; N targets
  (default 30) of each kind are drawn from its classes, methods and files with a fixed seed (7).
  Prints p50 and p95 in milliseconds of `types NAME`, `find NAME`, `def NAME`, `hierarchy
  pkg.Class`, `refs pkg.Class#method --count-only`, `callers pkg.Class#method`, `range FILE 1
  40` and `index FILE` (the outline, always in process), each in process, through the shared
  server, and as the server's own call; and `readtags NAME`, the binary's `--version` and a
  `find` that stats every Java file (the floors of an answer in its own process)."""

import json
import os
import random
import socket
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def percentiles(ts):
    ts = sorted(ts)
    return statistics.median(ts) * 1000, ts[min(len(ts) - 1, int(len(ts) * 0.95))] * 1000


def targets(root: Path, n: int):
    """N class names with their qualified names, N `pkg.Class#method` targets and N Java files
    (relative to ROOT), from ctags' listing of ROOT."""
    out = subprocess.run(
        ["ctags", "-R", "-f", "-", "--languages=Java", "--kinds-Java=cm", "--fields=+Ks", str(root)],
        capture_output=True, text=True, check=True).stdout
    packages, classes, methods = {}, {}, set()
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) < 4:
            continue
        name, path = parts[0], parts[1]
        if path not in packages:
            m = re.search(r"^package\s+([\w.]+)\s*;", Path(path).read_text(errors="replace"), re.M)
            packages[path] = m.group(1) if m else ""
        kind = next((p for p in parts[3:] if p in ("class", "method")), None)
        scope = next((p.split(":", 1)[1] for p in parts[3:] if p.startswith("class:")), None)
        if kind == "class" and "$" not in name and scope is None and packages[path]:
            classes.setdefault(name, f"{packages[path]}.{name}")
        elif kind == "method" and scope and "." not in scope and packages[path]:
            methods.add(f"{packages[path]}.{scope}#{name}")
    rng = random.Random(7)
    names = rng.sample(sorted(classes), min(n, len(classes)))
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*.java") if p.name != "module-info.java")
    return ([(c, classes[c]) for c in names], rng.sample(sorted(methods), min(n, len(methods))),
            rng.sample(files, min(n, len(files))))


class Server:
    """One connection to the shared server: each call timed from sending it to its answer."""

    def __init__(self, registration: Path):
        reg = json.loads(registration.read_text())
        host, port = reg["tcp"].rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.lines = self.sock.makefile("r")
        self.sock.sendall(f"Bearer {reg['token']}\n".encode())
        self.next_id = 0
        client = {"name": "cli-latency", "version": "1"}
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client})
        self.sock.sendall(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def request(self, method, params):
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.sock.sendall((json.dumps(msg) + "\n").encode())
        for line in self.lines:
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                return reply
        raise RuntimeError("the server closed the connection")

    def timed(self, tool, args):
        start = time.perf_counter()
        self.request("tools/call", {"name": tool, "arguments": args})
        return time.perf_counter() - start


def timed(cmd, cwd, env):
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(binary: str, source: str, n: int) -> None:
    binary = str(Path(binary).resolve())
    tmp = Path(tempfile.mkdtemp())
    root = tmp / "ws"
    shutil.copytree(source, root)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp / "run"), XDG_STATE_HOME=str(tmp / "state"))
    (tmp / "run").mkdir(mode=0o700)
    # The warm cache: the outline index and every file's references bound.
    subprocess.run([binary, "index", str(root)], env=env, stdout=subprocess.DEVNULL, check=True)
    classes, methods, files = targets(root, n)
    subprocess.run(["ctags", "-R", "-f", str(tmp / "tags"), "--languages=Java", str(root)], check=True)
    # Each command line, and the tool call it makes (None: not sent to a shared server).
    queries = {
        "types": [(["types", c], ("find_type", {"query": c})) for c, _ in classes],
        "find": [(["find", c], ("java_find_symbol", {"query": c, "scope": "workspace"})) for c, _ in classes],
        "def": [(["def", c], ("show_definition", {"symbol": c})) for c, _ in classes],
        "hierarchy": [(["hierarchy", q], ("type_hierarchy", {"target": q})) for _, q in classes],
        "refs": [(["refs", m, "--count-only"], ("find_references", {"target": m, "countOnly": True})) for m in methods],
        "callers": [(["callers", m], ("call_hierarchy", {"target": m, "direction": "incoming"})) for m in methods],
        "range": [(["range", f, "1", "40"], ("java_read_range", {"filePath": f, "startLine": 1, "endLine": 40}))
                  for f in files],
        "outline (index FILE)": [(["index", f], None) for f in files],
    }
    rows = []
    for kind, qs in queries.items():
        rows.append((f"{kind} (own process)", [timed([binary, *q, "--no-daemon"], root, env) for q, _ in qs]))
    server = subprocess.Popen([binary, "serve", "--shared", "--root", str(root)], env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        while not (regs := list((tmp / "run" / "mcp-java-index").glob("server-*.json"))):
            if time.time() > deadline:
                sys.exit("the shared server did not register")
            time.sleep(0.2)
        time.sleep(0.5)
        conn = Server(regs[0])
        for kind, qs in queries.items():  # the server indexes at start: wait for every answer once
            for _, call in qs:
                if call:
                    conn.timed(*call)
        for kind, qs in queries.items():
            if qs[0][1] is None:
                continue
            rows.append((f"{kind} (shared server)", [timed([binary, *q], root, env) for q, _ in qs]))
            rows.append((f"{kind} (server's own)", [conn.timed(*call) for _, call in qs]))
    finally:
        server.terminate()
        server.wait()
    rows.append(("readtags NAME", [timed(["readtags", "-t", str(tmp / "tags"), c], root, env) for c, _ in classes]))
    # Two floors of an answer in its own process: the binary's start (`--version`), and what
    # seeing every change since the last command costs without a running server, a walk that
    # stats every Java file (GNU find, in C, on one core).
    rows.append(("--version (process start)", [timed([binary, "--version"], root, env) for _ in classes]))
    walk = ["find", ".", "-name", "*.java", "-printf", "%s %T@\\n"]
    rows.append(("find -printf (stat walk)", [timed(walk, root, env) for _ in classes]))
    print(f"{source}: {len(classes)} classes, {len(methods)} methods, {len(files)} files (seed 7); ms")
    for name, ts in rows:
        p50, p95 = percentiles(ts)
        print(f"  {name:30} p50 {p50:7.1f}  p95 {p95:7.1f}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "target/corpus/commons-lang3",
         int(sys.argv[3]) if len(sys.argv) > 3 else 30)
