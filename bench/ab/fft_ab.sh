#!/usr/bin/env bash
# A/B of two ripple builds' CPU FFTs in one process (for changes whose effect is smaller than
# this machine's run-to-run noise):
#   bench/ab/fft_ab.sh BUILD_A BUILD_B [--kind c2c|r2c|c2r] [--prec f32,f64] [--rounds R] N[xB]...
# e.g. after building the change in build and the base commit in build-base:
#   bench/ab/fft_ab.sh build-base build --prec f64 256 1024 4096
# Builds a shim (fft_ab_shim.cpp) against each build's libripple and the driver (fft_ab.cpp)
# under /tmp, then runs them: the two libraries sit in separate dlmopen namespaces of one
# process and are timed alternately, round after round. Prints each side's best time and the
# median of the per-round ratios B/A (below 1: B faster). Copies each library first, so a
# rebuild of BUILD_A or BUILD_B while it runs changes nothing.
set -euo pipefail
if [ $# -lt 3 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d /tmp/ripple-fft-ab.XXXXXX)
trap 'rm -rf "$work"' EXIT
CXX=${CXX:-c++}
for side in A B; do
  build=$1
  shift
  lib=$(realpath "$build/src/libripple.so.0" 2>/dev/null || true)
  if [ -z "$lib" ] || [ ! -f "$lib" ]; then
    echo "fft_ab.sh: $build/src/libripple.so.0 not found (a shared-library build of ripple is needed)" >&2
    exit 1
  fi
  mkdir -p "$work/$side"
  cp "$lib" "$work/$side/libripple.so.0"
  "$CXX" -O2 -std=c++20 -fPIC -shared -I"$root/include" "$here/fft_ab_shim.cpp" -o "$work/$side/shim.so" \
    -L"$work/$side" -l:libripple.so.0 -Wl,-rpath,"$work/$side"
done
"$CXX" -O2 -std=c++20 "$here/fft_ab.cpp" -o "$work/fft_ab" -ldl
"$work/fft_ab" "$work/A/shim.so" "$work/B/shim.so" "$@"
