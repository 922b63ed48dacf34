"""One estimator per figure: the table's value is the spectra's and results.csv's. Each expected number is worked out
here from the trial records and .hlog files with json and hdrh (per fork, then the geometric mean of the rounds: the
verdict's estimate for a client in every round), never read back from the code that wrote it."""
import csv
import io
import json
import math
import shutil

import matplotlib.pyplot as plt
import pytest
from hdrh.histogram import HdrHistogram

from analysis.conftest import FIXTURE, cli

from analysis.decide import verdict as cbd
from analysis.report import figures as figs
from analysis import load as cbl

SHAPE = "rate-4000"  # the fixture's common rate: two rounds of every client


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    path = tmp_path_factory.mktemp("estimates") / "run-small"
    shutil.copytree(FIXTURE, path)
    assert cli("decide", path).returncode == 0
    return path


def forks(path, shape, client):
    return [t for p in path.glob("*.trial.json") for t in [json.loads(p.read_text())]
            if t["shape"] == shape and t["client"] == client]


def fork_p99(path, trial) -> float:
    """The fork's windows' latency histograms merged, its p99 (µs)."""
    merged = None
    for line in (path / trial["hlog"]).read_text().splitlines():
        if line.startswith("Tag=latency,"):
            h = HdrHistogram.decode(line.rsplit(",", 1)[1])
            merged = h if merged is None else (merged.add(h) or merged)
    return merged.get_value_at_percentile(99)


def fork_cpu(trial) -> float:
    """The fork's CPU µs over its requests sent, its measured windows together (harness included)."""
    its = [it for it in trial["iterations"] if it["measured"]]
    return sum(it["cpuNanosInWindow"] for it in its) / 1e3 / sum(it["sent"] for it in its)


def geomean(xs) -> float:
    return math.exp(sum(map(math.log, xs)) / len(xs))


def rows(path) -> dict:
    return {(r["shape"], r["client"]): r for r in csv.DictReader(io.StringIO((path / "results.csv").read_text()))}


def verdict(path) -> dict:
    return json.loads((path / "summary.json").read_text())["verdict"]


def test_the_tables_p99_is_the_spectrums_and_the_csvs_and_the_rounds_geometric_mean(run):
    p99 = next(f for s in verdict(run)["shapes"] if s["shape"] == SHAPE for f in s["figures"] if f["figure"] == "p99")
    fig, ax = plt.subplots()
    figs.spectra_panel(ax, cbl.load_run(run), SHAPE)
    for client, c in p99["clients"].items():
        rounds = [fork_p99(run, t) for t in forks(run, SHAPE, client)]
        assert len(rounds) == 2 == c["n"]
        want = geomean(rounds)
        assert c["value"] == pytest.approx(want, rel=1e-3)  # the table's
        line = next(x for x in ax.get_lines() if x.get_label() == client)
        at_p99 = next(y for x, y in zip(line.get_xdata(), line.get_ydata()) if abs(x - 100) < 1e-6)
        assert at_p99 == pytest.approx(want, rel=1e-9)  # the spectrum's, drawn at 1 / (1 - 0.99)
        row = rows(run)[(SHAPE, client)]
        assert float(row["lat.p99"]) == pytest.approx(want, rel=1e-3)  # results.csv's
        assert float(row["lat.p99.low"]) <= float(row["lat.p99"]) <= float(row["lat.p99.high"])
    plt.close(fig)


def test_costs_are_net_and_gross_in_named_columns_each_the_rounds_geometric_mean(run):
    cpu = next(f for s in verdict(run)["shapes"] if s["shape"] == SHAPE for f in s["figures"] if f["figure"] == "cpu")
    table = rows(run)
    noop = {t["round"]: fork_cpu(t) for t in forks(run, SHAPE, "noop")}
    assert float(table[(SHAPE, "noop")]["cpu.per.req.gross"]) == pytest.approx(geomean(noop.values()), rel=1e-3)
    for client, c in cpu["clients"].items():
        gross = {t["round"]: fork_cpu(t) for t in forks(run, SHAPE, client)}
        row = table[(SHAPE, client)]
        assert float(row["cpu.per.req.gross"]) == pytest.approx(geomean(gross.values()), rel=1e-3)
        net = geomean([gross[r] - noop[r] for r in gross])
        assert float(row["cpu.per.req.net"]) == pytest.approx(net, rel=1e-3) == c["value"]
        assert row["tier.cpu"] == c["letters"]


def test_no_figure_is_in_results_csv_twice_nor_under_an_old_name(run):
    header = (run / "results.csv").read_text().splitlines()[0].split(",")
    assert len(header) == len(set(header))
    assert not {"ok", "err:ok", "sent", "cpu.per.req", "gc.alloc.rate.norm", "syscalls.per.req"} & set(header)
    assert {"ok.per.s", "lat.p50", "lat.max", "cpu.per.req.gross", "cpu.per.req.net", "alloc.per.req.net",
            "tier.cpu"} <= set(header)
    counts = [r for r in rows(run).values() if r["shape"] == SHAPE]
    assert all(int(r["n.sent"]) > 0 for r in counts), "Java's counts are kept"


def test_the_harness_floor_is_noops_latency_from_its_own_histograms(run):
    v = verdict(run)
    p99 = next(f for s in v["shapes"] if s["shape"] == SHAPE for f in s["figures"] if f["figure"] == "p99")
    noop = [fork_p99(run, t) for t in forks(run, SHAPE, "noop")]
    assert len(noop) == 2 == p99["harnessFloor"]["rounds"]
    assert p99["harnessFloor"]["value"] == pytest.approx(geomean(noop), rel=1e-3)
    assert "noop" not in p99["clients"]


def test_the_harness_floor_at_a_server_delay_is_noops_latency_as_measured(run):
    """noop never waits for the server: its latency is the harness's, the server's delay not taken off."""
    shape = "delay100ms-500"
    f = cbl.forks(cbl.load_run(run))
    floor = cbd.harness_floor(f[f["shape"] == shape], cbd.BY_KEY["p99"])
    noop = [fork_p99(run, t) for t in forks(run, shape, "noop")]
    assert len(noop) == 1 == floor["rounds"]
    assert floor["value"] == pytest.approx(noop[0], rel=1e-3)
