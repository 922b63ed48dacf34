"""The gate's command line: gate and foresee as ./bench upgrade runs them (exit statuses, the summary file, the step
summary), the reference run's choice, and the thresholds file teams copy."""
import json

from analysis import load as cbl
from analysis.decide import gate as cbg
from analysis.decide import upgrade as cbu
from analysis.test_gate import AA_RUN, EXAMPLE_TOML, GATE_TOML, _toml


# ---------------------------------------------------------------- the command line

def _cli(*args, env=None):
    import os
    import subprocess
    import sys

    environ = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
    return subprocess.run([sys.executable, str(cbl.ROOT / "analysis" / "cli.py"), *map(str, args)],
                          capture_output=True, text=True, env={**environ, **(env or {})}, timeout=300)


def _regressed_copy(tmp_path):
    """The committed A/A run, its decided CPU per request made 16% worse (summary.json's upgrade is what gate reads)."""
    import shutil

    run = tmp_path / "regressed"
    shutil.copytree(AA_RUN, run)
    summary = json.loads((run / "summary.json").read_text())
    cpu = next(f for f in summary["upgrade"]["figures"] if f["figure"] == "cpu")
    cpu.update(ratio=1.16, low=1.09, high=1.23, verdict=cbu.WORSE)
    (run / "summary.json").write_text(json.dumps(summary))
    return run


def test_the_gate_command_exits_with_each_status_and_prints_its_line_last(tmp_path):
    out = tmp_path / "summary.md"
    done = _cli("gate", GATE_TOML, out, AA_RUN)
    assert done.returncode == 3, done.stderr
    assert done.stdout.splitlines()[-1].startswith("gate: 3 (could not resolve): CPU per request could detect 6.6%")
    assert out.read_text().startswith("## Upgrade gate: could not resolve\n")

    loose = _toml(tmp_path, '[thresholds]\ncpu = "10%"\nalloc = "10%"\np50 = "10%"\nbehaviour = "broken"\n')
    assert _cli("gate", loose, out, AA_RUN).returncode == 0
    assert out.read_text().startswith("## Upgrade gate: no regression shown\n"), "written whole, not appended"

    done = _cli("gate", GATE_TOML, out, AA_RUN, _regressed_copy(tmp_path))
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[-1] == ("gate: 1 (regression): jetty 12.1.14 -> 12.1.14: CPU per request x1.16 "
                                            "[1.09, 1.23] beyond +5% (rate-4000, marked jit, lag)")
    assert out.read_text().count("### jetty@12.1.14 -> jetty@12.1.14#2") == 2


def test_a_bad_thresholds_file_or_run_exits_2_in_one_line_and_writes_nothing(tmp_path):
    out = tmp_path / "summary.md"
    done = _cli("gate", _toml(tmp_path, '[thresholds]\ncpu = "5"\n'), out, AA_RUN)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "gate.toml: [thresholds] cpu" in done.stderr
    done = _cli("gate", GATE_TOML, out, tmp_path / "nowhere")
    assert done.returncode == 2 and "nowhere: no such run folder" in done.stderr
    assert not out.exists()
    assert _cli("gate", GATE_TOML, out).returncode == 2, "no run: the usage"


def test_the_summary_is_appended_to_githubs_step_summary_file(tmp_path):
    step = tmp_path / "step_summary"
    step.write_text("an earlier step's summary\n")
    done = _cli("gate", GATE_TOML, step, AA_RUN, env={"GITHUB_STEP_SUMMARY": str(step)})
    assert done.returncode == 3, done.stderr
    assert step.read_text().startswith("an earlier step's summary\n\n## Upgrade gate: could not resolve\n")


def test_foresee_names_its_reference_and_exits_2_on_a_bad_count():
    done = _cli("foresee", GATE_TOML, 8, "rate-4000,closed-x16", "AMD EPYC")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"foresee: 8 pairs, 6 figures together, at the spread of run {AA_RUN.name} "
                               "(2 cores of AMD EPYC")
    assert "  rate-4000 CPU per request: could detect 4.9%, threshold +5%: resolved" in lines
    assert f"foresee: closed-x16: not in {AA_RUN.name}; what it can detect is said after the run" in lines
    assert not any("this host is" in line for line in lines), "the reference's own CPU model: no warning"
    other = _cli("foresee", GATE_TOML, 8, "rate-4000", "Intel(R) Xeon(R) Processor").stdout.splitlines()
    assert other[1].startswith("foresee: this host is Intel(R) Xeon(R) Processor, and no A/A run under results/ was"
                               " made on it"), other
    done = _cli("foresee", GATE_TOML, 6, "rate-4000", "AMD EPYC", "/nonexistent/run")
    assert done.returncode == 0 and done.stdout.startswith("foresee: nothing foreseen: "), "no reference: the run goes on"
    assert _cli("foresee", GATE_TOML, 1, "rate-4000", "AMD EPYC").returncode == 2
    assert _cli("foresee", GATE_TOML, "x", "rate-4000", "AMD EPYC").returncode == 2


def test_no_thresholds_file_gates_nothing_and_passes(tmp_path):
    done = _cli("gate", "-", tmp_path / "s.md", AA_RUN)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "gate: 0 (no regression shown): nothing gated: every threshold is open"
    assert "## Upgrade gate: no regression shown" in (tmp_path / "s.md").read_text()


def test_a_planted_run_is_never_the_reference(tmp_path):
    import shutil

    planted = tmp_path / "results" / "29990101-000000-vm"
    shutil.copytree(AA_RUN, planted)
    env = json.loads((planted / "env.json").read_text())
    env["upgrade"]["planted"] = {"label": env["upgrade"]["new"]["label"], "spinNanosPerRequest": 8000}
    (planted / "env.json").write_text(json.dumps(env))
    shutil.copytree(AA_RUN, tmp_path / "results" / AA_RUN.name)
    assert cbg.reference_run(tmp_path / "results").name == AA_RUN.name


def test_the_example_thresholds_resolve_at_the_checks_design_on_the_committed_aa_run():
    t = cbg.read_thresholds(EXAMPLE_TOML)
    assert {k: v for k, v in t.items() if v != cbg.OPEN} == {"cpu": 0.10, "alloc": 0.10, "p50": 0.10,
                                                               "behaviour": "broken"}
    u = cbu.read(cbl.load_run(AA_RUN))
    assert all(p["resolves"] for p in cbg.foresee(t, u, 6, u["figuresTogether"]))
    assert cbg.gate(u, t)["status"] == 0


def test_a_fault_in_judging_exits_3_not_the_1_of_a_regression(tmp_path, monkeypatch, capsys):
    from analysis import cli
    from analysis.report import markdown as md

    def broken(pairs, width=118):
        raise KeyError("old")

    monkeypatch.setattr(md, "gate_lines", broken)
    assert cli.main(["cli.py", "gate", str(GATE_TOML), str(tmp_path / "summary.md"), str(AA_RUN)]) == 3
    assert capsys.readouterr().out.splitlines()[-1] == ("gate: 3 (could not resolve): the gate itself failed: "
                                                        "KeyError: 'old'")
