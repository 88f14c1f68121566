// Node: one long transform n = n1 * n2 as two sweeps of lane FFTs (the "four-step" FFT).
//   sweep 1: the n2 columns x[n1*n2 + c] (lanes = adjacent columns, contiguous), size-n1 FFTs,
//            times w_n^{k1*c}, into a scratch matrix Y[k1][c];
//   sweep 2: the n1 rows of Y (lanes = rows), size-n2 FFTs, written to X[k1 + n1*k2].
// Each panel (W columns or rows) is transformed in cache, so the signal is read and written
// twice whatever its length.
#pragma once

#include "core/aligned.hpp"
#include "cpu/fft_kernels.hpp"
#include "fft/c2c_node.hpp"
#include "fft/kernels.hpp"
#include "fft/lane_fft.hpp"

namespace ripple::fft::detail {

template <class T>
class C2cFourStep final : public C2cNode<T> {
 public:
  /// `kernels`: the best target's table by default, or a narrower one (narrow_fft_kernels).
  C2cFourStep(std::size_t n1, std::size_t n2, bool forward, const cpu::FftKernels<T>& kernels = fft_kernels<T>());
  void execute(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, T scale,
               unsigned threads) const override;
  std::string describe() const override;

  /// The split n = n1 * n2 this node would choose (n1 = 1 if none is worthwhile), and the
  /// estimated cost of one transform with it (lane_fft_cost_per_point's units).
  static std::size_t choose_n1(std::size_t n, std::size_t lanes, double* cost);

 private:
  const cpu::FftKernels<T>* kernels_;
  std::size_t n1_, n2_;
  LaneFft<T> columns_, rows_;
  // Panel kernels with every pass unrolled, where one is compiled for the sub-size; else null.
  cpu::PanelKernel<T> columns_fixed_, rows_fixed_;
  // Beyond kStagedFromBytes the sweeps go through a stage (see execute).
  bool staged_ = false;
  std::size_t stage_columns_ = 0, stage_rows_ = 0;  // columns (rows) of a stage of sweep 1 (2)
  // w_n^{k1*c}, padded by W: at [k1*n2 + c], or staged at [c0*n1 + k1*width + c - c0] for the
  // block of columns c0.. (width stage_columns_, less for the last) that c belongs to.
  core::AlignedVector<std::complex<T>> twiddles_;
};

}  // namespace ripple::fft::detail
