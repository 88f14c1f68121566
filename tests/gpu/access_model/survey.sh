#!/bin/sh
# Runs fft_access_survey (from the build folder BUILD) on Oclgrind with the access model loaded:
#   tests/gpu/access_model/survey.sh BUILD [--double] [--staging S] [--column-bytes B] [--pad-local 0|1] [--interleave 0|1]
#                                    BATCH N [N2 [N3]]
# e.g. tests/gpu/access_model/survey.sh build 1 65536 (two passes of 256 x 256 points).
set -eu
build=${1:?usage: survey.sh BUILD [options] BATCH N [N2 [N3]]}
shift
dir=$build/tests/gpu
runtime=$(sed -n 's/^RIPPLE_OCLGRIND_RUNTIME:FILEPATH=//p' "$build/CMakeCache.txt")
if [ ! -x "$dir/fft_access_survey" ] || [ -z "$runtime" ]; then
  echo "survey.sh: $dir/fft_access_survey or Oclgrind's runtime is missing (cmake --build $build --target fft_access_survey)" >&2
  exit 2
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
RIPPLE_OPENCL_LIBRARY=$runtime OCLGRIND_BUILD_OPTIONS=-cl-opt-disable OCLGRIND_LOCAL_MEM_SIZE=49152 \
  OCLGRIND_PLUGINS=$dir/libripple_access_model.so RIPPLE_ACCESS_MODEL_LOG=$log "$dir/fft_access_survey" "$@"
