"""The verdict: ranked per figure from per-fork facts, written once, printed short; and two runs compared."""
import csv
import io
import json
import math
import random
import shutil
from pathlib import Path

import pandas as pd
import pytest

import clientbench_decide as cbd
import clientbench_estimates as est
import clientbench_load as cbl

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
    base = {"started": 0, "sent": 8000, "ok/s": math.nan, "cpu": math.nan, "alloc": math.nan, "syscalls": math.nan,
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
    assert f["pairs"] == {"separated": 1, "of": 1, "apart": [{"better": "lean", "worse": "heavy"}], "withheld": []}


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
            clients = list(f["clients"])
            n = len(clients)
            assert f["pairs"]["of"] == n * (n - 1) // 2
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
    text = cbd.text(run, cbd.verdict(run))
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
