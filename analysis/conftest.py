"""A decided copy of analysis/fixtures/run-small for the report's tests (`decide` writes into the folder it reads), and
its report rendered once. A check that cannot run here is skipped with why and how to get it, and under CI=true any
skipped check fails: a CI run is never green because a check did not run."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "run-small"


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def require(met: bool, why: str):
    """Skips the test with `why` (what is missing and how to get it) unless `met`; under CI=true that fails it."""
    if not met:
        pytest.skip(why)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under CI=true a skip, from require() or anywhere else, is a failure that says why."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and under_ci() and not hasattr(report, "wasxfail"):
        why = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"the check cannot run here, and under CI=true that fails: {why.removeprefix('Skipped: ')}"


def cli(*args):
    return subprocess.run([sys.executable, str(HERE / "cli.py"), *map(str, args)],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="session")
def decided(tmp_path_factory):
    """(run folder, the terminal's verdict as `decide` printed it): the fixture with its verdict written."""
    run = tmp_path_factory.mktemp("decided") / "run-small"
    shutil.copytree(FIXTURE, run)
    r = cli("decide", run)
    assert r.returncode == 0, r.stderr
    return run, r.stdout


@pytest.fixture(scope="session")
def report_file(decided):
    """The decided fixture's report.html, rendered once for the report's tests and the browser's."""
    from analysis.report import render as render

    run, _ = decided
    out = run / "report.html"
    render.render([run], out)
    return out
