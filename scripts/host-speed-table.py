#!/usr/bin/env python3
"""The table of scripts/host-speed.sh, from its folder: how much of the spread between forks of one client is the host's
speed, read by a fixed piece of work timed just before each fork, and by one timed every 100 ms beside it.

    .venv/bin/python scripts/host-speed-table.py OUT

Per figure (CPU per request, p50, p99 from the measured windows' histograms merged), on the natural log, each client's
mean taken out: the forks' spread; its correlation with each gauge (compute or memory work, on the client's CPU 0 or
the stub's CPU 1, the median of three; "during": the sampler's median over the fork's measured windows); and the
spread left once the gauge's part is out (one slope for every client).
"""
import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from analysis import load as cbl  # noqa: E402

GAUGES = {"compute, CPU 0": (0, 1), "memory, CPU 0": (0, 2), "compute, CPU 1": (1, 1), "memory, CPU 1": (1, 2)}


def fork(turn: Path) -> dict | None:
    records = list(turn.glob("*.trial.json"))
    if len(records) != 1:
        return None
    trial = cbl.Trial(records[0], json.loads(records[0].read_text(encoding="utf-8")))
    if not (turn / trial.record["hlog"]).is_file():
        return None
    measured, windows = trial.measured, trial.intervals("latency")
    ok = sum(i["ok"] for i in measured)
    if not ok or not windows:
        return None
    rows = [line.split() for line in (turn / "gauge.txt").read_text().splitlines() if line.strip()]
    gauges = {name: math.log(statistics.median(float(r[col]) for r in rows if int(r[0]) == cpu))
              for name, (cpu, col) in GAUGES.items()}
    spans = [(i["windowStartEpochMillis"], i["windowStartEpochMillis"] + i["windowNanos"] / 1e6) for i in measured]
    for cpu in (0, 1):
        samples = turn / f"during-{cpu}.txt"
        taken = [] if not samples.is_file() else [float(ms) for at, ms in (line.split() for line in
                 samples.read_text().splitlines() if len(line.split()) == 2) if any(a <= float(at) <= b for a, b in spans)]
        if taken:
            gauges[f"during, CPU {cpu}"] = math.log(statistics.median(taken))
    return {"client": trial.client, "gauges": gauges, "figures": {
        "CPU/req": math.log(sum(i["cpuNanosInWindow"] for i in measured) / ok),
        "p50": math.log(cbl.merged(windows).get_value_at_percentile(50)),
        "p99": math.log(cbl.merged(windows).get_value_at_percentile(99))}}


def centred(forks: list, value) -> list:
    """Each fork's value less its client's mean."""
    by = {}
    for f in forks:
        by.setdefault(f["client"], []).append(value(f))
    means = {c: statistics.fmean(v) for c, v in by.items()}
    return [value(f) - means[f["client"]] for f in forks]


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: host-speed-table.py OUT")
    forks = [f for f in (fork(t) for t in sorted(Path(sys.argv[1]).glob("turn-*"))) if f]
    clients = sorted({f["client"] for f in forks})
    n, k = len(forks), len(clients)
    if n - k < 3:
        sys.exit(f"{n} forks of {k} clients: too few to compare spreads")
    print(f"{n} forks of {', '.join(clients)}")
    print("| figure | sd ln between forks | gauge | r | sd ln, the gauge's part out | slope |")
    print("|---|---|---|---|---|---|")
    for figure in ("CPU/req", "p50", "p99"):
        y = centred(forks, lambda f: f["figures"][figure])
        raw = math.sqrt(sum(v * v for v in y) / (n - k))
        for gauge in [*GAUGES, "during, CPU 0", "during, CPU 1"]:
            if not all(gauge in f["gauges"] for f in forks):
                continue
            x = centred(forks, lambda f: f["gauges"][gauge])
            sxx = sum(v * v for v in x)
            slope = sum(a * b for a, b in zip(x, y)) / sxx if sxx else 0.0
            left = math.sqrt(sum((b - slope * a) ** 2 for a, b in zip(x, y)) / (n - k - 1))
            r = statistics.correlation(x, y) if sxx else float("nan")
            print(f"| {figure} | {raw:.3f} | {gauge} | {r:.2f} | {left:.3f} | {slope:.2f} |")


if __name__ == "__main__":
    main()
