"""The command line's answer time as a whole process (issue 38): each query command run the way
a shell runs it, on a warm cache, answered in its own process (`--no-daemon`) and by the
workspace's running shared server, beside ctags' `readtags` for the name lookups.

usage: python3 benches/cli_latency.py BINARY [ROOT] [N]
  ROOT (default target/corpus/commons-lang3) is copied to a temporary directory; N targets
  (default 30) of each kind are drawn from its classes and methods with a fixed seed (7).
  Prints p50 and p95 in milliseconds of: `types NAME`, `find NAME`, `refs pkg.Class#method
  --count-only`, each in process and through the shared server, and `readtags NAME`."""

import os
import random
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
    """N class names and N `pkg.Class#method` targets, from ctags' listing of ROOT."""
    out = subprocess.run(
        ["ctags", "-R", "-f", "-", "--languages=Java", "--kinds-Java=cm", "--fields=+Ks", str(root)],
        capture_output=True, text=True, check=True).stdout
    packages, classes, methods = {}, set(), set()
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
        if kind == "class" and "$" not in name and scope is None:
            classes.add(name)
        elif kind == "method" and scope and "." not in scope and packages[path]:
            methods.add(f"{packages[path]}.{scope}#{name}")
    rng = random.Random(7)
    return rng.sample(sorted(classes), min(n, len(classes))), rng.sample(sorted(methods), min(n, len(methods)))


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
    subprocess.run([binary, "index", str(root)], env=env, stdout=subprocess.DEVNULL, check=True)
    classes, methods = targets(root, n)
    subprocess.run(["ctags", "-R", "-f", str(tmp / "tags"), "--languages=Java", str(root)], check=True)
    queries = {
        "types": [["types", c] for c in classes],
        "find": [["find", c] for c in classes],
        "refs": [["refs", m, "--count-only"] for m in methods],
    }
    # In process: warm the reference store first (one pass binds and keeps every file).
    subprocess.run([binary, "refs", methods[0], "--count-only", "--no-daemon"], cwd=root, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = []
    for kind, qs in queries.items():
        rows.append((f"{kind} (own process)", [timed([binary, *q, "--no-daemon"], root, env) for q in qs]))
    server = subprocess.Popen([binary, "serve", "--shared", "--root", str(root)], env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        while not any((tmp / "run" / "mcp-java-index").glob("server-*.json")):
            if time.time() > deadline:
                sys.exit("the shared server did not register")
            time.sleep(0.2)
        for q in queries["refs"]:  # the server binds in the background: wait for every answer once
            subprocess.run([binary, *q], cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for kind, qs in queries.items():
            rows.append((f"{kind} (shared server)", [timed([binary, *q], root, env) for q in qs]))
    finally:
        server.terminate()
        server.wait()
    rows.append(("readtags NAME", [timed(["readtags", "-t", str(tmp / "tags"), c], root, env) for c in classes]))
    print(f"{source}: {len(classes)} classes, {len(methods)} methods (seed 7); ms")
    for name, ts in rows:
        p50, p95 = percentiles(ts)
        print(f"  {name:26} p50 {p50:7.1f}  p95 {p95:7.1f}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "target/corpus/commons-lang3",
         int(sys.argv[3]) if len(sys.argv) > 3 else 30)
