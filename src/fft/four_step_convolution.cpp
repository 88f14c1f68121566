#include "fft/four_step_convolution.hpp"

#include <algorithm>

#include "core/scratch.hpp"
#include "core/stream_copy.hpp"
#include "core/thread_pool.hpp"
#include "fft/c2c_four_step.hpp"
#include "fft/c2c_wide.hpp"
#include "fft/four_step_stage.hpp"
#include "fft/kernels.hpp"
#include "fft/unit_roots.hpp"

namespace ripple::fft::detail {

template <class T>
std::unique_ptr<const FourStepConvolution<T>> FourStepConvolution<T>::make(
    const core::AlignedVector<std::complex<double>>& spectrum, unsigned threads) {
  const std::size_t m = spectrum.size();
  if (m * sizeof(std::complex<T>) <= kStagedFromBytes || C2cWide<T>::applicable(m, fft_kernels<T>().lanes, 1, threads))
    return nullptr;
  const std::size_t n1 = C2cFourStep<T>::choose_n1(m, fft_kernels<T>().lanes, nullptr);
  if (n1 <= 1) return nullptr;
  return std::make_unique<const FourStepConvolution<T>>(spectrum, n1);
}

template <class T>
FourStepConvolution<T>::FourStepConvolution(const core::AlignedVector<std::complex<double>>& spectrum, std::size_t n1)
    : kernels_(&fft_kernels<T>()),
      n1_(n1),
      n2_(spectrum.size() / n1),
      column_line_(stage_width<T>(n1_, kernels_->lanes)),
      row_line_(stage_width<T>(n2_, kernels_->lanes)),
      columns_forward_(make_lane_fft<T>(n1_, true)),
      columns_backward_(make_lane_fft<T>(n1_, false)),
      rows_forward_(make_lane_fft<T>(n2_, true)),
      rows_backward_(make_lane_fft<T>(n2_, false)),
      columns_forward_kernel_(find_fixed_panel_kernel(columns_forward_, PanelUse::groups, *kernels_)),
      columns_backward_kernel_(find_fixed_panel_kernel(columns_backward_, PanelUse::groups, *kernels_)),
      rows_forward_kernel_(find_fixed_panel_kernel(rows_forward_, PanelUse::groups, *kernels_)),
      rows_backward_kernel_(find_fixed_panel_kernel(rows_backward_, PanelUse::groups, *kernels_)) {
  for (cpu::PanelKernel<T>* kernel : {&columns_forward_kernel_, &columns_backward_kernel_, &rows_forward_kernel_,
                                      &rows_backward_kernel_})
    if (*kernel == nullptr) *kernel = kernels_->panel;
  const UnitRoots roots(spectrum.size());
  column_twiddles_ = lane_block_table<T>(n1_, n2_, column_line_,
                                         [&](std::size_t k1, std::size_t c) { return roots(k1 * c); });
  spectrum_ = lane_block_table<T>(n2_, n1_, row_line_,
                                  [&](std::size_t k2, std::size_t k1) { return spectrum[k1 + n1_ * k2]; });
  row_twiddles_ = lane_block_table<T>(n2_, n1_, row_line_,
                                      [&](std::size_t j2, std::size_t k1) { return roots(k1 * j2, false); });
}

template <class T>
std::complex<T> FourStepConvolution<T>::apply(const ConvolutionIo<T>& io, unsigned threads) const {
  using C = std::complex<T>;
  const std::size_t w = kernels_->lanes;
  const std::size_t y_stride = n2_ + column_line_ / 2;  // breaks set aliasing
  const bool stream = n1_ * n2_ * sizeof(C) >= core::kStreamOutFromBytes;
  core::Scratch scratch;
  C* y = scratch.get<C>(n1_ * y_stride);
  const auto column_panel = [&](const LaneFft<T>& plan, std::size_t count, core::Scratch& local) {
    cpu::PanelArgs<T> args;
    args.plan = &plan;
    args.lanes = count;
    args.scratch = local.get<T>(cpu::panel_scratch_values<T>(n1_, w));
    return args;
  };

  // Sweep 1: columns c0.. of the input, size-n1 FFTs, twiddled, into Y.
  core::parallel_for((n2_ + column_line_ - 1) / column_line_, threads, [&](std::size_t task) {
    core::Scratch local;
    const std::size_t c0 = task * column_line_, count = std::min(column_line_, n2_ - c0);
    cpu::PanelArgs<T> args = column_panel(columns_forward_, count, local);
    C* stage = local.get<C>(n1_ * column_line_);
    for (std::size_t r = 0; r < n1_; ++r) {
      const std::size_t first = r * n2_ + c0;
      const std::size_t loaded = first < io.inputs ? std::min(count, io.inputs - first) : 0;
      const std::size_t ahead = first + kPrefetchRows * n2_;
      if (ahead < io.inputs) io.prefetch(ahead, std::min(count, io.inputs - ahead));
      if (loaded > 0) io.load(first, loaded, stage + r * column_line_);
      std::fill(stage + r * column_line_ + loaded, stage + r * column_line_ + count, C(0));
    }
    args.src = args.dst = stage;
    args.src_elem_stride = args.dst_elem_stride = std::ptrdiff_t(column_line_);
    args.lane_twiddles = column_twiddles_.data() + c0 * n1_;
    args.twiddle_elem_stride = std::ptrdiff_t(count);
    columns_forward_kernel_(args);
    for (std::size_t r = 0; r < n1_; ++r)
      core::copy_out(stage + r * column_line_, count, y + r * y_stride + c0, stream);
    if (stream) core::stream_fence();
  });
  // Row 0 now holds the column sums; bin 0 is their sum.
  C bin0(0);
  for (std::size_t c = 0; c < n2_; ++c) bin0 += y[c];

  // Sweep 2: rows r0.. of Y, size-n2 FFTs times the spectrum, inverse FFTs twiddled, in place.
  core::parallel_for((n1_ + row_line_ - 1) / row_line_, threads, [&](std::size_t task) {
    core::Scratch local;
    const std::size_t r0 = task * row_line_, count = std::min(row_line_, n1_ - r0);
    C* stage = local.get<C>(n2_ * row_line_);
    cpu::PanelArgs<T> args;
    args.plan = &rows_forward_;
    args.lanes = count;
    args.scratch = local.get<T>(cpu::panel_scratch_values<T>(n2_, w));
    args.src = y + r0 * y_stride;
    args.src_lane_stride = std::ptrdiff_t(y_stride);
    args.dst = stage;
    args.dst_elem_stride = std::ptrdiff_t(row_line_);
    args.lane_twiddles = spectrum_.data() + r0 * n2_;
    args.twiddle_elem_stride = std::ptrdiff_t(count);
    rows_forward_kernel_(args);
    args.plan = &rows_backward_;
    args.src = stage;
    args.src_lane_stride = 1;
    args.src_elem_stride = std::ptrdiff_t(row_line_);
    args.dst = y + r0 * y_stride;
    args.dst_lane_stride = std::ptrdiff_t(y_stride);
    args.dst_elem_stride = 1;
    args.lane_twiddles = row_twiddles_.data() + r0 * n2_;
    rows_backward_kernel_(args);
  });

  // Sweep 3: columns c0.. of Y, inverse size-n1 FFTs, result rows to the caller.
  core::parallel_for((n2_ + column_line_ - 1) / column_line_, threads, [&](std::size_t task) {
    core::Scratch local;
    const std::size_t c0 = task * column_line_, count = std::min(column_line_, n2_ - c0);
    cpu::PanelArgs<T> args = column_panel(columns_backward_, count, local);
    C* stage = local.get<C>(n1_ * column_line_);
    copy_rows_to_stage<T>(y + c0, std::ptrdiff_t(y_stride), 1, n1_, count, stage, column_line_);
    args.src = args.dst = stage;
    args.src_elem_stride = args.dst_elem_stride = std::ptrdiff_t(column_line_);
    columns_backward_kernel_(args);
    for (std::size_t r = 0; r < n1_; ++r) {
      const std::size_t first = r * n2_ + c0;
      if (first >= io.outputs) break;
      io.store(first, std::min(count, io.outputs - first), stage + r * column_line_);
    }
  });
  return bin0;
}

template <class T>
std::string FourStepConvolution<T>::describe() const {
  return "four-step-convolution(" + describe_radices(columns_forward_.passes) + " | " +
         describe_radices(rows_forward_.passes) + ")";
}

template class FourStepConvolution<float>;
template class FourStepConvolution<double>;

}  // namespace ripple::fft::detail
