#!/usr/bin/env bash
# Why each JVM has its own p99 at the common rate: N forks of one client (fresh JVM each) under each condition, each
# fork's latency p99 from its measured windows' histograms merged, and per condition the spread of those p99s between
# forks (sd of the natural log) beside that of p50. One fork of each condition in turn, so the host's spells fall on
# all alike; every fork at nice 0 (`bench jmh` raises no priority). Conditions:
#   base         as a standard run's fork: its own stub, pinned, settled, JMH's warm-up 1 x 1 s, 3 x 2 s measured
#   shared-stub  one stub for every fork, started once and pinned to the stub's CPU, which each fork asks as ./bench's
#                rounds ask theirs (clientbench.stub.shared: its control port, the stub's counts a window)
#   target-stub  the same stub reached as a target of the fork's own (-p target): no counts, as an own service
#   unpinned     nothing pinned (clientbench.pin=false)
#   pretouch     the heap touched at start (-XX:+AlwaysPreTouch)
#   warm3        JMH's warm-up 3 x 1 s instead of 1
#   long         6 x 2 s measured: does a fork's p99 settle over more windows
#   aot          the JDK's AOT cache (JEP 483, 515: classes loaded and linked, method profiles) from one training
#                fork of the client, made first: does a JVM that starts from the same profiles settle sooner, and
#                end up more like the next one
# Run it alone on the machine: it measures the host too. HOW TO RUN: scripts/p99-forks.sh jetty 12 base shared-stub
# The table (scripts/p99-forks-table.py OUT CONDITION...) splits each p99 into the windows' noise and the JVM's own.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
CLIENT="${1:?usage: $0 CLIENT FORKS [CONDITION ...]}"
FORKS="${2:?usage: $0 CLIENT FORKS [CONDITION ...]}"
shift 2
case "$FORKS" in ''|*[!0-9]*|0) echo "FORKS must be a positive integer, was '$FORKS'" >&2; exit 2 ;; esac
CONDITIONS=("${@:-base}")
OUT="${OUT:-$(mktemp -d /tmp/p99-forks.XXXXXX)}"
for c in "${CONDITIONS[@]}"; do
  case "$c" in base|shared-stub|target-stub|unpinned|pretouch|warm3|long|aot) ;; *) echo "unknown condition '$c'" >&2; exit 2 ;; esac
done
build
echo "p99-forks: $CLIENT, $FORKS forks each of ${CONDITIONS[*]}, one of each in turn; logs in $OUT"
SHARED_TARGET="" SHARED_STUB=""
if [[ " ${CONDITIONS[*]} " == *"-stub "* ]]; then
  port="$(free_port)" control="$(free_port)"
  mkdir -p "$OUT/stub"
  # One event loop on its one CPU and the heap of the harness's stub (StubProcess), its commands on a loopback port.
  JAVA_TOOL_OPTIONS="-Xms256m -Xmx1g" $(pin 1) "$ROOT/bench" stub --port "$port" --quiet --io-threads 1 \
    --control-port "$control" > "$OUT/stub/stub.log" 2>&1 &
  STARTED_PIDS+=($!)
  wait_http "http://127.0.0.1:$port/"
  SHARED_TARGET="http://127.0.0.1:$port"
  # As StubProcess.describe(): URI;CONTROL_PORT;PID;TLS;CPUS;IO_THREADS
  SHARED_STUB="$SHARED_TARGET;$control;${STARTED_PIDS[-1]};false;$( [ -n "$(pin 1)" ] && echo 1 );1"
fi

AOT_CACHE="$OUT/aot-train/$CLIENT.aot"
if [[ " ${CONDITIONS[*]} " == *" aot "* ]]; then
  mkdir -p "$OUT/aot-train"
  # One fork as the others, its JVM writing the cache as it exits (JDK 25's one-step training).
  common_rate_fork "$OUT/aot-train" "$CLIENT" 1 3 "-XX:AOTCacheOutput=$AOT_CACHE" \
    || { echo "aot: the training fork failed ($OUT/aot-train/jmh.log)" >&2; exit 1; }
  [ -s "$AOT_CACHE" ] || { echo "aot: no cache written at $AOT_CACHE ($OUT/aot-train/jmh.log)" >&2; exit 1; }
fi

run_fork() {  # run_fork CONDITION: one fresh JVM of it, its hlog and record into $OUT/CONDITION
  local c="$1" dir="$OUT/$1" warmups=1 windows=3 target="" jvm=()
  mkdir -p "$dir"
  case "$c" in
    shared-stub) jvm+=("-Dclientbench.stub.shared=$SHARED_STUB") ;;
    target-stub) target="$SHARED_TARGET" ;;
    unpinned) jvm+=(-Dclientbench.pin=false) ;;
    pretouch) jvm+=(-XX:+AlwaysPreTouch) ;;
    warm3) warmups=3 ;;
    long) windows=6 ;;
    aot) jvm+=("-XX:AOTCache=$AOT_CACHE") ;;
  esac
  TARGET="$target" common_rate_fork "$dir" "$CLIENT" "$warmups" "$windows" "${jvm[@]}" || echo "$c: JMH failed ($dir/jmh.log)" >&2
}

# One fork of each condition a turn, the order rotated each turn: a slow spell of the host falls on all alike.
n=${#CONDITIONS[@]}
for i in $(seq 0 $((FORKS - 1))); do
  for j in $(seq 0 $((n - 1))); do
    run_fork "${CONDITIONS[$(((i + j) % n))]}"
  done
done
"$ROOT/.venv/bin/python" "$ROOT/scripts/p99-forks-table.py" "$OUT" "${CONDITIONS[@]}"
