// Typed access to the CPU kernel table from planning code.
#pragma once

#include "cpu/fft_kernels.hpp"

namespace ripple::fft::detail {

template <class T>
const cpu::FftKernels<T>& fft_kernels() {
  if constexpr (sizeof(T) == sizeof(float)) {
    return cpu::fft_kernels_f32();
  } else {
    return cpu::fft_kernels_f64();
  }
}

}  // namespace ripple::fft::detail
