#!/usr/bin/env bash
# What raising the forks' priority does on this host: the README's quick run, exactly as README gives it, on fresh
# clones of HEAD, N times at the launcher's raised priority and N times at nice 0 (BENCH_NICE=0), alternated; then
# one row a run (scripts/run-table.py) and each run's wall time, build and report included. Run it on a machine with
# nothing else running: it measures the host, and what else runs is in each run's env.json (conditions).
# HOW TO RUN: scripts/priority-lever.sh 3      (RUNS_DIR=/tmp/lever: where the runs are kept)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
N="${1:-3}"
case "$N" in ''|*[!0-9]*|0) echo "usage: $0 N (runs at each priority, a positive integer)" >&2; exit 2 ;; esac
RUNS_DIR="${RUNS_DIR:-/tmp/lever}"
mkdir -p "$RUNS_DIR"
commit="$(git -C "$ROOT" rev-parse --short HEAD)"
[ -z "$(git -C "$ROOT" status --porcelain)" ] || echo "note: uncommitted changes are not in the clones; measuring $commit" >&2
echo "priority-lever: $((2 * N)) quick runs on fresh clones of $commit, alternating the launcher's priority and nice 0"
walls="$RUNS_DIR/walls.tsv"
for i in $(seq "$N"); do
  for nice in default 0; do
    clone="$(mktemp -d /tmp/lever-clone.XXXXXX)"
    git clone -q "$ROOT" "$clone"
    committed="$(ls "$clone/results")"
    start=$SECONDS
    if [ "$nice" = default ]; then
      (cd "$clone" && ./bench) > "$clone.log" 2>&1 || echo "run failed: $clone.log" >&2
    else
      (cd "$clone" && BENCH_NICE=0 ./bench) > "$clone.log" 2>&1 || echo "run failed: $clone.log" >&2
    fi
    wall=$((SECONDS - start))
    for run in "$clone"/results/*; do
      grep -qxF "$(basename "$run")" <<<"$committed" && continue  # a committed run, not this one's
      [ -d "$run" ] || continue
      mv "$run" "$RUNS_DIR/" && mv "$clone.log" "$RUNS_DIR/$(basename "$run").log"
      printf '%s\t%s\t%s\n' "$(basename "$run")" "$nice" "$wall" >> "$walls"
      echo "run $(basename "$run"): nice $nice, ${wall}s"
    done
    rm -rf "$clone"
  done
done
python="$ROOT/.venv/bin/python"
[ -x "$python" ] || python=python3
"$python" "$ROOT/scripts/run-table.py" $(cut -f1 "$walls" | sed "s|^|$RUNS_DIR/|")
echo; echo "wall seconds, the command's whole (run, nice, s):"; cat "$walls"
