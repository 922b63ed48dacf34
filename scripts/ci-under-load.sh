#!/usr/bin/env bash
# CI on a busy machine: runs .ci/run (./bench test) N times, each on a fresh clone of this repository's
# HEAD, with a CPU hog spinning beside it, and prints how many runs were green. A test that only passes
# on a quiet machine fails here; CI shares its 2 cores with whatever else runs.
# HOW TO RUN: scripts/ci-under-load.sh 5     (HOGS=1 spinning processes by default; HOG_CPU=N pins them to CPU N)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
RUNS="${1:-5}"
HOGS="${HOGS:-1}"
case "$RUNS" in ''|*[!0-9]*) echo "usage: $0 RUNS (a positive integer)" >&2; exit 2 ;; esac
[ "$RUNS" -ge 1 ] || { echo "usage: $0 RUNS (a positive integer)" >&2; exit 2; }
# Bounded: one run of the suite takes about 5 minutes here; a run past this limit counts as red.
RUN_LIMIT="${RUN_LIMIT:-40m}"

logs="$(mktemp -d /tmp/ci-under-load.XXXXXX)"
commit="$(git -C "$ROOT" rev-parse --short HEAD)"
[ -z "$(git -C "$ROOT" status --porcelain)" ] || echo "note: uncommitted changes are not in the clones; testing $commit" >&2
echo "ci-under-load: $RUNS run(s) of .ci/run on fresh clones of $commit, $HOGS CPU hog(s) beside each; logs in $logs"

green=0
for i in $(seq "$RUNS"); do
  clone="$logs/clone-$i"
  git clone -q "$ROOT" "$clone"
  hog_pids=()
  for _ in $(seq "$HOGS"); do
    if [ -n "${HOG_CPU:-}" ]; then $(pin "$HOG_CPU") sh -c 'while :; do :; done' & else sh -c 'while :; do :; done' & fi
    hog_pids+=($!)
    STARTED_PIDS+=($!)
  done
  start=$(date +%s)
  if timeout "$RUN_LIMIT" bash "$clone/.ci/run" > "$logs/run-$i.log" 2>&1; then result=green; green=$((green + 1)); else result="RED (exit $?)"; fi
  seconds=$(( $(date +%s) - start ))
  for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  summary="$(grep -E '^\[(INFO|ERROR|WARNING)\] Tests run: [0-9]+, Failures' "$logs/run-$i.log" | tail -n1 | sed 's/^\[[A-Z]*\] //' || true)"
  py="$(grep -E '^[0-9]+ (passed|failed)|^=+ .*(passed|failed)' "$logs/run-$i.log" | tail -n1 || true)"
  printf 'run %d/%d: %s in %dm%02ds  %s  %s\n' "$i" "$RUNS" "$result" $((seconds / 60)) $((seconds % 60)) "$summary" "$py"
  if [ "$result" != green ]; then
    grep -E '<<< (FAILURE|ERROR)!|^\[ERROR\]   |FAILED|failed' "$logs/run-$i.log" | head -n 15 | sed 's/^/    /' || true
    echo "    full log: $logs/run-$i.log"
  fi
  rm -rf "$clone"
done
echo "ci-under-load: $green of $RUNS green"
[ "$green" -eq "$RUNS" ]
