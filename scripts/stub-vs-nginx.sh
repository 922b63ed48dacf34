#!/usr/bin/env bash
# Stub versus nginx on the same budget: each alone on CPU 1, wrk on CPU 0, 5-byte body, keep-alive.
# Alternates A/B ROUNDS times after one discarded warm-up round each (the JVM needs its JIT) and prints
# every figure and the median ratio stub/nginx. Target: >= 1.0.
# HOW TO RUN: scripts/stub-vs-nginx.sh            (ROUNDS=3 DURATION=5s CONNECTIONS=64 by default)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROUNDS="${ROUNDS:-3}"; DURATION="${DURATION:-5s}"; CONNECTIONS="${CONNECTIONS:-64}"
need wrk wrk
need nginx nginx
build

work="$(mktemp -d)"
nginx_port="$(free_port)"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 100000000;
  server {
    listen 127.0.0.1:$nginx_port;
    location / { return 200 "abcde"; }
  }
}
CONF
$(pin 1) nginx -c "$work/nginx.conf" -p "$work" &
STARTED_PIDS+=($!)

stub_port="$(free_port)"
$(pin 1) "$ROOT/bench" stub --port "$stub_port" --io-threads 1 --quiet > "$work/stub.log" 2>&1 &
STARTED_PIDS+=($!)
wait_http "http://127.0.0.1:$nginx_port/"
wait_http "http://127.0.0.1:$stub_port/"

rate() {  # rate URL: requests/s from one wrk run on CPU 0
  $(pin 0) wrk -t1 -c"$CONNECTIONS" -d"$DURATION" "$1" | awk '/^Requests\/sec:/ {print $2}'
}

echo "warm-up: stub $(rate "http://127.0.0.1:$stub_port/") req/s, nginx $(rate "http://127.0.0.1:$nginx_port/") req/s (discarded)"
ratios=()
for i in $(seq "$ROUNDS"); do
  s="$(rate "http://127.0.0.1:$stub_port/")"
  n="$(rate "http://127.0.0.1:$nginx_port/")"
  r="$(awk -v s="$s" -v n="$n" 'BEGIN {printf "%.3f", s / n}')"
  ratios+=("$r")
  echo "round $i: stub $s req/s, nginx $n req/s, ratio $r"
done
median="$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')"
echo "median ratio stub/nginx: $median (target >= 1.0)"
rm -rf "$work"
