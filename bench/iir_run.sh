#!/usr/bin/env bash
# Runs the IIR benchmark of an existing build and saves the results (builds nothing):
#   bench/iir_run.sh BUILD_DIR [iir_vs_scipy.py options...]     e.g. bench/iir_run.sh build --quick
# bench/iir_vs_scipy.py runs BUILD_DIR/bench/bench_iir (ripple on 1 thread and on all threads)
# and scipy.signal.sosfilt / sosfiltfilt on the same signals and coefficients, prints the table
# with the issue's targets, and saves it with a header describing the machine and the commit to
# bench/results/iir-cpu-<tag>-<UTC date-time>.md (plus .json with every timing).
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
exe="$build/bench/bench_iir"
if [ ! -x "$exe" ]; then
  echo "iir_run.sh: $exe not found: build it (ninja -C $build bench_iir, or make bench; RIPPLE_BUILD_BENCH=ON, the default)" >&2
  exit 1
fi
PY=${PYTHON:-python3}
# The saved header names the command as typed here, not the Python line below.
RIPPLE_BENCH_COMMAND="bench/iir_run.sh $build${*:+ $*}" exec "$PY" "$here/iir_vs_scipy.py" --exe "$exe" "$@"
