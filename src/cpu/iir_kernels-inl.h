// Highway kernels for biquad cascades on staging blocks (see iir_kernels.hpp). Re-included once
// per SIMD target by iir_kernels.cpp.
#if defined(RIPPLE_CPU_IIR_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef RIPPLE_CPU_IIR_KERNELS_INL_H_
#undef RIPPLE_CPU_IIR_KERNELS_INL_H_
#else
#define RIPPLE_CPU_IIR_KERNELS_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "cpu/iir_kernels.hpp"
#include "cpu/transpose512-inl.h"
#include "hwy/cache_control.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One sample x through one section in scipy's DF2T recurrence (coefficients broadcast:
// b0 b1 b2 a1 a2; states z0, z1 updated). unit: b0 == b2 == 1 exactly (every section of a
// Butterworth or Chebyshev I lowpass or highpass but the first), where those products are the
// sample itself: the same roundings with two multiplies fewer. Returns the section's output.
template <class V>
HWY_INLINE V SectionSample(bool unit, V x, V& z0, V& z1, V b0, V b1, V b2, V a1, V a2) {
  const V y = unit ? hn::Add(x, z0) : hn::MulAdd(b0, x, z0);
  const V p = hn::MulAdd(b1, x, z1);
  const V m = unit ? x : hn::Mul(b2, x);
  z0 = hn::NegMulAdd(a1, y, p);
  z1 = hn::NegMulAdd(a2, y, m);
  return y;
}

// What a fused kernel knows at compile time of its cascade's numerators (CascadeNumerators):
//  - kGeneral: nothing;
//  - kTailUnit: sections 1..K-1 have b0 == b2 == 1 exactly (SectionSample's `unit`);
//  - kHeadGain: besides, the head's numerator is g * [1, c, 1] with g != 0 (zpk2sos puts a
//    filter's gain there: every Butterworth and Chebyshev lowpass, highpass and Chebyshev II
//    band filter). The input is then multiplied by g and every section is a unit one, the head
//    with b1 = c (DispatchCascade's coefficients; exactly 2 or -2 for zeros at z = -1 or 1,
//    where b1 == 2 * g or -2 * g exactly). That is one multiply-add fewer per sample where the
//    multiply-adds bound the loop: butter(8, 0.1) over 16 channels in L2, one thread on the
//    AVX-512 Zen 4, 0.64 -> 0.61 ns a double sample, 0.37 -> 0.355 a float one; one channel of
//    2^24 samples (the fused scan) 3-4% faster. The head's output rounds once more than
//    scipy's: a rounding of the input signal by the gain.
enum class Numerators { kGeneral, kTailUnit, kHeadGain };

// One vector of samples through K sections (coef: b0 b1 b2 a1 a2 per section), states z0[s],
// z1[s] updated.
template <std::size_t K, Numerators kNum, class D, class V = hn::Vec<D>, class T = hn::TFromD<D>>
HWY_INLINE V CascadeSample(D d, V x, V* z0, V* z1, const T* HWY_RESTRICT coef) {
  if constexpr (kNum == Numerators::kHeadGain) x = hn::Mul(hn::Set(d, coef[0]), x);
  for (std::size_t s = 0; s < K; ++s) {
    const T* c = coef + 5 * s;
    const bool unit = kNum == Numerators::kHeadGain || (kNum == Numerators::kTailUnit && s > 0);
    x = SectionSample(unit, x, z0[s], z1[s], hn::Set(d, c[0]), hn::Set(d, c[1]), hn::Set(d, c[2]), hn::Set(d, c[3]),
                      hn::Set(d, c[4]));
  }
  return x;
}

// True when sections 1..count-1 have b0 == b2 == 1 exactly.
template <class T>
bool TailUnit(const T* coef, std::size_t count) {
  for (std::size_t s = 1; s < count; ++s) {
    if (coef[5 * s] != T(1) || coef[5 * s + 2] != T(1)) return false;
  }
  return true;
}

template <class T>
Numerators CascadeNumerators(const T* coef, std::size_t count) {
  if (!TailUnit(coef, count)) return Numerators::kGeneral;
  const bool head_gain = coef[0] != T(0) && coef[2] == coef[0] && std::isfinite(coef[1] / coef[0]);
  return head_gain ? Numerators::kHeadGain : count > 1 ? Numerators::kTailUnit : Numerators::kGeneral;
}

// Calls run(K, kNum, coefficients) with K and kNum as std::integral_constant for a cascade of
// `count` <= kMaxFusedSections sections, so that every fused kernel is instantiated for
// each; with kHeadGain, the coefficients are a copy whose head b1 is c = b1 / g.
template <class T, class Run>
HWY_INLINE void DispatchCascade(const T* coef, std::size_t count, const Run& run) {
  static_assert(kMaxFusedSections == 4, "one case below for each fused length");
  const Numerators num = CascadeNumerators(coef, count);
  T head_gain[5 * kMaxFusedSections];
  if (num == Numerators::kHeadGain) {
    std::copy(coef, coef + 5 * std::min(count, kMaxFusedSections), head_gain);
    head_gain[1] = coef[1] / coef[0];
  }
  const auto with = [&](auto k) HWY_ATTR {
    using N = Numerators;
    switch (num) {
      case N::kGeneral: return run(k, std::integral_constant<N, N::kGeneral>(), coef);
      case N::kTailUnit: return run(k, std::integral_constant<N, N::kTailUnit>(), coef);
      case N::kHeadGain: return run(k, std::integral_constant<N, N::kHeadGain>(), static_cast<const T*>(head_gain));
    }
  };
  switch (count) {
    case 1: return with(std::integral_constant<std::size_t, 1>());
    case 2: return with(std::integral_constant<std::size_t, 2>());
    case 3: return with(std::integral_constant<std::size_t, 3>());
    case 4: return with(std::integral_constant<std::size_t, 4>());
    default: return;  // the executor never asks for more than kMaxFusedSections
  }
}

// K sections fused over one vector of lanes, row after row: each row's sample goes through
// every section while the 2K states stay in registers (the coefficients are memory operands;
// 2K states + 4 temporaries fit the 16 AVX2 registers for K <= 4, where the former
// software-pipelined form over several vectors spilled states and put the stores and reloads
// on the recurrence). The out-of-order core overlaps consecutive rows, so only one section's
// recurrence (two dependent operations) bounds a row.
template <std::size_t K, Numerators kNum, class T>
HWY_INLINE void CascadeVector(T* HWY_RESTRICT buf, std::size_t rows, std::size_t pitch, std::size_t lane0,
                              const T* HWY_RESTRICT coef, T* HWY_RESTRICT state) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  V z0[K], z1[K];
  for (std::size_t s = 0; s < K; ++s) {
    z0[s] = hn::LoadU(d, state + (2 * s) * pitch + lane0);
    z1[s] = hn::LoadU(d, state + (2 * s + 1) * pitch + lane0);
  }
  T* row = buf + lane0;
  for (std::size_t t = 0; t < rows; ++t, row += pitch) {
    hn::Store(CascadeSample<K, kNum>(d, hn::Load(d, row), z0, z1, coef), d, row);
  }
  for (std::size_t s = 0; s < K; ++s) {
    hn::StoreU(z0[s], d, state + (2 * s) * pitch + lane0);
    hn::StoreU(z1[s], d, state + (2 * s + 1) * pitch + lane0);
  }
}

template <std::size_t K, Numerators kNum, class T>
HWY_INLINE void CascadeAllLanes(T* buf, std::size_t rows, std::size_t pitch, const T* coef, T* state) {
  const std::size_t w = hn::Lanes(hn::ScalableTag<T>());
  for (std::size_t lane = 0; lane < pitch; lane += w) CascadeVector<K, kNum>(buf, rows, pitch, lane, coef, state);
}

// One section over rows [0, rows) of G adjacent vectors of lanes from lane0, states z0/z1 (one
// value per lane, read and written back). kUnit: b0 == b2 == 1 exactly (SectionSample's
// `unit`).
template <bool kUnit, std::size_t G, class T>
HWY_INLINE void ChunkSectionRows(T* HWY_RESTRICT buf, std::size_t rows, std::size_t pitch, std::size_t lane0,
                                 const T* HWY_RESTRICT coef, T* HWY_RESTRICT z0p, T* HWY_RESTRICT z1p) {
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
      hn::Store(SectionSample(kUnit, x, z0[g], z1[g], b0, b1, b2, a1, a2), d, row + g * w);
    }
  }
  for (std::size_t g = 0; g < G; ++g) {
    hn::StoreU(z0[g], d, z0p + lane0 + g * w);
    hn::StoreU(z1[g], d, z1p + lane0 + g * w);
  }
}

// Four vectors at a time: four independent recurrences hide the multiply-add latency and the
// section's coefficients stay in registers.
template <bool kUnit, class T>
HWY_INLINE void ChunkSectionLanes(T* buf, std::size_t rows, std::size_t pitch, const T* coef, T* z0p, T* z1p) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  std::size_t lane = 0;
  for (; lane + 4 * w <= pitch; lane += 4 * w) ChunkSectionRows<kUnit, 4>(buf, rows, pitch, lane, coef, z0p, z1p);
  if (lane + 2 * w <= pitch) {
    ChunkSectionRows<kUnit, 2>(buf, rows, pitch, lane, coef, z0p, z1p);
    lane += 2 * w;
  }
  for (; lane < pitch; lane += w) ChunkSectionRows<kUnit, 1>(buf, rows, pitch, lane, coef, z0p, z1p);
}

// Bytes of a chunk of rows that the sections pass over one after another while it stays in L1.
inline constexpr std::size_t kChunkBytes = 16 * 1024;

// With four vectors of lanes or more, one section at a time over chunks of rows that stay in
// L1 (measured on the 2-core Zen 3 for 16 double channels, 4 sections: about 1.2x the fused
// pipeline below, whose 12 live states and 20 coefficients spill from the 16 AVX2 registers);
// with fewer, the sections fused and software-pipelined, since there they are what runs in
// parallel.
template <class T>
void Cascade(T* buf, std::size_t rows, std::size_t pitch, const T* coef, std::size_t count, T* state) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  if (pitch >= 4 * w) {
    const std::size_t chunk = std::max<std::size_t>(16, kChunkBytes / (pitch * sizeof(T)));
    for (std::size_t r0 = 0; r0 < rows; r0 += chunk) {
      const std::size_t n = std::min(chunk, rows - r0);
      for (std::size_t s = 0; s < count; ++s) {
        const T* c = coef + 5 * s;
        T* z0p = state + 2 * s * pitch;
        if (c[0] == T(1) && c[2] == T(1)) {
          ChunkSectionLanes<true>(buf + r0 * pitch, n, pitch, c, z0p, z0p + pitch);
        } else {
          ChunkSectionLanes<false>(buf + r0 * pitch, n, pitch, c, z0p, z0p + pitch);
        }
      }
    }
    return;
  }
  DispatchCascade(coef, count, [&](auto k, auto num, const T* c) HWY_ATTR {
    CascadeAllLanes<decltype(k)::value, decltype(num)::value>(buf, rows, pitch, c, state);
  });
}

// One section of the time scan over every lane, from the states in `state` (zero for the
// scan's blocks), optionally first adding the previous section's free response to its input:
// x[t][j] += r_in[2t] * sigma_in[j] + r_in[2t+1] * sigma_in[pitch + j]. Fusing that correction
// into this pass saves a load and a store per vector.
template <bool kCorrect, bool kUnit, std::size_t G, class T>
HWY_INLINE void SectionGroup(T* HWY_RESTRICT buf, std::size_t rows, std::size_t pitch, std::size_t lane0,
                             const T* HWY_RESTRICT coef, T* HWY_RESTRICT state, const T* HWY_RESTRICT r_in,
                             const T* HWY_RESTRICT sigma_in) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  const std::size_t w = hn::Lanes(d);
  const V b0 = hn::Set(d, coef[0]), b1 = hn::Set(d, coef[1]), b2 = hn::Set(d, coef[2]);
  const V a1 = hn::Set(d, coef[3]), a2 = hn::Set(d, coef[4]);
  V z0[G], z1[G], s0[G], s1[G];
  for (std::size_t g = 0; g < G; ++g) {
    z0[g] = hn::LoadU(d, state + lane0 + g * w);
    z1[g] = hn::LoadU(d, state + pitch + lane0 + g * w);
    if constexpr (kCorrect) {
      s0[g] = hn::LoadU(d, sigma_in + lane0 + g * w);
      s1[g] = hn::LoadU(d, sigma_in + pitch + lane0 + g * w);
    }
  }
  T* row = buf + lane0;
  for (std::size_t t = 0; t < rows; ++t, row += pitch) {
    V r0, r1;
    if constexpr (kCorrect) {
      r0 = hn::Set(d, r_in[2 * t]);
      r1 = hn::Set(d, r_in[2 * t + 1]);
    }
    for (std::size_t g = 0; g < G; ++g) {
      V x = hn::Load(d, row + g * w);
      if constexpr (kCorrect) x = hn::MulAdd(r1, s1[g], hn::MulAdd(r0, s0[g], x));
      hn::Store(SectionSample(kUnit, x, z0[g], z1[g], b0, b1, b2, a1, a2), d, row + g * w);
    }
  }
  for (std::size_t g = 0; g < G; ++g) {
    hn::StoreU(z0[g], d, state + lane0 + g * w);
    hn::StoreU(z1[g], d, state + pitch + lane0 + g * w);
  }
}

// kUnit: b0 == b2 == 1 exactly, as in ChunkSectionRows.
template <bool kCorrect, bool kUnit, class T>
HWY_INLINE void SectionAllLanes(T* buf, std::size_t rows, std::size_t pitch, const T* coef, T* state, const T* r_in,
                                const T* sigma_in) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  constexpr std::size_t G = kCorrect ? 2 : 4;  // what fits the 16 registers of AVX2 without spilling a state
  std::size_t lane = 0;
  for (; lane + G * w <= pitch; lane += G * w) {
    SectionGroup<kCorrect, kUnit, G>(buf, rows, pitch, lane, coef, state, r_in, sigma_in);
  }
  for (; lane < pitch; lane += w) {
    SectionGroup<kCorrect, kUnit, 1>(buf, rows, pitch, lane, coef, state, r_in, sigma_in);
  }
}

template <bool kCorrect, class T>
HWY_INLINE void SectionAllLanes(T* buf, std::size_t rows, std::size_t pitch, const T* coef, T* state, const T* r_in,
                                const T* sigma_in) {
  if (coef[0] == T(1) && coef[2] == T(1)) {
    SectionAllLanes<kCorrect, true>(buf, rows, pitch, coef, state, r_in, sigma_in);
  } else {
    SectionAllLanes<kCorrect, false>(buf, rows, pitch, coef, state, r_in, sigma_in);
  }
}

// The correction is applied to the first r_rows rows only: beyond them the previous section's
// free response has decayed below what the result can show (SosPlan::correct_rows).
template <class T>
void Section(T* buf, std::size_t rows, std::size_t pitch, const T* coef, T* state, const T* r_in,
             const T* sigma_in, std::size_t r_rows) {
  const std::size_t corrected = r_in != nullptr ? std::min(rows, r_rows) : 0;
  if (corrected > 0) SectionAllLanes<true>(buf, corrected, pitch, coef, state, r_in, sigma_in);
  if (corrected < rows) {
    SectionAllLanes<false>(buf + corrected * pitch, rows - corrected, pitch, coef, state, r_in, sigma_in);
  }
}

template <class T>
void AddFreeResponse(T* HWY_RESTRICT buf, std::size_t rows, std::size_t pitch, const T* HWY_RESTRICT r,
                     const T* HWY_RESTRICT sigma) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  for (std::size_t lane = 0; lane < pitch; lane += w) {
    const auto s0 = hn::LoadU(d, sigma + lane);
    const auto s1 = hn::LoadU(d, sigma + pitch + lane);
    T* p = buf + lane;
    for (std::size_t t = 0; t < rows; ++t, p += pitch) {
      const auto v = hn::MulAdd(hn::Set(d, r[2 * t]), s0, hn::Load(d, p));
      hn::Store(hn::MulAdd(hn::Set(d, r[2 * t + 1]), s1, v), d, p);
    }
  }
}

// Whether every vector a kernel stores to runs lane_stride apart from `base` (at row offsets that
// are multiples of the vector length) is aligned, as non-temporal stores need.
template <class T>
bool RunsVectorAligned(const T* base, std::ptrdiff_t lane_stride) {
  const std::size_t vector_bytes = hn::Lanes(hn::ScalableTag<T>()) * sizeof(T);
  const auto step = static_cast<std::size_t>(lane_stride < 0 ? -lane_stride : lane_stride);
  return reinterpret_cast<std::uintptr_t>(base) % vector_bytes == 0 && step * sizeof(T) % vector_bytes == 0;
}

// States whose free responses AddStateResponsesRuns adds in one pass over the runs.
inline constexpr std::size_t kStatesPerPass = 8;

// Free responses from states of `order` values added to `lanes` unit-stride runs:
// out[j * ols + t] = in[j * ils + t] + sum_k h[k * h_stride + t] * sigma[j * order + k], t < rows.
// Vectorized over t, kRuns runs at once so that each vector of h, read from L2, serves all of
// them (one run at a time, reading h was the bottleneck); the sigmas are broadcast once into
// vectors that the multiply-adds read as memory operands, kStatesPerPass states per pass (later
// passes read back `out`). With `stream`, a single pass whose runs are vector-aligned stores
// non-temporally (see IirKernels::add_state_responses).
template <std::size_t kRuns, class T>
HWY_INLINE void AddStateResponsesRuns(const T* in, std::ptrdiff_t ils, T* out, std::ptrdiff_t ols, std::size_t rows,
                                      const T* HWY_RESTRICT h, std::size_t h_stride, std::size_t order,
                                      const T* HWY_RESTRICT sigma, bool stream) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  constexpr std::size_t kChunk = kStatesPerPass;
  constexpr std::size_t kMax = hn::MaxLanes(d);
  const std::size_t w = hn::Lanes(d);
  const std::size_t full = rows - rows % w;
  HWY_ALIGN T sig[kChunk * kRuns * kMax];
  for (std::size_t k0 = 0; k0 < order; k0 += kChunk) {
    const std::size_t ks = std::min(kChunk, order - k0);
    const T* src = k0 == 0 ? in : out;
    const std::ptrdiff_t ss = k0 == 0 ? ils : ols;
    for (std::size_t k = 0; k < ks; ++k) {
      for (std::size_t r = 0; r < kRuns; ++r) hn::Store(hn::Set(d, sigma[r * order + k0 + k]), d, sig + (k * kRuns + r) * w);
    }
    const auto pass = [&](auto store) HWY_ATTR {
      for (std::size_t t = 0; t < full; t += w) {
        V acc[kRuns];
        for (std::size_t r = 0; r < kRuns; ++r) acc[r] = hn::LoadU(d, src + static_cast<std::ptrdiff_t>(r) * ss + t);
        const T* row = h + k0 * h_stride + t;
        for (std::size_t k = 0; k < ks; ++k, row += h_stride) {
          const V hv = hn::LoadU(d, row);
          for (std::size_t r = 0; r < kRuns; ++r) acc[r] = hn::MulAdd(hv, hn::Load(d, sig + (k * kRuns + r) * w), acc[r]);
        }
        for (std::size_t r = 0; r < kRuns; ++r) store(acc[r], out + static_cast<std::ptrdiff_t>(r) * ols + t);
      }
    };
    if (stream) {
      pass([&](V v, T* at) HWY_ATTR { hn::Stream(v, d, at); });
    } else {
      pass([&](V v, T* at) HWY_ATTR { hn::StoreU(v, d, at); });
    }
  }
  for (std::size_t r = 0; r < kRuns; ++r) {
    const T* src = in + static_cast<std::ptrdiff_t>(r) * ils;
    T* run = out + static_cast<std::ptrdiff_t>(r) * ols;
    for (std::size_t t = full; t < rows; ++t) {
      T v = src[t];
      for (std::size_t k = 0; k < order; ++k) v += h[k * h_stride + t] * sigma[r * order + k];
      run[t] = v;
    }
  }
}

template <class T>
void AddStateResponses(const T* in, std::ptrdiff_t ils, T* out, std::ptrdiff_t ols, std::size_t lanes,
                       std::size_t rows, const T* h, std::size_t h_stride, std::size_t order, const T* sigma,
                       bool stream) {
  stream = stream && order <= kStatesPerPass && RunsVectorAligned(out, ols);
  const auto run = [&](std::size_t j) {
    return std::make_pair(in + static_cast<std::ptrdiff_t>(j) * ils, out + static_cast<std::ptrdiff_t>(j) * ols);
  };
  std::size_t j = 0;
  for (; j + 4 <= lanes; j += 4) {
    const auto [src, dst] = run(j);
    AddStateResponsesRuns<4>(src, ils, dst, ols, rows, h, h_stride, order, sigma + j * order, stream);
  }
  for (; j < lanes; ++j) {
    const auto [src, dst] = run(j);
    AddStateResponsesRuns<1>(src, ils, dst, ols, rows, h, h_stride, order, sigma + j * order, stream);
  }
  if (stream) hwy::FlushStream();
}

// W x W block of real values transposed in registers (v[i] = row i in, column i out) where
// the vector shape has a short shuffle sequence (128- and 256-bit vectors), else through a
// small stack tile (which costs more than a cascade of four sections on the data).
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

// v[k] = element k of the W runs src + i * stride (i < W): with AVX-512 loaded in 256-bit
// halves (LoadTransposed512), elsewhere loaded whole and transposed in registers.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void LoadRunsTransposed(D d, const hn::TFromD<D>* src, std::ptrdiff_t stride, V* v) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if constexpr (hn::MaxLanes(D()) * sizeof(hn::TFromD<D>) == 64) {
    LoadTransposed512<sizeof(hn::TFromD<D>)>(d, src, stride, v);
    return;
  }
#endif
  for (std::size_t i = 0; i < hn::Lanes(d); ++i) v[i] = hn::LoadU(d, src + static_cast<std::ptrdiff_t>(i) * stride);
  TransposeSquare(d, v);
}

// The reverse of LoadRunsTransposed (v is clobbered); `stream` stores non-temporally, where
// dst and stride keep every vector aligned (RunsVectorAligned).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void StoreRunsTransposed(D d, V* v, hn::TFromD<D>* dst, std::ptrdiff_t stride, bool stream) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if constexpr (hn::MaxLanes(D()) * sizeof(hn::TFromD<D>) == 64) {
    StoreTransposed512<sizeof(hn::TFromD<D>)>(d, v, dst, stride, stream);
    return;
  }
#endif
  TransposeSquare(d, v);
  for (std::size_t i = 0; i < hn::Lanes(d); ++i) {
    auto* row = dst + static_cast<std::ptrdiff_t>(i) * stride;
    if (stream) {
      hn::Stream(v[i], d, row);
    } else {
      hn::StoreU(v[i], d, row);
    }
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
      LoadRunsTransposed(d, src + t, lane_stride, v);
      for (std::size_t k = 0; k < w; ++k) hn::Store(v[k], d, buf + (t + k) * pitch + j);
    }
    for (std::size_t t = full; t < rows; ++t) {
      for (std::size_t i = 0; i < w; ++i) buf[t * pitch + j + i] = src[static_cast<std::ptrdiff_t>(i) * lane_stride + t];
    }
  }
}

// The reverse of StageIn; with r != nullptr it first adds the last section's free response
// (as Section's input correction) on the way out.
template <class T>
void StageOut(const T* HWY_RESTRICT buf, std::size_t rows, std::size_t pitch, T* HWY_RESTRICT seq,
              std::ptrdiff_t lane_stride, const T* HWY_RESTRICT r, const T* HWY_RESTRICT sigma, std::size_t r_rows) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d);
  const std::size_t full = rows - rows % w;
  for (std::size_t j = 0; j < pitch; j += w) {
    T* dst = seq + static_cast<std::ptrdiff_t>(j) * lane_stride;
    const auto s0 = r != nullptr ? hn::LoadU(d, sigma + j) : hn::Zero(d);
    const auto s1 = r != nullptr ? hn::LoadU(d, sigma + pitch + j) : hn::Zero(d);
    for (std::size_t t = 0; t < full; t += w) {
      hn::Vec<decltype(d)> v[hn::MaxLanes(d)];
      const bool correct = r != nullptr && t < r_rows;
      for (std::size_t k = 0; k < w; ++k) {
        v[k] = hn::Load(d, buf + (t + k) * pitch + j);
        if (correct) {
          v[k] = hn::MulAdd(hn::Set(d, r[2 * (t + k) + 1]), s1, hn::MulAdd(hn::Set(d, r[2 * (t + k)]), s0, v[k]));
        }
      }
      StoreRunsTransposed(d, v, dst + t, lane_stride, false);
    }
    for (std::size_t t = full; t < rows; ++t) {
      for (std::size_t i = 0; i < w; ++i) {
        T v = buf[t * pitch + j + i];
        if (r != nullptr && t < r_rows) v += r[2 * t] * sigma[j + i] + r[2 * t + 1] * sigma[pitch + j + i];
        dst[static_cast<std::ptrdiff_t>(i) * lane_stride + t] = v;
      }
    }
  }
}

// Tiles ahead that RunsVector asks for its input (see there).
inline constexpr std::size_t kRunsPrefetchTiles = 4;

// The cascade straight from and to W lanes that are unit-stride runs (rows of a C-ordered
// multi-channel array): W x W tiles are loaded (one vector per lane), transposed in registers,
// each of their W rows filtered through the K sections, transposed back and stored. Each sample
// is read and written once and the loads and stores overlap the arithmetic, where a staging
// block would stream its memory traffic and its arithmetic one after the other. A tail shorter
// than W rows goes through a small stack tile. in == out is fine. src and dst are lane lane0's
// runs; lane lane0 + i is read at src + i * in_lane_stride.
template <std::size_t K, Numerators kNum, class T>
HWY_INLINE void RunsVector(const T* src, std::ptrdiff_t in_lane_stride, T* dst, std::ptrdiff_t out_lane_stride,
                           std::size_t rows, std::size_t pitch, std::size_t lane0, const T* HWY_RESTRICT coef,
                           T* HWY_RESTRICT state, std::size_t stream_from) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  constexpr std::size_t kMax = hn::MaxLanes(d);
  const std::size_t w = hn::Lanes(d);
  V z0[K], z1[K];
  for (std::size_t s = 0; s < K; ++s) {
    z0[s] = hn::LoadU(d, state + (2 * s) * pitch + lane0);
    z1[s] = hn::LoadU(d, state + (2 * s + 1) * pitch + lane0);
  }
  const auto filter = [&](V x) HWY_ATTR { return CascadeSample<K, kNum>(d, x, z0, z1, coef); };
  const std::size_t full = rows - rows % w;
  // Tiles from this row on are stored non-temporally (see IirKernels::cascade_runs), where
  // every run's tile fills whole aligned vectors.
  const std::size_t stream_row = RunsVectorAligned(dst, out_lane_stride) ? (stream_from + w - 1) / w * w : full;
  for (std::size_t t = 0; t < full; t += w) {
    V v[kMax];
    // The W runs are W input streams, more than the hardware prefetchers follow well: asking
    // for each run's data kRunsPrefetchTiles tiles ahead keeps them coming (fused scan of
    // butter(8, 0.1), 2^24 float samples, one thread on the AVX-512 Zen 4: 17.7 -> 14.9 ms;
    // 2 and 8 tiles ahead, or prefetching the output for writing, no better).
    for (std::size_t i = 0; i < w; ++i) {
      __builtin_prefetch(src + static_cast<std::ptrdiff_t>(i) * in_lane_stride + t + kRunsPrefetchTiles * w, 0, 3);
    }
    LoadRunsTransposed(d, src + t, in_lane_stride, v);
    for (std::size_t k = 0; k < w; ++k) v[k] = filter(v[k]);
    StoreRunsTransposed(d, v, dst + t, out_lane_stride, t >= stream_row);
  }
  if (stream_row < full) hwy::FlushStream();  // before this thread hands its results on
  if (full < rows) {
    HWY_ALIGN T tile[kMax];
    for (std::size_t t = full; t < rows; ++t) {
      for (std::size_t i = 0; i < w; ++i) tile[i] = src[static_cast<std::ptrdiff_t>(i) * in_lane_stride + t];
      hn::Store(filter(hn::Load(d, tile)), d, tile);
      for (std::size_t i = 0; i < w; ++i) dst[static_cast<std::ptrdiff_t>(i) * out_lane_stride + t] = tile[i];
    }
  }
  for (std::size_t s = 0; s < K; ++s) {
    hn::StoreU(z0[s], d, state + (2 * s) * pitch + lane0);
    hn::StoreU(z1[s], d, state + (2 * s + 1) * pitch + lane0);
  }
}

// Samples [t0, t1) of one lane's runs (in, out) through the K sections one at a time, from
// and back to its state in `state` (as RunsVector's lane `lane`): the vector path's operations
// on a vector of one lane, so the results are the same.
template <std::size_t K, Numerators kNum, class T>
HWY_INLINE void RunsLaneSerial(const T* in, T* out, std::size_t t0, std::size_t t1, std::size_t pitch,
                               std::size_t lane, const T* HWY_RESTRICT coef, T* HWY_RESTRICT state) {
  const hn::CappedTag<T, 1> d;
  using V = hn::Vec<decltype(d)>;
  V z0[K], z1[K];
  for (std::size_t s = 0; s < K; ++s) {
    z0[s] = hn::Set(d, state[(2 * s) * pitch + lane]);
    z1[s] = hn::Set(d, state[(2 * s + 1) * pitch + lane]);
  }
  for (std::size_t t = t0; t < t1; ++t) {
    out[t] = hn::GetLane(CascadeSample<K, kNum>(d, hn::Set(d, in[t]), z0, z1, coef));
  }
  for (std::size_t s = 0; s < K; ++s) {
    state[(2 * s) * pitch + lane] = hn::GetLane(z0[s]);
    state[(2 * s + 1) * pitch + lane] = hn::GetLane(z1[s]);
  }
}

// The W lanes of a tile are read (and written) together, a line of each, plus the lines the
// prefetches bring ahead of them. Where the lanes' lines fall in few of the L1's sets (lane
// strides at or near a multiple of 4 KiB, such as rows of 2^k samples), those sets hold too
// few of the lines in flight and evict what the prefetchers bring. The lanes' offsets modulo
// kSetSpanBytes show where they fall; LaneSpread is the least circular distance between two of
// them, at best kSetSpanBytes / W (evenly spread).
inline constexpr std::size_t kSetSpanBytes = 4096;

inline std::size_t LaneSpread(std::ptrdiff_t stride_bytes, std::size_t lanes) {
  const auto span = static_cast<std::ptrdiff_t>(kSetSpanBytes);
  const auto m = static_cast<std::size_t>(((stride_bytes % span) + span) % span);
  std::size_t least = kSetSpanBytes;
  for (std::size_t apart = 1; apart < lanes; ++apart) {  // lanes i and i + apart
    const std::size_t d = apart * m % kSetSpanBytes;
    least = std::min({least, d, kSetSpanBytes - d});
  }
  return least;
}

// Rows that lane i + 1 runs ahead of lane i (a multiple of W, so that the tiles' vectors keep
// their alignment) for lanes a stride apart to be spread evenly over the sets: the least skew
// that brings both strides' LaneSpread to kSetSpanBytes / W, else the one that comes closest;
// 0 where they are already even. 16 channels x 2^20 (lanes 8 MiB apart), butter(8, 0.1), one
// thread on the AVX-512 Zen 4, medians of alternated runs against lane i running i tiles (64
// bytes) ahead: doubles 1348 -> 1441 Msamples/s (lanes 512 bytes apart), floats 2584 -> 2685
// (256 bytes); a vector short of even (448 and 192 bytes) ran 1-4% slower, and unskewed lanes
// 8,000,000 bytes apart (512 modulo 4 KiB) already ran at 1500 in double.
template <class T>
std::size_t SkewRows(std::ptrdiff_t in_stride, std::ptrdiff_t out_stride, std::size_t lanes) {
  const std::size_t tile_bytes = lanes * sizeof(T);
  const std::size_t even = kSetSpanBytes / lanes;
  const auto spread = [&](std::size_t skew_bytes) {
    const auto skew = static_cast<std::ptrdiff_t>(skew_bytes);
    return std::min(LaneSpread(in_stride * static_cast<std::ptrdiff_t>(sizeof(T)) + skew, lanes),
                    LaneSpread(out_stride * static_cast<std::ptrdiff_t>(sizeof(T)) + skew, lanes));
  };
  std::size_t best = 0, best_spread = spread(0);
  for (std::size_t skew = 0; skew < kSetSpanBytes && best_spread < even; skew += tile_bytes) {
    if (const std::size_t s = spread(skew); s > best_spread) {
      best = skew;
      best_spread = s;
    }
  }
  return best / sizeof(T);
}

// Skewed lanes run their first and last samples one at a time, at 3.7-6.2x the cost of the
// tiled ones (4 sections in L2, 2.7 ns against 0.44-0.74 ns per sample on the Zen 4), so runs
// are skewed only from kSkewMinRowsPerSkew times the (W - 1) * skew rows of it (1/64 of the
// samples one at a time at most). Shorter runs stay mostly in the caches, where crowded sets
// cost little: 16 double channels x 2^11 to 2^15 ran as fast unskewed as with lanes 8 rows
// apart, and 2^14 ran 4-6% slower with lanes 64 rows apart, one at a time for 2.7% of it.
inline constexpr std::size_t kSkewMinRowsPerSkew = 64;

// Lane i runs i * skew rows ahead of lane 0 (SkewRows): its first i * skew samples one at a
// time, then the tiles with lane strides `skew` longer, then the (W - 1 - i) * skew samples
// left of it one at a time.
template <std::size_t K, Numerators kNum, class T>
HWY_INLINE void RunsAllLanes(const T* in, std::ptrdiff_t ils, T* out, std::ptrdiff_t ols, std::size_t rows,
                             std::size_t pitch, const T* coef, T* state, std::size_t stream_from) {
  const std::size_t w = hn::Lanes(hn::ScalableTag<T>());
  const bool long_runs = w > 1 && rows >= kSkewMinRowsPerSkew * (w - 1) * w;  // else no skew pays
  const std::size_t skew = long_runs ? SkewRows<T>(ils, ols, w) : 0;
  const std::size_t skew_rows = (w - 1) * skew;
  const bool skewed = skew > 0 && rows >= kSkewMinRowsPerSkew * skew_rows;
  for (std::size_t lane = 0; lane < pitch; lane += w) {
    const T* src = in + static_cast<std::ptrdiff_t>(lane) * ils;
    T* dst = out + static_cast<std::ptrdiff_t>(lane) * ols;
    if (!skewed) {
      RunsVector<K, kNum>(src, ils, dst, ols, rows, pitch, lane, coef, state, stream_from);
      continue;
    }
    const auto run_in = [&](std::size_t i) { return src + static_cast<std::ptrdiff_t>(i) * ils; };
    const auto run_out = [&](std::size_t i) { return dst + static_cast<std::ptrdiff_t>(i) * ols; };
    for (std::size_t i = 1; i < w; ++i) {
      RunsLaneSerial<K, kNum>(run_in(i), run_out(i), 0, i * skew, pitch, lane + i, coef, state);
    }
    const auto step = static_cast<std::ptrdiff_t>(skew);
    RunsVector<K, kNum>(src, ils + step, dst, ols + step, rows - skew_rows, pitch, lane, coef, state, stream_from);
    for (std::size_t i = 0; i + 1 < w; ++i) {
      RunsLaneSerial<K, kNum>(run_in(i), run_out(i), rows - skew_rows + i * skew, rows, pitch, lane + i, coef,
                              state);
    }
  }
}

template <class T>
void CascadeRuns(const T* in, std::ptrdiff_t ils, T* out, std::ptrdiff_t ols, std::size_t rows, std::size_t pitch,
                 const T* coef, std::size_t count, T* state, std::size_t stream_from) {
  DispatchCascade(coef, count, [&](auto k, auto num, const T* c) HWY_ATTR {
    RunsAllLanes<decltype(k)::value, decltype(num)::value>(in, ils, out, ols, rows, pitch, c, state, stream_from);
  });
}

inline void CascadeRunsF32(const float* in, std::ptrdiff_t ils, float* out, std::ptrdiff_t ols, std::size_t rows,
                           std::size_t pitch, const float* c, std::size_t n, float* s, std::size_t sf) {
  CascadeRuns(in, ils, out, ols, rows, pitch, c, n, s, sf);
}
inline void CascadeRunsF64(const double* in, std::ptrdiff_t ils, double* out, std::ptrdiff_t ols, std::size_t rows,
                           std::size_t pitch, const double* c, std::size_t n, double* s, std::size_t sf) {
  CascadeRuns(in, ils, out, ols, rows, pitch, c, n, s, sf);
}
inline void CascadeF32(float* b, std::size_t rows, std::size_t pitch, const float* c, std::size_t n, float* s) {
  Cascade(b, rows, pitch, c, n, s);
}
inline void CascadeF64(double* b, std::size_t rows, std::size_t pitch, const double* c, std::size_t n,
                       double* s) {
  Cascade(b, rows, pitch, c, n, s);
}
inline void AddFreeResponseF32(float* b, std::size_t rows, std::size_t pitch, const float* r, const float* s) {
  AddFreeResponse(b, rows, pitch, r, s);
}
inline void AddFreeResponseF64(double* b, std::size_t rows, std::size_t pitch, const double* r,
                               const double* s) {
  AddFreeResponse(b, rows, pitch, r, s);
}
inline void AddStateResponsesF32(const float* in, std::ptrdiff_t ils, float* o, std::ptrdiff_t ols, std::size_t lanes,
                                 std::size_t rows, const float* h, std::size_t hs, std::size_t order,
                                 const float* sigma, bool stream) {
  AddStateResponses(in, ils, o, ols, lanes, rows, h, hs, order, sigma, stream);
}
inline void AddStateResponsesF64(const double* in, std::ptrdiff_t ils, double* o, std::ptrdiff_t ols,
                                 std::size_t lanes, std::size_t rows, const double* h, std::size_t hs,
                                 std::size_t order, const double* sigma, bool stream) {
  AddStateResponses(in, ils, o, ols, lanes, rows, h, hs, order, sigma, stream);
}
inline void StageInF32(float* b, std::size_t rows, std::size_t pitch, const float* s, std::ptrdiff_t ls) {
  StageIn(b, rows, pitch, s, ls);
}
inline void StageInF64(double* b, std::size_t rows, std::size_t pitch, const double* s, std::ptrdiff_t ls) {
  StageIn(b, rows, pitch, s, ls);
}
inline void StageOutF32(const float* b, std::size_t rows, std::size_t pitch, float* s, std::ptrdiff_t ls,
                        const float* r, const float* sigma, std::size_t r_rows) {
  StageOut(b, rows, pitch, s, ls, r, sigma, r_rows);
}
inline void StageOutF64(const double* b, std::size_t rows, std::size_t pitch, double* s, std::ptrdiff_t ls,
                        const double* r, const double* sigma, std::size_t r_rows) {
  StageOut(b, rows, pitch, s, ls, r, sigma, r_rows);
}
inline void SectionF32(float* b, std::size_t rows, std::size_t pitch, const float* c, float* st, const float* r,
                       const float* sigma, std::size_t r_rows) {
  Section(b, rows, pitch, c, st, r, sigma, r_rows);
}
inline void SectionF64(double* b, std::size_t rows, std::size_t pitch, const double* c, double* st,
                       const double* r, const double* sigma, std::size_t r_rows) {
  Section(b, rows, pitch, c, st, r, sigma, r_rows);
}
inline int IirLanesF32() { return static_cast<int>(hn::Lanes(hn::ScalableTag<float>())); }
inline int IirLanesF64() { return static_cast<int>(hn::Lanes(hn::ScalableTag<double>())); }

}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
