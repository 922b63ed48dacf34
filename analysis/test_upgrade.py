"""An upgrade's run: each figure's ratio new/old from the paired rounds, its simultaneous interval and its verdict."""
import csv
import io
import json
import math
import random
import statistics

import pandas as pd
import pytest
from scipy import stats

from analysis.decide import behaviour as cbb
from analysis import load as cbl
from analysis.report import tables as tables
from analysis.decide import upgrade as cbu

OPEN = {"name": "rate-4000", "benchmark": "clientbench.jmh.OpenLoopBenchmark.request", "rounds": 7,
        "params": {"rate": "4000", "delayMs": "0", "protocol": "http1"}}
CLOSED = {"name": "closed-x16", "benchmark": "clientbench.jmh.ClosedLoopBenchmark.request", "rounds": 7,
          "params": {"concurrency": "16"}}
OLD, NEW = "apache@5.4.4", "apache@5.6.5"


def _fake_run(rows: list, tmp_path, shapes=(OPEN,)) -> cbl.Run:
    """An upgrade's run whose per-fork facts are given (the decision reads nothing else of it), with summary.json and
    results.csv on disk for `write`."""
    base = {"started": 0, "sent": 8000, "ok/s": math.nan, "cpu": math.nan, "cpu.clock": "ns", "cpu.compilers": "out",
            "alloc": math.nan, "syscalls": math.nan, "cswitches": math.nan, "p50": math.nan, "p99": math.nan, "jit": 0.0, "steal": 0.0, "flags": (),
            "windows": 3, "kernel": True, "steady": True, "knee": math.nan, "knee.high": math.nan, "knee.status": "",
            "knee.flags": ()}
    env = {"clients": [OLD, NEW], "shapes": list(shapes), "machine": {"cpuModel": "Test CPU", "cpuCount": 2},
           "launcherJdk": {"version": "25"}, "profile": "upgrade", "purpose": "an upgrade", "rounds": [], "runs": [],
           "settings": {"requestTimeout": "PT5S"},
           "upgrade": {"client": "apache", "old": {"label": OLD, "version": "5.4.4"},
                       "new": {"label": NEW, "version": "5.6.5"}}}
    summary = {"definitions": {}, "runs": [], "capacity": []}
    forks = {}
    for r in rows:  # one row per fork: the figures given for it together
        forks.setdefault((r["shape"], r["client"], r["round"]), {}).update(r)
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    (tmp_path / "results.csv").write_text("run,shape,client,cpu\nx,rate-4000,%s,1\nx,rate-4000,%s,2\n" % (OLD, NEW))
    run = cbl.Run("fake", tmp_path, env, summary, [])
    run._memo[("forks",)] = pd.DataFrame([{**base, **r} for r in forks.values()])
    return run


def _aa(rng: random.Random, rounds: int, sd: float) -> tuple:
    """One figure of an A/A run: both arms alike, each round slowed by the host alike (round effect) plus own noise."""
    host = [math.exp(rng.gauss(0, 0.2)) for _ in range(rounds)]
    old = {r + 1: 30 * host[r] * math.exp(rng.gauss(0, sd)) for r in range(rounds)}
    new = {r + 1: 30 * host[r] * math.exp(rng.gauss(0, sd)) for r in range(rounds)}
    return old, new


def test_an_aa_run_finds_no_difference_in_any_figure_with_at_least_95_percent_probability():
    # 2,000 A/A runs of 11 figures each: the share that finds any difference is the family-wise error, at most 5%
    # (Bonferroni over independent figures: 1 - (1 - 0.05/11)^11 = 4.9%). Its binomial sd over 2,000 runs is 0.5%:
    # the bounds are 3 sd either side, so a correction that is missing (about 43%) or far too wide (0%) fails.
    rng = random.Random(36)
    runs, figures, hits = 2000, 11, 0
    for _ in range(runs):
        found = False
        for _ in range(figures):
            old, new = _aa(rng, 7, 0.03)
            found |= cbu.paired(old, new, False, figures)["verdict"] != cbu.NONE
        hits += found
    assert 0.034 <= hits / runs <= 0.064, hits / runs


def test_an_aa_run_of_recorded_figures_says_no_difference_for_each():
    old, new = _aa(random.Random(7), 7, 0.03)
    p = cbu.paired(old, new, False, 11)
    assert p["verdict"] == cbu.NONE
    assert p["low"] < 1 < p["high"]


def test_a_known_ratio_is_found_within_its_interval():
    # The new version costs 10% less in every round, with 2% noise of its own and the host's spells on both.
    rng = random.Random(3)
    host = [math.exp(rng.gauss(0, 0.3)) for _ in range(7)]
    old = {r + 1: 40 * host[r] * math.exp(rng.gauss(0, 0.02)) for r in range(7)}
    new = {r + 1: 36 * host[r] * math.exp(rng.gauss(0, 0.02)) for r in range(7)}
    lower_is_better = cbu.paired(old, new, False, 11)
    assert lower_is_better["verdict"] == cbu.BETTER
    assert lower_is_better["low"] <= 0.9 <= lower_is_better["high"]
    assert cbu.paired(old, new, True, 11)["verdict"] == cbu.WORSE  # throughput 10% lower: worse


def test_the_interval_is_student_t_on_the_paired_log_ratios_over_the_family():
    old = {1: 10.0, 2: 20.0, 3: 40.0, 4: 10.0}
    new = {1: 11.0, 2: 21.0, 3: 45.0, 4: 10.5}
    logs = [math.log(new[r] / old[r]) for r in old]
    half = stats.t.ppf(1 - 0.05 / 2 / 5, 3) * statistics.stdev(logs) / 2
    p = cbu.paired(old, new, False, 5)
    assert p["ratio"] == pytest.approx(math.exp(statistics.mean(logs)))
    assert p["low"] == pytest.approx(math.exp(statistics.mean(logs) - half))
    assert p["old"] == pytest.approx(statistics.geometric_mean(old.values()))
    # could detect: the change whose paired t statistic clears the bound four times in five, by scipy's noncentral t
    t = stats.t.ppf(1 - 0.05 / 2 / 5, 3)
    noncentrality = math.log(1 + p["detectable"]) * 2 / statistics.stdev(logs)
    assert stats.nct.sf(t, 3, noncentrality) == pytest.approx(0.8, abs=1e-6)
    assert p["detectable"] > math.exp(half) - 1


def test_a_change_of_what_could_be_detected_is_found_four_times_in_five_and_the_half_width_not():
    # 2,000 upgrades of 8 rounds whose new version truly changes the figure by `could detect` (at the true spread):
    # found with probability 0.8 (binomial sd 0.9%; bounds 3 sd). A change of the interval's half-width: about half.
    rng = random.Random(80)
    rounds, sd, figures, runs = 8, 0.03, 11, 2000
    alpha = 0.05 / figures
    change = cbu.detectable_log_change(sd, rounds, alpha)
    half = stats.t.ppf(1 - alpha / 2, rounds - 1) * sd / math.sqrt(rounds)
    found = {change: 0, half: 0}
    for _ in range(runs):
        for true in found:
            host = [rng.gauss(0, 0.2) for _ in range(rounds)]
            old = {r + 1: 30 * math.exp(h) for r, h in enumerate(host)}
            new = {r: v * math.exp(true + rng.gauss(0, sd)) for r, v in old.items()}
            found[true] += cbu.paired(old, new, False, figures)["verdict"] != cbu.NONE
    assert 0.773 <= found[change] / runs <= 0.827, found[change] / runs
    assert found[half] / runs <= 0.6, found[half] / runs


def _duet(rng: random.Random, sets: int, blocks: int, change: float, jvm_sd: float, window_sd: float) -> tuple:
    """One figure of a duet, round set * 1000 + block: the host's effect per block on both versions alike, each JVM's
    own constant offset (a new JVM a set), each window's own noise; the new version truly `change` in log."""
    old, new = {}, {}
    for s in range(1, sets + 1):
        jvm_old, jvm_new = rng.gauss(0, jvm_sd), rng.gauss(0, jvm_sd)
        for b in range(1, blocks + 1):
            host = rng.gauss(0, 0.1)
            old[s * 1000 + b] = 30 * math.exp(host + jvm_old + rng.gauss(0, window_sd))
            new[s * 1000 + b] = 30 * math.exp(host + jvm_new + change + rng.gauss(0, window_sd))
    return old, new


def _duet_verdict(old: dict, new: dict, figures: int) -> dict:
    return cbu.paired(cbl.per_set(old), cbl.per_set(new), False, figures)


def test_a_duets_aa_finds_no_difference_at_95_percent_though_its_jvms_differ():
    # 2,000 A/A duets of 6 sets x 6 blocks, JVMs 2% apart, windows 10%, one figure judged at 95%: the error is at most
    # 5% (binomial sd 0.5%, bounds 3 sd). Judged block by block, the JVMs' offsets read as a difference more often.
    rng = random.Random(49)
    runs, per_set, per_block = 2000, 0, 0
    for _ in range(runs):
        old, new = _duet(rng, 6, 6, 0.0, 0.02, 0.1)
        per_set += _duet_verdict(old, new, 1)["verdict"] != cbu.NONE
        per_block += cbu.paired(old, new, False, 1)["verdict"] != cbu.NONE
    assert 0.035 <= per_set / runs <= 0.065, per_set / runs
    assert per_block / runs > 0.065, per_block / runs  # 7.5% with these seeds: past the bound


def test_a_duets_planted_change_of_what_it_could_detect_is_found_four_times_in_five():
    # The per-set spread of a duet of 6 x 6 with JVMs 2% and windows 10% apart is sqrt(2) x sqrt(0.02^2 + 0.1^2 / 6);
    # a change of what that could detect at 95% over 6 figures is found in 80% of 2,000 duets (bounds 3 sd: 2.7%).
    rng = random.Random(10)
    sets, blocks, figures, runs = 6, 6, 6, 2000
    sd = math.sqrt(2) * math.sqrt(0.02 ** 2 + 0.1 ** 2 / blocks)
    change = cbu.detectable_log_change(sd, sets, 0.05 / figures)
    found = sum(_duet_verdict(*_duet(rng, sets, blocks, change, 0.02, 0.1), figures)["verdict"] != cbu.NONE
                for _ in range(runs))
    assert 0.773 <= found / runs <= 0.827, (found / runs, math.exp(change) - 1)


def test_one_round_gives_a_ratio_without_an_interval():
    p = cbu.paired({1: 10.0, 2: 11.0}, {1: 9.0}, False, 3)
    assert p["rounds"] == 1 and p["verdict"] == cbu.FEW and math.isnan(p["low"])


def _rows(noop: list, old: list, new: list, shape="rate-4000", column="cpu") -> list:
    out = []
    for r, (n, a, b) in enumerate(zip(noop, old, new), start=1):
        out += [{"shape": shape, "client": "noop", "round": r, column: n},
                {"shape": shape, "client": OLD, "round": r, column: a},
                {"shape": shape, "client": NEW, "round": r, column: b}]
    return out


def test_costs_are_net_of_noop_in_the_same_round(tmp_path):
    # noop's cost doubles in round 2: net of it, the new version costs 27 us (within 0.1) against 30 in every round.
    noop = [10.0, 20.0, 10.0, 11.0]
    net = [27.0, 27.1, 26.9, 27.0]
    run = _fake_run(_rows(noop, [n + 30 for n in noop], [n + x for n, x in zip(noop, net)]), tmp_path)
    u = cbu.decide(run)
    cpu = next(f for f in u["figures"] if f["figure"] == "cpu")
    assert cpu["old"] == pytest.approx(30) and cpu["new"] == pytest.approx(27, abs=0.01)
    assert cpu["ratio"] == pytest.approx(0.9, abs=0.001) and cpu["verdict"] == cbu.BETTER


def test_a_duet_is_judged_per_set_so_what_one_jvm_does_is_no_difference(tmp_path):
    # An A/A duet of three sets of six blocks: each version's JVM costs its own constant few percent more or less, its
    # windows agree to 0.1%. Paired block by block that is "worse" (18 pairs, tiny spread); set by set, no difference.
    rows = []
    for s, (x, y) in enumerate([(1.03, 0.99), (0.98, 1.02), (1.01, 1.00)], start=1):
        for b in range(1, 7):
            w = 1 + 0.001 * (b % 2)
            rows += [{"shape": "rate-4000", "client": "noop", "round": s * 1000 + b, "cpu": 10.0},
                     {"shape": "rate-4000", "client": OLD, "round": s * 1000 + b, "cpu": 10 + 30 * x * w},
                     {"shape": "rate-4000", "client": NEW, "round": s * 1000 + b, "cpu": 10 + 30 * y * w}]
    cpu = next(f for f in cbu.decide(_fake_run(rows, tmp_path))["figures"] if f["figure"] == "cpu")
    assert cpu["rounds"] == 3, "three sets: three pairs"
    assert cpu["verdict"] == cbu.NONE, cpu


def test_rounds_that_agree_exactly_decide_nothing():
    # Two equal ratios (quantized latencies do this) estimate no spread: no figure here declares itself exact.
    p = cbu.paired({1: 100.0, 2: 120.0}, {1: 101.0, 2: 121.2}, higher_is_better=False, figures=1)
    assert p["ratio"] == pytest.approx(1.01) and p["verdict"] == cbu.NONE


def test_a_fork_that_never_settled_is_left_out_with_its_round_and_marks_the_figure(tmp_path):
    # Round 2's new fork never settled and read 3x its cost: left out, the other rounds say 27 against 30.
    noop = [10.0, 10.0, 10.0, 10.0]
    rows = _rows(noop, [40.0] * 4, [37.0, 100.0, 37.0, 37.0])
    rows[5]["steady"] = False  # round 2's new version
    assert rows[5]["client"] == NEW and rows[5]["round"] == 2
    cpu = next(f for f in cbu.decide(_fake_run(rows, tmp_path))["figures"] if f["figure"] == "cpu")
    assert cpu["rounds"] == 3 and cpu["ratio"] == pytest.approx(0.9) and "unsteady" in cpu["marks"]


def test_cpu_on_ticks_in_either_version_is_not_compared(tmp_path):
    # The same 10% gain as above; round 3's new fork read its CPU on 10 ms ticks: no CPU verdict at all.
    noop = [10.0, 10.0, 10.0, 10.0]
    rows = _rows(noop, [40.0] * 4, [37.0] * 4)
    rows[8]["cpu.clock"] = "ticks"
    assert rows[8]["client"] == NEW and rows[8]["round"] == 3
    assert [f["figure"] for f in cbu.decide(_fake_run(rows, tmp_path))["figures"]] == []
    rows[8]["cpu.clock"] = "ns"
    assert [f["figure"] for f in cbu.decide(_fake_run(rows, tmp_path))["figures"]] == ["cpu"]


def test_the_decision_is_written_once_into_summary_and_results_csv(tmp_path):
    noop = [10.0, 11.0, 10.5]
    rows = _rows(noop, [n + 30 for n in noop], [n + 30.3 for n in noop])
    rows += _rows([1e5] * 3, [5000.0, 5100.0, 5050.0], [5000.0, 5100.0, 5050.0], column="alloc")
    run = _fake_run(rows, tmp_path)
    u = cbu.decide(run)
    cbu.write(run, u)
    written = json.loads((tmp_path / "summary.json").read_text())["upgrade"]
    assert [f["figure"] for f in written["figures"]] == ["cpu"]  # alloc at or below noop's: no figure
    assert written["figuresTogether"] == 1
    table = list(csv.DictReader(io.StringIO((tmp_path / "results.csv").read_text())))
    new_row = next(r for r in table if r["client"] == NEW)
    assert float(new_row["upgrade.cpu"]) == pytest.approx(written["figures"][0]["ratio"], abs=1e-4)
    assert new_row["upgrade.cpu.verdict"] == written["figures"][0]["verdict"]
    assert next(r for r in table if r["client"] == OLD)["upgrade.cpu"] == ""


def _every_figure_run(tmp_path) -> cbl.Run:
    """An upgrade run with every figure of rate-4000 and closed-x16 over 7 rounds, new 0.5 and 0.2 above old in each."""
    rows = []
    for col in ("cpu", "alloc", "syscalls", "cswitches", "p50", "p99"):
        rows += _rows([1.0] * 7, [10.0 + r for r in range(7)], [10.5 + r for r in range(7)], column=col)
    for col in ("cpu", "alloc", "syscalls", "cswitches", "ok/s"):
        rows += _rows([1.0] * 7, [10.0 + r for r in range(7)], [10.2 + r for r in range(7)], "closed-x16", col)
    run = _fake_run(rows, tmp_path, (OPEN, CLOSED))
    return run


def test_the_terminal_ending_fits_40_lines_and_names_both_versions(tmp_path):
    run = _every_figure_run(tmp_path)
    u = cbu.decide(run)
    assert u["figuresTogether"] == 11
    words = cbu.terminal_upgrade(run, u)
    assert len(words.splitlines()) <= 40
    assert "apache 5.4.4 -> 5.6.5" in words and "upgrade.png" in words
    assert cbu.figure(run, u).is_file()


def test_a_real_upgrades_block_in_the_guide_is_its_terminal_verdict_under_its_command(tmp_path):
    from analysis.report import render
    run = _every_figure_run(tmp_path)
    run.summary["upgrade"] = cbu.decide(run)
    page = render.upgrade_page(tmp_path / "README.md")
    page.parent.mkdir(parents=True)
    page.write_text(f"# guide\n\n{render.begin('upgrade')}\nold\n{render.end('upgrade')}\nafter\n")
    assert render.write_upgrade_run(run, tmp_path / "README.md") == f"the upgrade block of {page}"
    text = page.read_text()
    block = text[text.index(render.begin("upgrade")):text.index(render.end("upgrade"))]
    assert text.replace(block, "") == f"# guide\n\n{render.end('upgrade')}\nafter\n"
    assert block.splitlines()[1].startswith("`./bench upgrade apache 5.4.4 5.6.5 --shapes rate-4000,closed-x16` (run `fake` under results/: 7 rounds")
    shown = cbu.terminal_upgrade(run, run.summary["upgrade"]).rstrip("\n")
    assert shown.replace(str(tmp_path / cbu.PNG), f"results/fake/{cbu.PNG}") in block and "results/fake/upgrade.png" in block
    run.summary["upgrade"]["new"]["version"] = "5.4.4"  # an A/A run's block is the verdict page's, not the guide's
    with pytest.raises(cbl.AnalysisError, match="an A/A run"):
        render.upgrade_block(run)


def test_a_table_longer_than_the_terminal_is_cut_before_the_verdict(tmp_path):
    shapes = [{**OPEN, "name": f"rate-{i}"} for i in range(6)]  # 36 figures
    rows = []
    for s in shapes:
        for col in ("cpu", "alloc", "syscalls", "cswitches", "p50", "p99"):
            rows += _rows([1.0] * 3, [10.0, 11.0, 12.0], [10.5, 11.4, 12.6], s["name"], col)
    run = _fake_run(rows, tmp_path, shapes)
    lines = cbu.terminal_upgrade(run, cbu.decide(run)).splitlines()
    assert len(lines) == 40
    assert any(line.startswith("... ") and "more figures in summary.json" in line for line in lines)
    assert lines[-1].startswith("figure of the ratios:") and any(line.startswith("verdict:") for line in lines)


def test_a_round_without_noop_marks_the_net_figure(tmp_path):
    rows = [x for x in _rows([10.0] * 4, [40.0] * 4, [37.0] * 4) if not (x["client"] == "noop" and x["round"] == 3)]
    cpu = next(f for f in cbu.decide(_fake_run(rows, tmp_path))["figures"] if f["figure"] == "cpu")
    assert "noop" in cpu["marks"] and cpu["ratio"] == pytest.approx(0.9)
    cpu = next(f for f in cbu.decide(_fake_run(_rows([10.0] * 4, [40.0] * 4, [37.0] * 4), tmp_path))["figures"]
               if f["figure"] == "cpu")
    assert "noop" not in cpu["marks"]


def _behaviour(tmp_path, new_race_twice: int):
    """behaviour.json of the run: the fixture's okhttp as both versions, each case's settings naming its library."""
    import copy
    from pathlib import Path

    facts = json.loads((Path(__file__).parent / "fixtures" / "behaviour-small" / "behaviour.json").read_text())
    one = facts["clients"]["okhttp"]
    facts["clients"] = {OLD: copy.deepcopy(one), NEW: copy.deepcopy(one)}
    for label in (OLD, NEW):
        for c in facts["clients"][label]["cases"].values():
            c["settings"]["library"] = "org.apache.httpcomponents.client5:httpclient5:" + label.split("@")[1]
    facts["clients"][NEW]["cases"]["stale-race"]["figures"]["postSentTwice"] = new_race_twice
    (tmp_path / "behaviour.json").write_text(json.dumps(facts))


def test_the_behaviour_cells_that_changed_stand_above_the_ratios(tmp_path):
    run = _every_figure_run(tmp_path)
    assert cbu.decide(run)["behaviour"] is None, "a run with --no-behaviour has no behaviour.json"
    assert not any(line.startswith("behaviour") for line in cbu.terminal_upgrade(run, cbu.decide(run)).splitlines())

    _behaviour(tmp_path, new_race_twice=0)  # the fixture's okhttp sent a POST twice: the new version does not
    u = cbu.decide(run)
    assert u["behaviour"]["counts"]["fixed"] == 1 and u["behaviour"]["library"]["new"] == [
        "org.apache.httpcomponents.client5:httpclient5:5.6.5"]
    lines = cbu.terminal_upgrade(run, u).splitlines()
    assert len(lines) <= 40
    fixed = next(i for i, line in enumerate(lines) if line.startswith("behaviour: 1 fixed"))
    assert lines[fixed + 1].split()[:3] == ["fixed", "idle", "race"]
    assert fixed < next(i for i, line in enumerate(lines) if line.startswith("shape"))
    assert cbu.versions(u)[1] == ("  new: apache@5.6.5 (its forks loaded not recorded; its behaviour cases "
                                  "org.apache.httpcomponents.client5:httpclient5:5.6.5)"), "the fake forks record none"
    assert all(len(line) <= 118 for line in lines)
    html = tables.upgrade_html(run, u)
    assert html.index("1 fixed") < html.index("<th>shape</th>") and "POST 2/2 x2 NO" in html
    assert "fixed" not in html[html.index("<th>shape</th>"):], "the verdict's paragraph holds the verdict alone"
    cbu.write(run, u)
    assert json.loads((tmp_path / "summary.json").read_text())["upgrade"]["behaviour"]["changed"][0]["aspect"] == "race"

    _behaviour(tmp_path, new_race_twice=1)  # the same marks: an A/A run's
    lines = cbu.terminal_upgrade(run, cbu.decide(run)).splitlines()
    cases = len(json.loads((tmp_path / "behaviour.json").read_text())["definitions"]["cases"])
    assert f"behaviour: no behaviour cell changed ({cases} cases, {len(cbb.ASPECTS)} cells)" in lines


def test_a_netty_bumps_arms_name_the_netty_each_fork_loaded(tmp_path):
    run = _every_figure_run(tmp_path)
    ahc = "org.asynchttpclient:async-http-client:3.0.13"
    for label, netty in ((OLD, "4.2.17.Final"), (NEW, "4.2.18.Final")):
        record = {"client": label, "shape": OPEN, "iterations": [],
                  "settings": {"library": ahc, "netty": f"io.netty:netty-handler:{netty}"}}
        run.trials.append(cbl.Trial(tmp_path / f"{netty}.trial.json", record))
    u = cbu.decide(run)
    assert u["new"]["library"] == [f"{ahc} on io.netty:netty-handler:4.2.18.Final"]
    assert f"its forks loaded {ahc} on io.netty:netty-handler:4.2.17.Final" in cbu.versions(u)[0]
    assert cbu.loaded({"library": ahc}) == ahc and cbu.loaded({}) is None
