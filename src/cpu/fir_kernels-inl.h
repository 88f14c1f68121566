// Highway kernels for FIR filtering (see fir_kernels.hpp). Re-included once per SIMD target by
// fir_kernels.cpp.
#if defined(RIPPLE_CPU_FIR_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef RIPPLE_CPU_FIR_KERNELS_INL_H_
#undef RIPPLE_CPU_FIR_KERNELS_INL_H_
#else
#define RIPPLE_CPU_FIR_KERNELS_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Four independent accumulators hide the multiply-add latency; the tail runs scalar.
template <class T>
T Dot(const T* HWY_RESTRICT a, const T* HWY_RESTRICT b, std::size_t n) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  auto s0 = hn::Zero(d), s1 = hn::Zero(d), s2 = hn::Zero(d), s3 = hn::Zero(d);
  std::size_t i = 0;
  for (; i + 4 * w <= n; i += 4 * w) {
    s0 = hn::MulAdd(hn::LoadU(d, a + i), hn::LoadU(d, b + i), s0);
    s1 = hn::MulAdd(hn::LoadU(d, a + i + w), hn::LoadU(d, b + i + w), s1);
    s2 = hn::MulAdd(hn::LoadU(d, a + i + 2 * w), hn::LoadU(d, b + i + 2 * w), s2);
    s3 = hn::MulAdd(hn::LoadU(d, a + i + 3 * w), hn::LoadU(d, b + i + 3 * w), s3);
  }
  for (; i + w <= n; i += w) s0 = hn::MulAdd(hn::LoadU(d, a + i), hn::LoadU(d, b + i), s0);
  T sum = hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(s0, s1), hn::Add(s2, s3))));
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

// count outputs out[i] = sum_k taps[k] * window[i + k] (taps reversed filter, window the
// inputs ending at each output): vertical SIMD, W outputs per vector, 4 vectors at a time, one
// broadcast tap times one unaligned load per multiply-add; no horizontal sums.
template <class T>
void Convolve(const T* HWY_RESTRICT taps, std::size_t n_taps, const T* HWY_RESTRICT window, T* HWY_RESTRICT out,
              std::size_t count) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + 4 * w <= count; i += 4 * w) {
    auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
    const T* x = window + i;
    for (std::size_t k = 0; k < n_taps; ++k) {
      const auto h = hn::Set(d, taps[k]);
      a0 = hn::MulAdd(h, hn::LoadU(d, x + k), a0);
      a1 = hn::MulAdd(h, hn::LoadU(d, x + k + w), a1);
      a2 = hn::MulAdd(h, hn::LoadU(d, x + k + 2 * w), a2);
      a3 = hn::MulAdd(h, hn::LoadU(d, x + k + 3 * w), a3);
    }
    hn::StoreU(a0, d, out + i);
    hn::StoreU(a1, d, out + i + w);
    hn::StoreU(a2, d, out + i + 2 * w);
    hn::StoreU(a3, d, out + i + 3 * w);
  }
  for (; i < count; ++i) out[i] = Dot(taps, window + i, n_taps);
}

// out[j * out_stride] = dot(taps, x + j * x_stride, n) for j < count: the outputs of a
// polyphase filter that share one phase. Four outputs at a time share each load of the taps
// (five loads per four multiply-adds instead of eight) and keep four independent chains.
template <class T>
void DotStrided(const T* HWY_RESTRICT taps, std::size_t n, const T* HWY_RESTRICT x, std::size_t x_stride,
                std::size_t count, T* HWY_RESTRICT out, std::ptrdiff_t out_stride) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  std::size_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const T* x0 = x + j * x_stride;
    const T* x1 = x0 + x_stride;
    const T* x2 = x1 + x_stride;
    const T* x3 = x2 + x_stride;
    auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
    std::size_t i = 0;
    for (; i + w <= n; i += w) {
      const auto h = hn::LoadU(d, taps + i);
      a0 = hn::MulAdd(h, hn::LoadU(d, x0 + i), a0);
      a1 = hn::MulAdd(h, hn::LoadU(d, x1 + i), a1);
      a2 = hn::MulAdd(h, hn::LoadU(d, x2 + i), a2);
      a3 = hn::MulAdd(h, hn::LoadU(d, x3 + i), a3);
    }
    T s0 = hn::GetLane(hn::SumOfLanes(d, a0)), s1 = hn::GetLane(hn::SumOfLanes(d, a1));
    T s2 = hn::GetLane(hn::SumOfLanes(d, a2)), s3 = hn::GetLane(hn::SumOfLanes(d, a3));
    for (; i < n; ++i) {
      s0 += taps[i] * x0[i];
      s1 += taps[i] * x1[i];
      s2 += taps[i] * x2[i];
      s3 += taps[i] * x3[i];
    }
    T* o = out + static_cast<std::ptrdiff_t>(j) * out_stride;
    o[0] = s0;
    o[out_stride] = s1;
    o[2 * out_stride] = s2;
    o[3 * out_stride] = s3;
  }
  for (; j < count; ++j) out[static_cast<std::ptrdiff_t>(j) * out_stride] = Dot(taps, x + j * x_stride, n);
}

inline void DotStridedF32(const float* t, std::size_t n, const float* x, std::size_t xs, std::size_t c, float* y,
                          std::ptrdiff_t ys) {
  DotStrided(t, n, x, xs, c, y, ys);
}
inline void DotStridedF64(const double* t, std::size_t n, const double* x, std::size_t xs, std::size_t c, double* y,
                          std::ptrdiff_t ys) {
  DotStrided(t, n, x, xs, c, y, ys);
}
inline std::size_t LanesF32() { return hn::Lanes(hn::ScalableTag<float>()); }
inline std::size_t LanesF64() { return hn::Lanes(hn::ScalableTag<double>()); }

inline void ConvolveF32(const float* t, std::size_t n, const float* x, float* y, std::size_t c) { Convolve(t, n, x, y, c); }
inline void ConvolveF64(const double* t, std::size_t n, const double* x, double* y, std::size_t c) {
  Convolve(t, n, x, y, c);
}

inline float DotF32(const float* a, const float* b, std::size_t n) { return Dot(a, b, n); }
inline double DotF64(const double* a, const double* b, std::size_t n) { return Dot(a, b, n); }

}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
