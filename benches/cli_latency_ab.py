"""Two builds of the command line side by side (issue 38): each on its own copy of ROOT (their
caches' formats may differ), warm (`index DIR` first), every query run as a whole process in
its own process (`--no-daemon`; the outline `index FILE` always is), beside the binary's
`--version` (the process's own start), the two binaries alternating per target so that the
machine's load falls on both alike. Targets and timing are `cli_latency.py`'s (seed 7).

usage: chrt -f 10 python3 benches/cli_latency_ab.py BINARY_A BINARY_B [ROOT] [N]"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cli_latency as cl  # noqa: E402


def main(bins: dict, source: str, n: int) -> None:
    tmp = Path(tempfile.mkdtemp())
    envs, roots = {}, {}
    for name, b in bins.items():
        root = tmp / name / "ws"
        shutil.copytree(source, root)
        env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp / name / "run"), XDG_STATE_HOME=str(tmp / name / "state"))
        (tmp / name / "run").mkdir(mode=0o700)
        subprocess.run([b, "index", str(root)], env=env, stdout=subprocess.DEVNULL, check=True)
        envs[name], roots[name] = env, root
    classes, methods, files = cl.targets(roots[next(iter(bins))], n)
    queries = {
        "--version (process start)": [["--version"] for _ in classes],
        "range FILE 1 40": [["range", f, "1", "40"] for f in files],
        "types": [["types", c] for c, _ in classes],
        "find": [["find", c] for c, _ in classes],
        "outline (index FILE)": [["index", f] for f in files],
        "def": [["def", c] for c, _ in classes],
        "hierarchy": [["hierarchy", q] for _, q in classes],
        "refs --count-only": [["refs", m, "--count-only"] for m in methods],
        "callers": [["callers", m] for m in methods],
    }
    print(f"{source}: {len(classes)} classes, {len(files)} files (seed 7); p50 (p95) ms")
    for kind, qs in queries.items():
        ts = {name: [] for name in bins}
        for q in qs:
            for name, b in bins.items():
                extra = [] if q[0] in ("index", "--version") else ["--no-daemon"]
                ts[name].append(cl.timed([b, *q, *extra], roots[name], envs[name]))
        cells = "; ".join(f"{name} {cl.percentiles(t)[0]:.1f} ({cl.percentiles(t)[1]:.1f})" for name, t in ts.items())
        print(f"  {kind:22} {cells}", flush=True)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    a, b = (str(Path(x).resolve()) for x in sys.argv[1:3])
    main({"A": a, "B": b}, sys.argv[3] if len(sys.argv) > 3 else "target/corpus/commons-lang3",
         int(sys.argv[4]) if len(sys.argv) > 4 else 30)
