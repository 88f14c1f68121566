// Shared by the GPU FFT tests: their error bound, random inputs, and a layout's sides as the FFT
// tests' fft::test::Side.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <random>
#include <type_traits>
#include <vector>

#include "fft/fft_test_util.hpp"
#include "gpu/device_fft.hpp"

namespace ripple::gpu::test {

/// Relative L2 bound of a transform of size n: a few units of rounding per stage of log2 n.
template <class T>
double fft_bound(std::size_t n) {
  const double stages = std::max(1.0, std::log2(static_cast<double>(n)));
  return (std::is_same_v<T, float> ? 1.5e-7 : 3e-16) * stages;
}

/// count complex values with parts uniform in [-1, 1), the same for a given seed.
template <class T>
std::vector<std::complex<T>> random_complex(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<T> u(-1, 1);
  std::vector<std::complex<T>> x(count);
  for (auto& v : x) v = {u(rng), u(rng)};
  return x;
}

/// One side of `l` (the input or the output), `count` elements a transform, as the FFT tests'
/// Side: element i of transform b at its place in either level of batch.
inline fft::test::Side layout_side(const FftLayout& l, bool input, std::uint64_t count) {
  fft::test::Side s;
  s.count = count;
  s.batch = l.batch;
  s.stride = static_cast<std::size_t>(input ? l.in_stride : l.out_stride);
  s.dist = static_cast<std::size_t>(input ? l.in_dist : l.out_dist);
  s.inner = l.two_level() ? l.inner : 0;
  s.dist_outer = static_cast<std::size_t>(input ? l.in_dist_outer : l.out_dist_outer);
  return s;
}

}  // namespace ripple::gpu::test
