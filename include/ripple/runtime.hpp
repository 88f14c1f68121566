// Process-wide facts and settings: version, build options, the SIMD target chosen at run time,
// and the default number of worker threads.
#pragma once

#include <string>

namespace ripple {

/// Library version as "major.minor.patch".
const char* version();

/// Build options compiled into this library, one "key=value" per line (build type, compiler,
/// SIMD targets compiled in).
std::string build_info();

/// Name of the SIMD instruction set that ripple's CPU kernels use on this machine
/// (e.g. "AVX2", "AVX3", "NEON"), chosen once at run time among the targets compiled in.
std::string simd_target();

/// Number of complex float / double values one SIMD vector holds on the chosen target.
int simd_complex_lanes_f32();
int simd_complex_lanes_f64();

/// Default number of threads for new plans: the value set by set_threads(), else the
/// RIPPLE_THREADS environment variable, else the number of hardware threads.
unsigned default_threads();

/// Sets the default thread count for plans created afterwards. 0 restores the automatic
/// choice. Throws InvalidArgument if n exceeds 1024.
void set_threads(unsigned n);

}  // namespace ripple
