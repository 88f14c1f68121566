// Highway kernels for CIC decimators (see cic_kernels.hpp). Re-included once per SIMD target by
// cic_kernels.cpp.
//
// The integrators are running sums, so a vector of consecutive frames is integrated by a
// prefix sum plus the previous vector's last value (the carry). Prefix sums across a whole
// vector need cross-block shuffles on x86 (slow, and on the carried chain); instead every
// 128-bit block holds its own segment of the signal, so all shuffles stay inside blocks. The
// caller starts segments after the first at zero state and adds the zero-input response of
// their true starting states later (only where the combs do not cancel it).
#if defined(RIPPLE_CPU_CIC_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef RIPPLE_CPU_CIC_KERNELS_INL_H_
#undef RIPPLE_CPU_CIC_KERNELS_INL_H_
#else
#define RIPPLE_CPU_CIC_KERNELS_INL_H_
#endif

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cpu/cic_kernels.hpp"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR
// Vectors of up to two 128-bit blocks: two segments side by side is enough to fill the
// shuffle ports, and wider vectors would only add segments to patch up.
#if HWY_MAX_BYTES >= 32 && !HWY_HAVE_SCALABLE
constexpr std::size_t kCicSegments = 2;
#else
constexpr std::size_t kCicSegments = 1;
#endif

// Each frame of every 128-bit block plus the frames before it in that block.
template <std::size_t kFrameBytes, class D, class V>
HWY_INLINE V PrefixInBlocks(D d, V v) {
  if constexpr (kFrameBytes < 16) v = hn::Add(v, hn::ShiftLeftBytes<kFrameBytes>(d, v));
  if constexpr (2 * kFrameBytes < 16) v = hn::Add(v, hn::ShiftLeftBytes<2 * kFrameBytes>(d, v));
  return v;
}

// The last frame of each 128-bit block copied to all of that block's frames.
template <std::size_t kFrameBytes, class D, class V>
HWY_INLINE V BroadcastLastFrame(D d, V v) {
  if constexpr (kFrameBytes == 16) {
    return v;
  } else if constexpr (kFrameBytes == 8) {
    const hn::Repartition<std::uint64_t, D> d64;
    return hn::BitCast(d, hn::Broadcast<1>(hn::BitCast(d64, v)));
  } else {
    const hn::Repartition<std::uint32_t, D> d32;
    return hn::BitCast(d, hn::Broadcast<3>(hn::BitCast(d32, v)));
  }
}

// Block b of the result from p + b * stride.
template <class D, class T>
HWY_INLINE hn::Vec<D> LoadBlocks(D d, const T* HWY_RESTRICT p, std::size_t stride) {
  if constexpr (hn::MaxLanes(D()) * sizeof(T) == 16) {
    return hn::LoadU(d, p);
  } else {
    const hn::Half<D> dh;
    return hn::Combine(d, hn::LoadU(dh, p + stride), hn::LoadU(dh, p));
  }
}

template <class D, class T>
HWY_INLINE void StoreBlocks(D d, hn::Vec<D> v, T* HWY_RESTRICT p, std::size_t stride) {
  if constexpr (hn::MaxLanes(D()) * sizeof(T) == 16) {
    hn::StoreU(v, d, p);
  } else {
    const hn::Half<D> dh;
    hn::StoreU(hn::LowerHalf(dh, v), dh, p);
    hn::StoreU(hn::UpperHalf(dh, v), dh, p + stride);
  }
}

// One vector through the integrator cascade; carry[k] holds integrator k's state in every
// frame. The loop is unrolled to kCicMaxStages with an exit, so the carries stay in registers.
template <std::size_t kFrameBytes, class D>
HWY_INLINE hn::Vec<D> IntegrateVector(D d, hn::Vec<D> u, hn::Vec<D>* carry, std::size_t stages) {
  static_assert(kCicMaxStages == 8, "the unroll count below");
  HWY_UNROLL(8)
  for (std::size_t k = 0; k < kCicMaxStages; ++k) {
    if (k == stages) break;
    u = hn::Add(PrefixInBlocks<kFrameBytes>(d, u), carry[k]);
    carry[k] = BroadcastLastFrame<kFrameBytes>(d, u);
  }
  return u;
}

// The segments of x, one per 128-bit block of D, C channels, widened from In to W in blocks
// (interleaving with the sign keeps each block's values in its block).
template <class In, class W, std::size_t C, class D>
HWY_NOINLINE void IntegrateBlocks(D d, const In* HWY_RESTRICT x, std::size_t stages, std::size_t frames,
                                  W* HWY_RESTRICT states, W* HWY_RESTRICT last) {
  using V = hn::Vec<D>;
  constexpr std::size_t kBlockValues = 16 / sizeof(W);
  constexpr std::size_t kBlocks = hn::MaxLanes(D()) / kBlockValues;
  constexpr std::size_t kFrameBytes = C * sizeof(W);
  constexpr std::size_t kStep = 16 / sizeof(In);
  const hn::Repartition<In, D> din;
  const std::size_t seg = frames * C;

  HWY_ALIGN W lanes[hn::MaxLanes(D())];
  V carry[kCicMaxStages];
  for (std::size_t k = 0; k < kCicMaxStages; ++k) {
    for (std::size_t b = 0; b < kBlocks; ++b) {
      for (std::size_t i = 0; i < kBlockValues; ++i) {
        lanes[b * kBlockValues + i] = k < stages ? states[(b * stages + k) * C + i % C] : W(0);
      }
    }
    carry[k] = hn::Load(d, lanes);
  }

  for (std::size_t i = 0; i < seg; i += kStep) {
    const auto v = LoadBlocks(din, x + i, seg);
    W* out = last + i;
    if constexpr (sizeof(W) == sizeof(In)) {
      StoreBlocks(d, IntegrateVector<kFrameBytes>(d, hn::BitCast(d, v), carry, stages), out, seg);
    } else if constexpr (sizeof(W) == 2 * sizeof(In)) {
      const auto sign = hn::ShiftRight<8 * sizeof(In) - 1>(v);
      StoreBlocks(d, IntegrateVector<kFrameBytes>(d, hn::BitCast(d, hn::InterleaveLower(din, v, sign)), carry, stages),
                  out, seg);
      StoreBlocks(d, IntegrateVector<kFrameBytes>(d, hn::BitCast(d, hn::InterleaveUpper(din, v, sign)), carry, stages),
                  out + kBlockValues, seg);
    } else {
      static_assert(sizeof(W) == 4 * sizeof(In));
      const hn::Repartition<hwy::MakeWide<In>, D> dmid;
      const auto sign = hn::ShiftRight<8 * sizeof(In) - 1>(v);
      const auto lo = hn::BitCast(dmid, hn::InterleaveLower(din, v, sign));
      const auto hi = hn::BitCast(dmid, hn::InterleaveUpper(din, v, sign));
      const auto slo = hn::ShiftRight<16 * sizeof(In) - 1>(lo), shi = hn::ShiftRight<16 * sizeof(In) - 1>(hi);
      StoreBlocks(d, IntegrateVector<kFrameBytes>(d, hn::BitCast(d, hn::InterleaveLower(dmid, lo, slo)), carry, stages),
                  out, seg);
      StoreBlocks(d, IntegrateVector<kFrameBytes>(d, hn::BitCast(d, hn::InterleaveUpper(dmid, lo, slo)), carry, stages),
                  out + kBlockValues, seg);
      StoreBlocks(d, IntegrateVector<kFrameBytes>(d, hn::BitCast(d, hn::InterleaveLower(dmid, hi, shi)), carry, stages),
                  out + 2 * kBlockValues, seg);
      StoreBlocks(d, IntegrateVector<kFrameBytes>(d, hn::BitCast(d, hn::InterleaveUpper(dmid, hi, shi)), carry, stages),
                  out + 3 * kBlockValues, seg);
    }
  }

  for (std::size_t k = 0; k < stages; ++k) {
    hn::Store(carry[k], d, lanes);
    for (std::size_t b = 0; b < kBlocks; ++b) {
      for (std::size_t c = 0; c < C; ++c) states[(b * stages + k) * C + c] = lanes[b * kBlockValues + c];
    }
  }
}

template <class In, class W, class D>
HWY_INLINE void IntegrateChannels(D d, const In* x, std::size_t channels, std::size_t stages, std::size_t frames,
                                  W* states, W* last) {
  switch (channels) {
    case 1: return IntegrateBlocks<In, W, 1>(d, x, stages, frames, states, last);
    case 2: return IntegrateBlocks<In, W, 2>(d, x, stages, frames, states, last);
    case 4:
      if constexpr (sizeof(W) == 4) return IntegrateBlocks<In, W, 4>(d, x, stages, frames, states, last);
      return;
    default: return;
  }
}

#if HWY_MAX_BYTES >= 32 && !HWY_HAVE_SCALABLE
// Two channels in 32-bit registers, one frame of each of four segments per 256-bit vector:
// the integrators are then one addition per stage and vector, no shuffles at all; the
// shuffles move to the loads, a 4 x 4 transpose of frames per 16 frames.
constexpr std::size_t kCicLaneSegments = 4;

// Frames t..t+3 of the four segments (seg values apart) as f[q] = frame t + q of segments
// 0..3, widened to int32.
HWY_INLINE void LoadLaneFrames(const std::int16_t* HWY_RESTRICT x, std::size_t seg, hn::Vec<hn::FixedTag<std::uint32_t, 8>>* f) {
  const hn::FixedTag<std::uint32_t, 4> d4;  // one frame (two int16) per lane
  const hn::Repartition<std::uint64_t, decltype(d4)> d2;
  const hn::FixedTag<std::int16_t, 8> d16;
  const hn::FixedTag<std::int32_t, 8> d32;
  const hn::FixedTag<std::uint32_t, 8> du;
  const auto load = [&](std::size_t s) HWY_ATTR {
    return hn::LoadU(d4, reinterpret_cast<const std::uint32_t*>(x + s * seg));
  };
  const auto a = load(0), b = load(1), c = load(2), d = load(3);
  const auto ab_lo = hn::BitCast(d2, hn::InterleaveLower(d4, a, b)), ab_hi = hn::BitCast(d2, hn::InterleaveUpper(d4, a, b));
  const auto cd_lo = hn::BitCast(d2, hn::InterleaveLower(d4, c, d)), cd_hi = hn::BitCast(d2, hn::InterleaveUpper(d4, c, d));
  const auto widen = [&](hn::Vec<decltype(d2)> v) HWY_ATTR { return hn::BitCast(du, hn::PromoteTo(d32, hn::BitCast(d16, v))); };
  f[0] = widen(hn::InterleaveLower(d2, ab_lo, cd_lo));
  f[1] = widen(hn::InterleaveUpper(d2, ab_lo, cd_lo));
  f[2] = widen(hn::InterleaveLower(d2, ab_hi, cd_hi));
  f[3] = widen(hn::InterleaveUpper(d2, ab_hi, cd_hi));
}

HWY_INLINE void LoadLaneFrames(const std::int32_t* HWY_RESTRICT x, std::size_t seg, hn::Vec<hn::FixedTag<std::uint32_t, 8>>* f) {
  const hn::FixedTag<std::uint64_t, 4> d64;  // one frame (two int32) per lane
  const hn::FixedTag<std::uint32_t, 8> du;
  const auto load = [&](std::size_t s) HWY_ATTR {
    return hn::LoadU(d64, reinterpret_cast<const std::uint64_t*>(x + s * seg));
  };
  const auto a = load(0), b = load(1), c = load(2), d = load(3);
  const auto ab_lo = hn::InterleaveLower(d64, a, b), ab_hi = hn::InterleaveUpper(d64, a, b);  // [a0 b0|a2 b2], [a1 b1|a3 b3]
  const auto cd_lo = hn::InterleaveLower(d64, c, d), cd_hi = hn::InterleaveUpper(d64, c, d);
  f[0] = hn::BitCast(du, hn::ConcatLowerLower(d64, cd_lo, ab_lo));
  f[1] = hn::BitCast(du, hn::ConcatLowerLower(d64, cd_hi, ab_hi));
  f[2] = hn::BitCast(du, hn::ConcatUpperUpper(d64, cd_lo, ab_lo));
  f[3] = hn::BitCast(du, hn::ConcatUpperUpper(d64, cd_hi, ab_hi));
}

// last[(t * 4 + s) * 2 + c]: frame t of segment s, channel c (segments interleaved).
template <class In>
HWY_NOINLINE void IntegrateLanesImpl(const In* HWY_RESTRICT x, std::size_t stages, std::size_t frames,
                                     std::uint32_t* HWY_RESTRICT states, std::uint32_t* HWY_RESTRICT last) {
  constexpr std::size_t kC = 2, kS = kCicLaneSegments;
  const hn::FixedTag<std::uint32_t, 8> d;
  using V = hn::Vec<decltype(d)>;
  HWY_ALIGN std::uint32_t lanes[kS * kC];
  V carry[kCicMaxStages];
  for (std::size_t k = 0; k < kCicMaxStages; ++k) {
    for (std::size_t i = 0; i < kS * kC; ++i) lanes[i] = k < stages ? states[((i / kC) * stages + k) * kC + i % kC] : 0u;
    carry[k] = hn::Load(d, lanes);
  }
  const std::size_t seg = frames * kC;
  for (std::size_t t = 0; t < frames; t += 4) {
    V f[4];
    LoadLaneFrames(x + t * kC, seg, f);
    for (std::size_t q = 0; q < 4; ++q) {
      V v = f[q];
      static_assert(kCicMaxStages == 8, "the unroll count below");
      HWY_UNROLL(8)
      for (std::size_t k = 0; k < kCicMaxStages; ++k) {
        if (k == stages) break;
        v = carry[k] = hn::Add(carry[k], v);
      }
      hn::StoreU(v, d, last + (t + q) * kS * kC);
    }
  }
  for (std::size_t k = 0; k < stages; ++k) {
    hn::Store(carry[k], d, lanes);
    for (std::size_t i = 0; i < kS * kC; ++i) states[((i / kC) * stages + k) * kC + i % kC] = lanes[i];
  }
}
#else
constexpr std::size_t kCicLaneSegments = 0;
template <class In>
void IntegrateLanesImpl(const In*, std::size_t, std::size_t, std::uint32_t*, std::uint32_t*) {}
#endif

template <class In, class W>
void Integrate(const In* x, std::size_t channels, std::size_t stages, std::size_t frames, std::size_t segments,
               W* states, W* last) {
#if HWY_MAX_BYTES >= 32 && !HWY_HAVE_SCALABLE
  if (segments == 2) return IntegrateChannels(hn::FixedTag<W, 32 / sizeof(W)>(), x, channels, stages, frames, states, last);
#endif
  (void)segments;
  IntegrateChannels(hn::FixedTag<W, 16 / sizeof(W)>(), x, channels, stages, frames, states, last);
}
#else   // HWY_SCALAR: no 128-bit vectors; the caller integrates (max_segments is 0).
constexpr std::size_t kCicSegments = 0;
constexpr std::size_t kCicLaneSegments = 0;
template <class In, class W>
void Integrate(const In*, std::size_t, std::size_t, std::size_t, std::size_t, W*, W*) {}
template <class In>
void IntegrateLanesImpl(const In*, std::size_t, std::size_t, std::uint32_t*, std::uint32_t*) {}
#endif  // HWY_TARGET != HWY_SCALAR

// The comb of N stages with delay `lag` as one sum: N levels of differences of the N + 1
// delayed inputs, in registers, then widened to int64.
template <std::size_t N, class W>
HWY_NOINLINE void CombFused(const W* HWY_RESTRICT d, std::size_t count, std::size_t lag, std::int64_t* HWY_RESTRICT out) {
  using S = std::make_signed_t<W>;
  const hn::ScalableTag<std::int64_t> d64;
  const hn::Rebind<S, decltype(d64)> ds;  // as many W as int64 lanes
  const std::size_t w = hn::Lanes(d64);
  const S* y = reinterpret_cast<const S*>(d);
  std::size_t i = 0;
  for (; i + w <= count; i += w) {
    hn::Vec<decltype(ds)> v[N + 1];
    for (std::size_t k = 0; k <= N; ++k) v[k] = hn::LoadU(ds, y + i - k * lag);
    for (std::size_t level = 1; level <= N; ++level) {
      for (std::size_t k = 0; k + level <= N; ++k) v[k] = hn::Sub(v[k], v[k + 1]);
    }
    if constexpr (sizeof(W) == 8) {
      hn::StoreU(v[0], d64, out + i);
    } else {
      hn::StoreU(hn::PromoteTo(d64, v[0]), d64, out + i);
    }
  }
  for (; i < count; ++i) {
    W v[N + 1];
    for (std::size_t k = 0; k <= N; ++k) v[k] = d[i - k * lag];
    for (std::size_t level = 1; level <= N; ++level) {
      for (std::size_t k = 0; k + level <= N; ++k) v[k] -= v[k + 1];
    }
    out[i] = static_cast<S>(v[0]);
  }
}

// Any number of stages: passes of differences over a copy, then the widening.
template <class W>
void CombPasses(const W* HWY_RESTRICT d, std::size_t count, std::size_t lag, std::size_t stages,
                std::int64_t* HWY_RESTRICT out, W* HWY_RESTRICT tmp) {
  using S = std::make_signed_t<W>;
  const std::size_t h = stages * lag, total = h + count;
  for (std::size_t i = 0; i < total; ++i) tmp[i] = d[i - h];
  for (std::size_t k = 1; k <= stages; ++k) {
    for (std::size_t i = total; i-- > k * lag;) tmp[i] -= tmp[i - lag];
  }
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<S>(tmp[h + i]);
}

template <class W>
void Comb(const W* d, std::size_t count, std::size_t lag, std::size_t stages, std::int64_t* out, W* tmp) {
  switch (stages) {
    case 1: return CombFused<1>(d, count, lag, out);
    case 2: return CombFused<2>(d, count, lag, out);
    case 3: return CombFused<3>(d, count, lag, out);
    case 4: return CombFused<4>(d, count, lag, out);
    case 5: return CombFused<5>(d, count, lag, out);
    case 6: return CombFused<6>(d, count, lag, out);
    case 7: return CombFused<7>(d, count, lag, out);
    case 8: return CombFused<8>(d, count, lag, out);
    default: return CombPasses(d, count, lag, stages, out, tmp);
  }
}

// v * scale rounded to the nearest integer (ties to even: adding and subtracting 1.5 * 2^23),
// checked against [lo, hi) and, when exact, for being an integer already; bad samples give 0.
// Returns whether every sample was good.
inline bool CicFloatToInt32(const float* HWY_RESTRICT v, std::size_t n, float scale, float lo, float hi, bool exact,
                            std::int32_t* HWY_RESTRICT out) {
  constexpr float kRound = 12582912.0f;
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const std::size_t w = hn::Lanes(df);
  const auto vscale = hn::Set(df, scale), vlo = hn::Set(df, lo), vhi = hn::Set(df, hi), vround = hn::Set(df, kRound);
  bool good = true;
  std::size_t i = 0;
  for (; i + w <= n; i += w) {
    const auto s = hn::Mul(hn::LoadU(df, v + i), vscale);
    const auto r = hn::Sub(hn::Add(s, vround), vround);
    auto ok = hn::And(hn::Ge(s, vlo), hn::Lt(s, vhi));
    if (exact) ok = hn::And(ok, hn::Eq(r, s));
    good &= hn::AllTrue(df, ok);
    hn::StoreU(hn::IfThenElseZero(hn::RebindMask(di, ok), hn::ConvertTo(di, r)), di, out + i);
  }
  for (; i < n; ++i) {
    const float s = v[i] * scale;
    const float r = (s + kRound) - kRound;
    const bool ok = s >= lo && s < hi && (!exact || r == s);
    good &= ok;
    out[i] = ok ? static_cast<std::int32_t>(r) : 0;
  }
  return good;
}

// y = T(double(x) / divisor); a power-of-two divisor multiplies by its reciprocal (the same
// result, bit for bit, without the division).
template <class T>
void Int64ToReal(const std::int64_t* HWY_RESTRICT x, std::size_t n, double divisor, T* HWY_RESTRICT y) {
  int exponent = 0;
  const bool power_of_two = std::frexp(divisor, &exponent) == 0.5;
  const double reciprocal = 1.0 / divisor;
  const hn::ScalableTag<double> dd;
  const hn::RebindToSigned<decltype(dd)> di;
  const hn::Rebind<T, decltype(dd)> dt;
  const std::size_t w = hn::Lanes(dd);
  const auto vdiv = hn::Set(dd, divisor), vrec = hn::Set(dd, reciprocal);
  std::size_t i = 0;
  for (; i + w <= n; i += w) {
    const auto v = hn::ConvertTo(dd, hn::LoadU(di, x + i));
    const auto q = power_of_two ? hn::Mul(v, vrec) : hn::Div(v, vdiv);
    if constexpr (sizeof(T) == 8) {
      hn::StoreU(q, dd, y + i);
    } else {
      hn::StoreU(hn::DemoteTo(dt, q), dt, y + i);
    }
  }
  for (; i < n; ++i) y[i] = static_cast<T>(power_of_two ? static_cast<double>(x[i]) * reciprocal : static_cast<double>(x[i]) / divisor);
}

inline void CicInt64ToF32(const std::int64_t* x, std::size_t n, double divisor, float* y) { Int64ToReal(x, n, divisor, y); }
inline void CicInt64ToF64(const std::int64_t* x, std::size_t n, double divisor, double* y) { Int64ToReal(x, n, divisor, y); }

inline std::size_t CicSegments() { return kCicSegments; }
inline std::size_t CicLaneSegments() { return kCicLaneSegments; }
inline void CicIntegrateLanes16(const std::int16_t* x, std::size_t n, std::size_t f, std::uint32_t* st, std::uint32_t* y) {
  IntegrateLanesImpl(x, n, f, st, y);
}
inline void CicIntegrateLanes32(const std::int32_t* x, std::size_t n, std::size_t f, std::uint32_t* st, std::uint32_t* y) {
  IntegrateLanesImpl(x, n, f, st, y);
}

inline void CicIntegrate16x32(const std::int16_t* x, std::size_t c, std::size_t n, std::size_t f, std::size_t s,
                              std::uint32_t* st, std::uint32_t* y) {
  Integrate(x, c, n, f, s, st, y);
}
inline void CicIntegrate16x64(const std::int16_t* x, std::size_t c, std::size_t n, std::size_t f, std::size_t s,
                              std::uint64_t* st, std::uint64_t* y) {
  Integrate(x, c, n, f, s, st, y);
}
inline void CicIntegrate32x32(const std::int32_t* x, std::size_t c, std::size_t n, std::size_t f, std::size_t s,
                              std::uint32_t* st, std::uint32_t* y) {
  Integrate(x, c, n, f, s, st, y);
}
inline void CicIntegrate32x64(const std::int32_t* x, std::size_t c, std::size_t n, std::size_t f, std::size_t s,
                              std::uint64_t* st, std::uint64_t* y) {
  Integrate(x, c, n, f, s, st, y);
}
inline void CicComb32(const std::uint32_t* d, std::size_t count, std::size_t lag, std::size_t n, std::int64_t* out,
                      std::uint32_t* tmp) {
  Comb(d, count, lag, n, out, tmp);
}
inline void CicComb64(const std::uint64_t* d, std::size_t count, std::size_t lag, std::size_t n, std::int64_t* out,
                      std::uint64_t* tmp) {
  Comb(d, count, lag, n, out, tmp);
}

}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
