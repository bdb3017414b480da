#!/usr/bin/env bash
# The tool tested against itself: every preset against every primitive it applies to.
#
#   run_all.sh BINARY WORKDIR gate     the presets' own seeds, through the gate against
#                                      results/baseline.json: CI turns red when a change breaks a
#                                      primitive, or stops the tool catching a bug it caught
#   run_all.sh BINARY WORKDIR digest   seed 1, compared cell by cell with the committed digest
#                                      (tests/golden/run-all-seed1.txt: verdicts, stop reasons,
#                                      counts, violations' schedules and traces, metrics);
#                                      shrinking bounded by its executions only
#                                      (--shrink-budget 3600), so no line depends on the
#                                      machine's speed
set -euo pipefail
binary=$1
workdir=$2
mode=$3
source_dir=$(cd "$(dirname "$0")/.." && pwd)
case "$mode" in
  gate) flags=() ;;
  digest) flags=(--seed 1 --shrink-budget 3600) ;;
  *) echo "run_all.sh: mode must be gate or digest, not '$mode'" >&2; exit 2 ;;
esac
mkdir -p "$workdir"
report="$workdir/run-all-$mode.json"
rm -f "$report"
status=0
"$binary" run --all "${flags[@]}" --quiet --out "$report" || status=$?
# 0: every verdict as expected by the claims; 1: some cell failed (expected for the
# as-published ports). Anything else is an error of the tool or the input.
if [ "$status" -gt 1 ]; then
  echo "run --all exited $status" >&2
  exit "$status"
fi
if [ "$mode" = gate ]; then
  "$binary" gate --baseline "$source_dir/results/baseline.json" --junit "$workdir/gate.xml" "$report"
else
  python3 "$source_dir/tests/run_all_digest.py" "$report" "$source_dir/tests/golden/run-all-seed1.txt"
fi
