// Shared by the GPU FFT tests: their error bound and random inputs.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <random>
#include <type_traits>
#include <vector>

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

}  // namespace ripple::gpu::test
