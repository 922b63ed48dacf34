"""A run folder cut down to what the report and README read, for committing as the reference run.

Summaries and the report whole; trial records gzipped, each holding its histograms merged per tag (no .hlog), but for
the ok-only latency and a knee search's (its probes' rates merged), which nothing here reads; results.json cut to the
scores; the raw JSON records without indentation; logs left out. COMPACTED says so; only running the profile again
regenerates them.
"""
from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

from analysis import load as cbl

NOTE = "COMPACTED"
LEFT_OUT = ("jmh.log", "startup.log", "report.log", "superseded", "jmh-result")
# What the analysis reads of a fork's histograms: latency from the intended start, service time, the pacer's lag.
TAGS = ("latency", "service", "lag")
# Raw records the analysis reads whole, rewritten without indentation: the same JSON, a third smaller.
UNINDENTED = ("behaviour.json", "startup.json")


def compact(src: Path, dst: Path) -> dict:
    """Writes the cut-down copy of run `src` into `dst` (which must not exist); returns bytes before and after."""
    run = cbl.load_run(src)
    if dst.exists():
        raise cbl.AnalysisError(f"{dst}: exists; compact writes a new folder")
    tmp = dst.with_name(dst.name + ".part")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for f in sorted(src.iterdir()):
        if f.name.startswith(LEFT_OUT) or f.suffix == ".hlog" or f.name == "results.json" or ".trial.json" in f.name:
            continue
        if f.is_dir():
            shutil.copytree(f, tmp / f.name)
        elif f.name in UNINDENTED:
            record = json.loads(f.read_text(encoding="utf-8"))
            (tmp / f.name).write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")
        else:
            shutil.copy2(f, tmp / f.name)
    for t in run.trials:
        record = dict(t.record)
        record["hlogMerged"] = True
        record["histograms"] = {} if cbl.kind(run, t.shape) == "capacity" else _merged(t)
        name = t.path.name if t.path.suffix == ".gz" else t.path.name + ".gz"
        (tmp / name).write_bytes(gzip.compress(json.dumps(record, separators=(",", ":")).encode("utf-8"), mtime=0))
    results = json.loads((src / "results.json").read_text(encoding="utf-8"))
    slim = [{"benchmark": r["benchmark"], "params": r["params"], "forks": r.get("forks"),
             "primaryMetric": {"score": r["primaryMetric"]["score"], "scoreUnit": r["primaryMetric"]["scoreUnit"]}}
            for r in results]
    (tmp / "results.json").write_text(json.dumps(slim, indent=1) + "\n", encoding="utf-8")
    (tmp / NOTE).write_text(
        f"Cut down from {src.name} by analysis/compact.py: each fork's histograms merged (one per tag, "
        f"in its trial record, no .hlog; tags {', '.join(TAGS)}: the ok-only latency left out, and a knee search's, "
        "whose probes ran at many rates), trial records gzipped, "
        f"{' and '.join(UNINDENTED)} without indentation, results.json reduced to each result's benchmark, "
        "parameters and primary score, and jmh.log, startup.log, report.log and superseded/ left out. The figures "
        "come from running the profile again.\n",
        encoding="utf-8")
    tmp.rename(dst)
    return {"before": _size(src), "after": _size(dst)}


def _merged(t: cbl.Trial) -> dict:
    """Per tag, the fork's measured windows' histograms added into one, encoded as in an .hlog."""
    return {tag: cbl.merged(hs).encode().decode("ascii") for tag in TAGS if (hs := t.intervals(tag))}


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
