"""Decided pairs: every pair of clients on a figure is told apart, alike within the figure's margin (thresholds.json's
alikeWithin: the pair's interval inside 1/m to m), or open, with the smallest margin its interval shows. The intervals
are the verdict's, simultaneous over every pair at its family-wise confidence, so the apart and the alike claims hold
together. A run given --until-decided asks after each round of its common rate from the second
(analysis.decide.verdict.look) and stops that shape's rounds once no pair of thresholds.json's untilDecided figures is
open; the verdict says how each pair ended (`summary`).
"""
from __future__ import annotations

from analysis import load as cbl
from analysis.stats import pairwise as cbs

MARGINS = cbl.THRESHOLDS["alikeWithin"]
FIGURES = tuple(cbl.THRESHOLDS["untilDecided"]["figures"])
APART, ALIKE, OPEN = "apart", "alike", "open"


def margin(key: str) -> float:
    """The ratio within which two clients are alike on figure `key`."""
    if key not in MARGINS:
        raise cbl.AnalysisError(f"thresholds.json: alikeWithin has no margin for the figure {key!r}")
    return float(MARGINS[key])


def pair_state(ratio: cbs.Ratio, m: float) -> tuple:
    """(APART, ALIKE or OPEN, the smallest margin the pair's interval shows: max(high, 1 / low); None where the
    interval is unbounded) of one pair's ratio, at margin `m`."""
    if not (0 < ratio.low <= ratio.high < float("inf")):
        return (APART if ratio.relation != cbs.TIED else OPEN), None
    shows = max(ratio.high, 1 / ratio.low)
    if ratio.relation != cbs.TIED:
        return APART, shows
    return (ALIKE if shows <= m else OPEN), shows


def counts(states: list, m: float) -> dict:
    """A figure's pairs by state (`states`: (state, shows) per pair, every pair of its clients; None for a pair with a
    client shown without letters, open with no interval: "unletteredPairs" counts them), the margin, and the margin
    every other open pair is within ("couldShow", the widest of theirs; None where one is unbounded or none is open)."""
    rated = [x for x in states if x is not None]
    opened = [shows for state, shows in rated if state == OPEN]
    unlettered = len(states) - len(rated)
    return {"margin": m, **{s: sum(1 for state, _ in rated if state == s) for s in (APART, ALIKE)},
            OPEN: len(opened) + unlettered, "unletteredPairs": unlettered,
            "couldShow": max(opened) if opened and None not in opened else None}


def times(m: float) -> str:
    """A margin as words give it: 'x1.10', 'x28.8', 'x2,170'."""
    return f"x{m:.2f}" if m < 10 else f"x{m:.1f}" if m < 100 else f"x{m:,.0f}"


# An interval wider than this either way says nothing a team could act on: its width is not spelt out.
WIDEST_SAID = 1000.0


def within_words(m: float | None) -> str:
    """What the open pairs' widest interval shows: 'within x1.71', 'wider than x1,000' (WIDEST_SAID), 'unbounded'."""
    if m is None:
        return "unbounded"
    return f"within {times(m)}" if m <= WIDEST_SAID else f"wider than {times(WIDEST_SAID)}"


def count_words(d: dict, unlettered: list = ()) -> str:
    """'44 apart, 12 alike within x1.10, 10 open (could show x1.18)' from `counts`; where clients are shown without
    letters (`unlettered`), their pairs are said on their own: '... 37 open (11 with jdk-vt, unlettered; the rest: could
    show x1.97)'."""
    why = []
    if d[OPEN] > d["unletteredPairs"]:
        why.append("an interval unbounded" if not d["couldShow"] else f"could show {times(d['couldShow'])}"
                   if d["couldShow"] <= WIDEST_SAID else f"intervals {within_words(d['couldShow'])}")
    if d["unletteredPairs"]:
        why = [f"{d['unletteredPairs']} with {' or '.join(unlettered)}, unlettered", *("the rest: " + x for x in why)]
    return (f"{d[APART]} apart, {d[ALIKE]} alike within {times(d['margin'])}, {d[OPEN]} open"
            + (f" ({'; '.join(why)})" if why else ""))


def pair_states(f: dict | None, clients: list) -> dict:
    """Every pair of `clients` on one figure's verdict (analysis.decide.verdict.rank's; None where it was not measured), by
    state: APART [better, worse], ALIKE [x, y], OPEN [x, y] (neither, or no ratio: a client shown without letters)."""
    ratios = {frozenset((r["x"], r["y"])): r for r in ((f or {}).get("pairs") or {}).get("ratios", [])}
    out = {APART: [], ALIKE: [], OPEN: []}
    for i, x in enumerate(clients):
        for y in clients[i + 1:]:
            r = ratios.get(frozenset((x, y)))
            out[r["state"] if r else OPEN].append([r["x"], r["y"]] if r else [x, y])
    return out


def look(shape: str, figures: dict, clients: list, rounds: int, confidence: float) -> dict:
    """Where `shape` stands after `rounds` rounds: per figure of FIGURES (`figures`: key -> its verdict, as
    analysis.decide.verdict.rank gives it) its pairs by state and its margin; `decided` when none is open."""
    states = {key: pair_states(figures.get(key), clients) for key in FIGURES}
    return {"shape": shape, "rounds": rounds, "confidence": confidence,
            "margins": {key: margin(key) for key in FIGURES}, "figures": states,
            "decided": all(not s[OPEN] for s in states.values())}


def summary(record: dict, final: dict) -> dict:
    """For the verdict of a run given --until-decided: what it recorded of its looks (env.json's untilDecided) and how
    each pair ended on all its rounds (`final`, a `look`)."""
    return {**record, "final": final}


def words(u: dict) -> str:
    """'rate-4000 until decided (at most 6 rounds, 6 looks at 99.2% each): stopped after round 3; cpu: 3 apart, 0 alike
    within x1.10, 0 open; p50: ...' from `summary`'s structure."""
    f = u["final"]
    ended = (f"stopped after round {u['stoppedAfter']}" if u.get("stoppedAfter")
             else f"{'decided' if f['decided'] else 'left open'} after all {f['rounds']} rounds")
    parts = [f"{key}: {len(s[APART])} apart, {len(s[ALIKE])} alike within {times(f['margins'][key])}, {len(s[OPEN])} open"
             + (" (" + ", ".join(f"{x}-{y}" for x, y in s[OPEN]) + ")" if s[OPEN] else "")
             for key, s in f["figures"].items()]
    return (f"{u['shape']} until decided (at most {u['maxRounds']} rounds, {u['looks']} looks at "
            f"{cbl.percent(f['confidence'])} each): {ended}; " + "; ".join(parts))
