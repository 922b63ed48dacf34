#!/usr/bin/env bash
# Whether the host's speed moves a fork's figures: N turns, each a fixed piece of work timed on each CPU
# (scripts/host-speed-gauge.py, 3 times) and then one fork of the next client at the common rate, as p99-forks.sh's
# base (its own stub, pinned, settled; nice 0), while a sampler on each CPU times a 3 ms piece of work every 100 ms
# (scripts/host-speed-sampler.py: about 3% of the CPU). The table: per figure, how far the forks of one client
# spread, and how far once a gauge's part is taken out (one slope for every client). Run it alone on the machine.
# HOW TO RUN: scripts/host-speed.sh vertx,okhttp 20      (OUT=/tmp/hs: where the forks' records go)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
CLIENTS="${1:?usage: $0 CLIENT[,CLIENT...] TURNS}"
TURNS="${2:?usage: $0 CLIENT[,CLIENT...] TURNS}"
case "$TURNS" in ''|*[!0-9]*|0) echo "TURNS must be a positive integer, was '$TURNS'" >&2; exit 2 ;; esac
IFS=, read -r -a clients <<< "$CLIENTS"
OUT="${OUT:-$(mktemp -d /tmp/host-speed.XXXXXX)}"
build
echo "host-speed: $TURNS turns over ${clients[*]}; records in $OUT"
for i in $(seq 0 $((TURNS - 1))); do
  client="${clients[$((i % ${#clients[@]}))]}"
  dir="$OUT/turn-$i-$client"; mkdir -p "$dir"
  for cpu in 0 1; do
    for _ in 1 2 3; do echo "$cpu $($(pin "$cpu") python3 "$ROOT/scripts/host-speed-gauge.py")"; done
  done > "$dir/gauge.txt"
  samplers=()
  for cpu in 0 1; do
    $(pin "$cpu") python3 "$ROOT/scripts/host-speed-sampler.py" 180 > "$dir/during-$cpu.txt" &
    samplers+=($!); STARTED_PIDS+=($!)
  done
  common_rate_fork "$dir" "$client" 1 3 || echo "turn $i: JMH failed ($dir/jmh.log)" >&2
  kill "${samplers[@]}" 2>/dev/null || true
  wait "${samplers[@]}" 2>/dev/null || true
done
"$ROOT/.venv/bin/python" "$ROOT/scripts/host-speed-table.py" "$OUT"
