#!/usr/bin/env bash
# CI on a busy machine: runs .ci/run (./bench test) N times, each on a fresh clone of this repository's
# HEAD, with a CPU hog spinning beside it, and prints how many runs were green. A test that only passes
# on a quiet machine fails here; CI shares its 2 cores with whatever else runs. A run is green only when it
# exits 0, every runner (Surefire, Failsafe, pytest) printed its totals with no failure, error or skip (a check
# that did not run is not a check that passed), and no runner printed "Flakes:" (passed only when run again).
# HOW TO RUN: scripts/ci-under-load.sh 5     (HOGS=1 spinning processes by default; HOG_CPU=N pins them to CPU N)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
RUNS="${1:-5}"
HOGS="${HOGS:-1}"
case "$RUNS" in ''|*[!0-9]*) echo "usage: $0 RUNS (a positive integer)" >&2; exit 2 ;; esac
[ "$RUNS" -ge 1 ] || { echo "usage: $0 RUNS (a positive integer)" >&2; exit 2; }
# Bounded: a run past this limit counts as red; it is several times what one run takes beside a hog on 2 cores.
RUN_LIMIT="${RUN_LIMIT:-40m}"

logs="$(mktemp -d /tmp/ci-under-load.XXXXXX)"
commit="$(git -C "$ROOT" rev-parse --short HEAD)"
[ -z "$(git -C "$ROOT" status --porcelain)" ] || echo "note: uncommitted changes are not in the clones; testing $commit" >&2
echo "ci-under-load: $RUNS run(s) of .ci/run on fresh clones of $commit, $HOGS CPU hog(s) beside each; logs in $logs"

# Every runner's totals in LOG, one line each: "surefire: Tests run: ...", "failsafe: ...", "pytest: 79 passed in 21s".
# A Maven runner's totals are its one "Tests run:" line without "Time elapsed" (those are per class).
runner_totals() {
  awk '
    /--- (maven-)?(surefire|failsafe)(-plugin)?:[^ ]*:(test|integration-test) / { runner = ($0 ~ /surefire/) ? "surefire" : "failsafe" }
    runner != "" && /Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+(, Flakes: [0-9]+)?$/ {
      sub(/^\[[A-Z]+\] /, ""); print runner ": " $0; runner = ""
    }
    /^(=+ )?[0-9]+ (passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?)(,.*)? in [0-9.]+s/ {
      gsub(/^=+ | =+$/, ""); print "pytest: " $0
    }' "$1"
}

# Why a run is not green (empty when it is): its exit code, a runner without totals, failures, errors, skips, flakes.
reasons_red() {  # reasons_red LOG EXIT_CODE TOTALS
  local log="$1" rc="$2" totals="$3" r=() runner
  [ "$rc" -eq 0 ] || r+=("exit $rc")
  for runner in surefire failsafe pytest; do
    grep -q "^$runner: " <<<"$totals" || r+=("no totals from $runner")
  done
  grep -qE '^(surefire|failsafe): .*(Failures: [1-9]|Errors: [1-9])' <<<"$totals" && r+=("failures or errors")
  grep -qE '^pytest: .*[0-9]+ (failed|errors?)' <<<"$totals" && r+=("pytest failures or errors")
  grep -qE '^(surefire|failsafe): .*Skipped: [1-9]' <<<"$totals" && r+=("skipped tests")
  grep -qE '^pytest: .*[0-9]+ (skipped|deselected|xfailed)' <<<"$totals" && r+=("pytest skips")
  { grep -qE '^\[[A-Z]+\] Flakes:' "$log" || grep -qE 'Flakes: [1-9]' <<<"$totals"; } && r+=("flakes (passed only when run again)")
  local joined
  joined="$(printf '%s; ' "${r[@]}")"
  [ "${#r[@]}" -eq 0 ] || echo "${joined%; }"
}

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
  rc=0
  timeout "$RUN_LIMIT" bash "$clone/.ci/run" > "$logs/run-$i.log" 2>&1 || rc=$?
  seconds=$(( $(date +%s) - start ))
  for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  totals="$(runner_totals "$logs/run-$i.log")"
  red="$(reasons_red "$logs/run-$i.log" "$rc" "$totals")"
  if [ -z "$red" ]; then result=green; green=$((green + 1)); else result="RED ($red)"; fi
  printf 'run %d/%d: %s in %dm%02ds\n' "$i" "$RUNS" "$result" $((seconds / 60)) $((seconds % 60))
  [ -z "$totals" ] || sed 's/^/    /' <<<"$totals"
  if [ "$result" != green ]; then
    grep -E -A12 '^\[[A-Z]+\] Flakes:' "$logs/run-$i.log" | head -n 15 | sed 's/^/    /' || true
    grep -E '<<< (FAILURE|ERROR)!|^\[ERROR\]   |FAILED|failed' "$logs/run-$i.log" | head -n 15 | sed 's/^/    /' || true
    echo "    full log: $logs/run-$i.log"
  fi
  rm -rf "$clone"
done
echo "ci-under-load: $green of $RUNS green"
[ "$green" -eq "$RUNS" ]
