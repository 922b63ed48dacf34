"""A compacted run (the committed reference) decides the same verdict and draws the same spectra, smaller."""
import json
import shutil
from pathlib import Path

import pytest

import clientbench_compact as cbc
import clientbench_decide as cbd
import clientbench_load as cbl

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "run-small"


def test_the_verdict_and_the_merged_histograms_are_the_same_and_the_folder_is_smaller(tmp_path):
    src = tmp_path / "run"
    shutil.copytree(FIXTURE, src)
    (src / "jmh.log").write_text("x" * 100_000, encoding="utf-8")
    size = cbc.compact(src, tmp_path / "small")
    small = cbl.load_run(tmp_path / "small")
    full = cbl.load_run(src)
    assert json.dumps(cbd.verdict(small)) == json.dumps(cbd.verdict(full))
    for t in full.trials[:5]:
        for tag in ("latency", "service"):
            a, b = (cbl.merged([h for x in run.trials_of(t.shape, t.client) for h in x.intervals(tag)])
                    for run in (full, small))
            assert (a is None) == (b is None)
            if a is not None:
                assert a.get_total_count() == b.get_total_count()
                assert a.get_value_at_percentile(99) == b.get_value_at_percentile(99)
    assert size["after"] < size["before"]
    assert not (tmp_path / "small" / "jmh.log").exists() and (tmp_path / "small" / cbc.NOTE).is_file()
    assert len(list((tmp_path / "small").glob("*.trial.json.gz"))) == len(list(src.glob("*.trial.json"))) > 0
    assert not list((tmp_path / "small").glob("*.trial.json")) and not list((tmp_path / "small").glob("*.hlog"))


def test_it_never_writes_over_a_folder(tmp_path):
    (tmp_path / "there").mkdir()
    with pytest.raises(cbl.AnalysisError, match="exists"):
        cbc.compact(FIXTURE, tmp_path / "there")
