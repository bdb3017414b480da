#!/usr/bin/env bash
# A real batch engine: starts a one-node Slurm cluster on localhost (munged with a key made for
# the test, slurmctld and slurmd with a slurm.conf written here, state and spool in a temporary
# folder), submits docs/batch/slurm-array.sbatch as it is (an array of three shards, each
# `syncstress run --shard auto`), waits for it, merges the three reports and checks that the
# merge counts what the unsharded run of the same search counts (tests/batch/same_totals.py).
# Every daemon it started is stopped and the folder removed on exit, whatever the outcome.
#
#   tests/batch/slurm_array.sh SYNCSTRESS SOURCE_DIR
#
# Needs root (slurmd runs as root to start each job as its user) and the Debian packages munge
# and slurm-wlm (scripts/setup --lint installs them); without either it exits 77, which CTest
# reports as skipped, naming what is missing.
set -euo pipefail
syncstress=$(realpath "$1")
source_dir=$(realpath "$2")
script="$source_dir/docs/batch/slurm-array.sbatch"
export PATH="$PATH:/usr/sbin:/sbin"
started=$SECONDS

# The search the script runs, without --shard: what the merge must equal.
whole_args=(run --scenario mutex-safety --primitive ticket_mutex --schedule exhaustive
            --set actors=2 --set rounds=2 --executions 1000000000 --quiet)

skip() {
  echo "SKIPPED: tests/batch/slurm_array.sh: $*"
  exit 77
}
fail() {
  echo "tests/batch/slurm_array.sh: $*" >&2
  exit 1
}

if [[ $(id -u) != 0 ]]; then
  skip "needs root to start slurmd and munged (scripts/setup --lint installs munge and slurm-wlm)"
fi
missing=()
command -v munged >/dev/null || missing+=(munge)
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
  ! command -v sbatch >/dev/null; then
  missing+=(slurm-wlm)
fi
if ((${#missing[@]})); then
  skip "Debian package(s) ${missing[*]} not installed (scripts/setup --lint installs them)"
fi

# Nothing of a cluster this test might itself run in may reach the one it starts.
while read -r name; do unset "$name"; done < <(compgen -e | grep -E '^(SLURM|SBATCH|SQUEUE)_' || true)

# munged refuses a socket in a folder that not everyone can enter.
work=$(mktemp -d "${TMPDIR:-/tmp}/syncstress-slurm.XXXXXX")
chmod 755 "$work"
mkdir -p "$work/run" "$work/state" "$work/spool" "$work/log" "$work/reports" "$work/unsharded"
daemons=()
jobid=""

# Stops what this test started, newest first: the array (if still queued), slurmd, slurmctld,
# munged, each by its id, with SIGKILL after ten seconds; prints the logs when the test failed;
# removes the folder.
cleanup() {
  local status=$? i pid
  trap - EXIT
  if [[ -n $jobid ]] && ((${#daemons[@]} >= 2)) && kill -0 "${daemons[1]}" 2>/dev/null; then
    scancel "$jobid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
      [[ -z $(squeue -h -j "$jobid" 2>/dev/null) ]] && break
      sleep 0.2
    done
  fi
  for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do
    pid=${daemons[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for ((n = 0; n < 100; n++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [[ $status != 0 && $status != 77 ]]; then
    for log in "$work"/log/* "$work"/slurm-*.out; do
      [[ -f $log ]] || continue
      echo "--- ${log#"$work"/} (last 30 lines)" >&2
      tail -n 30 "$log" >&2
    done
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Fails unless every daemon started so far is still running.
check_daemons() {
  local pid
  for pid in "${daemons[@]}"; do
    kill -0 "$pid" 2>/dev/null || fail "a daemon (pid $pid) exited: see its log below"
  done
}

# Runs "$@" every 0.2 s until it succeeds, for at most $1 seconds; fails with $2 after that.
await() {
  local seconds=$1 what=$2 i
  shift 2
  for ((i = 0; i < seconds * 5; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    check_daemons
    sleep 0.2
  done
  fail "$what not within $seconds s"
}

echo "--- munged"
head -c 1024 /dev/urandom >"$work/munge.key"
chmod 400 "$work/munge.key"
socket="$work/run/munge.socket"
munged --foreground --key-file="$work/munge.key" --socket="$socket" \
  --pid-file="$work/run/munged.pid" --seed-file="$work/munged.seed" >"$work/log/munged.log" 2>&1 &
daemons+=($!)
await 10 "munged answering on $socket" munge --socket="$socket" --no-input

echo "--- slurmctld and slurmd"
# Two free ports on localhost, so that the test never meets another cluster's daemons.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
held = [socket.socket() for _ in range(2)]
for s in held:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in held))')
# No accounting, no cgroups: proctrack/linuxproc follows a job's processes through /proc and
# task/none binds nothing, so the cluster starts in a container without a cgroup file system.
cat >"$work/slurm.conf" <<EOF
ClusterName=syncstress-test
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$work/log/slurmctld.log" 2>&1 &
daemons+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >"$work/log/slurmd.log" 2>&1 &
daemons+=($!)
node_idle() { [[ $(sinfo -h -n localhost -o %T) == idle ]]; }
await 30 "the node idle in sinfo" node_idle
echo "cluster up after $((SECONDS - started)) s"

echo "--- sbatch ${script#"$source_dir"/}"
jobid=$(SYNCSTRESS="$syncstress" SYNCSTRESS_REPORTS="$work/reports" \
  sbatch --parsable --chdir="$work" --output="$work/slurm-%A_%a.out" "$script")
queued() { [[ -n $(squeue -h -j "$jobid") ]]; }
not_queued() { ! queued; }
await 60 "array job $jobid finished" not_queued
# Every task of the array (the script's --array=1-3) ran to the end with exit status 0.
states=$(squeue -h -t all -j "$jobid" -o '%K %T' | sort -n)
echo "$states"
[[ $states == $'1 COMPLETED\n2 COMPLETED\n3 COMPLETED' ]] ||
  fail "array job $jobid: expected tasks 1, 2 and 3 COMPLETED, got: $states"
echo "array done after $((SECONDS - started)) s"

echo "--- merge, and the unsharded run"
shopt -s nullglob
reports=("$work"/reports/shard-*.json)
((${#reports[@]} == 3)) || fail "expected 3 shard reports, found ${#reports[@]}: ${reports[*]}"
"$syncstress" merge "${reports[@]}" --quiet --out "$work/merged.json"
"$syncstress" "${whole_args[@]}" --out "$work/unsharded/whole.json"
python3 "$source_dir/tests/batch/same_totals.py" "$work/unsharded/whole.json" "$work/merged.json" ||
  fail "the merged shards do not count what the unsharded run counts (above)"
echo "the three shards merged equal the unsharded run ($((SECONDS - started)) s)"
