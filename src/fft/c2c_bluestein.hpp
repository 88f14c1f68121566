// Node: Bluestein's algorithm. Any n as a convolution of length m >= 2n-1 (m chosen cheap for
// the lane FFT): with b[k] = e^{+/- pi i k^2 / n},
//   X[k] = conj(b[k]) * sum_j (x[j] conj(b[j])) b[k-j],
// the convolution done by two FFTs of size m against a precomputed transformed chirp.
#pragma once

#include "core/aligned.hpp"
#include "fft/c2c_node.hpp"
#include "fft/cyclic_convolution.hpp"

namespace ripple::fft::detail {

template <class T>
class C2cBluestein final : public C2cNode<T> {
 public:
  C2cBluestein(std::size_t n, bool forward, unsigned threads);
  void execute(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, T scale,
               unsigned threads) const override;
  std::string describe() const override;

  /// Convolution length used for size n and the estimated cost of a transform.
  static std::size_t convolution_size(std::size_t n);
  static double cost(std::size_t n, std::size_t lanes);

 private:
  std::size_t m_;
  core::AlignedVector<std::complex<T>> chirp_;  // conj(b[k]), k < n
  std::unique_ptr<const CyclicConvolution<T>> convolution_;  // with b wrapped to length m
};

}  // namespace ripple::fft::detail
