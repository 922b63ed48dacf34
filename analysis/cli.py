"""The analysis's command line, the top layer: what ./bench runs after a comparison.

Commands and arguments: USAGE. check, decide (the verdict; an upgrade run's ratios), upgrade (ratios new/old), compare
(two runs), render (the report), readme (README's generated blocks, the verdict page's beside it; an A/A run's
resolution block there) and compact (a reference run) each read run folders and print or write; look (a running
folder: whether a shape is decided, as JSON) is what a run given --until-decided asks after each round.
"""
from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: the package from the checkout, not this file's folder
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from analysis import load as cbl

USAGE = ("usage: analysis/cli.py check RUN | decide RUN | upgrade RUN | compare RUN_A RUN_B | "
         "render OUT.html RUN [RUN] | readme RUN [README.md [OTHER]] | compact RUN OUT | look RUN SHAPE")
ARITY = {"check": (1, 1), "decide": (1, 1), "upgrade": (1, 1), "compare": (2, 2), "render": (2, 3), "readme": (1, 3),
         "compact": (2, 2), "look": (2, 2)}


def main(argv) -> int:
    command, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    if command not in ARITY or not ARITY[command][0] <= len(args) <= ARITY[command][1]:
        print(USAGE, file=sys.stderr)
        return 2
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
            readme = Path(args[1]) if len(args) > 1 else cbl.ROOT / "README.md"
            if run.env.get("upgrade"):
                page = analysis.report.render.verdict_page(readme)
                analysis.report.render.write_resolution(run, page)
                print(f"report: the resolution block of {page}")
            else:
                against = cbl.load_verdict(args[2]) if len(args) > 2 else None
                analysis.report.render.write_readme(run, readme, against)
                print(f"report: {run.path / 'main.png'} and the generated blocks of {readme}"
                      + (f" and {analysis.report.render.verdict_page(readme)}" if against else ""))
    except cbl.AnalysisError as e:
        print(f"report: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
