// Highway kernels for biquad cascades on staging blocks (see iir_kernels.hpp). Re-included once
// per SIMD target by iir_kernels.cpp.
#if defined(RIPPLE_CPU_IIR_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef RIPPLE_CPU_IIR_KERNELS_INL_H_
#undef RIPPLE_CPU_IIR_KERNELS_INL_H_
#else
#define RIPPLE_CPU_IIR_KERNELS_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "cpu/iir_kernels.hpp"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// K sections fused over G adjacent vectors of lanes, software-pipelined: iteration t runs
// section s on row t - s, so the K sections of one iteration are independent and only one
// section's recurrence (two dependent multiply-adds) bounds an iteration. c[s] carries section
// s's output from one iteration to section s + 1 in the next. The states live in registers for
// the whole block.
template <std::size_t K, std::size_t G, class T>
HWY_INLINE void CascadeGroup(T* HWY_RESTRICT buf, std::size_t rows, std::size_t pitch, std::size_t lane0,
                             const T* HWY_RESTRICT coef, T* HWY_RESTRICT state, BlockPrefetch& prefetch) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  const std::size_t w = hn::Lanes(d);
  V b0[K], b1[K], b2[K], a1[K], a2[K], z0[K][G], z1[K][G], c[K][G];
  for (std::size_t s = 0; s < K; ++s) {
    b0[s] = hn::Set(d, coef[5 * s + 0]);
    b1[s] = hn::Set(d, coef[5 * s + 1]);
    b2[s] = hn::Set(d, coef[5 * s + 2]);
    a1[s] = hn::Set(d, coef[5 * s + 3]);
    a2[s] = hn::Set(d, coef[5 * s + 4]);
    for (std::size_t g = 0; g < G; ++g) {
      z0[s][g] = hn::LoadU(d, state + (2 * s) * pitch + lane0 + g * w);
      z1[s][g] = hn::LoadU(d, state + (2 * s + 1) * pitch + lane0 + g * w);
      c[s][g] = hn::Zero(d);
    }
  }
  // y = b0 x + z0; z0' = (b1 x + z1) - a1 y; z1' = b2 x - a2 y. Only y -> z0' is on the
  // loop-carried chain; the other products are computed off it.
  auto section = [&](std::size_t s, std::size_t g, V x) HWY_ATTR {
    const V y = hn::MulAdd(b0[s], x, z0[s][g]);
    const V p = hn::MulAdd(b1[s], x, z1[s][g]);
    const V m = hn::Mul(b2[s], x);
    z0[s][g] = hn::NegMulAdd(a1[s], y, p);
    z1[s][g] = hn::NegMulAdd(a2[s], y, m);
    c[s][g] = y;
  };
  T* base = buf + lane0;
  // Sections first..last run this iteration (t - s within the block); later sections first so
  // each reads the previous iteration's output of the one before it.
  auto partial_step = [&](std::size_t t, std::size_t first, std::size_t last) HWY_ATTR {
    for (std::size_t s = K; s-- > 0;) {
      if (s < first || s > last) continue;
      for (std::size_t g = 0; g < G; ++g) section(s, g, s == 0 ? hn::Load(d, base + t * pitch + g * w) : c[s - 1][g]);
    }
    if (last == K - 1) {
      for (std::size_t g = 0; g < G; ++g) hn::Store(c[K - 1][g], d, base + (t - (K - 1)) * pitch + g * w);
    }
  };
  // Ramp up (and, for blocks shorter than the pipeline, also down) before the steady loop.
  for (std::size_t t = 0; t < K - 1; ++t) {
    if (t < rows) {
      partial_step(t, 0, t);
    } else {
      partial_step(t, t - rows + 1, t);
    }
  }
  for (std::size_t t = K - 1; t < rows; ++t) {
    for (std::size_t s = K; s-- > 1;) {
      for (std::size_t g = 0; g < G; ++g) section(s, g, c[s - 1][g]);
    }
    for (std::size_t g = 0; g < G; ++g) section(0, g, hn::Load(d, base + t * pitch + g * w));
    for (std::size_t g = 0; g < G; ++g) hn::Store(c[K - 1][g], d, base + (t - (K - 1)) * pitch + g * w);
    prefetch.step();
  }
  for (std::size_t t = std::max(rows, K - 1); t < rows + K - 1; ++t) partial_step(t, t - rows + 1, K - 1);
  for (std::size_t s = 0; s < K; ++s) {
    for (std::size_t g = 0; g < G; ++g) {
      hn::StoreU(z0[s][g], d, state + (2 * s) * pitch + lane0 + g * w);
      hn::StoreU(z1[s][g], d, state + (2 * s + 1) * pitch + lane0 + g * w);
    }
  }
}

// Groups of G vectors while they last, then single vectors.
// The prefetch cursor is copied into a local for the kernel's duration, so that the stores to
// the block cannot be taken to change it.
template <std::size_t K, std::size_t G, class T>
HWY_INLINE void CascadeAllLanes(T* buf, std::size_t rows, std::size_t pitch, const T* coef, T* state,
                                BlockPrefetch* prefetch) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  BlockPrefetch pf = prefetch != nullptr ? *prefetch : BlockPrefetch{};
  std::size_t lane = 0;
  for (; lane + G * w <= pitch; lane += G * w) CascadeGroup<K, G>(buf, rows, pitch, lane, coef, state, pf);
  for (; lane < pitch; lane += w) CascadeGroup<K, 1>(buf, rows, pitch, lane, coef, state, pf);
  if (prefetch != nullptr) *prefetch = pf;
}

// One section over rows [0, rows) of G adjacent vectors of lanes from lane0, states z0/z1 (one
// value per lane, read and written back). kUnit: b0 == b2 == 1 exactly (every section of a
// Butterworth or Chebyshev I lowpass or highpass but the first), where the products by b0 and
// b2 are the samples themselves: the same roundings as scipy's recurrence with two fewer
// multiplies, y = x + z0 on an adder instead of a multiply-add.
template <bool kUnit, std::size_t G, class T>
HWY_INLINE void SectionRows(T* HWY_RESTRICT buf, std::size_t rows, std::size_t pitch, std::size_t lane0,
                            const T* HWY_RESTRICT coef, T* HWY_RESTRICT z0p, T* HWY_RESTRICT z1p,
                            BlockPrefetch& prefetch) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  const std::size_t w = hn::Lanes(d);
  const V b0 = hn::Set(d, coef[0]), b1 = hn::Set(d, coef[1]), b2 = hn::Set(d, coef[2]);
  const V a1 = hn::Set(d, coef[3]), a2 = hn::Set(d, coef[4]);
  V z0[G], z1[G];
  for (std::size_t g = 0; g < G; ++g) {
    z0[g] = hn::LoadU(d, z0p + lane0 + g * w);
    z1[g] = hn::LoadU(d, z1p + lane0 + g * w);
  }
  T* row = buf + lane0;
  for (std::size_t t = 0; t < rows; ++t, row += pitch) {
    for (std::size_t g = 0; g < G; ++g) {
      const V x = hn::Load(d, row + g * w);
      const V y = kUnit ? hn::Add(x, z0[g]) : hn::MulAdd(b0, x, z0[g]);
      const V p = hn::MulAdd(b1, x, z1[g]);
      const V m = kUnit ? x : hn::Mul(b2, x);
      z0[g] = hn::NegMulAdd(a1, y, p);
      z1[g] = hn::NegMulAdd(a2, y, m);
      hn::Store(y, d, row + g * w);
    }
    prefetch.step();
  }
  for (std::size_t g = 0; g < G; ++g) {
    hn::StoreU(z0[g], d, z0p + lane0 + g * w);
    hn::StoreU(z1[g], d, z1p + lane0 + g * w);
  }
}

template <bool kUnit, class T>
HWY_INLINE void SectionAllLanes(T* buf, std::size_t rows, std::size_t pitch, const T* coef, T* z0p, T* z1p,
                                BlockPrefetch& prefetch) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  constexpr std::size_t G = 4;  // four recurrences in flight hide the multiply-add latency
  std::size_t lane = 0;
  for (; lane + G * w <= pitch; lane += G * w) SectionRows<kUnit, G>(buf, rows, pitch, lane, coef, z0p, z1p, prefetch);
  if (lane + 2 * w <= pitch) {
    SectionRows<kUnit, 2>(buf, rows, pitch, lane, coef, z0p, z1p, prefetch);
    lane += 2 * w;
  }
  for (; lane < pitch; lane += w) SectionRows<kUnit, 1>(buf, rows, pitch, lane, coef, z0p, z1p, prefetch);
}

// Rows of a chunk that the sections pass over one after another while it stays in L1.
inline constexpr std::size_t kChunkBytes = 16 * 1024;

// `count` sections over every lane, one section at a time over chunks of rows small enough to
// stay in L1 (for blocks of four vectors or more: the section's four recurrences are then
// independent and its coefficients stay in registers), or fused and software-pipelined
// (fewer lanes: there the sections themselves are what runs in parallel).
template <class T>
void Cascade(T* buf, std::size_t rows, std::size_t pitch, const T* coef, std::size_t count, T* state,
             BlockPrefetch* prefetch) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  BlockPrefetch pf = prefetch != nullptr ? *prefetch : BlockPrefetch{};
  if (pitch >= 4 * w) {
    const std::size_t chunk = std::max<std::size_t>(16, kChunkBytes / (pitch * sizeof(T)));
    for (std::size_t r0 = 0; r0 < rows; r0 += chunk) {
      const std::size_t n = std::min(chunk, rows - r0);
      for (std::size_t s = 0; s < count; ++s) {
        const T* c = coef + 5 * s;
        T* z0p = state + 2 * s * pitch;
        T* z1p = z0p + pitch;
        if (c[0] == T(1) && c[2] == T(1)) {
          SectionAllLanes<true>(buf + r0 * pitch, n, pitch, c, z0p, z1p, pf);
        } else {
          SectionAllLanes<false>(buf + r0 * pitch, n, pitch, c, z0p, z1p, pf);
        }
      }
    }
  } else {
    switch (count) {
      case 1: CascadeAllLanes<1, 4>(buf, rows, pitch, coef, state, &pf); break;
      case 2: CascadeAllLanes<2, 2>(buf, rows, pitch, coef, state, &pf); break;
      case 3: CascadeAllLanes<3, 1>(buf, rows, pitch, coef, state, &pf); break;
      case 4: CascadeAllLanes<4, 1>(buf, rows, pitch, coef, state, &pf); break;
      default: break;  // the executor never asks for more than kMaxFusedSections
    }
  }
  if (prefetch != nullptr) *prefetch = pf;
}

// The cascade's free response from per-lane states, added to a row of vectors: for rows
// t < rows of lane vector `lane`, buf[t][lane..] += sum_k r[t * N + k] * sigma[k * pitch + lane..].
// N (the cascade's 2K states) is a template parameter for the usual cascades, so the states of
// the lane vector stay in registers; kAny reads it at run time.
inline constexpr std::size_t kAnyStates = 0;

template <std::size_t N, class D, class V = hn::Vec<D>>
HWY_INLINE V AddResponse(D d, V v, const hn::TFromD<D>* HWY_RESTRICT r_row, const V* sig, std::size_t n) {
  if constexpr (N == kAnyStates) {
    for (std::size_t k = 0; k < n; ++k) v = hn::MulAdd(hn::Set(d, r_row[k]), sig[k], v);
  } else {
    // Two chains of N/2 multiply-adds instead of one of N.
    V other = hn::Mul(hn::Set(d, r_row[0]), sig[0]);
    for (std::size_t k = 1; k < N; ++k) {
      if (k % 2 == 0) {
        other = hn::MulAdd(hn::Set(d, r_row[k]), sig[k], other);
      } else {
        v = hn::MulAdd(hn::Set(d, r_row[k]), sig[k], v);
      }
    }
    v = hn::Add(v, other);
  }
  return v;
}

// The most states kept in registers by the specialized correction kernels (4 sections).
inline constexpr std::size_t kMaxRegisterStates = 8;

template <std::size_t N, class T>
HWY_INLINE void AddFreeResponseN(T* HWY_RESTRICT buf, std::size_t rows, std::size_t pitch, const T* HWY_RESTRICT r,
                                 std::size_t n, const T* HWY_RESTRICT sigma) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  const std::size_t w = hn::Lanes(d);
  V sig[N == kAnyStates ? kMaxRegisterStates : N];
  for (std::size_t lane = 0; lane < pitch; lane += w) {
    T* p = buf + lane;
    if constexpr (N == kAnyStates) {
      for (std::size_t t = 0; t < rows; ++t, p += pitch) {
        V v = hn::Load(d, p);
        for (std::size_t k = 0; k < n; ++k) v = hn::MulAdd(hn::Set(d, r[t * n + k]), hn::LoadU(d, sigma + k * pitch + lane), v);
        hn::Store(v, d, p);
      }
    } else {
      for (std::size_t k = 0; k < N; ++k) sig[k] = hn::LoadU(d, sigma + k * pitch + lane);
      for (std::size_t t = 0; t < rows; ++t, p += pitch) hn::Store(AddResponse<N>(d, hn::Load(d, p), r + t * N, sig, N), d, p);
    }
  }
}

template <class T>
void AddFreeResponse(T* buf, std::size_t rows, std::size_t pitch, const T* r, std::size_t n, const T* sigma) {
  switch (n) {
    case 2: return AddFreeResponseN<2>(buf, rows, pitch, r, n, sigma);
    case 4: return AddFreeResponseN<4>(buf, rows, pitch, r, n, sigma);
    case 6: return AddFreeResponseN<6>(buf, rows, pitch, r, n, sigma);
    case 8: return AddFreeResponseN<8>(buf, rows, pitch, r, n, sigma);
    default: return AddFreeResponseN<kAnyStates>(buf, rows, pitch, r, n, sigma);
  }
}

// W x W block of real values transposed in registers (v[i] = row i in, column i out) where
// the vector shape has a short shuffle sequence (128- and 256-bit vectors), else through a
// small stack tile.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void TransposeSquare(D d, V* v) {
  using T = hn::TFromD<D>;
  constexpr std::size_t kLanes = hn::MaxLanes(D());
  constexpr std::size_t kBytes = kLanes * sizeof(T);
  if constexpr (kBytes == 32 && sizeof(T) == 4) {
    const hn::Repartition<double, D> dd;
    V t[8];
    for (std::size_t i = 0; i < 8; i += 2) {
      t[i] = hn::InterleaveLower(d, v[i], v[i + 1]);  // within 128-bit blocks
      t[i + 1] = hn::InterleaveUpper(d, v[i], v[i + 1]);
    }
    hn::Vec<decltype(dd)> u[8];
    for (std::size_t q = 0; q < 8; q += 4) {
      const auto a = hn::BitCast(dd, t[q]), b = hn::BitCast(dd, t[q + 1]);
      const auto c = hn::BitCast(dd, t[q + 2]), e = hn::BitCast(dd, t[q + 3]);
      u[q] = hn::InterleaveLower(dd, a, c);
      u[q + 1] = hn::InterleaveUpper(dd, a, c);
      u[q + 2] = hn::InterleaveLower(dd, b, e);
      u[q + 3] = hn::InterleaveUpper(dd, b, e);
    }
    for (std::size_t k = 0; k < 4; ++k) {
      v[k] = hn::BitCast(d, hn::ConcatLowerLower(dd, u[k + 4], u[k]));
      v[k + 4] = hn::BitCast(d, hn::ConcatUpperUpper(dd, u[k + 4], u[k]));
    }
  } else if constexpr (kBytes == 32 && sizeof(T) == 8) {
    const V t0 = hn::InterleaveLower(d, v[0], v[1]), t1 = hn::InterleaveUpper(d, v[0], v[1]);
    const V t2 = hn::InterleaveLower(d, v[2], v[3]), t3 = hn::InterleaveUpper(d, v[2], v[3]);
    v[0] = hn::ConcatLowerLower(d, t2, t0);
    v[1] = hn::ConcatLowerLower(d, t3, t1);
    v[2] = hn::ConcatUpperUpper(d, t2, t0);
    v[3] = hn::ConcatUpperUpper(d, t3, t1);
  } else if constexpr (kBytes == 16 && sizeof(T) == 4) {
    const hn::Repartition<double, D> dd;
    const auto t0 = hn::BitCast(dd, hn::InterleaveLower(d, v[0], v[1]));
    const auto t1 = hn::BitCast(dd, hn::InterleaveUpper(d, v[0], v[1]));
    const auto t2 = hn::BitCast(dd, hn::InterleaveLower(d, v[2], v[3]));
    const auto t3 = hn::BitCast(dd, hn::InterleaveUpper(d, v[2], v[3]));
    v[0] = hn::BitCast(d, hn::InterleaveLower(dd, t0, t2));
    v[1] = hn::BitCast(d, hn::InterleaveUpper(dd, t0, t2));
    v[2] = hn::BitCast(d, hn::InterleaveLower(dd, t1, t3));
    v[3] = hn::BitCast(d, hn::InterleaveUpper(dd, t1, t3));
  } else if constexpr (kBytes == 16 && sizeof(T) == 8) {
    const V lo = hn::InterleaveLower(d, v[0], v[1]);
    v[1] = hn::InterleaveUpper(d, v[0], v[1]);
    v[0] = lo;
  } else {
    const std::size_t w = hn::Lanes(d);
    HWY_ALIGN T tile[kLanes * kLanes];
    for (std::size_t r = 0; r < w; ++r) hn::Store(v[r], d, tile + r * w);
    for (std::size_t r = 0; r < w; ++r) {
      for (std::size_t c = 0; c < r; ++c) std::swap(tile[r * w + c], tile[c * w + r]);
    }
    for (std::size_t r = 0; r < w; ++r) v[r] = hn::Load(d, tile + r * w);
  }
}

// Staging of lanes that are unit-stride runs `lane_stride` apart: lane j, sample t at
// seq[j * lane_stride + t] <-> buf[t * pitch + j], W x W blocks through registers.
template <class T>
void StageIn(T* HWY_RESTRICT buf, std::size_t rows, std::size_t pitch, const T* HWY_RESTRICT seq,
             std::ptrdiff_t lane_stride) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  const std::size_t full = rows - rows % w;
  for (std::size_t j = 0; j < pitch; j += w) {
    const T* src = seq + static_cast<std::ptrdiff_t>(j) * lane_stride;
    for (std::size_t t = 0; t < full; t += w) {
      hn::Vec<decltype(d)> v[hn::MaxLanes(d)];
      for (std::size_t i = 0; i < w; ++i) v[i] = hn::LoadU(d, src + static_cast<std::ptrdiff_t>(i) * lane_stride + t);
      TransposeSquare(d, v);
      for (std::size_t k = 0; k < w; ++k) hn::Store(v[k], d, buf + (t + k) * pitch + j);
    }
    for (std::size_t t = full; t < rows; ++t) {
      for (std::size_t i = 0; i < w; ++i) buf[t * pitch + j + i] = src[static_cast<std::ptrdiff_t>(i) * lane_stride + t];
    }
  }
}

// The reverse of StageIn; with r != nullptr it first adds the cascade's free response (n states,
// as AddFreeResponse) to rows t < r_rows on the way out.
template <std::size_t N, class T>
HWY_INLINE void StageOutN(const T* HWY_RESTRICT buf, std::size_t rows, std::size_t pitch, T* HWY_RESTRICT seq,
                          std::ptrdiff_t lane_stride, const T* HWY_RESTRICT r, std::size_t n,
                          const T* HWY_RESTRICT sigma, std::size_t r_rows) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  const std::size_t w = hn::Lanes(d);
  const std::size_t full = rows - rows % w;
  const std::size_t corrected = r != nullptr ? std::min(rows, r_rows) : 0;
  V sig[N == kAnyStates ? 1 : N];
  for (std::size_t j = 0; j < pitch; j += w) {
    T* dst = seq + static_cast<std::ptrdiff_t>(j) * lane_stride;
    if constexpr (N != kAnyStates) {
      for (std::size_t k = 0; k < N; ++k) sig[k] = r != nullptr ? hn::LoadU(d, sigma + k * pitch + j) : hn::Zero(d);
    }
    for (std::size_t t = 0; t < full; t += w) {
      V v[hn::MaxLanes(d)];
      const bool correct = t < corrected;
      for (std::size_t k = 0; k < w; ++k) {
        v[k] = hn::Load(d, buf + (t + k) * pitch + j);
        if (correct && t + k < corrected) {
          if constexpr (N == kAnyStates) {
            for (std::size_t i = 0; i < n; ++i) {
              v[k] = hn::MulAdd(hn::Set(d, r[(t + k) * n + i]), hn::LoadU(d, sigma + i * pitch + j), v[k]);
            }
          } else {
            v[k] = AddResponse<N>(d, v[k], r + (t + k) * N, sig, N);
          }
        }
      }
      TransposeSquare(d, v);
      for (std::size_t i = 0; i < w; ++i) hn::StoreU(v[i], d, dst + static_cast<std::ptrdiff_t>(i) * lane_stride + t);
    }
    for (std::size_t t = full; t < rows; ++t) {
      for (std::size_t i = 0; i < w; ++i) {
        T v = buf[t * pitch + j + i];
        if (t < corrected) {
          for (std::size_t k = 0; k < n; ++k) v += r[t * n + k] * sigma[k * pitch + j + i];
        }
        dst[static_cast<std::ptrdiff_t>(i) * lane_stride + t] = v;
      }
    }
  }
}

template <class T>
void StageOut(const T* buf, std::size_t rows, std::size_t pitch, T* seq, std::ptrdiff_t lane_stride, const T* r,
              std::size_t n, const T* sigma, std::size_t r_rows) {
  if (r == nullptr) return StageOutN<2>(buf, rows, pitch, seq, lane_stride, r, 2, sigma, 0);
  switch (n) {
    case 2: return StageOutN<2>(buf, rows, pitch, seq, lane_stride, r, n, sigma, r_rows);
    case 4: return StageOutN<4>(buf, rows, pitch, seq, lane_stride, r, n, sigma, r_rows);
    case 6: return StageOutN<6>(buf, rows, pitch, seq, lane_stride, r, n, sigma, r_rows);
    case 8: return StageOutN<8>(buf, rows, pitch, seq, lane_stride, r, n, sigma, r_rows);
    default: return StageOutN<kAnyStates>(buf, rows, pitch, seq, lane_stride, r, n, sigma, r_rows);
  }
}

inline void CascadeF32(float* b, std::size_t rows, std::size_t pitch, const float* c, std::size_t n, float* s,
                       BlockPrefetch* p) {
  Cascade(b, rows, pitch, c, n, s, p);
}
inline void CascadeF64(double* b, std::size_t rows, std::size_t pitch, const double* c, std::size_t n,
                       double* s, BlockPrefetch* p) {
  Cascade(b, rows, pitch, c, n, s, p);
}
inline void AddFreeResponseF32(float* b, std::size_t rows, std::size_t pitch, const float* r, std::size_t n,
                               const float* s) {
  AddFreeResponse(b, rows, pitch, r, n, s);
}
inline void AddFreeResponseF64(double* b, std::size_t rows, std::size_t pitch, const double* r, std::size_t n,
                               const double* s) {
  AddFreeResponse(b, rows, pitch, r, n, s);
}
inline void StageInF32(float* b, std::size_t rows, std::size_t pitch, const float* s, std::ptrdiff_t ls) {
  StageIn(b, rows, pitch, s, ls);
}
inline void StageInF64(double* b, std::size_t rows, std::size_t pitch, const double* s, std::ptrdiff_t ls) {
  StageIn(b, rows, pitch, s, ls);
}
inline void StageOutF32(const float* b, std::size_t rows, std::size_t pitch, float* s, std::ptrdiff_t ls,
                        const float* r, std::size_t n, const float* sigma, std::size_t r_rows) {
  StageOut(b, rows, pitch, s, ls, r, n, sigma, r_rows);
}
inline void StageOutF64(const double* b, std::size_t rows, std::size_t pitch, double* s, std::ptrdiff_t ls,
                        const double* r, std::size_t n, const double* sigma, std::size_t r_rows) {
  StageOut(b, rows, pitch, s, ls, r, n, sigma, r_rows);
}
inline int IirLanesF32() { return static_cast<int>(hn::Lanes(hn::ScalableTag<float>())); }
inline int IirLanesF64() { return static_cast<int>(hn::Lanes(hn::ScalableTag<double>())); }

}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
