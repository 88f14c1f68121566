#!/usr/bin/env bash
# The GPU biquad benchmark in one call, for a machine with a GPU (issue 4, "Benchmark"):
#   bench/gpu/run.sh [BUILD_DIR] [--device ID] [--quick] [--no-save] [--skip-tests] [--sanitizer]
# 1. builds ripple with the benchmarks (BUILD_DIR, default build-gpu-bench; Release, CUDA and
#    OpenCL as found) and the GPU tests;
# 2. checks: runs the GPU tests (NVRTC for every kernel variant; every kernel on every device
#    present: CUDA, NVIDIA's OpenCL, PoCL) and stops if one fails; with --sanitizer, the
#    cascade's tests on CUDA once more under compute-sanitizer (memcheck, then racecheck);
# 3. times, through bench/gpu/sosfilt_gpu.py: device-to-device memcpy, ripple's sosfilt with 1
#    and 4 sections on 2^28 float32 samples (1 channel) and 1024 x 2^18, cupyx.scipy.signal.sosfilt
#    on the same shapes if cupy imports, scipy.signal.sosfilt on the CPU for scale; prints GB/s,
#    the fraction of memcpy, the ratios and the issue's targets, and saves
#    bench/results/gpu-sosfilt-<device>-<UTC date-time>.md (+ .json) with device and driver.
# --quick: small sizes (PoCL, or a smoke run). Environment: PYTHON (needs numpy, scipy; cupy
# optional), JOBS (build parallelism, default nproc).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build-gpu-bench"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  build=$(realpath -m "$1")
  shift
fi
skip_tests=0
sanitizer=0
args=()
for a in "$@"; do
  case "$a" in
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --skip-tests) skip_tests=1 ;;
    --sanitizer) sanitizer=1 ;;
    *) args+=("$a") ;;
  esac
done
jobs=${JOBS:-$(nproc)}
PY=${PYTHON:-python3}

echo "== build ($build)"
mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRIPPLE_BUILD_BENCH=ON \
  -DRIPPLE_BUILD_TESTS=ON > "$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
cmake --build "$build" -j "$jobs" --target bench_gpu_sosfilt test_gpu_sos test_gpu_fft test_gpu_kernels test_gpu_nvrtc

if [ $skip_tests = 0 ]; then
  echo "== check (GPU tests on every device)"
  for t in test_gpu_nvrtc test_gpu_kernels test_gpu_sos test_gpu_fft; do
    "$build/tests/gpu/$t" --gtest_brief=1
  done
  if [ $sanitizer = 1 ]; then
    cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    [ -x "$cs" ] || { echo "run.sh: compute-sanitizer not found" >&2; exit 1; }
    for tool in memcheck racecheck; do
      for t in test_gpu_sos test_gpu_fft; do
        "$cs" --tool $tool --error-exitcode 9 "$build/tests/gpu/$t" --gtest_filter='*cuda*' --gtest_brief=1
      done
    done
  fi
fi

echo "== time"
RIPPLE_BENCH_COMMAND="bench/gpu/run.sh ${*}" exec "$PY" "$here/sosfilt_gpu.py" --exe "$build/bench/gpu/bench_gpu_sosfilt" \
  ${args[@]+"${args[@]}"}
