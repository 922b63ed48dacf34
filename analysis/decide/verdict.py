"""The verdict: every figure of every shape compared between clients, decided once, here.

Pairwise over the rounds (analysis.stats.pairwise), as ranked tiers into summary.json (analysis.report.estimates puts them in
results.csv), which the terminal and report print without deciding again. A flagged figure is ranked with its mark; a
lower bound is never found worse.
"""
from __future__ import annotations

import math
import os
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis.decide import behaviour as cbb
from analysis.decide import conditions as cond
from analysis.decide import pairs as cbud
from analysis.decide import layercost as cblc
from analysis import load as cbl
from analysis.stats import pairwise as cbs


@dataclass(frozen=True)
class Figure:
    """One figure the verdict ranks: its key (API: summary.json's verdict, results.csv's tier.<key>), words, the
    forks' column it reads, its unit, its direction, whether noop's is taken off, and the shapes it ranks in.
    `exact`: a count or a size, the same every round unless something changed (never inferred from a zero spread);
    `histogram`: read from an HdrHistogram, so known only to its bucket's width."""
    key: str
    label: str
    short: str
    column: str
    unit: str
    higher_is_better: bool
    net: bool
    kinds: tuple
    exact: bool = False
    histogram: bool = False


FIGURES = [
    Figure("cpu", "CPU per request", "CPU/req us", "cpu", "us", False, True, ("open", "closed")),
    Figure("alloc", "bytes allocated per request", "bytes/req", "alloc", "B", False, True, ("open", "closed")),
    Figure("syscalls", "system calls per request", "syscalls/req", "syscalls", "", False, True, ("open", "closed")),
    Figure("cswitches", "context switches per request", "switches/req", "cswitches", "", False, True, ("open", "closed")),
    Figure("p50", "latency p50", "latency p50", "p50", "us", False, False, ("open",), histogram=True),
    Figure("p99", "latency p99", "latency p99", "p99", "us", False, False, ("open",), histogram=True),
    Figure("throughput", "throughput", "ok/s", "ok/s", "req/s", True, False, ("closed",)),
    Figure("knee", "knee", "knee req/s", "knee", "req/s", True, False, ("capacity",)),
]
# Before the first request (startup.json, footprint.json): each start net of noop's start in the same round.
STARTUP = [
    Figure("coldStart", "time from JVM start to the first response", "cold start", "startToFirstResponseMs", "ms",
           False, True, ("startup",)),
    Figure("classes", "classes loaded by the first response", "classes", "classesLoaded", "", False, True, ("startup",),
           exact=True),
    Figure("threads", "threads after the first request", "threads", "afterFirst.threads", "", False, True, ("startup",),
           exact=True),
    Figure("heap", "heap after the first request and a full GC", "heap", "afterFirst.heapUsedBytes", "B", False, True,
           ("startup",)),
    Figure("rss", "resident memory after the first request", "RSS", "afterFirst.rssBytes", "B", False, True, ("startup",)),
    Figure("rss10k", "resident memory after 10,000 requests", "RSS 10k", "afterRequests.rssBytes", "B", False, True,
           ("startup",)),
    Figure("heap10k", "heap after 10,000 requests and a full GC", "heap 10k", "afterRequests.heapUsedBytes", "B", False,
           True, ("startup",)),
    Figure("deps", "the client's own dependencies", "deps", "bytes", "B", False, False, ("startup",), exact=True),
]
BY_KEY = {f.key: f for f in FIGURES + STARTUP}
# Marks a figure carries where a fork's windows raised them: the report and terminal explain each once.
MARKS = {"jit": "the client JVM's JIT compiled for over {jit:.0%} of a measured window: it may still have been warming up",
         "gen": "the client JVM's CPUs were full: the generator may have been the limit",
         "lag": "the pacer's lag was a visible part of the latency",
         "stub": "the stub was busy: the server may have been the limit",
         "steal": "the host took 10% or more of the CPU in a window",
         "unsteady": "a fork never settled in its warm-up (its JIT or its p50 still moving at the bound): shown, but "
                     "left out of the round effects and the letters",
         "uneven": "a fork's measured windows differ by over 20% in ok/s",
         "open": "no rate failed before the search's budget ran out: the knee is at least this",
         "ceiling": "the ceiling of the ladder was kept: the knee is at least this",
         "flagged": "every miss at the bound carried a host or harness flag: the knee may be understated",
         "clock": "the record does not say which clock its CPU time was read on (ranked as if the ns clock)",
         "compilers": "the JIT compilers' CPU time was not read in a window: the JVM's whole CPU time is counted there",
         "noop": "a round without noop: netted against noop's median over the shape's other rounds",
         "dropped": "a round's figure came out 0 or less (net of noop's, or beyond the server's delay): that round is "
                    "left out of its rounds"}
_FLAG_WORDS = {"generator": "gen", "lag": "lag", "stub": "stub", "steal": "steal", "unsteady": "uneven"}


# ---------------------------------------------------------------- one figure of one shape

def unstopped_sets(run: cbl.Run) -> list:
    """env.json's interleaved sets in which a fork could not be stopped while it waited: the windows of that set shared
    the host with it, so their figures are not what the design promises."""
    return [{"shape": s.get("shape"), "set": s.get("set"), "forks": dict(sorted(s["notStopped"].items()))}
            for s in run.env.get("sets", []) if s.get("notStopped")]


def unstopped_words(u: dict) -> str:
    forks = ", ".join(f"{c} ({n} time{'s' if n != 1 else ''})" for c, n in u["forks"].items())
    return f"{u['shape']} set {u['set']}: not stopped while waiting: {forks}; the other forks' windows shared the host"


def net_of_noop(f: pd.DataFrame, figure: Figure) -> pd.DataFrame:
    """The fork's figure, net of noop's in the same round (noop's median over rounds where its round is missing: then
    `noop.elsewhere`); latency beyond the server's delay is the shape's business (see `values`). `width`: the
    histogram's bucket at the figure (0 where it is not read from one)."""
    col = figure.column
    own = (f["client"] != cbl.NOOP).to_numpy()
    n = int(own.sum())

    def kept(name: str, default) -> list:
        return list(f[name].to_numpy()[own]) if name in f else [default] * n

    value = kept(col, math.nan)
    out = {"client": kept("client", None), "round": kept("round", None), "value": value,
           "width": kept(f"{col}.width", 0.0) if figure.histogram else [0.0] * n,
           "steady": kept("steady", True), "flags": kept("flags", ()), "jit": kept("jit", math.nan),
           "knee.status": kept("knee.status", ""), "windows": kept("windows", math.nan),
           "cpu.clock": kept("cpu.clock", "unknown"), "cpu.compilers": kept("cpu.compilers", "in"),
           "noop.elsewhere": [False] * n}
    if figure.net:
        at_noop = ~own
        noop = dict(zip(f["round"].to_numpy()[at_noop], f[col].to_numpy()[at_noop]))
        fallback = f.loc[at_noop, col].median() if noop else math.nan
        out["value"] = [v - noop.get(r, fallback) for v, r in zip(value, out["round"])]
        out["noop.elsewhere"] = [r not in noop for r in out["round"]]
    return pd.DataFrame(out, index=f.index[own])


# A CPU figure is ranked only where the ns clock took it: a tick is 10 ms, and a failed read leaves it unknown.
CLOCK_REFUSED = {"ticks": "CPU read on the JVM's 10 ms ticks, not the ns clock",
                 "failed": "a CPU read failed in a measured window: its CPU is unknown",
                 "none": "no CPU clock in the client JVM", "not read": "a measured window read no CPU clock"}


def clock_refusals(f: pd.DataFrame, figure: Figure) -> dict:
    """client -> why its CPU figure is not ranked: one of its forks, or one of noop's (taken off every client's), had
    its CPU read on ticks or not at all (`cpu.clock`). Empty for every other figure."""
    if figure.column != "cpu" or "cpu.clock" not in f:
        return {}
    clocks = {}
    for client, clock in zip(f["client"], f["cpu.clock"]):
        clocks.setdefault(client, []).append(clock)
    noop = [c for c in clocks.pop(cbl.NOOP, []) if c in CLOCK_REFUSED]
    out = {}
    for client, g in clocks.items():
        own = [c for c in g if c in CLOCK_REFUSED]
        if own:
            out[client] = CLOCK_REFUSED[own[0]]
        elif noop:
            out[client] = f"noop's, taken off it: {CLOCK_REFUSED[noop[0]]}"
    return out


def compared(run: cbl.Run, figure: Figure) -> pd.DataFrame:
    """The rows a figure is netted on: an interleaved set's windows one by one, each in its block (`cbl.blocks`), but
    latency percentiles from a fork's windows merged: a window holds too few of the slowest requests for a p99, and one
    window of a slow spell moves a mean of windows' p50s far more than the merged p50. A set is then one value."""
    return cbl.forks(run) if figure.histogram else cbl.blocks(run)


def by_client(rows: pd.DataFrame) -> dict:
    """client -> its rows as dicts, in the frame's order: a verdict asks a few questions of a handful of rows per client,
    where pandas' cost per call was most of its time."""
    out = {}
    for r in rows.to_dict("records"):
        out.setdefault(r["client"], []).append(r)
    return out


def rank(run: cbl.Run, shape: str, figure: Figure) -> dict | None:
    """The verdict on one figure of one shape, as structured data (None where the shape has no such figure)."""
    f = compared(run, figure)
    f = f[f["shape"] == shape]
    if f.empty or f[figure.column].isna().all():
        return None
    delay_us = int(run.shape_params(shape).get("delayMs") or 0) * 1000
    rows = net_of_noop(f, figure)
    if figure.key in ("p50", "p99") and delay_us:
        rows["value"] = rows["value"] - delay_us  # what the client and harness added to the server's delay
    values, marks, not_ranked, lower, floor_var, unsteady = {}, {}, {}, set(), {}, {}
    refused = clock_refusals(f, figure)
    for client, g in by_client(rows).items():
        if client in refused:
            not_ranked[client] = refused[client]
            continue
        flags = {_FLAG_WORDS[x] for r in g for x in r["flags"] if x in _FLAG_WORDS}
        if any(r["jit"] > cbl.JIT_WARMING for r in g):
            flags.add("jit")
        if figure.column == "cpu" and any(r["cpu.clock"] == "unknown" for r in g):
            flags.add("clock")
        if figure.column == "cpu" and any(r["cpu.compilers"] == "in" for r in g):
            flags.add("compilers")
        if any(r["noop.elsewhere"] for r in g):
            flags.add("noop")
        if figure.net:
            flags.discard("lag")  # a late pacer delays sends; it changes latency, not what a request costs
        if figure.key == "knee":
            flags.update(r["knee.status"] for r in g if r["knee.status"] in ("open", "ceiling", "flagged"))
            if flags & {"open", "ceiling", "flagged"}:
                lower.add(client)
        if figure.key in ("p50", "p99") and any("samples" in r["flags"] for r in g):
            not_ranked[client] = "fewer than 1,000 latencies in a window"
            continue
        if any(r["value"] <= 0 for r in g):
            flags.add("dropped")
        g = [r for r in g if r["value"] == r["value"] and r["value"] > 0]
        if not g:
            not_ranked[client] = ("kept no rate" if figure.key == "knee" else
                                  "at or below the harness's own" if figure.net else "not measured")
            continue
        if any(r["width"] >= r["value"] for r in g):
            widest = max(r["width"] for r in g if r["width"] == r["width"])
            not_ranked[client] = (f"within one bucket of the latency histogram ({widest:.0f} us wide there)"
                                  + (" beyond the server's delay" if delay_us else ""))
            continue
        values[client] = cbl.per_set({int(r["round"]): r["value"] for r in g})
        floor_var[client] = bucket_variance([r["value"] for r in g], [r["width"] for r in g])
        unsteady[client] = {int(r["round"]) // 1000 if r["round"] >= 1000 else int(r["round"]) for r in g
                            if not r["steady"]}
        if unsteady[client]:
            flags.add("unsteady")
        marks[client] = sorted(flags)
    if not values:
        return None
    c = cbs.compare(values, figure.higher_is_better, cbl.CONFIDENCE, lower, figure.exact, floor_var, unsteady,
                    cblc.pairs(run), pair_confidence=cbl.confidence(run, shape))
    gone, _ = cbl.failures(run)
    not_ranked.update({cl: why for (s, cl), why in gone.items() if s == shape})
    out = _figure_dict(shape, figure, c, marks, not_ranked, delay_us, max(len(v) for v in values.values()),
                       cbl.confidence(run, shape))
    if figure.key in ("p50", "p99"):
        out["harnessFloor"] = harness_floor(f, figure)
    return out


def harness_floor(f: pd.DataFrame, figure: Figure) -> dict | None:
    """noop's latency figure in the shape, as measured (noop never waits for the server) and estimated as a client's
    is: what the harness alone adds, the floor every client's latency stands on. None where noop was not measured."""
    noop = f[f["client"] == cbl.NOOP]
    kept = {int(r): x for r, x in zip(noop["round"], noop[figure.column]) if x == x and x > 0}
    if not kept:
        return None
    c = cbs.compare({cbl.NOOP: kept}, figure.higher_is_better, cbl.CONFIDENCE)
    return {"value": _round(c.estimate[cbl.NOOP]), "rounds": len(kept)}


def bucket_variance(values: list, widths: list) -> float:
    """What a histogram's buckets leave unknown in a client's log estimate: each value read is its bucket's top and
    the true one lies anywhere in it, a uniform error ((log top/bottom)^2 / 12) that no number of rounds averages away."""
    return sum(math.log(v / (v - w + 1)) ** 2 for v, w in zip(values, widths) if w > 1) / 12 / len(values)


def rank_startup(run: cbl.Run, figure: Figure) -> dict | None:
    """The verdict on one figure before the first request: each client's starts without its archive, net of noop's
    start in the same round; its dependencies' size exactly, as resolved."""
    from analysis.decide import startup as cbst

    if figure.key == "deps":
        listed = {c: f for c, f in cbst.footprint(run.path).items() if c in run.clients}
        sizes = {c: f["bytes"] for c, f in listed.items() if not f.get("failure")}
        if not sizes:
            return None
        c = cbs.exact(sizes, False)
        unlisted = {cl: f"not listed: {f['failure'].split(': Maven failed')[0]} (footprint/{cl}.txt)"
                    for cl, f in listed.items() if f.get("failure")}
        return _figure_dict("startup", figure, c, {cl: [] for cl in c.order}, unlisted, 0, 1)
    starts = cbst.starts(run.path)
    starts = starts[starts["ok"].astype(bool) & ~starts["cds"].astype(bool)]
    if starts.empty or figure.column not in starts:
        return None
    noop = starts[starts["client"] == cbl.NOOP].set_index("round")[figure.column]
    values, not_ranked, marks = {}, {}, {}
    for client in run.clients:
        g = starts[starts["client"] == client]
        net = {int(r): v - noop.get(r, math.nan) for r, v in zip(g["round"], g[figure.column])}
        kept = {r: v for r, v in net.items() if v == v and v > 0}
        if kept:
            values[client] = kept
            marks[client] = ["dropped"] if any(v <= 0 for v in net.values()) else []
        else:
            not_ranked[client] = "no start measured" if g.empty else "at or below the harness's own"
    if not values:
        return None
    c = cbs.compare(values, False, cbl.CONFIDENCE, is_exact=figure.exact, pair_confidence=cbl.confidence(run, "startup"))
    return _figure_dict("startup", figure, c, marks, not_ranked, 0, max(len(v) for v in values.values()))


def leaders(f: dict) -> list:
    """A figure's leaders: the shortest best-first run of its lettered clients each of which is told apart from every
    lettered client after it, and no more than half of them (more is the worst told apart, not a winner); [] when no
    such run exists."""
    ranked = [x for x, c in f["clients"].items() if c["letters"]]  # best first, as decided
    apart = {(p["better"], p["worse"]) for p in f["pairs"]["apart"]}
    for k in range(1, len(ranked) // 2 + 1):
        if all((x, y) in apart for x in ranked[:k] for y in ranked[k:]):
            return ranked[:k]
    return []


def _figure_dict(shape: str, figure: Figure, c: cbs.Comparison, marks: dict, not_ranked: dict, delay_us: int,
                 rounds: int, confidence: float = cbl.CONFIDENCE) -> dict:
    """One figure's verdict as summary.json holds it; `rounds`: the most rounds a client was measured in. A client
    shown without letters has "" and its reason under `unlettered`; `why` says why a figure has no letters at all.
    Each pair of the clients shown (`pairs.of`, those without letters too) is apart, alike within the figure's margin,
    or open (analysis.decide.pairs): `decided` counts them."""
    m = cbud.margin(figure.key)
    state = {(r.x, r.y): cbud.pair_state(r, m) for r in c.ratios}
    every = [state.get((x, y)) or state.get((y, x)) for i, x in enumerate(c.order) for y in c.order[i + 1:]]
    return {
        "shape": shape, "figure": figure.key, "label": figure.label, "short": figure.short, "unit": figure.unit,
        "better": "higher" if figure.higher_is_better else "lower", "net": figure.net,
        "beyondDelayMicros": delay_us if figure.key in ("p50", "p99") else 0,
        "method": c.method, "sd": _round(c.sd), "df": _round(c.df), "rounds": rounds, "confidence": confidence,
        "tiers": c.tiers(),
        "clients": {cl: {"value": _round(c.estimate[cl]), "low": _round(c.low[cl]), "high": _round(c.high[cl]),
                         "letters": c.letters[cl], "n": c.rounds[cl], "ownSd": _round(c.own_sd.get(cl)),
                         "marks": marks[cl]} for cl in c.order},
        "pairs": {"separated": c.separated, "of": len(every),
                  "apart": [{"better": x, "worse": y} for x, y, r in c.pairs if r == cbs.BETTER],
                  "withheld": [{"better": x, "lowerBound": y} for x, y in c.withheld],
                  "ratios": [{"x": r.x, "y": r.y, "ratio": _round(r.ratio), "low": _round(r.low),
                              "high": _round(r.high), "relation": r.relation, "state": state[r.x, r.y][0],
                              "shows": _round(state[r.x, r.y][1])} for r in c.ratios]},
        "decided": {k: _round(x) if k == "couldShow" else x for k, x in cbud.counts(every, m).items()},
        **({"planned": [{"x": r.x, "y": r.y, "ratio": _round(r.ratio), "low": _round(r.low), "high": _round(r.high),
                         "relation": r.relation} for r in c.planned]} if c.planned else {}),
        "ownSpread": c.noisy, "priorDf": _round(c.prior_df),
        "unlettered": c.unlettered,
        "why": c.why,
        "notRanked": not_ranked,
    }


def _round(x: float):
    if x is None or x != x or math.isinf(x):
        return None
    return float(f"{x:.4g}")


# ---------------------------------------------------------------- the run's verdict

def verdict(run: cbl.Run) -> dict:
    """Every ranked figure of every shape, and what the ranking holds for."""
    m, jdk = run.env.get("machine", {}), run.env.get("launcherJdk", {})
    shapes = []
    for shape in run.shapes:
        kind = cbl.kind(run, shape)
        figures = [r for fig in FIGURES if kind in fig.kinds for r in [rank(run, shape, fig)] if r]
        if figures:
            shapes.append({"shape": shape, "kind": kind, "figures": figures})
    if (run.path / "startup.json").is_file():
        figures = [r for fig in STARTUP for r in [rank_startup(run, fig)] if r]
        if figures:
            shapes.insert(0, {"shape": "startup", "kind": "startup", "figures": figures})
    flagged = [r for r in cbl.rounds(run) if r.get("flags") and not (r.get("repeat") or {}).get("stands")]
    unstopped = unstopped_sets(run)
    made = host_conditions(run)
    v = {"holdsFor": {"cpuModel": m.get("cpuModel"), "cores": m.get("cpuCount"), "jdk": jdk.get("version"),
                      "profile": run.env.get("profile"), "firstLook": run.first_look, "confidence": cbl.CONFIDENCE,
                      **({"conditions": made} if made else {})},
         "clients": run.clients, "shapes": shapes,
         "flaggedRounds": [{"shape": r["shape"], "round": r["round"], "flags": r["flags"]} for r in flagged],
         "behaviour": cbb.decide(run.path, run.clients), **({"unstoppedSets": unstopped} if unstopped else {})}
    costs = cblc.judge(shapes, common_shape(v), cbl.confidence(run, common_shape(v)))
    changed = cblc.behaviour_changes(v["behaviour"], cblc.pairs(run))
    record = run.env.get("untilDecided")
    until = None
    if record:
        ranked = {f["figure"]: f for s in shapes if s["shape"] == record["shape"] for f in s["figures"]}
        until = cbud.summary(record, look(run, record["shape"], ranked))
    return {**v, **({"layerCost": costs} if costs else {}), **({"layerBehaviour": changed} if changed else {}),
            **({"untilDecided": until} if until else {})}


def host_conditions(run: cbl.Run) -> dict | None:
    """How the run was made (env.json's conditions) and whether the host was busy over it: `busy` lists each bound
    (thresholds.json's host) the run's other load or steal reached, with its value; `timeFit`, where the plan cut work
    to fit the profile's time or could not, what it cut. None for a run that recorded none."""
    c = run.env.get("conditions")
    if not c:
        return None
    host, priority = c.get("host") or {}, c.get("priority") or {}
    busy = [{"what": key, "value": host[key], "bound": bound} for key, bound in cbl.THRESHOLDS["host"].items()
            if host.get(key) is not None and host[key] >= bound]
    fit = c.get("timeFit") or {}
    return {"commandLine": c.get("commandLine"), "askedNice": priority.get("askedNice"),
            "forkNice": priority.get("forkNice", []), "otherCpuShare": host.get("otherCpuShare"),
            "stealShare": host.get("stealShare"), "busy": busy,
            **({"timeFit": fit} if fit.get("cuts") or fit.get("fits") is False else {})}


def look(run: cbl.Run, shape: str, ranked: dict | None = None) -> dict:
    """Whether every pair of `shape` is decided on the figures a run given --until-decided waits for
    (analysis.decide.pairs), each ranked as the verdict ranks it; a running folder's look and the verdict's account.
    `ranked`: figure key -> the verdict's figure where the verdict has ranked the shape already."""
    figures = {key: ranked.get(key) if ranked is not None else rank(run, shape, BY_KEY[key]) for key in cbud.FIGURES}
    return cbud.look(shape, figures, run.clients, run.rounds_of(shape), cbl.confidence(run, shape))


def write(run: cbl.Run, v: dict):
    """The verdict into summary.json (`verdict`), the file whole, one space a level (a standard run's is a third
    smaller than at two); results.csv's columns are analysis.report.estimates'."""
    import json

    summary = dict(run.summary)
    summary["verdict"] = v
    write_atomically(run.path / "summary.json", json.dumps(summary, indent=1, allow_nan=False) + "\n")


BEHAVIOUR_ROW = "behaviour"


def behaviour_rows(b: dict | None, run_name: str) -> list:
    """results.csv's rows of the behaviour table: shape 'behaviour', per aspect its cell and its mark."""
    if not b:
        return []
    return [{"run": run_name, "shape": BEHAVIOUR_ROW, "client": client, **{f"behaviour.{k}": x["text"] for k, x in cells.items()},
             **{f"mark.{k}": x["mark"] for k, x in cells.items()}} for client, cells in b["clients"].items()]


def write_atomically(path: Path, text: str):
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def read(run: cbl.Run) -> dict:
    """The run's verdict as decided (summary.json's), deciding it now for a run that has none yet."""
    return run.summary.get("verdict") or verdict(run)


# ---------------------------------------------------------------- words

def fmt(value, unit: str) -> str:
    """A value with its unit, as words say it: '66 us', '1.8 ms', '3.2 KiB', '56.3 MiB', '58,100 req/s'."""
    if value is None or value != value:
        return "-"
    if math.isinf(value):
        return "inf"
    if unit == "us":
        return (f"{value:.0f} us" if value < 1000 else f"{value / 1000:.1f} ms" if value < 10_000
                else f"{value / 1000:.0f} ms" if value < 1_000_000 else f"{value / 1e6:.2f} s")
    if unit == "B":
        return (f"{value / 1048576:.1f} MiB" if abs(value) >= 1048576 else f"{value / 1024:.1f} KiB"
                if abs(value) >= 1024 else f"{value:.0f} B")
    if unit == "req/s":
        return f"{three_digits(value)} req/s"
    if unit == "ms":
        return f"{value:,.0f} ms" if value < 10_000 else f"{value / 1000:.1f} s"
    return three_digits(value)


def three_digits(value: float) -> str:
    """Three significant digits, thousands separated, never a k or M: '4.95', '20.8', '58,100'."""
    if value == 0 or abs(value) < 100:
        return f"{value:.3g}"
    return f"{round(value, 2 - int(math.floor(math.log10(abs(value))))):,.0f}"


def figure_words(f: dict, number=None) -> str:
    """'ahc 14 us (a) < vertx 20 us, apache 21 us (b) < ...': best first, clients with the same letters together,
    '*' after a figure with a mark of its own (`starred`); from the structured verdict. `number` formats a value (default: with its unit)."""
    number = number or (lambda x: fmt(x, f["unit"]))
    groups = []
    for cl in _order(f):
        c = f["clients"][cl]
        if groups and groups[-1][0] == c["letters"]:
            groups[-1][1].append(cl)
        else:
            groups.append((c["letters"], [cl]))
    sep = " > " if f["better"] == "higher" else " < "
    label = lambda cl: f"{cl} {number(f['clients'][cl]['value'])}" + ("*" if starred(f, cl) else "")  # noqa: E731
    return sep.join(f"{', '.join(label(cl) for cl in cs)} ({ls})" for ls, cs in groups)


def _order(f: dict) -> list:
    sign = -1 if f["better"] == "higher" else 1
    return sorted(f["clients"], key=lambda cl: (sign * (f["clients"][cl]["value"] or 0), cl))


def bare(value, unit: str) -> str:
    """A table cell's value: a time or a size with its unit and no space ('66us', '1.8ms', '3.2KiB', '56.3MiB'); a
    rate or a count in three digits ('58,100', '4.95'), its column naming the unit (req/s) or the count."""
    if value is None or value != value:
        return "-"
    if unit in ("us", "ms", "B"):
        return fmt(value, unit).replace(" ", "")
    return three_digits(value)


def routine_marks(f: dict) -> set:
    """The marks every ranked client of a figure carries: a condition of the shape (the pacer's lag on every latency),
    said once beside the table, not starred on each cell; they cannot favour one client over another."""
    marks = [set(c["marks"]) for c in f["clients"].values()]
    return set.intersection(*marks) if len(marks) > 1 else set()


def starred(f: dict, client: str) -> bool:
    """Whether a client's figure carries a mark the others do not: what should change a reader's trust in it."""
    return bool(set(f["clients"][client]["marks"]) - routine_marks(f))


def cell_text(f: dict, client: str) -> str:
    """One cell of the decision table: '66us* a', '*' where `starred`; '-' where not ranked."""
    c = f["clients"].get(client)
    if c is None:
        return "-"
    return f"{bare(c['value'], f['unit'])}{'*' if starred(f, client) else ''} {c['letters']}"


def shape_words(run: cbl.Run, shape: str) -> str:
    p = run.shape_params(shape)
    kind = cbl.kind(run, shape)
    rounds = run.rounds_of(shape)
    what = {"capacity": "knee search", "closed": f"closed loop x{p.get('concurrency', '?')}",
            "open": f"{int(float(p.get('rate', 0))):,} req/s" + (f", {p.get('delayMs')} ms server delay"
                                                                   if int(p.get('delayMs') or 0) else "")}.get(kind, kind)
    return f"{shape} ({what}, {p.get('protocol', 'http1')}, {rounds} round{'s' if rounds != 1 else ''})"


# The decision table's columns, by shape kind: the figures a team reads first. The rest is in the report.
COLUMNS = {"open": ["cpu", "alloc", "syscalls", "p50", "p99"], "closed": ["throughput"], "capacity": ["knee"],
           "startup": ["coldStart", "rss", "rss10k", "deps"]}
MOST_COLUMNS = 9


def columns(v: dict, most: int = MOST_COLUMNS) -> list:
    """(shape, figure) of the decision table: the shapes with the most rounds first, at most MOST_COLUMNS; a
    shape whose figures could not be compared (one window) is left out."""
    kinds = ["open", "closed", "capacity", "startup"]
    shapes = sorted((s for s in v["shapes"] if any(f["method"] != "none" for f in s["figures"])),
                    key=lambda s: (kinds.index(s["kind"]) if s["kind"] in kinds else len(kinds),
                                   -max(f["rounds"] for f in s["figures"])))
    # The first shape of each kind (the common rate before other rates), then the rest while there is room.
    firsts = [next(s for s in shapes if s["kind"] == k) for k in dict.fromkeys(s["kind"] for s in shapes)]
    out = []
    for s in firsts + [s for s in shapes if s not in firsts]:
        have = {f["figure"]: f for f in s["figures"]}
        for key in COLUMNS.get(s["kind"], []):
            if key in have and len(out) < most:
                out.append((s["shape"], key))
    return out


def where(params: dict) -> str:
    """'@4k' (4,000 req/s), '@500', 'x16' (16 callers in a closed loop), '' (a knee search): a shape, short."""
    p = params
    if "rate" in p:
        rate = float(p["rate"])
        return f"@{rate / 1000:g}k" if rate >= 1000 else f"@{rate:g}"
    return f"x{p['concurrency']}" if "concurrency" in p and "startRate" not in p else ""


def column_name(run_shapes: dict, shape: str, key: str) -> str:
    """'CPU/req @4k', 'ok req/s x16', 'knee req/s': short, the shape said by its rate or loops, a rate's unit named."""
    short = {"cpu": "CPU/req", "alloc": "bytes/req", "syscalls": "syscalls", "p50": "p50", "p99": "p99",
             "throughput": "ok req/s", "knee": "knee req/s", "cswitches": "switches"}.get(key) or BY_KEY[key].short
    return f"{short} {where(run_shapes.get(shape, {}))}".strip()


def common_shape(v: dict) -> str | None:
    """The common rate's shape (Profile.COMMON_SHAPE, `rate-4000`, in every profile but smoke): the decision table's
    first fixed-rate shape, where the SLO is shown."""
    kinds = {s["shape"]: s["kind"] for s in v["shapes"]}
    return next((shape for shape, _ in columns(v) if kinds.get(shape) == "open"), None)


def outcome_columns(run: cbl.Run, v: dict) -> dict:
    """{'SLO @4k': {client: 'kept'}, 'failed @4k': {client: '0'}}: at the common rate, the SLO as the run judged it
    and the measured requests that failed; empty for a run without a fixed rate."""
    shape = common_shape(v)
    if shape is None:
        return {}
    at = where(run.shape_params(shape))
    got = {c: cond.outcome(run, shape, c) for c in v["clients"]}
    return {f"SLO {at}": {c: cond.slo_cell(o) for c, o in got.items()},
            f"failed {at}": {c: cond.failed_cell(o) for c, o in got.items()}}


def table(run: cbl.Run, v: dict, most: int = MOST_COLUMNS) -> pd.DataFrame:
    """The decision table: one row per client (as the run listed them), one column per key figure, each cell
    its value and tier letters ('14us a', `cell_text`), then the SLO and the failed requests at the common rate; the
    last row counts the pairs each figure told apart. The terminal and the report both print this."""
    figs = {(s["shape"], f["figure"]): f for s in v["shapes"] for f in s["figures"]}
    cols = columns(v, most)
    shapes = {s: run.shape_params(s) for s, _ in cols}
    outcomes = outcome_columns(run, v)
    rows = []
    for client in v["clients"]:
        row = {"client": client}
        for shape, key in cols:
            row[column_name(shapes, shape, key)] = cell_text(figs[(shape, key)], client)
        rows.append(row | {name: cells[client] for name, cells in outcomes.items()})
    told = {"client": "told apart"}
    for shape, key in cols:
        f = figs[(shape, key)]
        told[column_name(shapes, shape, key)] = f"{f['pairs']['separated']}/{f['pairs']['of']}"
    rows.append(told | {name: "" for name in outcomes})
    return pd.DataFrame(rows).set_index("client")


def load_line(run: cbl.Run, v: dict, most: int = MOST_COLUMNS) -> str:
    """What load the columns come from, in words, each shape once and what they share said first: 'each: GET of
    5-byte bodies, ...; @4k = 4,000 req/s, 3 rounds; x16 = 16 callers back to back (a closed loop), 3 rounds'."""
    kinds = {s["shape"]: s["kind"] for s in v["shapes"]}
    shapes = list(dict.fromkeys(s for s, _ in columns(v, most)))
    parts = {s: cond.load_parts(run, s, kinds[s]) for s in shapes}
    timed = [parts[s] for s in shapes if kinds[s] != "startup"]
    shared = {k: x for k, x in timed[0].items() if k != "what" and all(p.get(k) == x for p in timed)} if timed else {}
    said = [f"{where(run.shape_params(s)) or {'capacity': 'knee', 'startup': 'start-up'}.get(kinds[s], s)} = "
            + ", ".join(x for k, x in parts[s].items() if k not in shared) for s in shapes]
    each = ", ".join([*shared.values(), cond.target_words(run)])
    return (f"each: {each}; " if len(timed) > 1 else "") + "; ".join(said) + ("" if len(timed) > 1 else f"; {each}")


def slo_line(run: cbl.Run, v: dict) -> str:
    """'SLO @4k: p99 <= 10 ms ..., judged in the run on every round's requests together; missed p99: jdk, jdk-vt':
    the SLO's bounds and, by what the run judged, the clients that did not keep it."""
    shape = common_shape(v)
    cells = outcome_columns(run, v)[f"SLO {where(run.shape_params(shape))}"]
    groups = {}
    for c, text in cells.items():
        if text not in ("kept", "-"):
            groups.setdefault(text, []).append(c)
    return (f"SLO {where(run.shape_params(shape))}: {cond.slo_words(run)}, judged in the run on every round's requests "
            "together; " + ("; ".join(f"{text}: {', '.join(cs)}" for text, cs in groups.items()) if groups else
                            "every client kept it"))


def floor_line(run: cbl.Run, v: dict) -> str:
    """'harness floor @4k (noop, no client): latency p50 24 us, p99 61 us; every client's latency includes it', at the
    common rate ("" where noop's latency was not measured there)."""
    shape = common_shape(v)
    s = next((s for s in v["shapes"] if s["shape"] == shape), None)
    floors = [(f["figure"], f.get("harnessFloor")) for f in (s["figures"] if s else []) if f["figure"] in ("p50", "p99")]
    said = [f"{key} {fmt(fl['value'], 'us')}" for key, fl in floors if fl]
    return (f"harness floor {where(run.shape_params(shape))} (noop, no client): latency {', '.join(said)}; every "
            "client's latency includes it") if said else ""


def split_words(v: dict) -> str:
    """'; rate-4000's at 98.3%, split over its looks' where a shape went on until decided, else ''."""
    u = v.get("untilDecided")
    return f"; {u['shape']}'s at {cbl.percent(u['final']['confidence'])}, split over its looks" if u else ""


def decided_lines(run: cbl.Run, v: dict) -> list:
    """Per figure of the common rate that the decision table shows: 'p50 @4k, 66 pairs: 44 apart, 12 alike within
    x1.10, 10 open (could show x1.18)', from each figure's `decided`: every pair of the clients shown, those of a client
    without letters open."""
    shape = common_shape(v)
    s = next((s for s in v["shapes"] if s["shape"] == shape), None)
    have = {f["figure"]: f for f in (s["figures"] if s else []) if f.get("decided") and f["method"] != "none"}
    params = {shape: run.shape_params(shape)} if shape else {}
    return [f"{column_name(params, shape, key)}, {f['pairs']['of']} pairs: "
            f"{cbud.count_words(f['decided'], list(f['unlettered']))}"
            for key, f in ((k, have[k]) for k in COLUMNS["open"] if k in have)]


def said_once(run: cbl.Run, v: dict, most: int = MOST_COLUMNS) -> list:
    """Per mark every client carries in some column: 'lag at p99 @4k, knee req/s (the pacer's lag was a visible part
    of the latency)', said once for those columns instead of a star on each of their cells."""
    figs = {(s["shape"], f["figure"]): f for s in v["shapes"] for f in s["figures"]}
    cols = columns(v, most)
    shapes = {s: run.shape_params(s) for s, _ in cols}
    where_marked = {}
    for shape, key in cols:
        for m in sorted(routine_marks(figs[(shape, key)])):
            where_marked.setdefault(m, []).append(column_name(shapes, shape, key))
    return [f"{m} at {', '.join(at)}" + (f" ({MARKS[m].format(jit=cbl.JIT_WARMING).split(':')[0]})" if m in MARKS else "")
            for m, at in where_marked.items()]


# What a column says beyond its figure's label, where the label alone would not tell; and how a unit is shown.
MEANING = {"p50": "latency p50 from the intended start, beyond the server's delay",
           "p99": "latency p99 from the intended start, beyond the server's delay",
           "throughput": "requests that ended ok per second", "knee": "the highest offered rate that kept the SLO",
           "syscalls": "system calls per request, counted by the kernel",
           "cswitches": "context switches per request, counted by the kernel"}
UNIT_WORDS = {"us": "in us or ms", "ms": "in ms", "B": "in B, KiB or MiB", "req/s": "in req/s", "": "a count"}


def reading_guide(run: cbl.Run, v: dict) -> list:
    """(column, meaning) for every column of the decision table as the report shows it (the terminal shows those
    that fit its width), then the SLO and failed columns: the one list README's "How to read" and the report's are
    generated from."""
    figs = {(s["shape"], f["figure"]): f for s in v["shapes"] for f in s["figures"]}
    cols = columns(v)
    shapes = {s: run.shape_params(s) for s, _ in cols}
    out = []
    for shape, key in cols:
        f, figure = figs[(shape, key)], BY_KEY[key]
        net = ", net of the harness alone (noop)" if figure.net and figure.kinds != ("startup",) else \
            ", net of noop's in the same round" if figure.net else ""
        out.append((column_name(shapes, shape, key), f"{MEANING.get(key, figure.label)}{net}, "
                                                     f"{UNIT_WORDS.get(f['unit'], f['unit'])}; {f['better']} is better"))
    shape = common_shape(v)
    if shape:
        at = where(run.shape_params(shape))
        out.append((f"SLO {at}", "kept, or missed and which bound, as the run judged it at that rate over every "
                                 f"round's requests together: {cond.slo_words(run)}"))
        out.append((f"failed {at}", "the measured requests there that did not end ok, with their share of those sent, "
                                    "and those the pacer could not send (unsent)"))
    return out


def marks_shown(v: dict) -> list:
    """(mark, words) of every mark the decision table's figures carry, in MARKS' order."""
    figs = {(s["shape"], f["figure"]): f for s in v["shapes"] for f in s["figures"]}
    used = {m for key in columns(v) for c in figs[key]["clients"].values() for m in c["marks"]}
    return [(m, words.format(jit=cbl.JIT_WARMING)) for m, words in MARKS.items() if m in used]


def best(v: dict, run: cbl.Run, most: int = MOST_COLUMNS) -> list:
    """One phrase per column of the table: its leaders, the best clients told apart from all the rest."""
    figs = {(s["shape"], f["figure"]): f for s in v["shapes"] for f in s["figures"]}
    cols = columns(v, most)
    shapes = {s: run.shape_params(s) for s, _ in cols}
    return [f"{column_name(shapes, shape, key)}: " + (", ".join(leaders(figs[(shape, key)])) or "none")
            for shape, key in cols]


def grid(t: pd.DataFrame) -> list:
    """A table as left-aligned columns two spaces apart, the header first."""
    cells = [list(map(str, t.columns))] + [[str(x) for x in row] for row in t.itertuples(index=False)]
    widths = [max(len(r[i]) for r in cells) for i in range(len(cells[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]


def terminal_verdict(run: cbl.Run, v: dict, width: int = 118) -> str:
    """The terminal's verdict, in about 35 lines: what it holds for, the best per key figure, the load the columns
    come from, the decision table with the SLO and the failed requests at the common rate, what every client's figure
    carries (said once), the shapes it leaves to the report; then each client's behaviour cells marked NO, and the
    behaviour table."""
    hf = v["holdsFor"]
    busy = cond.busy_words(hf.get("conditions"))
    lines = [f"verdict ({hf['cores']} cores of {hf['cpuModel']}, JDK {hf['jdk']}, profile {hf['profile']}"
             + (", ON A BUSY HOST" if busy else "") + ")" + (": A FIRST LOOK, NOT FOR DECISIONS" if hf["firstLook"] else "")]
    if cond.made_words(hf.get("conditions")):
        lines += textwrap.wrap(cond.made_words(hf.get("conditions")), width, subsequent_indent="  ")
    most = MOST_COLUMNS
    while most > 1 and max(map(len, grid(table(run, v, most).reset_index()))) > width:
        most -= 1  # the widest columns that fit the terminal; the report has them all
    lines += textwrap.wrap("best (told apart from all the rest): " + "; ".join(best(v, run, most)), width,
                           subsequent_indent="  ")
    t = table(run, v, most)
    if not t.empty:
        lines += [""] + textwrap.wrap("load: " + load_line(run, v, most), width, subsequent_indent="  ")
        lines += grid(t.reset_index())
    lines.append("")
    decided = decided_lines(run, v)
    if decided:
        lines += textwrap.wrap(f"each pair: told apart, alike within a margin, or open ({cbl.percent(hf['confidence'])} "
                               f"over every pair of a figure, both claims together{split_words(v)}):", width)
        lines += [w for x in decided for w in textwrap.wrap(x, width, initial_indent="  ", subsequent_indent="    ")]
    if common_shape(v):
        lines += textwrap.wrap(slo_line(run, v), width)
        lines += textwrap.wrap(floor_line(run, v), width)
    once = said_once(run, v, most)
    if once:
        lines += textwrap.wrap("on every client, so said once and not starred: " + "; ".join(once), width)
    lines += textwrap.wrap(f"letters: best first; clients sharing a letter are not told apart ({cbl.percent(hf['confidence'])} over "
                           "every pair of a figure, rounds compared within rounds" + split_words(v) + "); costs net of "
                           "the harness (noop); "
                           "* a mark only some clients carry (JIT still compiling, a flag, a knee that is a lower "
                           "bound): see the report; each pair's ratio and interval: summary.json (verdict, "
                           "pairs.ratios)", width)
    shown = {s for s, _ in columns(v, most)}
    rest = [s["shape"] for s in v["shapes"] if s["shape"] not in shown]
    if rest:
        lines += textwrap.wrap("in the report only: " + ", ".join(rest) + " (and every figure's full ranking)", width)
    for r in v.get("flaggedRounds", []):
        lines.append(f"note: {r['shape']} round {r['round']} was flagged ({', '.join(r['flags'])}) and stands")
    for u in v.get("unstoppedSets", []):
        lines.append("note: " + unstopped_words(u))
    if v.get("untilDecided"):
        lines += textwrap.wrap(cbud.words(v["untilDecided"]), width, subsequent_indent="  ")
    lines += layer_cost_lines(run, v, width)
    if v.get("behaviour"):
        lines += [""] + textwrap.wrap("behaviour, NO " + cbb.no_line(v["behaviour"]), width, subsequent_indent="  ")
        lines += ["", cbb.terminal_table(v["behaviour"], width).rstrip("\n")]
    if v.get("layerBehaviour"):
        lines += ["what each layer changes in its engine's behaviour (the engine's cell -> the layer's):"]
        lines += [w for x in cblc.behaviour_lines(v["layerBehaviour"]) for w in textwrap.wrap(x, width, initial_indent="  ",
                                                                                          subsequent_indent="    ")]
    return "\n".join(lines) + "\n"


def layer_cost_lines(run: cbl.Run, v: dict, width: int) -> list:
    """The layers' cost over their engines, as the verdict judged it; [] for a run without a layer and its engine."""
    costs = v.get("layerCost")
    if not costs:
        return []
    rows = cblc.table_rows(costs, {k: column_name({}, "", k) for k in cblc.SHOWN})
    return ([""] + textwrap.wrap(cblc.caption(costs, where(run.shape_params(costs["shape"]))), width)
            + grid(pd.DataFrame(rows[1:], columns=rows[0])))


# ---------------------------------------------------------------- two runs

def compare_runs(a: cbl.Run, b: cbl.Run) -> list:
    """Per shape and figure ranked in both: the pairs each run tells apart, those the two put in opposite order,
    and those one tells apart and the other does not. A pair counts only where both runs ranked both clients."""
    va, vb = read(a), read(b)
    fa = {(s["shape"], f["figure"]): f for s in va["shapes"] for f in s["figures"]}
    rows = []
    for s in vb["shapes"]:
        for f in s["figures"]:
            other = fa.get((s["shape"], f["figure"]))
            if not other:
                continue
            both = [c for c in f["clients"] if c in other["clients"]
                    and f["clients"][c]["letters"] and other["clients"][c]["letters"]]  # lettered in both
            rel = {run: {(p["better"], p["worse"]) for p in g["pairs"]["apart"]} for run, g in (("a", other), ("b", f))}
            opposite, one_only, apart = [], 0, {"a": 0, "b": 0}
            for i, x in enumerate(both):
                for y in both[i + 1:]:
                    sa = 1 if (x, y) in rel["a"] else -1 if (y, x) in rel["a"] else 0
                    sb = 1 if (x, y) in rel["b"] else -1 if (y, x) in rel["b"] else 0
                    apart["a"] += sa != 0
                    apart["b"] += sb != 0
                    if sa and sb and sa != sb:
                        opposite.append(f"{x}/{y}")
                    elif bool(sa) != bool(sb):
                        one_only += 1
            n = len(both) * (len(both) - 1) // 2
            ratio = [f["clients"][c]["value"] / other["clients"][c]["value"] for c in both
                     if f["clients"][c]["value"] and other["clients"][c]["value"]]
            rows.append({"shape": s["shape"], "figure": f["figure"], "pairs": n, "apart.a": apart["a"],
                         "apart.b": apart["b"], "opposite": len(opposite), "one run only": one_only,
                         "median change": _median_change(ratio), "opposite pairs": ", ".join(opposite)})
    return rows


def _median_change(ratios: list) -> str:
    if not ratios:
        return "-"
    return f"{cbl.median(abs(r - 1) for r in ratios):.0%}"


def compare_text(a: cbl.Run, b: cbl.Run) -> str:
    rows = compare_runs(a, b)
    opposite = sum(r["opposite"] for r in rows)
    lines = [f"{a.name} vs {b.name}: {opposite} pair{'s' if opposite != 1 else ''} in opposite order over "
             f"{len(rows)} figures ranked in both"]
    ma, mb = (r.env.get("machine", {}).get("cpuModel") for r in (a, b))
    if ma != mb:  # CPU time per request and its ranking change with the CPU model; bytes and system calls do not
        lines.append(f"note: {a.name} ran on {ma}, {b.name} on {mb}: their CPU per request is not comparable")
    t = pd.DataFrame(rows)
    if not t.empty:
        lines.append(t.drop(columns=["opposite pairs"]).to_string(index=False))
        lines += [f"  opposite in {r['shape']} {r['figure']}: {r['opposite pairs']}" for r in rows if r["opposite"]]
    return "\n".join(lines) + "\n"
