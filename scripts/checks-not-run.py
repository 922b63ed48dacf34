#!/usr/bin/env python3
"""The checks a test run did not run, read from the JUnit XML that Surefire, Failsafe and pytest wrote after MARKER was
touched: one line each, naming it with why and how to get it (its skip's reason), printed last by ./bench test.
Under CI=true any check not run fails the run (exit 1).

    checks-not-run.py MARKER REPORT_FILE_OR_DIR...
"""
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def reports(paths, since: float):
    for p in map(Path, paths):
        files = sorted(p.glob("*.xml")) if p.is_dir() else [p] if p.is_file() else []
        yield from (f for f in files if f.stat().st_mtime >= since)


def not_run(files) -> dict:
    """check -> why, for every test case a report marks skipped."""
    found = {}
    for f in files:
        for case in ET.parse(f).iter("testcase"):
            skipped = case.find("skipped")
            if skipped is not None:
                # Surefire writes an aborted test's reason as its exception's first line, the trace after it.
                said = (skipped.get("message") or skipped.text or "").strip().split("\n")[0].strip()
                kind = skipped.get("type") or ""
                why = said.removeprefix(kind + ": ") if kind else said
                why = why or "no reason given"
                found[f"{case.get('classname')}.{case.get('name')}"] = why
    return found


def main(argv) -> int:
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    found = not_run(reports(argv[2:], Path(argv[1]).stat().st_mtime))
    if not found:
        print("bench: every check ran")
        return 0
    under_ci = os.environ.get("CI", "").lower() == "true"
    print(f"bench: {len(found)} check(s) not run here{', which under CI=true fails the run' if under_ci else ''}"
          " (each: why, and how to get it):")
    for check, why in sorted(found.items()):
        print(f"bench: not run: {check}: {why}")
    return 1 if under_ci else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
