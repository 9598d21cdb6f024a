"""What the load benchmarks share (benches/load.py over stdio, benches/http_load.py over
Streamable HTTP): the mixed calls every client makes, the server's /proc status, a sampler of
its thread count, the tally of latencies and errors, the report and the command line. Standard
library only."""

import argparse
import os
import statistics
import sys
import threading

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


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * (len(xs) - 1) + 0.5))]




class Sampler:
    """The server's most threads while the load runs, sampled every 50 ms on a thread of its own
    (so it works beside asyncio and beside client threads alike)."""

    def __init__(self, pid: int, before):
        self.pid = pid
        self.peak = int(before["Threads"])
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.done.is_set():
            try:
                self.peak = max(self.peak, int(proc_status(self.pid)["Threads"]))
            except (OSError, KeyError, ValueError):
                return  # the server is gone
            self.done.wait(0.05)

    def stop(self) -> int:
        self.done.set()
        self.thread.join()
        return self.peak


class Tally:
    """Latencies per tool, failed calls per tool and the calls answered; safe from threads."""

    def __init__(self):
        self.lat, self.errors, self.answered = {}, {}, 0
        self.lock = threading.Lock()

    def record(self, tool: str, seconds: float, answered: bool, failure=None):
        with self.lock:
            self.lat.setdefault(tool, []).append(seconds)
            if answered:
                self.answered += 1
            if failure:
                self.errors.setdefault(tool, []).append(failure)


def failure_of(r):
    """Why an answer failed (a JSON-RPC error or a tool error's text), or None."""
    if "error" in r:
        return r["error"]
    if r["result"].get("isError"):
        return r["result"]["content"][0]["text"][:200]
    return None


def report(server: str, warm: float, unit: str, clients: int, calls: int, tally: Tally, wall: float,
           before, after, peak_threads: int) -> int:
    """Prints the load's report; the exit code: 0 when every call was answered without error."""
    every = [x for xs in tally.lat.values() for x in xs]
    ms = lambda x: f"{1000 * x:.1f} ms"
    n = tally.answered
    print(f"server: {server} ({os.cpu_count()} cores); index, every file bound, warm-up {warm:.1f} s")
    print(f"{clients} {unit} x {calls} calls = {clients * calls} calls, {n} answered, "
          f"{sum(len(e) for e in tally.errors.values())} errors, {wall:.1f} s ({n / wall:.0f} calls/s)")
    print(f"latency: p50 {ms(statistics.median(every))}, p99 {ms(pct(every, 0.99))}, max {ms(max(every))}")
    for tool, xs in sorted(tally.lat.items()):
        print(f"  {tool:27} n={len(xs):5}  p50 {ms(statistics.median(xs)):>9}  p99 {ms(pct(xs, 0.99)):>9}")
    print(f"threads: {before['Threads']} before, {after['Threads']} after, {peak_threads} at most during the load")
    print(f"RSS: {before['VmRSS']} before, {after['VmRSS']} after (peak {after['VmHWM']})")
    for tool, es in tally.errors.items():
        print(f"  errors from {tool}: {len(es)}, e.g. {es[0]}", file=sys.stderr)
    rss = lambda st: int(st["VmRSS"].split()[0]) / 1024
    ok = n == clients * calls and not tally.errors
    print(f"RSS growth {rss(after) - rss(before):.1f} MB; {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


def arguments(doc: str):
    """The command line both benchmarks take: BINARY [ROOT] [--clients N] [--calls N]."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("root", nargs="?", default="target/jdk-src")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--calls", type=int, default=1000)
    return ap.parse_args()
