// The plan of ripple's FFT workhorse: a complex FFT of size n applied at once to every lane of a
// SIMD vector ("lanes" independent transforms, element e of all of them in one vector).
// Stockham autosort passes, one per radix, ping-pong between two buffers. This file is
// backend-free: it holds the factorization and twiddle tables; src/cpu/ executes it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/aligned.hpp"

namespace ripple::fft::detail {

/// One radix pass over n = l1 * radix * ido elements: l1 independent sub-transforms of size
/// radix * ido are each split by a radix-point butterfly (decimation in frequency), the outputs
/// multiplied by w_{radix*ido}^{i*j} and written so that the next pass sees l1*radix
/// contiguous sub-transforms of size ido.
struct Pass {
  int radix = 0;
  std::size_t l1 = 0;
  std::size_t ido = 0;
  std::size_t twiddle_offset = 0;  // first (j=1, i=0) entry in the pass twiddle tables
  std::size_t generic_offset = 0;  // first entry of cos/sin tables for a generic radix
};

/// Largest prime the generic butterfly accepts; larger prime factors go to Bluestein/Rader.
constexpr int kMaxGenericRadix = 61;

/// Single odd-prime transforms from this size up compute their outputs W at a time
/// (LaneFft::outputs_cos); the rows are padded to whole vectors of up to 8 complex values.
constexpr int kOutputsAcrossLanesMinRadix = 11;
constexpr std::size_t kOutputsRowPad(int radix) { return (std::size_t(radix - 1) / 2 + 7) / 8 * 8; }

template <class T>
struct LaneFft {
  std::size_t n = 0;
  bool forward = true;
  std::vector<Pass> passes;
  // Twiddle w = (re, im) of pass entry t is stored as re[t] and as the 16-byte pattern
  // (-im, im, -im, im) (float) / (-im, im) (double) so a kernel can broadcast it with one load.
  core::AlignedVector<T> twiddle_re;
  core::AlignedVector<T> twiddle_im_alt;  // 16 bytes per entry
  // Generic radix p: cos/sin(2 pi k m / p) for k, m in 1..(p-1)/2 (sin carries the direction).
  core::AlignedVector<T> generic_cos;
  core::AlignedVector<T> generic_sin;
  // Plans of one odd-prime pass (p >= kOutputsAcrossLanesMinRadix): the DFT matrix for the
  // kernel that computes W outputs per vector. Row m - 1 (m = 1..h, h = (p-1)/2) holds
  // cos / sin(2 pi k m / p) for k = 1..h, each value twice (re and im slot), zero-padded to
  // kOutputsRowPad values of k.
  core::AlignedVector<T> outputs_cos;
  core::AlignedVector<T> outputs_sin;

  static constexpr std::size_t kImAltStride = 16 / sizeof(T);
};

/// Splits n into the radices of its passes (largest first). Returns false if n has a prime
/// factor above kMaxGenericRadix.
bool factor_for_passes(std::size_t n, std::vector<int>& radices);

/// Builds the full plan (passes and tables) for size n. n must pass factor_for_passes.
template <class T>
LaneFft<T> make_lane_fft(std::size_t n, bool forward);
/// The same with the passes' radices given (their product must be n).
template <class T>
LaneFft<T> make_lane_fft(std::size_t n, bool forward, const std::vector<int>& radices);

/// Estimated cost per point of a lane FFT of size n (arbitrary units, for choosing algorithms);
/// infinity if n cannot be factored for passes.
double lane_fft_cost_per_point(std::size_t n);

/// "16x16x4" style summary of the radices.
std::string describe_radices(const std::vector<Pass>& passes);

}  // namespace ripple::fft::detail
