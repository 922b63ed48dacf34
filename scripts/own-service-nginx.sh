#!/usr/bin/env bash
# ./bench against a service of your own, not the stub. A local nginx, loopback only,
# serves its default page ("Welcome to nginx!": 612 bytes up to nginx 1.20, 615 in Debian 12's 1.22) at /some/path
# and logs each request's X-Token header;
#   ./bench --target http://127.0.0.1:PORT/some/path --header 'X-Token: t' --clients ahc,jdk -- $JMH_ARGS
# must then complete with every request ok (results.json: n.ok = n.sent > 0 and no failure, for every shape and
# client; requests the pacer could not send past a client's knee are dropped, the harness's, never sent and never a
# failure), every body the page's length (recorded, not checked), and nginx's access log must hold
# the header on exactly as many requests as the clients sent in all (warm-up included: the *.trial.json records)
# and no request without it.
# HOW TO RUN: scripts/own-service-nginx.sh
#   JMH_ARGS (default "-f 1 -wi 1 -i 1 -w 1 -r 1": one fork, one 1 s warm-up and one 1 s measured iteration per
#   run, a few minutes for 2 clients); JMH_ARGS= (empty) keeps the quick profile's timings (~10 minutes).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
JMH_ARGS="${JMH_ARGS--f 1 -wi 1 -i 1 -w 1 -r 1}"
CLIENTS="${CLIENTS:-ahc,jdk}"
need nginx nginx
need curl curl
build

work="$(mktemp -d)"
chmod 755 "$work" # nginx's workers run as nobody and read the page from here
port="$(free_port)"
mkdir -p "$work/html/some" "$work/logs"
cp /usr/share/nginx/html/index.html "$work/html/some/path"
chmod 644 "$work/html/some/path"
page_bytes="$(stat -c %s "$work/html/some/path")"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 4096; }
http {
  log_format token '\$http_x_token \$status \$request_method "\$request_uri" \$body_bytes_sent';
  access_log $work/logs/access.log token;
  keepalive_requests 100000000;
  default_type text/html;
  server {
    listen 127.0.0.1:$port;
    root $work/html;
    location = /some/path { }
  }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" -e "$work/logs/error.log" &
STARTED_PIDS+=($!)
wait_http "http://127.0.0.1:$port/some/path"
: > "$work/logs/access.log" # from here on, only ./bench's requests
echo "nginx $(nginx -v 2>&1 | sed 's/.*nginx\///') on 127.0.0.1:$port serves /some/path ($page_bytes bytes); JMH args: ${JMH_ARGS:-none, the profile timings}"

set +e
# shellcheck disable=SC2086 # JMH_ARGS is a list of words
"$ROOT/bench" --target "http://127.0.0.1:$port/some/path" --header 'X-Token: t' --clients "$CLIENTS" ${JMH_ARGS:+-- $JMH_ARGS} \
  | tee "$work/bench.out"
status="${PIPESTATUS[0]}"
set -e
run="$(sed -n 's/^bench: profile .*; results in \(.*\)$/\1/p' "$work/bench.out" | head -n1)"
run="${run%.incomplete}"
[ -d "$run" ] || { echo "FAIL: ./bench exited $status and left no finished run (${run:-none named})" >&2; exit 1; }
echo "./bench exited $status; run: $run"

python3 - "$run" "$work/logs/access.log" "$page_bytes" <<'PY'
import glob, json, os, sys
run, access_log, page_bytes = sys.argv[1], sys.argv[2], int(sys.argv[3])
problems = []

# Every request ok, per shape and client, from JMH's results (the measured iterations).
for r in json.load(open(os.path.join(run, "results.json"))):
    client = r["params"]["client"]
    if client == "noop":
        continue
    m = {k: v["score"] for k, v in r["secondaryMetrics"].items()}
    name = r["benchmark"].split(".")[-2] + " " + client + " rate=" + r["params"].get("rate", "-")
    failed = sum(v for k, v in m.items() if k.startswith("n.fail."))
    line = "%s: n.sent %d, n.ok %d, failed %d, body %d-%d bytes; n.dropped %d (unsent %d)" % (
        name, m["n.sent"], m["n.ok"], failed, m["body.bytes.min"], m["body.bytes.max"], m["n.dropped"], m["n.unsent"])
    print("  " + line)
    # Dropped requests are the harness's, never sent (unsent: due in the window past the client's knee), never failures.
    if not (m["n.sent"] > 0 and m["n.ok"] == m["n.sent"] and failed == 0):
        problems.append("not every request ok: " + line)
    if not (m["body.bytes.min"] == m["body.bytes.max"] == page_bytes):
        problems.append("bodies not %d bytes: %s" % (page_bytes, line))

# Every request the clients sent, warm-up included, from the trials' own records.
sent = ok = 0
for f in glob.glob(os.path.join(run, "*.trial.json")):
    t = json.load(open(f))
    if t["client"] == "noop":
        continue
    for it in t["iterations"]:
        sent += it["sent"]
        ok += it["ok"]
with_token = without = other = 0
for l in open(access_log):
    token, status, method, uri, _ = l.split(" ", 4)
    if token == "t" and status == "200" and method == "GET" and uri == '"/some/path"':
        with_token += 1
    elif token == "-":
        without += 1
    else:
        other += 1
print("clients sent %d requests in all (%d ok); nginx logged %d with X-Token: t, %d without it, %d other"
      % (sent, ok, with_token, without, other))
if not (sent > 0 and ok == sent and with_token == sent and without == 0 and other == 0):
    problems.append("nginx's log does not match the requests sent")

env = json.load(open(os.path.join(run, "env.json")))
print("env.json request: " + env["request"]["summary"])
for p in problems:
    print("FAIL: " + p)
print("PASS" if not problems else "FAIL")
sys.exit(1 if problems else 0)
PY
rm -rf "$work"
