// Node: transforms travel through SIMD lanes in groups of W (the lane FFT). Used for batches
// (lane = batch entry) and for single short transforms (one lane used). Sizes with an
// unrolled kernel run it (whole transforms in registers; leftover sequences one per vector).
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

 private:
  LaneFft<T> lanes_fft_;
  // The unrolled kernels of this size for fewer than W sequences and for whole lane groups;
  // null where none.
  cpu::PanelKernel<T> fixed_few_, fixed_groups_;
};

}  // namespace ripple::fft::detail
