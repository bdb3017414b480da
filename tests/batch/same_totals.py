#!/usr/bin/env python3
"""Whether a merged report counts what the unsharded run of the same search counts.

    same_totals.py WHOLE.json MERGED.json

Compares the search the two reports ran (the config's scenarios, primitives, schedule,
overrides, executions and seed) and each cell's identity, executions, steps, verdict, stop,
number of violations and coverage, the fields tests/report_totals.hpp's cell_totals compares for
the C++ CLI tests. A reducing search split into shards runs extra executions, each ended at once
as redundant: for its cells the executions that ran to their end stand in for executions, steps
and pruned executions (classes_totals there). Exits 0 when they agree, 1 printing each
difference.
"""

import json
import sys

SEARCH_FIELDS = ("scenarios", "primitives", "schedule", "overrides", "executions", "seed")
CELL_FIELDS = ("primitive", "scenario", "executions", "steps", "verdict", "stopped_by")
EXHAUSTIVE_FIELDS = ("executions_pruned", "distinct_traces", "executions_by_preemptions")


def cell_totals(cell):
    """A cell's identity, counts, verdict, stop, violations and coverage."""
    totals = {field: cell[field] for field in CELL_FIELDS}
    totals["violations"] = len(cell["violations"])
    metrics = cell["metrics"]
    totals["search_complete"] = metrics.get("search_complete", False)
    exhaustive = metrics.get("exhaustive", {})
    for field in EXHAUSTIVE_FIELDS:
        totals[field] = exhaustive.get(field)
    if exhaustive.get("reduction") == "dpor":
        totals["completed"] = totals["executions"] - totals["executions_pruned"]
        for field in ("executions", "steps", "executions_pruned"):
            del totals[field]
    return totals


def differences(whole, merged):
    """The differences between two reports' searches and cell totals, as lines."""
    found = []
    for field in SEARCH_FIELDS:
        if whole["config"][field] != merged["config"][field]:
            found.append(f"config.{field}: unsharded {whole['config'][field]!r}, "
                         f"merged {merged['config'][field]!r} (not the same search)")
    if len(whole["cells"]) != len(merged["cells"]):
        found.append(f"cells: unsharded {len(whole['cells'])}, merged {len(merged['cells'])}")
        return found
    for whole_cell, merged_cell in zip(whole["cells"], merged["cells"]):
        expected, got = cell_totals(whole_cell), cell_totals(merged_cell)
        name = f"{expected['primitive']} x {expected['scenario']}"
        for field, value in expected.items():
            if got[field] != value:
                found.append(f"{name}: {field}: unsharded {value!r}, merged {got[field]!r}")
    return found


def read(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    found = differences(read(sys.argv[1]), read(sys.argv[2]))
    for line in found:
        print(f"same_totals.py: {line}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
