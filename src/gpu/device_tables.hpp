// Constant tables of the GPU plans (FFT stage and pass twiddles, Bluestein's chirp and its
// spectrum, Rader's permutation and spectrum, the real FFT's half-spectrum twiddles): computed on the host in long double
// (fft::detail::UnitRoots: one product of two roots from tables of about sqrt(m) each), rounded
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

/// The bytes of tables a context keeps for plans made later: 256 MiB, or a 32nd of the device's
/// memory if less. Past it the least recently asked for are dropped (a plan still using one keeps
/// it alive, and a plan asking for it then shares it), and a table above it is made for each
/// plan not sharing it. A warm plan of 2^21 reals or a Bluestein size around 10^6 then makes no
/// table; a one-off huge transform holds at most the budget after its plan is gone, until an
/// allocation on the context fails (Context::allocate) or the user frees it
/// (Device::release_cached_memory).
std::size_t table_cache_budget(const DeviceFacts& facts);

/// Empties `context`'s table cache. Returns the bytes of the tables no plan was using, which are
/// freed now; those in use go with their last plan (a plan made meanwhile still shares them).
std::size_t release_cached_tables(Context& context);

/// The table `key` on `context` as complex double (as_double) or float values: `make`'s values
/// rounded once, uploaded on the first request (waited for), the same memory after while the
/// cache keeps it (table_cache_budget). Thread-safe.
std::shared_ptr<const Memory> complex_table(Context& context, const std::string& key, bool as_double,
                                            const std::function<std::vector<std::complex<long double>>()>& make);

/// The table `key` on `context` of the spectrum of a cyclic convolution's kernel (Bluestein's
/// chirp, Rader's roots) that `kernel` makes, scaled by 1/size, by the CPU FFT in double and
/// rounded from it; cached as complex_table.
std::shared_ptr<const Memory> spectrum_table(Context& context, const std::string& key, bool as_double,
                                             const std::function<std::vector<std::complex<double>>()>& kernel);

/// The table `key` on `context` of 32-bit indices (Rader's permutation), cached as complex_table.
std::shared_ptr<const Memory> index_table(Context& context, const std::string& key,
                                          const std::function<std::vector<std::uint32_t>()>& make);

}  // namespace ripple::gpu
