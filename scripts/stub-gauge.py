#!/usr/bin/env python3
"""Is the stub's CPU per request a gauge of the host's speed during a fork? Per run folder (forks run one at a time):
how far each figure spreads between one client's forks, how closely it follows the stub's CPU per request in the
same windows, and what the verdict would decide with each fork's figure taken to the run's mean stub cost.

    .venv/bin/python scripts/stub-gauge.py [--shape rate-4000] RUN [RUN ...]

The stub answers every client the same way, in its own JVM on the other CPU, so its CPU per request (`stubCpuShare`
over the fork's measured windows) moves with the host and with the stub JVM's own state, not with the client. Within
each client, ln figure = a + b ln gauge + e; b is pooled over clients (ordinary least squares on deviations from each
client's means). "adjusted" takes each client fork's figure by exp(-b (ln gauge - mean ln gauge over the run's client
forks)); noop's forks (no stub requests) stay as measured. That needs the stub's work per request to be the same for
every client: "client gauges" compares the spread of the clients' mean gauges with what their forks' noise alone gives.
The adjusted verdict keeps the degrees of freedom of the one it adjusts, one more than the fitted slope leaves it: its
count of pairs apart is a bound from above.
"""
import argparse
import math
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from analysis import load as cbl  # noqa: E402
from analysis.decide import verdict as cbv  # noqa: E402

KEYS = ("cpu", "p50", "p99")
FIGURES = {f.key: f for f in cbv.FIGURES}


def gauge(t: cbl.Trial) -> float:
    """ln of the stub's CPU microseconds per request sent over the fork's measured windows; NaN where unrecorded."""
    its = t.measured
    sent = sum(it["sent"] for it in its)
    shares = [it["probes"].get("stubCpuShare", -1) for it in its]
    if not sent or any(s is None or s < 0 for s in shares):
        return math.nan
    return math.log(sum(s * it["windowNanos"] for s, it in zip(shares, its)) / sent / 1e3)


def within(frame, shape: str, gauges: dict) -> dict:
    """(client -> its forks' (ln gauge, {key: ln figure})), for the shape's client forks with a gauge."""
    out = {}
    for r in frame[frame["shape"] == shape].to_dict("records"):
        g = gauges.get((r["shape"], r["client"], r["round"]), math.nan)
        if r["client"] == cbl.NOOP or g != g:
            continue
        ys = {k: math.log(r[k]) if r[k] == r[k] and r[k] > 0 else math.nan for k in KEYS}
        out.setdefault(r["client"], []).append((g, ys))
    return {c: v for c, v in out.items() if len(v) >= 2}


def slope(by_client: dict, key: str) -> dict:
    """b, r and the pooled within-client sd of ln figure before and after, over clients with 2 forks or more."""
    dg, dy = [], []
    for forks in by_client.values():
        pts = [(g, ys[key]) for g, ys in forks if ys[key] == ys[key]]
        if len(pts) < 2:
            continue
        mg, my = statistics.fmean(p[0] for p in pts), statistics.fmean(p[1] for p in pts)
        dg += [p[0] - mg for p in pts]
        dy += [p[1] - my for p in pts]
    dg, dy = np.array(dg), np.array(dy)
    df = len(dg) - len(by_client)
    b = float((dg * dy).sum() / (dg * dg).sum())
    r = float((dg * dy).sum() / math.sqrt((dg * dg).sum() * (dy * dy).sum()))
    after = dy - b * dg
    return {"b": b, "r": r, "before": math.sqrt((dy * dy).sum() / df), "after": math.sqrt((after * after).sum() / (df - 1))}


def client_gauges(by_client: dict) -> tuple:
    """(sd of the clients' mean ln gauge, the sd their forks' noise alone would give them)."""
    means = [statistics.fmean(g for g, _ in f) for f in by_client.values()]
    dev = [g - statistics.fmean(x for x, _ in f) for f in by_client.values() for g, _ in f]
    n = sum(len(f) for f in by_client.values())
    noise = math.sqrt(sum(d * d for d in dev) / (n - len(by_client)) / (n / len(by_client)))
    return statistics.stdev(means), noise


def ranked(run: cbl.Run, shape: str, key: str) -> dict | None:
    return cbv.rank(run, shape, FIGURES[key])


def apart(r: dict | None) -> str:
    return "-" if r is None else f"{len(r['pairs']['apart'])} of {r['pairs']['of']}"


def moved(r: dict | None, a: dict | None) -> str:
    """The most a client's estimate moved with the adjustment, as a ratio, and the pairs apart in both, but reversed."""
    if r is None or a is None:
        return "-"
    common = [c for c in r["clients"] if c in a["clients"] and r["clients"][c]["value"] and a["clients"][c]["value"]]
    ratio = {c: a["clients"][c]["value"] / r["clients"][c]["value"] for c in common}
    far = max(common, key=lambda c: abs(math.log(ratio[c])))
    was = {(p["better"], p["worse"]) for p in r["pairs"]["apart"]}
    reversed_ = sum((p["worse"], p["better"]) in was for p in a["pairs"]["apart"])
    return f"{far} x{ratio[far]:.2f}; {reversed_} reversed"


def adjust(run: cbl.Run, shape: str, gauges: dict, slopes: dict):
    """The run's forks with each client fork of `shape` taken to the mean gauge, set as the run's only memo (that of
    `analysis.load.forks`): the verdict reads forks through it (a run not interleaved compares forks)."""
    f = cbl.forks(run).copy()
    keys = list(zip(f["shape"], f["client"], f["round"]))
    lg = np.array([gauges.get(k, math.nan) for k in keys])
    sel = (f["shape"] == shape).to_numpy() & (f["client"] != cbl.NOOP).to_numpy() & ~np.isnan(lg)
    mean = lg[sel].mean()
    for key, s in slopes.items():
        factor = np.ones(len(f))
        factor[sel] = np.exp(-s["b"] * (lg[sel] - mean))
        f[key] = f[key].to_numpy(dtype=float) * factor
    run._memo.clear()
    run._memo[("forks",)] = f


def report(path: str, shape: str):
    run = cbl.load_run(path)
    gauges = {(t.shape, t.client, t.round): gauge(t) for t in run.trials if t.measured}
    by_client = within(cbl.forks(run), shape, gauges)
    if len(by_client) < 2:
        print(f"{run.name}: {shape}: fewer than two clients with two forks and a stub gauge")
        return
    forks = sum(len(v) for v in by_client.values())
    spread, noise = client_gauges(by_client)
    slopes = {k: slope(by_client, k) for k in KEYS}
    before = {k: ranked(run, shape, k) for k in KEYS}
    adjust(run, shape, gauges, slopes)
    print(f"{run.name} ({run.machine}), {shape}: {forks} forks of {len(by_client)} clients; client gauges: sd of"
          f" their means {spread:.3f}, noise alone {noise:.3f}")
    print("| figure | sd ln between forks | r with ln gauge | b | sd ln adjusted | pairs apart | adjusted | moved most |")
    print("|---|---|---|---|---|---|---|---|")
    for k, s in slopes.items():
        after = ranked(run, shape, k)
        print(f"| {k} | {s['before']:.3f} | {s['r']:.2f} | {s['b']:.2f} | {s['after']:.3f} | {apart(before[k])}"
              f" | {apart(after)} | {moved(before[k], after)} |")


def main(argv) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shape", default="rate-4000")
    p.add_argument("runs", nargs="+")
    a = p.parse_args(argv)
    for path in a.runs:
        report(path, a.shape)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
