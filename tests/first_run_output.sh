#!/usr/bin/env bash
# What scripts/syncstress prints around its build, without building anything: `cmake` and
# `dpkg-query` are stand-ins put first on PATH (the build prints Ninja-like progress lines and
# leaves a `syncstress` that echoes its arguments), the build directory is a temporary one.
#   - first run, stderr not a terminal: exactly one line on stderr, stdout only the tool's;
#   - second run (the fast path): nothing on stderr;
#   - a failing build: its output, a message, exit 3;
#   - first run on a terminal (through script(1), when installed): the progress lines show.
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"

cat >"$work/bin/dpkg-query" <<'EOF'
#!/bin/sh
printf installed
EOF
cat >"$work/bin/cmake" <<'EOF'
#!/usr/bin/env bash
if [[ $1 == --build ]]; then
  [[ -f $2/fail ]] && { echo "stub.cpp:1: error: planted build failure"; exit 1; }
  for i in $(seq 1 40); do echo "[$i/40] Building CXX object stub$i.o"; done
  printf '#!/bin/sh\necho "syncstress $*"\n' >"$2/syncstress"
  chmod +x "$2/syncstress"
  exit 0
fi
while (($#)); do
  if [[ $1 == -B ]]; then mkdir -p "$2" && : >"$2/CMakeCache.txt"; fi
  shift
done
echo "-- Configuring done"
EOF
chmod +x "$work/bin/dpkg-query" "$work/bin/cmake"

failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
# Runs scripts/syncstress with build dir $1 and the remaining arguments; sets out, err, status.
run() {
  local build=$1
  shift
  status=0
  PATH="$work/bin:$PATH" SYNCSTRESS_BUILD_DIR="$build" "$source_dir/scripts/syncstress" "$@" \
    >"$work/out" 2>"$work/err" </dev/null || status=$?
  out=$(cat "$work/out")
  err=$(cat "$work/err")
}

run "$work/build" list scenarios
[[ $status == 0 ]] || fail "first run exited $status: $err"
[[ $out == "syncstress list scenarios" ]] || fail "first run's stdout is not only the tool's: $out"
[[ $(wc -l <"$work/err") == 1 ]] || fail "first run's stderr is not one line: $err"
[[ $err == "setup: the first build of "*" minutes"* ]] || fail "first run's line: $err"

run "$work/build" list
[[ $status == 0 && $out == "syncstress list" ]] || fail "second run: $status, $out"
[[ -z $err ]] || fail "the fast path printed: $err"

touch "$work/build/fail"
run "$work/build" list
[[ $status == 3 ]] || fail "a failing fast-path build exited $status"
[[ $err == *"planted build failure"*"the build failed"* ]] || fail "failing build: $err"

mkdir "$work/broken"
touch "$work/broken/fail"
run "$work/broken" list
[[ $status == 3 ]] || fail "a failing first build exited $status"
[[ $err == "setup: "*"planted build failure"*"scripts/setup failed" ]] || fail "failing first build: $err"

if command -v script >/dev/null; then
  PATH="$work/bin:$PATH" SYNCSTRESS_BUILD_DIR="$work/tty" \
    script -qec "$source_dir/scripts/syncstress list" /dev/null >"$work/tty.out" </dev/null
  grep -q "setup: the first build of" "$work/tty.out" || fail "no line on a terminal"
  grep -q "\[40/40\]" "$work/tty.out" || fail "no build progress on a terminal"
else
  echo "script(1) not installed: the terminal case is not checked"
fi

if ((failures)); then exit 1; fi
echo "first-run output as documented"
