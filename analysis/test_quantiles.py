"""scipy's quantiles kept on disk: one process's value is read by the next without scipy, exactly as scipy gives it,
for those arguments only; where no cache can be made, each is computed."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from scipy import stats

ASK = "import analysis.stats.quantiles as q; print(repr(q.quantile('studentized_range', 0.95, 5, {df})))"
NO_SCIPY = "import scipy.stats; scipy.stats.studentized_range.ppf = None; "  # a value computed here fails


def in_a_process(cache: Path, code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CLIENTBENCH_CACHE": str(cache)}
    return subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parent.parent, env=env, capture_output=True,
                          text=True, timeout=120)


def test_a_quantile_one_process_computed_is_read_by_the_next_without_scipy(tmp_path):
    first = in_a_process(tmp_path, ASK.format(df=7.5))
    second = in_a_process(tmp_path, NO_SCIPY + ASK.format(df=7.5))
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert float(first.stdout) == float(second.stdout) == float(stats.studentized_range.ppf(0.95, 5, 7.5))
    other = in_a_process(tmp_path, NO_SCIPY + ASK.format(df=8))  # never asked for: not on the disk
    assert other.returncode != 0 and "TypeError" in other.stderr, other.stdout


@pytest.mark.parametrize("cache", ["a-file", "a-file/below"])
def test_where_no_cache_can_be_made_each_is_computed(tmp_path, cache):
    (tmp_path / "a-file").write_text("")
    got = in_a_process(tmp_path / cache, ASK.format(df=7.5))
    assert got.returncode == 0, got.stderr
    assert float(got.stdout) == float(stats.studentized_range.ppf(0.95, 5, 7.5))
