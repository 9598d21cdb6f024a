"""A cold server's `java_find_symbol` calls from the moment its index is ready, each timed as the
client sees it, with the time it was sent (issue 56: a search while the background pass
starts must not wait for it).

usage: target/venv/bin/python benches/first_calls.py BINARY ROOT [N] [--no-pass]
  Serves ROOT (`serve --no-watch -v`, a fresh cache directory; `--no-pass` adds
  `--no-warm-references`), sends a first `java_find_symbol` (it waits for the index), then N
  (default 60) more 100 ms apart, printing each one's send time from the start and its time.
  Run it without `chrt -f`: under SCHED_FIFO the server's threads inherit the policy, where
  the pass's nice value counts for nothing, and the threads linking the world at the pass's
  start keep the client and the call off both cores (one call of 2.9 s in `foreground.py`'s run
  of the twelfth part of docs/performance.md); this bench shows the same calls under the
  scheduler a server runs with."""

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

sys.path.insert(0, str(Path(__file__).parent))
from foreground import SYMBOLS, timed  # noqa: E402

if len(sys.argv) < 3:
    sys.exit(__doc__)
binary, root = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3].isdigit() else 60
no_pass = "--no-pass" in sys.argv


async def main():
    cache = tempfile.mkdtemp(prefix="mji-first-calls-")
    args = ["serve", "--no-watch", "-v", "--root", root, "--cache-dir", cache]
    if no_pass:
        args.append("--no-warm-references")
    log = tempfile.NamedTemporaryFile(prefix="mji-first-calls-", suffix=".log", delete=False, mode="w")
    start = time.perf_counter()
    params = StdioServerParameters(command=binary, args=args, env=dict(os.environ))
    times = []
    async with Client(stdio_client(params, errlog=log), mode="legacy") as client:
        dt, _ = await timed(client, "java_find_symbol", {"query": SYMBOLS[0]})
        print(f"first java_find_symbol answered {1000 * (time.perf_counter() - start):.0f} ms from the start")
        for k in range(n):
            await asyncio.sleep(0.1)
            at = time.perf_counter() - start
            dt, _ = await timed(client, "java_find_symbol", {"query": SYMBOLS[k % len(SYMBOLS)]})
            times.append(dt)
            print(f"{at:6.2f} s  {SYMBOLS[k % len(SYMBOLS)]:10s} {1000 * dt:7.1f} ms")
    xs = sorted(times)
    print(
        f"{'pass off' if no_pass else 'pass on'}: n {len(xs)}, p50 {1000 * statistics.median(xs):.1f} ms, "
        f"p95 {1000 * xs[min(len(xs) - 1, int(0.95 * (len(xs) - 1) + 0.5))]:.1f} ms, max {1000 * xs[-1]:.1f} ms; "
        f"load average {os.getloadavg()}; server log {log.name}"
    )


asyncio.run(main())
