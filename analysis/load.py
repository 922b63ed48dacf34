"""Reads a clientbench run (results/<run>/) into frames of facts; the bottom layer of the analysis.

Java writes the facts and judges every window and probe (summary.json, *.trial.json, *.hlog, env.json); this module
judges nothing: it groups, merges histograms and forms the per-fork figures the layers above compare, draw and render.
"""
from __future__ import annotations

import functools
import gzip
import json
import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
NOOP = "noop"  # the harness alone: every client's baseline, never ranked
FAILURE_CLASSES = ["status", "timeout", "connect", "reset", "rejected", "other"]


class AnalysisError(Exception):
    """A problem with the input, stated in one line that names the file."""


def _read_json(path: Path):
    if not path.is_file():
        raise AnalysisError(f"{path}: missing; not a clientbench run folder (run ./bench first)")
    text = (gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()).decode("utf-8")
    if not text.strip():
        raise AnalysisError(f"{path}: empty file")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise AnalysisError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None


# The bounds every judgment rests on, the one file Java reads too (harness.record.Thresholds).
THRESHOLDS = _read_json(ROOT / "src" / "main" / "resources" / "clientbench" / "thresholds.json")
JIT_WARMING = THRESHOLDS["jitWarmingShare"]
CONFIDENCE = THRESHOLDS["verdict"]["confidence"]


def percent(share: float) -> str:
    """'95%', '97.5%': a confidence as the verdict says it, a tenth shown where it has one."""
    return f"{share:.0%}" if round(share * 100, 6) == round(share * 100) else f"{share:.1%}"


def confidence(run, shape: str) -> float:
    """The family-wise confidence a shape's pairs are judged at: CONFIDENCE, split evenly over the looks where the run
    went on until decided on this shape (env.json's untilDecided), as a look that stops on a chance difference would
    add false pairs; the shapes that no look stopped keep CONFIDENCE whole."""
    until = run.env.get("untilDecided") or {}
    looks = (until.get("looks") or 1) if until.get("shape") == shape else 1
    return 1 - (1 - CONFIDENCE) / looks


@dataclass
class Trial:
    """One fork of one shape and client, in one round: its record and its interval log."""
    path: Path
    record: dict
    _intervals: dict = field(default_factory=dict, repr=False)

    @property
    def client(self) -> str:
        return self.record["client"]

    @property
    def shape(self) -> str:
        return self.record["shape"]

    @property
    def round(self) -> int:
        return int(self.record.get("round", 1))

    @property
    def iterations(self) -> list:
        return self.record["iterations"]

    @property
    def measured(self) -> list:
        return [it for it in self.iterations if it["measured"]]

    @property
    def started(self) -> int:
        return self.iterations[0]["windowStartEpochMillis"] if self.iterations else 0

    def intervals(self, tag: str) -> list:
        """The .hlog's histograms of `tag`, in order: the i-th is the i-th measured iteration's (one, merged, in a
        compacted run's)."""
        if tag not in self._intervals:
            from hdrh.histogram import HdrHistogram

            hlog = self.path.parent / self.record["hlog"]
            merged = self.record.get("histograms")  # a compacted run: one per tag, in the record (analysis.compact)
            if merged is not None:
                where, encoded = self.path, [merged[tag]] if tag in merged else []
            else:
                where, encoded = hlog, [line.rsplit(",", 1)[1] for line in hlog.read_text(encoding="utf-8").splitlines()
                                        if line.startswith(f"Tag={tag},")]
            out = []
            for e in encoded:
                try:
                    out.append(HdrHistogram.decode(e))
                except Exception as err:  # the codec raises several types
                    raise AnalysisError(f"{where}: unreadable interval histogram ({err})") from None
            if self.record.get("hlogMerged"):  # the measured windows merged
                self._intervals[tag] = out
                return out
            if out and len(out) != len(self.measured):
                raise AnalysisError(f"{hlog}: {len(out)} '{tag}' intervals for {len(self.measured)} measured "
                                    f"iterations in {self.path.name}")
            self._intervals[tag] = out
        return self._intervals[tag]


@dataclass
class Run:
    name: str
    path: Path
    env: dict
    summary: dict
    trials: list = field(repr=False)
    _memo: dict = field(default_factory=dict, repr=False)

    def trials_of(self, shape: str, client: str) -> list:
        return [t for t in self.trials if t.shape == shape and t.client == client]

    def rounds_of(self, shape: str) -> int:
        """How many rounds `shape` ran: its forks' rounds where the run keeps them (a run given --until-decided may
        stop before the rounds it planned), else the rounds planned (a run kept for its verdict alone)."""
        ran = {t.round for t in self.trials if t.shape == shape}
        return len(ran) if ran else int(self.shape(shape).get("rounds", 1))

    @property
    def slo(self) -> dict:
        return self.summary["definitions"]["slo"]

    @property
    def clients(self) -> list:
        """The clients compared, in the order asked for; noop (the baseline) is not one of them."""
        return [c for c in self.env.get("clients", []) if c != NOOP]

    @property
    def shapes(self) -> list:
        return [s["name"] for s in self.env.get("shapes", [])]

    def shape(self, name: str) -> dict:
        return next((s for s in self.env.get("shapes", []) if s["name"] == name), {})

    def shape_params(self, name: str) -> dict:
        return self.shape(name).get("params", {})

    @property
    def first_look(self) -> bool:
        return "not for decisions" in self.env.get("purpose", "")

    @property
    def machine(self) -> str:
        """'2 cores of AMD EPYC, JDK 25.0.3': what a ranking holds for."""
        m, jdk = self.env.get("machine", {}), self.env.get("launcherJdk", {})
        return f"{m.get('cpuCount', '?')} cores of {m.get('cpuModel', '?')}, JDK {jdk.get('version', '?')}"


def load_run(path, running: bool = False) -> Run:
    """One run folder. Raises AnalysisError, naming the file, for anything missing or malformed. `running`: a folder
    still being written (its records as of the last round), which a run reads to decide whether to go on."""
    path = Path(path)
    if not path.is_dir():
        raise AnalysisError(f"{path}: no such run folder")
    if (path / "INCOMPLETE").exists() and not running:
        reason = (path / "INCOMPLETE").read_text(encoding="utf-8").strip()
        raise AnalysisError(f"{path}: marked incomplete ({reason})")
    results = _read_json(path / "results.json")
    if not isinstance(results, list) or not results:
        raise AnalysisError(f"{path / 'results.json'}: holds no benchmark results")
    for i, r in enumerate(results):
        for key in ("benchmark", "params", "primaryMetric"):
            if not isinstance(r, dict) or key not in r:
                raise AnalysisError(f"{path / 'results.json'}: entry {i} is not a JMH result (no '{key}')")
    env = _read_json(path / "env.json")
    if not isinstance(env, dict) or "runs" not in env or "rounds" not in env:
        raise AnalysisError(f"{path / 'env.json'}: has no 'runs' or 'rounds'; not written by this version of ./bench")
    summary = _read_json(path / "summary.json")
    for key in ("definitions", "runs", "capacity"):
        if not isinstance(summary, dict) or key not in summary:
            raise AnalysisError(f"{path / 'summary.json'}: has no '{key}'; not written by this version of ./bench")
    trials = []
    for p in sorted([*path.glob("*.trial.json"), *path.glob("*.trial.json.gz")]):  # .gz: a compacted run
        record = _read_json(p)
        for key in ("client", "shape", "hlog", "iterations"):
            if key not in record:
                raise AnalysisError(f"{p}: has no '{key}'; not a trial record")
        if "histograms" not in record and not (path / record["hlog"]).is_file():
            raise AnalysisError(f"{path / record['hlog']}: missing (named by {p.name})")
        trials.append(Trial(p, record))
    trials.sort(key=lambda t: t.started)
    return Run(path.name, path, env, summary, trials)


def load_verdict(path) -> Run:
    """A run kept for its verdict alone (summary.json and env.json, as committed beside the reference run to show how
    two runs agree): enough to compare verdicts, nothing to draw."""
    path = Path(path)
    env, summary = _read_json(path / "env.json"), _read_json(path / "summary.json")
    if not isinstance(summary, dict) or "verdict" not in summary:
        raise AnalysisError(f"{path / 'summary.json'}: has no 'verdict'; decide the run first (./bench report)")
    return Run(path.name, path, env, summary, [])


def newest_run(results_dir="results") -> Path:
    runs = [p for p in Path(results_dir).iterdir()
            if p.is_dir() and not p.name.endswith(".incomplete") and (p / "summary.json").is_file()]
    if not runs:
        raise AnalysisError(f"{results_dir}: no finished run; run ./bench first")
    return max(runs, key=lambda p: p.name)


def per_run(fn):
    """Computed once per run and arguments (the frames are read, never changed, by their callers)."""
    @functools.wraps(fn)
    def once(run, *args):
        key = (fn.__name__, *args)
        if key not in run._memo:
            run._memo[key] = fn(run, *args)
        return run._memo[key]
    return once


def num(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def recorded(v) -> float:
    """A probe as recorded: NaN when unknown (-1 in a trial's record, null in summary.json)."""
    x = num(v)
    return x if x >= 0 else math.nan


# ---------------------------------------------------------------- per fork: what the verdict compares

@per_run
def forks(run: Run) -> pd.DataFrame:
    """One row per fork (shape, client, round), its measured windows together: CPU, allocation, syscalls, context
    switches per request sent (totals over totals) and how the CPU was taken (`cpu.clock`, its worst window's); ok/s;
    latency p50, p99 from merged histograms, each with the width of its histogram bucket; its windows' top JIT share,
    median steal and every flag; whether its warm-up settled (`steady`: the trial's `warmup.steady`, true where the
    record predates it); for a knee search the knee, bracket and status as the search recorded them."""
    rows = []
    for t in run.trials:
        its = t.measured
        if not its:
            continue
        h = merged(t.intervals(_tag(its))) if t.intervals(_tag(its)) else None
        rows.append(_row(t, its, h, _counted(t.iterations), t.round, t.started))
    return pd.DataFrame(rows, columns=_COLUMNS)


_COLUMNS = ["shape", "client", "round", "started", "sent", "ok/s", "cpu", "cpu.clock", "cpu.compilers", "alloc",
            "syscalls", "cswitches", "p50", "p99", "p50.width", "p99.width", "jit", "steal", "flags", "windows", "kernel",
            "steady", "knee", "knee.high", "knee.status", "knee.flags"]


def _tag(its: list) -> str:
    """The histogram a fork's latency is read from: from the intended start (open model), else service time."""
    return "latency" if "latencyMicros" in its[0] else "service"


def _row(t: Trial, its: list, h, counted: list, round_: int, started: int, window=None) -> dict:
    """One row of `forks` or `blocks`: the windows `its` together (totals over totals); latency from `h`, their
    histograms merged, or where there is none from `window`'s record (a compacted run keeps no window's histogram);
    system calls from the `counted` windows."""
    sent = sum(it["sent"] for it in its)
    seconds = sum(it["windowNanos"] for it in its) / 1e9
    last = its[-1]
    if h is not None:
        p50, p99 = (h.get_value_at_percentile(q) if h.get_total_count() else math.nan for q in (50, 99))
    elif window is not None:
        lat = window.get("latencyMicros") or window.get("serviceMicros") or {}
        p50, p99 = (num(lat.get(f"p{q}")) for q in (50, 99))
        h = _reference_histogram()
    else:
        p50 = p99 = math.nan
    return {
        "shape": t.shape, "client": t.client, "round": round_, "started": started,
        "sent": sent, "ok/s": sum(it["ok"] for it in its) / seconds if seconds else math.nan,
        "cpu": _per(sum(cpu_ns(it, t.record) for it in its) / 1e3, sent, its, "cpuNanosInWindow"),
        "cpu.clock": _cpu_clock(t.record, its),
        "cpu.compilers": "in" if any(math.isnan(compilers_ns(it, t.record)) for it in its) else "out",
        "alloc": _per(sum(it["allocatedBytesInWindow"] for it in its), sent, its, "allocatedBytesInWindow"),
        "syscalls": _kernel(counted, "syscalls"), "cswitches": _kernel(counted, "contextSwitches"),
        "p50": p50, "p99": p99, "p50.width": _bucket(h, p50), "p99.width": _bucket(h, p99),
        "jit": max((recorded(it["probes"].get("jitShare")) for it in its), default=math.nan),
        "steal": median([recorded(it["probes"].get("stealShare")) for it in its]),
        "flags": tuple(sorted({f.removeprefix("flag.") for it in its for f in it.get("flags", [])})),
        "windows": len(its), "kernel": bool(counted),
        # false only where the warm-up ran to its bound; null (not judged) and older records count as steady
        "steady": (t.record.get("warmup") or {}).get("steady") is not False,
        "knee": num(last.get("knee")), "knee.high": num(last.get("knee.high")),
        "knee.status": last.get("knee.status", ""),
        "knee.flags": tuple(last.get("knee.flagsAtBound", [])),
    }


@per_run
def blocks(run: Run) -> pd.DataFrame:
    """As `forks`, but a fork of an interleaved set gives one row per measured window, its `round` set * 1000 + block:
    every block holds one window of each client (noop's too), so the host's effect is the block's, and costs are net of
    noop's window in the same block. Per window: its own latency histogram, and the system calls the kernel counted in
    the turn's resume window just before it. Forks run alone keep their one row."""
    whole = forks(run)
    rows = []
    for t in run.trials:
        its = t.measured
        if not t.record.get("interleaved") or not its:
            continue
        hs = t.intervals(_tag(its))
        hs = hs if len(hs) == len(its) else [None] * len(its)  # a compacted run keeps one, merged
        before = {id(b): a for a, b in zip(t.iterations, t.iterations[1:])}
        for it, h in zip(its, hs):
            resumed = before.get(id(it))
            counted = _counted([resumed]) if resumed is not None and resumed.get("resume") else []
            rows.append(_row(t, [it], h, counted, t.round * 1000 + int(it.get("block") or 0),
                             it["windowStartEpochMillis"], window=it))
    if not rows:
        return whole
    interleaved = {(t.shape, t.client, t.round) for t in run.trials if t.record.get("interleaved")}
    alone = whole[[(s, c, r) not in interleaved for s, c, r in zip(whole["shape"], whole["client"], whole["round"])]]
    return pd.concat([alone, pd.DataFrame(rows, columns=_COLUMNS)], ignore_index=True)


def per_set(values: dict, keep=None) -> dict:
    """round -> value, an interleaved set's windows (round set * 1000 + block) merged into one value for the set, their
    geometric mean; rounds of forks alone as they are. A set's JVM is one sample of the client's JVMs, and JVMs of one
    client differ (JIT choices, layout) by more than its windows do: its blocks measure that JVM closely, so the set is
    what rounds are compared on. `values` > 0; `keep`: only these rounds (those both sides of a pair have)."""
    by = {}
    for r, v in values.items():
        if keep is None or r in keep:
            by.setdefault(r // 1000 if r >= 1000 else r, []).append(math.log(v))
    return {r: math.exp(sum(logs) / len(logs)) for r, logs in by.items()}


@functools.cache
def _reference_histogram():
    """A histogram as the harness records latency (1 us to 1 h, 3 digits): the bucket widths of a value read from a
    record rather than its window's histogram."""
    from hdrh.histogram import HdrHistogram

    return HdrHistogram(1, 3_600_000_000, 3)


def _bucket(h, value: float) -> float:
    """How wide the histogram's bucket holding `value` is: the value read is its top, the true one anywhere in it."""
    if value != value:
        return math.nan
    v = int(value)
    return float(h.get_highest_equivalent_value(v) - h.get_lowest_equivalent_value(v) + 1)


def compilers_ns(it: dict, record: dict) -> float:
    """The JIT compiler threads' CPU time in window `it`, ns (probes' `compilerCpuNanos`); a record older than that
    field gives it as its `jitShare` of the window where the share was CPU time (the window's `jitSource`, or before
    that the trial's settings). NaN where it was not read."""
    p = it["probes"]
    if "compilerCpuNanos" in p:
        return float(p["compilerCpuNanos"]) if p["compilerCpuNanos"] >= 0 else math.nan
    declared = (record.get("settings") or {}).get("jitShare", "")
    source = it.get("jitSource", "cpu" if declared.startswith("the compiler threads' CPU time") else "unknown")
    share = p.get("jitShare", -1)
    ok = source == "cpu" and share is not None and share >= 0
    return share * it["windowNanos"] * p.get("jvmCpus", 1) if ok else math.nan


def cpu_ns(it: dict, record: dict) -> float:
    """Window `it`'s CPU time as every CPU figure counts it (the harness's CpuPerRequest): the client JVM's less its
    JIT compilers', a warm-up's cost a long-running service pays once, and less the harness's connection sampler's
    (probes' `samplerCpuNanos`, an external target's); the JVM's whole time where theirs is unknown."""
    c = compilers_ns(it, record)
    sampler = it["probes"].get("samplerCpuNanos", -1)
    return it["cpuNanosInWindow"] - (c if c == c else 0.0) - max(0.0, float(sampler))


def _per(total: float, sent: int, its: list, key: str) -> float:
    return total / sent if sent and all(it[key] >= 0 for it in its) else math.nan


# A fork's clock is its worst window's: one failed or tick-read window taints the fork's CPU per request.
CPU_CLOCKS_WORST_FIRST = ("failed", "none", "not read", "ticks", "unknown", "ns")


def _cpu_clock(record: dict, its: list) -> str:
    """How a fork's CPU time was taken over `its` windows: each window's `cpuClock`, the worst of them; a record older
    than per-window clocks has its trial's settings' one (`ns` for clock_gettime, `ticks` for the bean), else `unknown`."""
    declared = (record.get("settings") or {}).get("cpuClock", "")
    default = ("ns" if declared.startswith("clock_gettime") else
               "ticks" if declared.startswith("OperatingSystemMXBean") else "unknown")
    clocks = {it.get("cpuClock", default) for it in its}
    return next((c for c in CPU_CLOCKS_WORST_FIRST if c in clocks), "unknown")


def _counted(iterations: list) -> list:
    """The windows the kernel counted system calls and context switches in: the fork's JMH warm-up (counting costs CPU
    per system call, so measured windows are not counted); a record whose measured windows hold counts is read from them."""
    counted = [it for it in iterations if not it.get("settle") and
               all(it["probes"].get(k, -1) >= 0 for k in ("syscalls", "contextSwitches"))]
    measured = [it for it in counted if it["measured"]]
    return measured or counted


def _kernel(its: list, key: str) -> float:
    sent = sum(it["sent"] for it in its)
    return sum(it["probes"][key] for it in its) / sent if sent else math.nan


def median(values) -> float:
    """The analysis's one median: NaN values left out, NaN where none is left."""
    v = [x for x in values if x == x]
    return statistics.median(v) if v else math.nan


@per_run
def windows(run: Run) -> pd.DataFrame:
    """Every iteration of every fork, warm-up included, in the order it ran (`seq` runs across a shape's forks).
    `settle` numbers the windows a fork ran until its JIT was quiet (0: not one of them)."""
    rows = []
    for t in run.trials:
        for it in t.iterations:
            lat = it.get("latencyMicros") or it.get("serviceMicros") or {}
            window_s = it["windowNanos"] / 1e9
            sent = it["sent"]
            p = it["probes"]
            rows.append({
                "shape": t.shape, "client": t.client, "round": t.round, "index": it["index"],
                "measured": it["measured"], "rate": it.get("probe.rate", it.get("offeredRate", math.nan)),
                "pass": it.get("probe.pass"), "ok/s": it["ok"] / window_s if window_s > 0 else math.nan,
                "sent": sent, "ok": it["ok"], "failures": sum(it["failures"].values()),
                "expired": it["expiredAtDrain"], "unsent": it["unsent"],
                "p50": lat.get("p50", math.nan), "p99": lat.get("p99", math.nan), "p999": lat.get("p999", math.nan),
                "cpu": cpu_ns(it, t.record) / 1e3 / sent if sent and it["cpuNanosInWindow"] >= 0 else math.nan,
                "alloc": it["allocatedBytesInWindow"] / sent if sent and it["allocatedBytesInWindow"] >= 0 else math.nan,
                "syscalls": p.get("syscalls", -1) / sent if sent and p.get("syscalls", -1) >= 0 else math.nan,
                "cswitches": p.get("contextSwitches", -1) / sent if sent and p.get("contextSwitches", -1) >= 0 else math.nan,
                "lag.p99": (it.get("lagMicros") or {}).get("p99", math.nan),
                "connections": p.get("connectionsUsed", -1), "threads": p.get("threadsAtClose", -1),
                "jit": recorded(p.get("jitShare")), "gc": recorded(p.get("gcPauseMillis")),
                "steal": recorded(p.get("stealShare")), "flags": tuple(it.get("flags", [])),
                "settle": int(it.get("settle", 0)), "seconds": window_s, "started": it["windowStartEpochMillis"],
            })
    out = pd.DataFrame(rows)
    if not out.empty:
        out = out.sort_values(["shape", "client", "started"], kind="stable").reset_index(drop=True)
        out["seq"] = out.groupby(["shape", "client"]).cumcount()
    return out


# ---------------------------------------------------------------- over rounds: summary.json's facts

@per_run
def fixed(run: Run) -> pd.DataFrame:
    """summary.json's runs: one row per fixed-rate, closed-loop or long-lived (shape, client), over its rounds."""
    rows = []
    for r in run.summary["runs"]:
        bench = r["benchmark"].split(".")[0]
        p = r.get("params", {})
        net = r.get("netOfNoop") or {}
        rows.append({
            "shape": r["shape"], "client": r["client"],
            "model": {"ClosedLoopBenchmark": "closed", "LongLivedBenchmark": "longlived"}.get(bench, "open"),
            "rate": num(r.get("rate")), "delayMs": int(p.get("delayMs") or 0), "protocol": p.get("protocol", "http1"),
            "fault": _fault(p), "ok": num(r.get("okPerSecond")), "sent": num(r.get("sent")),
            "failures": num(r.get("failures")), "unsent": num(r.get("unsent")), "expired": num(r.get("expired")),
            "p50": num(r.get("latencyP50Micros")), "p99": num(r.get("latencyP99Micros")),
            "lag.p99": num(r.get("lagP99Micros")), "cpu": num(r.get("cpuMicrosPerRequest")),
            "alloc": num(r.get("allocatedBytesPerRequest")), "threads": num(r.get("threadsMax")),
            "net.cpu": num(net.get("cpuMicrosPerRequest")), "net.alloc": num(net.get("allocatedBytesPerRequest")),
            "net.threads": num(net.get("threads")), "flags": tuple(r.get("flags", [])),
            "sustained": bool(r.get("sustained")), "missedBy": r.get("missedBy", ""),
        })
    return pd.DataFrame(rows, columns=["shape", "client", "model", "rate", "delayMs", "protocol", "fault", "ok", "sent",
                                       "failures", "unsent", "expired", "p50", "p99", "lag.p99", "cpu", "alloc",
                                       "threads", "net.cpu", "net.alloc", "net.threads", "flags", "sustained",
                                       "missedBy"])


def _fault(params: dict) -> str:
    """What the stub does wrong on purpose: the `faults` mix, or a `fault=` in the stub's query; "" for neither."""
    faults = params.get("faults") or "none"
    if faults != "none":
        return faults
    for part in (params.get("stubQuery") or "").split("&"):
        name, _, value = part.partition("=")
        if name == "fault" and value:
            return value
    return ""


@per_run
def probes(run: Run) -> pd.DataFrame:
    """summary.json's capacity probes: one row per measured iteration of a knee search."""
    rows = []
    for c in run.summary["capacity"]:
        for p in c["probes"]:
            slo = p.get("slo") or {}
            rows.append({"shape": c["shape"], "client": c["client"], "round": p.get("round", 1), "rate": p["rate"],
                         "pass": p["pass"], "why": p["why"], "clients": bool(slo.get("clients")),
                         "scheduled": p["scheduled"], "ok": p["ok"], "p50": num(p.get("latencyP50Micros")),
                         "p99": num(p.get("latencyP99Micros")), "p999": num(p.get("latencyP999Micros")),
                         "jit": recorded(p.get("jitShare")), "gc": recorded(p.get("gcPauseMillis")),
                         "steal": recorded(p.get("stealShare")), "flags": tuple(p.get("flags", []))})
    return pd.DataFrame(rows, columns=["shape", "client", "round", "rate", "pass", "why", "clients", "scheduled", "ok",
                                       "p50", "p99", "p999", "jit", "gc", "steal", "flags"])


def rounds(run: Run) -> list:
    """env.json's rounds: per round of each shape, its order, what the host did, its flags and its repeat."""
    return run.env.get("rounds", [])


def failures(run: Run) -> tuple:
    """(gone, forks): gone maps (shape, client) -> why for the runs that left no result in any round (failed or
    skipped); forks lists the failed rounds of a (shape, client) whose other rounds ran."""
    measured = {(t.shape, t.client) for t in run.trials}
    gone, partial = {}, []
    for entry in run.env.get("failed", []) + run.env.get("skipped", []):
        where, _, why = entry.partition(": ")
        key = tuple(where.split("/", 1))
        if key in measured:
            partial.append(entry)
        else:
            gone[key] = gone[key] + "; " + why if key in gone else why
    return gone, partial


# ---------------------------------------------------------------- histograms

def merged(histograms: list):
    """One histogram of several intervals (HdrHistogram's add: counts, never averaged percentiles)."""
    from hdrh.histogram import HdrHistogram

    out = None
    for h in histograms:
        if out is None:
            out = HdrHistogram(h.lowest_trackable_value, h.highest_trackable_value, h.significant_figures)
        out.add(h)
    return out


SPECTRUM = [50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100]


def spectrum(h, percentiles=SPECTRUM) -> pd.DataFrame:
    """Percentile -> microseconds, from one (merged) histogram."""
    if h is None or h.get_total_count() == 0:
        return pd.DataFrame(columns=["percentile", "us"])
    return pd.DataFrame({"percentile": percentiles,
                         "us": [h.get_max_value() if p >= 100 else h.get_value_at_percentile(p) for p in percentiles]})


# ---------------------------------------------------------------- what each shape is

def kind(run: Run, shape: str) -> str:
    """'capacity', 'open', 'closed', 'longlived' or 'faults' (the stub misbehaves on purpose, or the delay is
    beyond the request timeout: every request should fail)."""
    s = run.shape(shape)
    bench = s.get("benchmark", "").split(".")[-2] if s else ""
    p = s.get("params", {})
    timeout = _iso_seconds(run.env.get("settings", {}).get("requestTimeout", "PT5S"))
    if bench == "CapacityBenchmark":
        return "capacity"
    if bench == "ClosedLoopBenchmark":
        return "closed"
    if bench == "LongLivedBenchmark":
        return "longlived"
    if _fault(p) or int(p.get("delayMs") or 0) / 1000 >= timeout:
        return "faults"
    return "open"


def shapes_of(run: Run, *kinds: str) -> list:
    return [s for s in run.shapes if kind(run, s) in kinds]


def _iso_seconds(text: str) -> float:
    """An ISO-8601 duration as Java writes it (PT5S, PT0.5S, PT1M30S) in seconds."""
    import re

    m = re.fullmatch(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?", text or "")
    if not m:
        return math.nan
    h, mi, s = (float(g) if g else 0.0 for g in m.groups())
    return h * 3600 + mi * 60 + s


def failures_by_class(run: Run, shape: str, client: str) -> dict:
    """Measured iterations' totals: sent, each failure class, expired (still out at the drain), unsent."""
    out = {"sent": 0, "expired": 0, "unsent": 0, **{c: 0 for c in FAILURE_CLASSES}}
    for t in run.trials_of(shape, client):
        for it in t.measured:
            out["sent"] += it["sent"]
            out["expired"] += it["expiredAtDrain"]
            out["unsent"] += it["unsent"]
            for c in FAILURE_CLASSES:
                out[c] += it["failures"].get(c, 0)
    return out


def long_lived(run: Run) -> pd.DataFrame:
    """Per long-lived shape and client: asked, held when the window closed, heap and threads per request in
    flight, how long opening took; a client whose JVM crashed there is listed with env.json's reason."""
    rows = []
    for shape in shapes_of(run, "longlived"):
        for client in run.clients:
            for t in run.trials_of(shape, client):
                for it in t.measured:
                    held = it["inFlightAtClose"]
                    p = it["probes"]
                    rows.append({"shape": shape, "client": client, "asked": p.get("asked", -1), "held": held,
                                 "heap/req": p["heapBytes"] / held if held > 0 and p.get("heapBytes", -1) >= 0 else math.nan,
                                 "threads/req": p["threadsAtClose"] / held if held > 0 else math.nan,
                                 "open.ms": it["inFlightPeakAfterNanos"] / 1e6,
                                 "failures": sum(it["failures"].values()), "failed": ""})
    gone, _ = failures(run)
    for (shape, client), why in gone.items():
        if shape in shapes_of(run, "longlived"):
            rows.append({"shape": shape, "client": client, "asked": math.nan, "held": 0, "heap/req": math.nan,
                         "threads/req": math.nan, "open.ms": math.nan, "failures": math.nan, "failed": why})
    return pd.DataFrame(rows, columns=["shape", "client", "asked", "held", "heap/req", "threads/req", "open.ms",
                                       "failures", "failed"])
