// The polyphase form of upfirdn shared by the one-shot and the streaming versions: output k
// sits at position n = k * down of the upsampled signal, so only the taps of phase
// p = n mod up meet nonzero samples, and y[k] = sum_t h[p + t * up] * x[n / up - t].
// Each phase's taps are stored reversed and padded in front with zeros to a whole number of
// SIMD vectors, so an output is a dot product over contiguous memory with no scalar tail.
// Inputs are read from a "padded line": taps - 1 zeros, then the samples (then zeros).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "ripple/array.hpp"

namespace ripple::fir::detail {

template <class U>
struct Polyphase {
  std::size_t up = 1, down = 1;
  std::size_t taps = 0;    // taps per phase, padded
  // Phase p at [p * taps, (p + 1) * taps), reversed; 64-byte aligned, so a phase of whole
  // vectors is loaded without a vector straddling two cache lines (147/160 ~10 % faster).
  ArrayStorage<U> reversed;
  // Output k = q * period + s (period = up / gcd(up, down)) reads phase (s * down) mod up,
  // whose taps start at tap_at[s], from padded index q * step + x_at[s] on (step = down /
  // gcd); period + 7 entries, so eight consecutive outputs index them without wrapping.
  // Empty when there are few phases (polyphase.cpp runs those per residue).
  std::vector<std::size_t> tap_at, x_at;

  /// The polyphase form of h (in any precision, converted to U).
  template <class H>
  static Polyphase make(std::span<const H> h, std::size_t up, std::size_t down);

  /// Outputs [k0, k1) of one real line into out[(k - k0) * os]. `padded` holds the padded line
  /// from padded index `first` on, through at least index (k1 - 1) * down / up + taps - 1.
  void run(const U* padded, std::size_t first, U* out, std::ptrdiff_t os, std::size_t k0, std::size_t k1) const;
};

}  // namespace ripple::fir::detail
