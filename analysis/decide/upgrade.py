"""Should we upgrade? Two versions of one client, measured in one run, compared figure by figure: decided once, here.

Each pair of old and new shares the host's state: a round that alternates old, noop, new and back, or a duet's set
(a JVM of each alive at once, their windows paired block by block, then averaged over the set). Over the pairs' log
ratios new/old: the ratio, a Student t interval simultaneous over the figures (Bonferroni), better, worse or no
difference, and the change the run finds four times in five.
"""
from __future__ import annotations

import csv
import functools
import io
import json
import math
import textwrap

import pandas as pd

from analysis.decide import behaviour as cbb
from analysis.decide import verdict as cbd
from analysis import load as cbl

BETTER, WORSE, NONE, FEW = "better", "worse", "no difference detected", "too few rounds"
POWER = 0.8  # "could detect": the change this run finds four times in five
PNG = "upgrade.png"


def arms(run: cbl.Run) -> dict:
    """env.json's `upgrade`: the client, and its old and new versions as built and named."""
    up = run.env.get("upgrade")
    if not up:
        raise cbl.AnalysisError(f"{run.path / 'env.json'}: has no 'upgrade': not a run of ./bench upgrade")
    return up


# ---------------------------------------------------------------- one figure: pure numbers

def paired(old: dict, new: dict, higher_is_better: bool, figures: int, confidence: float = cbl.CONFIDENCE) -> dict:
    """The ratio new/old of one figure over the rounds where both are positive (`old`, `new`: round -> value): geometric
    means, ratio, interval at family-wise `confidence` over `figures` figures, verdict, and `detectable`: the change (as
    a ratio less one) this run finds with probability POWER at that confidence, were the rounds' spread as measured."""
    from scipy import stats

    rounds = sorted(r for r in old if r in new and old[r] > 0 and new[r] > 0)
    logs = [math.log(new[r] / old[r]) for r in rounds]
    n = len(logs)
    out = {"rounds": n, "old": _geomean([old[r] for r in rounds]), "new": _geomean([new[r] for r in rounds]),
           "ratio": math.exp(sum(logs) / n) if n else math.nan, "low": math.nan, "high": math.nan,
           "detectable": math.nan, "verdict": FEW}
    if n < 2:
        return out
    mean = sum(logs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (n - 1))
    alpha = (1 - confidence) / max(1, figures)
    half = stats.t.ppf(1 - alpha / 2, n - 1) * sd / math.sqrt(n)
    out.update(low=math.exp(mean - half), high=math.exp(mean + half),
               detectable=math.exp(detectable_log_change(sd, n, alpha)) - 1)
    # No spread over the rounds is no estimate of it, not an exact figure (none of these declares exactness): two
    # equal ratios of quantized latencies say nothing, so a zero-width interval decides nothing.
    higher = half > 0 and out["low"] > 1
    lower = half > 0 and out["high"] < 1
    out["verdict"] = NONE if not (higher or lower) else BETTER if higher == higher_is_better else WORSE
    return out


def detectable_log_change(sd: float, rounds: int, alpha: float, power: float = POWER) -> float:
    """The true mean log ratio that the paired t test at two-sided `alpha` over `rounds` rounds of spread `sd` finds
    with probability `power`. The interval's half-width is found only about half the time."""
    return _noncentrality(rounds - 1, alpha, power) * sd / math.sqrt(rounds)


@functools.lru_cache(maxsize=256)
def _noncentrality(df: int, alpha: float, power: float) -> float:
    """Where the noncentral t on `df` degrees of freedom exceeds the test's bound with probability `power` (the far
    tail, under alpha / 2, left out)."""
    from scipy import optimize, stats

    t = stats.t.ppf(1 - alpha / 2, df)
    return optimize.brentq(lambda nc: stats.nct.sf(t, df, nc) - power, 0.0, 10 * t + 10, xtol=1e-10)


def _geomean(values: list) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else math.nan


# ---------------------------------------------------------------- a run

def _rounds(run: cbl.Run, shape: str, figure: cbd.Figure) -> tuple:
    """Per version, round -> its figure in that round (a set's block, set * 1000 + block, as the verdict compares it: net
    of noop's in the same round or block where the figure is net; latency beyond the server's delay; a fork that never
    settled left out), and the marks its forks raised (flags, the JIT, a knee's lower bound, `unsteady`)."""
    f = cbd.compared(run, figure)
    f = f[f["shape"] == shape]
    delay_us = int(run.shape_params(shape).get("delayMs") or 0) * 1000 if figure.key in ("p50", "p99") else 0
    noop = f[f["client"] == cbl.NOOP].set_index("round")[figure.column]
    values, marks = {}, {}
    refused = cbd.clock_refusals(f, figure)  # CPU on ticks or a failed read: not compared
    for label, g in f[f["client"] != cbl.NOOP].groupby("client", sort=False):
        if label in refused:
            values[label], marks[label] = {}, set()
            continue
        fallback = noop.median()
        base = {r: delay_us + (noop.get(r, fallback) if figure.net else 0.0) for r in g["round"]}
        steady = g["steady"] if "steady" in g else [True] * len(g)
        # a fork that never settled is left out, and so is its round's pair
        values[label] = {int(r): v - base[r] for r, v, ok in zip(g["round"], g[figure.column], steady) if v == v and ok}
        m = {x for fl in g["flags"] for x in fl} | ({"unsteady"} if not all(steady) else set())
        if (g["jit"] > cbl.JIT_WARMING).any():
            m.add("jit")
        if figure.column == "cpu" and "cpu.clock" in g and (g["cpu.clock"] == "unknown").any():
            m.add("clock")
        if figure.column == "cpu" and "cpu.compilers" in g and (g["cpu.compilers"] == "in").any():
            m.add("compilers")
        if figure.net and any(r not in noop.index for r in g["round"]):
            m.add("noop")  # netted against noop's median over the other rounds
        if figure.key == "knee":
            m.update(s for s in g["knee.status"] if s in ("open", "ceiling", "flagged"))
        marks[label] = m
    return values, marks


def decide(run: cbl.Run) -> dict:
    """Every figure of every shape, old against new, as summary.json's `upgrade` holds it."""
    up = arms(run)
    old, new = up["old"]["label"], up["new"]["label"]
    cells = []
    for shape in run.shapes:
        kind = cbl.kind(run, shape)
        for fig in cbd.FIGURES:
            if kind not in fig.kinds:
                continue
            values, marks = _rounds(run, shape, fig)
            a, b = values.get(old, {}), values.get(new, {})
            common = {r for r in a if r in b and a[r] > 0 and b[r] > 0}  # none: at or below the harness's own
            # A set's blocks pair the versions within it; the sets, each a new JVM of each, are the pairs judged.
            values = {old: cbl.per_set(a, common), new: cbl.per_set(b, common)}
            rounds = list(values[old])
            if rounds:
                cells.append((shape, fig, values, sorted(marks[old] | marks[new]), len(rounds)))
    both = sum(1 for *_, n in cells if n >= 2)
    figures = []
    for shape, fig, values, marks, _ in cells:
        p = paired(values[old], values[new], fig.higher_is_better, both)
        figures.append({"shape": shape, "figure": fig.key, "label": fig.label, "unit": fig.unit,
                        "better": "higher" if fig.higher_is_better else "lower", "net": fig.net, "marks": marks,
                        **{k: _round(v) for k, v in p.items()}})
    m, jdk = run.env.get("machine", {}), run.env.get("launcherJdk", {})
    paired_by = pairing(run)
    return {"client": up["client"], "old": _version(run, up["old"]), "new": _version(run, up["new"]),
            "behaviour": behaviour(run, old, new),
            "holdsFor": {"cpuModel": m.get("cpuModel"), "cores": m.get("cpuCount"), "jdk": jdk.get("version"),
                         "firstLook": run.first_look},
            "confidence": cbl.CONFIDENCE, "figuresTogether": both,
            "pairedBy": paired_by,
            "method": ("per set, the mean over its blocks of log(new/old), each block's windows seconds apart"
                       if paired_by == "blocks" else "per round log(new/old), paired within the round")
                      + "; mean and Student t interval, Bonferroni over the figures", "figures": figures}


def behaviour(run: cbl.Run, old: str, new: str) -> dict | None:
    """The behaviour cells whose mark changed from the old version to the new (analysis.decide.behaviour decides each cell
    and the change), with the library each version's behaviour JVM loaded (its cases' settings.library, never typed);
    None for a run without behaviour.json (--no-behaviour) or without both versions in it."""
    data = cbb.read(run.path)
    if data is None or old not in data["clients"] or new not in data["clients"]:
        return None
    c = cbb.changes(cbb.decide(run.path, [old, new]), old, new)
    libraries = {side: sorted({loaded(x.get("settings") or {}) for x in (data["clients"][label].get("cases")
                                                                        or {}).values()} - {None})
                 for side, label in (("old", old), ("new", new))}
    return {**c, "cases": len(data.get("definitions", {}).get("cases", [])), "wallSeconds": data.get("wallSeconds"),
            "library": libraries}


def pairing(run: cbl.Run) -> str:
    """What pairs old with new: `blocks` of interleaved sets (judged per set: a new JVM of each version), else `rounds`."""
    return "blocks" if any(t.record.get("interleaved") for t in run.trials) else "rounds"


def loaded(settings: dict) -> str | None:
    """The library a fork or a behaviour case recorded loading, and the Netty it ran on where it recorded one (a Netty
    bump moves that, not the library): 'g:a:3.0.13 on io.netty:netty-handler:4.2.18.Final'. None where unrecorded."""
    lib, netty = settings.get("library"), settings.get("netty")
    return f"{lib} on {netty}" if lib and netty else lib


def _version(run: cbl.Run, arm: dict) -> dict:
    """An arm as built, and the library its forks recorded loading (trial settings), never typed."""
    recorded = sorted({loaded(t.record.get("settings", {})) or "" for t in run.trials if t.client == arm["label"]})
    return {"label": arm["label"], "version": arm["version"], "library": recorded}


def _round(x):
    if isinstance(x, float):
        return None if x != x or math.isinf(x) else float(f"{x:.5g}")
    return x


def read(run: cbl.Run) -> dict:
    """The run's upgrade as decided (summary.json's), deciding it now for a run that has none yet."""
    return run.summary.get("upgrade") or decide(run)


def write(run: cbl.Run, u: dict):
    """Into summary.json (`upgrade`) and results.csv (the new version's rows: `upgrade.<figure>` the ratio, with
    `.low`, `.high` and `.verdict`), each file whole."""
    summary = dict(run.summary)
    summary["upgrade"] = u
    cbd.write_atomically(run.path / "summary.json", json.dumps(summary, indent=2, allow_nan=False) + "\n")
    path = run.path / "results.csv"
    if not path.is_file():
        return
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    keys = []
    for f in u["figures"]:
        k = f"upgrade.{f['figure']}"
        keys += [k for k in (k, f"{k}.low", f"{k}.high", f"{k}.verdict") if k not in keys]
    for row in rows:
        for k in keys:
            row[k] = ""
        for f in u["figures"]:
            if row.get("shape") == f["shape"] and row.get("client") == u["new"]["label"]:
                k = f"upgrade.{f['figure']}"
                row.update({k: _cell(f["ratio"]), f"{k}.low": _cell(f["low"]), f"{k}.high": _cell(f["high"]),
                            f"{k}.verdict": f["verdict"]})
    fields = [k for k in (rows[0].keys() if rows else []) if not k.startswith("upgrade.")] + keys
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows({k: r.get(k, "") for k in fields} for r in rows)
    cbd.write_atomically(path, out.getvalue())


def _cell(x) -> str:
    return "" if x is None else f"{x:.4f}"


# ---------------------------------------------------------------- words and the figure

def factor(x: float) -> str:
    """A ratio in three digits; beyond a factor 100 either way, only that (two rounds give such intervals)."""
    return ">100" if x > 100 else "<0.01" if x < 0.01 else f"{x:.3g}"


def ratio_text(f: dict) -> str:
    return "-" if f["ratio"] is None else factor(f["ratio"])


def interval_text(f: dict) -> str:
    return "-" if f["low"] is None else f"[{factor(f['low'])}, {factor(f['high'])}]"


def detectable(f: dict) -> str:
    """The change the figure's run finds four times in five, as a share (or a factor beyond x2)."""
    d = f["detectable"]
    return "-" if d is None else f"{d:.1%}" if d < 1 else ">x100" if d > 99 else f"x{1 + d:.3g}"


def table(u: dict) -> pd.DataFrame:
    """One row per shape and figure: the two values, the ratio new/old, its interval, the verdict, and the change the
    run finds four times in five; '*' after a figure whose forks raised a mark. The terminal and the report print it."""
    rows = [{"shape": f["shape"], "figure": f["label"] + ("*" if f["marks"] else ""),
             "old": cbd.fmt(f["old"], f["unit"]), "new": cbd.fmt(f["new"], f["unit"]), "new/old": ratio_text(f),
             "95% interval": interval_text(f), "verdict": f["verdict"], "could detect": detectable(f),
             "rounds": f["rounds"]} for f in u["figures"]]
    return pd.DataFrame(rows, columns=["shape", "figure", "old", "new", "new/old", "95% interval", "verdict",
                                       "could detect", "rounds"])


def versions(u: dict) -> list:
    """A line per version: its name in the run and the library its forks, and its behaviour cases' JVM, loaded."""
    b, out = u.get("behaviour"), []
    for side in ("old", "new"):
        lib = ", ".join(u[side]["library"]) or "not recorded"
        cases = (", ".join(b["library"][side]) or "not recorded") if b else None
        said = (f"its forks and behaviour cases loaded {lib}" if cases == lib else f"its forks loaded {lib}"
                + (f"; its behaviour cases {cases}" if b else ""))
        out.append(f"  {side}: {u[side]['label']} ({said})")
    return out


def terminal_upgrade(run: cbl.Run, u: dict, width: int = 118) -> str:
    """The terminal's ending, at most 40 lines: what the comparison holds for, the table, the verdict in a line."""
    hf = u["holdsFor"]
    lines = [f"upgrade {u['client']} {u['old']['version']} -> {u['new']['version']} ({hf['cores']} cores of "
             f"{hf['cpuModel']}, JDK {hf['jdk']})" + (": A FIRST LOOK, NOT FOR DECISIONS" if hf["firstLook"] else "")]
    b = u.get("behaviour")
    lines += versions(u)
    head = [lines[0]] + [w for line in lines[1:] for w in textwrap.wrap(line, width, subsequent_indent="      ")]
    head += [""] + (cbb.change_lines(b, b["cases"]) + [""] if b else [])
    t = table(u)
    rows = cbd.grid(t) if not t.empty else []
    lines.append("")
    said = []
    for verdict in (BETTER, WORSE):
        hit = [f"{f['label']} ({f['shape']}, x{f['ratio']:.3f})" for f in u["figures"] if f["verdict"] == verdict]
        if hit:
            said.append(f"{verdict}: " + "; ".join(hit))
    if not said:
        said.append("no difference detected in any figure")
    lines += textwrap.wrap("verdict: " + " | ".join(said), width, subsequent_indent="  ")
    lines += textwrap.wrap(
        ("new/old per set of JVMs (old and new alive at once, their windows paired block by block; latency over each "
         "JVM's windows merged); intervals " if u.get("pairedBy") == "blocks" else
         "new/old from the rounds paired (old and new in each round, their order alternating); intervals ") +
        f"{u['confidence']:.0%} for all {u['figuresTogether']} figures together, so an A/A run finds no difference "
        f"with {u['confidence']:.0%} probability; could detect: the change found four times in five; costs net of noop; "
        f"* marked (JIT compiling, a flag, a knee's lower bound, a fork that never settled): see summary.json", width)
    tail = [""] + lines[4:] + [f"figure of the ratios: {run.path / PNG}"]
    room = 40 - len(head) - len(tail)  # the table's rows beyond that are in summary.json and the report
    if len(rows) > room:
        rows = rows[:room - 1] + [f"... {len(rows) - room + 1} more figures in summary.json"]
    return "\n".join(head + rows + tail) + "\n"


def figure(run: cbl.Run, u: dict):
    """upgrade.png: each figure's ratio new/old with its interval, one row each, the line of no change at 1."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [f for f in u["figures"] if f["ratio"] is not None]
    fig, ax = plt.subplots(figsize=(8, 0.42 * max(3, len(shown)) + 1.2))
    colour = {BETTER: "#1a7f37", WORSE: "#cf222e"}
    for i, f in enumerate(shown):
        y = len(shown) - 1 - i
        c = colour.get(f["verdict"], "#57606a")
        if f["low"] is not None:  # clipped to a factor 100 either way, as the table says it
            ax.plot([max(f["low"], 0.01), min(f["high"], 100)], [y, y], color=c, lw=2)
        ax.plot([f["ratio"]], [y], "o", color=c)
    ax.axvline(1.0, color="black", lw=0.8)
    ax.set_xscale("log")
    ax.set_yticks(range(len(shown)))
    ax.set_yticklabels([f"{f['shape']}: {f['label']}" for f in reversed(shown)], fontsize=8)
    ax.set_xlabel(f"new / old ({u['confidence']:.0%} intervals for all figures together; green better, red worse)")
    ax.set_title(f"{u['client']} {u['old']['version']} -> {u['new']['version']}", fontsize=10)
    fig.tight_layout()
    path = run.path / PNG
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
