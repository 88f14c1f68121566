#!/usr/bin/env bash
# Runs the multirate benchmark of an existing build and saves the results (builds nothing):
#   bench/multirate_run.sh BUILD_DIR [multirate_vs_scipy.py options...]   e.g. ... build --quick
# bench/multirate/multirate_vs_scipy.py runs BUILD_DIR/bench/multirate/bench_multirate (ripple
# and scalar / csdr-style loops on one thread) and scipy.signal on the same kinds of signals,
# prints the table with the issue's targets, and saves it with a header describing the machine
# and the commit to bench/results/multirate-cpu-<tag>-<UTC date-time>.md (plus .json).
# Environment: RIPPLE_BENCH_TAG names the machine in the file name (default: CPU model and
# core count); PYTHON picks the interpreter (it needs numpy and scipy).
set -euo pipefail

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
build=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
exe="$build/bench/multirate/bench_multirate"
if [ ! -x "$exe" ]; then
  echo "multirate_run.sh: $exe not found: build it (ninja -C $build bench_multirate, or make bench)" >&2
  exit 1
fi
PY=${PYTHON:-python3}
RIPPLE_BENCH_COMMAND="bench/multirate_run.sh $build${*:+ $*}" exec "$PY" "$here/multirate/multirate_vs_scipy.py" --exe "$exe" "$@"
