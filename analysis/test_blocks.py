"""An interleaved set is netted window by window, each in its block: costs net of noop's window in the same block,
system calls from the turn's resume window, latency p50 and p99 from the fork's windows' histograms merged;
then each set (a JVM of each client) is one value: JVMs of one client differ by more than their windows do."""
import math

import pytest
from hdrh.histogram import HdrHistogram

from analysis.decide import verdict as cbd
from analysis import load as cbl
from analysis.report import tables as cbt

OPEN = {"name": "rate-4000", "benchmark": "clientbench.jmh.OpenLoopBenchmark.request", "rounds": 1,
        "params": {"rate": "4000", "delayMs": "0", "protocol": "http1"}}
SENT = 4000


def _histogram(latency_us: int, slow_us: int = 0) -> HdrHistogram:
    h = HdrHistogram(1, 3_600_000_000, 3)
    h.record_value(latency_us, SENT - 60)
    h.record_value(slow_us or latency_us, 60)  # 1.5% of the window: its p99
    return h


def _window(measured: bool, start_ms: int, cpu_us: float, syscalls: int, block: int | None) -> dict:
    it = {"measured": measured, "windowNanos": 1_000_000_000, "windowStartEpochMillis": start_ms, "sent": SENT,
          "ok": SENT, "cpuNanosInWindow": int(cpu_us * SENT * 1000), "allocatedBytesInWindow": 1000 * SENT,
          "cpuClock": "ns", "latencyMicros": {"p50": 0, "p99": 0}, "flags": [],
          "probes": {"jitShare": 0.0, "stealShare": 0.0, "syscalls": syscalls, "contextSwitches": 0 if syscalls >= 0 else -1}}
    if block is not None:
        it["block"] = block
    else:
        it["resume"] = True
    return it


def _fork(client: str, cpu_us: list, syscalls: int, p50_us: list, slow_us: int, tmp_path, jvm: int = 1) -> cbl.Trial:
    """One fork of set `jvm`: per block a resume window (counted by the kernel) then a measured one (not counted)."""
    its, hs = [], []
    for b, (cpu, p50) in enumerate(zip(cpu_us, p50_us), start=1):
        its.append(_window(False, b * 10_000, cpu, syscalls * SENT, None))
        its.append(_window(True, b * 10_000 + 2_000, cpu, -1, b))
        hs.append(_histogram(p50, slow_us))
    record = {"client": client, "shape": "rate-4000", "round": jvm, "interleaved": True, "hlog": f"{client}-{jvm}.hlog",
              "iterations": its, "warmup": {"steady": True}, "settings": {}}
    return cbl.Trial(tmp_path / f"{client}-{jvm}.trial.json", record, {"latency": hs})


def _run(tmp_path, trials: list, clients: list) -> cbl.Run:
    env = {"clients": clients, "shapes": [OPEN], "machine": {"cpuModel": "Test CPU", "cpuCount": 2},
           "launcherJdk": {"version": "25"}, "profile": "quick", "purpose": "for decisions", "rounds": [], "runs": [],
           "settings": {"requestTimeout": "PT5S"}}
    return cbl.Run("interleaved", tmp_path, env, {"definitions": {"slo": cbl.THRESHOLDS["slo"]}, "runs": [],
                                                 "capacity": []}, trials)


@pytest.fixture
def run(tmp_path):
    # Two sets, whose JVMs differ by 1%. The host slows in block 3: noop's CPU and every client's rise by the same
    # 40 us; net, each is steady.
    host = [0, 0, 40, 0, 0, 0]
    trials = []
    for jvm, k in ((1, 1.0), (2, 1.01)):
        trials += [_fork("noop", [10 + h for h in host], 2, [30] * 6, 40, tmp_path, jvm),
                   _fork("lean", [10 + 30 * k * (1 + 0.01 * (b % 2)) + h for b, h in enumerate(host)], 5,
                         [100, 101, 99, 100, 102, 98], 400, tmp_path, jvm),
                   _fork("heavy", [10 + 60 / k * (1 + 0.01 * (b % 2)) + h for b, h in enumerate(host)], 9,
                         [200, 198, 203, 200, 201, 199], 900, tmp_path, jvm)]
    return _run(tmp_path, trials, ["lean", "heavy"])


def test_each_window_is_a_row_in_its_block(run):
    b = cbl.blocks(run)
    assert sorted(b.loc[b["client"] == "lean", "round"]) == [1001, 1002, 1003, 1004, 1005, 1006,
                                                             2001, 2002, 2003, 2004, 2005, 2006]
    lean = b[b["client"] == "lean"].set_index("round")
    assert lean.loc[1003, "cpu"] == pytest.approx(10 + 30 + 40)
    # The kernel counted the resume window before each measured one: 5 a request, not the measured window's -1.
    assert list(lean["syscalls"]) == [5.0] * 12
    assert lean.loc[1002, "p50"] == 101 and lean.loc[1006, "p50"] == 98
    assert (lean["windows"] == 1).all()
    assert len(cbl.forks(run)) == 6, "forks stay one a fork"


def test_costs_are_net_of_noops_window_in_the_same_block(run):
    f = cbd.rank(run, "rate-4000", cbd.BY_KEY["cpu"])
    assert f["rounds"] == 2, "a set's windows are one value: two sets"
    # Net of noop block by block, the host's 40 us in block 3 is gone: lean's 30-30.3 us, heavy's 60-60.6.
    assert f["clients"]["lean"]["value"] == pytest.approx(30.3, rel=0.01)
    assert f["clients"]["heavy"]["value"] == pytest.approx(60.0, rel=0.01)
    assert f["pairs"]["separated"] == 1


def test_p50_and_p99_are_merged_over_the_fork(run):
    p50 = cbd.rank(run, "rate-4000", cbd.BY_KEY["p50"])
    assert p50["rounds"] == 2
    assert p50["clients"]["lean"]["value"] == pytest.approx(100, rel=0.02)
    p99 = cbd.rank(run, "rate-4000", cbd.BY_KEY["p99"])
    assert p99["rounds"] == 2, "a fork a set: its windows merged"
    assert p99["clients"]["heavy"]["value"] == pytest.approx(900, rel=0.01)
    assert math.isclose(cbd.rank(run, "rate-4000", cbd.BY_KEY["syscalls"])["clients"]["heavy"]["value"], 7, rel_tol=0.01)


def test_a_slow_spell_in_one_window_moves_the_sets_p50_little(tmp_path):
    # One window of six at 700 us (a spell of the host), the fork's others at 100: the mean of the windows' logs reads
    # x1.38; the fork's requests merged keep their median at 100 us.
    trials = []
    for jvm in (1, 2):
        spell = [100, 100, 700, 100, 100, 100] if jvm == 1 else [100] * 6
        trials += [_fork("noop", [10] * 6, 2, [30] * 6, 40, tmp_path, jvm),
                   _fork("a", [40] * 6, 5, spell, 400, tmp_path, jvm),
                   _fork("b", [40] * 6, 5, [100] * 6, 400, tmp_path, jvm)]
    run = _run(tmp_path, trials, ["a", "b"])
    windows = cbl.per_set({int(r): v for r, v, c in zip(*(cbl.blocks(run)[k] for k in ("round", "p50", "client")))
                           if c == "a"})
    assert windows[1] == pytest.approx(100 * 7 ** (1 / 6), rel=0.01), "the mean of windows' logs the spell moves"
    p50 = cbd.rank(run, "rate-4000", cbd.BY_KEY["p50"])
    assert p50["clients"]["a"]["value"] == pytest.approx(100, rel=0.01)


def test_two_jvms_of_one_client_are_not_told_apart_by_what_each_jvm_does(tmp_path):
    # An A/A: "a" and "a#2" run one code, but each JVM allocates its own constant few percent more or less (JIT choices),
    # while its windows agree to 0.1%. Block by block that looks like a difference; set by set it is the JVMs' spread.
    trials = []
    for jvm, (x, y) in enumerate([(1.03, 0.99), (0.98, 1.02), (1.01, 1.00)], start=1):
        for name, k in (("noop", 0.0), ("a", x), ("a#2", y)):
            t = _fork(name, [10 + 30 * k * (1 + 0.001 * (b % 2)) for b in range(6)], 5, [100] * 6, 400, tmp_path, jvm)
            trials.append(t)
    f = cbd.rank(_run(tmp_path, trials, ["a", "a#2"]), "rate-4000", cbd.BY_KEY["cpu"])
    assert f["rounds"] == 3
    assert f["pairs"]["separated"] == 0, f["pairs"]


def test_a_set_whose_fork_was_not_stopped_says_so_where_the_reader_looks(run):
    assert "unstoppedSets" not in cbd.verdict(run)  # every fork was stopped: nothing to say
    run.env["sets"] = [{"shape": "rate-4000", "set": 1, "idle": "stopped", "left": [], "notStopped": {}},
                       {"shape": "rate-4000", "set": 2, "idle": "stopped", "left": [], "notStopped": {"lean": 3}}]
    v = cbd.verdict(run)
    assert v["unstoppedSets"] == [{"shape": "rate-4000", "set": 2, "forks": {"lean": 3}}]
    note = "rate-4000 set 2: not stopped while waiting: lean (3 times)"
    assert note in cbd.terminal_verdict(run, v)
    assert note in cbt.first_screen_html(run, v)
