"""Reads a clientbench run (results/<run>/) and turns its facts into a decision.

Java writes the facts and decides every pass or fail: summary.json (the SLO and the other definitions,
each fixed-rate run's figures with `sustained`, each capacity search's knee and probes), one
`*.trial.json` per trial (every iteration, warm-up included) and its `*.hlog` (one interval histogram per
measured iteration), env.json (machine, JDK, profile, shapes, skipped and failed runs). This module reads
them and never judges a probe or a rate again: it groups, merges histograms, forms intervals and words.

clientbench_decision turns these facts into the decision table and the verdict; clientbench_figures
draws them; clientbench_render makes the report and the README's figure.

    python clientbench_analysis.py check RUN        one line on the folder, or why it cannot be read
    python clientbench_analysis.py decide RUN       the decision table and the verdict, as text
    python clientbench_analysis.py decide A B       whether two runs agree (knees within 10%, same tie groups)
    python clientbench_analysis.py render OUT RUN [RUN]   the report (analysis.ipynb) into OUT, one HTML file
    python clientbench_analysis.py readme RUN [README]    RUN/main.png and README's figure block from RUN
"""
from __future__ import annotations

import functools
import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

NOOP = "noop"  # the harness alone: every client's baseline, never ranked
# Runs before Slo.LIMITS (20261122 and earlier): every flag but lag failed a probe, even on a kept rate.
SLO_FLAGS_BEFORE_LIMITS = "no validity flag but lag"
FAILURE_CLASSES = ["status", "timeout", "connect", "reset", "rejected", "other"]


class AnalysisError(Exception):
    """A problem with the input, stated in one line that names the file."""


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


@dataclass
class Trial:
    """One trial (one JMH fork of one shape and client): its record and its interval log."""
    path: Path
    record: dict
    fork: int = 0
    _intervals: dict = field(default_factory=dict, repr=False)

    @property
    def client(self) -> str:
        return self.record["client"]

    @property
    def shape(self) -> str:
        return self.record["shape"]

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
        """The .hlog's histograms of `tag`, in order: the i-th is the i-th measured iteration's."""
        if tag not in self._intervals:
            from hdrh.histogram import HdrHistogram

            hlog = self.path.parent / self.record["hlog"]
            out = []
            for line in hlog.read_text(encoding="utf-8").splitlines():
                if line.startswith(f"Tag={tag},"):
                    try:
                        out.append(HdrHistogram.decode(line.rsplit(",", 1)[1]))
                    except Exception as e:  # the codec raises several types
                        raise AnalysisError(f"{hlog}: unreadable interval histogram ({e})") from None
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

    @property
    def slo(self) -> dict:
        return self.summary["definitions"]["slo"]

    @property
    def slo_flags(self) -> str:
        """How flags entered this run's SLO, in words, as the run recorded it (Java: Slo.toJson's "flags", up to its
        reason in brackets): "a rate kept despite gen, lag or stub counts"; a run before Slo.LIMITS recorded
        noValidityFlag."""
        if self.slo.get("noValidityFlag"):
            return SLO_FLAGS_BEFORE_LIMITS
        return self.slo.get("flags", "").split(" (")[0].split(";")[0] + " counts"

    @property
    def clients(self) -> list:
        """The clients compared, in the order asked for; noop (the baseline) is not one of them."""
        return [c for c in self.env.get("clients", []) if c != NOOP]

    @property
    def shapes(self) -> list:
        return [s["name"] for s in self.env.get("shapes", [])]

    def shape_params(self, shape: str) -> dict:
        return next((s["params"] for s in self.env.get("shapes", []) if s["name"] == shape), {})

    @property
    def request_timeout_s(self) -> float:
        return _iso_seconds(self.env.get("settings", {}).get("requestTimeout", "PT5S"))


def _iso_seconds(text: str) -> float:
    """An ISO-8601 duration as Java writes it (PT5S, PT0.5S, PT1M30S) in seconds."""
    m = re.fullmatch(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?", text or "")
    if not m:
        return math.nan
    h, mi, s = (float(g) if g else 0.0 for g in m.groups())
    return h * 3600 + mi * 60 + s


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
        for key in ("benchmark", "params", "primaryMetric"):
            if not isinstance(r, dict) or key not in r:
                raise AnalysisError(f"{path / 'results.json'}: entry {i} is not a JMH result (no '{key}')")
    env = _read_json(path / "env.json")
    if not isinstance(env, dict) or "runs" not in env:
        raise AnalysisError(f"{path / 'env.json'}: has no 'runs' list; not written by ./bench")
    if not (path / "summary.json").is_file():
        raise AnalysisError(f"{path / 'summary.json'}: missing; a run from before summary.json (the report reads it: "
                            "run ./bench again) or not a run folder")
    summary = _read_json(path / "summary.json")
    for key in ("definitions", "runs", "capacity"):
        if not isinstance(summary, dict) or key not in summary:
            raise AnalysisError(f"{path / 'summary.json'}: has no '{key}'; not written by this version of ./bench")
    trials = []
    for p in sorted(path.glob("*.trial.json")):
        record = _read_json(p)
        for key in ("client", "shape", "hlog", "iterations"):
            if key not in record:
                raise AnalysisError(f"{p}: has no '{key}'; not a trial record")
        if not (path / record["hlog"]).is_file():
            raise AnalysisError(f"{path / record['hlog']}: missing (named by {p.name})")
        trials.append(Trial(p, record))
    # Forks in the order they ran, as Java numbers them in summary.json.
    groups: dict = {}
    for t in sorted(trials, key=lambda t: t.started):
        fork = groups.setdefault((t.shape, t.client), [])
        t.fork = len(fork)
        fork.append(t)
    return Run(path.name, path, env, summary, trials)


def newest_run(results_dir="results") -> Path:
    runs = [p for p in Path(results_dir).iterdir()
            if p.is_dir() and not p.name.endswith(".incomplete") and (p / "summary.json").is_file()]
    if not runs:
        raise AnalysisError(f"{results_dir}: no finished run; run ./bench first")
    return max(runs, key=lambda p: p.name)


# ---------------------------------------------------------------- frames of facts

def _per_run(fn):
    """Computed once per run and arguments (the frames are read, never changed, by their callers)."""
    @functools.wraps(fn)
    def once(run, *args):
        key = (fn.__name__, *args)
        if key not in run._memo:
            run._memo[key] = fn(run, *args)
        return run._memo[key]
    return once


@_per_run
def fixed(run: Run) -> pd.DataFrame:
    """summary.json's runs: one row per fixed-rate, closed-loop or long-lived (shape, client), noop included."""
    rows = []
    for r in run.summary["runs"]:
        bench = r["benchmark"].split(".")[0]
        p = r.get("params", {})
        net = r.get("netOfNoop") or {}
        rows.append({
            "shape": r["shape"], "client": r["client"],
            "model": {"ClosedLoopBenchmark": "closed", "LongLivedBenchmark": "longlived"}.get(bench, "open"),
            "latency.metric": r.get("latencyMetric"), "rate": _num(r.get("rate")),
            "delayMs": int(p.get("delayMs") or 0), "protocol": p.get("protocol", "http1"), "fault": _fault(p),
            "ok": _num(r.get("okPerSecond")), "sent": _num(r.get("sent")), "failures": _num(r.get("failures")),
            "unsent": _num(r.get("unsent")), "expired": _num(r.get("expired")),
            "p50": _num(r.get("latencyP50Micros")), "p99": _num(r.get("latencyP99Micros")),
            "lag.p99": _num(r.get("lagP99Micros")),
            "cpu": _num(r.get("cpuMicrosPerRequest")), "alloc": _num(r.get("allocatedBytesPerRequest")),
            "threads": _num(r.get("threadsMax")),
            "net.cpu": _num(net.get("cpuMicrosPerRequest")), "net.alloc": _num(net.get("allocatedBytesPerRequest")),
            "net.threads": _num(net.get("threads")),
            "flags": tuple(r.get("flags", [])), "sustained": bool(r.get("sustained")), "missedBy": r.get("missedBy", ""),
        })
    return pd.DataFrame(rows)


def _fault(params: dict) -> str:
    """What the stub does wrong on purpose, from a run's JMH params: the `faults` mix ("none" when it behaves),
    or a `fault=` in the stub's query (e.g. "stall"); "" for neither."""
    faults = params.get("faults") or "none"
    if faults != "none":
        return faults
    for part in (params.get("stubQuery") or "").split("&"):
        name, _, value = part.partition("=")
        if name == "fault" and value:
            return value
    return ""


@_per_run
def probes(run: Run) -> pd.DataFrame:
    """summary.json's capacity probes: one row per measured iteration of a knee search, noop included."""
    rows = []
    for c in run.summary["capacity"]:
        for p in c["probes"]:
            rows.append({"shape": c["shape"], "client": c["client"], "fork": p["fork"], "rate": p["rate"],
                         "pass": p["pass"], "why": p["why"], "scheduled": p["scheduled"], "ok": p["ok"],
                         "p50": _num(p.get("latencyP50Micros")), "p99": _num(p.get("latencyP99Micros")),
                         "p999": _num(p.get("latencyP999Micros")), "lag.p99": _num(p.get("lagP99Micros")),
                         "net.cpu": _num(p.get("netCpuMicrosPerRequest")),
                         "net.alloc": _num(p.get("netAllocatedBytesPerRequest")),
                         "connections": p.get("connectionsUsed", -1), "jit": _recorded(p.get("jitShare")),
                         "gc": _recorded(p.get("gcPauseMillis")), "steal": _recorded(p.get("stealShare")),
                         "flags": tuple(p.get("flags", []))})
    return pd.DataFrame(rows, columns=["shape", "client", "fork", "rate", "pass", "why", "scheduled", "ok", "p50",
                                       "p99", "p999", "lag.p99", "net.cpu", "net.alloc", "connections", "jit", "gc",
                                       "steal", "flags"])


def miss_causes(run: Run, shape: str) -> dict | None:
    """What else the windows of a capacity shape's probes held (clients only, noop aside), missed and kept apart:
    the client JVM's JIT compiling over JIT_WARMING of the window (`jit`), its collectors pausing it for at least
    the SLO's latency bound in all (`gc`: one pause that long delays every request sent during it by as much), the
    host taking STEAL_NOISY or more of the machine's CPU for other guests (`steal`), and misses with none of these
    (`none`). Each cause is counted among misses and among kept probes, so that a cause as common in kept probes
    as in misses is seen to explain nothing. None when the run recorded neither GC pauses nor steal (runs before
    they were recorded)."""
    p = probes(run)
    p = p[(p["shape"] == shape) & (p["client"] != NOOP)]
    if p.empty or (p["gc"].isna().all() and p["steal"].isna().all()):
        return None
    causes = {"jit": p["jit"] > JIT_WARMING, "gc": p["gc"] >= run.slo["latencyP99Millis"],
              "steal": p["steal"] >= STEAL_NOISY}
    missed = ~p["pass"].astype(bool)
    out = {"misses": int(missed.sum()), "kept": int((~missed).sum())}
    for name, hit in causes.items():
        out[name] = (int((hit & missed).sum()), int((hit & ~missed).sum()))
    anything = causes["jit"] | causes["gc"] | causes["steal"]
    out["none"] = int((missed & ~anything).sum())
    return out


@_per_run
def knees(run: Run) -> pd.DataFrame:
    """Per capacity shape and client (noop has no knee): the knee over forks and what bounds it.

    The interval (`low`, `high`) holds the knee over JVM starts with 95% confidence, from the spread between
    forks pooled over the shape's clients (`_with_spread`; `spread` is that sd of log knee, `spread.from` the
    shape it was measured on), and never less than the search's bracket: the lowest fork's knee to the highest
    fork's lowest failing rate (`kneeHigh`), as each fork's knee lies in [knee, kneeHigh). No failing rate (the
    ceiling was kept): the interval is open above. A fork that found no failing rate below the ceiling spent its
    probe budget before any miss stood (its misses were the JIT's, a flag's, or not yet probed again): its knee is a
    lower bound and nothing bounds it above, so the search is `open`, ranked only where that bound clears every
    ranked interval (rank_capacity); ranked with [knee, inf) it would tie with every client above it (the JDK
    client's 4,000 with ahc's 38,000 in run 20261124-012039-vm).
    `flagged` names the flags that
    failed a probe at the bracket's upper end: there what the flag names (the harness's generator or pacer, the
    host's steal, the stub, windows apart, too few samples), not the client alone, may have stopped the search.

    One exception, decided from the harness's own record: a miss flagged only `gen` or `lag` (the client JVM's
    CPUs full, the pacer late) is what saturation looks like on a shared core, and it counts against the client
    when `noop` (the harness alone, same CPUs and pinning) kept that rate, or the next rung of its ladder above
    it, in every fork (by the same SLO, so despite its own gen or lag if need be): the harness could carry the
    rate by itself, so what broke it is what the client added. The knee then includes the harness's share of
    the CPU (noop's, the same for every client). A fork's bound holds two misses (one, and the probe that confirmed
    it): where either was the client's (unflagged, or saturation the harness alone carried), the bound is the
    client's, whatever the other was flagged (Java: Capacity.Result.flagsAtBound, where gen and lag always count
    as the client's).

    And one the other way: where every miss at the bound was taken while the client JVM's JIT compiled for over
    JIT_WARMING of the window, the warm-up stopped the search, not the client (`jit`). Runs made before the search
    probed such a rate again (CapacitySearch.recordWarmingMiss) have them: the JDK client's knee below 8k in three."""
    pr = probes(run)
    base = pr[pr["client"] == NOOP]

    def harness_kept(shape: str, rate: float) -> bool:
        b = base[base["shape"] == shape]
        if b.empty:  # capacity-h2 borrows the HTTP/1.1 ladder's baseline (Java: cli/Capacity)
            b = base[base["shape"].str.startswith("capacity-")]
        rungs = b[b["rate"] >= rate - 1e-6]
        if rungs.empty:
            return False
        rung = rungs[rungs["rate"] == rungs["rate"].min()]
        return bool(rung["pass"].all())

    rows = []
    for c in run.summary["capacity"]:
        if c["client"] == NOOP or "knee" not in c:
            continue
        k = c["knee"]
        highs = [f.get("kneeHigh") for f in k["forks"]]
        ceiling = _num(run.shape_params(c["shape"]).get("ceilingRate", math.nan))
        unbounded = [_num(f.get("knee")) for f in k["forks"]
                     if f.get("kneeHigh") is None and not _num(f.get("knee")) >= ceiling]
        flagged = set()
        for f in k["forks"]:
            bound = pr[(pr["shape"] == c["shape"]) & (pr["client"] == c["client"]) & (pr["fork"] == f["fork"])
                       & (pr["rate"] == f.get("kneeHigh")) & ~pr["pass"]]
            warming = bound["jit"] > JIT_WARMING
            if len(bound) and warming.all():
                flagged.add("jit")  # every miss there was the warm-up's (Java: CapacitySearch.recordWarmingMiss)
                continue
            bound = bound[~warming]
            # "flagged: lag, samples", or "flagged: lag (latency p99 ...)": a miss the lag may have made; none: unflagged
            words = [{w.strip() for w in why.split(":", 1)[1].split("(")[0].split(",")} if why.startswith("flagged:")
                     else set() for why in bound["why"]]
            if any(not w or (w <= {"gen", "lag"} and harness_kept(c["shape"], rate))
                   for w, rate in zip(words, bound["rate"])):
                # a miss at the bound that is the client's (unflagged, or saturation the harness alone carried: every
                # miss was probed again before it stood) bounds the knee, whatever another miss there was flagged
                continue
            for w in words:
                flagged.update(w)
        rows.append({"shape": c["shape"], "client": c["client"], "median": _num(k["median"]),
                     "min": _num(k["min"]), "max": _num(k["max"]), "low": _num(k["min"]),
                     "high": math.inf if any(h is None for h in highs) or not highs else max(highs),
                     "converged": bool(k["converged"]), "forks": len(k["forks"]),
                     "flagged": ", ".join(sorted(flagged)),
                     "open": (f"open: no rate failed before the probe budget ran out (at least {min(unbounded):.0f})"
                              if unbounded else ""),
                     "search": [f["search"] for f in k["forks"]],
                     "log.knees": [math.log(x) for x in (_num(f.get("knee")) for f in k["forks"]) if x > 0]})
    out = pd.DataFrame(rows, columns=["shape", "client", "median", "min", "max", "low", "high", "converged", "forks",
                                      "flagged", "open", "search", "log.knees"])
    out["status"] = [("flagged: " + f) if f else o if o else ("converged" if c else "not converged")
                     for f, o, c in zip(out["flagged"], out["open"], out["converged"])]
    return _with_spread(out)


# The knee's interval is a 95% interval for the knee over JVM starts (forks), on this machine.
KNEE_CONFIDENCE = 0.95

# The statuses of a search the decision ranks by its interval (neither flagged nor open).
RANKED_KNEES = ("converged", "not converged")


def knee_spread(k: pd.DataFrame) -> dict:
    """Per capacity shape: (sd, df, clients) of log(knee) between the forks of one search, pooled over the shape's
    ranked searches (neither flagged nor open) (residuals from each client's mean log knee; df = forks - 1 summed). Every
    client's forks are assumed to vary alike on one machine: two forks alone cannot estimate a spread, but
    twelve clients' pairs can (df 12). A shape with one fork borrows the spread of the run's capacity shape
    with the most df (its `from`); none: no spread known (a first look with one fork). `k` is `knees`' table
    (`log.knees`: each fork's log knee, a fork that kept no rate left out)."""
    own = {shape: pooled_log_spread(g[g["status"].isin(RANKED_KNEES)]["log.knees"])
           for shape, g in k.groupby("shape", sort=False)}
    best = max(own, key=lambda s: own[s][1]) if own else None
    return {s: (v + (s,) if v[1] else (own[best] + (best,) if best and own[best][1] else (math.nan, 0, 0, None)))
            for s, v in own.items()}


def pooled_log_spread(groups) -> tuple:
    """(sd, df, groups counted) of log values between the members of each group, pooled over the groups:
    residuals from each group's mean log, df = members - 1 summed; a group of one adds nothing. `groups`:
    sequences of log values (a client's forks' log knees, say, or its windows' log p99)."""
    ss, df, n = 0.0, 0, 0
    for logs in groups:
        if len(logs) >= 2:
            mean = sum(logs) / len(logs)
            ss += sum((x - mean) ** 2 for x in logs)
            df += len(logs) - 1
            n += 1
    return (math.sqrt(ss / df) if df else math.nan), df, n


def log_t_interval(logs: list, sd: float, df: int, confidence: float) -> tuple:
    """exp(mean log +- t * sd / sqrt(n)): the `confidence` interval of the geometric mean of n values whose logs
    are `logs`, Student's t on a pooled spread (`pooled_log_spread`) with `df`."""
    from scipy import stats  # imported here so that loading a run does not pay for it

    half = stats.t.ppf(0.5 + confidence / 2, df) * sd / math.sqrt(len(logs))
    mean = sum(logs) / len(logs)
    return math.exp(mean - half), math.exp(mean + half)


def _with_spread(k: pd.DataFrame) -> pd.DataFrame:
    """Widens each knee's interval to KNEE_CONFIDENCE over JVM starts: exp(mean log knee +- t * sd / sqrt(forks)),
    Student's t on the pooled spread's df (`knee_spread`). It is never narrower than the search's own bracket,
    [lowest fork's knee, highest lowest failing rate). That bracket alone claims too much: the range of two
    draws holds a third only a third of the time, and on a busy 2-core machine forks differ by a factor of
    two (`./bench report --compare A B` counts how often one run's knee falls in the other's interval).
    No spread known: the bracket alone."""
    spread = knee_spread(k)
    k = k.copy()
    k["spread"] = [spread.get(s, (math.nan,))[0] for s in k["shape"]]
    k["spread.df"] = [spread.get(s, (0, 0))[1] for s in k["shape"]]
    k["spread.from"] = [spread.get(s, (0, 0, 0, None))[3] for s in k["shape"]]
    lows, highs = [], []
    for _, r in k.iterrows():
        logs = r["log.knees"]
        if not logs or not r["spread.df"] or not r["spread"] > 0:
            lows.append(r["low"])
            highs.append(r["high"])
            continue
        lo, hi = log_t_interval(logs, r["spread"], r["spread.df"], KNEE_CONFIDENCE)
        lows.append(min(r["low"], lo))
        highs.append(max(r["high"], hi))
    k["low"], k["high"] = lows, highs
    return k


@_per_run
def iterations(run: Run) -> pd.DataFrame:
    """Every iteration of every trial, warm-up included, in the order it ran (`seq` runs across forks). `settle`
    numbers the windows a fork ran before JMH's warm-up until its JIT was quiet (0: not one of them)."""
    rows = []
    for t in sorted(run.trials, key=lambda t: (t.shape, t.client, t.fork)):
        for it in t.iterations:
            lat = it.get("latencyMicros") or it.get("serviceMicros") or {}
            window_s = it["windowNanos"] / 1e9
            rows.append({
                "shape": t.shape, "client": t.client, "fork": t.fork, "index": it["index"], "measured": it["measured"],
                "rate": it.get("probe.rate", it.get("offeredRate", math.nan)), "pass": it.get("probe.pass"),
                "ok/s": it["ok"] / window_s if window_s > 0 else math.nan, "sent": it["sent"], "ok": it["ok"],
                "failures": sum(it["failures"].values()), "expired": it["expiredAtDrain"], "unsent": it["unsent"],
                "p50": lat.get("p50", math.nan), "p99": lat.get("p99", math.nan), "p999": lat.get("p999", math.nan),
                "lag.p99": (it.get("lagMicros") or {}).get("p99", math.nan),
                "connections": it["probes"].get("connectionsUsed", -1), "threads": it["probes"].get("threadsAtClose", -1),
                "jit": _recorded(it["probes"].get("jitShare")), "gc": _recorded(it["probes"].get("gcPauseMillis")),
                "steal": _recorded(it["probes"].get("stealShare")),
                "flags": tuple(it.get("flags", [])),
                "settle": int(it.get("settle", 0)), "seconds": window_s,
            })
    out = pd.DataFrame(rows)
    if not out.empty:
        out["seq"] = out.groupby(["shape", "client"]).cumcount()
    return out


# Above this share of the window spent compiling, the client JVM was still warming up: its CPU per request and
# its latency include the JIT's work (summary.json's definitions: jitShare).
JIT_WARMING = 0.10

# At or above this share of the machine's CPU time given by the hypervisor to other guests in a window (summary.json's
# definitions: stealShare), Java flags the window (Flag.STEAL, where the threshold is argued): the host may have been
# the limit.
STEAL_NOISY = 0.10


def _recorded(v) -> float:
    """A JIT share (or GC pause, or host steal) as recorded: NaN when unknown (-1 in a trial's record, null in
    summary.json's capacity probes, absent from runs made before it was recorded)."""
    x = _num(v)
    return x if x >= 0 else math.nan


def _num(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


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


def probe_histogram(run: Run, shape: str, client: str, rate: float, tag: str = "latency"):
    """The measured intervals of (shape, client) probed at `rate`, across forks, merged."""
    hs = []
    for t in run.trials_of(shape, client):
        for it, h in zip(t.measured, t.intervals(tag)):
            if it.get("probe.rate", it.get("offeredRate")) == rate:
                hs.append(h)
    return merged(hs)


def shape_histogram(run: Run, shape: str, client: str, tag: str):
    """Every measured interval of (shape, client), across forks, merged."""
    return merged([h for t in run.trials_of(shape, client) for h in t.intervals(tag)])


SPECTRUM = [50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100]


def spectrum(h, percentiles=SPECTRUM) -> pd.DataFrame:
    """Percentile -> microseconds, from one (merged) histogram."""
    if h is None or h.get_total_count() == 0:
        return pd.DataFrame(columns=["percentile", "us"])
    return pd.DataFrame({"percentile": percentiles,
                         "us": [h.get_max_value() if p >= 100 else h.get_value_at_percentile(p) for p in percentiles]})


# ---------------------------------------------------------------- what each shape is

def capacity_shapes(run: Run) -> list:
    found = {c["shape"] for c in run.summary["capacity"]}
    return [s for s in run.shapes if s in found] + sorted(found - set(run.shapes))


def fault_shapes(run: Run) -> list:
    """Shapes where the server misbehaves on purpose: a `fault` parameter, or a delay the request timeout
    cuts (every request should end as a timeout, none still out at the drain)."""
    f = fixed(run)
    if f.empty:
        return []
    bad = f[(f["fault"] != "") | (f["delayMs"] / 1000 >= run.request_timeout_s)]
    return list(dict.fromkeys(bad["shape"]))


def open_shapes(run: Run) -> list:
    """Fixed-rate open-model shapes that are not fault shapes: the rate is kept or not."""
    f = fixed(run)
    if f.empty:
        return []
    faults = set(fault_shapes(run))
    return [s for s in dict.fromkeys(f[f["model"] == "open"]["shape"]) if s not in faults]


def closed_shapes(run: Run) -> list:
    f = fixed(run)
    return [] if f.empty else list(dict.fromkeys(f[f["model"] == "closed"]["shape"]))


def longlived_shapes(run: Run) -> list:
    f = fixed(run)
    return [] if f.empty else list(dict.fromkeys(f[f["model"] == "longlived"]["shape"]))


def failing_shapes(run: Run) -> list:
    """Fixed-rate and closed-loop shapes where some client's measured requests failed, went unsent or expired."""
    kinds = FAILURE_CLASSES + ["unsent", "expired"]
    return [s for s in open_shapes(run) + fault_shapes(run) + closed_shapes(run)
            if any(failures_by_class(run, s, c)[k] for c in run.clients for k in kinds)]


def common_rates(run: Run, shape: str) -> list:
    """The rates of `shape`'s searches that every client probed in every fork and that lie at or below
    every client's lowest fork knee: where no client is past its knee, so spectra compare like with like.
    Every client climbs the same ladder (x2 from the start rate), so these are its lower rungs."""
    k = knees(run)
    k = k[k["shape"] == shape]
    if k.empty:
        return []
    weakest = k["min"].min()
    pr = probes(run)
    pr = pr[(pr["shape"] == shape) & (pr["client"] != NOOP)]
    sets = [set(g["rate"]) for _, g in pr.groupby(["client", "fork"])]
    common = set.intersection(*sets) if sets else set()
    return sorted(r for r in common if 0 < r <= weakest)


@_per_run
def at_rate(run: Run, shape: str, rate: float) -> pd.DataFrame:
    """Per client at one probed rate: p50/p99/p99.9 from the merged intervals across forks, the net CPU and
    allocation per request (mean over those probes, from summary.json), the most connections used and the
    largest JIT share of those probes' windows (NaN: not recorded)."""
    pr = probes(run)
    rows = []
    for client in run.clients:
        h = probe_histogram(run, shape, client, rate)
        g = pr[(pr["shape"] == shape) & (pr["client"] == client) & (pr["rate"] == rate)]
        if h is None or g.empty:
            continue
        rows.append({"client": client, "rate": rate, "probes": len(g), "count": h.get_total_count(),
                     "p50": h.get_value_at_percentile(50), "p99": h.get_value_at_percentile(99),
                     "p999": h.get_value_at_percentile(99.9), "net.cpu": g["net.cpu"].mean(),
                     "net.alloc": g["net.alloc"].mean(), "connections": g["connections"].max(),
                     "jit": g["jit"].max(), "flags": tuple(sorted({f for fl in g["flags"] for f in fl}))})
    return pd.DataFrame(rows, columns=["client", "rate", "probes", "count", "p50", "p99", "p999", "net.cpu",
                                       "net.alloc", "connections", "jit", "flags"])


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
    for shape in longlived_shapes(run):
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
    for entry in run.env.get("failed", []):
        where, _, why = entry.partition(": ")
        shape, _, client = where.partition("/")
        if shape.startswith("longlived-"):
            rows.append({"shape": shape, "client": client, "asked": math.nan, "held": 0, "heap/req": math.nan,
                         "threads/req": math.nan, "open.ms": math.nan, "failures": math.nan, "failed": why})
    return pd.DataFrame(rows, columns=["shape", "client", "asked", "held", "heap/req", "threads/req", "open.ms",
                                       "failures", "failed"])


# ---------------------------------------------------------------- command line

USAGE = ("usage: clientbench_analysis.py check RUN | decide RUN | decide RUN_A RUN_B | "
         "render OUT.html RUN [RUN] | readme RUN [README.md]")


def main(argv) -> int:
    command, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    shapes = {"check": (1, 1), "decide": (1, 2), "render": (2, 3), "readme": (1, 2)}
    if command not in shapes or not shapes[command][0] <= len(args) <= shapes[command][1]:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        if command == "render":
            import clientbench_render
            clientbench_render.render([Path(p) for p in args[1:]], Path(args[0]))
            return 0
        runs = [load_run(args[0])] if command == "readme" else [load_run(p) for p in args]
        if command == "check":
            run = runs[0]
            print(f"report: {run.path}: {len(run.summary['runs'])} fixed-rate runs, "
                  f"{len(run.summary['capacity'])} knee searches, {len(run.trials)} trials")
        elif command == "decide":
            import clientbench_decision as cbd
            print(cbd.decision_text(cbd.decide(runs[0])) if len(runs) == 1 else "\n".join(cbd.agreement(*runs).lines()))
        else:
            import clientbench_render
            readme = Path(args[1]) if len(args) > 1 else Path(__file__).resolve().parent.parent / "README.md"
            clientbench_render.write_readme(runs[0], readme)
            print(f"report: {runs[0].path / 'main.png'} and the figure block of {readme}")
    except AnalysisError as e:
        print(f"report: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    # Through the module's own name, so that the other modules' AnalysisError is the one caught here.
    import clientbench_analysis

    sys.exit(clientbench_analysis.main(sys.argv))
