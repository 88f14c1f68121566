#include "fft/c2c_four_step.hpp"

#include <algorithm>
#include <cmath>
#include <vector>
#include <limits>

#include "core/scratch.hpp"
#include "core/stream_copy.hpp"
#include "core/thread_pool.hpp"
#include "fft/four_step_stage.hpp"
#include "fft/kernels.hpp"
#include "fft/unit_roots.hpp"

namespace ripple::fft::detail {

// Cost units are those of lane_fft_cost_per_point (about 0.1 ns on one Zen 3 core).
template <class T>
std::size_t C2cFourStep<T>::choose_n1(std::size_t n, std::size_t lanes, double* cost) {
  // Prices the per-point arithmetic leaves out: a fixed one per execution (two sub-plans,
  // scratch, twiddle pass; about 0.5 us) and one per panel of W columns or rows (about 80 ns
  // with the generic kernel, which walks its passes with run-time shapes). A sub-size with an
  // unrolled kernel costs less than half as much per point and almost nothing per panel
  // (2-core Zen 3, N = 243: 4.8 -> 1.1 us in double).
  // The longer unrolled kernels save less: 81 = 9 x 9 0.62x the generic kernel's time in
  // batches (f64 81 x 128), 125 = 5 x 5 x 5 0.95-0.98x (f64 125 x 64; N = 3125 as 25 x 125
  // 0.89-0.92x, but 15625 as 125 x 125 1.0x and 78125 as 125 x 625 1.06x the time of the
  // splits with 25, which the price below keeps).
  constexpr double kFixedCost = 5000, kGenericPanelCost = 1300, kFixedPanelCost = 200;
  constexpr std::size_t kPanelCacheBytes = std::size_t(512) << 10;
  const auto sweep_cost = [&](std::size_t size, std::size_t count) {
    const bool fixed = has_fixed_panel_kernel<T>(size, PanelUse::groups);
    const double fixed_speedup = size <= 32 ? 0.4 : size <= 81 ? 0.62 : 0.95;
    const std::size_t panels = (count + lanes - 1) / lanes;
    // Arithmetic of all lanes, used or idle.
    const double points = double(panels * lanes * size);
    // A panel whose two buffers overflow the L2 cache runs every pass from memory (f64
    // N = 2^20 as 8 x 131072: 1.5x the time of 1024 x 1024).
    const bool in_cache = 2 * size * lanes * sizeof(std::complex<T>) <= kPanelCacheBytes;
    return points * lane_fft_cost_per_point(size) * (fixed ? fixed_speedup : 1.0) * (in_cache ? 1.0 : 2.0) +
           double(panels) * (fixed ? kFixedPanelCost : kGenericPanelCost);
  };
  std::size_t best = 1;
  double best_cost = std::numeric_limits<double>::infinity();
  // Divisors come in pairs (d, n/d): walking d up to sqrt(n) sees every split.
  std::vector<std::size_t> splits;
  for (std::size_t d = 2; d * d <= n; ++d)
    if (n % d == 0) {
      splits.push_back(d);
      if (d * d != n) splits.push_back(n / d);
    }
  for (const std::size_t n1 : splits) {
    const std::size_t n2 = n / n1;
    if (!std::isfinite(lane_fft_cost_per_point(n1)) || !std::isfinite(lane_fft_cost_per_point(n2))) continue;
    // Plus the twiddle and the extra pass over memory per point. Lopsided splits cost cache
    // misses; mild bias to balance.
    const double imbalance = std::abs(std::log2(double(n1)) - std::log2(double(n2)));
    const double c = sweep_cost(n1, n2) + sweep_cost(n2, n1) + double(n) * (6.0 + 0.1 * imbalance) + kFixedCost;
    if (c < best_cost) {
      best_cost = c;
      best = n1;
    }
  }
  if (cost) *cost = best_cost;
  return best;
}

template <class T>
C2cFourStep<T>::C2cFourStep(std::size_t n1, std::size_t n2, bool forward, const cpu::FftKernels<T>& kernels)
    : C2cNode<T>(n1 * n2),
      kernels_(&kernels),
      n1_(n1),
      n2_(n2),
      columns_(make_lane_fft<T>(n1, forward)),
      rows_(make_lane_fft<T>(n2, forward)),
      columns_fixed_(find_fixed_panel_kernel(columns_, PanelUse::groups, kernels)),
      rows_fixed_(find_fixed_panel_kernel(rows_, PanelUse::groups, kernels)) {
  const std::size_t n = n1 * n2;
  staged_ = n * sizeof(std::complex<T>) > kStagedFromBytes;
  stage_columns_ = stage_width<T>(n1, kernels.lanes);
  stage_rows_ = stage_width<T>(n2, kernels.lanes);
  // Staged, the twiddles of each block of stage_columns_ columns are stored together (n1 rows
  // of the block's width), so a block reads them as one stream rather than one line per row.
  const UnitRoots roots(n);
  twiddles_ = lane_block_table<T>(n1, n2, staged_ ? stage_columns_ : n2,
                                  [&](std::size_t k1, std::size_t c) { return roots(k1 * c, forward); });
}

// Long transforms read and write their matrices with power-of-two strides, which map every row
// to the same cache sets. So beyond the L2 cache, panels work on a contiguous stage of whole
// cache lines copied in and out; the scratch matrix Y always has padded rows.
template <class T>
void C2cFourStep<T>::execute(const std::complex<T>* in, std::complex<T>* out, const Layout& layout,
                             T scale, unsigned threads) const {
  using C = std::complex<T>;
  const auto& kernels = *kernels_;
  const std::size_t w = kernels.lanes;
  const std::size_t line = stage_columns_;
  const std::size_t y_stride = n2_ + line / 2;  // breaks set aliasing
  // Columns (rows) per task: a stage when staged, else enough to share among the threads.
  const std::size_t column_chunk = staged_ ? line : std::max(w, (n2_ / threads + w - 1) / w * w);
  const std::size_t row_line = stage_rows_;
  const std::size_t row_chunk = staged_ ? row_line : std::max(w, (n1_ / threads + w - 1) / w * w);
  const std::ptrdiff_t is = layout.in_stride, os = layout.out_stride;
  const cpu::PanelKernel<T> columns_panel = columns_fixed_ != nullptr ? columns_fixed_ : kernels.panel;
  const cpu::PanelKernel<T> rows_panel = rows_fixed_ != nullptr ? rows_fixed_ : kernels.panel;
  const bool stream = this->n() * sizeof(C) >= core::kStreamOutFromBytes;
  core::Scratch scratch;
  C* y = scratch.get<C>(n1_ * y_stride);

  for (std::size_t b = 0; b < layout.batch; ++b) {
    const C* x = in + std::ptrdiff_t(b) * layout.in_dist;
    C* result = out + std::ptrdiff_t(b) * layout.out_dist;
    // Sweep 1: columns c0.. of x (rows of n2), size-n1 FFTs, twiddled, into Y.
    core::parallel_for((n2_ + column_chunk - 1) / column_chunk, threads, [&](std::size_t task) {
      core::Scratch local;
      const std::size_t c0 = task * column_chunk, count = std::min(column_chunk, n2_ - c0);
      cpu::PanelArgs<T> args;
      args.plan = &columns_;
      args.lanes = count;
      args.scratch = local.get<T>(cpu::panel_scratch_values<T>(n1_, w));
      if (!staged_) {
        args.lane_twiddles = twiddles_.data() + c0;
        args.twiddle_elem_stride = std::ptrdiff_t(n2_);
        args.src = x + std::ptrdiff_t(c0) * is;
        args.src_lane_stride = is;
        args.src_elem_stride = std::ptrdiff_t(n2_) * is;
        args.dst = y + c0;
        args.dst_elem_stride = std::ptrdiff_t(y_stride);
        columns_panel(args);
        return;
      }
      args.lane_twiddles = twiddles_.data() + c0 * n1_;
      args.twiddle_elem_stride = std::ptrdiff_t(count);
      C* stage = local.get<C>(n1_ * line);
      copy_rows_to_stage(x + std::ptrdiff_t(c0) * is, std::ptrdiff_t(n2_) * is, is, n1_, count, stage, line);
      args.src = stage;
      args.src_elem_stride = std::ptrdiff_t(line);
      args.dst = stage;
      args.dst_elem_stride = std::ptrdiff_t(line);
      columns_panel(args);
      for (std::size_t r = 0; r < n1_; ++r) core::copy_out(stage + r * line, count, y + r * y_stride + c0, stream);
      if (stream) core::stream_fence();
    });
    // Sweep 2: rows r0.. of Y, size-n2 FFTs, to X[k1 + n1*k2].
    core::parallel_for((n1_ + row_chunk - 1) / row_chunk, threads, [&](std::size_t task) {
      core::Scratch local;
      const std::size_t r0 = task * row_chunk, count = std::min(row_chunk, n1_ - r0);
      cpu::PanelArgs<T> args;
      args.plan = &rows_;
      args.lanes = count;
      args.scale = scale;
      args.scratch = local.get<T>(cpu::panel_scratch_values<T>(n2_, w));
      args.src = y + r0 * y_stride;
      args.src_lane_stride = std::ptrdiff_t(y_stride);
      args.src_elem_stride = 1;
      if (!staged_) {
        args.dst = result + std::ptrdiff_t(r0) * os;
        args.dst_lane_stride = os;
        args.dst_elem_stride = std::ptrdiff_t(n1_) * os;
        rows_panel(args);
        return;
      }
      C* stage = local.get<C>(n2_ * row_line);
      args.dst = stage;
      args.dst_elem_stride = std::ptrdiff_t(row_line);
      rows_panel(args);
      for (std::size_t k2 = 0; k2 < n2_; ++k2) {
        C* to = result + std::ptrdiff_t(r0 + n1_ * k2) * os;
        if (os == 1) {
          core::copy_out(stage + k2 * row_line, count, to, stream);
        } else {
          for (std::size_t j = 0; j < count; ++j) to[std::ptrdiff_t(j) * os] = stage[k2 * row_line + j];
        }
      }
      if (stream) core::stream_fence();
    });
  }
}

template <class T>
std::string C2cFourStep<T>::describe() const {
  const std::string narrow = kernels_ != &fft_kernels<T>() ? "; " + std::to_string(kernels_->lanes) + " lanes" : "";
  return "four-step(" + describe_radices(columns_.passes) + " | " + describe_radices(rows_.passes) + narrow + ")";
}

template class C2cFourStep<float>;
template class C2cFourStep<double>;

}  // namespace ripple::fft::detail
