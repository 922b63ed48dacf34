"""A compacted run (the committed reference) decides the same verdict and draws the same spectra, smaller."""
import json
import shutil
from pathlib import Path

import pytest

from analysis import compact as cbc
from analysis.decide import verdict as cbd
from analysis import load as cbl

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "run-small"


def test_the_verdict_and_the_merged_histograms_are_the_same_and_the_folder_is_smaller(tmp_path):
    src = tmp_path / "run"
    shutil.copytree(FIXTURE, src)
    (src / "jmh.log").write_text("x" * 100_000, encoding="utf-8")
    for raw in cbc.UNINDENTED:  # as Java writes them, indented
        shutil.copy(FIXTURE.parent / f"{raw.split('.')[0]}-small" / raw, src / raw)
    size = cbc.compact(src, tmp_path / "small")
    small = cbl.load_run(tmp_path / "small")
    full = cbl.load_run(src)
    assert json.dumps(cbd.verdict(small)) == json.dumps(cbd.verdict(full))
    knees = [t for t in full.trials if cbl.kind(full, t.shape) == "capacity"]
    assert knees and all(x.intervals(tag) == [] for x in small.trials if cbl.kind(small, x.shape) == "capacity"
                         for tag in cbc.TAGS)
    for t in [t for t in full.trials if t not in knees][:5]:
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
    assert all("latency.ok" not in t.record["histograms"] for t in small.trials)
    for raw in cbc.UNINDENTED:
        assert json.loads((tmp_path / "small" / raw).read_text()) == json.loads((src / raw).read_text())
        assert (tmp_path / "small" / raw).stat().st_size < (src / raw).stat().st_size
    assert not list((tmp_path / "small").glob("*.trial.json")) and not list((tmp_path / "small").glob("*.hlog"))


def test_it_never_writes_over_a_folder(tmp_path):
    (tmp_path / "there").mkdir()
    with pytest.raises(cbl.AnalysisError, match="exists"):
        cbc.compact(FIXTURE, tmp_path / "there")
