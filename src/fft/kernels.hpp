// Typed access to the CPU kernel table from planning code.
#pragma once

#include <algorithm>
#include <vector>

#include "cpu/fft_kernels.hpp"
#include "fft/lane_fft.hpp"

namespace ripple::fft::detail {

template <class T>
const cpu::FftKernels<T>& fft_kernels() {
  if constexpr (sizeof(T) == sizeof(float)) {
    return cpu::fft_kernels_f32();
  } else {
    return cpu::fft_kernels_f64();
  }
}

/// The narrower table (cpu::narrow_fft_kernels_f32), or null.
template <class T>
const cpu::FftKernels<T>* narrow_fft_kernels() {
  if constexpr (sizeof(T) == sizeof(float)) {
    return cpu::narrow_fft_kernels_f32();
  } else {
    return cpu::narrow_fft_kernels_f64();
  }
}

/// The narrowest table (cpu::narrowest_fft_kernels_f32; double has none), or null.
template <class T>
const cpu::FftKernels<T>* narrowest_fft_kernels() {
  if constexpr (sizeof(T) == sizeof(float)) {
    return cpu::narrowest_fft_kernels_f32();
  } else {
    return nullptr;
  }
}

/// The radices of a lane FFT's passes, in pass order (the key of the fixed-shape kernels).
template <class T>
std::vector<int> pass_radices(const LaneFft<T>& plan) {
  std::vector<int> radices;
  for (const Pass& pass : plan.passes) radices.push_back(pass.radix);
  return radices;
}

/// How a caller runs a panel kernel: a few sequences (fewer than W), or whole lane groups.
enum class PanelUse { few, groups };

namespace panel_detail {
template <class T>
cpu::PanelKernel<T> lookup(const std::vector<int>& radices, PanelUse use, const cpu::FftKernels<T>& kernels) {
  if (radices.empty()) return nullptr;
  // Radices above this have an unrolled kernel for one sequence at a time only; for lane
  // groups the generic kernel does W at once and is faster.
  if (use == PanelUse::groups &&
      *std::max_element(radices.begin(), radices.end()) > cpu::kMaxFixedGroupRadix)
    return nullptr;
  return kernels.panel_fixed(radices.data(), radices.size());
}
}  // namespace panel_detail

/// The panel kernel of `kernels` with every pass unrolled for this lane FFT's shape and use, or
/// null where none is compiled (the table's generic panel kernel then runs it).
template <class T>
cpu::PanelKernel<T> find_fixed_panel_kernel(const LaneFft<T>& plan, PanelUse use,
                                            const cpu::FftKernels<T>& kernels = fft_kernels<T>()) {
  return panel_detail::lookup<T>(pass_radices(plan), use, kernels);
}

/// Whether lane FFTs of size n run on an unrolled panel kernel for this use.
template <class T>
bool has_fixed_panel_kernel(std::size_t n, PanelUse use) {
  std::vector<int> radices;
  return factor_for_passes(n, radices) && panel_detail::lookup<T>(radices, use, fft_kernels<T>()) != nullptr;
}

}  // namespace ripple::fft::detail
