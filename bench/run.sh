#!/usr/bin/env bash
# Runs the FFT benchmarks of an existing build and saves the results (builds nothing):
#   bench/run.sh BUILD_DIR [bench_fft options...]       e.g. bench/run.sh build --quick
# bench_fft (ripple vs FFTW) runs with the given options, then bench/fft_peers.py times the
# Python peers on the same cases. Both outputs go to the terminal and, with a header describing
# the machine and the commit, to bench/results/fft-cpu-<tag>-<UTC date-time>.md (plus .csv and
# .json of the bench_fft rows).
# Environment: RIPPLE_BENCH_TAG names the machine in the file name (default: CPU model and
# core count); RIPPLE_BENCH_NO_PEERS=1 skips the Python peers; RIPPLE_BENCH_NO_WISDOM=1 makes
# FFTW plan afresh instead of reusing BUILD_DIR/bench/fftw-*.wisdom; PYTHON picks the interpreter.
set -euo pipefail

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
build=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
exe="$build/bench/bench_fft"
if [ ! -x "$exe" ]; then
  echo "run.sh: $exe not found: build with -DRIPPLE_BUILD_BENCH=ON (the default; needs libfftw3-dev)" >&2
  exit 1
fi
PY=${PYTHON:-python3}

cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
cpu=${cpu:-$(uname -m)}
cores=$(nproc)
tag=${RIPPLE_BENCH_TAG:-$(echo "$cpu" | tr 'A-Z' 'a-z' | sed 's/([^)]*)//g; s/[^a-z0-9]\+/-/g; s/^-//; s/-$//' | cut -c1-40)-${cores}c}
stamp=$(date -u +%Y%m%d-%H%M)
mkdir -p "$here/results"
base="$here/results/fft-cpu-$tag-$stamp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The peers follow bench_fft's case list (through its CSV) and its timing options.
peer_args=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --quick | --no-error) peer_args+=("${args[i]}") ;;
    --threads | --samples | --min-time) peer_args+=("${args[i]}" "${args[i + 1]:-}") ;;
  esac
done

# FFTW's plans are cached as wisdom in the build folder, so a second run skips FFTW_MEASURE's
# planning (minutes for the large sizes). --wisdom on the command line, or
# RIPPLE_BENCH_NO_WISDOM=1, overrides this.
wisdom_args=()
case " $* " in
  *" --wisdom "*) ;;
  *) [ "${RIPPLE_BENCH_NO_WISDOM:-0}" = 1 ] || wisdom_args=(--wisdom "$build/bench/fftw") ;;
esac

# The commit is read before the run: the binary was built from it (and any local changes).
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit (working tree has uncommitted changes)"
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
"$exe" "$@" "${wisdom_args[@]}" --csv "$base.csv" --json "$base.json" | tee "$tmp/bench_fft.txt"
if [ "${RIPPLE_BENCH_NO_PEERS:-0}" != 1 ]; then
  echo
  "$PY" "$here/fft_peers.py" --ripple-csv "$base.csv" "${peer_args[@]}" | tee "$tmp/peers.txt" || \
    echo "run.sh: fft_peers.py failed (exit $?)" | tee "$tmp/peers.txt"
fi
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

simd=$(sed -n 's/^# simd_target: //p' "$tmp/bench_fft.txt" | head -1)
sockets=$(grep '^physical id' /proc/cpuinfo | sort -u | wc -l)
physical=$(grep '^core id' /proc/cpuinfo | sort -u | wc -l)
{
  echo "# ripple FFT benchmark, $start"
  echo
  echo "- machine: $cpu; $cores logical cores (${physical} core ids, ${sockets:-?} socket(s)); $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); $(uname -sr)"
  echo "- SIMD target chosen by ripple: ${simd:-unknown}"
  echo "- load average before / after: $load_before / $load_after (on $cores cores; above ~0.5 per core the timings are noisy)"
  echo "- git commit at the start: $commit"
  echo "- command: bench/run.sh $build $*"
  echo "- files: $(basename "$base").csv and .json hold the bench_fft rows; bench/README.md explains the columns"
  echo
  echo "## ripple vs FFTW (bench_fft)"
  echo
  echo '```text'
  cat "$tmp/bench_fft.txt"
  echo '```'
  if [ -f "$tmp/peers.txt" ]; then
    echo
    echo "## Python peers (fft_peers.py)"
    echo
    echo '```text'
    cat "$tmp/peers.txt"
    echo '```'
  fi
} > "$base.md"
echo
echo "run.sh: saved $base.md (.csv, .json)"
