"""The gate's words: a Markdown summary short enough for a pull-request comment, the terminal's lines after the gate
(its status line last), and before measuring what a run of a given length would resolve. analysis.decide.gate
decides; nothing here judges."""
from __future__ import annotations

from analysis import load as cbl
from analysis.decide import behaviour as cbb
from analysis.decide import gate as cbg
from analysis.decide import upgrade as cbu
from analysis.decide import verdict as cbd

COLUMNS = ["shape", "figure", "old", "new", "new/old", "95% interval", "verdict", "could detect", "threshold", "gate"]


def summary(runs_and_gates: list) -> str:
    """The pull request's summary of (upgrade, its gate) pairs: the status and why first, then per run its versions, the
    table with each figure's threshold and gate, the behaviour cells that changed, and what it holds for."""
    overall = cbg.combine([g for _, g in runs_and_gates])
    lines = [f"## Upgrade gate: {overall['word']}", "",
             f"**exit {overall['status']} ({overall['word']})**: {_md(overall['because'])}", ""]
    if runs_and_gates:
        lines += [f"Thresholds (new against old, the largest worsening allowed): {_thresholds(runs_and_gates[0][1])}.",
                  ""]
    for u, g in runs_and_gates:
        lines += _run(u, g)
    return "\n".join(lines).rstrip("\n") + "\n"


def _moved(u: dict) -> str:
    """'okhttp@5.4.0 -> okhttp@5.5.1', 'reactor@netty-4.2.17.Final -> reactor@netty-4.2.18.Final': the arms as named."""
    return f"{u['old']['label']} -> {u['new']['label']}"


def _run(u: dict, g: dict) -> list:
    hf = u["holdsFor"]
    lines = [f"### {_moved(u)}: {g['word']}", ""]
    if hf.get("firstLook"):
        lines += ["> **A first look, not for decisions**: a short profile or a busy machine; its intervals are wide.",
                  ""]
    lines += [f"The library its forks loaded: `{_library(u['old'])}` -> `{_library(u['new'])}`", "",
              "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join([*map(_md, row[:-1]), _gate(row[-1])]) + " |" for row in rows(u, g)]
    marks = sorted({m for c in g["cells"] if c["kind"] == "figure" for m in c["marks"]})
    lines += [""] + ([f"\\* marked by its forks: {', '.join(marks)} (summary.json says which)", ""] if marks else [])
    lines += _behaviour(u, g) + [""]
    lines += [f"Could detect: the change each figure's run finds four times in five, at {cbl.percent(u['confidence'])} "
              f"for all {u['figuresTogether']} figures together; a gated figure that could not detect its threshold "
              f"is unresolved. Measured on {hf['cores']} cores of {hf['cpuModel']}, JDK {hf['jdk']}, "
              f"{_pairs(u)}.", ""]
    return lines


def rows(u: dict, g: dict) -> list:
    """The table's rows as strings in COLUMNS' order: the upgrade's own table, each figure's threshold and gate beside,
    and a row for a gated figure the run compared in no shape."""
    t = cbu.table(u)
    own = {(f["shape"], f["figure"]): list(r)[:8] for f, r in zip(u["figures"], t.itertuples(index=False))}
    out = []
    for c in g["cells"]:
        if c["kind"] != "figure":
            continue
        row = own.get((c["shape"], c["figure"])) or ["-", c["label"], "-", "-", "-", "-", "not compared", "-"]
        out.append(row + [_threshold(c), c["gate"]])
    return out


def _behaviour(u: dict, g: dict) -> list:
    b = u.get("behaviour")
    if b is None:
        return ["Behaviour: not measured (`--no-behaviour`)."]
    if not b["changed"]:
        return [f"Behaviour: no behaviour cell changed ({b['cases']} cases)."]
    n = b["counts"]
    said = ", ".join(f"{n[k]} {k}" for k in (cbb.FIXED, cbb.BROKEN, cbb.CHANGED, cbb.NOT_COMPARED) if n.get(k))
    lines = [f"Behaviour: {said or len(b['changed'])} of {b['cells']} cells ({b['cases']} cases; ok = as a team "
             f"would want it, NO = not):", ""]
    marked = {cbg.REGRESSED: " (**regressed**)", cbg.UNRESOLVED: " (within chance: unresolved)"}
    for c in (c for c in g["cells"] if c["kind"] == "behaviour" and c["aspect"] is not None):
        lines.append(f"- {c['change']}: {c['heading']}, {c['old']} -> {c['new']}" + marked.get(c["gate"], ""))
    return lines


def _library(arm: dict) -> str:
    return ", ".join(arm["library"]) or f"{arm['label']} (library not recorded)"


def _pairs(u: dict) -> str:
    n = max((f["rounds"] for f in u["figures"]), default=0)
    return (f"{n} pairs (sets of a JVM of each version, their windows in blocks)" if u.get("pairedBy") == "blocks"
            else f"{n} pairs (rounds of a fresh JVM of each version)")


def _threshold(c: dict) -> str:
    return c["threshold"] if c["threshold"] == cbg.OPEN else cbg.limit_text(c)


def _gate(state: str) -> str:
    return f"**{state}**" if state == cbg.REGRESSED else state


def _thresholds(g: dict) -> str:
    t = g["thresholds"]
    gated = [f"{k} {cbl.percent(v) if isinstance(v, float) else v}" for k, v in t.items() if v != cbg.OPEN]
    return (", ".join(gated) if gated else "none") + "; the rest open"


def _md(text) -> str:
    """A table cell or line as Markdown reads it: a figure's mark `*` and a bar escaped."""
    return str(text).replace("*", "\\*").replace("|", "\\|")


# ---------------------------------------------------------------- the terminal

def gate_lines(runs_and_gates: list, width: int = 118) -> list:
    """Per run its table with thresholds and gates, and the behaviour cells the gate judged; `status_line` follows."""
    lines = []
    for u, g in runs_and_gates:
        lines.append(f"gate {_moved(u)}: {g['status']} ({g['word']})")
        keep = [0, 1, 4, 5, 7, 8, 9]  # shape, figure, new/old, interval, could detect, threshold, gate
        table = [[COLUMNS[i] for i in keep]] + [[r[i] for i in keep] for r in rows(u, g)]
        widths = [max(len(r[i]) for r in table) for i in range(len(keep))]
        lines += ["  " + "  ".join(x.ljust(w) for x, w in zip(r, widths)).rstrip() for r in table]
        lines += [f"  {cbg.why(c)} ({c['gate']})" for c in g["cells"]
                  if c["kind"] == "behaviour" and c["gate"] != cbg.OPEN]
    return [line[:width] for line in lines]


def status_line(overall: dict) -> str:
    """The line a pull-request check shows: 'gate: 1 (regression): CPU per request x1.16 ...'."""
    return f"gate: {overall['status']} ({overall['word']}): {overall['because']}"


def foresee_lines(predictions: list, reference: str, holds_for: dict, cpu_model: str | None = None) -> list:
    """Before measuring: per gated figure the change the run could detect at the reference's spread, and whether that
    resolves its threshold or how many pairs would; a warning when the reference ran on another CPU model than
    `cpu_model`, this host's."""
    if not predictions:
        return ["foresee: nothing gated (every threshold open)"]
    p0 = predictions[0]
    lines = [f"foresee: {p0['pairs']} pairs, {p0['figures']} figures together, at the spread of run {reference} "
             f"({holds_for['cores']} cores of {holds_for['cpuModel']}, JDK {holds_for['jdk']})"]
    if cpu_model and cpu_model != holds_for.get("cpuModel"):
        lines.append(f"foresee: this host is {cpu_model}, and no A/A run under results/ was made on it: the spread "
                     "here may differ several times over; an A/A run here (./bench upgrade CLIENT V V at the same "
                     "design) is a reference that holds")
    for p in predictions:
        name, limit = f"{p['shape']} {p['label']}" if p["shape"] else p["label"], cbg.limit_text(p)
        if p["detectable"] is None:
            why = "not in the reference run" if p["shape"] is None else "the reference has no interval for it"
            lines.append(f"  {name}: threshold {limit}; {why}: nothing foreseen")
            continue
        more = ("resolved" if p["resolves"] else f"unresolved; {p['pairsNeeded']} pairs would resolve it"
                if p["pairsNeeded"] else f"unresolved; more than {p['maxPairs']} pairs would be needed")
        lines.append(f"  {name}: could detect {cbu.detectable(p)}, threshold {limit}: {more}")
    return lines
