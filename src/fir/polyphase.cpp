// Polyphase upfirdn kernels (see polyphase.hpp). Outputs k and k + up / g (g = gcd(up, down))
// use the same phase and read windows down / g inputs apart, so each of the up / g residues
// is one strided run of dot products (cpu::FirKernels::dot_strided).
#include "fir/polyphase.hpp"

#include <numeric>

#include "cpu/fir_kernels.hpp"

namespace ripple::fir::detail {

template <class U>
template <class H>
Polyphase<U> Polyphase<U>::make(std::span<const H> h, std::size_t up, std::size_t down) {
  Polyphase<U> poly;
  poly.up = up;
  poly.down = down;
  const std::size_t real_taps = (h.size() + up - 1) / up;
  // Pad to whole vectors when that costs at most the scalar tail it removes; very short
  // phases (an interpolator's few taps) stay as they are.
  const std::size_t w = cpu::fir_kernels<U>().lanes;
  poly.taps = real_taps * 2 >= w ? (real_taps + w - 1) / w * w : real_taps;
  const std::size_t lead = poly.taps - real_taps;
  poly.reversed.assign(up * poly.taps, U(0));
  for (std::size_t p = 0; p < up; ++p) {
    for (std::size_t t = 0; p + t * up < h.size(); ++t) {
      poly.reversed[p * poly.taps + lead + (real_taps - 1 - t)] = U(h[p + t * up]);
    }
  }
  return poly;
}

template <class U>
void Polyphase<U>::run(const U* padded, std::size_t first, U* out, std::ptrdiff_t os, std::size_t k0,
                       std::size_t k1) const {
  if (k1 <= k0) return;
  const auto strided = cpu::fir_kernels<U>().dot_strided;
  const std::size_t g = std::gcd(up, down), period = up / g, step = down / g;
  for (std::size_t r = 0; r < period && k0 + r < k1; ++r) {
    const std::size_t k = k0 + r, n = k * down;
    const std::size_t count = (k1 - k + period - 1) / period;
    strided(reversed.data() + (n % up) * taps, taps, padded + (n / up - first), step, count,
            out + static_cast<std::ptrdiff_t>(r) * os, os * static_cast<std::ptrdiff_t>(period));
  }
}

template struct Polyphase<float>;
template struct Polyphase<double>;
template Polyphase<float> Polyphase<float>::make<float>(std::span<const float>, std::size_t, std::size_t);
template Polyphase<float> Polyphase<float>::make<double>(std::span<const double>, std::size_t, std::size_t);
template Polyphase<double> Polyphase<double>::make<double>(std::span<const double>, std::size_t, std::size_t);

}  // namespace ripple::fir::detail
