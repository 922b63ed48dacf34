#!/usr/bin/env python3
"""Whether two run folders hold the same things, values aside: the clients and shapes (env.json), the files (a trial's
named by its client, shape and round instead of its hash and PID), the key paths of summary.json and env.json (a list's
items by their keys, a client's name as <client>) and results.csv's columns. A change that should leave behaviour alone (a restructure) shows as
no difference between a run before it and one after, on the same profile and machine.

    run-keys.py BEFORE_RUN AFTER_RUN    prints each difference (- only in BEFORE, + only in AFTER); exit 1 on any,
                                        0 on none, 2 on bad input

A list's key paths are those any of its items has: runs of different lengths compare alike.
"""
import csv
import gzip
import json
import re
import sys
from collections import Counter
from pathlib import Path

# <Benchmark>.<method>-<client>-<params hash>-<fork PID>.<ext>: the hash and PID differ from run to run.
TRIAL = re.compile(r"(?P<head>.+)-[0-9a-f]{8}-\d+\.(?P<ext>hlog|trial\.json(?:\.gz)?)")
JSON_KEYS = ("summary.json", "env.json")
USAGE = "usage: run-keys.py BEFORE_RUN AFTER_RUN"


class BadRun(Exception):
    pass


def read_json(path: Path):
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def trial_name(path: Path) -> str:
    """A trial file's name as the client, shape and round its record names: 'OpenLoopBenchmark.request-ahc@rate-4000#1
    .trial.json'; a name that is not a trial's, as it is."""
    m = TRIAL.fullmatch(path.name)
    if not m:
        return path.name
    stem = path.name[:-len(m["ext"])]
    record = next((p for p in (path.with_name(stem + "trial.json"), path.with_name(stem + "trial.json.gz")) if p.exists()),
                  None)
    if record is None:
        return f"{m['head']}@?.{m['ext']}"  # no record beside it: a difference of its own
    r = read_json(record)
    return f"{m['head']}@{r.get('shape')}#{r.get('round')}.{m['ext']}"


def key_paths(value, clients: frozenset = frozenset(), prefix: str = "") -> set:
    """Every key path in a JSON value ('verdict.shapes[].figures[].label'): a list's items by the union of theirs, a key
    that is one of the run's clients as <client> (which clients a map names, e.g. those a fork left unlettered, is data;
    the clients are compared on their own)."""
    out = set()
    if isinstance(value, dict):
        for k, v in value.items():
            k = "<client>" if k in clients else k
            p = f"{prefix}.{k}" if prefix else str(k)
            out |= {p} | key_paths(v, clients, p)
    elif isinstance(value, list):
        for v in value:
            out |= key_paths(v, clients, prefix + "[]")
    return out


def facts(run: Path) -> dict:
    """{facet: Counter of its items} for one run folder."""
    if not run.is_dir() or not (run / "env.json").is_file():
        raise BadRun(f"{run}: not a run folder (no env.json)")
    try:
        env = read_json(run / "env.json")
        out = {"clients": Counter(env.get("clients") or []),
               "shapes": Counter(s.get("name") for s in env.get("shapes") or []),
               "files": Counter(str(p.relative_to(run).with_name(trial_name(p)))
                                for p in run.rglob("*") if p.is_file())}
        for name in JSON_KEYS:
            out[f"{name} keys"] = Counter(key_paths(read_json(run / name), frozenset(out["clients"]))) \
                if (run / name).is_file() else Counter()
        columns = []
        if (run / "results.csv").is_file():
            with open(run / "results.csv", newline="", encoding="utf-8") as f:
                columns = next(csv.reader(f), [])
        out["results.csv columns"] = Counter(columns)
        return out
    except (OSError, ValueError) as e:
        raise BadRun(f"{run}: {e}") from e


def differences(before: dict, after: dict) -> list:
    """Lines saying each facet's difference: a heading with counts, then '- item' (before only), '+ item' (after only),
    '~ item: 2 -> 1' (a count that changed)."""
    lines = []
    for facet in before:
        a, b = before[facet], after[facet]
        gone = sorted(k for k in a if k not in b)
        new = sorted(k for k in b if k not in a)
        moved = sorted(k for k in a if k in b and a[k] != b[k])
        if not (gone or new or moved):
            continue
        lines.append(f"{facet}: {len(gone)} only in BEFORE, {len(new)} only in AFTER"
                     + (f", {len(moved)} counted differently" if moved else ""))
        lines += [f"  - {k}" for k in gone] + [f"  + {k}" for k in new] + [f"  ~ {k}: {a[k]} -> {b[k]}" for k in moved]
    return lines


def main(argv) -> int:
    if len(argv) != 3:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        before, after = facts(Path(argv[1])), facts(Path(argv[2]))
    except BadRun as e:
        print(f"run-keys: {e}", file=sys.stderr)
        return 2
    lines = differences(before, after)
    print(f"run-keys: BEFORE {argv[1]}, AFTER {argv[2]}")
    print("\n".join(lines) if lines else
          "no difference: " + ", ".join(f"{len(before[f])} {f}" for f in before))
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
