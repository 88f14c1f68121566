# Third-party packages ripple builds against. Every one comes from Debian packages installed by
# scripts/install-deps.sh, so a fresh machine needs nothing else.
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
# Highway (Debian libhwy-dev) ships a CMake package; fall back to pkg-config.
find_package(hwy CONFIG QUIET)
if(NOT TARGET hwy::hwy)
  pkg_check_modules(HWY REQUIRED IMPORTED_TARGET libhwy)
  add_library(hwy::hwy ALIAS PkgConfig::HWY)
endif()
# Sample I/O: libsndfile (Debian libsndfile1-dev) reads and writes WAV/FLAC/AIFF/OGG...;
# nlohmann::json (nlohmann-json3-dev, header-only) parses SigMF metadata.
pkg_check_modules(SNDFILE REQUIRED IMPORTED_TARGET sndfile)
find_package(nlohmann_json 3.10 CONFIG REQUIRED)

# GPU backends. RIPPLE_CUDA / RIPPLE_OPENCL: AUTO builds a backend when what it needs at build
# time is found, ON requires it, OFF leaves it out. Neither backend links a driver: OpenCL's ICD
# loader (libOpenCL.so.1) and NVRTC are opened with dlopen at run time, and the CUDA runtime is
# linked statically (it opens libcuda.so.1 itself), so libripple starts on machines without them.
set(RIPPLE_CUDA AUTO CACHE STRING "Build the CUDA backend (AUTO, ON, OFF)")
set(RIPPLE_OPENCL AUTO CACHE STRING "Build the OpenCL backend (AUTO, ON, OFF)")
set_property(CACHE RIPPLE_CUDA PROPERTY STRINGS AUTO ON OFF)
set_property(CACHE RIPPLE_OPENCL PROPERTY STRINGS AUTO ON OFF)
foreach(opt RIPPLE_CUDA RIPPLE_OPENCL)
  if(NOT ${opt} MATCHES "^(AUTO|ON|OFF)$")
    message(FATAL_ERROR "${opt}=${${opt}}: expected AUTO, ON or OFF")
  endif()
endforeach()

set(RIPPLE_HAVE_CUDA OFF)
if(NOT RIPPLE_CUDA STREQUAL "OFF")
  if(RIPPLE_CUDA STREQUAL "ON")
    find_package(CUDAToolkit 12.0 REQUIRED)
  else()
    find_package(CUDAToolkit 12.0 QUIET)
  endif()
  if(CUDAToolkit_FOUND AND TARGET CUDA::cudart_static AND EXISTS "${CUDAToolkit_INCLUDE_DIRS}/nvrtc.h")
    set(RIPPLE_HAVE_CUDA ON)
  elseif(RIPPLE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "RIPPLE_CUDA=ON: the CUDA toolkit has no cudart_static or nvrtc.h")
  endif()
endif()

set(RIPPLE_HAVE_OPENCL OFF)
if(NOT RIPPLE_OPENCL STREQUAL "OFF")
  # Only the headers are needed at build time (Debian opencl-c-headers, from ocl-icd-opencl-dev).
  find_path(RIPPLE_OPENCL_INCLUDE_DIR CL/cl.h)
  if(RIPPLE_OPENCL_INCLUDE_DIR)
    set(RIPPLE_HAVE_OPENCL ON)
  elseif(RIPPLE_OPENCL STREQUAL "ON")
    message(FATAL_ERROR "RIPPLE_OPENCL=ON: CL/cl.h not found (apt-get install ocl-icd-opencl-dev)")
  endif()
endif()
message(STATUS "ripple GPU backends: CUDA ${RIPPLE_HAVE_CUDA}, OpenCL ${RIPPLE_HAVE_OPENCL}")
