// What Rader and Bluestein share: a cyclic convolution of length m with a fixed kernel, done as
// forward FFT, pointwise product with the kernel's spectrum, backward FFT. The caller's input
// and output go through hooks, so a long convolution can fuse its loads and stores into its
// own sweeps over memory (FourStepConvolution).
#pragma once

#include <complex>
#include <memory>
#include <string>

#include "core/aligned.hpp"
#include "fft/c2c_node.hpp"

namespace ripple::fft::detail {

template <class T>
class FourStepConvolution;

/// Where one convolution reads its input and puts its result. The input is a[0..inputs) (zero
/// beyond), of which `load` gives values first.. first + count; `store` takes results first..
/// first + count, all below `outputs`. Calls may come from several threads at once, for
/// disjoint ranges.
template <class T>
struct ConvolutionIo {
  std::size_t inputs = 0, outputs = 0;
  virtual void load(std::size_t first, std::size_t count, std::complex<T>* to) const = 0;
  virtual void store(std::size_t first, std::size_t count, const std::complex<T>* from) const = 0;
  /// A hint: load(first, count) comes soon (a long convolution loads rows far apart, where the
  /// hardware prefetchers stop).
  virtual void prefetch(std::size_t /*first*/, std::size_t /*count*/) const {}

 protected:
  ~ConvolutionIo() = default;
};

/// The part of a ConvolutionIo its users share: one transform of a batch, read from x and
/// written to y with their strides, the output times `scale`.
template <class T>
struct TransformIo : ConvolutionIo<T> {
  const std::complex<T>* x = nullptr;
  std::complex<T>* y = nullptr;
  std::ptrdiff_t in_stride = 1, out_stride = 1;
  T scale = 1;

  /// Points x and y at transform b of the batch.
  void select(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, std::size_t b) {
    x = in + std::ptrdiff_t(b) * layout.in_dist;
    y = out + std::ptrdiff_t(b) * layout.out_dist;
    in_stride = layout.in_stride;
    out_stride = layout.out_stride;
  }

 protected:
  ~TransformIo() = default;
};

template <class T>
class CyclicConvolution {
 public:
  /// Plans the transforms and takes the kernel's spectrum, computed in double and divided by
  /// m so that backward(forward(a) * spectrum) is the convolution itself.
  CyclicConvolution(core::AlignedVector<std::complex<double>> kernel, unsigned threads);
  ~CyclicConvolution();
  /// Convolves io's input with the kernel into io's output; returns bin 0 of the input's
  /// forward transform (the sum of the input).
  std::complex<T> apply(const ConvolutionIo<T>& io, unsigned threads) const;
  std::string describe() const;

 private:
  std::size_t m_;
  std::unique_ptr<const FourStepConvolution<T>> fused_;  // for long m; else the three below
  core::AlignedVector<std::complex<T>> spectrum_;
  C2cNodePtr<T> forward_, backward_;
};

}  // namespace ripple::fft::detail
