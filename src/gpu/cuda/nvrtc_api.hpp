// NVRTC, CUDA's run-time compiler, opened with dlopen at run time (so libripple starts where the
// CUDA toolkit is not installed), and compile_cubin(): source + options -> cubin for one
// architecture. Needs no GPU and no driver, so CI compiles every kernel variant with it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ripple::gpu::cuda {

/// True if NVRTC can be loaded: $RIPPLE_NVRTC_LIBRARY if set, else the soname of the toolkit
/// ripple was built with, else that toolkit's own copy. Otherwise false, with *why saying so.
bool nvrtc_available(std::string* why);

/// NVRTC's version, "13.0"; empty if NVRTC is not available.
std::string nvrtc_version();

/// Compiles CUDA C++ `source` (named `name` in diagnostics) for `arch` (e.g. "sm_90") with the
/// given options (each one argument, e.g. "-DBLOCK=128") into a cubin. Throws DeviceError with
/// NVRTC's log on a compile error, or saying why NVRTC could not be loaded. `log`, if given,
/// receives the log of a successful compile (warnings; ptxas's report with
/// "--ptxas-options=-v").
std::vector<std::byte> compile_cubin(const std::string& source, const std::string& name,
                                     const std::vector<std::string>& options, const std::string& arch,
                                     std::string* log = nullptr);

}  // namespace ripple::gpu::cuda
