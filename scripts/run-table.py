#!/usr/bin/env python3
"""One row per run: how it was made and what it decided at the common rate, for comparing runs of one host.

    .venv/bin/python scripts/run-table.py RUN_DIR [RUN_DIR ...]

Each row: the command line and the nice it ran at, the minutes from the run's start to its records (build and
report not included: the launcher's own line in the log gives the whole), other processes' and the hypervisor's share
of the CPU over the run, the harness floor (noop's latency p50 and p99), the pooled spread (sd of the log) and the
pairs told apart of each figure at the common rate, and how the forks' warm-ups ended. Every number is read from the
run's own files (env.json, summary.json's verdict, the trial records): nothing is judged here.
"""
import datetime as dt
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from analysis.decide import verdict as cbd  # noqa: E402
from analysis import load as cbl  # noqa: E402

FIGURES = ["cpu", "alloc", "syscalls", "p50", "p99"]


def row(path: Path) -> dict:
    run = cbl.load_run(path)
    env = run.env
    verdict = run.summary.get("verdict") or {}
    common = cbd.common_shape(verdict) if verdict else None
    shape = next((s for s in verdict.get("shapes", []) if s["shape"] == common), {"figures": []})
    figures = {f["figure"]: f for f in shape["figures"]}
    cond = env.get("conditions") or {}
    host = cond.get("host") or {}
    started, finished = (dt.datetime.fromisoformat(env[k].replace("Z", "+00:00")) for k in ("started", "finished"))
    warmups = [t.record.get("warmup") or {} for t in run.trials if t.shape == common]
    floor = {k: (figures.get(k, {}).get("harnessFloor") or {}).get("value") for k in ("p50", "p99")}
    return {
        "run": path.name,
        "command": cond.get("commandLine", "-"),
        "nice": (cond.get("priority") or {}).get("forkNice", "-"),
        "minutes": round((finished - started).total_seconds() / 60, 1),
        "other": _pct(host.get("otherCpuShare")), "steal": _pct(host.get("stealShare")),
        "floor p50/p99 us": f"{_n(floor['p50'])}/{_n(floor['p99'])}",
        **{f"{k} apart (sd)": (f"{figures[k]['pairs']['separated']}/{figures[k]['pairs']['of']} ({figures[k]['sd']})"
                               if k in figures else "-") for k in FIGURES},
        "unsteady": sum(1 for w in warmups if w.get("steady") is False),
        "settle s (median)": _n(statistics.median(w["seconds"] for w in warmups if "seconds" in w)) if warmups else "-",
    }


def _pct(x) -> str:
    return "-" if x is None else f"{x:.1%}"


def _n(x) -> str:
    return "-" if x is None else f"{x:.3g}"


def main(args: list) -> int:
    if not args:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    rows = [row(Path(a)) for a in args]
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for r in rows:
        print("| " + " | ".join(str(r[k]) for k in keys) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
