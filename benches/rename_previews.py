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
  machine's steal over the run."""

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
