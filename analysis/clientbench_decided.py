"""Until decided: whether every pair of clients is decided on the figures a run waits for (thresholds.json's
untilDecided): told apart, or its ratio's interval within 1 +- the margin. A run given --until-decided asks after each
round of its common rate from the second (clientbench_decide.look) and stops that shape's rounds once no pair is open;
the verdict says how each pair ended (`summary`). Each look judges at clientbench_load.confidence, the confidence split
over the looks.
"""
from __future__ import annotations

import clientbench_load as cbl
import clientbench_stats as cbs

RULE = cbl.THRESHOLDS["untilDecided"]
FIGURES = tuple(RULE["figures"])
MARGIN = RULE["margin"]
APART, WITHIN, OPEN = "apart", "within", "open"


def pair_states(f: dict | None, clients: list, margin: float = MARGIN) -> dict:
    """Every pair of `clients` on one figure's verdict (clientbench_decide.rank's; None where it was not measured), by
    state: APART [better, worse], WITHIN [x, y] (the interval inside 1 +- margin), OPEN [x, y] (neither, or no ratio:
    a client shown without letters)."""
    ratios = {frozenset((r["x"], r["y"])): r for r in ((f or {}).get("pairs") or {}).get("ratios", [])}
    out = {APART: [], WITHIN: [], OPEN: []}
    for i, x in enumerate(clients):
        for y in clients[i + 1:]:
            r = ratios.get(frozenset((x, y)))
            if r is None or r["low"] is None or r["high"] is None:
                out[OPEN].append([x, y])
            elif r["relation"] != cbs.TIED:
                out[APART].append([r["x"], r["y"]])
            elif r["low"] >= 1 / (1 + margin) and r["high"] <= 1 + margin:
                out[WITHIN].append([r["x"], r["y"]])
            else:
                out[OPEN].append([r["x"], r["y"]])
    return out


def look(shape: str, figures: dict, clients: list, rounds: int, confidence: float) -> dict:
    """Where `shape` stands after `rounds` rounds: per figure of FIGURES (`figures`: key -> its verdict, as
    clientbench_decide.rank gives it) its pairs by state; `decided` when none is open."""
    states = {key: pair_states(figures.get(key), clients) for key in FIGURES}
    return {"shape": shape, "rounds": rounds, "confidence": confidence, "margin": MARGIN, "figures": states,
            "decided": all(not s[OPEN] for s in states.values())}


def summary(record: dict, final: dict) -> dict:
    """For the verdict of a run given --until-decided: what it recorded of its looks (env.json's untilDecided) and how
    each pair ended on all its rounds (`final`, a `look`)."""
    return {**record, "final": final}


def words(u: dict) -> str:
    """'rate-4000 until decided (at most 6 rounds, 5 looks at 99% each): stopped after round 3; cpu: 3 apart, 0 within
    5%, 0 open; p50: ...' from `summary`'s structure."""
    f = u["final"]
    ended = (f"stopped after round {u['stoppedAfter']}" if u.get("stoppedAfter")
             else f"{'decided' if f['decided'] else 'left open'} after all {f['rounds']} rounds")
    parts = [f"{key}: {len(s[APART])} apart, {len(s[WITHIN])} within {f['margin']:.0%}, {len(s[OPEN])} open"
             + (" (" + ", ".join(f"{x}-{y}" for x, y in s[OPEN]) + ")" if s[OPEN] else "")
             for key, s in f["figures"].items()]
    return (f"{u['shape']} until decided (at most {u['maxRounds']} rounds, {u['looks']} looks at "
            f"{cbl.percent(f['confidence'])} each): {ended}; " + "; ".join(parts))
