// Polyphase upfirdn kernels (see polyphase.hpp). Outputs k and k + up / g (g = gcd(up, down))
// use the same phase and read windows down / g inputs apart. With one phase or a few, each of
// the up / g residues is one strided run of dot products with one set of taps
// (cpu::FirKernels::dot_strided); with many (resample_poly's 147/160), outputs are computed
// in order, cycling through the phases (cpu::FirKernels::polyphase_ordered).
#include "fir/polyphase.hpp"

#include <numeric>

#include "core/scratch.hpp"
#include "cpu/fir_kernels.hpp"

namespace ripple::fir::detail {
namespace {

// From this many phases on, outputs are computed in order (cpu::FirKernels::polyphase_ordered:
// no copy, but each output loads its own phase's taps); below it, per residue with the taps
// loaded once per run (measured on Zen 3: 7/1 about 15 % faster per residue, 147/160 about
// 40 % faster in order).
constexpr std::size_t kOrderedPeriod = 8;
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
  const std::size_t period = up / std::gcd(up, down);
  for (std::size_t s = 0; period >= kOrderedPeriod && s < period + 7; ++s) {
    poly.tap_at.push_back((s * down) % up * poly.taps);
    poly.x_at.push_back(s * down / up);
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
  if (period >= kOrderedPeriod) {
    // Outputs in order, each phase's taps contiguous: the kernel cycles through the phases.
    const std::size_t q = k0 / period, r = k0 % period;
    cpu::fir_kernels<U>().polyphase_ordered(reversed.data(), taps, tap_at.data(), x_at.data(), period, step, r,
                                            padded + (q * step + x_at[r] - first), k1 - k0, out, os);
    return;
  }
  // Few phases: per residue, in blocks of outputs reading kBlockInputs inputs, a multiple of
  // 8 * period outputs so each residue's run fills the kernel's 8-output groups. Each
  // residue's outputs, period apart in the result, go contiguously into a small block
  // (residue-major, so the kernel stores whole vectors), then are copied out in order:
  // scattered stores straight into a large fresh array would each miss the cache.
  const std::size_t per = std::max<std::size_t>(1, kBlockInputs * up / down / (8 * period)) * 8;
  const std::size_t block = per * period;
  core::Scratch scratch;
  U* staged = scratch.get<U>(block);
  for (std::size_t kb = k0; kb < k1; kb += block) {
    const std::size_t ke = std::min(k1, kb + block);
    for (std::size_t r = 0; r < period && kb + r < ke; ++r) {
      const std::size_t k = kb + r, n = k * down;
      const std::size_t count = (ke - k + period - 1) / period;
      strided(reversed.data() + (n % up) * taps, taps, padded + (n / up - first), step, count, staged + r * per, 1);
    }
    U* dst = out + static_cast<std::ptrdiff_t>(kb - k0) * os;
    const std::size_t whole = (ke - kb) / period;  // outputs of every residue
    for (std::size_t j = 0; j < whole; ++j) {
      U* d = dst + static_cast<std::ptrdiff_t>(j * period) * os;
      const U* s = staged + j;
      for (std::size_t r = 0; r < period; ++r) d[static_cast<std::ptrdiff_t>(r) * os] = s[r * per];
    }
    for (std::size_t i = whole * period; i < ke - kb; ++i) {
      dst[static_cast<std::ptrdiff_t>(i) * os] = staged[(i % period) * per + i / period];
    }
  }
}

template struct Polyphase<float>;
template struct Polyphase<double>;
template Polyphase<float> Polyphase<float>::make<float>(std::span<const float>, std::size_t, std::size_t);
template Polyphase<float> Polyphase<float>::make<double>(std::span<const double>, std::size_t, std::size_t);
template Polyphase<double> Polyphase<double>::make<double>(std::span<const double>, std::size_t, std::size_t);

}  // namespace ripple::fir::detail
