#include "fft/axis_lines.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "fft/kernels.hpp"

namespace ripple::fft::detail {

template <class T>
AxisLines<T>::AxisLines(std::size_t n, bool forward)
    : n_(n), lanes_ok_(std::isfinite(lane_fft_cost_per_point(n))) {
  if (lanes_ok_) {
    lanes_ = make_lane_fft<T>(n, forward);
  } else {
    node_ = plan_c2c<T>(n, forward, 1, 1);
  }
}

template <class T>
void AxisLines<T>::run_block(const std::complex<T>* src, std::ptrdiff_t src_elem, std::ptrdiff_t src_col,
                             std::complex<T>* dst, std::ptrdiff_t dst_elem, std::ptrdiff_t dst_col,
                             std::size_t count, const std::complex<T>* next_src) const {
  using C = std::complex<T>;
  constexpr std::size_t kB = block_columns();
  const std::size_t n = n_;
  core::Scratch scratch;
  C* stage = scratch.get<C>(n * kB);
  const bool full = count == kB;  // whole rows of the stage: fixed-size copies, inlined
  for (std::size_t e = 0; e < n; ++e) {
    const C* row = src + std::ptrdiff_t(e) * src_elem;
    C* to = stage + e * kB;
    if (next_src != nullptr) {
      const char* ahead = reinterpret_cast<const char*>(next_src + std::ptrdiff_t(e) * src_elem);
      for (std::size_t off = 0; off < kB * sizeof(C); off += 64) __builtin_prefetch(ahead + off);
    }
    if (src_col == 1 && full) {
      std::memcpy(static_cast<void*>(to), row, kB * sizeof(C));
    } else if (src_col == 1) {
      std::copy_n(row, count, to);
    } else {
      for (std::size_t c = 0; c < count; ++c) to[c] = row[std::ptrdiff_t(c) * src_col];
    }
  }
  if (lanes_ok_) {
    const auto& kernels = fft_kernels<T>();
    cpu::PanelArgs<T> args;
    args.plan = &lanes_;
    args.lanes = count;
    args.scratch = scratch.get<T>(cpu::panel_scratch_values<T>(n, kernels.lanes));
    args.src = stage;
    args.src_lane_stride = 1;
    args.src_elem_stride = std::ptrdiff_t(kB);
    args.dst = stage;  // in place: every pass but a lone one goes through the scratch buffers
    args.dst_lane_stride = 1;
    args.dst_elem_stride = std::ptrdiff_t(kB);
    kernels.panel(args);
  } else {
    node_->execute(stage, stage, Layout{std::ptrdiff_t(kB), 1, std::ptrdiff_t(kB), 1, count}, T(1), 1);
  }
  for (std::size_t e = 0; e < n; ++e) {
    const C* from = stage + e * kB;
    C* row = dst + std::ptrdiff_t(e) * dst_elem;
    if (dst_col == 1 && full) {
      std::memcpy(static_cast<void*>(row), from, kB * sizeof(C));
    } else if (dst_col == 1) {
      std::copy_n(from, count, row);
    } else {
      for (std::size_t c = 0; c < count; ++c) row[std::ptrdiff_t(c) * dst_col] = from[c];
    }
  }
}

template <class T>
void AxisLines<T>::run(const std::complex<T>* src, std::complex<T>* dst, const AxisGeometry& g,
                       unsigned threads) const {
  constexpr std::size_t kB = block_columns();
  const std::size_t blocks = (g.columns + kB - 1) / kB;
  const std::size_t items = g.batch * g.outer * blocks;
  // A few tasks per thread, each a contiguous range of blocks, for balance without overhead.
  const std::size_t tasks = threads <= 1 ? 1 : std::min(items, std::size_t(8) * threads);
  core::parallel_for(tasks, threads, [&](std::size_t task) {
    const std::size_t first = items * task / tasks, last = items * (task + 1) / tasks;
    for (std::size_t item = first; item < last; ++item) {
      const std::size_t block = item % blocks, slab = item / blocks;
      const std::size_t b = slab / g.outer, o = slab % g.outer;
      const std::size_t c0 = block * kB, count = std::min(kB, g.columns - c0);
      const std::complex<T>* s = src + std::ptrdiff_t(b) * g.src.dist + std::ptrdiff_t(o) * g.src.outer_step +
                                 std::ptrdiff_t(c0) * g.src.col;
      std::complex<T>* d = dst + std::ptrdiff_t(b) * g.dst.dist + std::ptrdiff_t(o) * g.dst.outer_step +
                           std::ptrdiff_t(c0) * g.dst.col;
      // The next block of the same slab, requested while this one is transformed: its rows lie
      // a whole axis stride apart, one page each, where the hardware prefetchers do not follow.
      const std::complex<T>* next = item + 1 < last && block + 1 < blocks && g.src.col == 1 ? s + kB : nullptr;
      run_block(s, g.src.elem, g.src.col, d, g.dst.elem, g.dst.col, count, next);
    }
  });
}

template <class T>
std::string AxisLines<T>::describe() const {
  return lanes_ok_ ? "lanes(" + describe_radices(lanes_.passes) + ")" : node_->describe();
}

template class AxisLines<float>;
template class AxisLines<double>;

}  // namespace ripple::fft::detail
