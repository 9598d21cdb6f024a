"""A fresh command-line process answering `refs TARGET --count-only --no-daemon` on a warm
cache (issue 56: ≤ 100 ms on the whole JDK), for one or more binaries run in turn, each under
`chrt -f 10` so that other work on the machine does not take the cores.

usage: python3 benches/cli_count_only.py BINARY[,BINARY…] N CACHE[,CACHE…] [TARGET] [ENV,…]
  Each binary on its own cache (made by its own `index ROOT --cache-dir CACHE`: a binary whose
  parser differs reads another's snapshot as foreign and parses every file again), run in the
  root (`$JDK_SRC_DIR`, default target/jdk-src); TARGET defaults to java.util.HashMap#get; ENV
  (one per binary, `K=V;K=V`) is added to its environment. Prints each binary's median, min and
  max over N rounds, whether every answer was the same, and the load average."""

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

if len(sys.argv) < 4:
    sys.exit(__doc__)
bins = sys.argv[1].split(",")
n = int(sys.argv[2])
caches = sys.argv[3].split(",")
target = sys.argv[4] if len(sys.argv) > 4 else "java.util.HashMap#get"
extra = sys.argv[5].split(",") if len(sys.argv) > 5 else [""] * len(bins)
envs = [dict(os.environ, **dict(kv.split("=", 1) for kv in e.split(";") if kv)) for e in extra]
root = Path(os.environ.get("JDK_SRC_DIR", "target/jdk-src")).resolve()
times = {i: [] for i in range(len(bins))}
outs = set()
for _ in range(n):
    for i, b in enumerate(bins):
        t = time.perf_counter()
        p = subprocess.run(
            ["chrt", "-f", "10", b, "refs", target, "--count-only", "--no-daemon", "--cache-dir", caches[i]],
            cwd=root, capture_output=True, text=True, env=envs[i],
        )
        times[i].append(time.perf_counter() - t)
        outs.add(p.stdout)
for i, b in enumerate(bins):
    xs = sorted(times[i])
    print(f"{b} {extra[i]}: median {1000 * statistics.median(xs):.1f} ms, min {1000 * xs[0]:.1f}, max {1000 * xs[-1]:.1f} (n {n})")
print("same answer from every run:", len(outs) == 1, "; load average", os.getloadavg())
