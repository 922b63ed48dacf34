"""The decision drawn from a run's facts (clientbench_analysis): tie groups, the decision table, the
verdict in words, and whether two runs agree.

A winner is named only where intervals separate; clients whose intervals overlap are a tie group (a knee
search that did not converge is ranked by its wider bracket); a search that a validity flag stopped, a rate
not sustained, a flagged closed loop are listed as not ranked, with why, and never above a ranked client. noop is the harness's baseline and
never ranked. The terminal (`decide`) and the report print the same Decision.
"""
from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field

import pandas as pd

from clientbench_analysis import (FAILURE_CLASSES, JIT_WARMING, KNEE_CONFIDENCE, NOOP, RANKED_KNEES, Run, at_rate, capacity_shapes, closed_shapes,
                                  common_rates, failures_by_class, fault_shapes, fixed, iterations, knee_spread,
                                  knees, log_t_interval, long_lived, miss_causes, open_shapes, pooled_log_spread,
                                  STEAL_NOISY)

REPEAT_TOLERANCE = 0.10  # two runs agree when each knee is within 10% of the other run's (issue 14.3)


# ---------------------------------------------------------------- tie groups

def tie_groups(items: list, higher_is_better: bool = True, half_open: bool = False) -> list:
    """Rank (name, value, low, high) items into groups, best first. An item joins the group above it when
    its interval overlaps the union of that group's intervals (so a chain of overlaps is one tie: a winner
    only where intervals separate). `half_open`: intervals are [low, high), as a knee's bracket is."""
    ordered = sorted(items, key=lambda i: (-i[1] if higher_is_better else i[1], i[0]))
    groups, low, high = [], math.nan, math.nan
    for name, _, lo, hi in ordered:
        overlaps = groups and ((lo < high and hi > low) if half_open else (lo <= high and hi >= low))
        if overlaps:
            groups[-1].append(name)
            low, high = min(low, lo), max(high, hi)
        else:
            groups.append([name])
            low, high = lo, hi
    return groups


@dataclass
class Ranking:
    """One shape's order: tie groups best first, and the clients not ranked with why."""
    shape: str
    groups: list
    unranked: list  # (client, why)
    intervals: dict = field(default_factory=dict)  # fixed-rate shapes: client -> (figure, low, high)

    def key(self) -> tuple:
        return tuple(tuple(sorted(g)) for g in self.groups), tuple(sorted(c for c, _ in self.unranked))


def _failures(run: Run) -> tuple:
    """(gone, forks): gone maps (shape, client) -> why for the runs that left no result (failed or skipped); a fork
    of a search whose forks ran apart that failed ("shape/client: fork 1 of 2: why", Java: ComparisonRun) while
    another kept the search's knee is not gone: it is in forks, the entry whole."""
    measured = {(c["shape"], c["client"]) for c in run.summary["capacity"] if "knee" in c}
    gone, forks = {}, []
    for entry in run.env.get("failed", []) + run.env.get("skipped", []):
        where, _, why = entry.partition(": ")
        key = tuple(where.split("/", 1))
        if why.startswith("fork ") and key in measured:
            forks.append(entry)
        else:
            gone[key] = gone[key] + "; " + why if key in gone else why  # both forks of a search run apart, say
    return gone, forks


def _failed_runs(run: Run) -> dict:
    return _failures(run)[0]


def _failed_forks(run: Run) -> list:
    return _failures(run)[1]




def rank_capacity(run: Run, shape: str) -> Ranking:
    """Clients whose search no validity flag stopped, by knee, tied where their knees' 95% intervals (knees():
    the forks' pooled spread, never narrower than the search's bracket) overlap; flagged and open searches (no
    rate failed before the budget ran out) unranked with their status. A search that spent its budget before the 5%
    precision still bounds every fork's knee within its bracket, only a wider one: it is ranked by that
    interval, so it ties where it cannot be told apart (the standard profile's 14 probes reach 5% only where few
    misses are probed again: the ramp from 1k alone takes 6-7 of them).

    An open search's knee is at least its lowest fork's: where that clears every ranked interval, it is known to
    be above them all, and the open searches that do so lead, tied among themselves (quick's 6 probes climb past
    the slower clients' knees without a miss of their own); one below the top interval's end could lie anywhere
    above its bound and stays unranked (ranked, it would tie with every group above it)."""
    k = knees(run)
    k = k[k["shape"] == shape]
    ok = k[k["status"].isin(RANKED_KNEES)]
    groups = tie_groups(list(zip(ok["client"], ok["median"], ok["low"], ok["high"])), half_open=True)
    top = ok["high"].max() if len(ok) else 0.0
    is_open = k["status"].str.startswith("open")
    above = k[is_open & (k["low"] >= top)].sort_values(["low", "client"], ascending=[False, True])
    if len(above):
        groups = [list(above["client"])] + groups
    unranked = [(c, s) for c, s in zip(k["client"], k["status"]) if s not in RANKED_KNEES and c not in set(above["client"])]
    gone = _failed_runs(run)
    unranked += [(c, gone[(shape, c)]) for c in run.clients if (shape, c) in gone]
    return Ranking(shape, groups, unranked)


# One measured iteration has no spread: its interval is a point, and any difference would read as a clear win
# (two quick runs back to back ranked the same nine clients in different orders that way).
ONE_ITERATION = "one measured iteration: no spread to rank by"


def _measured_iterations(run: Run, shape: str, client: str) -> int:
    it = iterations(run)
    return int(((it["shape"] == shape) & (it["client"] == client) & it["measured"]).sum())


def _measured_jit(run: Run, shape: str) -> dict:
    """Per client: the largest JIT share of its measured iterations on `shape` (NaN: not recorded)."""
    it = iterations(run)
    it = it[(it["shape"] == shape) & it["measured"]]
    return it.groupby("client")["jit"].max().to_dict() if "jit" in it else {}


def settle_words(run: Run, shape: str) -> str:
    """How the forks of `shape` settled before measuring ('' when they did not): each ran the shape until a
    window's JIT share fell under JIT_WARMING, for at most the shape's settleSeconds."""
    it = iterations(run)
    s = it[(it["shape"] == shape) & (it["settle"] > 0)] if "settle" in it else it.iloc[0:0]
    if s.empty:
        return ""
    forks = s.groupby(["client", "fork"]).agg(seconds=("seconds", "sum"), last=("jit", "last"))
    quiet = forks[~(forks["last"] > JIT_WARMING)]
    bound = run.shape_params(shape).get("settleSeconds", "?")
    words = (f"each fork ran until a window's JIT share was under {JIT_WARMING:.0%} (at most {bound} s): "
             f"{len(quiet)} of {len(forks)} forks quiet"
             + (f", after a median {quiet['seconds'].median():.0f} s" if not quiet.empty else ""))
    loud = sorted({c for c, _ in forks.index.difference(quiet.index)})
    # A fork still compiling when the bound ended its settling may be quiet by its measured windows (then ranked on
    # them, where nothing else stops it): said apart, or the verdict would rank a client it calls still compiling.
    jit = _measured_jit(run, shape)
    later = [c for c in loud if jit.get(c, math.nan) <= JIT_WARMING]
    still = [c for c in loud if c not in later]
    return (words + (f"; still compiling at the bound: {', '.join(still)}" if still else "")
            + (f"; still compiling at the bound, under {JIT_WARMING:.0%} by the measured windows: {', '.join(later)}"
               if later else ""))


def _measured_values(run: Run, shape: str, client: str, column: str) -> list:
    it = iterations(run)
    g = it[(it["shape"] == shape) & (it["client"] == client) & it["measured"]][column]
    return [float(v) for v in g if v > 0]


def window_spread(values: dict) -> tuple:
    """(sd, df) of log(figure) between a client's measured windows (one fork's in standard, every fork's where a
    shape has more), pooled over a shape's ranked clients (residuals from each client's mean log; df = windows
    - 1 summed): `values` is client -> its windows' figures. As with the knees (knee_spread), two windows alone cannot estimate a spread, twelve clients'
    pairs can (df 12)."""
    sd, df, _ = pooled_log_spread([math.log(x) for x in v if x > 0] for v in values.values())
    return sd, df


def window_interval(values: list, spread: tuple) -> tuple:
    """A figure's FIXED_CONFIDENCE interval from its measured windows: exp(mean log +- t * sd / sqrt(windows))
    on the shape's pooled spread (window_spread), never narrower than the windows' own range. The range alone
    claims too much: two windows' range holds a third window only a third of the time, and tie groups drawn
    from it moved between two runs of the same code on p99 changes of a fraction of a millisecond (h2c-2000
    of runs 20261123-113208-vm and 122536). No spread known: the range."""
    if not values:
        return math.nan, math.nan
    lo, hi = min(values), max(values)
    sd, df = spread
    if not df or not sd > 0:
        return lo, hi
    low, high = log_t_interval([math.log(x) for x in values], sd, df, FIXED_CONFIDENCE)
    return min(lo, low), max(hi, high)


# A fixed-rate figure's interval (p99, closed-loop ok/s): over its measured windows, on this machine.
FIXED_CONFIDENCE = 0.95


def _with_intervals(run: Run, shape: str, column: str, items: list, offset: float = 0.0) -> tuple:
    """(client, figure) -> (client, figure, low, high) by window_interval, and client -> (figure, low, high).
    `offset` is taken off every window's figure first and put back on the interval: a server delay, so that
    the spread is that of the latency beyond it (a p99 is never below the delay, nor is its interval)."""
    values = {c: [v - offset for v in _measured_values(run, shape, c, column) if v > offset] for c, _ in items}
    spread = window_spread(values)
    out = [(c, x) + tuple(offset + v for v in window_interval(values[c], spread)) for c, x in items]
    return out, {c: (x, lo, hi) for c, x, lo, hi in out}


def rank_open(run: Run, shape: str) -> Ranking:
    """Clients that sustained the rate (Java's verdict), by latency p99, tied where their p99s' 95% intervals
    (window_interval: the measured windows' spread of the latency beyond the server's delay, pooled over the
    shape's ranked clients, never narrower than the windows' range) overlap; the rest unranked with why Java
    says they missed. A rate kept despite a full client JVM or a busy stub (gen, stub) counts as kept, but its
    latency may be the harness's: it is not ranked by it (lag is: it is in the latency by definition, and
    beside it in every table). Nor is a latency measured while the client JVM's JIT still compiled for over
    JIT_WARMING of a window: it is the warm-up's."""
    f = fixed(run)
    f = f[(f["shape"] == shape) & (f["client"] != NOOP)]
    kept = f[f["sustained"]]
    jit = _measured_jit(run, shape)
    items, unranked = [], []
    for client, p99, flags in zip(kept["client"], kept["p99"], kept["flags"]):
        limits = flag_words(f for f in flags if f != "flag.lag")
        if limits:
            unranked.append((client, f"kept the rate, latency not ranked: flagged {limits}"))
            continue
        if jit_words(jit.get(client, math.nan)):
            unranked.append((client, f"kept the rate, latency not ranked: JIT {jit[client]:.0%} of a window, still warming up"))
            continue
        if _measured_iterations(run, shape, client) < 2:
            unranked.append((client, ONE_ITERATION))
            continue
        items.append((client, p99))
    delay = float(f["delayMs"].iloc[0]) * 1000 if not f.empty else 0.0
    items, intervals = _with_intervals(run, shape, "p99", items, delay)
    unranked += [(c, m or "not sustained") for c, s, m in zip(f["client"], f["sustained"], f["missedBy"]) if not s]
    gone = _failed_runs(run)
    unranked += [(c, gone[(shape, c)]) for c in run.clients if (shape, c) in gone]
    return Ranking(shape, tie_groups(items, higher_is_better=False), unranked, intervals)


def rank_closed(run: Run, shape: str) -> Ranking:
    """Unflagged clients by ok/s, tied where their ok/s 95% intervals (window_interval) overlap; a client whose
    JIT still compiled for over JIT_WARMING of a measured window is not ranked (its throughput was still rising)."""
    f = fixed(run)
    f = f[(f["shape"] == shape) & (f["client"] != NOOP)]
    jit = _measured_jit(run, shape)
    items, unranked = [], []
    for client, ok, flags in zip(f["client"], f["ok"], f["flags"]):
        if flags:
            unranked.append((client, "flagged: " + flag_words(flags)))
            continue
        if jit_words(jit.get(client, math.nan)):
            unranked.append((client, f"JIT {jit[client]:.0%} of a window, still warming up"))
            continue
        if _measured_iterations(run, shape, client) < 2:
            unranked.append((client, ONE_ITERATION))
            continue
        items.append((client, ok))
    items, intervals = _with_intervals(run, shape, "ok/s", items)
    gone = _failed_runs(run)
    unranked += [(c, gone[(shape, c)]) for c in run.clients if (shape, c) in gone]
    return Ranking(shape, tie_groups(items), unranked, intervals)


def flag_words(flags) -> str:
    return ", ".join(f.removeprefix("flag.") for f in flags)


# ---------------------------------------------------------------- words and numbers

def fmt_us(us: float) -> str:
    if us is None or math.isnan(us):
        return "-"
    if us < 1000:
        return f"{us:.0f} us"
    if us < 10_000:
        return f"{us / 1000:.1f} ms"
    if us < 1_000_000:
        return f"{us / 1000:.0f} ms"
    return f"{us / 1e6:.2f} s"


def fmt_bytes(b: float) -> str:
    if b is None or math.isnan(b):
        return "-"
    return f"{b / 1024:.1f} KiB" if abs(b) >= 1024 else f"{b:.0f} B"


def fmt_rate(r: float) -> str:
    if r is None or math.isnan(r):
        return "-"
    return "inf" if math.isinf(r) else f"{r:.0f}"


def fmt_knee(row) -> str:
    """'4000 [3800-4400)': the median over forks and the knee's 95% interval (knees(): low, high)."""
    return f"{fmt_rate(row['median'])} [{fmt_rate(row['low'])}-{fmt_rate(row['high'])})"


def library(run: Run, client: str) -> str:
    """'async-http-client 3.0.13' from 'org.asynchttpclient:async-http-client:3.0.13'."""
    lib = run.env.get("clientSettings", {}).get(client, {}).get("library", "")
    parts = lib.split(":")
    return f"{parts[-2]} {parts[-1]}" if len(parts) >= 2 else lib or "-"


def heaviest_open_shape(run: Run):
    """The fixed-rate open shape with the most requests in flight (rate x delay): threads and connections
    there show pools against thread-per-request clients. None when the run has no such shape."""
    f = fixed(run)
    f = f[f["shape"].isin(open_shapes(run))]
    if f.empty:
        return None
    load = f.assign(inflight=f["rate"] * (f["delayMs"] + 1)).groupby("shape")["inflight"].max()
    return load.idxmax()


# ---------------------------------------------------------------- the decision

@dataclass
class Decision:
    run: str
    purpose: str
    first_look: bool
    table: pd.DataFrame
    verdict: list
    conditions: str
    notes: list


def decide(run: Run) -> Decision:
    """The decision table (one row per client), the verdict in words and the conditions it holds under."""
    k = knees(run)
    caps = capacity_shapes(run)
    gone = _failed_runs(run)
    main = caps[0] if caps else None
    rates = common_rates(run, main) if main else []
    top = rates[-1] if rates else None
    at = at_rate(run, main, top).set_index("client") if top else pd.DataFrame()
    heavy = heaviest_open_shape(run)
    f = fixed(run)
    faults = fault_shapes(run)
    notes = []
    rows = []
    for client in run.clients:
        row = {"client": client}
        for shape in caps:
            kk = k[(k["shape"] == shape) & (k["client"] == client)]
            if (shape, client) in gone:
                row[f"knee {shape} (req/s)"] = gone[(shape, client)]
            elif kk.empty:
                row[f"knee {shape} (req/s)"] = "-"
            else:
                r = kk.iloc[0]
                row[f"knee {shape} (req/s)"] = fmt_knee(r) + ("" if r["status"] == "converged" else " " + r["status"])
        lat_col = f"p50 / p99 / p99.9 at {fmt_rate(top)} req/s" if top else "latency at a common rate"
        cost_col = f"net CPU / alloc per req at {fmt_rate(top)} req/s" if top else "net CPU / alloc per req"
        if top and client in at.index:
            a = at.loc[client]
            row[lat_col] = f"{fmt_us(a['p50'])} / {fmt_us(a['p99'])} / {fmt_us(a['p999'])}"
            row[cost_col] = f"{fmt_us(a['net.cpu'])} / {fmt_bytes(a['net.alloc'])}" + jit_words(a["jit"])
        else:
            row[lat_col] = row[cost_col] = "-" if top else "no common rate"
        if heavy:
            g = f[(f["shape"] == heavy) & (f["client"] == client)]
            conns = iterations(run)
            conns = conns[(conns["shape"] == heavy) & (conns["client"] == client) & conns["measured"]]["connections"]
            row[f"threads (net) / connections at {heavy}"] = (
                f"{g.iloc[0]['net.threads']:+.0f} / {conns.max():.0f}" if not g.empty and not conns.empty else "-")
        row["under faults"] = "; ".join(_fault_cell(run, s, client) for s in faults) if faults else "not measured"
        row["HTTP/2, TLS"] = _protocol_cell(run, client, k, f, gone)
        row["library"] = library(run, client)
        rows.append(row)
    table = pd.DataFrame(rows).set_index("client") if rows else pd.DataFrame()
    if caps:
        notes.append("knee: median over forks [95% interval over JVM starts); " + _spread_words(k, caps) + "; "
                     "'flagged' searches are never ranked, nor 'open' ones (no rate failed before the probe budget ran "
                     "out: the knee is only a lower bound) unless that bound clears every ranked interval; a 'not converged' one (probe budget spent before 5%) is ranked by "
                     f"its wider interval; {run.slo_flags} as kept; a miss at saturation (gen, "
                     "lag) counts against the client where noop, the harness alone, kept that rate"
                     + ("; 'flagged: jit': every miss that bounded the search came while the client JVM's JIT still "
                        "compiled, the warm-up's miss" if k["flagged"].str.contains("jit").any() else "") + ".")
    for shape in caps:
        words = miss_words(run, shape)
        if words:
            notes.append("what the misses' windows held: " + words + ".")
    for entry in run.env.get("retried", []):  # Java: Retries, a search the host's steal stopped run once more
        notes.append("retry: " + entry + ".")
    for entry in _failed_forks(run):
        notes.append(f"failed: {entry}; the knee rests on the forks that ran.")
    if main and not rates:
        weakest = k[k["shape"] == main]["min"].min()
        notes.append(f"no common rate on {main}: the weakest knee is {fmt_rate(weakest)} req/s, below every rung "
                     "of the ladder, so no latency is compared (every client would be past its knee).")
    elif top:
        notes.append(f"latency and cost at {fmt_rate(top)} req/s, the highest rate on {main} below every client's "
                     f"knee (common rates: {', '.join(fmt_rate(r) for r in rates)}); latency from the intended "
                     "start, merged over forks; net = client minus the noop baseline at that rate.")
    if top and not at.empty and (at["jit"] > JIT_WARMING).any():
        notes.append(f"'JIT n%': the client JVM's JIT compilers ran for n% of the window (over {JIT_WARMING:.0%}): the "
                     "JVM was still warming up, so that CPU per request and latency include compilation, not the "
                     "client's steady cost (the compilers' elapsed time summed over them, per CPU of the client JVM: "
                     "over 100% where several compiled at once on fewer CPUs).")
    if heavy:
        notes.append(f"threads: peak threads minus noop's at {heavy}, the shape with most requests in flight; "
                     "connections: the most the client used in a measured iteration there.")
    return Decision(run.name, run.env.get("purpose", ""), "not for decisions" in run.env.get("purpose", ""),
                    table, verdict(run), conditions(run), notes)


def _spread_words(k: pd.DataFrame, shapes: list) -> str:
    """How each capacity shape's interval was made: the spread between forks it rests on, or none."""
    out = []
    for shape in shapes:
        g = k[k["shape"] == shape]
        if g.empty:
            continue
        r = g.iloc[0]
        if not r["spread.df"]:
            out.append(f"on {shape}, no spread between forks measured (no ranked search with two forks that kept a "
                       f"rate) and none to borrow: the search's bracket alone")
        else:
            src = "" if r["spread.from"] == shape else f", borrowed from {r['spread.from']}"
            out.append(f"on {shape}, forks' knees vary by {math.expm1(r['spread']):.0%} (1 sd of log knee, pooled "
                       f"over clients, df {r['spread.df']}{src})")
    return ("; ".join(out) + "; the interval is the mean log knee +- Student's t x that sd / sqrt(forks), never "
            "narrower than [lowest fork's knee, highest lowest failing rate)")


def miss_words(run: Run, shape: str) -> str:
    """What else the windows of a capacity shape's missed probes held, beside how often the kept probes held it
    (miss_causes); '' for a run that recorded neither GC pauses nor host steal."""
    c = miss_causes(run, shape)
    if not c or not c["misses"]:
        return ""
    bound = run.slo["latencyP99Millis"]
    parts = [f"{c[k][0]} {what} ({c[k][1]} of {c['kept']} kept probes too)" for k, what in (
        ("gc", f"in a window where the client JVM's collectors paused it for {bound:g} ms or more"),
        ("jit", f"while its JIT compiled for over {JIT_WARMING:.0%} of the window"),
        ("steal", f"with the host taking {STEAL_NOISY:.0%} or more of the machine's CPU for other guests (steal)"))]
    return (f"{shape}: {c['misses']} probes missed the SLO: " + ", ".join(parts)
            + f"; {c['none']} with none of these")


def jit_words(share: float) -> str:
    """' (JIT 35%)' where a figure's window was over JIT_WARMING compiling; '' otherwise or unknown."""
    return f" (JIT {share:.0%})" if share == share and share > JIT_WARMING else ""


def _fault_cell(run: Run, shape: str, client: str) -> str:
    if (shape, client) in _failed_runs(run):
        return f"{shape}: {_failed_runs(run)[(shape, client)]}"
    n = failures_by_class(run, shape, client)
    if n["sent"] == 0:
        return f"{shape}: nothing sent"
    classes = ", ".join(f"{n[c]} {c}" for c in FAILURE_CLASSES if n[c]) or "no failure"
    return f"{shape}: {classes} of {n['sent']} sent, {n['expired']} expired"


def _protocol_cell(run: Run, client: str, k: pd.DataFrame, f: pd.DataFrame, gone: dict) -> str:
    parts = []
    for shape in run.shapes:
        proto = run.shape_params(shape).get("protocol", "http1")
        if proto == "http1":
            continue
        if (shape, client) in gone:
            parts.append(f"{proto} refused" if any(s.startswith(f"{shape}/{client}:") for s in run.env.get("skipped", []))
                         else f"{proto} failed")
            continue
        kk = k[(k["shape"] == shape) & (k["client"] == client)]
        g = f[(f["shape"] == shape) & (f["client"] == client)]
        if not kk.empty:
            parts.append(f"{proto} knee {fmt_rate(kk.iloc[0]['median'])}")
        elif not g.empty:
            r = g.iloc[0]
            parts.append(f"{proto} kept {fmt_rate(r['rate'])}/s" if r["sustained"]
                         else f"{proto} missed {fmt_rate(r['rate'])}/s ({r['missedBy']})")
    return "; ".join(parts) if parts else "not measured"


def _group_words(groups: list, fmt) -> str:
    out = []
    for g in groups:
        out.append(fmt(g[0]) if len(g) == 1 else "tied: " + ", ".join(fmt(c) for c in g))
    return "; then ".join(out)


def verdict(run: Run) -> list:
    """One sentence per shape, from the rankings: a winner only where its interval clears the rest."""
    out = []
    k = knees(run)
    for shape in capacity_shapes(run):
        r = rank_capacity(run, shape)
        kk = k[k["shape"] == shape].set_index("client")
        label = lambda c: f"{c} {fmt_knee(kk.loc[c])}"  # noqa: E731
        out.append(_sentence(shape, "knee in req/s, median [95% interval)", r, label))
    f = fixed(run)
    for shape in open_shapes(run):
        r = rank_open(run, shape)
        g = f[f["shape"] == shape].set_index("client")
        delay = int(g["delayMs"].iloc[0])
        jit = _measured_jit(run, shape)
        label = lambda c, r=r, g=g, delay=delay, jit=jit: (  # noqa: E731
            f"{c} p99 {fmt_us(g.loc[c, 'p99'] - delay * 1000)}" + _interval_words(r, c, lambda x: fmt_us(x - delay * 1000))
            + jit_words(jit.get(c, math.nan)))
        what = (f"{fmt_rate(g['rate'].iloc[0])} req/s; the clients that kept it, by latency p99"
                + (f" beyond the {delay} ms delay" if delay else "") + f" [{FIXED_CONFIDENCE:.0%} interval]")
        out.append(_sentence(shape, what, r, label, settle_words(run, shape)))
    for shape in closed_shapes(run):
        r = rank_closed(run, shape)
        g = f[f["shape"] == shape].set_index("client")
        jit = _measured_jit(run, shape)
        label = lambda c, r=r, g=g, jit=jit: (f"{c} {g.loc[c, 'ok']:.0f} ok/s" + _interval_words(r, c, lambda x: f"{x:.0f}")  # noqa: E731
                                             + jit_words(jit.get(c, math.nan)))
        out.append(_sentence(shape, f"closed loop, throughput [{FIXED_CONFIDENCE:.0%} interval]", r, label))
    for shape in fault_shapes(run):
        cells = [f"{c}: " + _fault_cell(run, shape, c).split(": ", 1)[1] for c in run.clients]
        out.append(f"{shape} (the server misbehaves; not ranked): " + "; ".join(cells) + ".")
    ll = long_lived(run)
    for shape, g in ll.groupby("shape", sort=False):
        cells = [f"{r['client']} held {r['held']:.0f} of {r['asked']:.0f}, {fmt_bytes(r['heap/req'])} heap and "
                 f"{r['threads/req']:.2f} threads per request" if not r["failed"] else f"{r['client']} failed: {r['failed']}"
                 for _, r in g.iterrows()]
        out.append(f"{shape} (long-lived requests; not ranked): " + "; ".join(cells) + ".")
    return out


def _interval_words(r: Ranking, client: str, fmt) -> str:
    """' [low-high]': a ranked fixed-rate figure's interval (window_interval), '' for a client without one."""
    if client not in r.intervals:
        return ""
    _, lo, hi = r.intervals[client]
    return f" [{fmt(lo)}-{fmt(hi)}]"


def _sentence(shape: str, what: str, r: Ranking, label, warm_up: str = "") -> str:
    s = f"{shape} ({what}): "
    if not r.groups:
        s += "no ranking: no client qualifies"
    elif len(r.groups[0]) == 1 and len(r.groups) > 1:
        s += (f"{label(r.groups[0][0])} leads, its interval clear of the rest"
              + ("; then " + _group_words(r.groups[1:], label) if len(r.groups) > 1 else ""))
    elif len(r.groups) == 1 and len(r.groups[0]) == 1:
        s += f"only {label(r.groups[0][0])} qualifies"
    else:
        s += "no winner: " + _group_words(r.groups, label)
    if any(len(g) > 2 for g in r.groups):
        # tie_groups chains overlaps: the group's ends may be apart (ahc's [25322-57190) and jetty-vt's
        # [3452-8000) in one group of run 20261124-012039-vm); "intervals overlap" said more than that.
        s += " (a tie: each interval overlaps the span of those above it, no gap to rank by; clients far apart in it may still differ)"
    elif any(len(g) == 2 for g in r.groups):
        s += " (intervals overlap)"
    if r.unranked:
        s += ". Not ranked: " + "; ".join(f"{c} ({why})" for c, why in r.unranked)
    if warm_up:
        s += ". Warm-up: " + warm_up
    return s + "."


def conditions(run: Run) -> str:
    m = run.env.get("machine", {})
    jdk = run.env.get("launcherJdk", {})
    slo = run.slo
    apart = set(run.env.get("forksApart", []))  # Java: Profile.schedule
    shapes = ", ".join(f"{s['name']} ({s['timings']['forks']} fork{'s' if s['timings']['forks'] != 1 else ''}"
                       f"{', one at the start of the run and the next at its end' if s['name'] in apart else ''})"
                       if s.get("timings") else s["name"] for s in run.env.get("shapes", []))
    return (f"Holds for: {m.get('cpuCount', '?')} cores of {m.get('cpuModel', '?')}, {m.get('os', '')} "
            f"{m.get('kernel', '')}; JDK {jdk.get('version', '?')} ({jdk.get('vendor', '?')}); profile "
            f"{run.env.get('profile', '?')}; SLO: {slo['okShare']:.1%} ok, latency p99 within "
            f"{slo['latencyP99Millis']:g} ms of the server's delay, {run.slo_flags}; shapes: {shapes}.")


def decision_text(d: Decision, width: int = 26) -> str:
    """The terminal's version of the report's first screen: the same table (cells wrapped to `width`
    characters) and the same sentences."""
    lines = [f"{d.run}: {d.purpose}"]
    if d.first_look:
        lines.append("NOT FOR DECISIONS: run ./bench --profile standard before deciding.")
    lines += ["", _grid(d.table, width)] if not d.table.empty else []
    lines += ["  " + n for n in d.notes]
    lines += ["", "verdict:"] + ["  - " + v for v in d.verdict] + ["", d.conditions]
    return "\n".join(lines) + "\n"


def _grid(table: pd.DataFrame, width: int) -> str:
    header = [table.index.name or ""] + [str(c) for c in table.columns]
    rows = [[str(i)] + [str(v) for v in r] for i, r in zip(table.index, table.itertuples(index=False))]
    cells = [[textwrap.wrap(c, width) or [""] for c in row] for row in [header] + rows]
    widths = [max(len(line) for row in cells for line in row[i]) for i in range(len(header))]
    out = []
    for n, row in enumerate(cells):
        for k in range(max(len(c) for c in row)):
            out.append("  ".join((c[k] if k < len(c) else "").ljust(w) for c, w in zip(row, widths)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


# ---------------------------------------------------------------- two runs

@dataclass
class Agreement:
    a: str
    b: str
    knees: pd.DataFrame
    groups: list  # (shape, ranking a, ranking b)
    unmatched: list  # what one run measured and the other did not: "shape/client only in a"
    spreads: list  # (shape, sd a, sd b): between forks, of log knee (knee_spread), measured on that shape
    figures: pd.DataFrame  # fixed-rate figures ranked in both: shape, client, x.a, x.b, b.in.a, a.in.b
    noise: list = field(default_factory=list)  # per run ("a", "b"): what its windows held (noise_words), or ""

    @property
    def agree(self) -> bool:
        return (not self.unmatched and bool(self.knees["within"].all())
                and all(ra.key() == rb.key() for _, ra, rb in self.groups))

    def lines(self) -> list:
        k = self.knees
        out = [f"{self.a} vs {self.b}: the runs {'agree' if self.agree else 'do not agree'} "
               f"(knees within {REPEAT_TOLERANCE:.0%} of each other and the same tie groups)"]
        if not k.empty:
            worst = k.loc[k["diff"].idxmax()]
            out.append(f"  knees within {REPEAT_TOLERANCE:.0%}: {int(k['within'].sum())} of {len(k)} (shape, client); "
                       f"largest difference {worst['diff']:.0%} ({worst['shape']}/{worst['client']}: "
                       f"{fmt_rate(worst['knee.a'])} vs {fmt_rate(worst['knee.b'])} req/s)")
            clean = k[k["clean"]]
            out.append(f"  knees ranked in both runs: {int(clean['within'].sum())} of {len(clean)} within "
                       f"{REPEAT_TOLERANCE:.0%} (a flagged search, a flag at its bound, and an open one, no rate failed "
                       "before its budget ran out, are not ranked: their knees are no figure of the client's)")
            inside = int(k["b.in.a"].sum() + k["a.in.b"].sum())
            out.append(f"  a knee inside the other run's {KNEE_CONFIDENCE:.0%} interval: {inside} of {2 * len(k)} "
                       "(each run's knee against the other's interval)")
        for shape, sa, sb in self.spreads:
            worst = max(sa, sb)
            out.append(f"  {shape}: forks' knees vary by {math.expm1(sa):.0%} in a and {math.expm1(sb):.0%} in b (1 sd, "
                       f"pooled over clients); knees within {REPEAT_TOLERANCE:.0%} in {KNEE_CONFIDENCE:.0%} of repeats "
                       f"would take about {forks_for_agreement(worst)} forks a run at the larger")
        if self.unmatched:
            more = f" and {len(self.unmatched) - 6} more" if len(self.unmatched) > 6 else ""
            out.append(f"  not the same runs: {', '.join(self.unmatched[:6])}{more}")
        if not self.figures.empty:
            inside = int(self.figures["b.in.a"].sum() + self.figures["a.in.b"].sum())
            out.append(f"  a fixed-rate figure (p99; a closed loop's ok/s) inside the other run's {FIXED_CONFIDENCE:.0%} "
                       f"interval: {inside} of {2 * len(self.figures)} (clients ranked in both runs)")
        same = sum(ra.key() == rb.key() for _, ra, rb in self.groups)
        out.append(f"  tie groups the same in {same} of {len(self.groups)} ranked shapes")
        pairs = [(shape, pair_relations(ra, rb)) for shape, ra, rb in self.groups]
        ordered = sum(_same_order(p) for _, p in pairs)
        out.append(f"  the same order among the clients ranked in both runs (groups cut to them; who was not ranked "
                   f"set aside) in {ordered} of {len(self.groups)}")
        alike, apart = sum(p[0] for _, p in pairs), sum(p[1] for _, p in pairs)
        opposite = [f"{shape}: {o}" for shape, p in pairs for o in p[2]]
        out.append(f"  pairs of clients ranked in both runs, over the ranked shapes: {alike + apart + len(opposite)}; "
                   f"in opposite order (one run puts x above y, the other y above x) {len(opposite)}, apart in one run "
                   f"and tied in the other {apart}, alike {alike}")
        for label, words in self.noise:
            if words:
                out.append(f"  {label}: {words}")
        for shape, ra, rb in self.groups:
            if ra.key() != rb.key():
                out.append(f"    {shape}: {_groups_text(ra)} vs {_groups_text(rb)}")
        out += [f"    in opposite order: {o}" for o in opposite]
        for _, r in k[~k["within"]].iterrows():
            out.append(f"    {r['shape']}/{r['client']}: knee {fmt_rate(r['knee.a'])} vs {fmt_rate(r['knee.b'])} req/s")
        return out


def pair_relations(a: Ranking, b: Ranking) -> tuple:
    """Over the pairs of clients both rankings rank: (alike, apart in one run and tied in the other, opposite), the
    last a list of "x above y vs y above x". Alike: tied in both, or the same one above in both. What a team acts on
    is which client is above which: two runs that never put a pair in opposite order do not contradict each other,
    though one may tell apart what the other ties."""
    pos = [{c: i for i, g in enumerate(r.groups) for c in g} for r in (a, b)]
    both = sorted(set(pos[0]) & set(pos[1]))
    alike, apart, opposite = 0, 0, []
    for i, x in enumerate(both):
        for y in both[i + 1:]:
            da, db = (_sign(p[y] - p[x]) for p in pos)  # 1: x above y (an earlier group), -1: below, 0: tied
            if da == db:
                alike += 1
            elif da and db:
                opposite.append(f"{x} above {y} vs {y} above {x}" if da > 0 else f"{y} above {x} vs {x} above {y}")
            else:
                apart += 1
    return alike, apart, opposite


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def _order_among_both(a: Ranking, b: Ranking) -> bool:
    """Whether two rankings order the clients both ranked alike (each run's tie groups cut to those clients are the
    same; a client one run left unranked, flagged or still compiling, say, is set aside)."""
    return _same_order(pair_relations(a, b))


def _same_order(relations: tuple) -> bool:
    """pair_relations' answer says the same order: every pair alike (none apart in one run only, none opposite)."""
    _, apart, opposite = relations
    return not apart and not opposite


def _groups_text(r: Ranking) -> str:
    ranked = " > ".join("{" + ", ".join(g) + "}" for g in r.groups) or "no ranking"
    return ranked + (" (unranked: " + ", ".join(c for c, _ in r.unranked) + ")" if r.unranked else "")


def agreement(a: Run, b: Run) -> Agreement:
    """Whether two runs agree (issue 14.3): each knee within 10% of the other's (|a-b| <= 10% of the larger),
    and the same tie groups in every shape ranked in both."""
    ka, kb = knees(a), knees(b)
    j = ka.merge(kb, on=["shape", "client"], suffixes=(".a", ".b"))
    rows = []
    for _, r in j.iterrows():
        x, y = r["median.a"], r["median.b"]
        diff = 0.0 if max(x, y) == 0 else abs(x - y) / max(x, y)
        rows.append({"shape": r["shape"], "client": r["client"], "knee.a": x, "knee.b": y, "diff": diff,
                     "within": diff <= REPEAT_TOLERANCE, "b.in.a": r["low.a"] <= y <= r["high.a"],
                     "a.in.b": r["low.b"] <= x <= r["high.b"],
                     "clean": r["status.a"] in RANKED_KNEES and r["status.b"] in RANKED_KNEES})
    sa, sb = knee_spread(ka), knee_spread(kb)
    spreads = [(s, sa[s][0], sb[s][0]) for s in sa if s in sb and sa[s][3] == s and sb[s][3] == s]
    groups = []
    for shape in [s for s in capacity_shapes(b) if s in capacity_shapes(a)]:
        groups.append((shape, rank_capacity(a, shape), rank_capacity(b, shape)))
    for shape in [s for s in open_shapes(b) if s in open_shapes(a)]:
        groups.append((shape, rank_open(a, shape), rank_open(b, shape)))
    for shape in [s for s in closed_shapes(b) if s in closed_shapes(a)]:
        groups.append((shape, rank_closed(a, shape), rank_closed(b, shape)))
    figures = [{"shape": shape, "client": c, "x.a": ra.intervals[c][0], "x.b": rb.intervals[c][0],
                "b.in.a": ra.intervals[c][1] <= rb.intervals[c][0] <= ra.intervals[c][2],
                "a.in.b": rb.intervals[c][1] <= ra.intervals[c][0] <= rb.intervals[c][2]}
               for shape, ra, rb in groups for c in ra.intervals if c in rb.intervals]
    pairs = {n: {(r["shape"], r["client"]) for r in run.summary["runs"] + run.summary["capacity"]} for n, run in (("a", a), ("b", b))}
    unmatched = [f"{s}/{c} only in {n}" for n, other in (("a", "b"), ("b", "a"))
                 for s, c in sorted(pairs[n] - pairs[other])]
    return Agreement(a.name, b.name, pd.DataFrame(rows, columns=["shape", "client", "knee.a", "knee.b", "diff", "within",
                                                                 "b.in.a", "a.in.b", "clean"]),
                     groups, unmatched, spreads,
                     pd.DataFrame(figures, columns=["shape", "client", "x.a", "x.b", "b.in.a", "a.in.b"]),
                     [("a", noise_words(a)), ("b", noise_words(b))])


def noise_words(run: Run) -> str:
    """The host's steal over a run's measured windows and what its capacity shapes' misses held (miss_causes):
    what may differ between two runs of one code. '' for a run that recorded neither."""
    it = iterations(run)
    steal = it[it["measured"]]["steal"].dropna() if not it.empty else pd.Series(dtype=float)
    out = []
    if not steal.empty:
        out.append(f"host steal in measured windows: median {steal.median():.1%}, 95th percentile "
                   f"{steal.quantile(0.95):.1%}, most {steal.max():.1%}")
    bound = run.slo["latencyP99Millis"]
    for shape in capacity_shapes(run):
        c = miss_causes(run, shape)
        if c and c["misses"]:
            out.append(f"{shape}: {c['misses']} misses, {c['gc'][0]} with a GC pause of {bound:g} ms or more "
                       f"({c['gc'][1]} of {c['kept']} kept), {c['jit'][0]} with the JIT over {JIT_WARMING:.0%} "
                       f"({c['jit'][1]}), {c['steal'][0]} with steal {STEAL_NOISY:.0%} or more ({c['steal'][1]}), "
                       f"{c['none']} with none")
    return "; ".join(out)


def forks_for_agreement(sd: float) -> int:
    """Forks a run needs for two runs' knees (each the mean log knee over its forks) to lie within
    REPEAT_TOLERANCE of each other with KNEE_CONFIDENCE, when one fork's log knee has this sd: the difference
    of two means of n has sd * sqrt(2 / n), and must stay within -log(1 - tolerance)."""
    from scipy import stats

    z = stats.norm.ppf(0.5 + KNEE_CONFIDENCE / 2)
    return max(1, math.ceil(2 * (z * sd / -math.log1p(-REPEAT_TOLERANCE)) ** 2))
