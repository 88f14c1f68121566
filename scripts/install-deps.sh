#!/usr/bin/env bash
# Installs what ripple needs on a Debian 12 machine, only what is missing. Idempotent.
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config python3 python3-pip
          libhwy-dev libfftw3-dev libcli11-dev libgtest-dev libbenchmark-dev
          # sample files: libsndfile (WAV/FLAC/...), nlohmann JSON (SigMF metadata); cairo draws
          # the CLI's PNG plots (text, axes, colour bars)
          libsndfile1-dev nlohmann-json3-dev libcairo2-dev
          # libFuzzer (clang's -fsanitize=fuzzer) for the file-reader fuzzers of make test / make fuzz
          clang libclang-rt-14-dev
          # OpenCL: headers + ICD loader to build the backend, PoCL (a CPU OpenCL driver) so the
          # GPU kernels run in tests on machines without a GPU. The CUDA toolkit is not a Debian
          # package: the CUDA backend is built when /usr/local/cuda (or CUDAToolkit_ROOT) has it.
          libvkfft-dev  # VkFFT's header, a peer of bench/gpu's FFT benchmark (optional: switched off without it)
          ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd
          # Oclgrind: an OpenCL simulator whose race detector checks the GPU kernels' barriers
          # (tests/gpu: test_gpu_races)
          oclgrind)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: apt-get install ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# Python peers for tests and benchmarks (reference values, scipy/numpy timings).
PY=${PYTHON:-python3}
if ! $PY -c "import numpy, scipy" 2>/dev/null; then
  echo "install-deps: pip install numpy scipy"
  $PY -m pip install -q -r "$(dirname "$0")/requirements.txt" || \
    $PY -m pip install -q --break-system-packages -r "$(dirname "$0")/requirements.txt"
fi
