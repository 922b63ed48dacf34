"""May a dependency bump merge? An upgrade run's figures against the thresholds a team keeps: decided once, here.

A gated figure has `regressed` when its whole interval (new/old, at the verdict's family-wise confidence) lies beyond
its threshold in the worse direction; else `unresolved` when the run could not detect a change of the threshold; else
`passed`. A behaviour cell that turned NO has regressed where behaviour is gated, if its counts show it beyond chance
(else unresolved). Exit status: 1 a regression, 3 could not resolve, 0 no regression shown. `foresee` predicts,
before measuring, what a run of a given length resolves.
"""
from __future__ import annotations

import json
import math
import re
import tomllib
from pathlib import Path

from analysis import load as cbl
from analysis.decide import behaviour as cbb
from analysis.decide import upgrade as cbu
from analysis.decide import verdict as cbd

REGRESSED, UNRESOLVED, PASSED, OPEN = "regressed", "unresolved", "passed", "open"
BROKEN = cbb.BROKEN  # behaviour's gated form: any cell that turned NO
STATUS = {REGRESSED: 1, UNRESOLVED: 3, PASSED: 0}
WORDS = {0: "no regression shown", 1: "regression", 3: "could not resolve"}
KEYS = [f.key for f in cbd.FIGURES] + ["behaviour"]
NONE_GIVEN = "-"  # no thresholds file: every figure and cell shown, none gated
MAX_PAIRS = 60  # foresee's search for the pairs that would resolve a threshold stops here
_SHARE = re.compile(r"(\d+(?:\.\d+)?)%")


# ---------------------------------------------------------------- the thresholds file

def read_thresholds(path) -> dict:
    """key -> the largest worsening allowed as a share (0.05) or "open"; behaviour -> "broken" or "open". From a TOML
    file's [thresholds] table; a key not listed is open. Anything else raises AnalysisError naming file and key."""
    if str(path) == NONE_GIVEN:
        return dict.fromkeys(KEYS, OPEN)
    path = Path(path)
    forms = 'figures "N%" (N > 0) or "open", behaviour "broken" or "open"'
    if not path.is_file():
        raise cbl.AnalysisError(f"{path}: missing (a TOML file with a [thresholds] table: {forms})")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise cbl.AnalysisError(f"{path}: not valid TOML ({e})") from None
    table = data.get("thresholds")
    if not isinstance(table, dict):
        raise cbl.AnalysisError(f"{path}: no [thresholds] table (keys {', '.join(KEYS)}; {forms})")
    stray = [k for k in data if k != "thresholds"]
    if stray:  # a key above the table's header is not in it: a gate must not ignore it
        raise cbl.AnalysisError(f"{path}: {stray[0]}: outside [thresholds]; only that table is read ({forms})")
    out = dict.fromkeys(KEYS, OPEN)
    for key, value in table.items():
        if key not in out:
            raise cbl.AnalysisError(f"{path}: [thresholds] {key}: not a key; the keys are {', '.join(KEYS)}")
        out[key] = _threshold(path, key, value)
    return out


def _threshold(path: Path, key: str, value):
    if value == OPEN or (key == "behaviour" and value == BROKEN):
        return value
    m = _SHARE.fullmatch(value) if isinstance(value, str) and key != "behaviour" else None
    if m and float(m.group(1)) > 0:
        return float(m.group(1)) / 100
    valid = '"broken" or "open"' if key == "behaviour" else '"N%" with N > 0 (e.g. "5%") or "open"'
    raise cbl.AnalysisError(f"{path}: [thresholds] {key} = {json.dumps(value)}: not a threshold; write {valid}")


# ---------------------------------------------------------------- one run

def gate(u: dict, thresholds: dict) -> dict:
    """An upgrade (summary.json's `upgrade`) against `thresholds` (read_thresholds): a cell per figure and per changed
    behaviour cell, each with its state; the status (1 over 3 over 0) and the one line that decided it."""
    cells = [_figure(f, thresholds.get(f["figure"], OPEN)) for f in u["figures"]]
    measured = {f["figure"] for f in u["figures"]}
    cells += [_missing(key, thresholds[key]) for key in KEYS[:-1]
              if thresholds.get(key, OPEN) != OPEN and key not in measured]
    cells += _behaviour(u.get("behaviour"), thresholds.get("behaviour", OPEN))
    status = _status(cells)
    return {"client": u["client"], "old": u["old"]["version"], "new": u["new"]["version"], "status": status,
            "word": WORDS[status], "because": _because(cells, status, thresholds), "cells": cells,
            "thresholds": thresholds}


def _figure(f: dict, t) -> dict:
    cell = {"kind": "figure", **{k: f[k] for k in ("shape", "figure", "label", "better", "ratio", "low", "high",
                                                     "detectable", "rounds", "marks")}, "threshold": t}
    if t == OPEN:
        return {**cell, "gate": OPEN}
    # a zero-width interval estimates no spread, so it decides nothing (as the upgrade's verdict reads it)
    spread = f["low"] is not None and f["high"] > f["low"]
    lower = f["better"] == "lower"
    if spread and (f["low"] > 1 + t if lower else f["high"] < 1 / (1 + t)):
        return {**cell, "gate": REGRESSED}
    # passed: the run could see a change of t, and its whole interval stays within it
    d = f["detectable"]
    within = spread and (f["high"] <= 1 + t if lower else f["low"] >= 1 / (1 + t))
    return {**cell, "gate": PASSED if within and d is not None and d <= t else UNRESOLVED}


def _missing(key: str, t: float) -> dict:
    """A gated figure the run holds in no shape (not measured, or CPU read on ticks): nothing seen, nothing passed."""
    return {"kind": "figure", **_unseen(key), "ratio": None, "low": None, "high": None, "detectable": None,
            "rounds": 0, "marks": [], "threshold": t, "gate": UNRESOLVED}


def _unseen(key: str) -> dict:
    fig = cbd.BY_KEY[key]
    return {"shape": None, "figure": key, "label": fig.label, "better": "higher" if fig.higher_is_better else "lower"}


def _behaviour(b: dict | None, t: str) -> list:
    if b is None:  # --no-behaviour, or a version missing from behaviour.json
        return [] if t == OPEN else [{"kind": "behaviour", "aspect": None, "heading": "behaviour", "change": None,
                                      "threshold": t, "gate": UNRESOLVED}]
    return [{"kind": "behaviour", "aspect": c["aspect"], "heading": c["heading"], "change": c["change"],
             "old": cbb.cell_text(c["old"]), "new": cbb.cell_text(c["new"]), "threshold": t,
             "events": [(x.get("events") or {}) for x in (c["old"], c["new"])],
             "gate": OPEN if t != BROKEN or c["change"] != BROKEN else
             REGRESSED if c.get("beyondChance", True) else UNRESOLVED} for c in b["changed"]]


def _status(cells: list) -> int:
    states = {c["gate"] for c in cells}
    return next((STATUS[s] for s in (REGRESSED, UNRESOLVED) if s in states), 0)


def _because(cells: list, status: int, thresholds: dict) -> str:
    """The first cell of the deciding state in words, and how many more share it; or what passed."""
    state = {1: REGRESSED, 3: UNRESOLVED}.get(status)
    if state is None:
        if all(t == OPEN for t in thresholds.values()):
            return "nothing gated: every threshold is open"
        passed = sum(c["gate"] == PASSED for c in cells)
        said = f"{passed} gated figures within their thresholds, each able to see a change of its threshold"
        return said + ("; no behaviour cell broken" if thresholds.get("behaviour") == BROKEN else "")
    hit = [c for c in cells if c["gate"] == state]
    more = f"; {len(hit) - 1} more {state}" if len(hit) > 1 else ""
    return why(hit[0]) + more


def why(c: dict) -> str:
    """A cell's state in one line: 'CPU per request x1.16 [1.09, 1.23] beyond +5% (rate-4000)'."""
    if c["kind"] == "behaviour":
        if c["aspect"] is None:
            return "behaviour is gated and the run has no behaviour cases (--no-behaviour)"
        said = f"behaviour {c['heading']} {c['change']}: {c['old']} -> {c['new']}"
        if c["gate"] != UNRESOLVED:
            return said
        was, now = c["events"]
        return said + f", within chance ({now['bad']}/{now['of']} against {was['bad']}/{was['of']})"
    limit = limit_text(c)
    if c["shape"] is None:
        return f"{c['label']} is gated at {limit} and the run compared it in no shape"
    where = f" ({c['shape']}" + (f", marked {', '.join(c['marks'])})" if c["marks"] else ")")
    if c["gate"] == REGRESSED:
        return f"{c['label']} x{cbu.ratio_text(c)} {cbu.interval_text(c)} beyond {limit}{where}"
    if c["gate"] == UNRESOLVED:
        if c["low"] is None or not c["high"] > c["low"]:
            seen = "too few pairs for an interval" if c["low"] is None else "no spread over the pairs to judge by"
            return f"{c['label']}: {seen}, so a change of {limit} unseen{where}"
        if c["detectable"] is not None and c["detectable"] <= c["threshold"]:
            return f"{c['label']} x{cbu.ratio_text(c)} {cbu.interval_text(c)} reaches past {limit}{where}"
        return f"{c['label']} could detect {cbu.detectable(c)}, above its {limit} threshold{where}"
    return f"{c['label']} x{cbu.ratio_text(c)} {cbu.interval_text(c)}, could detect {cbu.detectable(c)}{where}"


def limit_text(c: dict) -> str:
    """The threshold as the worse direction says it: '+5%' for a cost, '5% worse (x0.952)' for throughput or a knee."""
    t = c["threshold"]
    return f"+{cbl.percent(t)}" if c["better"] == "lower" else f"{cbl.percent(t)} worse (x{1 / (1 + t):.3g})"


# ---------------------------------------------------------------- several runs

def combine(results: list) -> dict:
    """One status over several runs' gates (a bump measured on several clients): 1 over 3 over 0, and the line of the
    first run that has it, named by client and versions where there are several."""
    status = next((s for s in (1, 3) if any(r["status"] == s for r in results)), 0 if results else 3)
    first = next((r for r in results if r["status"] == status), None)
    because = ("no upgrade run to gate" if first is None else first["because"] if len(results) == 1
               else f"{first['client']} {first['old']} -> {first['new']}: {first['because']}")
    return {"status": status, "word": WORDS[status], "because": because, "runs": results}


def gate_all(us: list, thresholds: dict) -> dict:
    """Each upgrade gated, and one status over them (`combine`)."""
    return {**combine([gate(u, thresholds) for u in us]), "thresholds": thresholds}


# ---------------------------------------------------------------- before measuring

def pair_spread(f: dict, figures: int, confidence: float = cbl.CONFIDENCE) -> float | None:
    """The sd of a figure's pairs' log ratios, recovered from its `detectable` at its `rounds` (detectable_log_change is
    linear in the sd) and the `figures` it was judged together with; None without two pairs."""
    if f.get("detectable") is None or f["rounds"] < 2:
        return None
    alpha = (1 - confidence) / max(1, figures)
    return math.log(1 + f["detectable"]) / cbu.detectable_log_change(1.0, f["rounds"], alpha)


def detectable_at(sd: float, pairs: int, figures: int, confidence: float = cbl.CONFIDENCE) -> float:
    """The change (a share) a run of `pairs` pairs and `figures` figures together finds four times in five."""
    return math.exp(cbu.detectable_log_change(sd, pairs, (1 - confidence) / max(1, figures))) - 1


def foresee(thresholds: dict, reference_u: dict, pairs: int, figures: int) -> list:
    """Per gated figure of the reference (an A/A run's `upgrade`): the change a run of `pairs` pairs and `figures`
    figures together could detect at the reference's spread, whether that resolves its threshold, and the fewest
    pairs that would (None beyond MAX_PAIRS)."""
    if pairs < 2:
        raise cbl.AnalysisError(f"{pairs} pairs: an interval needs at least 2")
    conf, together = reference_u["confidence"], reference_u["figuresTogether"]
    out = []
    for f in reference_u["figures"]:
        t = thresholds.get(f["figure"], OPEN)
        if t == OPEN:
            continue
        sd = pair_spread(f, together, conf)
        d = None if sd is None else detectable_at(sd, pairs, figures, conf)
        need = None if sd is None else next(
            (n for n in range(2, MAX_PAIRS + 1) if detectable_at(sd, n, figures, conf) <= t), None)
        out.append({**{k: f[k] for k in ("shape", "figure", "label", "better")}, "referenceRounds": f["rounds"],
                    "sd": sd, "detectable": d, "resolves": d is not None and d <= t, "pairsNeeded": need})
    seen = {f["figure"] for f in reference_u["figures"]}
    out += [{**_unseen(key), "referenceRounds": 0, "sd": None, "detectable": None, "resolves": False,
             "pairsNeeded": None} for key in KEYS[:-1] if thresholds.get(key, OPEN) != OPEN and key not in seen]
    return [{**p, "threshold": thresholds[p["figure"]], "pairs": pairs, "figures": figures, "maxPairs": MAX_PAIRS}
            for p in out]


def reference_run(results_dir, cpu_model: str | None = None) -> Path:
    """The newest run folder under `results_dir` of an A/A upgrade (env.json's `upgrade` with one version twice), the
    newest on `cpu_model` where there is one: a spread holds on the CPU model it was measured on."""
    found = []
    for p in Path(results_dir).iterdir() if Path(results_dir).is_dir() else []:
        if not (p / "summary.json").is_file() or (p / "INCOMPLETE").exists():
            continue  # not a finished run
        try:
            env = json.loads((p / "env.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        up = env.get("upgrade") if isinstance(env, dict) else None
        if isinstance(up, dict) and up.get("planted"):
            continue  # a known regression planted in one arm: not an A/A run
        versions = {(up.get(side) or {}).get("version") for side in ("old", "new")} if isinstance(up, dict) else set()
        if len(versions) == 1 and None not in versions:
            found.append((p, (env.get("machine") or {}).get("cpuModel") == cpu_model))
    if not found:
        raise cbl.AnalysisError(f"{results_dir}: no A/A upgrade run (./bench upgrade CLIENT V V) to foresee from")
    return max(found, key=lambda x: (x[1], x[0].name))[0]
