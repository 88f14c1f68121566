// Typed access to the CPU kernel table from planning code.
#pragma once

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

/// The radices of a lane FFT's passes, in pass order (the key of the fixed-shape kernels).
template <class T>
std::vector<int> pass_radices(const LaneFft<T>& plan) {
  std::vector<int> radices;
  for (const Pass& pass : plan.passes) radices.push_back(pass.radix);
  return radices;
}

/// The panel kernel with every pass unrolled for this lane FFT's shape, or null where none is
/// compiled (the generic fft_kernels<T>().panel then runs it).
template <class T>
cpu::PanelKernel<T> find_fixed_panel_kernel(const LaneFft<T>& plan) {
  const std::vector<int> radices = pass_radices(plan);
  return radices.empty() ? nullptr : fft_kernels<T>().panel_fixed(radices.data(), radices.size());
}

/// Whether lane FFTs of size n run on an unrolled panel kernel.
template <class T>
bool has_fixed_panel_kernel(std::size_t n) {
  std::vector<int> radices;
  return factor_for_passes(n, radices) && !radices.empty() &&
         fft_kernels<T>().panel_fixed(radices.data(), radices.size()) != nullptr;
}

}  // namespace ripple::fft::detail
