#!/usr/bin/env python3
"""Indexing a mixed Java and Kotlin project, per file, against its Java alone (issue 55).

  python3 benches/kotlin_index.py BINARY ROOT [RUNS]

ROOT is a mixed project (spring-framework: `fetch github:spring-projects/spring-framework`,
its tree checked out). Its sources are copied (the index refuses a file hard-linked from outside
its roots) into three trees beside each other, one with the `.java` files only, one with the `.kt` files only and one with both, each at
its own path,
so packages and directories are as in the project. Each run times a cold `BINARY index DIR`
(a fresh cache: the outline index and the references, as the command builds them) of the Java
tree, the Kotlin tree and the whole project, alternating, and the report gives the median wall
time of each and its time per file. The goal: a Kotlin file costs no more than a Java file.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SKIP = {".git", "build", "target", "out", "node_modules", ".gradle"}


def sources(root):
    """Every .java and .kt file below ROOT, build output and VCS data left out."""
    java, kotlin = [], []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in SKIP]
        for f in files:
            p = os.path.join(d, f)
            if f.endswith(".java"):
                java.append(p)
            elif f.endswith(".kt"):
                kotlin.append(p)
    return java, kotlin


def copy_tree(root, files, dest):
    for p in files:
        q = os.path.join(dest, os.path.relpath(p, root))
        os.makedirs(os.path.dirname(q), exist_ok=True)
        shutil.copy2(p, q)


def cold_index(binary, tree, scratch, count):
    cache = tempfile.mkdtemp(dir=scratch)
    t = time.perf_counter()
    out = subprocess.run([binary, "index", tree, "--cache-dir", cache], check=True,
                         capture_output=True, text=True)
    took = time.perf_counter() - t
    shutil.rmtree(cache, ignore_errors=True)
    summary = json.loads(out.stdout)
    # Every file read and outlined: a run that read nothing is no measure.
    if summary["errors"] or summary["parsed"] != count:
        sys.exit(f"{tree}: {summary['parsed']} of {count} files parsed, {summary['errors']} errors")
    return took


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    java, kotlin = sources(root)
    if not kotlin:
        sys.exit(f"no .kt file below {root}: a mixed project is needed")
    with tempfile.TemporaryDirectory() as scratch:
        jtree, ktree = os.path.join(scratch, "java"), os.path.join(scratch, "kotlin")
        mtree = os.path.join(scratch, "mixed")
        copy_tree(root, java, jtree)
        copy_tree(root, kotlin, ktree)
        copy_tree(root, java + kotlin, mtree)
        times = {"java": [], "kotlin": [], "mixed": []}
        counts = {"java": len(java), "kotlin": len(kotlin), "mixed": len(java) + len(kotlin)}
        for _ in range(runs):
            times["java"].append(cold_index(binary, jtree, scratch, counts["java"]))
            times["kotlin"].append(cold_index(binary, ktree, scratch, counts["kotlin"]))
            times["mixed"].append(cold_index(binary, mtree, scratch, counts["mixed"]))
        print(f"{root}: {len(java)} .java, {len(kotlin)} .kt files; cold `index`, median of {runs} runs")
        per = {}
        for k in ("java", "kotlin", "mixed"):
            m = statistics.median(times[k])
            per[k] = m / counts[k] * 1e3
            runs_s = ", ".join(f"{x:.2f}" for x in times[k])
            print(f"  {k:6}: {m:6.2f} s ({runs_s}), {per[k]:.3f} ms a file")
        ratio = per["kotlin"] / per["java"]
        print(f"  a Kotlin file costs {ratio:.2f}x a Java file ({'met' if ratio <= 1.0 else 'not met'}: goal <= 1)")


if __name__ == "__main__":
    main()
