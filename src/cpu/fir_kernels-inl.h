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

// Four accumulators a, b, c, e reduced to one vector whose every 128-bit block holds partial
// sums [a, b, c, e] (float: four lanes per block), by two rounds of interleave-and-add instead
// of four separate horizontal sums.
template <class D, class V>
HWY_INLINE V TransposeSum4(D d, V a, V b, V c, V e) {
  const hn::Repartition<double, D> dw;
  const V ab = hn::Add(hn::InterleaveLower(d, a, b), hn::InterleaveUpper(d, a, b));  // [a0+a2, b0+b2, a1+a3, b1+b3]
  const V ce = hn::Add(hn::InterleaveLower(d, c, e), hn::InterleaveUpper(d, c, e));
  const auto lo = hn::InterleaveLower(dw, hn::BitCast(dw, ab), hn::BitCast(dw, ce));
  const auto hi = hn::InterleaveUpper(dw, hn::BitCast(dw, ab), hn::BitCast(dw, ce));
  return hn::Add(hn::BitCast(d, lo), hn::BitCast(d, hi));
}

// The same for two accumulators of double (two lanes per block): [a, b] in every block.
template <class D, class V>
HWY_INLINE V TransposeSum2(D d, V a, V b) {
  return hn::Add(hn::InterleaveLower(d, a, b), hn::InterleaveUpper(d, a, b));
}

// The sum of a vector's 128-bit blocks, as one 128-bit vector.
template <class D>
HWY_INLINE auto SumOfBlocks(D d, hn::VFromD<D> v) {
  if constexpr (hn::MaxLanes(d) * sizeof(hn::TFromD<D>) > 16) {
    const hn::Half<D> dh;
    return SumOfBlocks(dh, hn::Add(hn::LowerHalf(dh, v), hn::UpperHalf(dh, v)));
  } else {
    return v;
  }
}

// The dot products of eight accumulators, stored to out[0..8).
template <class D, class V>
HWY_INLINE void StoreSums8(D d, V a0, V a1, V a2, V a3, V a4, V a5, V a6, V a7, hn::TFromD<D>* HWY_RESTRICT out) {
  using T = hn::TFromD<D>;
  const hn::Full128<T> d128;
  if constexpr (sizeof(T) == 4) {
    hn::StoreU(SumOfBlocks(d, TransposeSum4(d, a0, a1, a2, a3)), d128, out);
    hn::StoreU(SumOfBlocks(d, TransposeSum4(d, a4, a5, a6, a7)), d128, out + 4);
  } else {
    hn::StoreU(SumOfBlocks(d, TransposeSum2(d, a0, a1)), d128, out);
    hn::StoreU(SumOfBlocks(d, TransposeSum2(d, a2, a3)), d128, out + 2);
    hn::StoreU(SumOfBlocks(d, TransposeSum2(d, a4, a5)), d128, out + 4);
    hn::StoreU(SumOfBlocks(d, TransposeSum2(d, a6, a7)), d128, out + 6);
  }
}

// The lanes of a 128-bit vector of sums to out[k * stride], through shuffles and register
// moves: storing the vector and reloading its lanes would wait on store forwarding.
template <class V, class T>
HWY_INLINE void StoreLanes128(V v, T* HWY_RESTRICT out, std::ptrdiff_t stride) {
  out[0] = hn::GetLane(v);
  if constexpr (sizeof(T) == 4) {
    out[stride] = hn::GetLane(hn::Shuffle0321(v));
    out[2 * stride] = hn::GetLane(hn::Shuffle1032(v));
    out[3 * stride] = hn::GetLane(hn::Shuffle2103(v));
  } else {
    out[stride] = hn::GetLane(hn::Shuffle01(v));
  }
}

// StoreSums8 to out[k * stride] for k < 8.
template <class D, class V>
HWY_INLINE void StoreSums8Strided(D d, V a0, V a1, V a2, V a3, V a4, V a5, V a6, V a7, hn::TFromD<D>* HWY_RESTRICT out,
                                  std::ptrdiff_t stride) {
  using T = hn::TFromD<D>;
  if constexpr (sizeof(T) == 4) {
    StoreLanes128(SumOfBlocks(d, TransposeSum4(d, a0, a1, a2, a3)), out, stride);
    StoreLanes128(SumOfBlocks(d, TransposeSum4(d, a4, a5, a6, a7)), out + 4 * stride, stride);
  } else {
    StoreLanes128(SumOfBlocks(d, TransposeSum2(d, a0, a1)), out, stride);
    StoreLanes128(SumOfBlocks(d, TransposeSum2(d, a2, a3)), out + 2 * stride, stride);
    StoreLanes128(SumOfBlocks(d, TransposeSum2(d, a4, a5)), out + 4 * stride, stride);
    StoreLanes128(SumOfBlocks(d, TransposeSum2(d, a6, a7)), out + 6 * stride, stride);
  }
}

// Eight outputs out[j * out_stride] = dot(taps, x + j * x_stride, n) for j < 8 from
// registers a0..a7: one load of each tap vector serves eight multiply-adds. kV > 0: n is
// exactly kV vectors, held in h (loaded once per run, not once per output group); kV == 0:
// the taps are loaded from memory, over the whole vectors of n.
template <std::size_t kV, class D, class T = hn::TFromD<D>>
HWY_INLINE void Dot8(D d, const hn::VFromD<D>* h, const T* HWY_RESTRICT taps, std::size_t n_vec,
                     const T* HWY_RESTRICT x, std::size_t xs, T* HWY_RESTRICT out, std::ptrdiff_t out_stride) {
  const std::size_t w = hn::Lanes(d);
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  auto a4 = hn::Zero(d), a5 = hn::Zero(d), a6 = hn::Zero(d), a7 = hn::Zero(d);
  const auto step = [&](hn::VFromD<D> t, std::size_t i) {
    a0 = hn::MulAdd(t, hn::LoadU(d, x + i), a0);
    a1 = hn::MulAdd(t, hn::LoadU(d, x + xs + i), a1);
    a2 = hn::MulAdd(t, hn::LoadU(d, x + 2 * xs + i), a2);
    a3 = hn::MulAdd(t, hn::LoadU(d, x + 3 * xs + i), a3);
    a4 = hn::MulAdd(t, hn::LoadU(d, x + 4 * xs + i), a4);
    a5 = hn::MulAdd(t, hn::LoadU(d, x + 5 * xs + i), a5);
    a6 = hn::MulAdd(t, hn::LoadU(d, x + 6 * xs + i), a6);
    a7 = hn::MulAdd(t, hn::LoadU(d, x + 7 * xs + i), a7);
  };
  if constexpr (kV > 0) {
    // Row by row through one pointer: eight rows times kV offsets as separate pointers would
    // not fit the general registers.
    const auto row = [&](const T* HWY_RESTRICT p, hn::VFromD<D>& a) {
      for (std::size_t v = 0; v < kV; ++v) a = hn::MulAdd(h[v], hn::LoadU(d, p + v * w), a);
    };
    row(x, a0);
    row(x + xs, a1);
    row(x + 2 * xs, a2);
    row(x + 3 * xs, a3);
    x += 4 * xs;
    row(x, a4);
    row(x + xs, a5);
    row(x + 2 * xs, a6);
    row(x + 3 * xs, a7);
  } else {
    for (std::size_t i = 0; i < n_vec; i += w) step(hn::LoadU(d, taps + i), i);
  }
  if (out_stride == 1) {
    StoreSums8(d, a0, a1, a2, a3, a4, a5, a6, a7, out);
  } else {
    StoreSums8Strided(d, a0, a1, a2, a3, a4, a5, a6, a7, out, out_stride);
  }
}

// out[j * out_stride] = dot(taps, x + j * x_stride, n) for j < count: the outputs of a
// polyphase filter that share one phase. Eight outputs at a time share each load of the taps
// and keep eight independent chains; their eight horizontal sums are one transpose-and-add.
// Short phases (the common resample_poly case, a few vectors) keep their taps in registers.
template <std::size_t kV, class T>
void DotStridedRun(const T* HWY_RESTRICT taps, std::size_t n, const T* HWY_RESTRICT x, std::size_t x_stride,
                   std::size_t count, T* HWY_RESTRICT out, std::ptrdiff_t out_stride) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  const std::size_t n_vec = n / w * w;
  hn::VFromD<decltype(d)> h[kV > 0 ? kV : 1] = {};
  if constexpr (kV > 0) {
    for (std::size_t v = 0; v < kV; ++v) h[v] = hn::LoadU(d, taps + v * w);
  }
  std::size_t j = 0;
  HWY_ALIGN T sums[8];
  for (; j + 8 <= count; j += 8) {
    const T* xj = x + j * x_stride;
    T* o = out + static_cast<std::ptrdiff_t>(j) * out_stride;
    if (n_vec == n) {
      Dot8<kV>(d, h, taps, n_vec, xj, x_stride, o, out_stride);
      continue;
    }
    Dot8<kV>(d, h, taps, n_vec, xj, x_stride, sums, 1);
    for (std::size_t i = n_vec; i < n; ++i) {
      for (std::size_t k = 0; k < 8; ++k) sums[k] += taps[i] * xj[k * x_stride + i];
    }
    for (std::size_t k = 0; k < 8; ++k) o[static_cast<std::ptrdiff_t>(k) * out_stride] = sums[k];
  }
  for (; j < count; ++j) out[static_cast<std::ptrdiff_t>(j) * out_stride] = Dot(taps, x + j * x_stride, n);
}

template <class T>
void DotStrided(const T* HWY_RESTRICT taps, std::size_t n, const T* HWY_RESTRICT x, std::size_t x_stride,
                std::size_t count, T* HWY_RESTRICT out, std::ptrdiff_t out_stride) {
  const std::size_t w = hn::Lanes(hn::ScalableTag<T>());
  if (n % w == 0) {
    switch (n / w) {
      case 1: return DotStridedRun<1>(taps, n, x, x_stride, count, out, out_stride);
      case 2: return DotStridedRun<2>(taps, n, x, x_stride, count, out, out_stride);
      case 3: return DotStridedRun<3>(taps, n, x, x_stride, count, out, out_stride);
      case 4: return DotStridedRun<4>(taps, n, x, x_stride, count, out, out_stride);
      case 5: return DotStridedRun<5>(taps, n, x, x_stride, count, out, out_stride);
      case 6: return DotStridedRun<6>(taps, n, x, x_stride, count, out, out_stride);
      default: break;
    }
  }
  DotStridedRun<0>(taps, n, x, x_stride, count, out, out_stride);
}

// Outputs in order of a polyphase filter with several phases (see PolyphaseOrdered in
// fir_kernels.hpp): eight consecutive outputs, each the dot product of its own phase's taps
// and its own input window, reduced together and stored as whole vectors. kV > 0: n is kV
// vectors exactly (the loops are unrolled).
template <std::size_t kV, class T>
void PolyphaseOrderedRun(const T* HWY_RESTRICT taps, std::size_t n, const std::size_t* HWY_RESTRICT tap_at,
                         const std::size_t* HWY_RESTRICT x_at, std::size_t period, std::size_t step, std::size_t r,
                         const T* HWY_RESTRICT x, std::size_t count, T* HWY_RESTRICT out, std::ptrdiff_t out_stride) {
  using D = hn::ScalableTag<T>;
  const D d;
  const std::size_t w = hn::Lanes(d);
  const std::size_t n_vec = kV > 0 ? kV * w : n / w * w;
  HWY_ALIGN T sums[8];
  // x points at output 0's window: output s's window starts x_at[s] - x_at[r] further on.
  const std::ptrdiff_t x0 = static_cast<std::ptrdiff_t>(x_at[r]);
  const auto window = [&](std::size_t s) { return x + (static_cast<std::ptrdiff_t>(x_at[s]) - x0); };
  const auto row = [&](std::size_t s, hn::VFromD<D>& a) {
    const T* HWY_RESTRICT t = taps + tap_at[s];
    const T* HWY_RESTRICT p = window(s);
    if constexpr (kV > 0) {
      for (std::size_t v = 0; v < kV; ++v) a = hn::MulAdd(hn::LoadU(d, t + v * w), hn::LoadU(d, p + v * w), a);
    } else {
      for (std::size_t i = 0; i < n_vec; i += w) a = hn::MulAdd(hn::LoadU(d, t + i), hn::LoadU(d, p + i), a);
    }
  };
  std::size_t j = 0;
  for (; j + 8 <= count; j += 8) {
    auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
    auto a4 = hn::Zero(d), a5 = hn::Zero(d), a6 = hn::Zero(d), a7 = hn::Zero(d);
    row(r, a0);
    row(r + 1, a1);
    row(r + 2, a2);
    row(r + 3, a3);
    row(r + 4, a4);
    row(r + 5, a5);
    row(r + 6, a6);
    row(r + 7, a7);
    T* o = out + static_cast<std::ptrdiff_t>(j) * out_stride;
    if (n_vec == n && out_stride == 1) {
      StoreSums8(d, a0, a1, a2, a3, a4, a5, a6, a7, o);
    } else if (n_vec == n) {
      StoreSums8Strided(d, a0, a1, a2, a3, a4, a5, a6, a7, o, out_stride);
    } else {
      StoreSums8(d, a0, a1, a2, a3, a4, a5, a6, a7, sums);
      for (std::size_t k = 0; k < 8; ++k) {
        const T* t = taps + tap_at[r + k];
        const T* p = window(r + k);
        for (std::size_t i = n_vec; i < n; ++i) sums[k] += t[i] * p[i];
        o[static_cast<std::ptrdiff_t>(k) * out_stride] = sums[k];
      }
    }
    r += 8;
    if (r >= period) {  // (periods under 8 wrap more than once)
      x += r / period * step;
      r %= period;
    }
  }
  for (; j < count; ++j) {
    out[static_cast<std::ptrdiff_t>(j) * out_stride] = Dot(taps + tap_at[r], window(r), n);
    if (++r == period) {
      r = 0;
      x += step;
    }
  }
}

template <class T>
void PolyphaseOrdered(const T* HWY_RESTRICT taps, std::size_t n, const std::size_t* HWY_RESTRICT tap_at,
                      const std::size_t* HWY_RESTRICT x_at, std::size_t period, std::size_t step, std::size_t r,
                      const T* HWY_RESTRICT x, std::size_t count, T* HWY_RESTRICT out, std::ptrdiff_t out_stride) {
  const std::size_t w = hn::Lanes(hn::ScalableTag<T>());
  if (n % w == 0) {
    switch (n / w) {
      case 1: return PolyphaseOrderedRun<1>(taps, n, tap_at, x_at, period, step, r, x, count, out, out_stride);
      case 2: return PolyphaseOrderedRun<2>(taps, n, tap_at, x_at, period, step, r, x, count, out, out_stride);
      case 3: return PolyphaseOrderedRun<3>(taps, n, tap_at, x_at, period, step, r, x, count, out, out_stride);
      case 4: return PolyphaseOrderedRun<4>(taps, n, tap_at, x_at, period, step, r, x, count, out, out_stride);
      case 5: return PolyphaseOrderedRun<5>(taps, n, tap_at, x_at, period, step, r, x, count, out, out_stride);
      case 6: return PolyphaseOrderedRun<6>(taps, n, tap_at, x_at, period, step, r, x, count, out, out_stride);
      default: break;
    }
  }
  PolyphaseOrderedRun<0>(taps, n, tap_at, x_at, period, step, r, x, count, out, out_stride);
}

inline void PolyphaseOrderedF32(const float* t, std::size_t n, const std::size_t* ta, const std::size_t* xa,
                                std::size_t period, std::size_t step, std::size_t r, const float* x, std::size_t c,
                                float* y, std::ptrdiff_t ys) {
  PolyphaseOrdered(t, n, ta, xa, period, step, r, x, c, y, ys);
}
inline void PolyphaseOrderedF64(const double* t, std::size_t n, const std::size_t* ta, const std::size_t* xa,
                                std::size_t period, std::size_t step, std::size_t r, const double* x, std::size_t c,
                                double* y, std::ptrdiff_t ys) {
  PolyphaseOrdered(t, n, ta, xa, period, step, r, x, c, y, ys);
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
