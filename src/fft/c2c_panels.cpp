#include "fft/c2c_panels.hpp"

#include <algorithm>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "fft/kernels.hpp"

namespace ripple::fft::detail {

template <class T>
C2cPanels<T>::C2cPanels(std::size_t n, bool forward)
    : C2cNode<T>(n), lanes_fft_(make_lane_fft<T>(n, forward)) {
  fixed_few_ = find_fixed_panel_kernel(lanes_fft_, PanelUse::few);
  fixed_groups_ = find_fixed_panel_kernel(lanes_fft_, PanelUse::groups);
}

template <class T>
void C2cPanels<T>::execute(const std::complex<T>* in, std::complex<T>* out, const Layout& layout,
                           T scale, unsigned threads) const {
  const auto& kernels = fft_kernels<T>();
  const std::size_t w = kernels.lanes, n = this->n();
  if (n == 1) {
    // The DFT of one point is the point: a scaled copy, without the panel machinery (scratch,
    // tasks), which cost 3x a whole transform of 2 points.
    for (std::size_t b = 0; b < layout.batch; ++b)
      out[std::ptrdiff_t(b) * layout.out_dist] = in[std::ptrdiff_t(b) * layout.in_dist] * scale;
    return;
  }
  if (fixed_few_ != nullptr && layout.batch < w) {
    // Too few sequences to fill the lanes: each whole in registers, no scratch, no threads.
    cpu::PanelArgs<T> args;
    args.plan = &lanes_fft_;
    args.scale = scale;
    args.lanes = layout.batch;
    args.src = in;
    args.src_lane_stride = layout.in_dist;
    args.src_elem_stride = layout.in_stride;
    args.dst = out;
    args.dst_lane_stride = layout.out_dist;
    args.dst_elem_stride = layout.out_stride;
    fixed_few_(args);
    return;
  }
  const std::size_t panels = (layout.batch + w - 1) / w;
  // Enough panels per task to amortize hand-out, few enough to balance.
  const std::size_t per_task = std::max<std::size_t>(1, panels / (4 * std::max(1u, threads)));
  const std::size_t tasks = (panels + per_task - 1) / per_task;
  core::parallel_for(tasks, threads, [&](std::size_t task) {
    core::Scratch scratch;
    cpu::PanelArgs<T> args;
    args.plan = &lanes_fft_;
    args.scale = scale;
    args.scratch = scratch.get<T>(cpu::panel_scratch_values<T>(n, w));
    args.src_lane_stride = layout.in_dist;
    args.src_elem_stride = layout.in_stride;
    args.dst_lane_stride = layout.out_dist;
    args.dst_elem_stride = layout.out_stride;
    const std::size_t first = task * per_task * w;
    args.lanes = std::min(per_task * w, layout.batch - first);
    args.src = in + std::ptrdiff_t(first) * layout.in_dist;
    args.dst = out + std::ptrdiff_t(first) * layout.out_dist;
    (fixed_groups_ != nullptr ? fixed_groups_ : kernels.panel)(args);
  });
}

template <class T>
std::string C2cPanels<T>::describe() const {
  return std::string(fixed_few_ != nullptr ? "lanes-fixed(" : "lanes(") + describe_radices(lanes_fft_.passes) + ")";
}

template class C2cPanels<float>;
template class C2cPanels<double>;

}  // namespace ripple::fft::detail
