#!/usr/bin/env bash
# The stub holds 15,000 concurrent requests, each delayed 10 s: wrk opens 15,000 connections and
# must report no socket errors. (The per-process fd limit here is 20,000.)
# HOW TO RUN: scripts/stub-15k.sh        (CONNECTIONS=15000 DELAY_MS=10000 DURATION=25s by default)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
CONNECTIONS="${CONNECTIONS:-15000}"; DELAY_MS="${DELAY_MS:-10000}"; DURATION="${DURATION:-25s}"
need wrk wrk
build
work="$(mktemp -d)"
port="$(free_port)"
$(pin 1) "$ROOT/bench" stub --port "$port" > "$work/stub.log" 2>&1 &
STARTED_PIDS+=($!)
wait_http "http://127.0.0.1:$port/"
out="$($(pin 0) wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --timeout 30s "http://127.0.0.1:$port/?delayMs=$DELAY_MS")"
echo "$out"
echo "stub's busiest second: $(grep -o 'open=[0-9]*' "$work/stub.log" | sort -t= -k2 -n | tail -n1)"
if grep -q "Socket errors" <<<"$out"; then
  echo "FAIL: socket errors at $CONNECTIONS connections"; exit 1
fi
echo "PASS: $CONNECTIONS concurrent requests delayed ${DELAY_MS} ms, no socket errors"
rm -rf "$work"
