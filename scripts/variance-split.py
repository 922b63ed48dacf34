#!/usr/bin/env python3
"""Where a fixed-rate shape's spread comes from, on the log scale: what the host did to every client at once (round
or block effects), what a client's JVMs differ by beyond their windows, and what its windows differ by.

    .venv/bin/python scripts/variance-split.py RUN_DIR [SHAPE]      (SHAPE default rate-4000)

A run in rounds has one fork a client a round: the host's effect is the round's, and a fork's mean over its windows
is one JVM. A run in interleaved sets has one fork a client a set and one window a client a block: the host's effect
is the block's, within its set. Each effect is estimated as the median over clients, as the verdict estimates round
effects; the JVMs' spread is what their means spread beyond what their windows explain (floored at 0).
"""
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from analysis import load as cbl  # noqa: E402

FIGURES = {"p50": "latency p50", "cpu": "CPU/req (gross)", "alloc": "bytes/req (gross)"}


def measured_windows(run, shape: str) -> pd.DataFrame:
    w = cbl.windows(run)
    w = w[(w["shape"] == shape) & w["measured"]].copy()
    blocks = {}
    for t in run.trials:
        if t.shape == shape:
            for it in t.iterations:
                if it["measured"]:
                    blocks[(t.client, t.round, it["windowStartEpochMillis"])] = it.get("block")
    w["block"] = [blocks.get((c, r, s)) for c, r, s in zip(w["client"], w["round"], w["started"])]
    return w


def split(w: pd.DataFrame, figure: str) -> dict:
    d = w[["client", "round", "block", "started", figure]].dropna(subset=[figure]).copy()
    d = d[d[figure] > 0]
    d["y"] = np.log(d[figure])
    interleaved = d["block"].notna().all() and len(d) > 0
    d["jvm"] = d["client"] + "/" + d["round"].astype(str)
    if interleaved:
        d["host"] = d["round"].astype(str) + "/" + d["block"].astype(int).astype(str)
    else:
        d["host"] = d["round"].astype(str)
    # Client levels, then host effects as medians over clients of what is left, then client levels again.
    level = d.groupby("client")["y"].median()
    host = (d["y"] - d["client"].map(level)).groupby(d["host"]).median()
    level = (d["y"] - d["host"].map(host)).groupby(d["client"]).mean()
    d["r"] = d["y"] - d["client"].map(level) - d["host"].map(host)
    within = d.groupby("jvm")["r"].var(ddof=1)
    per_jvm = d.groupby("jvm")["r"].agg(["mean", "count"])
    window_var = float(within.mean())
    n = float(per_jvm["count"].mean())
    between = max(0.0, float(per_jvm["mean"].var(ddof=1)) - window_var / n) if len(per_jvm) > 1 else math.nan
    return {"design": "interleaved" if interleaved else "rounds", "host_sd": float(host.std(ddof=1)),
            "jvm_sd": math.sqrt(between), "window_sd": math.sqrt(window_var), "windows_per_jvm": n,
            "jvms": len(per_jvm), "clients": d["client"].nunique()}


def main() -> None:
    run = cbl.load_run(Path(sys.argv[1]))
    shape = sys.argv[2] if len(sys.argv) > 2 else "rate-4000"
    w = measured_windows(run, shape)
    print(f"{sys.argv[1]} {shape}: sd of the natural log")
    print(f"{'figure':<18} {'design':<12} {'host':>7} {'JVMs':>7} {'windows':>8}  (windows a JVM, JVMs, clients)")
    for key, label in FIGURES.items():
        s = split(w, key)
        print(f"{label:<18} {s['design']:<12} {s['host_sd']:7.3f} {s['jvm_sd']:7.3f} {s['window_sd']:8.3f}  "
              f"({s['windows_per_jvm']:.0f}, {s['jvms']}, {s['clients']})")


if __name__ == "__main__":
    main()
