#!/usr/bin/env bash
# The GPU benchmarks in one call, for a machine with a GPU (issue 4 biquad, issue 6 FFT):
#   bench/gpu/run.sh [BUILD_DIR] [--only sos|fft] [--device ID] [--quick] [--reps N] [--no-save]
#                    [--skip-tests] [--sanitizer] [--no-scipy] [--tiles BxI,...|none]
#                    [FFT options: --sizes L --sections L --precisions L --peers L --mem-mib M
#                    --time-limit SEC]
# 1. builds ripple with the benchmarks (BUILD_DIR, default build-gpu-bench; Release, CUDA and
#    OpenCL as found, no CLI), the GPU tests, and bench_gpu_fft's peers that can be built here
#    (cuFFT with the CUDA toolkit; VkFFT's CUDA and OpenCL backends with vkFFT.h from
#    libvkfft-dev). Debian packages carried in .debs/ are unpacked into $DEBS_ROOT (default
#    /opt/debs) first and put on the compiler's, CMake's and pkg-config's paths (pkg-config with
#    that root as its sysroot, since the packages' .pc files say /usr). The GPU machine has CUDA
#    but none of the library's Debian dependencies; fetch them here (27 packages, 4 MiB):
#      echo /.debs/ >> .git/info/exclude
#      ../shared/device/fetch-debs .debs libhwy-dev libsndfile1-dev nlohmann-json3-dev \
#        libgtest-dev libvkfft-dev opencl-headers ocl-icd-opencl-dev
#    and name .debs in the run's carry. (Checked here by building the GPU tests and benchmarks
#    with pkg-config and CMake seeing only those packages.)
# 2. checks: runs the GPU tests (NVRTC for every kernel variant; every kernel on every device
#    present: CUDA, NVIDIA's OpenCL, PoCL) and stops if one fails; with --sanitizer, the
#    cascade's and the FFT's tests on CUDA once more under compute-sanitizer (memcheck, racecheck);
# 3. times the biquad cascade (bench/gpu/sosfilt_gpu.py: memcpy, ripple's sosfilt on 2^28
#    samples and 1024 x 2^18, cupyx and scipy; then the tile path once per tile shape of --tiles,
#    default a sweep around tuning.hpp's 256 x 8; bench/results/gpu-sosfilt-*.md) and
#    4. the FFT (bench/gpu/fft_gpu.py driving bench_gpu_fft: batched 1-D c2c f32/f64 N = 2..4096
#    on 1 GiB, single N = 2^12..2^26, 2-D 4096^2, 3-D 128^3..512^3 c2c and r2c, single r2c of
#    2^21..2^25 reals, innermost-batched 1-D c2c and r2c (one kernel, two passes, Bluestein),
#    plan creation;
#    ripple vs memcpy, cuFFT and VkFFT, each peer checked against ripple; the issue's targets with
#    PASS/FAIL; bench/results/gpu-fft-*.md + .json). --only picks one of the two.
# --quick: small sizes (PoCL, or a smoke run). The FFT part alone should take about 5 minutes
# on a GPU (estimated: cold NVRTC compiles of ripple's and VkFFT's kernels dominate, ~1 s a
# case), so within one 10-minute device call either run the two parts as two calls (--only sos,
# then --only fft --skip-tests) or bound it with --time-limit SEC (no new FFT case after SEC
# seconds; float 1-D cases come first, then N-D, then double). A run killed anyway leaves its
# cases so far in bench/results/.gpu-fft-*.tmp.json (rewritten after every case):
# `fft_gpu.py --from-json FILE` makes the table from it. Environment: PYTHON (needs numpy,
# scipy; cupy optional), JOBS (build parallelism, default nproc), DEBS_ROOT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build-gpu-bench"
command_line="bench/gpu/run.sh $*"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  build=$(realpath -m "$1")
  shift
fi
skip_tests=0
sanitizer=0
only=all
common=()   # options both timing scripts take
fft_only=() # options for fft_gpu.py alone
sos_only=() # options for sosfilt_gpu.py alone
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,/^set -e/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    --skip-tests) skip_tests=1 ;;
    --sanitizer) sanitizer=1 ;;
    --only) only=${2:?--only needs sos or fft}; shift ;;
    --quick|--no-save) common+=("$1") ;;
    --device|--reps) common+=("$1" "${2:?$1 needs a value}"); shift ;;
    --no-scipy) sos_only+=("$1") ;;
    --tiles) sos_only+=("$1" "${2:?$1 needs a value}"); shift ;;
    --sizes|--sections|--precisions|--peers|--mem-mib|--time-limit) fft_only+=("$1" "${2:?$1 needs a value}"); shift ;;
    *) echo "run.sh: unknown option $1 (--help lists them)" >&2; exit 2 ;;
  esac
  shift
done
case "$only" in all|sos|fft) ;; *) echo "run.sh: --only takes sos or fft, not $only" >&2; exit 2 ;; esac
jobs=${JOBS:-$(nproc)}
PY=${PYTHON:-python3}

# Debian packages carried to a machine without a package registry (the GPU machine).
if compgen -G "$root/.debs/*.deb" > /dev/null; then
  debs=${DEBS_ROOT:-/opt/debs}
  echo "== unpacking $(ls "$root"/.debs/*.deb | wc -l) carried packages into $debs"
  mkdir -p "$debs"
  for f in "$root"/.debs/*.deb; do dpkg -x "$f" "$debs"; done
  export CMAKE_PREFIX_PATH="$debs/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export CPATH="$debs/usr/include${CPATH:+:$CPATH}"
  export LIBRARY_PATH="$debs/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}"
  export LD_LIBRARY_PATH="$debs/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export PKG_CONFIG_PATH="$debs/usr/lib/x86_64-linux-gnu/pkgconfig:$debs/usr/share/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  export PKG_CONFIG_SYSROOT_DIR="$debs"
fi

echo "== build ($build)"
mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRIPPLE_BUILD_BENCH=ON \
  -DRIPPLE_BUILD_TESTS=ON -DRIPPLE_BUILD_CLI=OFF > "$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
targets=()
[ $skip_tests = 1 ] || targets+=(test_gpu_sos test_gpu_fft test_gpu_kernels test_gpu_nvrtc)
[ "$only" = fft ] || targets+=(bench_gpu_sosfilt)
[ "$only" = sos ] || targets+=(bench_gpu_fft)
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

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

status=0
if [ "$only" != fft ]; then
  echo "== time: biquad cascade"
  RIPPLE_BENCH_COMMAND="$command_line" "$PY" "$here/sosfilt_gpu.py" --exe "$build/bench/gpu/bench_gpu_sosfilt" \
    ${common[@]+"${common[@]}"} ${sos_only[@]+"${sos_only[@]}"} || status=$?
fi
if [ "$only" != sos ]; then
  echo "== time: FFT"
  RIPPLE_BENCH_COMMAND="$command_line" "$PY" "$here/fft_gpu.py" --exe "$build/bench/gpu/bench_gpu_fft" \
    ${common[@]+"${common[@]}"} ${fft_only[@]+"${fft_only[@]}"} || status=$?
fi
exit $status
