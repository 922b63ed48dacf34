#!/usr/bin/env python3
"""The checks a test run did not run, printed last by ./bench test: every check CHECKS lists (a test class and the runner
that runs it, or a pytest file) that no JUnit XML report written after MARKER shows, named on one line per runner; and
every test case a report marks skipped, one line each with why and how to get it (its skip's reason). Under CI=true any
check not run fails the run (exit 1). When every check ran, it says how many failed, if any.

    checks-not-run.py MARKER CHECKS REPORT_FILE_OR_DIR...
"""
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

PYTEST = "pytest"


def listed(path: Path) -> dict:
    """check -> its runner, from CHECKS: "RUNNER CHECK" a line (a class's name, or a pytest file's path), # comments."""
    out = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2:
            raise ValueError(f"{path}:{n}: want 'RUNNER CHECK', got '{line}'")
        out[parts[1]] = parts[0]
    return out


def reports(paths, since: float):
    for p in map(Path, paths):
        files = sorted(p.glob("*.xml")) if p.is_dir() else [p] if p.is_file() else []
        yield from (f for f in files if f.stat().st_mtime >= since)


def check_of(case) -> str:
    """The listed check a test case belongs to: its class, or for pytest ("analysis.test_x[.Class]") its file."""
    name = case.get("classname") or ""
    parts = name.split(".")
    if len(parts) >= 2 and parts[1].startswith("test_"):
        return "/".join(parts[:2]) + ".py"
    return name


def read(files) -> tuple:
    """(checks seen, {case: why skipped}, [cases failed]) over every test case of the reports."""
    seen, skipped, failed = set(), {}, []
    for f in files:
        for case in ET.parse(f).iter("testcase"):
            seen.add(check_of(case))
            label = f"{case.get('classname')}.{case.get('name')}"
            if case.find("failure") is not None or case.find("error") is not None:
                failed.append(label)
            s = case.find("skipped")
            if s is not None:
                # Surefire writes an aborted test's reason as its exception's first line, the trace after it.
                said = (s.get("message") or s.text or "").strip().split("\n")[0].strip()
                kind = s.get("type") or ""
                why = said.removeprefix(kind + ": ") if kind else said
                skipped[label] = why or "no reason given"
    return seen, skipped, failed


def main(argv) -> int:
    if len(argv) < 4:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    checks = listed(Path(argv[2]))
    seen, skipped, failed = read(reports(argv[3:], Path(argv[1]).stat().st_mtime))
    missing = {}
    for check, runner in sorted(checks.items()):
        if check not in seen:
            missing.setdefault(runner, []).append(check)
    if not skipped and not missing:
        print(f"bench: every check ran, and {len(failed)} failed (their lines above)" if failed
              else "bench: every check ran")
        return 0
    under_ci = os.environ.get("CI", "").lower() == "true"
    n = len(skipped) + sum(map(len, missing.values()))
    print(f"bench: {n} check(s) not run here{', which under CI=true fails the run' if under_ci else ''}"
          " (each: why, and how to get it):")
    for check, why in sorted(skipped.items()):
        print(f"bench: not run: {check}: {why}")
    for runner, names in sorted(missing.items()):
        how = ("pytest did not run, or not on these files" if runner == PYTEST
               else f"no {runner} report: Maven's arguments or an earlier failure left them out")
        print(f"bench: not run ({how}): {', '.join(names)}")
    return 1 if under_ci else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
