#!/usr/bin/env bash
# Why each JVM has its own p99 at the common rate: N forks of one client (fresh JVM each) under each condition, each
# fork's latency p99 from its measured windows' histograms merged, and per condition the spread of those p99s between
# forks (sd of the natural log) beside that of p50. Conditions:
#   base         as a standard run's fork: its own stub, pinned, settled, JMH's warm-up 1 x 1 s, 3 x 2 s measured
#   shared-stub  one stub for every fork, started once and pinned to the stub's CPU (the fork's own stub otherwise)
#   unpinned     nothing pinned (clientbench.pin=false)
#   pretouch     the heap touched at start (-XX:+AlwaysPreTouch)
#   warm3        JMH's warm-up 3 x 1 s instead of 1
#   long         6 x 2 s measured: does a fork's p99 settle over more windows
# Run it alone on the machine: it measures the host too. HOW TO RUN: scripts/p99-forks.sh jetty 12 base shared-stub
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
CLIENT="${1:?usage: $0 CLIENT FORKS [CONDITION ...]}"
FORKS="${2:?usage: $0 CLIENT FORKS [CONDITION ...]}"
shift 2
CONDITIONS=("${@:-base}")
OUT="${OUT:-$(mktemp -d /tmp/p99-forks.XXXXXX)}"
build
echo "p99-forks: $CLIENT, $FORKS forks each of ${CONDITIONS[*]}; logs in $OUT"
for c in "${CONDITIONS[@]}"; do
  dir="$OUT/$c"; mkdir -p "$dir"
  warmups=1; windows=3; args=(); jvm=("-Dclientbench.hlog.dir=$dir" -XX:+ExitOnOutOfMemoryError)
  case "$c" in
    base) ;;
    shared-stub)
      port="$(free_port)"
      $(pin 1) "$ROOT/bench" stub --port "$port" --quiet > "$dir/stub.log" 2>&1 &
      STARTED_PIDS+=($!)
      wait_http "http://127.0.0.1:$port/"
      args+=(-p target="http://127.0.0.1:$port") ;;
    unpinned) jvm+=(-Dclientbench.pin=false) ;;
    pretouch) jvm+=(-XX:+AlwaysPreTouch) ;;
    warm3) warmups=3 ;;
    long) windows=6 ;;
    *) echo "unknown condition '$c'" >&2; exit 2 ;;
  esac
  args+=(-p client="$CLIENT" -p rate=4000 -p settleSeconds=26 -f "$FORKS" -wi "$warmups" -w 1s -i "$windows" -r 2s)
  "$ROOT/bench" jmh OpenLoopBenchmark "${args[@]}" -jvmArgsAppend "${jvm[*]}" > "$dir/jmh.log" 2>&1 || echo "$c: JMH failed ($dir/jmh.log)" >&2
done
"$ROOT/.venv/bin/python" - "$OUT" "${CONDITIONS[@]}" <<'PY'
import math, statistics, sys
from pathlib import Path
from hdrh.log import HistogramLogReader
from hdrh.histogram import HdrHistogram
out = Path(sys.argv[1])
print("| condition | forks | p50 us (median) | p99 us (median, min-max) | sd ln p50 | sd ln p99 | first window's p99 the fork's largest |")
print("|---|---|---|---|---|---|---|")
for c in sys.argv[2:]:
    p50s, p99s, first = [], [], 0
    for hlog in sorted((out / c).glob("*.hlog")):
        reader = HistogramLogReader(str(hlog), HdrHistogram(1, 3_600_000_000, 3))
        merged, windows = HdrHistogram(1, 3_600_000_000, 3), []
        while True:
            h = reader.get_next_interval_histogram()
            if h is None:
                break
            if h.get_tag() == "latency":
                merged.add(h)
                windows.append(h.get_value_at_percentile(99))
        if merged.get_total_count():
            p50s.append(merged.get_value_at_percentile(50))
            p99s.append(merged.get_value_at_percentile(99))
            first += bool(windows) and windows[0] == max(windows)
    if len(p99s) < 2:
        print(f"| {c} | {len(p99s)} | - | - | - | - | - |")
        continue
    sd = lambda xs: statistics.stdev(math.log(x) for x in xs)
    print(f"| {c} | {len(p99s)} | {statistics.median(p50s):.0f} | {statistics.median(p99s):.0f} ({min(p99s)}-{max(p99s)}) "
          f"| {sd(p50s):.3f} | {sd(p99s):.3f} | {first} of {len(p99s)} |")
PY
