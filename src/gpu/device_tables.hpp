// Constant tables of the GPU plans (FFT stage and pass twiddles, Bluestein's chirp and its
// spectrum, Rader's permutation and spectrum, the real FFT's half-spectrum twiddles): computed on the host in long double, rounded
// once to the data's precision, uploaded once per context and shared by every plan that asks for
// the same key, so a plan made again computes and uploads nothing (issue 6: a warm plan in under
// 1 ms; the long-double sines of a 4096-point table alone took about 0.5 ms).
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpu/runtime.hpp"

namespace ripple::gpu {

/// Tables above this size are made for each plan instead (a one-off huge transform should not
/// hold device memory for the rest of the process).
inline constexpr std::size_t kTableCacheMaxBytes = std::size_t{4} << 20;

/// The table `key` on `context` as complex double (as_double) or float values: `make`'s values
/// rounded once, uploaded on the first request (waited for), the same memory after. Thread-safe.
std::shared_ptr<const Memory> complex_table(Context& context, const std::string& key, bool as_double,
                                            const std::function<std::vector<std::complex<long double>>()>& make);

/// The spectrum of a cyclic convolution's kernel b (Bluestein's chirp, Rader's roots) scaled by
/// 1/b.size(), by the CPU FFT in double: the values of a spectrum table.
std::vector<std::complex<long double>> convolution_spectrum(const std::vector<std::complex<double>>& b);

/// The table `key` on `context` of 32-bit indices (Rader's permutation), cached as complex_table.
std::shared_ptr<const Memory> index_table(Context& context, const std::string& key,
                                          const std::function<std::vector<std::uint32_t>()>& make);

}  // namespace ripple::gpu
