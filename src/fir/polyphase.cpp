// Polyphase upfirdn kernels (see polyphase.hpp). Outputs k and k + up / g (g = gcd(up, down))
// use the same phase and read windows down / g inputs apart, so each of the up / g residues
// is one strided run of dot products (cpu::FirKernels::dot_strided).
#include "fir/polyphase.hpp"

#include <numeric>

#include "core/scratch.hpp"
#include "cpu/fir_kernels.hpp"

namespace ripple::fir::detail {
namespace {

// Input values one block of outputs reads when there are several residues (16 KB of float):
// each residue sweeps the block's inputs, which stay in the L1/L2 cache across the sweeps.
constexpr std::size_t kBlockInputs = 4096;

}  // namespace

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
  if (period == 1) {
    strided(reversed.data() + (k0 * down % up) * taps, taps, padded + (k0 * down / up - first), step, k1 - k0, out, os);
    return;
  }
  // Blocks of outputs reading kBlockInputs inputs, a multiple of 4 * period outputs so each
  // residue's run fills the kernel's 4-output groups. The sweeps scatter their outputs period
  // apart: into a small block, copied out in order afterwards (scattered stores
  // straight into a large fresh array each miss the cache).
  const std::size_t block = std::max<std::size_t>(1, kBlockInputs * up / down / (4 * period)) * 4 * period;
  core::Scratch scratch;
  U* staged = scratch.get<U>(std::min(block, k1 - k0));
  for (std::size_t kb = k0; kb < k1; kb += block) {
    const std::size_t ke = std::min(k1, kb + block);
    for (std::size_t r = 0; r < period && kb + r < ke; ++r) {
      const std::size_t k = kb + r, n = k * down;
      const std::size_t count = (ke - k + period - 1) / period;
      strided(reversed.data() + (n % up) * taps, taps, padded + (n / up - first), step, count, staged + r,
              static_cast<std::ptrdiff_t>(period));
    }
    U* dst = out + static_cast<std::ptrdiff_t>(kb - k0) * os;
    for (std::size_t i = 0; i < ke - kb; ++i) dst[static_cast<std::ptrdiff_t>(i) * os] = staged[i];
  }
}

template struct Polyphase<float>;
template struct Polyphase<double>;
template Polyphase<float> Polyphase<float>::make<float>(std::span<const float>, std::size_t, std::size_t);
template Polyphase<float> Polyphase<float>::make<double>(std::span<const double>, std::size_t, std::size_t);
template Polyphase<double> Polyphase<double>::make<double>(std::span<const double>, std::size_t, std::size_t);

}  // namespace ripple::fir::detail
