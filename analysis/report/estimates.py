"""One estimator per figure, wherever a figure is shown: the verdict's (docs/reference/verdict.md, "One estimate per
figure").

Per fork (one a round) the figure over its measured windows: a latency percentile from the fork's merged histogram,
beyond the server's delay; a cost as its totals over its requests, gross or net of noop's fork in the same round. Over
the rounds, the estimate analysis.stats.pairwise.compare makes of it, round effects taken out (with one round, the fork's
own figure). The decision table, the spectra and results.csv all
show this; summary.json's runs[] keep Java's facts over every round's requests together, which the SLO judged.
"""
from __future__ import annotations

import csv
import dataclasses
import io

from analysis.decide import verdict as cbd
from analysis import load as cbl
from analysis.stats import pairwise as cbs

TAIL = 100.0  # the spectrum's last point: the largest value, not a percentile


def value_at(h, percentile: float) -> float:
    return h.get_max_value() if percentile >= TAIL else h.get_value_at_percentile(percentile)


@cbl.per_run
def percentiles(run: cbl.Run, shape: str, tag: str, points: tuple = tuple(cbl.SPECTRUM)) -> dict:
    """{client: {percentile: microseconds}} of `tag` (latency, service, lag) in `shape`, each percentile estimated
    as the verdict estimates a figure: per fork from its merged histogram, beyond the server's delay (noop, which never
    reaches the server, as measured), then over the rounds by analysis.stats.pairwise.compare. Noop is estimated alone."""
    delay_us = int(run.shape_params(shape).get("delayMs") or 0) * 1000 if tag != "lag" else 0
    rounds = {}
    for t in run.trials:
        hs = t.intervals(tag) if t.shape == shape else []
        merged = cbl.merged(hs) if hs else None
        if merged is None or not merged.get_total_count():
            continue
        shift = 0 if t.client == cbl.NOOP else delay_us
        for p in points:
            rounds.setdefault(t.client, {}).setdefault(p, {})[t.round] = value_at(merged, p) - shift
    out = {}
    for group in ([c for c in rounds if c != cbl.NOOP], [c for c in rounds if c == cbl.NOOP]):
        for p in points:
            values = {c: {r: x for r, x in rounds[c][p].items() if x > 0} for c in group}
            values = {c: x for c, x in values.items() if x}
            if not values:
                continue
            est = cbs.compare(values, False, cbl.CONFIDENCE).estimate
            for c, x in est.items():
                out.setdefault(c, {})[p] = x
    return out


# ---------------------------------------------------------------- results.csv

# Per figure of the verdict, its columns in results.csv; a cost also gross (the harness included).
COSTS = {"cpu": "cpu.per.req", "alloc": "alloc.per.req", "syscalls": "syscalls.per.req",
         "cswitches": "cswitches.per.req"}
LATENCY = {50: "lat.p50", 90: "lat.p90", 99: "lat.p99", 99.9: "lat.p999", TAIL: "lat.max"}
# An open loop's service time (completion - actual send) and the pacer's lag (actual send - intended start).
OPEN_ONLY = {("service", 50): "service.p50", ("service", 99): "service.p99", ("lag", 99): "lag.p99"}
RANKED = {**{k: f"{c}.net" for k, c in COSTS.items()}, "p50": "lat.p50", "p99": "lat.p99", "throughput": "ok.per.s",
          "knee": "knee"}


def figure_columns(run: cbl.Run, v: dict | None) -> dict:
    """{(shape, client): {column: value}}: every figure results.csv gives, by the one estimator; for a figure the
    verdict ranked, its interval (`.low`, `.high`) and letters (`tier.<figure>`) too."""
    out = {}

    def put(shape, client, column, x):
        if x is not None and x == x and abs(x) != float("inf"):
            out.setdefault((shape, client), {})[column] = float(f"{x:.4g}")

    ranked = {(s["shape"], f["figure"]) for s in (v or {}).get("shapes", []) for f in s["figures"]}
    for shape in run.shapes:
        kind = cbl.kind(run, shape)
        if kind == "capacity":
            if (shape, "knee") not in ranked:
                for c, x in ((cbd.rank(run, shape, cbd.BY_KEY["knee"]) or {}).get("clients") or {}).items():
                    put(shape, c, "knee", x["value"])
            continue
        tag = "service" if kind == "closed" else "latency"
        # The spectra's own where a spectrum is drawn (LATENCY's points are among its), else those points alone.
        points = tuple(cbl.SPECTRUM) if kind in ("open", "closed") else tuple(LATENCY)
        for c, ps in percentiles(run, shape, tag, points).items():
            for p, column in LATENCY.items():
                put(shape, c, column, ps.get(p))
        for other in (("service", "lag") if tag == "latency" else ()):
            wanted = {p: column for (t, p), column in OPEN_ONLY.items() if t == other}
            for c, ps in percentiles(run, shape, other, tuple(wanted)).items():
                for p, column in wanted.items():
                    put(shape, c, column, ps.get(p))
        for key, column in [*COSTS.items(), ("throughput", "ok.per.s")]:
            figure = cbd.BY_KEY[key]
            for c, x in _each(run, shape, dataclasses.replace(figure, net=False)).items():
                put(shape, c, f"{column}.gross" if figure.net else column, x)
            if figure.net and (shape, key) not in ranked:  # a ranked figure's value comes with the verdict's below
                for c, x in ((cbd.rank(run, shape, figure) or {}).get("clients") or {}).items():
                    put(shape, c, f"{column}.net", x["value"])
    for s in (v or {}).get("shapes", []):
        for f in s["figures"]:
            column = RANKED.get(f["figure"])
            for c, x in f["clients"].items():
                if column:
                    put(s["shape"], c, column, x["value"])
                    put(s["shape"], c, f"{column}.low", x["low"])
                    put(s["shape"], c, f"{column}.high", x["high"])
                out.setdefault((s["shape"], c), {})[f"tier.{f['figure']}"] = x["letters"]
    return out


def _each(run: cbl.Run, shape: str, figure: cbd.Figure) -> dict:
    """{client: estimate} of a figure taken as it is (not net), noop's estimated alone."""
    ranked = cbd.rank(run, shape, figure)
    out = {c: x["value"] for c, x in ((ranked or {}).get("clients") or {}).items()}
    f = cbd.compared(run, figure)
    floor = cbd.harness_floor(f[f["shape"] == shape], figure)
    if floor:
        out[cbl.NOOP] = floor["value"]
    return out


def order(columns: list) -> list:
    """The analysis's columns in a reading order: ok/s, latency, the costs gross then net, the knee; then letters."""
    first = ["ok.per.s", *LATENCY.values(), *OPEN_ONLY.values(),
             *(f"{c}.{k}" for c in COSTS.values() for k in ("gross", "net")), "knee"]
    rank = {name: i for i, name in enumerate(first)}
    return sorted(columns, key=lambda k: (k.startswith("tier."), rank.get(k.rsplit(".", 1)[0] if k.endswith(
        (".low", ".high")) else k, len(first)), k.endswith(".high"), k.endswith(".low"), k))


def write_csv(run: cbl.Run, v: dict | None):
    """results.csv with the analysis's columns (`figure_columns`) after Java's, replaced on a second pass, not
    added twice; the file written whole."""
    path = run.path / "results.csv"
    if not path.is_file():
        return
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    rows = [r for r in rows if r.get("shape") != cbd.BEHAVIOUR_ROW]  # replaced below, never added twice
    figures = figure_columns(run, v)
    ours = order(list(dict.fromkeys(k for cols in figures.values() for k in cols)))
    behaviour = (v or {}).get("behaviour") or {}
    marks = [f"{p}.{a['key']}" for a in behaviour.get("aspects", []) for p in ("behaviour", "mark")]
    java = [k for k in (rows[0].keys() if rows else [])
            if k not in ours and not k.startswith(("tier.", "behaviour.", "mark."))]
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=java + ours + marks, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({**{k: r.get(k, "") for k in java}, **figures.get((r.get("shape"), r.get("client")), {})})
    for r in cbd.behaviour_rows(behaviour, run.name):
        w.writerow({k: r.get(k, "") for k in java + marks})
    cbd.write_atomically(path, out.getvalue())
