// What Rader and Bluestein share: a cyclic convolution of length m with a fixed kernel, done as
// forward FFT, pointwise product with the kernel's spectrum, backward FFT.
#pragma once

#include <complex>

#include "core/aligned.hpp"
#include "fft/c2c_node.hpp"

namespace ripple::fft::detail {

template <class T>
struct CyclicConvolution {
  /// Plans both transforms and takes the kernel's spectrum, computed in double and divided by
  /// m so that backward(forward(a) * spectrum) is the convolution itself.
  CyclicConvolution(core::AlignedVector<std::complex<double>> kernel, unsigned threads);
  /// a (m values) <- a (*) kernel, in place.
  void apply(std::complex<T>* a, unsigned threads) const;
  /// The same, letting `peek` read the forward transform of a (e.g. bin 0, the sum of a)
  /// before the product.
  template <class Peek>
  void apply(std::complex<T>* a, unsigned threads, const Peek& peek) const {
    forward->execute(a, a, Layout{}, T(1), threads);
    peek(a);
    for (std::size_t k = 0; k < spectrum.size(); ++k) a[k] *= spectrum[k];
    backward->execute(a, a, Layout{}, T(1), threads);
  }

  core::AlignedVector<std::complex<T>> spectrum;
  C2cNodePtr<T> forward, backward;
};

}  // namespace ripple::fft::detail
