// See csdr_style.hpp. This file is compiled with -O3 -ffast-math -march=native, as csdr is.
#include "csdr_style.hpp"

namespace ripple_bench {

std::size_t csdr_fir_decimate(const float* x, std::size_t n, const float* taps, std::size_t n_taps,
                              std::size_t decimation, float* out) {
  std::size_t k = 0;
  for (std::size_t i = 0; i + n_taps <= n; i += decimation) {
    float acc = 0;
    for (std::size_t t = 0; t < n_taps; ++t) acc += x[i + t] * taps[t];
    out[k++] = acc;
  }
  return k;
}

std::size_t csdr_fir_filter(const float* x, std::size_t n, const float* taps, std::size_t n_taps, float* out) {
  return csdr_fir_decimate(x, n, taps, n_taps, 1, out);
}

std::size_t ScalarCic::process(const std::int16_t* iq, std::size_t frames, std::int64_t* out) {
  std::size_t k = 0;
  for (std::size_t t = 0; t < frames; ++t) {
    const bool emit = ++phase_ == r_;
    if (emit) phase_ = 0;
    for (unsigned c = 0; c < 2; ++c) {
      std::uint64_t* integ = state_.data() + c * 2 * n_;
      std::uint64_t* comb = integ + n_;
      std::uint64_t v = static_cast<std::uint64_t>(std::int64_t{iq[2 * t + c]});
      for (unsigned s = 0; s < n_; ++s) v = integ[s] += v;
      if (!emit) continue;
      for (unsigned s = 0; s < n_; ++s) {
        const std::uint64_t y = v - comb[s];
        comb[s] = v;
        v = y;
      }
      out[2 * k + c] = static_cast<std::int64_t>(v);
    }
    if (emit) ++k;
  }
  return k;
}

}  // namespace ripple_bench
