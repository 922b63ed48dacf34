"""The report, the decision and their helpers, against analysis/fixtures/run-small: a real ./bench run cut
down (see fixtures/README.md), two clients over every kind of shape. Expected numbers are read from the
fixture's files here, with json and hdrh directly, not through the module under test."""
import base64
import copy
import json
import math
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from hdrh.histogram import HdrHistogram

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIXTURE = HERE / "fixtures" / "run-small"
sys.path.insert(0, str(HERE))
import clientbench_analysis as cba  # noqa: E402
import clientbench_decision as cbd  # noqa: E402
import clientbench_figures as figs  # noqa: E402
import clientbench_render as render  # noqa: E402


def read(name, run=FIXTURE):
    return json.loads((run / name).read_text())


def trials(shape, client, run=FIXTURE):
    """The trial records of (shape, client), forks in the order they ran."""
    out = [json.loads(p.read_text()) for p in run.glob("*.trial.json")]
    out = [t for t in out if t["shape"] == shape and t["client"] == client]
    return sorted(out, key=lambda t: t["iterations"][0]["windowStartEpochMillis"])


def intervals(trial, tag, run=FIXTURE):
    lines = (run / trial["hlog"]).read_text().splitlines()
    return [HdrHistogram.decode(line.rsplit(",", 1)[1]) for line in lines if line.startswith(f"Tag={tag},")]


def with_knees(tmp_path, knees: dict, name="edited") -> Path:
    """The fixture with summary.json's knees replaced: client -> (knee, kneeHigh or None, converged), every
    fork alike. The probes and histograms stay as measured."""
    run = tmp_path / name
    shutil.copytree(FIXTURE, run)
    summary = read("summary.json", run)
    for c in summary["capacity"]:
        if c["client"] in knees:
            knee, high, converged = knees[c["client"]]
            for f in c["knee"]["forks"]:
                f.update(knee=knee, kneeHigh=high, converged=converged)
            c["knee"].update(median=knee, min=knee, max=knee, converged=converged)
    (run / "summary.json").write_text(json.dumps(summary))
    return run


def keep_delay_shape(run: Path, flags=lambda client: []) -> dict:
    """Marks delay100ms-500 kept by every client in the run's summary.json (noop aside), each with flags(client);
    returns the summary as written."""
    summary = read("summary.json", run)
    for r in summary["runs"]:
        if r["shape"] == "delay100ms-500" and r["client"] != cba.NOOP:
            r["sustained"], r["missedBy"], r["flags"] = True, "", flags(r["client"])
    (run / "summary.json").write_text(json.dumps(summary))
    return summary


def cli(*args):
    return subprocess.run([sys.executable, str(HERE / "clientbench_analysis.py"), *map(str, args)],
                          capture_output=True, text=True, timeout=300)


# ---------------------------------------------------------------- the fixture is what the tests need

def test_fixture_holds_failures_unsent_connections_forks_and_a_long_lived_shape():
    summary = read("summary.json")
    rows = {(r["shape"], r["client"]): r for r in summary["runs"]}
    assert rows[("delay6s-50", "jdk")]["failures"] > 0 and rows[("https1-500", "jdk")]["unsent"] > 0
    assert any(r["shape"].startswith("longlived-") for r in summary["runs"])
    used = [it["probes"]["connectionsUsed"] for t in trials("delay100ms-500", "okhttp") for it in t["iterations"]]
    assert max(used) > 0
    assert len(trials("capacity-http1", "jdk")) == 2 and len(trials("closed-x4", "okhttp")) == 2
    # No real client here left a request out past its own timeout: expired is counted, and 0.
    assert sum(r["expired"] for r in summary["runs"]) == 0


def test_the_ith_interval_of_a_log_is_the_ith_measured_iteration():
    for t in trials("capacity-http1", "okhttp"):
        measured = [it for it in t["iterations"] if it["measured"]]
        hs = intervals(t, "latency")
        assert len(hs) == len(measured)
        for it, h in zip(measured, hs):
            assert h.get_total_count() == it["latencyMicros"]["count"]
            assert h.get_value_at_percentile(99) == it["latencyMicros"]["p99"]


# ---------------------------------------------------------------- the decision table

def test_decision_table_has_one_row_per_client_and_never_noop():
    d = cbd.decide(cba.load_run(FIXTURE))
    assert list(d.table.index) == [c for c in read("env.json")["clients"] if c != "noop"]


def test_knee_cells_are_the_median_and_the_range_to_the_highest_failing_rate():
    d = cbd.decide(cba.load_run(FIXTURE))
    for c in read("summary.json")["capacity"]:
        if c["client"] == "noop":
            continue
        k = c["knee"]
        high = max(f["kneeHigh"] for f in k["forks"])
        assert d.table.loc[c["client"], "knee capacity-http1 (req/s)"].startswith(
            f"{k['median']:.0f} [{k['min']:.0f}-{high:.0f})")


def test_a_search_stopped_by_a_flag_says_which_and_is_not_ranked():
    summary = read("summary.json")
    run = cba.load_run(FIXTURE)
    ranking = cbd.rank_capacity(run, "capacity-http1")
    assert ranking.groups == []
    for c in summary["capacity"]:
        if c["client"] == "noop":
            continue
        highs = {(f["fork"], f["kneeHigh"]) for f in c["knee"]["forks"]}
        words = {w.strip() for p in c["probes"] if (p["fork"], p["rate"]) in highs and not p["pass"]
                 and p["why"].startswith("flagged:") for w in p["why"].split(":", 1)[1].split(",")}
        assert words, "the fixture's searches were stopped by flags"
        assert (c["client"], "flagged: " + ", ".join(sorted(words))) in ranking.unranked
    sentence = cbd.verdict(run)[0]
    assert sentence.startswith("capacity-http1") and "no ranking" in sentence and "Not ranked: " in sentence


def test_fault_cells_count_each_class_and_the_expired_from_the_trials():
    d = cbd.decide(cba.load_run(FIXTURE))
    for client in ("jdk", "okhttp"):
        measured = [it for t in trials("delay6s-50", client) for it in t["iterations"] if it["measured"]]
        sent = sum(it["sent"] for it in measured)
        timeouts = sum(it["failures"]["timeout"] for it in measured)
        expired = sum(it["expiredAtDrain"] for it in measured)
        assert timeouts > 0
        assert d.table.loc[client, "under faults"] == f"delay6s-50: {timeouts} timeout of {sent} sent, {expired} expired"


def test_a_run_without_a_fault_shape_says_not_measured():
    run = cba.load_run(FIXTURE)
    run.summary = {**run.summary, "runs": [r for r in run.summary["runs"] if r["shape"] != "delay6s-50"]}
    assert set(cbd.decide(run).table["under faults"]) == {"not measured"}


@pytest.mark.parametrize("params, fault", [
    ({"faults": "mix", "stubQuery": ""}, "mix"),          # the standard profile's faults-1000
    ({"faults": "none", "stubQuery": "fault=stall"}, "stall"),
    ({"faults": "none", "stubQuery": "keepAlive=false"}, ""),  # tls-handshake-100: the stub behaves
])
def test_a_shape_whose_stub_misbehaves_is_a_fault_shape(params, fault):
    # JMH's parameter is `faults` (none or mix), and a stall is asked for in the stub's query; reading a
    # `fault` parameter that no run has put "not measured" under faults beside a faults shape that ran.
    run = cba.load_run(FIXTURE)
    run.summary = {**run.summary, "runs": [
        {**r, "params": {**r["params"], **params}} if r["shape"] == "delay100ms-500" else r
        for r in run.summary["runs"]]}
    assert set(cba.fixed(run)[lambda f: f["shape"] == "delay100ms-500"]["fault"]) == {fault}
    assert ("delay100ms-500" in cba.fault_shapes(run)) == bool(fault)
    if fault:
        assert "delay100ms-500: " in cbd.decide(run).table.loc["jdk", "under faults"]


def test_threads_and_connections_come_from_the_shape_with_most_in_flight():
    d = cbd.decide(cba.load_run(FIXTURE))
    # delay100ms-500 (50 in flight) is the heaviest shape that is not a fault shape (delay6s-50 is).
    col = "threads (net) / connections at delay100ms-500"
    rows = {(r["shape"], r["client"]): r for r in read("summary.json")["runs"]}
    for client in ("jdk", "okhttp"):
        used = max(it["probes"]["connectionsUsed"] for t in trials("delay100ms-500", client)
                   for it in t["iterations"] if it["measured"])
        net = rows[("delay100ms-500", client)]["netOfNoop"]["threads"]
        assert d.table.loc[client, col] == f"{net:+.0f} / {used:.0f}"


def test_protocol_cells_follow_summary_json_sustained_and_missed_by():
    d = cbd.decide(cba.load_run(FIXTURE))
    rows = {(r["shape"], r["client"]): r for r in read("summary.json")["runs"]}
    for client in ("jdk", "okhttp"):
        for shape, proto in (("h2c-500", "h2c"), ("https1-500", "https1")):
            r = rows[(shape, client)]
            want = f"{proto} kept 500/s" if r["sustained"] else f"{proto} missed 500/s ({r['missedBy']})"
            assert want in d.table.loc[client, "HTTP/2, TLS"]


def test_library_version_is_the_trials_recorded_one():
    d = cbd.decide(cba.load_run(FIXTURE))
    lib = read("env.json")["clientSettings"]["okhttp"]["library"]
    assert d.table.loc["okhttp", "library"] == " ".join(lib.split(":")[-2:])


def test_latency_and_net_cost_at_the_common_rate_come_from_the_merged_probes(tmp_path):
    run_dir = with_knees(tmp_path, {"jdk": (1200.0, 1500.0, True), "okhttp": (1200.0, 1500.0, True)})
    run = cba.load_run(run_dir)
    assert cba.common_rates(run, "capacity-http1") == [1200.0]
    d = cbd.decide(run)
    probes = {c["client"]: c["probes"] for c in read("summary.json")["capacity"]}
    for client in ("jdk", "okhttp"):
        merged = None
        for t in trials("capacity-http1", client):
            measured = [it for it in t["iterations"] if it["measured"]]
            for it, h in zip(measured, intervals(t, "latency")):
                if it["probe.rate"] == 1200.0:
                    merged = h if merged is None else (merged.add(h) or merged)
        want = " / ".join(cbd.fmt_us(merged.get_value_at_percentile(p)) for p in (50, 99, 99.9))
        assert d.table.loc[client, "p50 / p99 / p99.9 at 1200 req/s"] == want
        at = [p for p in probes[client] if p["rate"] == 1200.0]
        cpu = sum(p["netCpuMicrosPerRequest"] for p in at) / len(at)
        alloc = sum(p["netAllocatedBytesPerRequest"] for p in at) / len(at)
        assert d.table.loc[client, "net CPU / alloc per req at 1200 req/s"] == f"{cbd.fmt_us(cpu)} / {cbd.fmt_bytes(alloc)}"


def test_no_common_rate_when_the_weakest_knee_is_below_every_rung():
    d = cbd.decide(cba.load_run(FIXTURE))
    assert set(d.table["latency at a common rate"]) == {"no common rate"}
    assert any(n.startswith("no common rate on capacity-http1: the weakest knee is 0 req/s") for n in d.notes)


# ---------------------------------------------------------------- tie groups and the verdict

@pytest.mark.parametrize("items, groups", [
    ([("a", 10, 9, 11), ("b", 5, 4, 6)], [["a"], ["b"]]),
    ([("a", 10, 8, 11), ("b", 9, 7, 9.5)], [["a", "b"]]),
    ([("a", 10, 9, 11), ("b", 8.5, 8, 9), ("c", 7, 6.5, 8)], [["a", "b", "c"]]),  # a chain of overlaps is one tie
    ([("a", 3, 2, 4), ("b", 8, 7, 9)], [["b"], ["a"]]),
])
def test_tie_groups_separate_only_where_intervals_do(items, groups):
    assert cbd.tie_groups(items) == groups


def test_half_open_brackets_that_only_touch_are_apart():
    # knees in [4000, 4400) and [3600, 4000): the first is at least 4000, the second below it.
    assert cbd.tie_groups([("a", 4000, 4000, 4400), ("b", 3600, 3600, 4000)], half_open=True) == [["a"], ["b"]]
    assert cbd.tie_groups([("a", 4000, 4000, 4400), ("b", 3600, 3600, 4000)]) == [["a", "b"]]


def test_lower_is_better_ranks_the_smallest_first():
    assert cbd.tie_groups([("a", 5, 4, 6), ("b", 1, 0.5, 1.5)], higher_is_better=False) == [["b"], ["a"]]


def test_a_knee_clear_of_the_rest_leads(tmp_path):
    run = cba.load_run(with_knees(tmp_path, {"jdk": (4000.0, 4400.0, True), "okhttp": (2000.0, 2200.0, True)}))
    assert cbd.rank_capacity(run, "capacity-http1").groups == [["jdk"], ["okhttp"]]
    assert cbd.verdict(run)[0] == ("capacity-http1 (knee in req/s, median [95% interval)): jdk 4000 [4000-4400) leads, its "
                                   "interval clear of the rest; then okhttp 2000 [2000-2200).")


def test_overlapping_knees_are_a_tie_not_a_win(tmp_path):
    run = cba.load_run(with_knees(tmp_path, {"jdk": (4000.0, 4400.0, True), "okhttp": (3800.0, 4200.0, True)}))
    assert cbd.rank_capacity(run, "capacity-http1").groups == [["jdk", "okhttp"]]
    assert "no winner: tied: jdk 4000 [4000-4400), okhttp 3800 [3800-4200)" in cbd.verdict(run)[0]


def test_an_unconverged_search_is_ranked_by_its_wider_bracket(tmp_path):
    # Clear of the other's bracket: it leads, however wide its own.
    run = cba.load_run(with_knees(tmp_path, {"jdk": (8000.0, 16000.0, False), "okhttp": (2000.0, 2200.0, True)}))
    assert cbd.rank_capacity(run, "capacity-http1") == cbd.Ranking("capacity-http1", [["jdk"], ["okhttp"]], [])
    # A converged knee inside an unconverged bracket cannot be told apart from it: a tie, not a win either way.
    run = cba.load_run(with_knees(tmp_path, {"jdk": (2000.0, 4000.0, False), "okhttp": (3000.0, 3300.0, True)},
                                  name="inside"))
    r = cbd.rank_capacity(run, "capacity-http1")
    assert r.groups == [["okhttp", "jdk"]] and r.unranked == []
    assert "no winner: tied: okhttp 3000 [3000-3300), jdk 2000 [2000-4000)" in cbd.verdict(run)[0]


def test_a_kept_ceiling_has_an_open_interval(tmp_path):
    run = cba.load_run(with_knees(tmp_path, {"jdk": (64000.0, None, True), "okhttp": (2000.0, 2200.0, True)}))
    assert cbd.decide(run).table.loc["jdk", "knee capacity-http1 (req/s)"] == "64000 [64000-inf)"
    assert cbd.rank_capacity(run, "capacity-http1").groups == [["jdk"], ["okhttp"]]


def test_a_search_with_no_failing_rate_below_the_ceiling_is_open_and_not_ranked(tmp_path):
    # jdk's forks spent their budget without a miss standing (every one the JIT's, say): at least 4000, but
    # nothing bounds it above; ranked with [4000, inf) it would tie with okhttp's 9000 and with any knee above.
    run = cba.load_run(with_knees(tmp_path, {"jdk": (4000.0, None, False), "okhttp": (9000.0, 9400.0, True)}))
    k = cba.knees(run).set_index("client")
    assert k.loc["jdk", "status"] == "open: no rate failed before the probe budget ran out (at least 4000)"
    assert k.loc["okhttp", "status"] == "converged"
    r = cbd.rank_capacity(run, "capacity-http1")
    assert r.groups == [["okhttp"]]
    assert r.unranked == [("jdk", "open: no rate failed before the probe budget ran out (at least 4000)")]
    assert "Not ranked: jdk (open: no rate failed" in cbd.verdict(run)[0]
    # its knee is a lower bound, not a draw of the forks' spread
    assert cba.knee_spread(cba.knees(run))["capacity-http1"][2] == 1


def test_a_failed_fork_of_a_search_run_apart_leaves_the_others_knee_ranked_and_says_so(tmp_path):
    # Java: ComparisonRun writes "shape/client: fork i of n: why" when one fork of a search whose forks ran apart
    # failed; the knee the other forks found stands, with a note. A run of a search that left no knee is gone.
    run_dir = with_knees(tmp_path, {"jdk": (4000.0, 4400.0, True), "okhttp": (9000.0, 9400.0, True)})
    env = read("env.json", run_dir)
    env["failed"] = ["capacity-http1/jdk: fork 2 of 2: the fork exited with status 1"]
    (run_dir / "env.json").write_text(json.dumps(env))
    run = cba.load_run(run_dir)
    r = cbd.rank_capacity(run, "capacity-http1")
    assert r.groups == [["okhttp"], ["jdk"]] and r.unranked == []
    d = cbd.decide(run)
    assert "failed: capacity-http1/jdk: fork 2 of 2: the fork exited with status 1; the knee rests on the forks that ran." in d.notes
    assert d.table.loc["jdk", "knee capacity-http1 (req/s)"].startswith("4000")

    summary = read("summary.json", run_dir)
    summary["capacity"] = [c for c in summary["capacity"] if c["client"] != "jdk"]  # no fork kept a knee
    (run_dir / "summary.json").write_text(json.dumps(summary))
    run = cba.load_run(run_dir)
    assert cbd.rank_capacity(run, "capacity-http1").unranked == [("jdk", "fork 2 of 2: the fork exited with status 1")]


def test_an_open_search_whose_bound_clears_every_ranked_interval_leads(tmp_path):
    # quick's 6 probes: okhttp climbed to 16000 without a miss; jdk's knee is bounded in [4000, 4400)
    run = cba.load_run(with_knees(tmp_path, {"jdk": (4000.0, 4400.0, True), "okhttp": (16000.0, None, False)}))
    r = cbd.rank_capacity(run, "capacity-http1")
    assert r.groups == [["okhttp"], ["jdk"]] and r.unranked == []
    assert cbd.verdict(run)[0].startswith("capacity-http1 (knee in req/s, median [95% interval)): okhttp 16000 "
                                          "[16000-inf) leads, its interval clear of the rest; then jdk 4000")
    # at 4400 it touches jdk's bracket [4000, 4400) only at its open end: still above
    run = cba.load_run(with_knees(tmp_path, {"jdk": (4000.0, 4400.0, True), "okhttp": (4400.0, None, False)}, "touch"))
    assert cbd.rank_capacity(run, "capacity-http1").groups == [["okhttp"], ["jdk"]]
    # below jdk's bracket's end it could lie anywhere above 4200: not ranked
    run = cba.load_run(with_knees(tmp_path, {"jdk": (4000.0, 4400.0, True), "okhttp": (4200.0, None, False)}, "inside"))
    r = cbd.rank_capacity(run, "capacity-http1")
    assert r.groups == [["jdk"]] and [c for c, _ in r.unranked] == ["okhttp"]


def with_fork_knees(tmp_path, forks: dict, name="forks", one_fork_shape=None) -> Path:
    """The fixture with each named client's forks' knees replaced (client -> [knee per fork], every bracket
    5% above its knee); `one_fork_shape`: a second capacity shape with one fork, each client's first knee."""
    run = tmp_path / name
    shutil.copytree(FIXTURE, run)
    summary = read("summary.json", run)
    extra = []
    for c in summary["capacity"]:
        if c["client"] in forks:
            for f, knee in zip(c["knee"]["forks"], forks[c["client"]]):
                f.update(knee=knee, kneeHigh=knee * 1.05, converged=True)
            c["knee"].update(median=statistics.median(forks[c["client"]]), min=min(forks[c["client"]]),
                             max=max(forks[c["client"]]), converged=True)
            if one_fork_shape:
                extra.append({**copy.deepcopy(c), "shape": one_fork_shape})
                extra[-1]["knee"]["forks"] = extra[-1]["knee"]["forks"][:1]
                extra[-1]["knee"].update(median=forks[c["client"]][0], min=forks[c["client"]][0],
                                         max=forks[c["client"]][0])
    summary["capacity"] += extra
    (run / "summary.json").write_text(json.dumps(summary))
    return run


def test_a_knees_interval_is_95_percent_over_jvm_starts_from_the_forks_pooled_spread(tmp_path):
    # jdk's forks differ by 2x, okhttp's by 10%: their brackets alone ([4000, 8400) and [2000, 2310)) are clear
    # of each other, and jdk would lead on two forks. Pooled over both clients (df 2), log knees' sd is
    # sqrt((2 (ln 2 / 2)^2 + 2 (ln 1.1 / 2)^2) / 2) = 0.3499; Student's t at 97.5% with df 2 is 4.303 (tables);
    # half-width 4.303 x 0.3499 / sqrt 2 = 1.0646 around the geometric mean of the forks.
    run = cba.load_run(with_fork_knees(tmp_path, {"jdk": [4000.0, 8000.0], "okhttp": [2000.0, 2200.0]}))
    k = cba.knees(run).set_index("client")
    assert k.loc["jdk", "spread"] == pytest.approx(0.3499, abs=1e-4) and k.loc["jdk", "spread.df"] == 2
    assert k.loc["jdk", "low"] == pytest.approx(5656.85 * math.exp(-1.0646), rel=1e-3)  # 1951
    assert k.loc["jdk", "high"] == pytest.approx(5656.85 * math.exp(1.0646), rel=1e-3)  # 16404
    assert k.loc["okhttp", "high"] == pytest.approx(2097.62 * math.exp(1.0646), rel=1e-3)  # 6083, past jdk's 4000
    assert cbd.rank_capacity(run, "capacity-http1").groups == [["jdk", "okhttp"]]
    assert "forks' knees vary by 42% (1 sd of log knee, pooled over clients, df 2)" in " ".join(cbd.decide(run).notes)


def test_a_one_fork_shape_borrows_the_spread_and_forks_that_agree_keep_their_bracket(tmp_path):
    run = cba.load_run(with_fork_knees(tmp_path, {"jdk": [4000.0, 8000.0], "okhttp": [2000.0, 2200.0]},
                                       one_fork_shape="capacity-h2"))
    k = cba.knees(run).set_index(["shape", "client"])
    h2 = k.loc[("capacity-h2", "jdk")]
    assert h2["spread.from"] == "capacity-http1" and h2["spread.df"] == 2
    assert h2["low"] == pytest.approx(4000 * math.exp(-4.303 * 0.3499), rel=1e-3)  # one fork: sd / sqrt 1
    assert "on capacity-h2, forks' knees vary by 42% (1 sd of log knee, pooled over clients, df 2, borrowed from " \
           "capacity-http1)" in " ".join(cbd.decide(run).notes)
    # Forks that agree exactly: no spread, and the interval is the search's bracket, as before.
    same = cba.knees(cba.load_run(with_fork_knees(tmp_path, {"jdk": [4000.0, 4000.0], "okhttp": [2000.0, 2000.0]},
                                                  name="same"))).set_index("client")
    assert (same.loc["jdk", "low"], same.loc["jdk", "high"]) == (4000.0, 4200.0)


def test_forks_for_agreement_at_a_spread():
    # Two runs' mean log knees over n forks differ with sd s sqrt(2 / n); within 10% (|log ratio| <= 0.10536)
    # in 95% of repeats: n >= 2 (1.96 s / 0.10536)^2, 62.3 at s = 0.3; one fork is always needed.
    assert cbd.forks_for_agreement(0.3) == 63
    assert cbd.forks_for_agreement(0.0) == 1


def test_the_comparison_counts_knees_inside_the_other_runs_interval_and_says_how_many_forks_would_do(tmp_path):
    a = cba.load_run(with_fork_knees(tmp_path, {"jdk": [4000.0, 8000.0], "okhttp": [2000.0, 2200.0]}, "a"))
    b = cba.load_run(with_fork_knees(tmp_path, {"jdk": [9000.0, 9500.0], "okhttp": [2000.0, 2100.0]}, "b"))
    lines = cbd.agreement(a, b).lines()
    # a's jdk [1951, 16404] holds b's 9250; b's jdk interval (sd 0.0370) holds 9000-9500 but not a's 6000;
    # okhttp: a's 2100 and b's 2050 lie inside each other's.
    assert "a knee inside the other run's 95% interval: 3 of 4" in "\n".join(lines)
    assert any("capacity-http1: forks' knees vary by 42% in a and 4% in b" in line and "about 85 forks" in line
               for line in lines)


def test_quick_says_not_for_decisions_and_standard_does_not(tmp_path):
    run = cba.load_run(FIXTURE)
    assert "NOT FOR DECISIONS" in cbd.decision_text(cbd.decide(run))
    run.env = {**run.env, "purpose": "for decisions: forks, 5% precision"}
    assert "NOT FOR DECISIONS" not in cbd.decision_text(cbd.decide(run))


def test_conditions_name_cores_cpu_jdk_profile_and_shapes():
    env = read("env.json")
    text = cbd.conditions(cba.load_run(FIXTURE))
    for part in (f"{env['machine']['cpuCount']} cores of {env['machine']['cpuModel']}", env["launcherJdk"]["version"],
                 f"profile {env['profile']}", "capacity-http1 (2 forks)", "longlived-200"):
        assert part in text
    run = cba.load_run(FIXTURE)
    run.env = {**run.env, "forksApart": ["capacity-http1"]}  # Java: Profile.schedule, a search's forks run apart
    assert "capacity-http1 (2 forks, one at the start of the run and the next at its end)" in cbd.conditions(run)


# ---------------------------------------------------------------- two runs

def test_a_run_agrees_with_itself():
    a = cba.load_run(FIXTURE)
    lines = cbd.agreement(a, cba.load_run(FIXTURE)).lines()
    assert lines[0].startswith("run-small vs run-small: the runs agree")
    assert "knees within 10%: 2 of 2" in lines[1]
    n = len(cbd.agreement(a, a).groups)
    assert f"tie groups the same in {n} of {n} ranked shapes" in "\n".join(lines)
    assert f"the same order among the clients ranked in both runs (groups cut to them; who was not ranked set aside) " \
           f"in {n} of {n}" in "\n".join(lines)


def test_the_order_among_clients_ranked_in_both_runs_sets_the_unranked_aside():
    R = cbd.Ranking
    # jdk unranked in b (flagged, say): among okhttp and vertx, ranked in both, the order is the same.
    assert cbd._order_among_both(R("s", [["jdk"], ["okhttp", "vertx"]], []),
                                 R("s", [["vertx", "okhttp"]], [("jdk", "flagged: gen")]))
    # A tie in one run and a lead in the other is another order.
    assert not cbd._order_among_both(R("s", [["jdk", "okhttp"]], []), R("s", [["jdk"], ["okhttp"]], []))
    # The same order, one client set aside by each run: the rest are compared.
    assert cbd._order_among_both(R("s", [["jdk"], ["okhttp"], ["vertx"]], [("ahc", "x")]),
                                 R("s", [["ahc"], ["jdk"], ["okhttp"]], [("vertx", "x")]))


def test_knees_more_than_ten_percent_apart_disagree(tmp_path):
    a = cba.load_run(with_knees(tmp_path, {"jdk": (4000.0, 4400.0, True), "okhttp": (2000.0, 2200.0, True)}, "a"))
    b = cba.load_run(with_knees(tmp_path, {"jdk": (4500.0, 4900.0, True), "okhttp": (2100.0, 2300.0, True)}, "b"))
    ag = cbd.agreement(a, b)
    assert not ag.agree
    assert list(ag.knees["within"]) == [False, True]  # 11% and 4.8% apart
    assert "largest difference 11% (capacity-http1/jdk: 4000 vs 4500 req/s)" in ag.lines()[1]


def test_the_comparison_counts_apart_the_knees_a_flag_stopped_in_either_run(tmp_path):
    # a: jdk's search bounded by gen and lag at 4000 where noop did not keep it (flagged, not ranked); b: jdk 3000.
    # okhttp 2000 in both, bounded at 2200 where neither fork probed (the fixture's own okhttp search ended flagged).
    a_dir = with_bound_miss(tmp_path, "flagged: gen, lag (latency p99 30.8 ms > 10 ms)", False, "a")
    summary = read("summary.json", a_dir)
    for c in summary["capacity"]:
        if c["client"] == "okhttp":
            for f in c["knee"]["forks"]:
                f.update(knee=2000.0, kneeHigh=2200.0, converged=True)
            c["knee"].update(median=2000.0, min=2000.0, max=2000.0, converged=True)
    (a_dir / "summary.json").write_text(json.dumps(summary))
    a = cba.load_run(a_dir)
    b = cba.load_run(with_knees(tmp_path, {"jdk": (3000.0, 3300.0, True), "okhttp": (2000.0, 2200.0, True)}, "b"))
    ag = cbd.agreement(a, b)
    assert ag.knees.set_index("client")["clean"].to_dict() == {"jdk": False, "okhttp": True}
    text = "\n".join(ag.lines())
    assert "knees within 10%: 1 of 2" in text
    assert "knees ranked in both runs: 1 of 1 within 10%" in text


def test_same_knees_but_other_tie_groups_disagree(tmp_path):
    a = cba.load_run(with_knees(tmp_path, {"jdk": (4000.0, 4400.0, True), "okhttp": (3900.0, 4300.0, True)}, "a"))
    b = cba.load_run(with_knees(tmp_path, {"jdk": (4000.0, 4050.0, True), "okhttp": (3900.0, 3950.0, True)}, "b"))
    ag = cbd.agreement(a, b)
    assert ag.knees["within"].all() and not ag.agree
    assert "capacity-http1: {jdk, okhttp} vs {jdk} > {okhttp}" in "\n".join(ag.lines())


def test_a_pair_of_clients_in_opposite_order_is_told_apart_from_one_tied_in_a_run(tmp_path):
    # capacity-http1: jdk above okhttp (brackets apart), tied (brackets overlap), okhttp above jdk.
    above = cba.load_run(with_knees(tmp_path, {"jdk": (4000.0, 4050.0, True), "okhttp": (3900.0, 3950.0, True)}, "a"))
    tied = cba.load_run(with_knees(tmp_path, {"jdk": (4000.0, 4400.0, True), "okhttp": (3900.0, 4300.0, True)}, "t"))
    below = cba.load_run(with_knees(tmp_path, {"jdk": (3900.0, 3950.0, True), "okhttp": (4000.0, 4050.0, True)}, "b"))
    cap = {n: cbd.rank_capacity(r, "capacity-http1") for n, r in (("above", above), ("tied", tied), ("below", below))}
    assert cap["above"].groups == [["jdk"], ["okhttp"]] and cap["below"].groups == [["okhttp"], ["jdk"]]
    assert cbd.pair_relations(cap["above"], cap["above"]) == (1, 0, [])
    assert cbd.pair_relations(cap["above"], cap["tied"]) == (0, 1, [])
    assert cbd.pair_relations(cap["above"], cap["below"]) == (0, 0, ["jdk above okhttp vs okhttp above jdk"])
    assert cbd.pair_relations(cap["below"], cap["above"]) == (0, 0, ["okhttp above jdk vs jdk above okhttp"])
    # A client one run does not rank is no pair: noop never is.
    assert cbd.pair_relations(cap["above"], cbd.Ranking("capacity-http1", [["jdk"]], [("okhttp", "flagged")])) == (0, 0, [])
    lines = cbd.agreement(above, below).lines()
    assert "    in opposite order: capacity-http1: jdk above okhttp vs okhttp above jdk" in lines
    counted = [line for line in lines if line.startswith("  pairs of clients ranked in both runs")]
    assert len(counted) == 1 and "in opposite order (one run puts x above y, the other y above x) 1," in counted[0]


def test_the_misses_windows_are_told_by_gc_pause_jit_and_host_steal_beside_the_kept_probes(tmp_path):
    # Java records per window the client JVM's GC pauses (Probes.gcPauseMillis) and the host's steal
    # (Probes.stealShare). The fixture's searches missed every probe; here okhttp keeps its first four. jdk's misses:
    # GC pauses of 25 and 25 ms, steal 12%, JIT 50% with a 12 ms pause (two causes at once), a 9 ms pause (under the
    # SLO's 10 ms: no cause); okhttp keeps one probe through a 30 ms pause and one through 20% steal; noop's 50 ms
    # pauses are the harness's and left out.
    run = tmp_path / "causes"
    shutil.copytree(FIXTURE, run)
    summary = read("summary.json", run)
    assert read("summary.json")["definitions"]["slo"]["latencyP99Millis"] == 10
    edits = {"jdk": {0: {"gcPauseMillis": 25}, 1: {"gcPauseMillis": 25}, 2: {"stealShare": 0.12},
                     3: {"jitShare": 0.5, "gcPauseMillis": 12}, 4: {"gcPauseMillis": 9}},
             "okhttp": {0: {"pass": True, "gcPauseMillis": 30}, 1: {"pass": True, "stealShare": 0.2}, 2: {"pass": True},
                        3: {"pass": True}}}
    for c in summary["capacity"]:
        for i, p in enumerate(c["probes"]):
            p.update({"gcPauseMillis": 50 if c["client"] == "noop" else 3, "stealShare": 0.01, "jitShare": 0.0})
            p.update(edits.get(c["client"], {}).get(i, {}))
    (run / "summary.json").write_text(json.dumps(summary))
    misses = sum(not p["pass"] for c in summary["capacity"] if c["client"] != "noop" for p in c["probes"])
    assert misses == 24  # 14 of jdk's, 10 of okhttp's
    loaded = cba.load_run(run)
    assert cba.miss_causes(loaded, "capacity-http1") == {"misses": 24, "kept": 4, "jit": (1, 0), "gc": (3, 1),
                                                         "steal": (1, 1), "none": 20}
    note = [n for n in cbd.decide(loaded).notes if n.startswith("what the misses' windows held")]
    assert note == ["what the misses' windows held: capacity-http1: 24 probes missed the SLO: 3 in a window where the "
                    "client JVM's collectors paused it for 10 ms or more (1 of 4 kept probes too), 1 while its JIT "
                    "compiled for over 10% of the window (0 of 4 kept probes too), 1 with the host taking 10% or more of "
                    "the machine's CPU for other guests (steal) (1 of 4 kept probes too); 20 with none of these."]
    # The host's steal over measured windows, from the trials' records: 2% in every window but one of 50%.
    for n, path in enumerate(sorted(run.glob("*.trial.json"))):
        t = json.loads(path.read_text())
        for it in t["iterations"]:
            it["probes"]["stealShare"] = 0.5 if n == 0 and it is t["iterations"][-1] else 0.02
        path.write_text(json.dumps(t))
    words = cbd.noise_words(cba.load_run(run))
    assert words.startswith("host steal in measured windows: median 2.0%, 95th percentile ")
    assert ", most 50.0%; capacity-http1: 24 misses, 3 with a GC pause of 10 ms or more (1 of 4 kept), 1 with the " \
           "JIT over 10% (0), 1 with steal 10% or more (1), 20 with none" in words
    lines = cbd.agreement(cba.load_run(FIXTURE), cba.load_run(run)).lines()
    assert "  b: " + words in lines and not any(line.startswith("  a: ") for line in lines)
    # Runs recorded before GC pauses and steal were: nothing said.
    assert cba.miss_causes(cba.load_run(FIXTURE), "capacity-http1") is None
    assert not any(n.startswith("what the misses") for n in cbd.decide(cba.load_run(FIXTURE)).notes)


# ---------------------------------------------------------------- figures

def test_vt_variants_take_their_base_hue_dashed_and_families_differ():
    bases = ["ahc", "apache", "jetty", "okhttp", "jdk", "reactor", "vertx", "helidon"]
    assert len({figs.style(b)["color"] for b in bases} | {figs.style("noop")["color"]}) == 9
    for b in ("apache", "jetty", "okhttp", "jdk"):
        assert figs.style(b + "-vt") == {"color": figs.style(b)["color"], "linestyle": "--"}
    assert figs.style(bases[0])["linestyle"] == "-" and figs.style("noop")["linestyle"] == ":"


def test_over_time_keeps_every_warm_up_iteration():
    it = cba.iterations(cba.load_run(FIXTURE))
    warm = it[(it["shape"] == "closed-x4") & (it["client"] == "jdk") & ~it["measured"]]
    want = sum(1 for t in trials("closed-x4", "jdk") for i in t["iterations"] if not i["measured"])
    assert len(warm) == want == 2


def test_delay_spectra_take_the_server_delay_off(tmp_path):
    import matplotlib.pyplot as plt

    run = cba.load_run(FIXTURE)
    fig = figs.fixed_spectra(run, ["delay100ms-500"])
    line = next(ln for ln in fig.axes[0].get_lines() if ln.get_label() == "okhttp")
    h = None
    for t in trials("delay100ms-500", "okhttp"):
        for x in intervals(t, "latency"):
            h = x if h is None else (h.add(x) or h)
    assert line.get_ydata()[0] == pytest.approx((h.get_value_at_percentile(50) - 100_000) / 1000)
    plt.close(fig)


# ---------------------------------------------------------------- the report

@pytest.fixture(scope="module")
def report_html(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    render.render([FIXTURE], out)
    return out.read_text()


def test_report_leads_with_the_answer_and_has_no_code(report_html):
    heading, table, verdict = (report_html.index(s) for s in ("Which HTTP client?", "knee capacity-http1", "Verdict"))
    first_image = report_html.index("<img")
    assert heading < table < verdict < first_image
    assert "not for decisions" in report_html[:table]
    for code in ("cba.", "figs.", "import ", "display("):
        assert code not in report_html


def test_report_is_self_contained_and_small(report_html):
    assert "<script" not in report_html and 'src="http' not in report_html and "<link" not in report_html
    assert len(report_html.encode()) < 400_000
    images = re.findall(r'<img alt="([^"]+)" src="data:image/png;base64,([^"]+)"', report_html)
    assert len(images) >= 6 and all(base64.b64decode(b)[:4] == b"\x89PNG" for _, b in images)


def test_report_shows_flags_failures_and_long_lived(report_html):
    for text in ("flagged: gen, lag", "delay6s-50: 100 timeout of 100 sent, 0 expired", "longlived-200"):
        assert text in report_html


def test_compare_report_says_whether_the_runs_agree(tmp_path):
    b = with_knees(tmp_path, {"jdk": (4000.0, 4400.0, True), "okhttp": (2000.0, 2200.0, True)}, "b")
    out = tmp_path / "compare.html"
    render.render([FIXTURE, b], out)
    assert "run-small vs b: the runs do not agree" in out.read_text()


def test_notebook_takes_its_runs_in_a_parameters_cell_first():
    nb = json.loads((ROOT / "analysis.ipynb").read_text())
    first = nb["cells"][0]
    assert first["cell_type"] == "code" and "parameters" in first["metadata"].get("tags", [])
    assert "RUNS = " in "".join(first["source"])


# ---------------------------------------------------------------- the command line

def test_decide_prints_the_table_and_the_verdict():
    r = cli("decide", FIXTURE)
    assert r.returncode == 0, r.stderr
    assert "NOT FOR DECISIONS" in r.stdout and "verdict:" in r.stdout
    assert "delay6s-50: 100 timeout of" in r.stdout and r.stdout.rstrip().splitlines()[-1].startswith("Holds for:")


def test_decide_with_two_runs_prints_the_agreement(tmp_path):
    b = with_knees(tmp_path, {"jdk": (1200.0, 1500.0, True), "okhttp": (1200.0, 1500.0, True)}, "b")
    r = cli("decide", FIXTURE, b)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("run-small vs b: the runs do not agree")


def test_check_gives_one_line():
    r = cli("check", FIXTURE)
    assert r.returncode == 0 and r.stdout.count("\n") == 1 and "26 trials" in r.stdout


@pytest.mark.parametrize("breakage, message", [
    (lambda d: (d / "results.json").unlink(), "results.json: missing"),
    (lambda d: (d / "results.json").write_text('[{"benchmark": '), "results.json: not valid JSON"),
    (lambda d: (d / "summary.json").unlink(), "summary.json: missing"),
    (lambda d: (d / "summary.json").write_text(""), "summary.json: empty file"),
    (lambda d: (d / "summary.json").write_text('{"runs": []}'), "summary.json: has no 'definitions'"),
    (lambda d: (d / "env.json").write_text("{}"), "env.json: has no 'runs' list"),
    (lambda d: next(d.glob("Closed*.hlog")).unlink(), ".hlog: missing (named by ClosedLoopBenchmark"),
    (lambda d: (d / "INCOMPLETE").write_text("interrupted"), "marked incomplete (interrupted)"),
])
def test_bad_run_folder_gives_one_line_naming_the_file(tmp_path, breakage, message):
    run = tmp_path / "broken"
    shutil.copytree(FIXTURE, run)
    breakage(run)
    r = cli("check", run)
    assert r.returncode == 1
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert message in lines[0] and str(run) in lines[0]


def test_a_log_with_fewer_intervals_than_measured_iterations_is_named(tmp_path):
    run = tmp_path / "short"
    shutil.copytree(FIXTURE, run)
    log = next(run.glob("OpenLoopBenchmark.request-okhttp-13ef*.hlog"))
    log.write_text("\n".join(line for line in log.read_text().splitlines() if not line.startswith("Tag=latency,")
                             or line == next(x for x in log.read_text().splitlines() if x.startswith("Tag=latency,"))))
    with pytest.raises(cba.AnalysisError, match=r"1 'latency' intervals for 3 measured iterations"):
        cba.shape_histogram(cba.load_run(run), "delay100ms-500", "okhttp", "latency")


def test_missing_folder_is_named(tmp_path):
    with pytest.raises(cba.AnalysisError, match="no such run folder"):
        cba.load_run(tmp_path / "nope")


def test_usage_for_an_unknown_command():
    r = cli("compare", FIXTURE, FIXTURE)
    assert r.returncode == 2 and r.stderr.startswith("usage:")


# ---------------------------------------------------------------- the README's figure

def reference_run():
    """The committed reference run: the newest standard-profile run under results/ in this format."""
    found = [p for p in sorted((ROOT / "results").iterdir()) if (p / "summary.json").is_file()
             and json.loads((p / "env.json").read_text()).get("profile") == "standard"]
    return found[-1] if found else None


def test_readme_block_is_what_the_reference_run_generates():
    ref = reference_run()
    if ref is None:
        pytest.skip("no committed reference run under results/ (a standard-profile run with summary.json)")
    readme = ROOT / "README.md"
    assert render.current_block(readme) == render.readme_block(cba.load_run(ref), readme), \
        f"README's figure block is stale: ./bench report --readme {ref.relative_to(ROOT)}"


def test_readme_command_writes_the_figure_and_only_the_block(tmp_path):
    run = tmp_path / "results" / "run-small"
    shutil.copytree(FIXTURE, run)
    readme = tmp_path / "README.md"
    readme.write_text(f"# title\n\nbefore\n\n{render.BEGIN}\nold text\n{render.END}\n\nafter\n")
    r = cli("readme", run, readme)
    assert r.returncode == 0, r.stderr
    text = readme.read_text()
    assert text.startswith("# title\n\nbefore\n\n") and text.endswith("\n\nafter\n") and "old text" not in text
    assert "![Each client's knee on capacity-http1" in text and "(results/run-small/main.png)" in text
    env = read("env.json")
    caption = text[text.index("\n*") + 2:text.index("*\n" + render.END)]
    assert caption.startswith(f"The reference run `run-small` (fixture profile: {env['purpose']}): 2 clients on "
                              f"{env['machine']['cpuCount']} cores of {env['machine']['cpuModel']}, JDK "
                              f"{env['launcherJdk']['version']}.")
    assert "median over 2 forks" in caption and "Right: no latency compared" in caption
    assert cbd.verdict(cba.load_run(run))[0] in caption
    assert (run / "main.png").read_bytes()[:4] == b"\x89PNG"
    r = cli("readme", run, readme)  # the same run again: the same block
    assert readme.read_text() == text


def test_readme_without_markers_is_refused(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("no block here\n")
    r = cli("readme", FIXTURE, readme)
    assert r.returncode == 1 and "no figure block" in r.stderr
    assert readme.read_text() == "no block here\n"


def test_a_probe_histogram_holds_only_the_probes_at_that_rate():
    # noop walks the whole ladder: its probes are at several rates.
    run = cba.load_run(FIXTURE)
    for rate in (1200.0, 2400.0):
        want = sum(it["latencyMicros"]["count"] for t in trials("capacity-http1", "noop") for it in t["iterations"]
                   if it["measured"] and it["probe.rate"] == rate)
        assert want > 0
        assert cba.probe_histogram(run, "capacity-http1", "noop", rate).get_total_count() == want


def test_runs_of_other_clients_or_shapes_do_not_agree(tmp_path):
    b = tmp_path / "b"
    shutil.copytree(FIXTURE, b)
    summary = read("summary.json", b)
    summary["runs"] = [r for r in summary["runs"] if r["shape"] != "closed-x4"]
    (b / "summary.json").write_text(json.dumps(summary))
    ag = cbd.agreement(cba.load_run(FIXTURE), cba.load_run(b))
    assert not ag.agree and ag.unmatched == ["closed-x4/jdk only in a", "closed-x4/noop only in a",
                                             "closed-x4/okhttp only in a"]


def with_bound_miss(tmp_path, why: str, noop_kept: bool, name="bound", jit=None) -> Path:
    """The fixture with jdk's search bounded by a miss at 4000 req/s for `why` (every fork), and noop's ladder
    rung at 4000 kept or not by the harness alone (kept despite its own gen: the harness still carried it)."""
    run = with_knees(tmp_path, {"jdk": (2000.0, 4000.0, True)}, name)
    summary = read("summary.json", run)
    for c in summary["capacity"]:
        if c["shape"] != "capacity-http1" or c["client"] not in ("jdk", cba.NOOP):
            continue
        forks = {p["fork"] for p in c["probes"]} or {0}
        template = c["probes"][0]
        c["probes"] = [p for p in c["probes"] if p["rate"] != 4000.0]
        for fork in forks:
            if c["client"] == "jdk":
                c["probes"].append({**template, "fork": fork, "rate": 4000.0, "pass": False, "why": why,
                                    "flags": ["flag.generator", "flag.lag"], "jitShare": jit})
            else:
                c["probes"].append({**template, "fork": fork, "rate": 4000.0, "pass": noop_kept,
                                    "why": "" if noop_kept else "latency p99 12.0 ms > 10 ms",
                                    "flags": ["flag.generator"] if noop_kept else []})
    (run / "summary.json").write_text(json.dumps(summary))
    return run


def test_a_miss_at_saturation_counts_against_the_client_only_where_the_harness_alone_kept_the_rate(tmp_path):
    why = "flagged: gen, lag (latency p99 30.8 ms > 10 ms)"
    kept = cba.knees(cba.load_run(with_bound_miss(tmp_path, why, True, "kept")))
    assert kept[kept["client"] == "jdk"]["flagged"].tolist() == [""], "noop kept 4000: jdk's miss is jdk's"
    lost = cba.knees(cba.load_run(with_bound_miss(tmp_path, why, False, "lost")))
    assert lost[lost["client"] == "jdk"]["flagged"].tolist() == ["gen, lag"], "noop did not: nobody's miss"
    other = cba.knees(cba.load_run(with_bound_miss(tmp_path, "flagged: lag, samples", True, "samples")))
    assert other[other["client"] == "jdk"]["flagged"].tolist() == ["lag, samples"], "too few samples: never excused"


def test_a_miss_at_the_bound_that_was_the_clients_makes_the_bound_the_clients_whatever_the_other_was_flagged(tmp_path):
    # Run 20261124-012039-vm's vertx fork: a miss under 10% steal ("lag, steal"), then its confirming probe at the same
    # rate missed again under saturation alone ("lag", noop kept the rate): the bound was the client's, not the host's.
    def knees_with_second_miss(name, second_why):
        run = with_bound_miss(tmp_path, "flagged: lag, steal (latency p99 22.6 ms > 10 ms)", True, name)
        summary = read("summary.json", run)
        for c in summary["capacity"]:
            if c["shape"] == "capacity-http1" and c["client"] == "jdk" and second_why:
                c["probes"] += [{**p, "why": second_why} for p in c["probes"] if p["rate"] == 4000.0]
        (run / "summary.json").write_text(json.dumps(summary))
        k = cba.knees(cba.load_run(run))
        return k[k["client"] == "jdk"]["flagged"].tolist()

    assert knees_with_second_miss("steal", None) == ["lag, steal"]
    assert knees_with_second_miss("steal-then-lag", "flagged: lag (latency p99 13.7 ms > 10 ms)") == [""]
    assert knees_with_second_miss("steal-then-plain", "latency p99 13.7 ms > 10 ms") == [""]
    assert knees_with_second_miss("steal-then-stub", "flagged: stub (latency p99 13.7 ms > 10 ms)") == ["lag, steal, stub"]


def test_a_search_stopped_by_misses_while_the_jit_compiled_is_flagged_not_ranked(tmp_path):
    # Three standard runs capped the JDK client's knee below 8k with two flagged misses in a row at the JIT's
    # 95-105%: noop kept the rate, so the saturation rule alone would count them against jdk.
    why = "flagged: gen, lag (latency p99 12.7 ms > 10 ms)"
    warm = cba.knees(cba.load_run(with_bound_miss(tmp_path, why, True, "warm", jit=0.96)))
    assert warm[warm["client"] == "jdk"]["status"].tolist() == ["flagged: jit"]
    assert "jdk" in cbd.rank_capacity(cba.load_run(tmp_path / "warm"), "capacity-http1").unranked[0]
    unflagged = cba.knees(cba.load_run(with_bound_miss(tmp_path, "latency p99 30.0 ms > 10 ms", True, "loud", jit=0.5)))
    assert unflagged[unflagged["client"] == "jdk"]["status"].tolist() == ["flagged: jit"], "any miss while compiling"
    quiet = cba.knees(cba.load_run(with_bound_miss(tmp_path, why, True, "quiet", jit=0.05)))
    assert quiet[quiet["client"] == "jdk"]["flagged"].tolist() == [""], "a quiet JIT: the saturation rule decides"


def test_one_measured_iteration_is_never_a_ranking(tmp_path):
    # A point interval would read any difference as a clear win; cut closed-x4 down to one measured iteration.
    run = tmp_path / "one"
    shutil.copytree(FIXTURE, run)
    for client in ("jdk", "okhttp"):
        kept = False
        for t in trials("closed-x4", client, run):
            path = run / next(p.name for p in run.glob("*.trial.json") if json.loads(p.read_text()) == t)
            if kept:
                path.unlink()
                continue
            first = next(i for i, it in enumerate(t["iterations"]) if it["measured"])
            t["iterations"] = t["iterations"][:first + 1]
            path.write_text(json.dumps(t))
            kept = True
    summary = read("summary.json", run)
    for r in summary["runs"]:
        if r["shape"] == "closed-x4":
            r["flags"] = []  # unflagged, so that only the iteration count can keep them from a ranking
    (run / "summary.json").write_text(json.dumps(summary))
    loaded = cba.load_run(run)
    counts = cba.iterations(loaded).query("shape == 'closed-x4' and measured")["client"].value_counts()
    assert counts["jdk"] == 1 and counts["okhttp"] == 1
    r = cbd.rank_closed(loaded, "closed-x4")
    assert r.groups == []
    assert sorted(r.unranked) == [("jdk", cbd.ONE_ITERATION), ("okhttp", cbd.ONE_ITERATION)]


def with_closed_windows(tmp_path, ok_per_s: dict, name="windows") -> Path:
    """The fixture with closed-x4 unflagged and each named client's measured windows' ok/s replaced, over both
    forks in the order they ran (its summary's ok/s their mean: the windows are equally long)."""
    run = tmp_path / name
    shutil.copytree(FIXTURE, run)
    summary = read("summary.json", run)
    for r in summary["runs"]:
        if r["shape"] == "closed-x4":
            r["flags"] = []
            if r["client"] in ok_per_s:
                r["okPerSecond"] = statistics.mean(ok_per_s[r["client"]])
    (run / "summary.json").write_text(json.dumps(summary))
    for client, values in ok_per_s.items():
        files = sorted(((t, p) for t, p in ((json.loads(p.read_text()), p) for p in run.glob("*.trial.json"))
                        if t["shape"] == "closed-x4" and t["client"] == client),
                       key=lambda tp: tp[0]["iterations"][0]["windowStartEpochMillis"])
        measured = [it for t, _ in files for it in t["iterations"] if it["measured"]]
        assert len(measured) == len(values)
        for it, x in zip(measured, values):
            it["ok"] = round(x * it["windowNanos"] / 1e9)
        for t, path in files:
            path.write_text(json.dumps(t))
    return run


def test_a_fixed_rate_figures_interval_is_95_percent_from_the_windows_pooled_spread(tmp_path):
    # Two forks of two windows a client: jdk 1000, 2000, 1000, 2000 ok/s; okhttp 450, 900, 450, 900. Their
    # ranges, [1000, 2000] and [450, 900], are clear of each other, and jdk would lead on them. Pooled (df 3 + 3):
    # every log deviates ln 2 / 2 from its client's mean, sd = sqrt(8 (ln 2 / 2)^2 / 6) = 0.4002; t(97.5%, df 6)
    # = 2.447 (tables); half-width 2.447 x 0.4002 / sqrt 4 = 0.4896 around each client's geometric mean:
    # okhttp's reaches 636.4 e^0.4896 = 1038, past jdk's 1414.2 e^-0.4896 = 866.7: a tie.
    jdk, okhttp = [1000.0, 2000.0] * 2, [450.0, 900.0] * 2
    assert cbd.window_spread({"jdk": jdk, "okhttp": okhttp}) == pytest.approx((0.4002, 6), abs=1e-4)
    run = cba.load_run(with_closed_windows(tmp_path, {"jdk": jdk, "okhttp": okhttp}))
    r = cbd.rank_closed(run, "closed-x4")
    assert r.groups == [["jdk", "okhttp"]]
    assert r.intervals["okhttp"] == pytest.approx((675.0, 390.0, 1038.4), rel=1e-3)
    assert r.intervals["jdk"] == pytest.approx((1500.0, 866.7, 2307.6), rel=1e-3)
    closed = [v for v in cbd.verdict(run) if v.startswith("closed-x4")][0]
    assert "no winner: tied: jdk 1500 ok/s [867-2308], okhttp 675 ok/s [390-1038]" in closed
    # Windows that agree exactly: no spread, the interval is their range (a point), and the ranges separate.
    same = cba.load_run(with_closed_windows(tmp_path, {"jdk": [2000.0] * 4, "okhttp": [500.0] * 4}, "same"))
    r = cbd.rank_closed(same, "closed-x4")
    assert r.groups == [["jdk"], ["okhttp"]] and r.intervals["jdk"][1:] == (2000.0, 2000.0)
    # Never narrower than the windows' range, however small the pooled spread.
    assert cbd.window_interval([1000.0, 1300.0], (0.001, 40)) == (1000.0, 1300.0)


def test_the_closed_loop_figure_draws_the_verdicts_interval(tmp_path):
    # jdk and okhttp ranked (as above): their lines are the 95% intervals, not the windows' ranges
    # ([1000, 2000] and [450, 900]).
    run = cba.load_run(with_closed_windows(tmp_path, {"jdk": [1000.0, 2000.0] * 2, "okhttp": [450.0, 900.0] * 2}))
    fig = figs.closed_loops(run, ["closed-x4"])
    lines = [ln for ln in fig.axes[0].get_lines() if len(ln.get_xdata()) == 2 and ln.get_xdata()[0] == ln.get_xdata()[1]]
    spans = sorted(tuple(ln.get_ydata()) for ln in lines)
    assert spans == [pytest.approx((390.0, 1038.4), rel=1e-3), pytest.approx((866.7, 2307.6), rel=1e-3)]
    assert all(ln.get_linestyle() == "-" for ln in lines)
    figs.plt.close(fig)


def test_a_delay_shapes_interval_is_of_the_latency_beyond_the_delay(tmp_path):
    # delay100ms-500, three windows each: p99 beyond the 100 ms delay jdk 500, 1000, 500 us; okhttp four times
    # that. Logs deviate -ln 2 / 3, -ln 2 / 3, 2 ln 2 / 3 from their mean: ss 2/3 (ln 2)^2 a client, df 2 + 2,
    # sd 0.4002; t(97.5%, df 4) = 2.776 (tables); half-width 2.776 x 0.4002 / sqrt 3 = 0.6414 around jdk's
    # geometric mean 630.0 us: [331.7, 1196.4] us beyond the delay, never below it.
    run = tmp_path / "delay"
    shutil.copytree(FIXTURE, run)
    keep_delay_shape(run)
    excess = {"jdk": [500, 1000, 500], "okhttp": [2000, 4000, 2000]}
    for path in run.glob("*.trial.json"):
        t = json.loads(path.read_text())
        if t["shape"] == "delay100ms-500" and t["client"] in excess:
            for it, x in zip((it for it in t["iterations"] if it["measured"]), excess[t["client"]]):
                it["latencyMicros"]["p99"] = 100_000 + x
            path.write_text(json.dumps(t))
    r = cbd.rank_open(cba.load_run(run), "delay100ms-500")
    assert r.groups == [["jdk"], ["okhttp"]]
    assert r.intervals["jdk"][1:] == pytest.approx((100_331.7, 101_196.4), rel=1e-5)
    assert r.intervals["okhttp"][1:] == pytest.approx((101_326.9, 104_785.6), rel=1e-5)


def test_the_comparison_counts_fixed_rate_figures_inside_the_other_runs_interval(tmp_path):
    a = cba.load_run(with_closed_windows(tmp_path, {"jdk": [1000.0, 2000.0] * 2, "okhttp": [450.0, 900.0] * 2}, "a"))
    b = cba.load_run(with_closed_windows(tmp_path, {"jdk": [3000.0] * 4, "okhttp": [520.0] * 4}, "b"))
    # a (as above): jdk 1500 [866.7, 2307.6] does not hold b's 3000, okhttp 675 [390.0, 1038.4] holds b's 520;
    # b's windows agree, so its intervals are points and hold neither of a's: 1 of 4.
    ag = cbd.agreement(a, b)
    f = ag.figures.set_index("client")
    assert list(f.loc[["jdk", "okhttp"], "b.in.a"]) == [False, True]
    assert list(f.loc[["jdk", "okhttp"], "a.in.b"]) == [False, False]
    assert "a fixed-rate figure (p99; a closed loop's ok/s) inside the other run's 95% interval: 1 of 4" \
        in "\n".join(ag.lines())
    assert "closed-x4: {jdk, okhttp} vs {jdk} > {okhttp}" in "\n".join(ag.lines())


def test_a_rate_kept_despite_gen_or_stub_is_kept_but_not_ranked_by_its_latency(tmp_path):
    # The SLO counts a rate kept despite a full client JVM as kept (Java: Slo.LIMITS), but then the latency may
    # be the harness's: no latency ranking rests on it. Lag is in the latency by definition and stays ranked.
    run = tmp_path / "limits"
    shutil.copytree(FIXTURE, run)
    keep_delay_shape(run, lambda client: ["flag.generator", "flag.lag"] if client == "jdk" else ["flag.lag"])
    r = cbd.rank_open(cba.load_run(run), "delay100ms-500")
    assert r.groups == [["okhttp"]]
    assert r.unranked == [("jdk", "kept the rate, latency not ranked: flagged generator")]


def test_a_figure_taken_while_the_jit_still_compiled_is_marked_and_its_latency_not_ranked(tmp_path):
    # Both clients keep delay100ms-500; jdk's trial records its JIT compiling for 35% of one measured window
    # (Java: Probes.jitShare), okhttp's 5%. Knees at 4800 make 1200-4800 common rates of the search; okhttp's
    # probes at the highest of them compiled for 35% of a window, jdk's for 2%.
    run = with_fork_knees(tmp_path, {"jdk": [4800.0, 4800.0], "okhttp": [4800.0, 4800.0]}, "jit")
    summary = keep_delay_shape(run)
    top = cba.common_rates(cba.load_run(run), "capacity-http1")[-1]
    for c in summary["capacity"]:
        for p in c["probes"]:
            p["jitShare"] = 0.35 if c["client"] == "okhttp" and p["rate"] == top else 0.02
    (run / "summary.json").write_text(json.dumps(summary))
    for path in run.glob("*.trial.json"):
        t = json.loads(path.read_text())
        if t["shape"] == "delay100ms-500":
            for i, it in enumerate(x for x in t["iterations"] if x["measured"]):
                it["probes"]["jitShare"] = (0.35 if i == 0 else 0.0) if t["client"] == "jdk" else 0.05
            path.write_text(json.dumps(t))
    loaded = cba.load_run(run)
    r = cbd.rank_open(loaded, "delay100ms-500")
    assert r.groups == [["okhttp"]]
    assert r.unranked == [("jdk", "kept the rate, latency not ranked: JIT 35% of a window, still warming up")]
    assert "okhttp p99" in cbd.verdict(loaded)[1] and "(JIT" not in cbd.verdict(loaded)[1].split("Not ranked")[0]
    # The decision table's cost at the common rate says so where that rate's probes were compiling.
    d = cbd.decide(loaded)
    cost = [c for c in d.table.columns if c.startswith("net CPU")][0]
    assert d.table.loc["okhttp", cost].endswith("(JIT 35%)") and "JIT" not in d.table.loc["jdk", cost]
    assert any(n.startswith("'JIT n%'") for n in d.notes)
    # Runs recorded before the JIT share was: nothing marked.
    plain = cbd.decide(cba.load_run(FIXTURE))
    assert not any("JIT" in str(v) for v in plain.table.to_numpy().ravel()) and not any("JIT" in n for n in plain.notes)


def test_the_verdict_says_how_each_fork_settled_before_it_measured(tmp_path):
    # Java's LoadState.settle writes its windows into the trial's record before JMH's warm-up, numbered by
    # "settle". Here jdk's fork settled in its second 2 s window (JIT 40%, then 5%); okhttp's compiled through
    # all eight windows of a 16 s bound; noop's first window was quiet. A shape without settle windows says nothing.
    run = tmp_path / "settled"
    shutil.copytree(FIXTURE, run)
    env = read("env.json", run)
    for s in env["shapes"]:
        if s["name"] == "h2c-500":
            s["params"]["settleSeconds"] = "16"
    (run / "env.json").write_text(json.dumps(env))
    jits = {"jdk": [0.40, 0.05], "okhttp": [0.5] * 8, cba.NOOP: [0.01]}
    for path in run.glob("*.trial.json"):
        t = json.loads(path.read_text())
        if t["shape"] == "h2c-500":
            first = t["iterations"][0]
            windows = [{**copy.deepcopy(first), "measured": False, "windowNanos": 2_000_000_000, "settle": n + 1,
                        "probes": {**first["probes"], "jitShare": j}} for n, j in enumerate(jits[t["client"]])]
            t["iterations"] = windows + t["iterations"]
            for i, it in enumerate(t["iterations"]):
                it["index"] = i
            path.write_text(json.dumps(t))
    loaded = cba.load_run(run)
    assert cbd.settle_words(loaded, "h2c-500") == (
        "each fork ran until a window's JIT share was under 10% (at most 16 s): 2 of 3 forks quiet, after a median "
        "3 s; still compiling at the bound: okhttp")
    assert cbd.settle_words(loaded, "https1-500") == ""
    h2c = [s for s in cbd.verdict(loaded) if s.startswith("h2c-500")][0]
    assert h2c.endswith("Warm-up: " + cbd.settle_words(loaded, "h2c-500") + ".")
    # okhttp compiled to the bound but its measured windows were quiet (JIT 3%): ranked, so not "still compiling".
    for path in run.glob("*.trial.json"):
        t = json.loads(path.read_text())
        if t["shape"] == "h2c-500" and t["client"] == "okhttp":
            for it in t["iterations"]:
                if it["measured"]:
                    it["probes"]["jitShare"] = 0.03
            path.write_text(json.dumps(t))
    assert cbd.settle_words(cba.load_run(run), "h2c-500").endswith(
        "3 s; still compiling at the bound, under 10% by the measured windows: okhttp")
    # The settle windows are warm-up: nothing measured changed.
    it = cba.iterations(loaded)
    assert (it[it["settle"] > 0]["measured"] == False).all()  # noqa: E712
    assert len(it[(it["shape"] == "h2c-500") & it["measured"]]) == len(
        cba.iterations(cba.load_run(FIXTURE)).query("shape == 'h2c-500' and measured"))
