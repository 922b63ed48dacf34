# Shared by the scripts in scripts/: tools from Debian packages, the stub, and cleanup of what we started.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STARTED_PIDS=()

need() {  # need TOOL PACKAGE: install from Debian when missing
  command -v "$1" >/dev/null && return 0
  [ "$(id -u)" -eq 0 ] || { echo "$1 is missing: apt-get install $2" >&2; exit 1; }
  echo "installing $2 ..." >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"; } >/dev/null
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

wait_http() {  # wait_http URL: until it answers, at most 30 s
  for _ in $(seq 300); do
    curl -s -o /dev/null "$1" && return 0
    sleep 0.1
  done
  echo "no answer from $1" >&2; exit 1
}

cleanup() {  # end only what this script started, by PID
  local pid
  for pid in "${STARTED_PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${STARTED_PIDS[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT

# pin CPU: a taskset prefix when taskset exists and the CPU does
pin() {
  if command -v taskset >/dev/null && [ "$1" -lt "$(nproc)" ]; then echo "taskset -c $1"; fi
}

build() {
  "$ROOT/bench" jmh -h >/dev/null  # builds target/benchmarks.jar when stale
}

# common_rate_fork DIR CLIENT WARMUPS WINDOWS [JVM_ARG ...]: one fresh JVM at the common rate, as a standard run's fork
# (its own stub, or TARGET's when set; settled up to 26 s; 1 s warm-ups, 2 s windows) at nice 0 (`bench jmh` raises
# none); its record and hlog into DIR, JMH's output appended to DIR/jmh.log.
common_rate_fork() {
  local dir="$1" client="$2" warmups="$3" windows="$4" target=()
  shift 4
  [ -n "${TARGET:-}" ] && target=(-p target="$TARGET")
  "$ROOT/bench" jmh OpenLoopBenchmark -p client="$client" -p rate=4000 -p settleSeconds=26 "${target[@]}" -f 1 \
    -wi "$warmups" -w 1s -i "$windows" -r 2s -jvmArgsAppend "-Dclientbench.hlog.dir=$dir -XX:+ExitOnOutOfMemoryError $*" \
    >> "$dir/jmh.log" 2>&1
}
