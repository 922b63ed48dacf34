"""Reads clientbench runs (results/<run>/) into tidy pandas frames and draws conclusions from them.

Every figure comes from the files: JMH's results.json (rates with JMH's error, exact totals, percentiles
that the harness already merged from HdrHistograms), the .hlog interval logs (merged here again for
the full percentile spectrum), and env.json (machine, JDK, client versions and settings, the shapes).
Nothing is typed in: a verdict names a winner only when the data says so.

Used by analysis.ipynb; `python clientbench_analysis.py check RUN_DIR` validates a folder.
"""
from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

SUSTAINED_SHARE = 0.99  # ok/s must reach 99% of the offered rate
PERCENTILES = [50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100]
FAILURE_CLASSES = ["status", "timeout", "connect", "reset", "rejected", "other"]


class AnalysisError(Exception):
    """A problem with the input, stated in one line that names the file."""


@dataclass
class Run:
    name: str
    path: Path
    env: dict
    results: list
    frame: pd.DataFrame = field(repr=False)
    hlogs: list = field(repr=False)


# ---------------------------------------------------------------- loading

def _read_json(path: Path):
    if not path.is_file():
        raise AnalysisError(f"{path}: missing; not a clientbench run folder (run ./bench first)")
    text = path.read_text(encoding="utf-8")
    if not text.strip():
        raise AnalysisError(f"{path}: empty file")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise AnalysisError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None


def load_run(path) -> Run:
    """One run folder. Raises AnalysisError, naming the file, for anything missing or malformed."""
    path = Path(path)
    if not path.is_dir():
        raise AnalysisError(f"{path}: no such run folder")
    if (path / "INCOMPLETE").exists():
        reason = (path / "INCOMPLETE").read_text(encoding="utf-8").strip()
        raise AnalysisError(f"{path}: marked incomplete ({reason})")
    results = _read_json(path / "results.json")
    if not isinstance(results, list) or not results:
        raise AnalysisError(f"{path / 'results.json'}: holds no benchmark results")
    for i, r in enumerate(results):
        for key in ("benchmark", "params", "primaryMetric", "secondaryMetrics"):
            if not isinstance(r, dict) or key not in r:
                raise AnalysisError(f"{path / 'results.json'}: entry {i} is not a JMH result (no '{key}')")
    env = _read_json(path / "env.json")
    if not isinstance(env, dict) or "runs" not in env:
        raise AnalysisError(f"{path / 'env.json'}: has no 'runs' list; not written by ./bench")
    frame = tidy(path.name, results, env)
    hlogs = [(p, _hlog_params(p)) for p in sorted(path.glob("*.hlog"))]
    return Run(path.name, path, env, results, frame, hlogs)


def newest_run(results_dir="results") -> Path:
    runs = [p for p in Path(results_dir).iterdir()
            if p.is_dir() and not p.name.endswith(".incomplete") and (p / "results.json").is_file()]
    if not runs:
        raise AnalysisError(f"{results_dir}: no finished run; run ./bench first")
    return max(runs, key=lambda p: p.name)


def _shape_of(entry: dict, env: dict) -> str:
    params = entry["params"]
    bench = entry["benchmark"]
    for run in env.get("runs", []):
        if run.get("benchmark") == bench and run.get("params") == params:
            return run["shape"]
    return bench.split(".")[-2] + "-" + params.get("rate", params.get("concurrency", ""))


def tidy(run_name: str, results: list, env: dict) -> pd.DataFrame:
    """One row per (run, shape, client, metric): score, error and unit, plus the shape's parameters."""
    rows = []
    for entry in results:
        params = entry["params"]
        base = {
            "run": run_name,
            "shape": _shape_of(entry, env),
            "client": params.get("client"),
            "benchmark": entry["benchmark"].split(".")[-2],
            "model": "open" if "OpenLoop" in entry["benchmark"] else "closed",
            "rate": float(params["rate"]) if "rate" in params else math.nan,
            "delayMs": int(params.get("delayMs", 0)),
            "bytes": int(params.get("bytes", 5)),
            "requestBytes": int(params.get("requestBytes", 0)),
            "concurrency": int(params.get("concurrency", 0)),
            "forks": entry.get("forks"),
        }
        metrics = {"primary": entry["primaryMetric"], **entry["secondaryMetrics"]}
        for name, m in metrics.items():
            err = m.get("scoreError")
            rows.append({**base, "metric": name, "score": _num(m.get("score")),
                         "error": _num(err), "unit": m.get("scoreUnit")})
    return pd.DataFrame(rows)


def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def wide(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (run, shape, client); a column per metric and an `err:` column per metric."""
    keys = ["run", "shape", "client", "benchmark", "model", "rate", "delayMs", "bytes", "requestBytes", "concurrency"]
    f = frame.assign(rate=frame["rate"].fillna(-1.0))  # closed loops have no rate; NaN keys would vanish
    indexed = f.set_index(keys + ["metric"])
    scores = indexed["score"].unstack("metric")
    errors = indexed["error"].unstack("metric")
    errors.columns = ["err:" + c for c in errors.columns]
    w = scores.join(errors).reset_index()
    w.columns.name = None
    w["rate"] = w["rate"].where(w["rate"] >= 0)
    fail_cols = [f"n.fail.{c}" for c in FAILURE_CLASSES if f"n.fail.{c}" in w]
    w["n.failed"] = w[fail_cols].sum(axis=1) if fail_cols else 0.0
    w["failure.share"] = w["n.failed"] / w["n.sent"].where(w["n.sent"] > 0)
    w["achieved.share"] = w["ok"] / w["rate"]
    w["latency.metric"] = w["model"].map({"open": "latency", "closed": "service"})
    for p in ("p50", "p90", "p99", "p999", "max"):
        w[f"lat.{p}"] = [row.get(f"{row['latency.metric']}.{p}", math.nan) for _, row in w.iterrows()]
    return w


# ---------------------------------------------------------------- histograms

_HLOG_NAME = re.compile(r"^(?P<bench>[^-]+)-(?P<params>.*)-(?P<pid>\d+)\.hlog$")


def _hlog_params(path: Path) -> dict:
    m = _HLOG_NAME.match(path.name)
    if not m:
        return {}
    out = {"benchmark": m.group("bench")}
    for kv in m.group("params").split(","):
        if "=" in kv:
            k, v = kv.split("=", 1)
            out[k] = v
    return out


def _sanitize(v: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", str(v))


def merged_histogram(run: Run, shape: str, client: str, tag: str = "latency"):
    """The HdrHistogram of every measured interval of every fork of (shape, client), merged."""
    from hdrh.histogram import HdrHistogram

    wanted = [r for r in run.env["runs"] if r["shape"] == shape and r["client"] == client]
    if not wanted:
        return None
    params = {k: _sanitize(v) for k, v in wanted[0]["params"].items()}
    bench = wanted[0]["benchmark"].split(".")[-2] + "." + wanted[0]["benchmark"].split(".")[-1]
    merged = None
    for path, p in run.hlogs:
        if p.get("benchmark") != bench or any(p.get(k) != v for k, v in params.items()):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith(f"Tag={tag},"):
                continue
            try:
                h = HdrHistogram.decode(line.rsplit(",", 1)[1])
            except Exception as e:  # the codec raises several types
                raise AnalysisError(f"{path}: unreadable interval histogram ({e})") from None
            if merged is None:
                merged = h
            else:
                merged.add(h)
    return merged


def spectrum(h, percentiles=PERCENTILES) -> pd.DataFrame:
    """Percentile -> value in microseconds, from one (merged) histogram."""
    if h is None or h.get_total_count() == 0:
        return pd.DataFrame(columns=["percentile", "us"])
    return pd.DataFrame({"percentile": percentiles,
                         "us": [h.get_max_value() if p >= 100 else h.get_value_at_percentile(p) for p in percentiles]})


# ---------------------------------------------------------------- conclusions

def is_sweep(shape: str) -> bool:
    return shape.startswith("immediate-")


def is_long_lived(shape: str) -> bool:
    return shape.startswith("longlived-")


def long_lived(w: pd.DataFrame, max_failure_share: float, crashed: list | None = None) -> pd.DataFrame:
    """Per (run, client): the most concurrent long requests held (all in flight when the window closed,
    within the failure budget), and what each cost in heap and threads there; how the next level failed.
    `crashed` is env.json's list of runs that produced no result ("shape/client: reason")."""
    ll = w[w["shape"].map(is_long_lived)]
    crashes = {}
    for entry in crashed or []:
        where, _, why = entry.partition(": ")
        shape, _, client = where.partition("/")
        if is_long_lived(shape):
            crashes.setdefault(client, f"at {shape.split('-', 1)[1]}: {why}")
    rows = []
    for (run, client), g in ll.sort_values("concurrency").groupby(["run", "client"], sort=False):
        held = g[(g.get("inflight.end", 0) >= SUSTAINED_SHARE * g["concurrency"])
                 & (g["failure.share"].fillna(0) <= max_failure_share)]
        best = held.iloc[-1] if not held.empty else None
        failed = g[~g.index.isin(held.index)]
        how = ""
        if not failed.empty:
            f = failed.iloc[0]
            classes = {c: f.get(f"n.fail.{c}", 0) for c in FAILURE_CLASSES if f.get(f"n.fail.{c}", 0) > 0}
            how = (f"at {f['concurrency']}: {f.get('inflight.end', math.nan):.0f} in flight, "
                   + (", ".join(f"{v:.0f} {k}" for k, v in classes.items()) or "no failure reported"))
        if not how and client in crashes:
            how = crashes[client]
        rows.append({"run": run, "client": client,
                     "held": best["concurrency"] if best is not None else 0,
                     "heap.per.inflight.B": best.get("heap.per.inflight", math.nan) if best is not None else math.nan,
                     "threads.per.inflight": best.get("threads.per.inflight", math.nan) if best is not None else math.nan,
                     "failed": how})
    listed = {(r["run"], r["client"]) for r in rows}
    runs = list(ll["run"].unique()) or list(w["run"].unique())
    for client, how in crashes.items():  # crashed at every level it was given: no numbers at all
        for run in runs:
            if (run, client) not in listed:
                rows.append({"run": run, "client": client, "held": 0, "heap.per.inflight.B": math.nan,
                             "threads.per.inflight": math.nan, "failed": how})
    return pd.DataFrame(rows, columns=["run", "client", "held", "heap.per.inflight.B", "threads.per.inflight", "failed"])


def sustainable(w: pd.DataFrame, slo_p99_ms: float, max_failure_share: float) -> pd.DataFrame:
    """Per (run, client): the highest offered rate of the immediate-response sweep that was met
    (ok/s >= 99% of it), within the failure budget, with latency p99 (from the intended start) <= SLO."""
    sweep = w[w["shape"].map(is_sweep)].copy()
    sweep["meets"] = ((sweep["achieved.share"] >= SUSTAINED_SHARE)
                      & (sweep["failure.share"].fillna(1) <= max_failure_share)
                      & (sweep["latency.p99"] <= slo_p99_ms * 1000))
    rows = []
    for (run, client), g in sweep.groupby(["run", "client"], sort=False):
        met = g[g["meets"]]
        best = met.loc[met["rate"].idxmax()] if not met.empty else None
        rows.append({"run": run, "client": client,
                     "max.rate": best["rate"] if best is not None else 0.0,
                     "p99.us": best["latency.p99"] if best is not None else math.nan,
                     "alloc.B": best.get("gc.alloc.rate.norm", math.nan) if best is not None else math.nan,
                     "cpu.us": best.get("cpu.per.req", math.nan) if best is not None else math.nan,
                     "offered.max": g["rate"].max()})
    return pd.DataFrame(rows)


def _fmt_us(us: float) -> str:
    if us is None or (isinstance(us, float) and math.isnan(us)):
        return "n/a"
    return f"{us / 1000:.1f} ms" if us >= 1000 else f"{us:.0f} us"


def _fmt_bytes(b: float) -> str:
    if b is None or (isinstance(b, float) and math.isnan(b)):
        return "n/a"
    return f"{b / 1024:.1f} KiB" if b >= 1024 else f"{b:.0f} B"


TIE_MARGIN = 0.10  # leads smaller than this are reported as ties: one quick run cannot separate them


def _lead(better: float, worse: float, noun: str, other: str) -> str:
    """'2.3x lower than X', or a percentage flagged as a tie when the lead is under TIE_MARGIN."""
    if better <= 0 or worse <= 0 or pd.isna(better) or pd.isna(worse):
        return ""
    ratio = max(better, worse) / min(better, worse)
    if ratio >= 1 + TIE_MARGIN:
        return f", {ratio:.1f}x {noun} than {other}"
    return f", {100 * (ratio - 1):.0f}% {noun} than {other} (under {TIE_MARGIN:.0%}: a tie)"


def verdicts(w: pd.DataFrame, slo_p99_ms: float, max_failure_share: float, crashed: list | None = None) -> list[str]:
    """One plain-language sentence per shape (and one for the sweep), computed from the data.
    `crashed`: env.json's runs that produced no result, which count against their client."""
    out = []
    for run in w["run"].unique():
        rw = w[w["run"] == run]
        s = sustainable(rw, slo_p99_ms, max_failure_share).sort_values(["max.rate", "p99.us"], ascending=[False, True])
        if not s.empty:
            if s.iloc[0]["max.rate"] <= 0:
                out.append(f"Immediate responses: no client met the offered rate with p99 <= {slo_p99_ms:g} ms "
                           f"and <= {max_failure_share:.1%} failures.")
            else:
                top = s.iloc[0]
                runner = s.iloc[1] if len(s) > 1 else None
                tied = runner is not None and runner["max.rate"] == top["max.rate"]
                if runner is None:
                    margin = ""
                elif tied:
                    margin = (f", tied on rate with {runner['client']}; p99 {_fmt_us(top['p99.us'])} vs "
                              f"{_fmt_us(runner['p99.us'])}" + _lead(top["p99.us"], runner["p99.us"], "lower", runner["client"]))
                elif runner["max.rate"] > 0:
                    margin = (f", {top['max.rate'] / runner['max.rate']:.1f}x the runner-up {runner['client']} "
                              f"({runner['max.rate']:.0f} req/s)")
                else:
                    margin = ", and no other client sustained any offered rate"
                out.append(f"Immediate responses: {top['client']} wins, sustaining {top['max.rate']:.0f} req/s "
                           f"(of {top['offered.max']:.0f} offered) with p99 {_fmt_us(top['p99.us'])}{margin}; "
                           f"cost {_fmt_bytes(top['alloc.B'])} allocated per request.")
        held = long_lived(rw, max_failure_share, crashed)
        if not held.empty:
            held = held.sort_values(["held", "heap.per.inflight.B"], ascending=[False, True])
            top = held.iloc[0]
            if top["held"] <= 0:
                out.append("Long-lived requests: no client held even the smallest level.")
            else:
                out.append(f"Long-lived requests: {top['client']} wins, holding {top['held']:.0f} concurrent requests "
                           f"at {_fmt_bytes(top['heap.per.inflight.B'])} of heap and "
                           f"{top['threads.per.inflight']:.3f} threads each"
                           + (f"; it failed {top['failed']}" if top["failed"] else "") + ".")
        for shape in [x for x in rw["shape"].unique() if not is_sweep(x) and not is_long_lived(x)]:
            g = rw[rw["shape"] == shape]
            if (g["model"] == "closed").all():
                g = g.sort_values("ok", ascending=False)
                top = g.iloc[0]
                margin = _lead(top["ok"], g.iloc[1]["ok"], "higher", g.iloc[1]["client"]) if len(g) > 1 else ""
                out.append(f"{shape} (closed loop, throughput): {top['client']} wins with {top['ok']:.0f} ok/s{margin}; "
                           f"service time p99 {_fmt_us(top['lat.p99'])}, {_fmt_bytes(top.get('gc.alloc.rate.norm', math.nan))}/request.")
                continue
            ok = g[(g["achieved.share"] >= SUSTAINED_SHARE) & (g["failure.share"].fillna(1) <= max_failure_share)]
            if ok.empty:
                out.append(f"{shape}: no client met the offered rate within the failure budget.")
                continue
            ok = ok.sort_values("latency.p99")
            top = ok.iloc[0]
            margin = _lead(top["latency.p99"], ok.iloc[1]["latency.p99"], "lower", ok.iloc[1]["client"]) if len(ok) > 1 else ""
            rest = len(g) - len(ok)
            out.append(f"{shape}: {top['client']} wins with latency p99 {_fmt_us(top['latency.p99'])}{margin}; "
                       f"cost {_fmt_bytes(top.get('gc.alloc.rate.norm', math.nan))}/request, "
                       f"{top.get('threads.max', math.nan):.0f} threads"
                       + (f"; {rest} client(s) missed the rate or the failure budget." if rest else "."))
    return out


def compare(a: pd.DataFrame, b: pd.DataFrame, min_change: float = 0.10) -> pd.DataFrame:
    """Significant changes from run a to run b, per (shape, client, metric). A rate is significant when
    the 99.9% intervals do not overlap; a percentile or allocation, when it moved by more than min_change."""
    keys = ["shape", "client"]
    metrics = ["ok", "latency.p99", "lat.p99", "gc.alloc.rate.norm", "cpu.per.req"]
    j = a.merge(b, on=keys, suffixes=(".a", ".b"))
    rows = []
    for _, r in j.iterrows():
        for m in metrics:
            va, vb = r.get(f"{m}.a", math.nan), r.get(f"{m}.b", math.nan)
            if pd.isna(va) or pd.isna(vb) or va == 0:
                continue
            ea, eb = r.get(f"err:{m}.a", math.nan), r.get(f"err:{m}.b", math.nan)
            if not pd.isna(ea) and not pd.isna(eb):
                significant = abs(vb - va) > ea + eb
            else:
                significant = abs(vb - va) / abs(va) > min_change
            if significant:
                rows.append({"shape": r["shape"], "client": r["client"], "metric": m, "a": va, "b": vb,
                             "change": (vb - va) / abs(va)})
    return pd.DataFrame(rows, columns=["shape", "client", "metric", "a", "b", "change"])


USAGE = "usage: clientbench_analysis.py check RUN_DIR | compare RUN_A RUN_B"


def main(argv):
    """`check RUN_DIR`: one line on the folder, or why it cannot be read. `compare A B`: the significant
    changes from run A to run B as a table (what `./bench report --compare A B` prints)."""
    command = argv[1] if len(argv) > 1 else ""
    if (command, len(argv)) not in (("check", 3), ("compare", 4)):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        runs = [load_run(p) for p in argv[2:]]
    except AnalysisError as e:
        print(f"report: {e}", file=sys.stderr)
        return 1
    if command == "check":
        run = runs[0]
        print(f"report: {run.path}: {len(run.results)} results, {len(run.hlogs)} histogram logs")
        return 0
    a, b = runs
    changes = compare(wide(a.frame), wide(b.frame))
    print(f"{a.name} -> {b.name}: {len(changes)} significant changes (rates: 99.9% intervals apart; "
          f"percentiles, allocation, CPU: moved by more than 10%)")
    if not changes.empty:
        print(changes.round(3).to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
