// The CPU executor's SIMD kernels for FIR filtering, one table per element type, chosen once
// for the best SIMD target (Highway dynamic dispatch).
#pragma once

#include <cstddef>

namespace ripple::cpu {

template <class T>
struct FirKernels {
  /// sum over i < n of a[i] * b[i] (several accumulators, so the order of additions differs
  /// from a serial loop by rounding only).
  T (*dot)(const T* a, const T* b, std::size_t n);
  /// out[i] = dot(taps, window + i, n_taps) for i < count, computed W outputs at a time.
  void (*convolve)(const T* taps, std::size_t n_taps, const T* window, T* out, std::size_t count);
  /// out[j * out_stride] = dot(taps, x + j * x_stride, n) for j < count (the outputs of one
  /// polyphase phase), several outputs per pass over the taps.
  void (*dot_strided)(const T* taps, std::size_t n, const T* x, std::size_t x_stride, std::size_t count, T* out,
                      std::ptrdiff_t out_stride);
  /// Outputs in order of a polyphase filter whose outputs cycle through `period` phases:
  /// output j, with r + j = q * period + s (s < period), is out[j * out_stride] =
  /// dot(taps + tap_at[s], x + q * step + x_at[s] - x_at[r], n) (x is output 0's window).
  /// tap_at and x_at have period + 7 entries, entry s >= period being entry s mod period
  /// (x_at's plus step per period), so eight consecutive outputs index them without wrapping;
  /// their eight dot products are reduced together.
  void (*polyphase_ordered)(const T* taps, std::size_t n, const std::size_t* tap_at, const std::size_t* x_at,
                            std::size_t period, std::size_t step, std::size_t r, const T* x, std::size_t count, T* out,
                            std::ptrdiff_t out_stride);
  /// Values of T per SIMD vector of the chosen target.
  std::size_t lanes;
};

const FirKernels<float>& fir_kernels_f32();
const FirKernels<double>& fir_kernels_f64();

template <class T>
const FirKernels<T>& fir_kernels() {
  if constexpr (sizeof(T) == sizeof(float)) {
    return fir_kernels_f32();
  } else {
    return fir_kernels_f64();
  }
}

}  // namespace ripple::cpu
