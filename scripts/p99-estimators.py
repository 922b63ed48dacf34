#!/usr/bin/env python3
"""How far a fixed-rate shape's p99 repeats between JVMs of one client, per estimator of a fork's p99: its windows'
histograms merged (the verdict's), the median of its windows' p99s, their geometric mean, their smallest, and the
median and the geometric mean of the windows after the first measured one.

    .venv/bin/python scripts/p99-estimators.py RUN_DIR [RUN_DIR ...] [--shape SHAPE]   (SHAPE default rate-4000)

Per run and estimator, on the natural log: the spread between forks of a client, round effects out (the pooled sd of
the verdict's residuals, median polish), and the spread of windows within a fork; with two runs, how far each client's
estimate over its forks moved between them (the median and the largest |log ratio|).
"""
import math
import sys
from pathlib import Path
from statistics import fmean, median

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from analysis import load as cbl  # noqa: E402
from analysis.stats import pairwise as cbs  # noqa: E402

ESTIMATORS = {
    "merged": lambda merged, ws: merged,
    "median of windows": lambda merged, ws: median(ws),
    "geometric mean": lambda merged, ws: math.exp(fmean(math.log(w) for w in ws)),
    "smallest window": lambda merged, ws: min(ws),
    "median, first left out": lambda merged, ws: median(ws[1:]) if len(ws) > 1 else ws[0],
    "geo. mean, first left out": lambda merged, ws: math.exp(fmean(math.log(w) for w in (ws[1:] if len(ws) > 1 else ws))),
}


def forks(run, shape: str) -> dict:
    """(client, round) -> (merged p99, [each measured window's p99 in order])."""
    merged = cbl.forks(run)
    merged = merged[merged["shape"] == shape].set_index(["client", "round"])["p99"]
    out = {}
    for t in run.trials:
        if t.shape != shape or t.client == cbl.NOOP or not t.measured:
            continue
        ws = [float(it["latencyMicros"]["p99"]) for it in t.measured if (it.get("latencyMicros") or {}).get("p99")]
        if ws and (t.client, t.round) in merged.index:
            out[(t.client, t.round)] = (float(merged[(t.client, t.round)]), ws)
    return out


def spreads(fs: dict, estimator) -> tuple:
    """(sd between forks, round effects out; sd of log window p99 within a fork; client -> estimate over its forks)."""
    logs = {}
    for (c, r), (m, ws) in fs.items():
        logs.setdefault(c, {})[r] = math.log(estimator(m, ws))
    rho, mu = cbs.round_effects(logs)
    k = len(logs)
    resid = [y - rho[r] - mu[c] for c, rs in logs.items() for r, y in rs.items()]
    df = sum((len(rs) - 1) for rs in logs.values()) * (k - 1) / k
    within = [math.log(w) - fmean(math.log(x) for x in ws) for _, ws in fs.values() for w in ws]
    n_within = sum(len(ws) - 1 for _, ws in fs.values())
    return (math.sqrt(sum(e * e for e in resid) / df), math.sqrt(sum(e * e for e in within) / n_within),
            {c: math.exp(m) for c, m in mu.items()})


def main() -> None:
    args = sys.argv[1:]
    shape = args[args.index("--shape") + 1] if "--shape" in args else "rate-4000"
    dirs = [a for i, a in enumerate(args) if a != "--shape" and (i == 0 or args[i - 1] != "--shape")]
    runs = [cbl.load_run(Path(d)) for d in dirs]
    per = [forks(r, shape) for r in runs]
    first = [(c, r) for f in per for (c, r), (_, ws) in f.items() if ws.index(max(ws)) == 0]
    print(f"{shape}: p99 on the natural log; the first measured window holds its fork's largest p99 in {len(first)} of "
          f"{sum(len(f) for f in per)} forks")
    print(f"{'estimator':<24}" + "".join(f" {r.name[9:]:>8} JVMs {'windows':>8}" for r in runs)
          + ("   between runs: median, largest" if len(runs) == 2 else ""))
    for name, est in ESTIMATORS.items():
        got = [spreads(f, est) for f in per]
        line = f"{name:<24}" + "".join(f" {b:13.3f} {w:8.3f}" for b, w, _ in got)
        if len(got) == 2:
            a, b = got[0][2], got[1][2]
            moved = [abs(math.log(a[c] / b[c])) for c in a if c in b]
            line += f"   x{math.exp(median(moved)):.2f}, x{math.exp(max(moved)):.2f}"
        print(line)
    for run, f in zip(runs, per):
        between, within, _ = spreads(f, ESTIMATORS["geometric mean"])
        n = fmean(len(ws) for _, ws in f.values())
        first_up = fmean(math.log(ws[0]) - fmean(math.log(w) for w in ws[1:]) for _, ws in f.values() if len(ws) > 1)
        jvm = math.sqrt(max(0.0, between ** 2 - within ** 2 / n))
        print(f"{run.name}: a JVM's own p99 beyond its {n:.0f} windows' noise (geometric mean): sd {jvm:.3f}; the first "
              f"measured window's p99 over the others': x{math.exp(first_up):.2f}")


if __name__ == "__main__":
    main()
