// Plain scalar reference implementations, written the way csdr and textbook code do them, so
// the benchmark can show what ripple's kernels gain over a straightforward loop.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ripple_bench {

/// csdr's fir_decimate_cc / fir_decimate_ff inner loop: for each output, a direct dot product
/// of the taps with the input window (compiled with csdr's -O3 -ffast-math and the machine's
/// SIMD flags, so the compiler may vectorize the dot). Returns the number of outputs.
std::size_t csdr_fir_decimate(const float* x, std::size_t n, const float* taps, std::size_t n_taps,
                              std::size_t decimation, float* out);
/// csdr-style direct FIR filtering (one output per input, the dot over the last n_taps inputs).
std::size_t csdr_fir_filter(const float* x, std::size_t n, const float* taps, std::size_t n_taps, float* out);

/// A textbook CIC decimator on interleaved int16 IQ: N integrators per sample and N combs per
/// output in 64-bit registers, scalar, one sample at a time. Returns the number of outputs.
class ScalarCic {
 public:
  ScalarCic(unsigned stages, unsigned ratio) : n_(stages), r_(ratio), state_(2 * stages * 2, 0) {}
  std::size_t process(const std::int16_t* iq, std::size_t frames, std::int64_t* out);

 private:
  unsigned n_, r_, phase_ = 0;
  std::vector<std::uint64_t> state_;  // per channel: N integrators, N comb delays (wrapping)
};

}  // namespace ripple_bench
