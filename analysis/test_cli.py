"""The analysis's command line: one line for a good folder, one line naming the file for a broken one."""
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "run-small"


def cli(*args):
    return subprocess.run([sys.executable, str(HERE / "cli.py"), *map(str, args)], capture_output=True, text=True)


def test_check_says_what_the_folder_holds_in_one_line():
    done = cli("check", FIXTURE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1 and "forks" in done.stdout


def test_a_broken_folder_gets_one_line_naming_the_file(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(FIXTURE, run)
    (run / "summary.json").write_text("{", encoding="utf-8")
    done = cli("check", run)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "summary.json" in done.stderr and "not valid JSON" in done.stderr
    (run / "summary.json").unlink()
    done = cli("decide", run)
    assert done.returncode == 1 and "summary.json: missing" in done.stderr and "Traceback" not in done.stderr


def test_an_incomplete_run_is_refused_with_its_reason(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(FIXTURE, run)
    (run / "INCOMPLETE").write_text("interrupted at noon", encoding="utf-8")
    done = cli("check", run)
    assert done.returncode == 1 and "interrupted at noon" in done.stderr


def test_bad_usage_prints_the_usage_and_exits_2():
    for args in ([], ["decide"], ["nonsense", "x"], ["compare", FIXTURE]):
        done = cli(*args)
        assert done.returncode == 2 and done.stderr.startswith("usage: "), (args, done.stderr)
