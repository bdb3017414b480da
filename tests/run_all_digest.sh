#!/usr/bin/env bash
# Every preset against every primitive on seed 1, compared cell by cell with the committed digest
# (tests/golden/run-all-seed1.txt): verdicts, stop reasons, counts, violations' schedules and
# traces, metrics. Shrinking is bounded by its executions only (--shrink-budget 3600), so that
# no line depends on the machine's speed.
set -euo pipefail
binary=$1
workdir=$2
source_dir=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$workdir"
report="$workdir/run-all-seed1.json"
rm -f "$report"
status=0
"$binary" run --all --seed 1 --shrink-budget 3600 --quiet --out "$report" || status=$?
if [ "$status" -gt 1 ]; then
  echo "run --all exited $status" >&2
  exit "$status"
fi
python3 "$source_dir/tests/run_all_digest.py" "$report" "$source_dir/tests/golden/run-all-seed1.txt"
