#!/usr/bin/env bash
# Issue 56's goals measured together, two binaries side by side (each the same run):
#   bash benches/foreground_all.sh BEFORE AFTER OUTDIR [SPRING_DIR JENKINS_DIR]
# from the repository's root, with target/venv (the MCP Python SDK), target/jdk-src and
# target/corpus/commons-lang3 as `.ci/run` makes them; SPRING_DIR and JENKINS_DIR are checkouts
# of spring-framework and jenkins (the four roots' part is skipped without them). Writes one
# file per part to OUTDIR:
#   index.txt       cold `index target/jdk-src --no-warm-references` of each binary on a fresh
#                   cache right after `ctags -R` of the same tree, four rounds alternated;
#   cli.txt         a fresh process's `refs --count-only` (benches/cli_count_only.py);
#   restart.txt     the first answer after a restart (benches/restart.py);
#   four.txt        the four roots' cold bind and `find_references` after it (benches/cold_bind.py);
#   foreground.txt  AFTER's first minute, pass on and off, and its warm tools (benches/foreground.py);
#   rename.txt      AFTER's rename previews on java.base (benches/rename_previews.py).
# Every part runs under `chrt -f 10` (needs root), the load and the steal (`st`) noted after it.
set -u
B=$1; A=$2; OUT=$3; SPRING=${4:-}; JENKINS=${5:-}
mkdir -p "$OUT"
PY=target/venv/bin/python
JDK=target/jdk-src
ld() { echo "load: $(cut -d' ' -f1-3 /proc/loadavg) $(top -bn1 | grep '%Cpu' | sed 's/.*, *\([0-9.]*\) st.*/st \1/')"; }
t() {
  local s e
  s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
  python3 -c "print(f'{$e-$s:.3f}')"
}
scratch=$(mktemp -d)
{
  echo "== cold index vs ctags (JDK), alternated"
  for r in 1 2 3 4; do
    for who in B A; do
      bin=$B; [ "$who" = A ] && bin=$A
      rm -rf "$scratch/index-$who"; mkdir -p "$scratch/index-$who"
      c=$(t chrt -f 10 ctags -R --languages=Java -f "$scratch/tags" $JDK)
      i=$(t chrt -f 10 "$bin" index $JDK --cache-dir "$scratch/index-$who" --no-warm-references)
      echo "round $r $who: ctags $c s, index $i s, ratio $(python3 -c "print(f'{$i/$c:.2f}')")"
    done
    ld
  done
} >"$OUT/index.txt" 2>&1
"$B" index $JDK --cache-dir "$scratch/warm-B" >/dev/null 2>&1
"$A" index $JDK --cache-dir "$scratch/warm-A" >/dev/null 2>&1
{
  echo "== CLI count-only (JDK)"
  python3 benches/cli_count_only.py "$B,$A" 10 "$scratch/warm-B,$scratch/warm-A"
  ld
} >"$OUT/cli.txt" 2>&1
{
  echo "== restart (JDK)"
  chrt -f 10 $PY benches/restart.py $JDK 10 "$B=$scratch/warm-B" "$A=$scratch/warm-A"
  ld
} >"$OUT/restart.txt" 2>&1
if [ -n "$SPRING" ] && [ -n "$JENKINS" ]; then
  {
    echo "== four roots, cold bind and refs after the pass"
    RUST_LOG=info,mji_xref=debug chrt -f 10 $PY benches/cold_bind.py "before=$B,after=$A" $JDK "$SPRING" "$JENKINS" \
      target/corpus/commons-lang3 --rounds 2 --watch --settle
    ld
  } >"$OUT/four.txt" 2>&1
fi
{
  echo "== foreground (JDK), after"
  chrt -f 10 $PY benches/foreground.py "$A" $JDK 60 1
  ld
} >"$OUT/foreground.txt" 2>&1
{
  echo "== rename previews (java.base), after"
  chrt -f 10 $PY benches/rename_previews.py "$A" $JDK/java.base 40 32
  ld
} >"$OUT/rename.txt" 2>&1
rm -rf "$scratch"
