#!/usr/bin/env bash
# The GPU benchmarks in one call, for a machine with a GPU (issue 4 biquad, issue 6 FFT):
#   bench/gpu/run.sh [BUILD_DIR] [--only sos|fft] [--device ID] [--quick] [--reps N] [--no-save]
#                    [--skip-tests] [--checks all|sos|fft] [--check-limit SEC] [--sanitizer]
#                    [--devices all|cuda] [--nvrtc-variants]
#                    [--no-scipy] [--tiles BxI,...|none]
#                    [FFT options: --sizes L --sections L --precisions L --peers L --mem-mib M
#                    --time-limit SEC --prewarm N]
#   bench/gpu/run.sh --prebuild DIR    (build here, copy what the runs need into DIR, stop)
# 1. builds ripple with the benchmarks (BUILD_DIR, default build-gpu-bench; Release, CUDA and
#    OpenCL as found, no CLI), the GPU tests, and bench_gpu_fft's peers that can be built here
#    (cuFFT with the CUDA toolkit; VkFFT's CUDA and OpenCL backends with vkFFT.h from
#    libvkfft-dev). Debian packages carried in .debs/ are unpacked into $DEBS_ROOT (default
#    /opt/debs) first and put on the compiler's, CMake's and pkg-config's paths (pkg-config with
#    that root as its sysroot, since the packages' .pc files say /usr; pkgconf itself on the
#    PATH where the machine has no pkg-config). The GPU machine has CUDA but none of the
#    library's Debian dependencies; fetch them here:
#      echo /.debs/ >> .git/info/exclude
#      ../shared/device/fetch-debs .debs libhwy-dev libsndfile1-dev nlohmann-json3-dev \
#        libgtest-dev libvkfft-dev opencl-headers ocl-icd-opencl-dev pkgconf pkgconf-bin
#    and name .debs in the run's carry. (Checked here by building the GPU tests and benchmarks
#    with pkg-config and CMake seeing only those packages.)
#    A BUILD_DIR made by --prebuild on another machine (a file PREBUILT in it) is used as it
#    is: no configure, no build, its src/ on LD_LIBRARY_PATH. The libraries' only needs beyond
#    glibc and libstdc++ are libhwy and libsndfile (from .debs); the CUDA runtime is linked
#    statically and NVRTC and OpenCL are opened at run time. So a build made here, on an older
#    glibc, saves a lent GPU the minutes of its compile; name the folder in the call's carry
#    (about 25 MiB).
# 2. checks (unless --skip-tests): test_gpu_device, then NVRTC on this machine (test_gpu_nvrtc's
#    Nvrtc.* tests; with --nvrtc-variants also its compile of every kernel variant of the parts
#    checked, which CI runs with the same NVRTC: on a lent H200, 6 of 252 came back as cubins with
#    no ptxas report, for a reason not found), and every kernel of
#    those parts on every device present (CUDA, NVIDIA's OpenCL, PoCL; --devices cuda leaves out
#    OpenCL's: that H200's image lists PoCL, whose tests there took most of the time), and the
#    caller's memory and streams (test_gpu_interop), each test binary
#    as up to 16 gtest shards, every binary at once (NVRTC's compiles are most of the time);
#    --checks picks the parts checked when it should differ from --only's; --check-limit SEC
#    stops a test binary (all its shards) or a sanitizer run after SEC seconds, reported as a
#    failure naming the shards cut off; logs in BUILD_DIR/check-logs. On a machine whose nvidia-smi lists a GPU, the CUDA backend must
#    find it (else no CUDA test would run). With --sanitizer, compute-sanitizer on the CUDA
#    device: memcheck and racecheck over the cascade's CUDA tests and the one-kernel FFT's
#    ($RIPPLE_SANITIZER_FFT_FILTER, a gtest filter, for more), racecheck and synccheck over
#    test_gpu_races's small shapes of those parts, memcheck over test_gpu_interop's CUDA cases;
#    these runs go at once, each its own process.
#    A failed check is reported and
#    the timings still run; the script then exits non-zero.
# 3. times the biquad cascade (bench/gpu/sosfilt_gpu.py: memcpy, ripple's sosfilt on 2^28
#    samples and 1024 x 2^18, cupyx and scipy; after each tile-path case, the case once per
#    tile shape of --tiles, default a sweep around tuning.hpp's 256 x 8;
#    bench/results/gpu-sosfilt-*.md) and
#    4. the FFT (bench/gpu/fft_gpu.py driving bench_gpu_fft: batched 1-D c2c f32/f64 N = 2..4096
#    on 1 GiB, single N = 2^12..2^26, 2-D 4096^2, 3-D 128^3..512^3 c2c and r2c, single r2c of
#    2^21..2^25 reals, innermost-batched 1-D c2c and r2c (one kernel, two passes, Bluestein),
#    single 1-D c2c of 2^20..2^26 under lower caps on ripple's pass size (three passes, not two),
#    small batched sizes staged through local memory against loaded directly, local memory padded
#    against bank conflicts or not (sections caps, staging, padding),
#    plan creation; --prewarm N first makes ripple's plans of the cases in N processes at once,
#    so that the timed run loads its programs from the disk cache rather than compiling them one
#    after another (the prewarm's time counts against --time-limit);
#    ripple vs memcpy, cuFFT and VkFFT, each peer checked against ripple; the issue's targets with
#    PASS/FAIL; bench/results/gpu-fft-*.md + .json). --only picks one of the two.
# Where $OUT names a folder (the device tool's), the run's bench/results/gpu-* files and the
# check logs are copied there at the end, as only $OUT comes back from a lent machine. Results
# name the commit: from git, or, in a copy of the tree without its repository, from
# $RIPPLE_COMMIT. So a call on a lent GPU, with .debs carried, is e.g.
#   RIPPLE_COMMIT=<hash> bench/gpu/run.sh --only sos --sanitizer
#   RIPPLE_COMMIT=<hash> bench/gpu/run.sh --only fft --time-limit 420
# --quick: small sizes (PoCL, or a smoke run). The FFT part alone should take about 5 minutes
# on a GPU (estimated: cold NVRTC compiles of ripple's and VkFFT's kernels dominate, ~1 s a
# case), so within one 10-minute device call either run the two parts as two calls (--only sos,
# then --only fft) or bound it with --time-limit SEC (no new FFT case after SEC
# seconds; float 1-D cases come first, then N-D, then double). A run killed anyway leaves its
# cases so far in bench/results/.gpu-fft-*.tmp.json, or $OUT/gpu-fft-partial-*.json (rewritten
# after every case):
# `fft_gpu.py --from-json FILE` makes the table from it. Environment: PYTHON (needs numpy,
# scipy; cupy optional), JOBS (build and test parallelism, default nproc), DEBS_ROOT,
# RIPPLE_COMMIT, RIPPLE_SANITIZER_FFT_FILTER.
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
checks=
check_limit=0
prebuild=
devices=all
nvrtc_variants=0
common=()   # options both timing scripts take
fft_only=() # options for fft_gpu.py alone
sos_only=() # options for sosfilt_gpu.py alone
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,/^set -e/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    --skip-tests) skip_tests=1 ;;
    --sanitizer) sanitizer=1 ;;
    --only) only=${2:?--only needs sos or fft}; shift ;;
    --checks) checks=${2:?--checks needs all, sos or fft}; shift ;;
    --check-limit) check_limit=${2:?--check-limit needs seconds}; shift ;;
    --devices) devices=${2:?--devices needs all or cuda}; shift ;;
    --nvrtc-variants) nvrtc_variants=1 ;;
    --prebuild) prebuild=$(realpath -m "${2:?--prebuild needs a folder}"); shift ;;
    --quick|--no-save) common+=("$1") ;;
    --device|--reps) common+=("$1" "${2:?$1 needs a value}"); shift ;;
    --no-scipy) sos_only+=("$1") ;;
    --tiles) sos_only+=("$1" "${2:?$1 needs a value}"); shift ;;
    --sizes|--sections|--precisions|--peers|--mem-mib|--time-limit|--prewarm) fft_only+=("$1" "${2:?$1 needs a value}"); shift ;;
    *) echo "run.sh: unknown option $1 (--help lists them)" >&2; exit 2 ;;
  esac
  shift
done
case "$only" in all|sos|fft) ;; *) echo "run.sh: --only takes sos or fft, not $only" >&2; exit 2 ;; esac
checks=${checks:-$only}
case "$devices" in all) device_negative= ;; cuda) device_negative='-*/opencl_*' ;;
  *) echo "run.sh: --devices takes all or cuda, not $devices" >&2; exit 2 ;; esac
case "$checks" in all|sos|fft) ;; *) echo "run.sh: --checks takes all, sos or fft, not $checks" >&2; exit 2 ;; esac
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
  # pkg-config itself (pkgconf), where the machine has none: after its own tools on the PATH
  command -v pkg-config > /dev/null || export PATH="$PATH:$debs/usr/bin"
fi
# The results name the commit; a copy of the tree without its git repository (the GPU
# machine's) takes it from $RIPPLE_COMMIT, which the caller sets.
git -C "$root" rev-parse HEAD > /dev/null 2>&1 ||
  export RIPPLE_COMMIT="${RIPPLE_COMMIT:-unknown (no git repository here; set RIPPLE_COMMIT)}"
marker=$(mktemp)  # results written after it are this run's
# The FFT driver's partial results, rewritten after every case, go to $OUT where there is one,
# so a call cut off by its time limit still brings them back.
if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then export RIPPLE_BENCH_TMP="$OUT"; fi
logs="$build/check-logs"

if [ -n "$prebuild" ]; then  # everything, whatever --only says: the GPU machine picks later
  only=all
  checks=all
  skip_tests=0
fi
targets=()
if [ -f "$build/PREBUILT" ]; then
  echo "== prebuilt ($build): $(head -n 1 "$build/PREBUILT")"
  export LD_LIBRARY_PATH="$build/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
  echo "== build ($build)"
  mkdir -p "$build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRIPPLE_BUILD_BENCH=ON \
    -DRIPPLE_BUILD_TESTS=ON -DRIPPLE_BUILD_CLI=OFF > "$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
  if [ $skip_tests = 0 ] || [ $sanitizer = 1 ]; then
    targets+=(test_gpu_device test_gpu_nvrtc test_gpu_interop)
    [ "$checks" = fft ] || targets+=(test_gpu_sos test_gpu_kernels)
    [ "$checks" = sos ] || targets+=(test_gpu_fft)
    targets+=(test_gpu_races)
  fi
  [ "$only" = fft ] || targets+=(bench_gpu_sosfilt)
  [ "$only" = sos ] || targets+=(bench_gpu_fft)
  cmake --build "$build" -j "$jobs" --target "${targets[@]}"
fi
if [ -n "$prebuild" ]; then
  [ ${#targets[@]} -gt 0 ] || { echo "run.sh: --prebuild needs a build folder to build in, not a prebuilt one ($build)" >&2; exit 2; }
  rm -rf "$prebuild"
  mkdir -p "$prebuild/src" "$prebuild/tests/gpu" "$prebuild/bench/gpu"
  cp -a "$build"/src/libripple.so* "$prebuild/src/"
  for t in "${targets[@]}"; do
    case "$t" in
      test_*) cp -a "$build/tests/gpu/$t" "$prebuild/tests/gpu/" ;;
      bench_*) cp -a "$build/bench/gpu/$t" "$prebuild/bench/gpu/" ;;
    esac
  done
  cp -a "$build"/bench/gpu/libbench_fft_peer_*.so "$prebuild/bench/gpu/" 2>/dev/null || true
  echo "ripple $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "${RIPPLE_COMMIT:-?}")$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' with uncommitted changes'), built on $(hostname) $(date -u +%Y-%m-%dT%H:%MZ)" > "$prebuild/PREBUILT"
  ls -l "$prebuild"/*/ "$prebuild"/*/*/ | grep -v '^total'
  du -sh "$prebuild"
  exit 0
fi

# `limited CMD...`: CMD, stopped after --check-limit seconds where one is set (exit 124).
limited() {
  if [ "$check_limit" != 0 ]; then timeout --kill-after=10 "$check_limit" "$@"; else "$@"; fi
}

# Runs a GPU test binary with a gtest filter as up to 16 shards at once (a process each; they
# share the compiled kernels' disk cache), its logs in $logs (each test with its time); prints
# the shards' summary, the slowest tests, and a failing shard's log. Returns 1 if a shard failed.
# Its report pipelines may end early (head) or select nothing (grep): pipefail is off in it, so
# neither counts as a failure of the check (it runs in a subshell of its own).
sharded() {
  set +o pipefail
  local name=$1 filter=$2 n=$((jobs < 16 ? jobs : 16)) i rc=0 pids=() t0=$SECONDS
  for ((i = 0; i < n; ++i)); do
    GTEST_TOTAL_SHARDS=$n GTEST_SHARD_INDEX=$i limited "$build/tests/gpu/$name" --gtest_filter="$filter" \
      > "$logs/$name.$i.log" 2>&1 &
    pids+=($!)
  done
  for ((i = 0; i < n; ++i)); do
    local code=0
    wait "${pids[$i]}" || code=$?
    if [ $code != 0 ]; then
      rc=1
      if [ $code = 124 ] || [ $code = 137 ]; then
        echo "-- $name shard $i of $n CUT OFF after --check-limit $check_limit s, in: $(grep '^\[ RUN' "$logs/$name.$i.log" | tail -n 1)"
      else
        echo "-- $name shard $i of $n FAILED (exit $code):"
        grep -v -E '^\[       OK|^\[ RUN' "$logs/$name.$i.log" | tail -n 80 || true
      fi
    fi
  done
  # Counted per test, as a shard cut off prints no total
  echo "$name ($filter): $(cat "$logs/$name".*.log | grep -c '^\[       OK') tests passed, $(cat "$logs/$name".*.log | grep -c '^\[  FAILED  \] .* ([0-9]* ms)$') failed in $n shards, $((SECONDS - t0)) s$([ $rc = 0 ] || echo ', SOME FAILED')"
  grep -h '^\[       OK' "$logs/$name".*.log | sed 's/.*OK \] \(.*\) (\([0-9]*\) ms)/\2 \1/' | sort -rn | head -n 3 |
    awk '{printf "   slowest: %s ms %s\n", $1, $2}' || true
  return $rc
}

# A failed check is reported and the timings still run (the run then exits non-zero): a call on
# a lent GPU is too scarce to lose them.
check_status=0
rm -rf "$logs"
mkdir -p "$logs"
if [ $skip_tests = 0 ]; then
  echo "== check (GPU tests on every device; logs in $logs)"
  # On a machine with an NVIDIA GPU the CUDA backend must find it, or every CUDA test would be
  # left out and the checks pass without running one.
  "$build/tests/gpu/test_gpu_device" --gtest_brief=1 > "$logs/test_gpu_device.log" 2>&1 ||
    { check_status=1; cat "$logs/test_gpu_device.log"; }
  grep -E '^\[ (backend|device) ' "$logs/test_gpu_device.log" || true  # what the machine has
  case "$checks" in
    sos) nvrtc_filter='-*/fft_*'; suites=(test_gpu_kernels test_gpu_sos test_gpu_interop) ;;
    fft) nvrtc_filter='Nvrtc.*:*/fft_*'; suites=(test_gpu_fft test_gpu_interop) ;;
    *) nvrtc_filter='*'; suites=(test_gpu_kernels test_gpu_sos test_gpu_fft test_gpu_interop) ;;
  esac
  # (the list read whole first: grep -q closing the pipe early could fail the listing under pipefail)
  if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1 &&
     ! grep -q '/cuda_' <<< "$("$build/tests/gpu/${suites[0]}" --gtest_list_tests 2>&1 || true)"; then
    echo "run.sh: nvidia-smi lists a GPU but ripple's CUDA backend found none (no CUDA test is instantiated);" \
         "see $logs/test_gpu_device.log" >&2
    check_status=1
  fi
  # Every binary at once, each as its shards: one binary's slow shard overlaps the others' work,
  # and --check-limit bounds the whole check. Summaries in order after.
  [ $nvrtc_variants = 1 ] || nvrtc_filter='Nvrtc.*'
  names=(test_gpu_nvrtc "${suites[@]}")
  filters=("$nvrtc_filter")
  for t in "${suites[@]}"; do filters+=("*$device_negative"); done
  pids=()
  t0=$SECONDS
  for i in "${!names[@]}"; do
    sharded "${names[$i]}" "${filters[$i]}" > "$logs/summary-${names[$i]}.txt" 2>&1 &
    pids+=($!)
  done
  for i in "${!names[@]}"; do
    wait "${pids[$i]}" || check_status=1
    cat "$logs/summary-${names[$i]}.txt"
  done
  echo "checks: $((SECONDS - t0)) s"
fi
# compute-sanitizer on the CUDA device, memcheck and racecheck: over the cascade's CUDA tests,
# and over the one-kernel FFT's (every radix, Rader's and Bluestein's programs, the exchanges
# through local memory that the passes use too; $RIPPLE_SANITIZER_FFT_FILTER widens it: the
# whole FFT suite under a sanitizer would outlast a device call); racecheck and synccheck
# (barriers every thread of a block reaches, and the warp shuffles' masks) over the race
# check's small shapes of the parts timed (test_gpu_races: FFT passes, real transforms, the r2c
# split pass; both biquad cascade kernels).
if [ $sanitizer = 1 ]; then
  echo "== compute-sanitizer (CUDA tests)"
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  if [ ! -x "$cs" ]; then
    echo "run.sh: compute-sanitizer not found" >&2
    check_status=1
  else
    runs=()
    [ "$checks" = fft ] || runs+=("memcheck test_gpu_sos *cuda*" "racecheck test_gpu_sos *cuda*")
    fft_filter=${RIPPLE_SANITIZER_FFT_FILTER:-Devices/GpuFft.*cuda*}
    [ "$checks" = sos ] || runs+=("memcheck test_gpu_fft $fft_filter" "racecheck test_gpu_fft $fft_filter")
    case "$checks" in
      sos) races_filter='Devices/GpuRaceCheck.BiquadCascade*/cuda*' ;;
      fft) races_filter='Devices/GpuRaceCheck.*/cuda*:-*BiquadCascade*' ;;
      *) races_filter='Devices/GpuRaceCheck.*/cuda*' ;;
    esac
    runs+=("racecheck test_gpu_races $races_filter" "synccheck test_gpu_races $races_filter"
           "memcheck test_gpu_interop *cuda*")
    # All at once (each run is one process, mostly waiting on its checked launches), then the
    # verdicts in order.
    pids=()
    t0=$SECONDS
    for r in "${runs[@]}"; do
      read -r tool t filter <<< "$r"
      # RIPPLE_TEST_QUICK: the slowest sizes shortened (10^6 samples for 10^7), as under ASan
      RIPPLE_TEST_QUICK=1 limited "$cs" --tool "$tool" --error-exitcode 9 "$build/tests/gpu/$t" --gtest_filter="$filter" \
        > "$logs/sanitizer-$tool-$t.log" 2>&1 &
      pids+=($!)
    done
    for i in "${!runs[@]}"; do
      read -r tool t filter <<< "${runs[$i]}"
      code=0
      wait "${pids[$i]}" || code=$?
      if [ $code = 0 ]; then
        echo "$tool $t ($filter): clean ($(grep -ho 'PASSED  \] [0-9]*' "$logs/sanitizer-$tool-$t.log" | awk '{print $3}') tests)"
      else
        check_status=1
        if [ $code = 124 ] || [ $code = 137 ]; then
          echo "$tool $t ($filter): CUT OFF after --check-limit $check_limit s, in: $(grep '^\[ RUN' "$logs/sanitizer-$tool-$t.log" | tail -n 1)"
        else
          echo "$tool $t ($filter): FAILED (exit $code)"
          grep -v -E '^\[       OK|^\[ RUN' "$logs/sanitizer-$tool-$t.log" | tail -n 60 || true
        fi
      fi
    done
    echo "compute-sanitizer runs: $((SECONDS - t0)) s"
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
[ $check_status = 0 ] || { echo "run.sh: a check FAILED (above; logs in $logs)" >&2; status=1; }
# On a lent GPU machine only $OUT comes back, and only a few files of it (the device tool's
# limit is 8): this run's results, and the check logs packed into one file.
if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then
  find "$root/bench/results" -maxdepth 1 -name 'gpu-*' -newer "$marker" -exec cp {} "$OUT/" \;
  if [ -n "$(ls -A "$logs")" ]; then
    tar czf "$OUT/check-logs-$checks-$(date -u +%H%M%S).tar.gz" -C "$build" check-logs
  fi
  echo "== copied this run's results$([ -z "$(ls -A "$logs")" ] || echo ' and check logs (one tarball)') to $OUT"
fi
rm -f "$marker"
exit $status
