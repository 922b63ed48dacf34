"""The startup table against analysis/fixtures/startup-small: a real ./bench startup run (jdk and okhttp, three
starts each with and without their archive, see fixtures/README.md). Expected numbers are read from the fixture's
files here, with json directly, not through the module under test."""
import json
import math
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "startup-small"
sys.path.insert(0, str(HERE))
from analysis.decide import startup as cbs  # noqa: E402


def recorded(client, cds, field="startToFirstResponseMs", run=FIXTURE):
    """{round: value} of one client's starts in one condition, from startup.json."""
    starts = json.loads((run / "startup.json").read_text())["clients"][client]
    return {s["round"]: s[field] for s in starts if s["cds"] == cds}


# Ten cold starts (ms) as the fixture recorded them: jdk's, okhttp's and noop's without their archive by round,
# then jdk's first with it.
TEN = [664.409, 737.795, 1300.892, 1052.244, 984.016, 671.266, 257.622, 223.725, 279.47, 821.332]


def test_the_interval_for_ten_starts_is_the_2nd_to_the_9th_value():
    # P(Binomial(10, 1/2) <= 1) = 11/1024 <= 2.5% < P(<= 2) = 56/1024: ranks 2 and 9, coverage 97.9%.
    ordered = sorted(TEN)
    median, low, high = cbs.median_interval(TEN)
    assert median == pytest.approx((ordered[4] + ordered[5]) / 2)
    assert (low, high) == (ordered[1], ordered[8])


def test_the_ranks_follow_the_published_table_and_need_six_values():
    # Conover's table of the median's 95% interval: n=6 ranks 1 and 6, n=20 ranks 6 and 15; n=5 has none.
    values = list(range(100, 120))
    assert cbs.median_interval(values[:6])[1:] == (100, 105)
    assert cbs.median_interval(values)[1:] == (105, 114)
    median, low, high = cbs.median_interval(values[:5])
    assert median == 102 and math.isnan(low) and math.isnan(high)


def test_an_odd_count_has_its_middle_value_and_nan_is_left_out():
    assert cbs.median_interval([3.0, float("nan"), 1.0, 2.0])[0] == 2.0
    assert all(math.isnan(v) for v in cbs.median_interval([]))


def test_each_start_is_net_of_noops_start_in_the_same_round_and_condition():
    table = cbs.startup_table(FIXTURE).set_index(["client", "cds"])
    for client in ("jdk", "okhttp"):
        for cds in (False, True):
            own, noop = recorded(client, cds), recorded("noop", cds)
            expected = statistics.median(own[r] - noop[r] for r in own)
            assert table.loc[(client, cds), "startToFirstResponseMs"] == pytest.approx(expected)
            rss = recorded(client, cds, "afterRequests")
            base = recorded("noop", cds, "afterRequests")
            expected = statistics.median((rss[r]["rssBytes"] - base[r]["rssBytes"]) / 1e6 for r in rss)
            assert table.loc[(client, cds), "afterRequests.rssBytes"] == pytest.approx(expected)
    assert table.loc[("noop", False), "startToFirstResponseMs"] == pytest.approx(statistics.median(recorded("noop", False).values()))
    assert math.isnan(table.loc[("jdk", False), "startToFirstResponseMs.low"]), "3 starts: no 95% interval"


def test_the_footprint_joins_the_table():
    footprint = json.loads((FIXTURE / "footprint.json").read_text())["clients"]["okhttp"]
    row = cbs.startup_table(FIXTURE).set_index(["client", "cds"]).loc[("okhttp", False)]
    assert (row["artifacts"], row["MB"]) == (footprint["count"], pytest.approx(footprint["bytes"] / 1e6))


def test_a_failed_start_and_an_archive_not_mapped_are_counted_but_not_measured(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(FIXTURE, run)
    data = json.loads((run / "startup.json").read_text())
    jdk = data["clients"]["jdk"]
    failed = next(s for s in jdk if not s["cds"] and s["round"] == 1)
    failed.update(ok=False, failure="first request: timeout", startToFirstResponseMs=None)
    unmapped = next(s for s in jdk if s["cds"] and s["round"] == 2)
    unmapped["cdsArchiveUsed"] = False
    (run / "startup.json").write_text(json.dumps(data))

    table = cbs.startup_table(run).set_index(["client", "cds"])
    assert table.loc[("jdk", False), ["starts", "measured", "failed"]].tolist() == [3, 2, 1]
    assert table.loc[("jdk", True), ["starts", "measured", "failed"]].tolist() == [3, 2, 0]
    own, noop = recorded("jdk", False), recorded("noop", False)
    assert table.loc[("jdk", False), "startToFirstResponseMs"] == pytest.approx(
        statistics.median(own[r] - noop[r] for r in (2, 3)))


def test_figures_after_the_requests_come_only_from_starts_that_sent_them(tmp_path):
    # As a run recorded them where only its first round's starts send the 10,000 requests (the others' records
    # repeat the JVM at rest after the first): the table and the verdict take round 1 alone.
    run = tmp_path / "run"
    shutil.copytree(FIXTURE, run)
    data = json.loads((run / "startup.json").read_text())
    for starts in data["clients"].values():
        for s in starts:
            if s["round"] > 1:
                s["requests"] = {"asked": 0, "ok": 0, "failed": 0, "stopped": None}
                s["afterRequests"] = s["afterFirst"]
    (run / "startup.json").write_text(json.dumps(data))
    table = cbs.startup_table(run).set_index(["client", "cds"])
    rss, base = recorded("jdk", False, "afterRequests"), recorded("noop", False, "afterRequests")
    assert table.loc[("jdk", False), "afterRequests.rssBytes"] == pytest.approx(
        (rss[1]["rssBytes"] - base[1]["rssBytes"]) / 1e6)
    first, base = recorded("jdk", False, "afterFirst"), recorded("noop", False, "afterFirst")
    assert table.loc[("jdk", False), "afterFirst.rssBytes"] == pytest.approx(statistics.median(
        (first[r]["rssBytes"] - base[r]["rssBytes"]) / 1e6 for r in first)), "every round's first request still"


def test_the_command_prints_the_table_or_one_line():
    done = subprocess.run([sys.executable, str(HERE / "decide/startup.py"), str(FIXTURE)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "first response ms" in done.stdout and "okhttp" in done.stdout
    missing = subprocess.run([sys.executable, str(HERE / "decide/startup.py"), str(HERE / "nowhere")],
                             capture_output=True, text=True)
    assert missing.returncode == 1
    assert missing.stderr.startswith("startup: ") and "startup.json: missing" in missing.stderr
