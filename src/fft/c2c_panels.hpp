// Node: transforms travel through SIMD lanes in groups of W (the lane FFT). Used for batches
// (lane = batch entry) and for single short transforms (one lane used; sizes with a fixed
// kernel run it instead, one sequence per vector, whole in registers).
#pragma once

#include "cpu/fft_kernels.hpp"
#include "fft/c2c_node.hpp"
#include "fft/lane_fft.hpp"

namespace ripple::fft::detail {

template <class T>
class C2cPanels final : public C2cNode<T> {
 public:
  C2cPanels(std::size_t n, bool forward);
  void execute(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, T scale,
               unsigned threads) const override;
  std::string describe() const override;

  /// Whether size n has a kernel that runs single sequences whole in registers.
  static bool has_single_kernel(std::size_t n);

 private:
  LaneFft<T> lanes_fft_;
  cpu::PanelKernel<T> single_;  // for batches smaller than the lanes; null where none
};

}  // namespace ripple::fft::detail
