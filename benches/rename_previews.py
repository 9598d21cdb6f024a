"""Rename previews as a real MCP client sees them (the official Python SDK, mcp==2.3.0, over
stdio): N methods of ROOT picked at random (seeded), each previewed through
`refactor_actions` (`action: rename`, `apply: false`), each call timed.

usage: target/venv/bin/python benches/rename_previews.py BINARY ROOT [N] [SEED]
  Picks (default N 40, SEED 32): methods declared once in their file (`pkg.Type#name`, so no
  pick names several overloads), from ROOT's files by a regular expression. Two servers, one
  after the other:
  - warm: a cache made complete by `index ROOT` (every file's references bound and stored),
    as a server has it after its background pass;
  - cold: a fresh cache with the background pass off (`--no-warm-references`): each preview
    binds the files that mention the name, and what an earlier pick bound stays bound.
  Prints the median, p95 and max of each, the slowest picks, the load average and the
  machine's steal over the run.

usage: target/venv/bin/python benches/rename_previews.py --compare BINARY_A BINARY_B ROOT [N] [SEED]
  The same picks previewed by each binary in turn, each on a warm cache its own `index` made,
  each preview's whole text (and whether it is an error) compared: prints how many differ and
  the first few, and each binary's median, p95 and max; alternated A, B by pick.
  Exits 1 when any preview differs."""

import asyncio
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

from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).parent))
from foreground import stat_cpu  # noqa: E402

DECL = re.compile(r"^\s+(?:public|protected|private|static|final|abstract|synchronized|\s)*"
                  r"(?:<[^>]*>\s*)?[\w<>\[\],.? ]+\s+(\w+)\s*\(", re.M)
SKIP = {"if", "for", "while", "switch", "return", "new", "catch", "synchronized", "else", "throw"}


def picks(root, n, seed):
    rng = random.Random(seed)
    files = sorted(root.rglob("*.java"))
    out = []
    tries = 0
    while len(out) < n and tries < n * 50:
        tries += 1
        f = files[rng.randrange(len(files))]
        if f.stem in ("package-info", "module-info"):
            continue
        text = f.read_text(errors="replace")
        pkg = re.search(r"^package\s+([\w.]+)\s*;", text, re.M)
        names = [m.group(1) for m in DECL.finditer(text) if m.group(1) not in SKIP and m.group(1) != f.stem]
        once = [x for x in names if names.count(x) == 1]
        if pkg and once:
            key = f"{pkg.group(1)}.{f.stem}#{rng.choice(once)}"
            if key not in out:
                out.append(key)
    return out


async def compare(a, b, root, n, seed):
    keys = picks(root, n, seed)
    # A cache each: a binary whose parser differs reads the other's as foreign and rebuilds it.
    caches = {x: Path(tempfile.mkdtemp(prefix="mji-rp-cmp-")) for x in (a, b)}
    for x, cache in caches.items():
        subprocess.run([x, "index", str(root), "--cache-dir", str(cache)], check=True, stdout=subprocess.DEVNULL)
    got = {a: [], b: []}
    params = lambda binary: StdioServerParameters(  # noqa: E731
        command=binary, args=["serve", "--no-watch", "--root", str(root), "--cache-dir", str(caches[binary])]
    )
    async with Client(params(a), mode="legacy") as ca, Client(params(b), mode="legacy") as cb:
        for c in (ca, cb):
            await c.call_tool("java_find_symbol", {"query": "Object"})
        for i, key in enumerate(keys):
            name = key.split("#")[1]
            args = {"action": "rename", "target": key, "newName": f"{name}Zq{i}", "apply": False}
            for binary, c in ((a, ca), (b, cb)):
                t = time.perf_counter()
                r = await c.call_tool("refactor_actions", args)
                dt = time.perf_counter() - t
                text = "\n".join(x.text for x in r.content if hasattr(x, "text"))
                got[binary].append((dt, key, r.is_error, text))
    for cache in caches.values():
        shutil.rmtree(cache, ignore_errors=True)
    differ = [ka for (_, ka, ea, ta), (_, _, eb, tb) in zip(got[a], got[b]) if (ea, ta) != (eb, tb)]
    conflicts = sum("could not be bound" in t for *_, t in got[a])
    print(f"{len(keys)} picks, {len(differ)} previews differ, {conflicts} with an unbound-call conflict: {differ[:5]}")
    for binary in (a, b):
        report(binary, [(dt, key, (t.split("\n", 1)[0][:80] if not e else "refused")) for dt, key, e, t in got[binary]])
    print(f"load average now {os.getloadavg()}")
    return 1 if differ else 0


async def previews(binary, root, cache, keys, extra):
    args = ["serve", "--no-watch", "--root", str(root), "--cache-dir", str(cache)] + extra
    params = StdioServerParameters(command=binary, args=args)
    got = []
    async with Client(params, mode="legacy") as client:
        await client.call_tool("java_find_symbol", {"query": "Object"})
        for i, key in enumerate(keys):
            name = key.split("#")[1]
            t = time.perf_counter()
            r = await client.call_tool(
                "refactor_actions", {"action": "rename", "target": key, "newName": f"{name}Zq{i}", "apply": False}
            )
            dt = time.perf_counter() - t
            text = r.content[0].text if r.content else ""
            got.append((dt, key, "refused" if r.is_error else text.split("\n", 1)[0][:80]))
    return got


def report(what, got):
    xs = sorted(dt for dt, _, _ in got)
    p = lambda q: 1000 * xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]  # noqa: E731
    print(f"{what}: n {len(xs)}, median {1000 * statistics.median(xs):.0f} ms, p95 {p(0.95):.0f} ms, max {1000 * xs[-1]:.0f} ms")
    for dt, key, head in sorted(got, key=lambda g: -g[0])[:5]:
        print(f"    {1000 * dt:.0f} ms {key}: {head}")


async def main(binary, root, n, seed):
    st0 = stat_cpu()
    keys = picks(root, n, seed)
    warm = Path(tempfile.mkdtemp(prefix="mji-rp-warm-"))
    subprocess.run([binary, "index", str(root), "--cache-dir", str(warm)], check=True, stdout=subprocess.DEVNULL)
    report("warm (every file bound)", await previews(binary, root, warm, keys, []))
    cold = Path(tempfile.mkdtemp(prefix="mji-rp-cold-"))
    report("cold (each binds what it needs)", await previews(binary, root, cold, keys, ["--no-warm-references"]))
    for d in (warm, cold):
        shutil.rmtree(d, ignore_errors=True)
    st1 = stat_cpu()
    steal = 100 * (st1[0] - st0[0]) / max(1, st1[1] - st0[1])
    print(f"load average now {os.getloadavg()}; steal over the run {steal:.1f}%")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--compare":
        if len(sys.argv) < 5:
            sys.exit(__doc__)
        rest = sys.argv[5:]
        sys.exit(
            asyncio.run(
                compare(
                    sys.argv[2],
                    sys.argv[3],
                    Path(sys.argv[4]).resolve(),
                    int(rest[0]) if rest else 40,
                    int(rest[1]) if len(rest) > 1 else 32,
                )
            )
        )
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    asyncio.run(
        main(
            sys.argv[1],
            Path(sys.argv[2]).resolve(),
            int(sys.argv[3]) if len(sys.argv) > 3 else 40,
            int(sys.argv[4]) if len(sys.argv) > 4 else 32,
        )
    )
