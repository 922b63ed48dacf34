"""scripts/run-keys.py: a committed run against a copy of itself shows no difference, and against a copy with one
change planted, that change and nothing else."""
import csv
import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "run-keys.py"
RUN = ROOT / "results" / "20261128-181610-vm"  # a standard run of every shape: each file kind a compacted run keeps


def run_keys(before: Path, after: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), str(before), str(after)], capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def copy(tmp_path) -> Path:
    return Path(shutil.copytree(RUN, tmp_path / RUN.name))


def differences(out: str) -> list:
    return out.splitlines()[1:]  # after the line naming the two runs


def test_a_run_against_a_copy_of_itself_shows_no_difference(copy):
    r = run_keys(RUN, copy)
    assert r.returncode == 0, r.stdout + r.stderr
    assert differences(r.stdout)[0].startswith("no difference: 12 clients, 5 shapes, ")


def test_a_key_removed_from_summary_json_is_named(copy):
    summary = json.loads((copy / "summary.json").read_text())
    del summary["verdict"]["flaggedRounds"]
    (copy / "summary.json").write_text(json.dumps(summary))
    r = run_keys(RUN, copy)
    assert r.returncode == 1
    assert differences(r.stdout) == ["summary.json keys: 1 only in BEFORE, 0 only in AFTER",
                                     "  - verdict.flaggedRounds"]


def test_which_clients_a_map_names_is_data_not_a_key(tmp_path):
    # two runs of one build: a fork that never settled leaves jdk unlettered in one, apache in the other
    runs = []
    for client in ("jdk", "apache"):
        run = Path(shutil.copytree(RUN, tmp_path / client / RUN.name))
        summary = json.loads((run / "summary.json").read_text())
        for shape in summary["verdict"]["shapes"]:
            for figure in shape["figures"]:
                figure["unlettered"] = {}
        summary["verdict"]["shapes"][0]["figures"][0]["unlettered"] = {client: "1 of its 3 rounds never settled"}
        (run / "summary.json").write_text(json.dumps(summary))
        runs.append(run)
    r = run_keys(*runs)
    assert r.returncode == 0, r.stdout


def test_a_column_dropped_from_results_csv_is_named(copy):
    with open(copy / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    kept = [c for c in rows[0] if c != "lat.p50"]
    with open(copy / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, kept, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    r = run_keys(RUN, copy)
    assert r.returncode == 1
    assert differences(r.stdout) == ["results.csv columns: 1 only in BEFORE, 0 only in AFTER", "  - lat.p50"]


def test_a_clients_missing_trial_file_is_named_by_its_client_shape_and_round(copy):
    gone = sorted(copy.glob("ClosedLoopBenchmark.request-ahc-*.trial.json.gz"))[0]
    record = json.loads(gzip.decompress(gone.read_bytes()))
    gone.unlink()
    r = run_keys(RUN, copy)
    assert r.returncode == 1
    assert differences(r.stdout) == [
        "files: 1 only in BEFORE, 0 only in AFTER",
        f"  - ClosedLoopBenchmark.request-ahc@{record['shape']}#{record['round']}.trial.json.gz"]


def test_a_folder_that_is_no_run_is_refused(tmp_path):
    r = run_keys(RUN, tmp_path)
    assert r.returncode == 2 and f"{tmp_path}: not a run folder (no env.json)" in r.stderr and not r.stdout
