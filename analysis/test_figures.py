"""The report's figures against the decided fixture (conftest.py): what each draws is checked against the trial
records and histograms read here with json and hdrh, and against summary.json's verdict."""
import json
import sys

import matplotlib.pyplot as plt
import pytest
from hdrh.histogram import HdrHistogram

from analysis.conftest import HERE

sys.path.insert(0, str(HERE))
from analysis.report import figures as figs  # noqa: E402
from analysis import load as cbl  # noqa: E402


def trials(run, shape, client):
    out = [json.loads(p.read_text()) for p in run.glob("*.trial.json")]
    return [t for t in out if t["shape"] == shape and t["client"] == client]


def figure_of(run, shape, key):
    v = json.loads((run / "summary.json").read_text())["verdict"]
    return v, next(f for s in v["shapes"] if s["shape"] == shape for f in s["figures"] if f["figure"] == key)


def points(ax, x):
    """The y of every single-point line drawn at x (dots and estimate ticks), and the bars' ends there."""
    dots = [line.get_ydata()[0] for line in ax.get_lines() if len(line.get_xdata()) == 1 and line.get_xdata()[0] == x]
    bars = [tuple(line.get_ydata()) for line in ax.get_lines() if list(line.get_xdata()) == [x, x]]
    return dots, bars


def test_vt_variants_take_their_base_hue_dashed_and_families_differ():
    bases = ["ahc", "apache", "jetty", "okhttp", "jdk", "reactor", "vertx", "helidon"]
    assert len({figs.style(b)["color"] for b in bases} | {figs.style("noop")["color"]}) == 9
    for b in ("apache", "jetty", "okhttp", "jdk"):
        assert figs.style(b + "-vt") == {"color": figs.style(b)["color"], "linestyle": "--"}


def test_a_spring_layer_takes_its_engines_hue_dash_dotted():
    for engine in ("jdk", "apache", "jetty", "reactor"):
        for layer in ("restclient-", "webclient-"):
            assert figs.style(layer + engine) == {"color": figs.style(engine)["color"], "linestyle": "-."}


def test_a_dot_per_round_is_the_forks_bytes_per_request_net_of_noops_in_that_round(decided):
    run = decided[0]
    _, f = figure_of(run, "rate-4000", "alloc")
    fig, ax = plt.subplots()
    figs.rounds_panel(ax, cbl.load_run(run), f)

    def per_request(t):
        its = [it for it in t["iterations"] if it["measured"]]
        return sum(it["allocatedBytesInWindow"] for it in its) / sum(it["sent"] for it in its)

    noop = {t["round"]: per_request(t) for t in trials(run, "rate-4000", "noop")}
    for x, client in enumerate(f["clients"]):
        want = sorted(per_request(t) - noop[t["round"]] for t in trials(run, "rate-4000", client))
        dots, bars = points(ax, x)
        assert len(want) == 2 and sorted(dots) == pytest.approx(sorted(want + [f["clients"][client]["value"]]))
        assert bars == [(f["clients"][client]["low"], f["clients"][client]["high"])]
        c = f["clients"][client]
        everyone = set.intersection(*(set(o["marks"]) for o in f["clients"].values()))  # said once, not starred
        assert ax.get_xticklabels()[x].get_text() == client + ("*" if set(c["marks"]) - everyone else "")
        assert [t.get_text() for t in ax.texts if t.xy[0] == x] == [c["letters"]]
    plt.close(fig)


def test_a_figure_per_shape_has_a_panel_per_ranked_figure(decided):
    run = decided[0]
    v, _ = figure_of(run, "closed-x4", "throughput")
    s = next(s for s in v["shapes"] if s["shape"] == "closed-x4")
    fig = figs.rounds_figure(cbl.load_run(run), v, "closed-x4")
    titles = [ax.get_title().split("\n")[0] for ax in fig.axes if ax.get_visible()]
    assert titles == [f["label"] + (" net of noop" if f["net"] else "") for f in s["figures"]]
    plt.close(fig)


def test_a_spectrum_of_one_round_is_its_forks_merged_windows_beyond_the_server_delay(decided):
    run = decided[0]
    fig, ax = plt.subplots()
    figs.spectra_panel(ax, cbl.load_run(run), "delay100ms-500")
    merged = None
    for t in trials(run, "delay100ms-500", "okhttp"):
        for line in (run / t["hlog"]).read_text().splitlines():
            if line.startswith("Tag=latency,"):
                h = HdrHistogram.decode(line.rsplit(",", 1)[1])
                merged = h if merged is None else merged.add(h) or merged
    assert merged is not None and merged.get_total_count()  # one round: the fork's own figure, as in the verdict
    drawn = next(line for line in ax.get_lines() if line.get_label() == "okhttp")
    assert drawn.get_ydata()[0] == pytest.approx(max(merged.get_value_at_percentile(50) - 100_000, 1.0))
    plt.close(fig)


def test_the_knee_search_draws_every_probe_of_every_round(decided):
    run = decided[0]
    v = json.loads((run / "summary.json").read_text())["verdict"]
    summary = json.loads((run / "summary.json").read_text())
    fig = figs.knee_search(cbl.load_run(run), v, "capacity-http1")
    for ax in (a for a in fig.axes if a.get_visible()):
        client = ax.get_title().split(":")[0]
        probes = next(c["probes"] for c in summary["capacity"] if c["client"] == client and c["shape"] == "capacity-http1")
        drawn = [line for line in ax.get_lines() if len(line.get_xdata()) == 1 and line.get_marker() in figs.ROUND_MARKERS]
        assert len(drawn) == len(probes) > 0
    plt.close(fig)


def test_failing_shapes_are_those_with_a_failure_an_unsent_or_an_expired_but_a_knee_search(decided):
    run = decided[0]
    env = json.loads((run / "env.json").read_text())
    want = []
    for s in env["shapes"]:
        if s["benchmark"].endswith("CapacityBenchmark.request"):
            continue  # a knee search's probes past the knee fail by design; they are in its own figure
        its = [it for c in env["clients"] if c != "noop" for t in trials(run, s["name"], c)
               for it in t["iterations"] if it["measured"]]
        if any(sum(it["failures"].values()) or it["unsent"] or it["expiredAtDrain"] for it in its):
            want.append(s["name"])
    assert figs.failing_shapes(cbl.load_run(run)) == want and "delay6s-50" in want


def test_the_main_figure_is_cpu_per_request_and_latency_at_the_common_rate(decided):
    run = decided[0]
    v, f = figure_of(run, "rate-4000", "cpu")
    fig = figs.main_figure(cbl.load_run(run), v)
    cpu, lat = fig.axes[:2]
    assert [t.get_text().split("*")[0] for t in cpu.get_xticklabels()] == list(f["clients"])
    assert lat.get_title().startswith("rate-4000: latency")
    assert {line.get_label() for line in lat.get_lines()} >= set(v["clients"])
    plt.close(fig)
