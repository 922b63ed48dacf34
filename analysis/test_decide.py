"""The verdict: ranked per figure from per-fork facts, written once, printed short; and two runs compared."""
import csv
import io
import json
import math
import random
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from analysis.decide import verdict as cbd
from analysis.report import estimates as est
from analysis import load as cbl
from analysis.stats import pairwise as cbs

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "run-small"


@pytest.fixture
def run_copy(tmp_path):
    dst = tmp_path / FIXTURE.name
    shutil.copytree(FIXTURE, dst)
    return cbl.load_run(dst)


def _fake_run(forks: pd.DataFrame, shapes: list, clients: list, tmp_path: Path) -> cbl.Run:
    """A run whose per-fork facts are given: the verdict reads nothing else of it."""
    env = {"clients": clients, "shapes": shapes, "machine": {"cpuModel": "Test CPU", "cpuCount": 2},
           "launcherJdk": {"version": "25"}, "profile": "standard", "purpose": "for decisions", "rounds": [],
           "runs": [], "settings": {"requestTimeout": "PT5S"}}
    run = cbl.Run("fake", tmp_path, env, {"definitions": {"slo": cbl.THRESHOLDS["slo"]}, "runs": [], "capacity": []}, [])
    run._memo[("forks",)] = forks
    return run


def _forks(rows: list) -> pd.DataFrame:
    base = {"started": 0, "sent": 8000, "ok/s": math.nan, "cpu": math.nan, "cpu.clock": "ns", "cpu.compilers": "out",
            "alloc": math.nan, "syscalls": math.nan,
            "cswitches": math.nan, "p50": math.nan, "p99": math.nan, "jit": 0.0, "steal": 0.0, "flags": (),
            "windows": 3, "kernel": True, "knee": math.nan, "knee.high": math.nan, "knee.status": "",
            "knee.flags": ()}
    return pd.DataFrame([{**base, **r} for r in rows])


OPEN = {"name": "rate-4000", "benchmark": "clientbench.jmh.OpenLoopBenchmark.request", "rounds": 3,
        "params": {"rate": "4000", "delayMs": "0", "protocol": "http1"}}
KNEES = {"name": "capacity-http1", "benchmark": "clientbench.jmh.CapacityBenchmark.request", "rounds": 2,
         "params": {"protocol": "http1"}}


def test_costs_are_net_of_noop_in_the_same_round(tmp_path):
    # noop's cost doubles in round 2 (a slow spell): net of it, each client's cost is the same in every round.
    rows = []
    for r, noop in ((1, 10.0), (2, 20.0), (3, 10.0)):
        rows.append({"shape": "rate-4000", "client": "noop", "round": r, "cpu": noop})
        rows.append({"shape": "rate-4000", "client": "lean", "round": r, "cpu": noop + 30 * (1 + 0.01 * r)})
        rows.append({"shape": "rate-4000", "client": "heavy", "round": r, "cpu": noop + 90 * (1 - 0.01 * r)})
    run = _fake_run(_forks(rows), [OPEN], ["lean", "heavy"], tmp_path)
    f = cbd.rank(run, "rate-4000", cbd.BY_KEY["cpu"])
    assert f["tiers"] == [["lean"], ["heavy"]]
    assert f["clients"]["lean"]["value"] == pytest.approx(30.6, rel=0.02)
    assert {k: v for k, v in f["pairs"].items() if k != "ratios"} == {
        "separated": 1, "of": 1, "apart": [{"better": "lean", "worse": "heavy"}], "withheld": []}
    (ratio,) = f["pairs"]["ratios"]
    assert ratio["ratio"] == pytest.approx(30.6 / 89.0, rel=0.02) and ratio["high"] < 1


def test_a_late_pacer_marks_latency_but_not_what_a_request_costs(tmp_path):
    rows = []
    for r in (1, 2, 3):
        rows.append({"shape": "rate-4000", "client": "noop", "round": r, "cpu": 10.0, "p99": 200.0})
        for c, cpu in (("lean", 40.0), ("heavy", 90.0)):
            rows.append({"shape": "rate-4000", "client": c, "round": r, "cpu": cpu + r, "p99": 20 * cpu + r,
                         "flags": ("lag", "generator") if c == "heavy" else ("lag",)})
    run = _fake_run(_forks(rows), [OPEN], ["lean", "heavy"], tmp_path)
    cpu, p99 = cbd.rank(run, "rate-4000", cbd.BY_KEY["cpu"]), cbd.rank(run, "rate-4000", cbd.BY_KEY["p99"])
    assert cpu["clients"]["lean"]["marks"] == [] and cpu["clients"]["heavy"]["marks"] == ["gen"]
    assert p99["clients"]["lean"]["marks"] == ["lag"] and p99["clients"]["heavy"]["marks"] == ["gen", "lag"]


def test_an_open_or_flagged_knee_is_never_found_worse(tmp_path):
    rows = []
    for r in (1, 2):
        rows.append({"shape": "capacity-http1", "client": "fast", "round": r, "knee": 32000 + 500 * r,
                     "knee.status": "converged"})
        rows.append({"shape": "capacity-http1", "client": "capped", "round": r, "knee": 4000,
                     "knee.status": "open" if r == 1 else "converged"})
        rows.append({"shape": "capacity-http1", "client": "slow", "round": r, "knee": 1000 + 10 * r,
                     "knee.status": "converged"})
    run = _fake_run(_forks(rows), [KNEES], ["fast", "capped", "slow"], tmp_path)
    f = cbd.rank(run, "capacity-http1", cbd.BY_KEY["knee"])
    pairs = {(p["better"], p["worse"]) for p in f["pairs"]["apart"]}
    assert ("fast", "capped") not in pairs and {"better": "fast", "lowerBound": "capped"} in f["pairs"]["withheld"]
    assert "open" in f["clients"]["capped"]["marks"]
    assert set(f["clients"]["fast"]["letters"]) & set(f["clients"]["capped"]["letters"])


def test_a_latency_on_too_few_samples_is_not_ranked_and_says_why(tmp_path):
    rows = [{"shape": "rate-4000", "client": c, "round": r, "p99": 1000.0 * (i + 1) * (1 + 0.01 * r),
             "flags": ("samples",) if c == "thin" else ()}
            for i, c in enumerate(["a", "b", "thin"]) for r in (1, 2, 3)]
    run = _fake_run(_forks(rows), [OPEN], ["a", "b", "thin"], tmp_path)
    f = cbd.rank(run, "rate-4000", cbd.BY_KEY["p99"])
    assert "thin" not in f["clients"] and "1,000 latencies" in f["notRanked"]["thin"]


def test_every_ranked_figure_of_the_fixture_is_consistent_with_its_pairs(run_copy):
    v = cbd.verdict(run_copy)
    assert v["holdsFor"]["cpuModel"] == run_copy.env["machine"]["cpuModel"]
    assert v["shapes"], "the fixture ranks something"
    for s in v["shapes"]:
        for f in s["figures"]:
            clients = [c for c in f["clients"] if f["clients"][c]["letters"]]
            assert sorted(set(f["clients"]) - set(clients)) == sorted(f["unlettered"])
            n, shown = len(clients), len(f["clients"])
            assert n * (n - 1) // 2 == len(f["pairs"]["ratios"]), "a ratio per pair of lettered clients"
            assert f["pairs"]["of"] == shown * (shown - 1) // 2, "every pair of the clients shown"
            assert sorted({c for t in f["tiers"] for c in t}) == sorted(clients)
            apart = {frozenset((p["better"], p["worse"])) for p in f["pairs"]["apart"]}
            assert len(apart) == f["pairs"]["separated"]
            for i, x in enumerate(clients):
                for y in clients[i + 1:]:
                    share = set(f["clients"][x]["letters"]) & set(f["clients"][y]["letters"])
                    assert bool(share) == (frozenset((x, y)) not in apart), (s["shape"], f["figure"], x, y)
            assert not set(f["notRanked"]) & set(clients)
            assert cbl.NOOP not in clients


def test_the_verdict_is_written_once_into_summary_and_results_csv(run_copy):
    before = (run_copy.path / "results.csv").read_text(encoding="utf-8")
    v = cbd.verdict(run_copy)
    cbd.write(run_copy, v)
    est.write_csv(run_copy, v)
    summary = json.loads((run_copy.path / "summary.json").read_text(encoding="utf-8"))
    assert summary["verdict"] == json.loads(json.dumps(v))
    assert summary["runs"] == run_copy.summary["runs"], "the facts are kept"
    rows = list(csv.DictReader(io.StringIO((run_copy.path / "results.csv").read_text(encoding="utf-8"))))
    old = list(csv.DictReader(io.StringIO(before)))
    assert [{k: r[k] for k in old[0]} for r in rows] == old, "every column as it was"
    f = v["shapes"][0]["figures"][0]
    row = next(r for r in rows if r["shape"] == v["shapes"][0]["shape"] and r["client"] == f["tiers"][0][0])
    assert row[f"tier.{f['figure']}"] == f["clients"][f["tiers"][0][0]]["letters"]
    est.write_csv(cbl.load_run(run_copy.path), v)  # again: the analysis's columns are replaced, not added twice
    header = (run_copy.path / "results.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert len(header) == len(set(header))
    assert not list(run_copy.path.glob("*.tmp"))


def test_twelve_clients_over_two_shapes_fit_forty_lines_of_120_characters(tmp_path):
    rnd = random.Random(1)
    clients = ["ahc", "apache", "jetty", "okhttp", "jdk", "apache-vt", "jetty-vt", "okhttp-vt", "jdk-vt", "reactor",
               "vertx", "helidon"]
    rows = []
    for r in (1, 2, 3):
        rows.append({"shape": "rate-4000", "client": "noop", "round": r, "cpu": 10.0, "alloc": 500.0, "syscalls": 1.0,
                     "cswitches": 0.2, "p50": 150.0, "p99": 900.0})
        for i, c in enumerate(clients):
            g = lambda x: x * (1.2 ** i) * math.exp(rnd.gauss(0, 0.02))  # noqa: E731
            rows.append({"shape": "rate-4000", "client": c, "round": r, "cpu": g(24), "alloc": g(3800),
                         "syscalls": g(3), "cswitches": g(1.2), "p50": g(180), "p99": g(1500)})
        for i, c in enumerate(clients):
            rows.append({"shape": "capacity-http1", "client": c, "round": r, "knee": 38000 / (1.15 ** i),
                         "knee.status": "converged"})
    run = _fake_run(_forks(rows), [OPEN, KNEES], clients, tmp_path)
    text = cbd.terminal_verdict(run, cbd.verdict(run))
    lines = text.splitlines()
    assert len(lines) <= 40, text
    assert max(map(len, lines)) <= 120, text
    assert "2 cores of Test CPU" in lines[0] and "JDK 25" in lines[0]


def test_two_runs_count_the_pairs_they_put_in_opposite_order(run_copy, tmp_path):
    v = cbd.verdict(run_copy)
    figure = next(f for s in v["shapes"] for f in s["figures"] if f["pairs"]["apart"])
    flipped = json.loads(json.dumps(v))
    for s in flipped["shapes"]:
        for f in s["figures"]:
            if (s["shape"], f["figure"]) == (figure["shape"], figure["figure"]):
                f["pairs"]["apart"] = [{"better": p["worse"], "worse": p["better"]} for p in f["pairs"]["apart"]]
    a, b = run_copy, cbl.load_run(run_copy.path)
    a.summary["verdict"], b.summary["verdict"] = v, flipped
    rows = {(r["shape"], r["figure"]): r for r in cbd.compare_runs(a, b)}
    row = rows[(figure["shape"], figure["figure"])]
    assert row["opposite"] == figure["pairs"]["separated"]
    assert all(r["opposite"] == 0 for k, r in rows.items() if k != (figure["shape"], figure["figure"]))
    assert sum(r["opposite"] for r in rows.values()) == figure["pairs"]["separated"]


def _p50_rows(clients: dict, rounds=(1, 2, 3), shape="rate-4000", **extra) -> list:
    """One fork per client and round: p50 = the client's base x the round's host factor x a small wobble of its own;
    `extra`: client -> {round: {column: value}} over that."""
    host = {1: 1.3, 2: 1.0, 3: 1.05}
    rows = []
    for i, (c, base) in enumerate(clients.items()):
        for r in rounds:
            row = {"shape": shape, "client": c, "round": r, "p50": base * host[r] * (1 + 0.01 * ((i + r) % 3 - 1)),
                   "p50.width": 1.0, "steady": True}
            rows.append({**row, **extra.get(c, {}).get(r, {})})
    return rows


def test_a_fork_that_never_settled_is_shown_but_kept_out_of_the_round_effects_and_the_letters(tmp_path):
    base = {"a": 150.0, "b": 180.0, "c": 220.0, "d": 260.0, "late": 300.0, "cold": 170.0}
    extra = {"late": {1: {"p50": 3000.0, "steady": False}},  # ten times its steady rounds, never settled
             "cold": {1: {"steady": False}, 2: {"steady": False}}}
    run = _fake_run(_forks(_p50_rows(base, **extra)), [OPEN], list(base), tmp_path)
    f = cbd.rank(run, "rate-4000", cbd.BY_KEY["p50"])
    late, cold = f["clients"]["late"], f["clients"]["cold"]
    assert "unsteady" in late["marks"] and late["n"] == 2 and late["letters"]
    assert late["value"] / f["clients"]["a"]["value"] == pytest.approx(2.0, rel=0.03), "its steady rounds' figure"
    assert cold["letters"] == "" and "never settled" in f["unlettered"]["cold"] and "unsteady" in cold["marks"]
    assert f["sd"] < 0.03, "the unsettled fork's 10x is in no one's residual"
    assert f["pairs"]["separated"] == 10, "a-b-c-d-late 15-20% apart on a 1% spread"
    assert f["pairs"]["of"] == 15, "every pair of the six clients shown, cold's five too"
    assert "unsteady" in cbd.MARKS


def test_the_pairs_a_figure_states_are_those_it_counts_an_unlettered_clients_open(tmp_path):
    base = {"a": 150.0, "b": 180.0, "c": 220.0, "cold": 260.0}
    run = _fake_run(_forks(_p50_rows(base, cold={1: {"steady": False}, 2: {"steady": False}})), [OPEN], list(base),
                    tmp_path)
    v = cbd.verdict(run)
    [line] = [x for x in cbd.decided_lines(run, v) if x.startswith("p50 ")]
    said = re.fullmatch(r"p50 @4k, (\d+) pairs: (\d+) apart, (\d+) alike within x1\.10, (\d+) open( \(.*\))?", line)
    assert said, line
    stated, apart, alike, opened = (int(x) for x in said.groups()[:4])
    assert stated == apart + alike + opened == 6, line  # four clients shown: 4 x 3 / 2
    assert apart == 3 and opened == 3, "a-b-c apart on a 1% spread; cold's three pairs have no interval: " + line
    assert "(3 with cold, unlettered)" in line, line


def test_forks_read_whether_their_warm_up_settled_and_their_latency_buckets(tmp_path):
    run_dir = tmp_path / FIXTURE.name
    shutil.copytree(FIXTURE, run_dir)
    trial = next(run_dir.glob("OpenLoopBenchmark.request-okhttp-*.trial.json"))
    record = json.loads(trial.read_text(encoding="utf-8"))
    record["warmup"] = {"steady": False, "windows": 8, "seconds": 16.0, "boundSeconds": 16.0,
                        "why": "p50 still moving"}
    trial.write_text(json.dumps(record), encoding="utf-8")
    f = cbl.forks(cbl.load_run(run_dir))
    marked = f[~f["steady"]]
    assert len(marked) == 1 and marked.iloc[0]["client"] == "okhttp"
    assert marked.iloc[0]["shape"] == record["shape"] and marked.iloc[0]["round"] == record.get("round", 1)
    assert f["steady"].sum() == len(f) - 1
    # 3 significant digits: the bucket holding v is 1 us wide below 2,048 us and doubles with each power of two above
    for col in ("p50", "p99"):
        for v, width in zip(f[col], f[f"{col}.width"]):
            assert v < 1 or width == 2 ** max(0, int(math.log2(v)) - 10), (col, v, width)


def test_a_shape_of_one_round_is_shown_without_letters_and_says_why(tmp_path):
    base = {"a": 150.0, "b": 300.0, "c": 600.0}
    run = _fake_run(_forks(_p50_rows(base, rounds=(1,))), [{**OPEN, "rounds": 1}], list(base), tmp_path)
    f = cbd.rank(run, "rate-4000", cbd.BY_KEY["p50"])
    assert f["method"] == "none" and f["tiers"] == [] and f["pairs"]["ratios"] == []
    assert f["pairs"]["of"] == 3 and f["decided"]["open"] == f["decided"]["unletteredPairs"] == 3, "no pair told apart"
    assert {c["letters"] for c in f["clients"].values()} == {""}
    assert f["clients"]["c"]["value"] == pytest.approx(600 * 1.3, rel=0.02) and f["clients"]["c"]["high"] is None
    assert "one round" in f["why"] and set(f["unlettered"]) == set(base)


def test_a_latency_within_one_bucket_beyond_the_delay_is_not_ranked(tmp_path):
    # At 1 s the histogram's bucket is 512 us wide: 1,000,447 us is 447 us beyond the delay, within its bucket.
    shape = {**OPEN, "name": "delay1s-1000", "params": {"rate": "1000", "delayMs": "1000", "protocol": "http1"}}
    rows = [{"shape": "delay1s-1000", "client": c, "round": r, "p50": p50, "p50.width": 512.0, "steady": True}
            for c, p50 in (("a", 1_000_447.0), ("b", 1_000_447.0), ("slow", 1_001_983.0)) for r in (1, 2, 3)]
    run = _fake_run(_forks(rows), [shape], ["a", "b", "slow"], tmp_path)
    f = cbd.rank(run, "delay1s-1000", cbd.BY_KEY["p50"])
    assert set(f["notRanked"]) == {"a", "b"} and "within one bucket" in f["notRanked"]["a"]
    assert f["clients"]["slow"]["value"] == pytest.approx(1983) and f["pairs"]["apart"] == []


def test_each_pair_has_its_ratio_and_interval_in_summary_json(tmp_path):
    base = {"a": 150.0, "b": 151.0, "c": 300.0, "d": 310.0}
    run = _fake_run(_forks(_p50_rows(base)), [OPEN], list(base), tmp_path)
    v = json.loads(json.dumps(cbd.verdict(run), allow_nan=False))
    f = v["shapes"][0]["figures"][0]
    order = list(f["clients"])
    assert [(r["x"], r["y"]) for r in f["pairs"]["ratios"]] == [(x, y) for i, x in enumerate(order)
                                                                 for y in order[i + 1:]]
    apart = {(p["better"], p["worse"]) for p in f["pairs"]["apart"]}
    for r in f["pairs"]["ratios"]:
        assert set(r) == {"x", "y", "ratio", "low", "high", "relation", "state", "shows"}
        assert r["ratio"] == pytest.approx(f["clients"][r["x"]]["value"] / f["clients"][r["y"]]["value"], rel=1e-3)
        assert r["low"] <= r["ratio"] <= r["high"]
        assert (r["relation"] == "better") == ((r["x"], r["y"]) in apart) == (r["high"] < 1)
        assert r["relation"] in ("better", "not separated")
    near = next(r for r in f["pairs"]["ratios"] if (r["x"], r["y"]) == ("a", "b"))
    assert near["relation"] == "not separated" and near["high"] < 1.2, "within a few percent, not merely 'tied'"
    far = next(r for r in f["pairs"]["ratios"] if (r["x"], r["y"]) == ("a", "c"))
    assert far["relation"] == "better" and far["low"] < 0.5 < far["high"]


def _clocked(clocks: dict, noop_clock: str = "ns") -> pd.DataFrame:
    """Three rounds of lean (30 us net) and heavy (90 us net), heavy's round 2 CPU taken on `clocks[heavy]`'s clock."""
    rows = []
    for r in (1, 2, 3):
        rows.append({"shape": "rate-4000", "client": "noop", "round": r, "cpu": 10.0,
                     "cpu.clock": noop_clock if r == 2 else "ns"})
        for c, cpu in (("lean", 40.0), ("heavy", 100.0)):
            rows.append({"shape": "rate-4000", "client": c, "round": r, "cpu": cpu + r,
                         "cpu.clock": clocks.get(c, "ns") if r == 2 else "ns"})
    return _forks(rows)


@pytest.mark.parametrize("clock", ["ticks", "failed"])
def test_cpu_taken_on_ticks_or_failed_is_refused_not_ranked(tmp_path, clock):
    run = _fake_run(_clocked({"heavy": clock}), [OPEN], ["lean", "heavy"], tmp_path)
    f = cbd.rank(run, "rate-4000", cbd.BY_KEY["cpu"])
    assert list(f["clients"]) == ["lean"] and f["pairs"]["of"] == 0
    assert f["notRanked"] == {"heavy": cbd.CLOCK_REFUSED[clock]}
    # the same forks' allocation was not read on a clock: ranked as ever
    alloc = _clocked({"heavy": clock}).assign(alloc=lambda d: d["cpu"])
    run = _fake_run(alloc, [OPEN], ["lean", "heavy"], tmp_path)
    assert cbd.rank(run, "rate-4000", cbd.BY_KEY["alloc"])["tiers"] == [["lean"], ["heavy"]]


def test_noops_cpu_on_ticks_refuses_every_clients_net_cpu(tmp_path):
    run = _fake_run(_clocked({}, noop_clock="ticks"), [OPEN], ["lean", "heavy"], tmp_path)
    assert cbd.rank(run, "rate-4000", cbd.BY_KEY["cpu"]) is None
    assert cbd.clock_refusals(cbl.forks(run), cbd.BY_KEY["cpu"]) == {
        c: "noop's, taken off it: CPU read on the JVM's 10 ms ticks, not the ns clock" for c in ("lean", "heavy")}


def test_a_record_that_does_not_say_its_clock_is_ranked_and_marked(tmp_path):
    run = _fake_run(_clocked({"heavy": "unknown"}), [OPEN], ["lean", "heavy"], tmp_path)
    f = cbd.rank(run, "rate-4000", cbd.BY_KEY["cpu"])
    assert f["tiers"] == [["lean"], ["heavy"]]
    assert f["clients"]["heavy"]["marks"] == ["clock"] and f["clients"]["lean"]["marks"] == []


def test_a_window_whose_cpu_read_failed_keeps_its_fork_out_of_the_cpu_ranking(run_copy):
    # A trial record as the harness writes it when libc's clock_gettime returns -1 at a window's end.
    path = next(p for p in run_copy.path.glob("ClosedLoopBenchmark.request-okhttp-*.trial.json"))
    record = json.loads(path.read_text())
    for it in record["iterations"]:
        it["cpuClock"] = "ns"
    last = [it for it in record["iterations"] if it["measured"]][-1]
    last["cpuNanosInWindow"], last["cpuClock"] = -1, "failed"
    path.write_text(json.dumps(record))
    run = cbl.load_run(run_copy.path)
    forks = cbl.forks(run)
    okhttp = forks[(forks["client"] == "okhttp") & (forks["shape"] == "closed-x4")]
    assert sorted(okhttp["cpu.clock"]) == ["failed", "unknown"]  # the other round's record says no clock
    f = cbd.rank(run, "closed-x4", cbd.BY_KEY["cpu"])
    assert f["notRanked"].get("okhttp") == "a CPU read failed in a measured window: its CPU is unknown"
    assert "okhttp" not in f["clients"]


def _okhttp_closed(run_copy, set_window):
    """okhttp's closed-x4 forks after `set_window(it)` changed each of their measured windows' records."""
    for path in run_copy.path.glob("ClosedLoopBenchmark.request-okhttp-*.trial.json"):
        record = json.loads(path.read_text())
        for it in record["iterations"]:
            if it["measured"]:
                set_window(it)
        path.write_text(json.dumps(record))
    forks = cbl.forks(cbl.load_run(run_copy.path))
    return forks[(forks["client"] == "okhttp") & (forks["shape"] == "closed-x4")]


@pytest.mark.parametrize("probe", ["compilerCpuNanos", "samplerCpuNanos"])
def test_cpu_per_request_leaves_out_the_jit_compilers_and_the_connection_samplers_cpu_time(run_copy, probe):
    gross = _okhttp_closed(run_copy, lambda it: it.update(cpuClock="ns"))
    per_window = []

    def aside(it):
        it["probes"][probe] = it["cpuNanosInWindow"] // 4
        per_window.append(it["cpuNanosInWindow"] // 4 / 1e3)
    net = _okhttp_closed(run_copy, aside)
    assert (net["cpu"] * net["sent"]).sum() == pytest.approx((gross["cpu"] * gross["sent"]).sum() - sum(per_window))
    if probe == "compilerCpuNanos":
        assert set(net["cpu.compilers"]) == {"out"}


def test_an_older_record_gives_the_compilers_as_their_share_and_an_elapsed_share_is_not_cpu(run_copy):
    def older(source):
        def f(it):
            it["probes"].pop("compilerCpuNanos", None)
            it["probes"].update(jitShare=0.125, jvmCpus=2)
            it.update(jitSource=source, cpuNanosInWindow=it["windowNanos"], cpuClock="ns")
        return f
    cpu_time = _okhttp_closed(run_copy, older("cpu"))
    # the JVM used one CPU's worth of the window; its compilers 0.125 of two CPUs' worth: a quarter of it
    assert list(cpu_time["cpu"] * cpu_time["sent"]) == pytest.approx(
        [0.75 * w / 1e3 for w in _windows_ns(run_copy)])
    elapsed = _okhttp_closed(run_copy, older("elapsed"))
    assert set(elapsed["cpu.compilers"]) == {"in"}
    assert list(elapsed["cpu"] * elapsed["sent"]) == pytest.approx([w / 1e3 for w in _windows_ns(run_copy)])
    f = cbd.rank(cbl.load_run(run_copy.path), "closed-x4", cbd.BY_KEY["cpu"])
    assert "compilers" in f["clients"]["okhttp"]["marks"]


def _windows_ns(run_copy) -> list:
    """okhttp's closed-x4 forks' measured window time, summed per fork, in the order cbl.forks gives them."""
    run = cbl.load_run(run_copy.path)
    return [sum(it["windowNanos"] for it in t.measured) for t in run.trials
            if t.client == "okhttp" and t.shape == "closed-x4"]


def test_a_round_without_noop_is_netted_against_noops_median_and_marked(tmp_path):
    # noop ran in rounds 1 and 3 only (10 and 14 us: median 12); round 2's clients are netted against 12 and marked.
    rows = []
    for r in (1, 2, 3):
        if r != 2:
            rows.append({"shape": "rate-4000", "client": "noop", "round": r, "cpu": 10.0 + 2 * (r - 1)})
        rows.append({"shape": "rate-4000", "client": "lean", "round": r, "cpu": 50.0 + r})
        rows.append({"shape": "rate-4000", "client": "heavy", "round": r, "cpu": 120.0 + r})
    f = _forks(rows)
    net = cbd.net_of_noop(f, cbd.BY_KEY["cpu"]).set_index(["client", "round"])
    assert net.loc[("lean", 2), "value"] == pytest.approx(52.0 - 12.0)
    assert net.loc[("lean", 1), "value"] == pytest.approx(51.0 - 10.0)
    assert list(net["noop.elsewhere"]) == [r == 2 for r in net.index.get_level_values("round")]
    run = _fake_run(f, [OPEN], ["lean", "heavy"], tmp_path)
    cpu = cbd.rank(run, "rate-4000", cbd.BY_KEY["cpu"])
    assert cpu["clients"]["lean"]["marks"] == ["noop"] and cpu["clients"]["heavy"]["marks"] == ["noop"]
    # latency is not net of noop's: no such mark
    f = f.assign(p50=f["cpu"] * 10, **{"p50.width": 1.0})
    p50 = cbd.rank(_fake_run(f, [OPEN], ["lean", "heavy"], tmp_path), "rate-4000", cbd.BY_KEY["p50"])
    assert p50["clients"]["lean"]["marks"] == []


def test_a_round_at_or_below_noops_cost_is_left_out_with_a_mark(tmp_path):
    # lean cost 2 us over noop in rounds 1 and 3, but less than noop in round 2: net -1 us, no logarithm; its two
    # other rounds stand, and the reader is told one was left out. heavy's three rounds all stand, unmarked.
    rows = []
    for r in (1, 2, 3):
        rows.append({"shape": "rate-4000", "client": "noop", "round": r, "cpu": 10.0})
        rows.append({"shape": "rate-4000", "client": "lean", "round": r, "cpu": 9.0 if r == 2 else 12.0})
        rows.append({"shape": "rate-4000", "client": "heavy", "round": r, "cpu": 60.0 + r})
    cpu = cbd.rank(_fake_run(_forks(rows), [OPEN], ["lean", "heavy"], tmp_path), "rate-4000", cbd.BY_KEY["cpu"])
    assert cpu["clients"]["lean"]["marks"] == ["dropped"] and cpu["clients"]["lean"]["n"] == 2
    assert cpu["clients"]["heavy"]["marks"] == [] and cpu["clients"]["heavy"]["n"] == 3
    assert cpu["clients"]["lean"]["value"] == pytest.approx(2.0)
    assert "dropped" in cbd.MARKS


def test_leaders_are_the_best_told_apart_from_every_other_client():
    # Rounds with 6% noise. a | b c d, with b, c, d overlapping: a leads. A chain a, b, c, d where each is told
    # apart only from the next but one: tier a is a and b, yet b is not told apart from c: nobody leads.
    noise = [1.0, 1.06, 0.94, 1.03, 0.97, 1.0]

    def compare(levels: dict) -> cbs.Comparison:
        return cbs.compare({c: {r: x * noise[(r + i) % 6] for r in range(1, 7)} for i, (c, x) in
                            enumerate(levels.items())}, False)

    def leaders(c: cbs.Comparison) -> list:  # as the verdict stores the figure
        return cbd.leaders(cbd._figure_dict("s", cbd.BY_KEY["cpu"], c, {x: [] for x in c.order}, {}, 0, 6))

    c = compare({"a": 10.0, "b": 13.0, "c": 14.0, "d": 15.0})
    assert c.letters == {"a": "a", "b": "b", "c": "bc", "d": "c"}
    assert leaders(c) == ["a"]
    chain = compare({"a": 10.0, "b": 10.6, "c": 11.3, "d": 12.0})
    assert chain.letters == {"a": "a", "b": "ab", "c": "bc", "d": "c"} and chain.tiers()[0] == ["a", "b"]
    assert leaders(chain) == []
    assert leaders(compare({"a": 10.0, "b": 10.1, "c": 10.2})) == []
    # Only the worst told apart from the rest: three of four "lead", which names no winner.
    worst = compare({"a": 10.0, "b": 10.1, "c": 10.2, "d": 15.0})
    assert worst.letters["d"] == "b" and set(worst.letters[x] for x in "abc") == {"a"}
    assert leaders(worst) == []
    two = compare({"a": 10.0, "b": 15.0})
    assert leaders(two) == ["a"], "one of two is half"


def _made(other: float, steal: float, fork_nice=(-10,), asked=-10) -> dict:
    return {"commandLine": "./bench", "priority": {"askedNice": asked, "launcherNice": asked, "forkNice": list(fork_nice)},
            "host": {"seconds": 500.0, "otherCpuShare": other, "stealShare": steal}}


def test_a_run_is_on_a_busy_host_from_each_bound_it_reaches_and_says_so_first(tmp_path):
    bounds = cbl.THRESHOLDS["host"]
    run = _fake_run(_forks([]), [], ["a"], tmp_path)
    run.env["conditions"] = _made(bounds["otherCpuShare"], math.nextafter(bounds["stealShare"], 0))
    made = cbd.host_conditions(run)
    assert [b["what"] for b in made["busy"]] == ["otherCpuShare"], "at the bound is busy; just below is not"
    v = cbd.verdict(run)
    first = cbd.terminal_verdict(run, v).splitlines()
    assert "ON A BUSY HOST" in first[0] and first[1].startswith("made with `./bench`, its forks at nice -10")
    run.env["conditions"] = _made(0.01, 0.0)
    assert cbd.host_conditions(run)["busy"] == []
    assert "BUSY" not in cbd.terminal_verdict(run, cbd.verdict(run)).splitlines()[0]
    del run.env["conditions"]
    assert cbd.host_conditions(run) is None and "made with" not in cbd.terminal_verdict(run, cbd.verdict(run))


def test_forks_that_did_not_get_the_priority_asked_for_say_so(tmp_path):
    run = _fake_run(_forks([]), [], ["a"], tmp_path)
    run.env["conditions"] = _made(0.0, 0.0, fork_nice=(0,), asked=-10)
    words = cbd.terminal_verdict(run, cbd.verdict(run)).replace("\n  ", " ")
    assert "its forks at nice 0, not the -10 asked for" in words


def test_what_the_plan_cut_to_fit_its_time_is_said_with_its_cost_and_a_plan_that_cut_nothing_says_nothing(tmp_path):
    run = _fake_run(_forks([]), [], ["a"], tmp_path)
    cut = {"what": "runs closed-x16 in 2 rounds, not 3", "cost": "closed-x16's pairs on 2 JVMs of each client",
           "savedSeconds": 286}
    run.env["conditions"] = {**_made(0.0, 0.0), "timeFit": {"leftSeconds": 3600, "availableSeconds": 3391,
                                                            "estimatedSeconds": 3990, "fittedSeconds": 3300,
                                                            "fits": True, "cuts": [cut]}}
    words = cbd.terminal_verdict(run, cbd.verdict(run)).replace("\n  ", " ")
    assert ("to end within its 60 min it planned 55 min of 66 estimated: it runs closed-x16 in 2 rounds, not 3"
            " (closed-x16's pairs on 2 JVMs of each client)") in words, words
    run.env["conditions"]["timeFit"].update(cuts=[], estimatedSeconds=552, fittedSeconds=552)
    assert "timeFit" not in cbd.host_conditions(run) and "to end within" not in cbd.terminal_verdict(run, cbd.verdict(run))
    run.env["conditions"]["timeFit"].update(fits=False, estimatedSeconds=3990, fittedSeconds=3900)  # none left to cut
    assert "planned 65 min of 66 estimated, past that time even so" in \
        cbd.terminal_verdict(run, cbd.verdict(run)).replace("\n  ", " ")
