"""Upgrade runs made up with a known truth, decided and gated as a real one is: what the gate's statuses are worth.

Each made-up run is a duet of one fixed-rate shape in the reference A/A run's design (SETS sets of BLOCKS blocks; noop,
old and new alive in each set). Per block the host moves all three alike; per window each version moves by its own
noise, sized so that a set's log ratio new/old spreads as the reference's did (recovered from its `detectable` by
analysis.decide.gate.pair_spread). Costs stand on noop's, which decide() takes off again. Each run goes through
analysis.decide.upgrade.decide, then analysis.decide.gate.gate, as analysis/cli.py gate does.

    python analysis/testkit/upgrade_runs.py     the rates the gate's tests assert on, for a commit's body
"""
from __future__ import annotations

import functools
import json
import math
import multiprocessing
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd

if __package__ in (None, ""):  # run as a file: the package from the checkout, not this file's folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])

from analysis import load as cbl
from analysis.decide import gate as cbg
from analysis.decide import upgrade as cbu
from analysis.decide import verdict as cbd

REFERENCE = cbl.ROOT / "results" / "20261129-010002-vm"  # the committed A/A run: jetty against itself, rate-4000
SETS, BLOCKS = 6, 9  # the reference's design: 6 pairs
HOST = 0.1  # sd of what a block does to every JVM alike, on the log scale (cancels in each pair)
NOOP_SHARE = 0.5  # noop's cost beside a version's, for the figures taken net of it
THRESHOLDS = {**dict.fromkeys(cbg.KEYS, cbg.OPEN), "cpu": 0.05, "alloc": 0.05, "p50": 0.05}
PLANTED = {"cpu": 1.15}  # new version's CPU per request 15% above old's
AA_RUNS = 2000  # a binomial sd of 0.5% on a 5% rate
PLANTED_RUNS = 500  # a binomial sd of 1.8% on an 80% rate
OLD, NEW = "jetty@12.1.14", "jetty@12.1.14#2"


@functools.cache
def reference() -> dict:
    """The reference run's `upgrade`, as summary.json holds it."""
    return json.loads((REFERENCE / "summary.json").read_text(encoding="utf-8"))["upgrade"]


def spreads(u: dict) -> dict:
    """(shape, figure key) -> (the old version's value, the sd of a pair's log ratio): what each made-up figure is."""
    return {(f["shape"], f["figure"]): (f["old"], cbg.pair_spread(f, u["figuresTogether"], u["confidence"]))
            for f in u["figures"]}


def made_up(rng: random.Random, figures: dict, planted: dict | None = None) -> cbl.Run:
    """A run whose forks are the duet's windows (round set * 1000 + block) of `figures` ((shape, key) -> (value, sd));
    `planted`: key -> the factor the new version's true value is of old's."""
    planted = planted or {}
    shapes = sorted({shape for shape, _ in figures})
    rows = []
    for shape in shapes:
        mine = {key: v for (s, key), v in figures.items() if s == shape}
        for s in range(1, SETS + 1):
            for b in range(1, BLOCKS + 1):
                host = rng.gauss(0, HOST)
                row = {c: {"shape": shape, "client": c, "round": s * 1000 + b} for c in (cbl.NOOP, OLD, NEW)}
                for key, (value, sd) in mine.items():
                    # a set's mean over BLOCKS windows of (new - old) has sd `sd`: each window's sd * sqrt(BLOCKS / 2)
                    window = sd * math.sqrt(BLOCKS / 2)
                    noop = NOOP_SHARE * value * math.exp(host) if cbd.BY_KEY[key].net else 0.0
                    row[cbl.NOOP][key] = noop or value * math.exp(host)
                    row[OLD][key] = noop + value * math.exp(host + rng.gauss(0, window))
                    row[NEW][key] = noop + value * planted.get(key, 1.0) * math.exp(host + rng.gauss(0, window))
                rows += row.values()
    f = pd.DataFrame(rows).assign(**{"steady": True, "jit": 0.0, "cpu.clock": "ns", "cpu.compilers": "out",
                                     "knee.status": ""})
    f["flags"] = [()] * len(f)
    env = {"clients": [OLD, NEW], "purpose": "a made-up upgrade", "settings": {"requestTimeout": "PT5S"},
           "shapes": [{"name": s, "benchmark": "clientbench.jmh.OpenLoopBenchmark.request",
                       "params": {"rate": "4000", "delayMs": "0"}} for s in shapes],
           "machine": {"cpuModel": "made up", "cpuCount": 2}, "launcherJdk": {"version": "25"},
           "upgrade": {"client": "jetty", "old": {"label": OLD, "version": "12.1.14"},
                       "new": {"label": NEW, "version": "12.1.14"}}}
    run = cbl.Run("made-up", REFERENCE / "made-up", env, {}, [])  # no behaviour.json there: none decided
    run._memo[("forks",)] = f.reindex(columns=_fork_columns(f))
    if cbl.forks(run) is not run._memo[("forks",)]:
        raise RuntimeError("analysis.load.forks no longer reads its memo: the made-up forks would not be decided")
    return run


def _fork_columns(f: pd.DataFrame) -> list:
    """The columns analysis.load.forks gives a real run, then the made-up frame's own: a column decide() reads and
    this lacks is unknown (NaN), as in a run that did not record it."""
    return _real_columns() + [c for c in f.columns if c not in _real_columns()]


@functools.cache
def _real_columns() -> list:
    return list(cbl.forks(cbl.Run("none", REFERENCE / "made-up", {}, {}, [])).columns)


def statuses(seed: int, runs: int, planted: dict | None = None, thresholds: dict | None = None) -> dict:
    """Over `runs` seeded made-up runs at the reference's spreads: status -> how many runs the gate gave it."""
    rng, figures = random.Random(seed), spreads(reference())
    out = {0: 0, 1: 0, 3: 0}
    for _ in range(runs):
        u = cbu.decide(made_up(rng, figures, planted))
        out[cbg.gate(u, thresholds or THRESHOLDS)["status"]] += 1
    return out


def rates(planted: dict | None = None, runs: int = AA_RUNS, seed: int = 1) -> dict:
    """status -> its share of `runs` runs, two halves at a time (each seeded), and `runs`."""
    halves = (runs // 2, runs - runs // 2)
    # Spawned, not forked: the caller (pytest, a notebook) may have threads of its own.
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = [pool.submit(statuses, seed + i, n, planted) for i, n in enumerate(halves)]
        counts = [p.result() for p in parts]
    return {**{s: sum(c[s] for c in counts) / runs for s in (0, 1, 3)}, "runs": runs}


if __name__ == "__main__":
    for name, got in (("A/A", rates()), ("planted CPU x1.15", rates(PLANTED, PLANTED_RUNS, seed=11))):
        print(f"{name}: {got['runs']} runs of {SETS} sets x {BLOCKS} blocks, cpu/alloc/p50 gated at 5%: status 1 "
              f"{got[1]:.1%}, 3 {got[3]:.1%}, 0 {got[0]:.1%}")
