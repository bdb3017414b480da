#!/usr/bin/env python3
"""What `syncstress run --all --seed 1` decides, one line per cell, without the clock.

    run_all_digest.py REPORT.json            print the digest
    run_all_digest.py REPORT.json EXPECTED   compare with a committed digest; exit 1 naming
                                             each cell that differs

A line: primitive, scenario, schedule, verdict, stop reason, executions, steps, and a hash of
the cell's violations (property, message, schedule, trace, shrink outcome) and metrics, with
every wall-clock figure left out and paths relative to the source tree. A change that keeps behaviour keeps every line.
"""
import hashlib
import json
import os
import sys

# Relacy's trace lines name files by absolute path: the digest holds them relative to the tree
# (spelled as given or with its links resolved, whichever the compiler saw).
SOURCE_DIRS = sorted({os.path.dirname(os.path.dirname(f(__file__))) + "/"
                      for f in (os.path.abspath, os.path.realpath)}, key=len, reverse=True)

CLOCK_WORDS = ("seconds", "elapsed", "per_second")


def without_clock(value):
    if isinstance(value, dict):
        return {k: without_clock(v) for k, v in value.items()
                if not any(w in k for w in CLOCK_WORDS)}
    if isinstance(value, list):
        return [without_clock(v) for v in value]
    if isinstance(value, str):
        for source_dir in SOURCE_DIRS:
            value = value.replace(source_dir, "")
        return value
    return value


def cell_line(cell):
    violations = [{
        "property": v["property"],
        "message": without_clock(v["message"]),
        "schedule": v["schedule"],
        "trace": without_clock(v["trace"]),
        "shrink": without_clock(v.get("shrink")),
    } for v in cell["violations"]]
    body = json.dumps({"violations": violations, "metrics": without_clock(cell["metrics"])},
                      sort_keys=True)
    digest = hashlib.sha256(body.encode()).hexdigest()[:16]
    return " ".join([cell["primitive"], cell["scenario"], cell["schedule"], cell["verdict"],
                     cell["stopped_by"], str(cell["executions"]), str(cell["steps"]), digest])


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        report = json.load(f)
    lines = sorted(cell_line(c) for c in report["cells"])
    if len(sys.argv) == 2:
        print("\n".join(lines))
        return 0
    with open(sys.argv[2], encoding="utf-8") as f:
        expected = [line for line in f.read().splitlines() if line and not line.startswith("#")]
    key = lambda line: tuple(line.split()[:3])
    got = {key(l): l for l in lines}
    want = {key(l): l for l in expected}
    differences = 0
    for k in sorted(set(got) | set(want)):
        if got.get(k) != want.get(k):
            differences += 1
            print(f"differs: {' x '.join(k)}\n  expected: {want.get(k, '(no such cell)')}\n"
                  f"  got:      {got.get(k, '(no such cell)')}")
    print(f"{len(got)} cells, {differences} differences from {sys.argv[2]}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
