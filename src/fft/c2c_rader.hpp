// Node: Rader's algorithm for prime n. With g a primitive root mod n, the outputs X[g^-p] - x[0]
// are the cyclic convolution (length n-1) of a[q] = x[g^q] with h[q] = w_n^{g^-q}, done by two
// FFTs of size n-1 against a precomputed transformed h. Best when n-1 is smooth.
#pragma once

#include <cstdint>
#include <vector>

#include "core/aligned.hpp"
#include "fft/c2c_node.hpp"
#include "fft/cyclic_convolution.hpp"

namespace ripple::fft::detail {

template <class T>
class C2cRader final : public C2cNode<T> {
 public:
  C2cRader(std::size_t n, bool forward, unsigned threads);
  void execute(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, T scale,
               unsigned threads) const override;
  std::string describe() const override;

  static double cost(std::size_t n, std::size_t lanes);

 private:
  // 32-bit indices: half the traffic of the permutations (cost() keeps n - 1 within 32 bits).
  std::vector<std::uint32_t> gather_;   // g^q mod n, q < n-1
  std::vector<std::uint32_t> scatter_;  // g^-p mod n, p < n-1
  std::unique_ptr<const CyclicConvolution<T>> convolution_;  // with h, length n-1
};

/// Whether n is prime (deterministic for 64-bit n).
bool is_prime(std::size_t n);
/// The smallest primitive root modulo the prime n (a generator of the multiplicative group).
std::size_t primitive_root(std::size_t n);

}  // namespace ripple::fft::detail
