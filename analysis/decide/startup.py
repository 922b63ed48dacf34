"""What each client costs before its first request, from a run folder's startup.json and footprint.json.

Java writes the facts: every start of every client in the order it ran (a failed start with its reason, never
dropped), and each client's own dependencies. This module forms the medians and their intervals, net of noop
(the harness alone, started in the same rounds), and words them.

    python analysis/decide/startup.py RUN        the table: median and 95% interval per client and condition
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import pandas as pd
from scipy.stats import binom

if __package__ in (None, ""):  # run as a file: the package from the checkout, not this file's folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])

from analysis.load import NOOP, AnalysisError, _read_json, median

STARTUP = "startup.json"
FOOTPRINT = "footprint.json"
CONFIDENCE = 0.95
# (column after json_normalize of a start, heading, divisor to the unit): the cold start, then the JVM at rest.
COLD = [("startToFirstResponseMs", "first response ms", 1), ("buildMs", "build ms", 1),
        ("classesLoaded", "classes", 1)]
AT_REST = [("afterFirst.threads", "threads", 1), ("afterFirst.heapUsedBytes", "heap MB", 1e6),
           ("afterFirst.rssBytes", "RSS MB", 1e6), ("afterRequests.threads", "threads", 1),
           ("afterRequests.heapUsedBytes", "heap MB", 1e6), ("afterRequests.rssBytes", "RSS MB", 1e6)]
FIGURES = COLD + AT_REST


def median_interval(values, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """The median of `values` and a distribution-free interval for it, (median, low, high); nan values are left out.

    [x(k), x(n+1-k)], k the largest rank with P(Binomial(n, 1/2) < k) <= (1 - confidence) / 2, holds for any
    distribution; a bootstrap of few skewed starts would cover less than it claims. Under 6 values at 95%: nan bounds.
    """
    x = sorted(float(v) for v in values if v is not None and not math.isnan(float(v)))
    n = len(x)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = median(x)
    tail = (1 - confidence) / 2
    k = 0
    while k + 1 <= (n + 1) // 2 and binom.cdf(k, n, 0.5) <= tail:  # rank k+1 still leaves <= tail outside
        k += 1
    if k == 0:
        return m, math.nan, math.nan
    return m, x[k - 1], x[n - k]


def starts(run_dir) -> pd.DataFrame:
    """One row per start: client, round, order, cds, cdsArchiveUsed, ok, failure and every figure (json_normalize's
    dotted names for the JVM at rest: afterFirst.rssBytes)."""
    path = Path(run_dir) / STARTUP
    if not path.is_file():
        raise AnalysisError(f"{path}: missing; not a folder of ./bench startup")
    data = _read_json(path)
    rows = [dict(client=client, **start) for client, recorded in data["clients"].items() for start in recorded]
    frame = pd.json_normalize(rows) if rows else pd.DataFrame(columns=["client", "round", "cds", "ok"])
    for column, _, _ in FIGURES:
        if column not in frame:
            frame[column] = math.nan
    # A start that sent nothing after its first request has no figure after them: its record repeats the JVM at rest.
    if "requests.asked" in frame:
        frame.loc[frame["requests.asked"] == 0, [c for c in frame.columns if c.startswith("afterRequests.")]] = math.nan
    return frame


def _measured(frame: pd.DataFrame) -> pd.DataFrame:
    """The starts a figure is taken from: the first request ok, and with cds the archive mapped."""
    with_archive = frame["cds"] & (frame.get("cdsArchiveUsed") == False)  # noqa: E712 (None: not asked)
    return frame[frame["ok"].astype(bool) & ~with_archive]


def startup_table(run_dir, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """One row per (client, cds): starts run and measured, and per figure its median and interval (`<figure>`, `.low`,
    `.high`), net of noop's start of the same round and condition, so a slow spell costs both alike. noop's row holds
    its raw figures, the baseline; footprint.json adds `artifacts` and `MB` when there is one."""
    frame = starts(run_dir)
    measured = _measured(frame)
    baseline = measured[measured["client"] == NOOP].set_index(["round", "cds"])
    footprint = _footprint(run_dir)
    rows = []
    order = {c: i for i, c in enumerate(frame["client"].unique())}  # the file's: the clients as given, noop last
    for (client, cds), group in sorted(frame.groupby(["client", "cds"]), key=lambda g: (order[g[0][0]], g[0][1])):
        ok = measured[(measured["client"] == client) & (measured["cds"] == cds)].set_index(["round", "cds"])
        row = {"client": client, "cds": bool(cds), "starts": len(group), "measured": len(ok),
               "failed": int((~group["ok"].astype(bool)).sum())}
        for column, _, scale in FIGURES:
            values = ok[column] if client == NOOP else (ok[column] - baseline[column]).dropna()
            m, low, high = median_interval(values / scale, confidence)
            row.update({column: m, f"{column}.low": low, f"{column}.high": high})
        row["artifacts"], row["MB"] = footprint.get(client, (math.nan, math.nan))
        rows.append(row)
    return pd.DataFrame(rows)


def footprint(run_dir) -> dict:
    """footprint.json's clients as written (each: artifacts, count, bytes, failure); empty without the file."""
    path = Path(run_dir) / FOOTPRINT
    return _read_json(path)["clients"] if path.is_file() else {}


def _footprint(run_dir) -> dict:
    """client -> (artifacts, MB) from footprint.json; empty without one; nan for a client whose list failed."""
    path = Path(run_dir) / FOOTPRINT
    if not path.is_file():
        return {}
    clients = _read_json(path)["clients"]
    return {c: (math.nan, math.nan) if f.get("failure") else (f["count"], f["bytes"] / 1e6) for c, f in clients.items()}


def _cell(row, column: str) -> str:
    m, low, high = row[column], row[f"{column}.low"], row[f"{column}.high"]
    if math.isnan(m):
        return "-"
    digits = 1 if column.endswith("Bytes") else 0
    return f"{m:.{digits}f}" if math.isnan(low) else f"{m:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def table_text(table: pd.DataFrame, confidence: float = CONFIDENCE) -> str:
    """The table as text: the cold start, then the JVM at rest after the first request and after the rest."""
    def block(title, figures, extra=()):
        headings = ["client", "cds", "ok/starts"] + [h for _, h, _ in figures] + [h for h, _ in extra]
        cells = [[r["client"], "yes" if r["cds"] else "no", f"{r['measured']}/{r['starts']}"]
                 + [_cell(r, c) for c, _, _ in figures] + [f(r) for _, f in extra]
                 for r in table.to_dict("records")]
        widths = [max(len(str(x)) for x in col) for col in zip(headings, *cells)]
        fmt = "  ".join(f"{{:<{w}}}" if i < 3 else f"{{:>{w}}}" for i, w in enumerate(widths))
        return "\n".join([title, fmt.format(*headings)] + [fmt.format(*c) for c in cells])

    footprint = [("artifacts", lambda r: "-" if math.isnan(r["artifacts"]) else f"{r['artifacts']:.0f}"),
                 ("MB", lambda r: "-" if math.isnan(r["MB"]) else f"{r['MB']:.1f}")]
    pct = f"{confidence:.0%}"
    return "\n\n".join([
        f"Before the first request: median [{pct} interval], net of noop (noop's row: its own)",
        block("Cold start, from just before the JVM's process started, and the client's own dependencies", COLD, footprint),
        block("The JVM at rest after the first request", AT_REST[:3]),
        block("The JVM at rest after the requests that followed the first", AT_REST[3:]),
        "An interval needs 6 or more measured starts; a start failed or with an archive the JVM did not map is left out.",
    ])


def main(argv) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    try:
        print(table_text(startup_table(argv[1])))
    except AnalysisError as e:
        print(f"startup: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
