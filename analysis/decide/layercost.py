"""What a layer costs over its engine: a Spring client against the suite's bare client of the same engine on the same
threads, as its record names it (settings' `bareClient`). Each figure's layer/bare ratio comes from the verdict's
planned pairs (`analysis.stats.pairwise.compare`'s `planned`): an interval over these few pairs, not over every pair."""
from __future__ import annotations

from analysis.decide import behaviour as cbb
from analysis import load as cbl
from analysis.stats import pairwise as cbs

# The figures a team weighs a layer on, in the order shown; each is one the verdict ranks at a fixed rate.
SHOWN = ("cpu", "alloc", "syscalls", "p50", "p99")


@cbl.per_run
def pairs(run: cbl.Run) -> list:
    """(layer, bare) for each client whose record names its bare client, where the run measured both."""
    bare = {}
    for t in run.trials:
        named = (t.record.get("settings") or {}).get("bareClient")
        if named and t.client not in bare:
            bare[t.client] = named
    return [(c, bare[c]) for c in run.clients if c in bare and bare[c] in run.clients]


def judge(shapes: list, shape: str | None, confidence: float) -> dict | None:
    """From the verdict's shapes (plain data): each pair's ratio per figure of `shape`, layer over bare, with its
    interval and whether it is told apart from 1; None where the shape holds no planned pair."""
    figures = next((s["figures"] for s in shapes if s["shape"] == shape), [])
    by_pair = {}
    for f in figures:
        if f["figure"] not in SHOWN:
            continue
        for r in f.get("planned", []):
            one = {"ratio": r["ratio"], "low": r["low"], "high": r["high"], "apart": r["relation"] != cbs.TIED}
            by_pair.setdefault((r["x"], r["y"]), {})[f["figure"]] = one
    if not by_pair:
        return None
    rows = [{"layer": x, "bare": y, "figures": {k: got[k] for k in SHOWN if k in got}} for (x, y), got in by_pair.items()]
    apart = sum(1 for r in rows for x in r["figures"].values() if x["apart"])
    return {"shape": shape, "confidence": confidence, "pairs": len(rows), "apart": apart, "rows": rows}


# An end beyond these is shown as unbounded: a client judged on its own spread over two rounds has one degree of freedom.
WIDEST = (0.01, 100.0)


def cell(x: dict | None) -> str:
    """'x1.32 [1.21-1.45]*': the ratio, its interval, a star where it is told apart from 1; '-' where not ranked."""
    if not x or x["ratio"] is None:
        return "-"
    low = "0" if x["low"] is None or x["low"] < WIDEST[0] else f"{x['low']:.2f}"
    high = "inf" if x["high"] is None or x["high"] > WIDEST[1] else f"{x['high']:.2f}"
    return f"x{x['ratio']:.2f} [{low}-{high}]" + ("*" if x["apart"] else "")


def caption(costs: dict, where: str) -> str:
    """What the table is, in one sentence, with its counts."""
    return (f"each layer over the bare client of its engine on the same threads, {where}: layer / bare, "
            f"{costs['confidence']:.0%} interval over the {costs['pairs']} pairs; * told apart from x1.00 "
            f"({costs['apart']} of {sum(len(r['figures']) for r in costs['rows'])})")


def table_rows(costs: dict, labels: dict) -> list:
    """The header, then one row per pair: layer, bare, a cell per figure shown (`labels`: figure key -> column)."""
    keys = [k for k in SHOWN if any(k in r["figures"] for r in costs["rows"])]
    return [["layer", "over", *(labels.get(k, k) for k in keys)]] + [
        [r["layer"], r["bare"], *(cell(r["figures"].get(k)) for k in keys)] for r in costs["rows"]]


def behaviour_changes(b: dict | None, pairs_: list) -> list:
    """For each pair the behaviour table decided: the cells whose mark the layer changes from its engine's (as an
    upgrade's are found, `analysis.decide.behaviour.changes`), in the table's order; a case the layer cannot take part in
    (HTTP/2 through Spring) is counted under `notApplicable`, not listed: it says what the layer allows, not does."""
    out = []
    for x, y in ((x, y) for x, y in pairs_ if b and x in b["clients"] and y in b["clients"]):
        c = cbb.changes(b, y, x)
        na = [r for r in c["changed"] if cbb.NOT_APPLICABLE in (r["old"]["mark"], r["new"]["mark"])]
        out.append({"layer": x, "bare": y, **c, "changed": [r for r in c["changed"] if r not in na],
                    "notApplicable": [r["heading"] for r in na]})
    return out


def behaviour_lines(changes: list) -> list:
    """One line per pair: the cells it changes, its engine's -> its own; or that it changes none."""
    out = []
    for c in changes:
        said = "; ".join(f"{r['heading']}: {cbb.cell_text(r['old'])} -> {cbb.cell_text(r['new'])}" for r in c["changed"])
        apart = c["counts"][cbb.NOT_COMPARED]
        na = f"; n/a through the layer: {', '.join(c['notApplicable'])}" if c["notApplicable"] else ""
        out.append(f"{c['layer']} over {c['bare']}: " + (said or f"no cell changed ({c['counts']['unchanged']} the same"
                                                                    + (f", {apart} not compared)" if apart else ")"))
                   + na)
    return out
