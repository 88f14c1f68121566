// Device level: Rader's algorithm in the one-kernel FFT (kernels/fft_c2c.cl, FFT_RADER) for a
// prime p whose p - 1 is codelet-smooth. With g a primitive root mod p and L = p - 1,
//   X[g^-r] = x[0] + sum_q x[g^q] w^(g^(q - r)),   X[0] = x[0] + sum_j>0 x[j],
// the sum a cyclic convolution of a[q] = x[g^q] with b[m] = w^(g^-m) (w = e^{-2 pi i / p}):
// forward FFT of L, times b's spectrum, backward FFT of L, in registers and local memory like
// any other transform of L points. x[0] joins the product's DC term, so that the backward FFT
// adds it to every output, and X[0] is x[0] plus the forward FFT's DC term. The backward DFT
// needs no tables of its own: conj b[m] = b[m - L/2] (g^(L/2) = -1), so its spectrum is b's
// times (-1)^k. Against Bluestein's convolution of at least 2p - 1 points, L is under half.
#pragma once

#include <cstdint>
#include <memory>

#include "gpu/runtime.hpp"

namespace ripple::gpu {

/// Rader's tables for the prime p: the permutation g^q mod p (q < p - 1, 32-bit) and b's
/// spectrum scaled by 1 / (p - 1) (the CPU FFT in double, b in long double, rounded once),
/// shared through the context's table cache.
struct RaderTables {
  std::shared_ptr<const Memory> index, spectrum;
  static RaderTables make(Context& context, std::uint64_t p, bool double_precision);
};

}  // namespace ripple::gpu
