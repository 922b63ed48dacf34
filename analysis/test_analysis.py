"""The notebook and its helpers, against a small committed fixture run (analysis/fixtures/run-small,
cut from a real quick run on the reference machine: two clients, every quick shape)."""
import copy
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIXTURE = HERE / "fixtures" / "run-small"
sys.path.insert(0, str(HERE))
import clientbench_analysis as cba  # noqa: E402


def run_notebook(runs: str):
    nb = nbformat.read(ROOT / "analysis.ipynb", as_version=4)
    old = os.environ.get("CLIENTBENCH_RUNS")
    os.environ["CLIENTBENCH_RUNS"] = runs
    try:
        NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    finally:
        if old is None:
            os.environ.pop("CLIENTBENCH_RUNS", None)
        else:
            os.environ["CLIENTBENCH_RUNS"] = old
    return nb


def outputs_text(nb) -> str:
    text = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            text.append(out.get("text", ""))
            text.append(str(out.get("data", {}).get("text/markdown", "")))
    return "\n".join(text)


def test_notebook_executes_headless_against_the_fixture_run(tmp_path):
    run = tmp_path / FIXTURE.name
    shutil.copytree(FIXTURE, run)
    nb = run_notebook(str(run))  # raises CellExecutionError on any cell error
    text = outputs_text(nb)
    assert "Immediate responses:" in text
    assert (run / "main.png").stat().st_size > 10_000


def test_notebook_compares_two_runs(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(FIXTURE, a)
    shutil.copytree(FIXTURE, b)
    results = json.loads((b / "results.json").read_text())
    for r in results:
        r["secondaryMetrics"]["ok"]["score"] *= 0.5  # every client got twice as slow
    (b / "results.json").write_text(json.dumps(results))
    text = outputs_text(run_notebook(f"{a}{os.pathsep}{b}"))
    assert "significant changes" in text


def test_fixture_accounting_balances_exactly():
    w = cba.wide(cba.load_run(FIXTURE).frame)
    assert (w["n.scheduled"] == w["n.sent"] + w["n.dropped"]).all()
    assert (w["n.sent"] == w["n.ok"] + w["n.failed"]).all()


def test_closed_loop_rows_survive_the_pivot():
    w = cba.wide(cba.load_run(FIXTURE).frame)
    closed = w[w["model"] == "closed"]
    assert len(closed) == w["client"].nunique()
    assert closed["rate"].isna().all()
    assert len(w) == len(cba.load_run(FIXTURE).results)


def known_winner_run(tmp_path, winner: str) -> Path:
    """The fixture with `winner` made clearly best everywhere and every other client clearly worse."""
    run = tmp_path / "known-winner"
    shutil.copytree(FIXTURE, run)
    results = json.loads((run / "results.json").read_text())
    for r in results:
        s = r["secondaryMetrics"]
        rate = float(r["params"].get("rate", 0))
        good = r["params"]["client"] == winner
        if rate:
            s["ok"]["score"] = rate if good else rate * 0.5
            s["n.sent"]["score"] = s["n.scheduled"]["score"]
            s["n.dropped"]["score"] = 0
            for k in list(s):
                if k.startswith("n.fail."):
                    s[k]["score"] = 0
            s["n.ok"]["score"] = s["n.sent"]["score"]
            s["latency.p99"]["score"] = 1_000 if good else 900_000
        else:
            s["ok"]["score"] = 20_000 if good else 5_000
    (run / "results.json").write_text(json.dumps(results))
    return run


@pytest.mark.parametrize("winner", ["okhttp", "jdk"])
def test_verdict_names_the_known_winner_of_every_shape(tmp_path, winner):
    run = known_winner_run(tmp_path, winner)
    verdicts = cba.verdicts(cba.wide(cba.load_run(run).frame), slo_p99_ms=10, max_failure_share=0.001)
    shapes = cba.wide(cba.load_run(run).frame)["shape"]
    assert len(verdicts) == 1 + sum(1 for s in shapes.unique() if not cba.is_sweep(s))
    for v in verdicts:
        assert f": {winner} wins" in v, v
    assert any("4.0x the runner-up" in v or "no other client" in v for v in verdicts if v.startswith("Immediate"))


def test_verdict_says_so_when_no_client_meets_the_slo(tmp_path):
    run = known_winner_run(tmp_path, "nobody")
    verdicts = cba.verdicts(cba.wide(cba.load_run(run).frame), slo_p99_ms=10, max_failure_share=0.001)
    assert verdicts[0].startswith("Immediate responses: no client met")


def test_compare_keeps_only_significant_changes():
    w = cba.wide(cba.load_run(FIXTURE).frame)
    assert cba.compare(w, w.copy()).empty
    slower = w.copy()
    slower["ok"] = slower["ok"] * 0.5
    changes = cba.compare(w, slower)
    assert set(changes["metric"]) == {"ok"}
    assert len(changes) == len(w[w["ok"] > 0])


@pytest.mark.parametrize("breakage, message", [
    (lambda d: (d / "results.json").unlink(), "results.json: missing"),
    (lambda d: (d / "results.json").write_text(""), "results.json: empty file"),
    (lambda d: (d / "results.json").write_text('[{"benchmark": '), "results.json: not valid JSON"),
    (lambda d: (d / "results.json").write_text("[]"), "results.json: holds no benchmark results"),
    (lambda d: (d / "results.json").write_text('[{"benchmark": "x"}]'), "results.json: entry 0 is not a JMH result"),
    (lambda d: (d / "env.json").write_text("{}"), "env.json: has no 'runs' list"),
    (lambda d: (d / "INCOMPLETE").write_text("interrupted"), "marked incomplete (interrupted)"),
])
def test_bad_run_folder_gives_one_line_naming_the_file(tmp_path, breakage, message):
    run = tmp_path / "broken"
    shutil.copytree(FIXTURE, run)
    breakage(run)
    result = subprocess.run([sys.executable, str(HERE / "clientbench_analysis.py"), "check", str(run)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0] and str(run) in lines[0]


def test_missing_folder_is_named(tmp_path):
    with pytest.raises(cba.AnalysisError, match="no such run folder"):
        cba.load_run(tmp_path / "nope")


def test_merged_histogram_holds_every_measured_interval_of_every_fork():
    run = cba.load_run(FIXTURE)
    w = cba.wide(run.frame)
    row = w[(w["shape"] == "immediate-1000") & (w["client"] == "okhttp")].iloc[0]
    h = cba.merged_histogram(run, "immediate-1000", "okhttp")
    # One latency record per request that completed; the expired never completed.
    assert h.get_total_count() == row["n.sent"] - row["n.expired"]
    assert h.get_value_at_percentile(99) == pytest.approx(row["latency.p99"], rel=0.01)


def test_a_client_that_crashed_holding_long_requests_is_reported_with_its_reason():
    w = cba.wide(cba.load_run(FIXTURE).frame)
    held = cba.long_lived(w, 0.001, ["longlived-15000/apache-vt: Terminating due to java.lang.OutOfMemoryError",
                                     "h2c-2000/ahc: not a long-lived shape"])
    assert list(held["client"]) == ["apache-vt"]
    row = held.iloc[0]
    assert row["held"] == 0 and row["failed"] == "at 15000: Terminating due to java.lang.OutOfMemoryError"
