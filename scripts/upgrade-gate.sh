#!/usr/bin/env bash
# The gate's two error rates on real runs: PLANTED A/A runs of CLIENT at VERSION whose new arm spins SPIN_US of CPU
# per request (a known regression: status 1 wanted), then AA runs with nothing planted (status 1 unwanted), each
# `./bench upgrade CLIENT VERSION VERSION --gate GATE` at the design a pull request's check gets (rate-4000, 6 sets of
# 9 blocks; the behaviour cases only where GATE gates them: they do not see a CPU cost), one after another on this
# checkout. Prints per run its exit status, wall time and CPU ratio with interval, then the tallies.
# HOW TO RUN: scripts/upgrade-gate.sh okhttp 5.5.1 3 1 8      (GATE: cpu and p50 5%, alloc 10% by default)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -ge 4 ] || { echo "usage: $0 CLIENT VERSION PLANTED AA [SPIN_US]" >&2; exit 2; }
CLIENT="$1" VERSION="$2" PLANTED="$3" AA="$4" SPIN_US="${5:-8}"
log="$(mktemp -d /tmp/upgrade-gate.XXXXXX)"
# A tight gate, as a team that wants 15% caught sets it; it gates no behaviour cell.
GATE="${GATE:-$log/gate.toml}"
[ -f "$GATE" ] || printf '[thresholds]\ncpu = "5%%"\nalloc = "10%%"\np50 = "5%%"\n' > "$GATE"
# A gate on behaviour cells judges them: skipped, they would leave it unresolved (3) in every run.
CASES=(--no-behaviour)
if grep -Eq '^[[:space:]]*behaviour[[:space:]]*=[[:space:]]*"broken"' "$GATE"; then CASES=(); fi
for n in "$PLANTED" "$AA"; do
  case "$n" in ''|*[!0-9]*) echo "PLANTED and AA are counts of runs, was '$n'" >&2; exit 2 ;; esac
done
echo "upgrade-gate: $CLIENT $VERSION, $PLANTED planted (+$SPIN_US us CPU/request on the new arm), $AA A/A; gate $GATE; logs in $log"
printf '%-8s %-4s %6s  %-28s %s\n' kind run status "CPU new/old [95%]" "folder"
declare -A tally=()
one() {  # one KIND I SPIN: a run, its line
  local kind="$1" i="$2" spin="$3" start rc dir cpu
  start=$SECONDS
  rc=0
  (cd "$ROOT" && ./bench upgrade "$CLIENT" "$VERSION" "$VERSION" --shapes rate-4000 --blocks 9 --rounds 6 \
     "${CASES[@]}" --plant-cpu-us "$spin" --gate "$GATE" --summary "$log/$kind-$i.md") > "$log/$kind-$i.log" 2>&1 || rc=$?
  dir="$(ls -dt "$ROOT"/results/2*/ 2>/dev/null | head -n1)"
  cpu="$(python3 - "$dir" <<'PY'
import json, sys
try:
    u = json.load(open(sys.argv[1] + "summary.json"))["upgrade"]
    f = next(f for f in u["figures"] if f["figure"] == "cpu")
    print(f"x{f['ratio']:.3f} [{f['low']:.3f}, {f['high']:.3f}]")
except Exception as e:
    print(f"- ({type(e).__name__})")
PY
)"
  printf '%-8s %-4s %6s  %-28s %s (%d s)\n' "$kind" "$i" "$rc" "$cpu" "$(basename "$dir")" $((SECONDS - start))
  tally["$kind:$rc"]=$(( ${tally["$kind:$rc"]:-0} + 1 ))
}
for i in $(seq "$PLANTED"); do one planted "$i" "$SPIN_US"; done
for i in $(seq "$AA"); do one aa "$i" 0; done
for k in "${!tally[@]}"; do echo "tally $k: ${tally[$k]}"; done | sort
