"""The analysis's command line, the top layer: what ./bench runs after a comparison.

Commands and arguments: USAGE. check, decide (the verdict; an upgrade run's ratios), upgrade (ratios new/old), compare
(two runs), render (the report), readme (README's generated blocks, the verdict page's beside it; an A/A run's
resolution block there) and compact (a reference run) each read run folders and print or write; look (a running
folder: whether a shape is decided, as JSON) is what a run given --until-decided asks after each round. gate (upgrade
runs against a thresholds file: a Markdown summary, and the exit status 0, 1 or 3) and foresee (what a run of a given
length would resolve) are a pull-request check's; they exit 2 on bad input, as 1 is the gate's "regression".
"""
from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: the package from the checkout, not this file's folder
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from analysis import load as cbl

USAGE = ("usage: analysis/cli.py check RUN | decide RUN | upgrade RUN | compare RUN_A RUN_B | "
         "render OUT.html RUN [RUN] | readme RUN [README.md [OTHER]] | compact RUN OUT | look RUN SHAPE | "
         "gate THRESHOLDS SUMMARY_OUT RUN [RUN ...] | foresee THRESHOLDS PAIRS SHAPES CPU_MODEL [REFERENCE_RUN]")
ARITY = {"check": (1, 1), "decide": (1, 1), "upgrade": (1, 1), "compare": (2, 2), "render": (2, 3), "readme": (1, 3),
         "compact": (2, 2), "look": (2, 2), "gate": (3, sys.maxsize), "foresee": (4, 5)}


def main(argv) -> int:
    command, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    if command not in ARITY or not ARITY[command][0] <= len(args) <= ARITY[command][1]:
        print(USAGE, file=sys.stderr)
        return 2
    if command == "gate":
        try:
            return gate(args[0], Path(args[1]), args[2:])
        except Exception as e:  # a fault in judging is no regression: 3 (no decision), never a traceback's 1
            import traceback
            traceback.print_exc()
            print(f"gate: 3 (could not resolve): the gate itself failed: {type(e).__name__}: {e}")
            return 3
    if command == "foresee":
        return foresee(*args)
    try:
        if command == "render":
            import analysis.report.render
            analysis.report.render.render([Path(p) for p in args[1:]], Path(args[0]))
            return 0
        if command == "compact":
            import analysis.compact
            size = analysis.compact.compact(Path(args[0]), Path(args[1]))
            print(f"report: {args[1]}: {size['after'] / 1e6:.1f} MB (from {size['before'] / 1e6:.1f} MB)")
            return 0
        if command == "compare":
            from analysis.decide import verdict as cbd
            print(cbd.compare_text(cbl.load_run(args[0]), cbl.load_run(args[1])), end="")
            return 0
        if command == "look":
            import json

            from analysis.decide import verdict as cbd
            print(json.dumps(cbd.look(cbl.load_run(args[0], running=True), args[1])))
            return 0
        run = cbl.load_run(args[0])
        if command == "decide" and run.env.get("upgrade"):
            command = "upgrade"  # an upgrade run's verdict is its ratios
        if command == "check":
            print(f"report: {run.path}: {len(run.summary['runs'])} fixed-rate runs, "
                  f"{len(run.summary['capacity'])} knee searches, {len(run.trials)} forks")
        elif command == "decide":
            from analysis.decide import verdict as cbd
            from analysis.report import estimates as est
            v = cbd.verdict(run)
            cbd.write(run, v)
            est.write_csv(run, v)
            print(cbd.terminal_verdict(run, v), end="")
        elif command == "upgrade":
            from analysis.report import estimates as est
            from analysis.decide import upgrade as cbu
            u = cbu.decide(run)
            est.write_csv(run, None)
            cbu.write(run, u)
            cbu.figure(run, u)
            print(cbu.terminal_upgrade(run, u), end="")
        else:
            import analysis.report.render
            from analysis.decide import verdict as cbd
            readme = Path(args[1]) if len(args) > 1 else cbl.ROOT / "README.md"
            if run.env.get("upgrade"):
                print("report: " + analysis.report.render.write_upgrade_run(run, readme))
            elif cbd.read(run).get("layerCost"):
                print("report: " + analysis.report.render.write_layers(run, readme))
            else:
                against = cbl.load_verdict(args[2]) if len(args) > 2 else None
                analysis.report.render.write_readme(run, readme, against)
                print(f"report: {run.path / 'main.png'} and the generated blocks of {readme}"
                      + (f" and {analysis.report.render.verdict_page(readme)}" if against else ""))
    except cbl.AnalysisError as e:
        print(f"report: {e}", file=sys.stderr)
        return 1
    return 0


def gate(thresholds: str, summary_out: Path, runs: list) -> int:
    """Each upgrade run gated; the Markdown summary written; the table printed, the status line last. Returns the
    status: 0 no regression shown, 1 a regression, 3 could not resolve; 2 for a bad thresholds file or run folder."""
    from analysis.decide import gate as cbg
    from analysis.decide import upgrade as cbu
    from analysis.report import markdown as md

    try:
        t = cbg.read_thresholds(thresholds)
        us = [cbu.read(cbl.load_run(p)) for p in runs]
    except cbl.AnalysisError as e:
        print(f"gate: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # a run it cannot read is no regression: 2, never a traceback's 1
        print(f"gate: cannot judge {', '.join(map(str, runs))}: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    result = cbg.gate_all(us, t)
    pairs = list(zip(us, result["runs"]))
    try:
        write_summary(summary_out, md.summary(pairs))
    except OSError as e:
        print(f"gate: {summary_out}: cannot write the summary ({e.strerror})", file=sys.stderr)
        return 2
    print("\n".join(md.gate_lines(pairs) + [md.status_line(result)]))
    return result["status"]


def write_summary(path: Path, text: str):
    """Appended to the file $GITHUB_STEP_SUMMARY names (GitHub appends a step's summaries), in one write; any other
    file written whole, atomically."""
    import os

    from analysis.decide import verdict as cbd

    step = os.environ.get("GITHUB_STEP_SUMMARY")
    if step and path.resolve() == Path(step).resolve():
        with path.open("a", encoding="utf-8") as f:
            f.write(("\n" if path.is_file() and path.stat().st_size else "") + text)
    else:
        cbd.write_atomically(path, text)


def foresee(thresholds: str, pairs: str, shapes: str, cpu_model: str, reference: str | None = None) -> int:
    """Before measuring on a host of CPU_MODEL: per gated figure of SHAPES (a,b), the change a run of PAIRS pairs could
    detect at a reference A/A run's spread (the newest under results/, on this CPU model where there is one, unless
    named), its figures of those shapes judged together."""
    from analysis.decide import gate as cbg
    from analysis.decide import upgrade as cbu
    from analysis.report import markdown as md

    if not (pairs.isdigit() and int(pairs) >= 2):
        print(f"foresee: PAIRS {pairs!r}: a whole number, at least 2", file=sys.stderr)
        return 2
    try:
        t = cbg.read_thresholds(thresholds)
    except cbl.AnalysisError as e:
        print(f"foresee: {e}", file=sys.stderr)
        return 2
    try:
        path = Path(reference) if reference else cbg.reference_run(cbl.ROOT / "results", cpu_model)
        u = cbu.read(cbl.load_run(path))
    except Exception as e:  # no reference, or one it cannot read: the run goes on, and says after what it could detect
        print(f"foresee: nothing foreseen: {e}")
        return 0
    wanted = [s for s in shapes.split(",") if s]
    seen = {f["shape"] for f in u["figures"]}
    ref = {**u, "figures": [f for f in u["figures"] if f["shape"] in wanted]}
    lines = md.foresee_lines(cbg.foresee(t, ref, int(pairs), max(1, len(ref["figures"]))), path.name, u["holdsFor"],
                             cpu_model)
    lines += [f"foresee: {s}: not in {path.name}; what it can detect is said after the run" for s in wanted
              if s not in seen]
    print("\n".join(lines))
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
