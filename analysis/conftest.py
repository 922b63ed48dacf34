"""A decided copy of analysis/fixtures/run-small for the report's tests (`decide` writes into the folder it reads), and
its report rendered once."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "run-small"


def cli(*args):
    return subprocess.run([sys.executable, str(HERE / "clientbench_cli.py"), *map(str, args)],
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
    import clientbench_render as render

    run, _ = decided
    out = run / "report.html"
    render.render([run], out)
    return out
