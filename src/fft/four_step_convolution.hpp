// A long cyclic convolution (length m = n1 * n2) as three sweeps over memory. Done as forward
// FFT, product and backward FFT with the caller's own passes to load and store, it sweeps about
// seven times. Here:
//   sweep 1: columns of the input a[r*n2 + c] (loaded through the caller's hook; rows past its
//            length are zero), size-n1 FFTs, times w_m^{k1*c}, into Y[k1][c];
//   sweep 2: each row k1 of Y: size-n2 FFT (which gives A[k1 + n1*k2]), times the kernel's
//            spectrum, inverse size-n2 FFT, times w_m^{-k1*j2}, back into Y[k1][j2];
//   sweep 3: columns j2 of Y, inverse size-n1 FFTs, which give the result at j2 + n2*j1,
//            handed to the caller's hook row by row.
// The spectrum is never in natural order: the inverse transform starts where the forward one
// stops (the inverse four-step by decimation in frequency), so the transposes cancel.
#pragma once

#include <complex>
#include <memory>
#include <string>

#include "core/aligned.hpp"
#include "cpu/fft_kernels.hpp"
#include "fft/cyclic_convolution.hpp"
#include "fft/lane_fft.hpp"

namespace ripple::fft::detail {

template <class T>
class FourStepConvolution {
 public:
  /// The fused convolution for a kernel's spectrum (natural order, already divided by m), or
  /// null where a transform of size m would not be a four-step either (it runs in cache with
  /// `threads` threads, or m does not split).
  static std::unique_ptr<const FourStepConvolution> make(const core::AlignedVector<std::complex<double>>& spectrum,
                                                         unsigned threads);

  /// As CyclicConvolution::apply.
  std::complex<T> apply(const ConvolutionIo<T>& io, unsigned threads) const;
  std::string describe() const;

  FourStepConvolution(const core::AlignedVector<std::complex<double>>& spectrum, std::size_t n1);

 private:
  const cpu::FftKernels<T>* kernels_;
  std::size_t n1_, n2_;
  std::size_t column_line_, row_line_;  // columns (rows) of a stage in sweeps 1 and 3 (2)
  LaneFft<T> columns_forward_, columns_backward_, rows_forward_, rows_backward_;
  cpu::PanelKernel<T> columns_forward_kernel_, columns_backward_kernel_, rows_forward_kernel_, rows_backward_kernel_;
  // In the order the panels read them (lane_block_table): w_m^{k1*c} by blocks of columns;
  // the spectrum at k1 + n1*k2 and w_m^{-k1*j2} by blocks of rows.
  core::AlignedVector<std::complex<T>> column_twiddles_, spectrum_, row_twiddles_;
};

}  // namespace ripple::fft::detail
