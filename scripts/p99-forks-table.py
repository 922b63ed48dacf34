#!/usr/bin/env python3
"""The table of scripts/p99-forks.sh, from its folder: per condition, how far the forks' p50, p99 and CPU per request
spread, how much of a fork's p99 is the JVM's own rather than its windows' noise, and how long forks took to settle.

    .venv/bin/python scripts/p99-forks-table.py OUT CONDITION [CONDITION ...]

Each fork's measured windows are its record's `latency` intervals (analysis.load). On the natural log of each window's p99: the spread
of windows within a fork (pooled sd), and the JVM's own spread, what the forks' means spread beyond their windows'
noise (one-way random effects, method of moments: var(fork means) - within / windows, 0 when negative). With windows
that were alike but for noise, the JVM's own part is 0 and more windows a fork would narrow a fork's p99 at will.
"""
import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from analysis import load as cbl  # noqa: E402


def trials(folder: Path) -> list:
    """The folder's forks that finished (their .hlog written), in name order."""
    found = [cbl.Trial(p, json.loads(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("*.trial.json"))]
    return [t for t in found if (t.path.parent / t.record["hlog"]).is_file()]


def merged_at(hs: list, percentile: float) -> float:
    return cbl.merged(hs).get_value_at_percentile(percentile)


def sd_ln(xs: list) -> float:
    return statistics.stdev(math.log(x) for x in xs)


def own_and_within(forks: list) -> tuple:
    """(the JVM's own sd, the windows' sd within a fork), on ln of each window's p99; forks of 2 or more windows."""
    logs = [[math.log(w) for w in ws] for ws in forks if len(ws) >= 2]
    within_df = sum(len(ls) - 1 for ls in logs)
    within_var = sum((x - statistics.fmean(ls)) ** 2 for ls in logs for x in ls) / within_df
    n = statistics.fmean(len(ls) for ls in logs)
    means_var = statistics.variance([statistics.fmean(ls) for ls in logs])
    return math.sqrt(max(0.0, means_var - within_var / n)), math.sqrt(within_var)


def cpu_us(t: cbl.Trial) -> float:
    """The fork's CPU per request over its measured windows, less the JIT compilers' (as every CPU figure counts it)."""
    its = [it for it in t.record["iterations"] if it["measured"]]
    return sum(cbl.cpu_ns(it, t.record) for it in its) / sum(it["ok"] for it in its) / 1000


def row(out: Path, condition: str) -> str:
    done = [t for t in trials(out / condition) if t.intervals("latency")]
    forks = [t.intervals("latency") for t in done]
    if len(forks) < 2:
        return f"| {condition} | {len(forks)} | - | - | - | - | - | - | - | - | - | - | - |"
    cpus = [cpu_us(t) for t in done]
    settle = statistics.median(t.record["warmup"]["seconds"] for t in done)
    p50s = [merged_at(ws, 50) for ws in forks]
    p99s = [merged_at(ws, 99) for ws in forks]
    later = [merged_at(ws[1:], 99) for ws in forks if len(ws) > 1]
    window_p99s = [[h.get_value_at_percentile(99) for h in ws] for ws in forks]
    first = sum(ws[0] == max(ws) for ws in window_p99s if len(ws) > 1)
    n = round(statistics.fmean(len(ws) for ws in window_p99s))
    own, within = own_and_within(window_p99s)
    return (f"| {condition} | {len(forks)} x {n} | {statistics.median(p50s):.0f} | {statistics.median(p99s):.0f}"
            f" ({min(p99s)}-{max(p99s)}) | {sd_ln(p50s):.3f} | {sd_ln(p99s):.3f} | {sd_ln(later):.3f} | {within:.3f}"
            f" | {own:.3f} | {first} of {len(forks)} (chance {len(forks) / n:.0f}) | {statistics.median(cpus):.1f}"
            f" | {sd_ln(cpus):.3f} | {settle:.0f} |")


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit("usage: p99-forks-table.py OUT CONDITION [CONDITION ...]")
    out = Path(sys.argv[1])
    print("| condition | forks x windows | p50 us (median) | p99 us (median, min-max) | sd ln p50 | sd ln p99"
          " | sd ln p99, first window out | sd ln window p99 within a fork | the JVM's own sd ln p99"
          " | first window's p99 the fork's largest | CPU us/req (median, compilers out) | sd ln CPU | settle s (median) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for c in sys.argv[2:]:
        print(row(out, c))


if __name__ == "__main__":
    main()
