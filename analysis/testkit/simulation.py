"""Runs made up with a known truth, decided as a real run is: what the verdict's pairs are worth.

Each made-up run is one shape's forks (noop's and twelve clients', a row per round) and goes through
analysis.decide.verdict.rank on CPU per request, net of noop's in the same round, at the confidence thresholds.json sets.
A/A runs: no client differs from another, so every pair told apart is false. Planted runs: two clients are slower by
construction. docs/reference/verdict.md's block of these rates is this module's output (`block`);
test_false_pairs.py checks both the rates and that the block is current.

`python analysis/testkit/simulation.py` prints the block; `--write` rewrites it in docs/reference/verdict.md.
"""
from __future__ import annotations

import functools
import math
import multiprocessing
import random
import re
import sys
from statistics import median
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd

if __package__ in (None, ""):  # run as a file: the package from the checkout, not this file's folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])

from analysis.decide import verdict as cbd
from analysis import load as cbl

DOC = cbl.ROOT / "docs" / "reference" / "verdict.md"
SHAPE = "made-up"
FIGURE = cbd.BY_KEY["cpu"]  # a figure netted of noop's: noop's own round-to-round spread is in every client's
LATENCY = cbd.BY_KEY["p50"]  # read from a histogram: known to its bucket's width, beyond the server's delay
DELAY_MS = 100  # where a bucket of 3 significant digits is 64 us wide
LATENCY_US = 300.0  # a client's latency p50 beyond the delay (noop's: a fifth of it), moving as its CPU does
NOOP_US = 28.0  # noop's CPU per request, and a client's own beside it: the reference run's at its common rate
CLIENT_US = 100.0
SPREAD = 0.08  # sd of a steady client JVM's log CPU per request over rounds (the harness's share in it included)
HOST = 0.2  # sd of what a round does to every JVM alike (a slow spell of the host)
MODES = math.log(1.7)  # the switching client's two modes, 1.7x apart: each round it is in one or the other
WIDE = 3  # the wide client's spread, in SPREADs
STEADY = [f"steady{i:02d}" for i in range(10)]
CLIENTS = ["switch", "wide", *STEADY]
AA_RUNS = 1000  # a binomial sd of 0.45% on a 2% rate, 0.7% on 5%
PLANTED_RUNS = 300
PLANTED = {"slow20": 1.2, "slow2x": 2.0}  # two steady clients made slower by these factors
MORE_RUNS = 500  # runs of three rounds for the latency and the unsteady forks


@functools.cache
def _histogram():
    from hdrh.histogram import HdrHistogram

    return HdrHistogram(1, 3_600_000_000, 3)  # as the harness records latency: 1 us to 1 h, 3 digits


def _read(us: float) -> tuple:
    """(the value a merged histogram gives for `us`: its bucket's top, the bucket's width)."""
    h, v = _histogram(), int(us)
    top = h.get_highest_equivalent_value(v)
    return float(top), float(top - h.get_lowest_equivalent_value(v) + 1)


def made_up_run(rng: random.Random, rounds: int, slower: dict | None = None, slow_unsteady: bool = False) -> tuple:
    """(a run of one shape whose forks hold noop's and every client's CPU per request and latency p50 per round,
    whether the switching client's rounds were in both modes). `slower`: steady client -> the factor its own cost is
    slower by. `slow_unsteady`: the switching client's forks in its slow mode never settled, as its warm-up would say."""
    slower = slower or {}
    names = [*CLIENTS[:2], *[n for n in STEADY if n not in slower], *slower]
    rows, modes = [], set()
    for r in range(1, rounds + 1):
        host = rng.gauss(0, HOST)
        e = rng.gauss(0, SPREAD)
        rows.append((cbl.NOOP, r, NOOP_US * math.exp(host + e), *_read(DELAY_MS * 1000 + LATENCY_US / 5 * math.exp(
            host + e)), True))
        for name in names:
            e = rng.gauss(0, WIDE * SPREAD if name == "wide" else SPREAD)
            slow = False
            if name == "switch":
                slow = rng.random() < 0.5
                modes.add(slow)
                e += MODES * slow
            k = slower.get(name, 1.0)
            rows.append((name, r, (NOOP_US + CLIENT_US * k) * math.exp(host + e),
                         *_read(DELAY_MS * 1000 + LATENCY_US * k * math.exp(host + e)), not (slow and slow_unsteady)))
    f = pd.DataFrame(rows, columns=["client", "round", FIGURE.column, LATENCY.column, f"{LATENCY.column}.width",
                                    "steady"])
    f = f.assign(shape=SHAPE, flags=[()] * len(f), jit=0.0, windows=3, **{"knee.status": ""})
    run = cbl.Run(SHAPE, cbl.ROOT, {"clients": [cbl.NOOP, *names],
                                    "shapes": [{"name": SHAPE, "params": {"delayMs": str(DELAY_MS)}}]}, {}, [])
    # what cbl.forks reads from trial records, given instead; any column it has and this lacks is unknown (NaN)
    run._memo[("forks",)] = f = f.reindex(columns=_fork_columns())
    if cbl.forks(run) is not f:
        raise RuntimeError("analysis.load.forks no longer reads its memo: the made-up forks would not be ranked")
    return run, len(modes) > 1


@functools.cache
def _fork_columns() -> list:
    made = ["client", "round", FIGURE.column, LATENCY.column, f"{LATENCY.column}.width", "steady", "shape", "flags",
            "jit", "windows", "knee.status"]
    real = list(cbl.forks(cbl.Run(SHAPE, cbl.ROOT, {}, {}, [])).columns)
    return real + [c for c in made if c not in real]


def told_apart(v: dict) -> set:
    return {frozenset((p["better"], p["worse"])) for p in v["pairs"]["apart"]}


def aa_rates(rounds: int, runs: int = AA_RUNS) -> dict:
    """Over `runs` seeded A/A runs, the share with: a false pair between steady clients; a steady client judged on its
    own spread; the wide client judged on its own; the wide client told apart from a steady one; and, of the runs
    whose switching client was in both modes (`switched`), the share with it told apart from a steady one."""
    rng = random.Random(41 + rounds)
    n = dict.fromkeys(["steady", "steadyOwn", "wideOwn", "wide", "switched", "switch"], 0)
    for _ in range(runs):
        run, both_modes = made_up_run(rng, rounds)
        v = cbd.rank(run, SHAPE, FIGURE)
        apart = told_apart(v)
        n["steady"] += any(p <= set(STEADY) for p in apart)
        n["steadyOwn"] += any(c in STEADY for c in v["ownSpread"])
        n["wideOwn"] += "wide" in v["ownSpread"]
        n["wide"] += any("wide" in p and p & set(STEADY) for p in apart)
        if both_modes:
            n["switched"] += 1
            n["switch"] += any("switch" in p and p & set(STEADY) for p in apart)
    return {k: n[k] if k == "switched" else n[k] / (n["switched"] if k == "switch" else runs) for k in n}


def planted_rates(runs: int = PLANTED_RUNS) -> dict:
    """Over `runs` seeded runs of three rounds with PLANTED beside the switching and the wide client: the share of the
    20% client's pairs with steady clients told apart, the share of runs with the 2x client told apart from every
    steady client, and the share with a false pair between steady clients."""
    rng = random.Random(7)
    apart20, pairs20, all2x, steady_false = 0, 0, 0, 0
    for _ in range(runs):
        run, _ = made_up_run(rng, 3, PLANTED)
        v = cbd.rank(run, SHAPE, FIGURE)
        apart = told_apart(v)
        steady = [c for c in STEADY if c not in PLANTED]
        apart20 += sum(frozenset((c, "slow20")) in apart for c in steady)
        pairs20 += len(steady)
        all2x += all(frozenset((c, "slow2x")) in apart for c in steady)
        steady_false += any(p <= set(steady) for p in apart)
    return {"20%": apart20 / pairs20, "2x": all2x / runs, "steady": steady_false / runs}


def more_rates(runs: int = MORE_RUNS) -> dict:
    """Over `runs` seeded A/A runs of three rounds whose switching client's slow forks never settled: on CPU, the share
    with a false pair between steady clients, the share with the switching client unlettered (under two steady
    rounds) and, of the runs it was lettered in, the share with it told apart from a steady one; on latency p50 beyond
    the delay, read from its buckets, the share with a false pair between steady clients."""
    rng = random.Random(5)
    n = dict.fromkeys(["steady", "unlettered", "lettered", "switch", "latency"], 0)
    for _ in range(runs):
        run, _ = made_up_run(rng, 3, slow_unsteady=True)
        v = cbd.rank(run, SHAPE, FIGURE)
        apart = told_apart(v)
        n["steady"] += any(p <= set(STEADY) for p in apart)
        if v["clients"]["switch"]["letters"]:
            n["lettered"] += 1
            n["switch"] += any("switch" in p and p & set(STEADY) for p in apart)
        else:
            n["unlettered"] += 1
        n["latency"] += any(p <= set(STEADY) for p in told_apart(cbd.rank(run, SHAPE, LATENCY)))
    return {k: n[k] if k == "lettered" else n[k] / (n["lettered"] if k == "switch" else runs) for k in n}


@functools.cache
def rates() -> dict:
    """Every rate the block states: {2: A/A at two rounds, 3: at three, "planted": planted_rates(), "more":
    more_rates()}. Each seeds its own generator, so they run two at a time and come out as one after another."""
    # Spawned, not forked: the caller (pytest, a notebook) may have threads of its own.
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as pool:
        more = pool.submit(more_rates)  # the longest first, so that the two workers end about together
        aa2, aa3 = pool.submit(aa_rates, 2), pool.submit(aa_rates, 3)
        planted = pool.submit(planted_rates)
        out = {2: aa2.result(), 3: aa3.result(), "planted": planted.result(), "more": more.result()}
    return {**out, "family": family_rates()}


UNTIL_CLIENTS = ["x", "y", "z"]  # a team's question about three clients
UNTIL_ROUNDS = 6  # --until-decided 6: looks after rounds 2 to 6 and one for rounds run again, each at 1 - 0.05/6
UNTIL_RUNS = 1000


def until_decided(rng: random.Random, slower: dict, split: bool = True, max_rounds: int = UNTIL_ROUNDS,
                  clients: tuple = tuple(UNTIL_CLIENTS), spread: float = SPREAD) -> tuple:
    """(each pair's state where the run stopped, the rounds it took): one made-up run of `clients` under
    --until-decided, a client's log figure moving by the host's round (sd HOST) and its own spread (sd SPREAD), each
    look by analysis.stats.pairwise.compare and analysis.decide.pairs.pair_states as a run's, at CPU's margin. `slower`: client
    -> factor; `spread`: each client's own sd.
    `split`: each look at the confidence split over the looks, as the suite does; False: every look at 95%."""
    import dataclasses
    import types

    from analysis.decide import pairs as cbud
    from analysis.stats import pairwise as cbs

    values = {c: {} for c in clients}
    looks = max_rounds if split else 1  # what env.json's untilDecided says of such a run
    confidence = cbl.confidence(types.SimpleNamespace(env={"untilDecided": {"looks": looks, "shape": SHAPE}}), SHAPE)
    margin = cbud.margin(FIGURE.key)
    for r in range(1, max_rounds + 1):
        host = rng.gauss(0, HOST)
        for c in clients:
            values[c][r] = CLIENT_US * slower.get(c, 1.0) * math.exp(host + rng.gauss(0, spread))
        if r < 2:
            continue
        cmp = cbs.compare(values, False, cbl.CONFIDENCE, pair_confidence=confidence)
        ratios = [{**dataclasses.asdict(x), "state": cbud.pair_state(x, margin)[0]} for x in cmp.ratios]
        states = cbud.pair_states({"pairs": {"ratios": ratios}}, list(clients))
        if r == max_rounds or not states[cbud.OPEN]:
            return states, r


def until_decided_rates(runs: int = UNTIL_RUNS) -> dict:
    """Per truth (two or three clients alike; of three, z 10% and 20% slower) and look (split or not): the share of
    runs with a pair of equal clients told apart (`false`), with z told apart from both others (`found`), and the mean
    rounds a run took. Two alike is the case a look's stop favours most: the run stops exactly when its pair is apart."""
    from analysis.decide import pairs as cbud

    out = {}
    for name, slower, clients in (("two alike", {}, ("x", "y")), ("three alike", {}, tuple(UNTIL_CLIENTS)),
                                  ("z 10% slower", {"z": 1.1}, tuple(UNTIL_CLIENTS)),
                                  ("z 20% slower", {"z": 1.2}, tuple(UNTIL_CLIENTS))):
        for split in (True, False):
            rng = random.Random(11)
            false = found = took = 0
            for _ in range(runs):
                states, r = until_decided(rng, slower, split, clients=clients)
                apart = [set(p) for p in states[cbud.APART]]
                false += any(not ({"z"} & p) or not slower for p in apart)
                found += bool(slower) and {"x", "z"} in apart and {"y", "z"} in apart
                took += r
            out[(name, split)] = {"false": false / runs, "found": found / runs, "rounds": took / runs}
    return out


FAMILY_RUNS = 1000  # a binomial sd of 0.7% on a 5% rate
COMMITTED = ("20261128-172116-vm", "20261128-181610-vm")  # committed standard runs whose spreads are replayed
COMMON_SHAPE = "rate-4000"
PATTERN_FIGURES = ("cpu", "p50", "p99")  # the figures teams choose on


def committed_spreads() -> dict:
    """'20261128-172116-vm cpu' -> {client: sd}: each client's own spread at the common rate (its residuals' sd, the
    round effects out, as the verdict reads it: `ownSd`) in each committed run, per figure of PATTERN_FIGURES."""
    out = {}
    for name in COMMITTED:
        run = cbl.load_run(cbl.ROOT / "results" / name)
        for key in PATTERN_FIGURES:
            f = cbd.rank(run, COMMON_SHAPE, cbd.BY_KEY[key])
            out[f"{name} {key}"] = {c: x["ownSd"] for c, x in f["clients"].items() if x["ownSd"]}
    return out


def scenarios() -> dict:
    """Name -> {client: its own spread}: twelve clients alike in all but spread, as the family-wise table runs them."""
    wide = lambda n: {f"c{i:02d}": SPREAD * (WIDE if i < n else 1) for i in range(12)}  # noqa: E731
    return {"equal": wide(0), "two wide": wide(2), "three wide": wide(3), **committed_spreads()}


def spread_run(rng: random.Random, spreads: dict, rounds: int = 3) -> cbl.Run:
    """A run of one shape whose clients all cost CLIENT_US net of noop's, each round moving every JVM alike (sd HOST)
    and each client by its own spread; noop moves with the host alone, so each net figure's spread is the client's."""
    rows = []
    for r in range(1, rounds + 1):
        host = rng.gauss(0, HOST)
        rows.append((cbl.NOOP, r, NOOP_US * math.exp(host)))
        rows += [(c, r, NOOP_US * math.exp(host) + CLIENT_US * math.exp(host + rng.gauss(0, sd)))
                 for c, sd in spreads.items()]
    f = pd.DataFrame(rows, columns=["client", "round", FIGURE.column])
    f = f.assign(shape=SHAPE, flags=[()] * len(f), jit=0.0, windows=3, steady=True, **{"knee.status": ""})
    run = cbl.Run(SHAPE, cbl.ROOT, {"clients": [cbl.NOOP, *spreads], "shapes": [{"name": SHAPE, "params": {}}]}, {}, [])
    run._memo[("forks",)] = f.reindex(columns=_fork_columns())
    return run


def family_rate(spreads: dict, runs: int = FAMILY_RUNS, seed: int = 29) -> float:
    """The share of `runs` seeded runs of three rounds, every client alike, with any pair told apart by rank()."""
    rng = random.Random(seed)
    return sum(bool(told_apart(cbd.rank(spread_run(rng, spreads), SHAPE, FIGURE))) for _ in range(runs)) / runs


def family_rates() -> dict:
    """Per scenario (`scenarios`), its family-wise false-pair rate; two at a time."""
    todo = scenarios()
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as pool:
        got = {name: pool.submit(family_rate, spreads) for name, spreads in todo.items()}
        return {name: {"rate": x.result(), "spreads": todo[name]} for name, x in got.items()}


def _pct(x: float) -> str:
    return f"{x:.1%}"


BEGIN = ("<!-- clientbench:simulation begin: generated by python analysis/testkit/simulation.py --write; "
         "edits here are lost -->")
END = "<!-- clientbench:simulation end -->"


def block(r: dict | None = None) -> str:
    """docs/reference/verdict.md's block: the made-up runs and the rates their verdicts came out with."""
    r = r or rates()
    p, m = r["planted"], r["more"]
    family = "\n".join(f"| {name} | {_spread_words(x['spreads'])} | {_pct(x['rate'])} |" for name, x in r["family"].items())
    rows = "\n".join(f"| {n} | {_pct(a['steady'])} | {_pct(a['steadyOwn'])} | {_pct(a['wideOwn'])} | "
                     f"{_pct(a['wide'])} | {_pct(a['switch'])} of {a['switched']:,} |" for n, a in ((2, r[2]), (3, r[3])))
    return f"""{BEGIN}
Twelve clients alike and noop, {AA_RUNS:,} seeded runs at each number of rounds, each decided by
`analysis.decide.verdict.rank` on CPU per request net of noop's in the same round, at {cbl.CONFIDENCE:.0%} (thresholds.json).
noop costs {NOOP_US:.0f} us and each client {CLIENT_US:.0f} us beside it; each round moves every JVM alike (sd {HOST}
on the log scale) and each JVM by its own spread (sd {SPREAD}); one client switches between two modes
{math.exp(MODES):.1f}x apart (each round in one or the other at random), one has {WIDE} times the others' spread.

| rounds | a false pair between steady clients | a steady client judged on its own spread | the wide client judged on its own spread | the wide client told apart from a steady one | the switching client told apart from a steady one, of the runs with its rounds in both modes |
|---|---|---|---|---|---|
{rows}

With one client 20% and one 2x slower planted beside the switching and the wide client ({PLANTED_RUNS} runs of
three rounds): the 20% slower client is told apart from {_pct(p['20%'])} of the steady clients, the 2x slower from
every steady client in {_pct(p['2x'])} of runs, and steady clients are falsely told apart in {_pct(p['steady'])}.

With the switching client's forks in its slow mode marked unsteady, as its warm-up would ({MORE_RUNS} runs of three
rounds): a false pair between steady clients in {_pct(m['steady'])}; the switching client shown without letters in
{_pct(m['unlettered'])} (under two steady rounds) and, of the {m['lettered']} runs it was lettered in, told apart
from a steady one in {_pct(m['switch'])}. The same runs on latency p50 beyond a {DELAY_MS} ms delay, each value its
histogram bucket's top (64 us wide there; clients {LATENCY_US:.0f} us beyond it): a false pair between steady clients
in {_pct(m['latency'])}.

Family-wise, where clients' spreads differ: twelve clients alike in all but their own spread (each moving by it on
the log scale, net of noop's; each round moving every JVM alike, sd {HOST}), {FAMILY_RUNS} seeded runs of three
rounds each, decided by `analysis.decide.verdict.rank`: the share of runs with any pair told apart, against the promise of
{1 - cbl.CONFIDENCE:.0%}. Equal spreads, two or three clients at {WIDE} times the others' spread, and each committed
run's own pattern at its common rate: each client's spread as its residuals gave it (`ownSd`), so the four cheapest
clients' CPU is wide there, netted of noop's before the log.

| spreads | the clients' own sd on the log scale | runs with a false pair |
|---|---|---|
{family}
{END}"""


def _spread_words(spreads: dict) -> str:
    """'0.08 each', 'two at 0.24, ten at 0.08', or 'from 0.003 to 0.079, median 0.03'."""
    sds = sorted(spreads.values())
    if len(set(sds)) == 1:
        return f"{sds[0]:.2g} each"
    if len(set(sds)) == 2:
        return ", ".join(f"{_count(sds.count(v))} at {v:.2g}" for v in sorted(set(sds), reverse=True))
    return f"from {sds[0]:.2g} to {sds[-1]:.2g}, median {median(sds):.2g}"


def _count(n: int) -> str:
    return ["none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven"][n] \
        if n < 12 else str(n)


def _pattern() -> re.Pattern:
    return re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)


def current_block(doc: Path = DOC) -> str:
    m = _pattern().search(doc.read_text(encoding="utf-8"))
    if not m:
        raise cbl.AnalysisError(f"{doc}: no simulation block (a line '{BEGIN}' and one '{END}')")
    return m.group(0)


def write(doc: Path = DOC):
    current_block(doc)
    text = doc.read_text(encoding="utf-8")
    doc.write_text(_pattern().sub(lambda _: block(), text, count=1), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
        print(f"simulation: the block of {DOC}")
    elif sys.argv[1:] == ["--until-decided"]:
        print(f"{UNTIL_RUNS} runs each, up to {UNTIL_ROUNDS} rounds, host sd {HOST}, own sd {SPREAD}")
        for (name, split), x in until_decided_rates().items():
            print(f"{name:13s} {'split' if split else '95% each':9s} false pair {_pct(x['false'])}, z apart from both "
                  f"{_pct(x['found'])}, rounds {x['rounds']:.2f}")
    elif sys.argv[1:]:
        print("usage: analysis/testkit/simulation.py [--write | --until-decided]", file=sys.stderr)
        sys.exit(2)
    else:
        print(block())
