// SIMD kernels of the lane FFT (see fft/lane_fft.hpp), compiled once per Highway target.
//
// A vector holds W interleaved complex values, one per lane; element e of a lane transform is
// vector e of a scratch buffer. Every butterfly is therefore plain vertical SIMD: no shuffles
// between lanes except Reverse2 (swap re/im) for multiplications by i and by twiddles.
//
// Direction lives in one place: Rot(x) multiplies by -i (forward) or +i (backward), and every
// constant twiddle c + s*(-/+ i) is applied as c*x + s*Rot(x).

// Per-target include guard (Highway's convention for -inl.h files).
#if defined(RIPPLE_CPU_FFT_LANE_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef RIPPLE_CPU_FFT_LANE_KERNELS_INL_H_
#undef RIPPLE_CPU_FFT_LANE_KERNELS_INL_H_
#else
#define RIPPLE_CPU_FFT_LANE_KERNELS_INL_H_
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "core/page_offsets.hpp"
#include "cpu/fft_kernels.hpp"
#include "cpu/transpose512-inl.h"
#include "fft/lane_fft.hpp"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using fft::detail::LaneFft;
using fft::detail::Pass;

// ---------------------------------------------------------------------------------------------
// Complex arithmetic on interleaved vectors.

// Vector registers of the target (x86 before AVX-512 has 16; AVX-512, NEON and SVE have 32).
#if HWY_ARCH_X86 && HWY_TARGET > HWY_AVX3
constexpr int kVectorRegisters = 16;
#else
constexpr int kVectorRegisters = 32;
#endif
inline constexpr bool kMultiplyAddRotations = kVectorRegisters >= 32;

template <class D>
struct Rotator {
  using V = hn::Vec<D>;
  V sign;  // xor mask applied after swapping re/im
  V unit;  // the same signs as factors +-1
  Rotator(D d, bool forward) {
    using T = hn::TFromD<D>;
    const V neg = hn::Set(d, T(-0.0)), pos = hn::Zero(d);
    // forward: x*(-i) = (xi, -xr): negate odd lanes; backward: x*(+i) = (-xi, xr): even lanes.
    sign = forward ? hn::OddEven(neg, pos) : hn::OddEven(pos, neg);
    unit = hn::Or(hn::Set(d, T(1)), sign);
  }
  HWY_INLINE V operator()(D d, V x) const { return hn::Xor(hn::Reverse2(d, x), sign); }
  // t + Rot(x) and t - Rot(x), exactly. With 32 registers as one multiply-add by +-1 each, no
  // xor, on the multiply pipes, which the butterflies' additions leave the less busy (one
  // thread, AVX-512 Zen 4, alternated processes: f64 N = 512 0.95x the time, 1024 0.96x, 1009
  // 0.90x; f32 N = 1000 0.90-0.95x). On AVX2's 16 the compiler then loaded a whole unrolled
  // transform's input at once, and a batch streamed from memory ran slower (f32 N = 64 x
  // 131072 1.1-1.2x the time).
  HWY_INLINE V add(D d, V t, V x) const {
    if constexpr (kMultiplyAddRotations) return hn::MulAdd(hn::Reverse2(d, x), unit, t);
    return hn::Add(t, (*this)(d, x));
  }
  HWY_INLINE V sub(D d, V t, V x) const {
    if constexpr (kMultiplyAddRotations) return hn::NegMulAdd(hn::Reverse2(d, x), unit, t);
    return hn::Sub(t, (*this)(d, x));
  }
};

// x * w for a constant w = c + s*(-/+i): c*x + s*Rot(x).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V MulConst(D d, const Rotator<D>& rot, V x, V c, V s) {
  if constexpr (kMultiplyAddRotations) return hn::MulAdd(hn::Reverse2(d, x), hn::Mul(s, rot.unit), hn::Mul(x, c));
  return hn::MulAdd(rot(d, x), s, hn::Mul(x, c));
}

// x * w for a twiddle broadcast as re (all lanes) and (-im, im, ...) pattern.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V MulTwiddle(D d, V x, V re, V im_alt) {
  return hn::MulAdd(hn::Reverse2(d, x), im_alt, hn::Mul(x, re));
}

// x * w for per-lane twiddles w stored interleaved like the data.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V MulLaneTwiddle(D d, V x, V w, V sign_even) {
  const V re = hn::DupEven(w);
  const V im_alt = hn::Xor(hn::DupOdd(w), sign_even);  // (-im, im, ...)
  return MulTwiddle(d, x, re, im_alt);
}

// ---------------------------------------------------------------------------------------------
// Butterflies: in-place DFTs of the vectors x[0..P).

template <class D, class V = hn::Vec<D>>
HWY_INLINE void Dft2(V& a, V& b) {
  const V t = a;
  a = hn::Add(t, b);
  b = hn::Sub(t, b);
}

// Natural order in and out.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void Dft4(D d, const Rotator<D>& rot, V& a0, V& a1, V& a2, V& a3) {
  const V t0 = hn::Add(a0, a2), t1 = hn::Sub(a0, a2);
  const V t2 = hn::Add(a1, a3), t3 = hn::Sub(a1, a3);
  a0 = hn::Add(t0, t2);
  a2 = hn::Sub(t0, t2);
  a1 = rot.add(d, t1, t3);
  a3 = rot.sub(d, t1, t3);
}

template <class D, class V = hn::Vec<D>>
HWY_INLINE void Dft8(D d, const Rotator<D>& rot, V* x) {
  using T = hn::TFromD<D>;
  const V h = hn::Set(d, T(0.707106781186547524400844362104849039L));
  Dft4(d, rot, x[0], x[2], x[4], x[6]);  // even inputs -> E0..E3 in x0,x2,x4,x6
  Dft4(d, rot, x[1], x[3], x[5], x[7]);  // odd inputs  -> O0..O3 in x1,x3,x5,x7
  const V o1 = hn::Mul(rot.add(d, x[3], x[3]), h);               // O1 * w8
  const V o3 = hn::Mul(rot.sub(d, x[7], x[7]), hn::Neg(h));     // O3 * w8^3
  const V e0 = x[0], e1 = x[2], e2 = x[4], e3 = x[6], o0 = x[1], o2 = x[5];  // O2 * w8^2 below
  x[0] = hn::Add(e0, o0);
  x[4] = hn::Sub(e0, o0);
  x[1] = hn::Add(e1, o1);
  x[5] = hn::Sub(e1, o1);
  x[2] = rot.add(d, e2, o2);
  x[6] = rot.sub(d, e2, o2);
  x[3] = hn::Add(e3, o3);
  x[7] = hn::Sub(e3, o3);
}

// 16 = 4 x 4. Output k1 + 4*k2 is left in x[4*k1 + k2] (see kDft16Order).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void Dft16(D d, const Rotator<D>& rot, V* x) {
  using T = hn::TFromD<D>;
  for (int n1 = 0; n1 < 4; ++n1) Dft4(d, rot, x[n1], x[n1 + 4], x[n1 + 8], x[n1 + 12]);
  const T c1 = T(0.923879532511286756128183189396788933L), s1 = T(0.382683432365089771728459984030398867L);
  const T h = T(0.707106781186547524400844362104849039L);
  // x[n1 + 4*k1] *= w16^(n1*k1)
  x[5] = MulConst(d, rot, x[5], hn::Set(d, c1), hn::Set(d, s1));     // ^1
  x[9] = MulConst(d, rot, x[9], hn::Set(d, h), hn::Set(d, h));       // ^2
  x[13] = MulConst(d, rot, x[13], hn::Set(d, s1), hn::Set(d, c1));   // ^3
  x[6] = MulConst(d, rot, x[6], hn::Set(d, h), hn::Set(d, h));       // ^2
  x[10] = rot(d, x[10]);                                             // ^4
  x[14] = MulConst(d, rot, x[14], hn::Set(d, -h), hn::Set(d, h));    // ^6
  x[7] = MulConst(d, rot, x[7], hn::Set(d, s1), hn::Set(d, c1));     // ^3
  x[11] = MulConst(d, rot, x[11], hn::Set(d, -h), hn::Set(d, h));    // ^6
  x[15] = MulConst(d, rot, x[15], hn::Set(d, -c1), hn::Set(d, -s1)); // ^9
  for (int k1 = 0; k1 < 4; ++k1) Dft4(d, rot, x[4 * k1], x[4 * k1 + 1], x[4 * k1 + 2], x[4 * k1 + 3]);
}
constexpr int kDft16Order[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};

// Odd prime p (compile-time P, or P = 0 with runtime p): the symmetric real/imaginary split.
// cos_t[t], sin_t[t] = cos, sin(2 pi t / p).
template <int P, class D, class V = hn::Vec<D>>
HWY_INLINE void DftOdd(D d, const Rotator<D>& rot, V* x, int p, const hn::TFromD<D>* cos_t,
                       const hn::TFromD<D>* sin_t) {
  if constexpr (P != 0) p = P;
  const int h = (p - 1) / 2;
  constexpr int kMaxHalf = (P != 0 ? (P - 1) / 2 : (fft::detail::kMaxGenericRadix - 1) / 2);
  V sum[kMaxHalf], dif[kMaxHalf];
  V y0 = x[0];
  for (int m = 1; m <= h; ++m) {
    sum[m - 1] = hn::Add(x[m], x[p - m]);
    dif[m - 1] = hn::Sub(x[m], x[p - m]);
    y0 = hn::Add(y0, sum[m - 1]);
  }
  if constexpr (P >= 11 && 4 * ((P - 1) / 2) <= kVectorRegisters) {
    // Outputs in the inner loop, both unrolled: 2h independent accumulators, so the
    // multiply-adds overlap, where output by output each waited on its own chain of h (one
    // thread, AVX-512 Zen 4, ripple/FFTW: f64 N = 143 1.18 -> 0.90, 169 1.18 -> 0.91, f32
    // N = 143 1.41 -> 0.79). The same sums in the same order. Only where the 4h vectors fit
    // in registers, and for the radices whose chains are long.
    V re[kMaxHalf], im[kMaxHalf];
#pragma GCC unroll 16
    for (int k = 1; k <= h; ++k) {
      re[k - 1] = x[0];
      im[k - 1] = hn::Zero(d);
    }
#pragma GCC unroll 16
    for (int m = 1; m <= h; ++m) {
      int t = 0;
#pragma GCC unroll 16
      for (int k = 1; k <= h; ++k) {
        t += m;
        if (t >= p) t -= p;
        re[k - 1] = hn::MulAdd(hn::Set(d, cos_t[t]), sum[m - 1], re[k - 1]);
        im[k - 1] = hn::MulAdd(hn::Set(d, sin_t[t]), dif[m - 1], im[k - 1]);
      }
    }
#pragma GCC unroll 16
    for (int k = 1; k <= h; ++k) {
      x[k] = rot.add(d, re[k - 1], im[k - 1]);
      x[p - k] = rot.sub(d, re[k - 1], im[k - 1]);
    }
  } else {
    for (int k = 1; k <= h; ++k) {
      V re = x[0], im = hn::Zero(d);
      int t = 0;
      for (int m = 1; m <= h; ++m) {
        t += k;
        if (t >= p) t -= p;
        re = hn::MulAdd(hn::Set(d, cos_t[t]), sum[m - 1], re);
        im = hn::MulAdd(hn::Set(d, sin_t[t]), dif[m - 1], im);
      }
      x[k] = rot.add(d, re, im);
      x[p - k] = rot.sub(d, re, im);
    }
  }
  x[0] = y0;
}

// DFT-3 of (a, b, c) in place, with c3, s3 = cos, sin(2 pi / 3).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void Dft3(D d, const Rotator<D>& rot, V& a, V& b, V& c, V c3, V s3) {
  const V sum = hn::Add(b, c), dif = hn::Sub(b, c);
  const V re = hn::MulAdd(sum, c3, a);
  const V r = hn::Mul(dif, s3);
  a = hn::Add(a, sum);
  b = rot.add(d, re, r);
  c = rot.sub(d, re, r);
}

// DFT-9 as 3 x 3 (input m = 3 m1 + m2, output k = k1 + 3 k2): DFT-3s over m1, twiddles
// w9^(m2 k1), DFT-3s over m2. Fewer operations and constants than the symmetric odd formula,
// which needs 4 x 4 products of table constants. cos_t, sin_t as for DftOdd with p = 9.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void Dft9(D d, const Rotator<D>& rot, V* x, const hn::TFromD<D>* cos_t, const hn::TFromD<D>* sin_t) {
  const V c3 = hn::Set(d, cos_t[3]), s3 = hn::Set(d, sin_t[3]);
  for (int m2 = 0; m2 < 3; ++m2) Dft3(d, rot, x[m2], x[m2 + 3], x[m2 + 6], c3, s3);
  const V c2 = hn::Set(d, cos_t[2]), s2 = hn::Set(d, sin_t[2]);
  x[4] = MulConst(d, rot, x[4], hn::Set(d, cos_t[1]), hn::Set(d, sin_t[1]));
  x[7] = MulConst(d, rot, x[7], c2, s2);
  x[5] = MulConst(d, rot, x[5], c2, s2);
  x[8] = MulConst(d, rot, x[8], hn::Set(d, cos_t[4]), hn::Set(d, sin_t[4]));
  for (int k1 = 0; k1 < 3; ++k1) Dft3(d, rot, x[3 * k1], x[3 * k1 + 1], x[3 * k1 + 2], c3, s3);
  // X[k1 + 3 k2] sits in x[3 k1 + k2]: transpose the 3 x 3.
  std::swap(x[1], x[3]);
  std::swap(x[2], x[6]);
  std::swap(x[5], x[7]);
}

// ---------------------------------------------------------------------------------------------
// One Stockham pass: element (i + ido*(j + P*k)) -> element (i + ido*(k + l1*j)), twiddled.
// load(e) and store(e, v) address elements, so the first pass can read the caller's data and
// the last pass write it, with no extra copy through scratch.
//
// L1 and IDO, when nonzero, fix the pass shape at compile time: every loop is then unrolled
// and every element index is a constant, so a short transform whose load/store go to local
// arrays lives in registers (the fixed-size kernels below).

// Lambdas of the unrolled kernels must inline: one left out of line takes the register arrays
// it touches by reference, in memory.
#define RIPPLE_FORCE_INLINE_LAMBDA HWY_ATTR __attribute__((always_inline))

template <std::size_t Count, class F, std::size_t... I>
HWY_INLINE void ForEachIndexImpl(const F& f, std::index_sequence<I...>) {
  (f(std::integral_constant<std::size_t, I>()), ...);
}
// f(integral_constant<0>) ... f(integral_constant<Count-1>), unrolled at compile time.
template <std::size_t Count, class F>
HWY_INLINE void ForEachIndex(const F& f) {
  ForEachIndexImpl<Count>(f, std::make_index_sequence<Count>());
}

// Passes run column by column (see RunPass) while a lane FFT's buffer is at most this large:
// beyond L2 the strided sweeps cost more than the twiddle loads they save (2-core Zen 3: f64
// N = 3125 0.86x, 1000 0.89x the time; N = 65536 and 10^6 1.14-1.38x without this limit).
constexpr std::size_t kColumnOrderMaxBytes = std::size_t{128} << 10;

// Where a pass stands in its lane FFT, when the caller knows. The first pass has l1 = 1 and
// the last ido = 1 (a lone pass both), so each runs one loop of butterflies with one kind of
// twiddle, where a pass of unknown position compiles three loops. Every loop inlines the
// butterfly with its accessors, and those of the first and last passes (strided, masked,
// twiddled) are the longest: with the position known, fft_kernels.cpp's AVX-512 target
// compiled in 49 s instead of 134. The loops are the same; timed (A/B, one thread, AVX-512,
// bench/results/fft-ab-cpu-passat-*.md) 0.93-1.04x over c2c f32/f64 N = 23 to 100000, batches
// of primes to 61 and r2c; f32 four-steps of fives 1.02-1.07x (N = 3125-78125; f64 0.97-1.01),
// as far as code placement alone moves them (fft-ab-cpu-fourstep-f32-*.md: this file's loops
// aligned to 64 bytes, f32 N = 3125 0.95-1.05x over six runs; this DispatchPass kept out of
// line, 1.065x).
enum class PassAt { any, first, last, only };

template <int P, std::size_t L1 = 0, std::size_t IDO = 0, PassAt kAt = PassAt::any, class D, class Load,
          class Store>
HWY_INLINE void RunPass(D d, const LaneFft<hn::TFromD<D>>& plan, const Pass& pass, const Load& load_ref,
                        const Store& store_ref) {
  using T = hn::TFromD<D>;
  using V = hn::Vec<D>;
  // Local copies: through the references, every store to memory could change what the
  // accessors captured, so the compiler reloaded their pointers and strides for each element.
  const Load load = load_ref;
  const Store store = store_ref;
  const Rotator<D> rot(d, plan.forward);
  const int p = P != 0 ? P : pass.radix;
  const std::size_t l1 = L1 != 0 ? L1 : pass.l1, ido = IDO != 0 ? IDO : pass.ido;
  const T* tw_re = plan.twiddle_re.data() + pass.twiddle_offset;
  const T* tw_im = plan.twiddle_im_alt.data() + pass.twiddle_offset * LaneFft<T>::kImAltStride;
  const T* cos_t = plan.generic_cos.data() + pass.generic_offset;
  const T* sin_t = plan.generic_sin.data() + pass.generic_offset;
  constexpr int kSlots = P != 0 ? P : fft::detail::kMaxGenericRadix;
  // twiddle(j, y): output j of the butterfly times its twiddle (or y itself).
  const auto butterfly = [&](auto k, auto i, const auto& twiddle) RIPPLE_FORCE_INLINE_LAMBDA {
    V x[kSlots];
    const std::size_t src = i + ido * p * k;
    // In the fixed-shape kernels the element loops are unrolled (ForEachIndex), so x[] lives
    // in registers. Unrolling them in the run-time-shape passes too measured no faster here
    // and compiled this file in 1.5x the time.
    const auto each_j = [&](const auto& f) RIPPLE_FORCE_INLINE_LAMBDA {
      if constexpr (P != 0 && L1 != 0) {
        ForEachIndex<std::size_t(P)>(f);
      } else {
        for (int j = 0; j < p; ++j) f(std::size_t(j));
      }
    };
    each_j([&](auto j) RIPPLE_FORCE_INLINE_LAMBDA { x[j] = load(src + ido * j); });
    if constexpr (P == 2) {
      Dft2<D>(x[0], x[1]);
    } else if constexpr (P == 4) {
      Dft4(d, rot, x[0], x[1], x[2], x[3]);
    } else if constexpr (P == 8) {
      Dft8(d, rot, x);
    } else if constexpr (P == 16) {
      Dft16(d, rot, x);
    } else if constexpr (P == 9) {
      Dft9(d, rot, x, cos_t, sin_t);
    } else {
      DftOdd<P>(d, rot, x, p, cos_t, sin_t);
    }
    const std::size_t dst = i + ido * k, out_step = ido * l1;
    each_j([&](auto j) RIPPLE_FORCE_INLINE_LAMBDA {
      V y;
      if constexpr (P == 16) {
        y = x[kDft16Order[j]];
      } else {
        y = x[j];
      }
      store(dst + j * out_step, twiddle(j, y));
    });
  };
  const auto tw_index = [&](std::size_t j, std::size_t i) RIPPLE_FORCE_INLINE_LAMBDA { return (j - 1) * ido + i; };
  const auto table_twiddle = [&](auto i) RIPPLE_FORCE_INLINE_LAMBDA {
    return [&, i](auto j, V y) RIPPLE_FORCE_INLINE_LAMBDA {
      if (j > 0 && i > 0) {
        const std::size_t t = tw_index(j, i);
        y = MulTwiddle(d, y, hn::Set(d, tw_re[t]), hn::LoadDup128(d, tw_im + t * LaneFft<T>::kImAltStride));
      }
      return y;
    };
  };
  if constexpr (L1 != 0 && IDO != 0) {
    ForEachIndex<L1>([&](auto k) RIPPLE_FORCE_INLINE_LAMBDA {
      ForEachIndex<IDO>([&](auto i) RIPPLE_FORCE_INLINE_LAMBDA { butterfly(k, i, table_twiddle(i)); });
    });
  } else if constexpr (kAt == PassAt::last || kAt == PassAt::only) {
    // ido = 1: every butterfly is column 0, whose twiddles are all 1.
    const auto none = [](auto, V y) RIPPLE_FORCE_INLINE_LAMBDA { return y; };
    for (std::size_t k = 0; k < l1; ++k) butterfly(k, std::size_t{0}, none);
  } else if constexpr (kAt == PassAt::first) {
    // l1 = 1 < ido (a first pass that is not the last): one row, each column's own twiddles.
    for (std::size_t i = 0; i < ido; ++i) butterfly(std::size_t{0}, i, table_twiddle(i));
  } else if (P != 0 && l1 >= ido && (ido == 1 || plan.n * hn::Lanes(d) * sizeof(T) <= kColumnOrderMaxBytes)) {
    // More butterflies share a twiddle column than there are columns: columns outside, so
    // each column's twiddles are loaded once (the tables may alias the stores, so the
    // compiler could not hoist them itself) and column 0, which has none, skips them.
    // Column by column strides through the buffers, so only while they stay in cache.
    const auto none = [](auto, V y) RIPPLE_FORCE_INLINE_LAMBDA { return y; };
    for (std::size_t k = 0; k < l1; ++k) butterfly(k, std::size_t{0}, none);
    V w_re[kSlots], w_im[kSlots];
    const auto column_twiddle = [&](auto j, V y) RIPPLE_FORCE_INLINE_LAMBDA {
      return j > 0 ? MulTwiddle(d, y, w_re[j], w_im[j]) : y;
    };
    for (std::size_t i = 1; i < ido; ++i) {
      for (int j = 1; j < p; ++j) {
        const std::size_t t = tw_index(std::size_t(j), i);
        w_re[j] = hn::Set(d, tw_re[t]);
        w_im[j] = hn::LoadDup128(d, tw_im + t * LaneFft<T>::kImAltStride);
      }
      for (std::size_t k = 0; k < l1; ++k) butterfly(k, i, column_twiddle);
    }
  } else {
    for (std::size_t k = 0; k < l1; ++k)
      for (std::size_t i = 0; i < ido; ++i) butterfly(k, i, table_twiddle(i));
  }
}

template <PassAt kAt, class D, class Load, class Store>
void DispatchPass(D d, const LaneFft<hn::TFromD<D>>& plan, const Pass& pass, const Load& load,
                  const Store& store) {
  switch (pass.radix) {
    case 2: return RunPass<2, 0, 0, kAt>(d, plan, pass, load, store);
    case 3: return RunPass<3, 0, 0, kAt>(d, plan, pass, load, store);
    case 4: return RunPass<4, 0, 0, kAt>(d, plan, pass, load, store);
    case 5: return RunPass<5, 0, 0, kAt>(d, plan, pass, load, store);
    case 7: return RunPass<7, 0, 0, kAt>(d, plan, pass, load, store);
    case 8: return RunPass<8, 0, 0, kAt>(d, plan, pass, load, store);
    case 9: return RunPass<9, 0, 0, kAt>(d, plan, pass, load, store);
    case 16: return RunPass<16, 0, 0, kAt>(d, plan, pass, load, store);
#if HWY_TARGET != HWY_SSE4
    // Unrolled, the butterflies of 11 and 13 keep their sums and differences in registers,
    // where the run-time radix's arrays live on the stack (one thread, AVX-512 Zen 4,
    // ripple/FFTW: f64 N = 66 2.5 -> 1.4-1.5, 110 2.2-2.3 -> 1.25-1.3, 198 1.9-2.5 -> 1.2;
    // f32 N = 52 1.5-1.6 -> 1.1-1.25, 88 1.34 -> 1.0). Not for the x86 baseline (the
    // sanitizer build's only target): about a minute more of compile time per target.
    case 11: return RunPass<11, 0, 0, kAt>(d, plan, pass, load, store);
    case 13: return RunPass<13, 0, 0, kAt>(d, plan, pass, load, store);
#endif
    default: return RunPass<0, 0, 0, kAt>(d, plan, pass, load, store);
  }
}

// Runs every pass: the first reads through `load`, the last writes through `store`, the
// others ping-pong between the two scratch buffers (each n vectors).
template <class D, class Load, class Store>
void RunLaneFft(D d, const LaneFft<hn::TFromD<D>>& plan, hn::TFromD<D>* buf0, hn::TFromD<D>* buf1,
                const Load& load, const Store& store) {
  using V = hn::Vec<D>;
  const std::size_t L = hn::Lanes(d);
  const auto& passes = plan.passes;
  if (passes.empty()) {
    for (std::size_t e = 0; e < plan.n; ++e) store(e, load(e));
    return;
  }
  hn::TFromD<D>* from = buf0;
  hn::TFromD<D>* to = buf1;
  for (std::size_t q = 0; q < passes.size(); ++q) {
    const bool first = q == 0, last = q + 1 == passes.size();
    // Captured by value: the compiler then knows stores cannot move these pointers.
    const auto load_buf = [d, from, L](std::size_t e) { return hn::Load(d, from + e * L); };
    const auto store_buf = [d, to, L](std::size_t e, V v) { hn::Store(v, d, to + e * L); };
    if (first && last) {
      DispatchPass<PassAt::only>(d, plan, passes[q], load, store);
    } else if (first) {
      DispatchPass<PassAt::first>(d, plan, passes[q], load, store_buf);
    } else if (last) {
      DispatchPass<PassAt::last>(d, plan, passes[q], load_buf, store);
    } else {
      DispatchPass<PassAt::any>(d, plan, passes[q], load_buf, store_buf);
    }
    std::swap(from, to);
  }
}

// ---------------------------------------------------------------------------------------------
// A panel: up to W strided complex sequences gathered into lanes, transformed, written back.

// The first `count` lanes of v (a whole number of complex values) stored at p, nothing past
// them. AVX-512 masks the store; AVX2's masked stores are microcoded on AMD (a direct r2c-f32
// of N = 1 took 19 against 16 ns), and SSE4's BlendedStore is a scalar loop, so elsewhere the
// vector is stored in halves, quarters, ... whole. Through a stack tile, the copy's reloads
// waited for the tile's wide store.
template <class D>
HWY_INLINE void StoreFirstLanes(D d, hn::Vec<D> v, std::size_t count, hn::TFromD<D>* HWY_RESTRICT p) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  hn::BlendedStore(v, hn::FirstN(d, count), d, p);
#else
  if (count == hn::Lanes(d)) return hn::StoreU(v, d, p);
  if constexpr (hn::MaxLanes(D()) > 2) {
    const hn::Half<D> dh;
    const std::size_t half = hn::Lanes(dh);
    if (count < half) return StoreFirstLanes(dh, hn::LowerHalf(dh, v), count, p);
    hn::StoreU(hn::LowerHalf(dh, v), dh, p);
    if (count > half) StoreFirstLanes(dh, hn::UpperHalf(dh, v), count - half, p + half);
  }
#endif
}

// The first `count` lanes at p (a whole number of complex values) and zeros, reading nothing
// past them: a masked load on AVX2 and AVX-512, where it cannot fault on the lanes it skips;
// SSE4's MaskedLoad reads the whole vector, so there through a zeroed stack tile.
template <class D>
HWY_INLINE hn::Vec<D> LoadFirstLanes(D d, const hn::TFromD<D>* HWY_RESTRICT p, std::size_t count) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
  return hn::MaskedLoad(hn::FirstN(d, count), d, p);
#else
  HWY_ALIGN hn::TFromD<D> tile[hn::MaxLanes(D())] = {};
  std::copy_n(p, count, tile);
  return hn::Load(d, tile);
#endif
}

template <class D>
struct LaneAccess {
  using T = hn::TFromD<D>;
  // Gather lanes as 64-bit words: one complex float, or half a complex double.
  using DW = hn::Repartition<double, D>;
  using DI = hn::RebindToSigned<DW>;
  // Vectors of exactly two complex doubles (AVX2) move as two 128-bit halves.
  static constexpr bool kTwoHalves = sizeof(T) == 8 && hn::MaxLanes(D()) == 4;
  hn::Vec<DI> index;
  bool contiguous;  // lane stride 1 (in complex units): plain vector access
  std::size_t count;
  std::ptrdiff_t lane_stride;

  LaneAccess(D d, std::ptrdiff_t stride, std::size_t lanes_used)
      : index(hn::Zero(DI())),
        contiguous(stride == 1 || hn::Lanes(d) == 2),  // one lane per vector: plain access
        count(lanes_used),
        lane_stride(stride) {
    if (contiguous || kTwoHalves) return;  // the gather index is only needed for a gather
    const DW dw;
    constexpr std::size_t kWordsPerComplex = sizeof(std::complex<T>) / 8;
    HWY_ALIGN int64_t idx[hn::MaxLanes(DW())];
    for (std::size_t q = 0; q < hn::Lanes(dw); ++q) {
      const std::size_t lane = std::min(q / kWordsPerComplex, lanes_used - 1);  // clamp: stay in bounds
      idx[q] = static_cast<int64_t>(lane) * stride * int64_t(kWordsPerComplex) +
               int64_t(q % kWordsPerComplex);
    }
    index = hn::Load(DI(), idx);
  }

  HWY_INLINE hn::Vec<D> load(D d, const T* base) const {
    const std::size_t L = hn::Lanes(d);
    if (contiguous) {
      if (2 * count == L) return hn::LoadU(d, base);
      return LoadFirstLanes(d, base, 2 * count);
    }
    if constexpr (kTwoHalves) {
      // Two complex doubles: two 128-bit loads beat a gather of four words.
      const hn::Half<D> dh;
      const T* upper = base + 2 * (count > 1 ? lane_stride : 0);
      return hn::Combine(d, hn::LoadU(dh, upper), hn::LoadU(dh, base));
    } else {
      const DW dw;
      return hn::BitCast(d, hn::GatherIndex(dw, reinterpret_cast<const double*>(base), index));
    }
  }

  HWY_INLINE void store(D d, hn::Vec<D> v, T* base) const {
    const std::size_t L = hn::Lanes(d);
    if (contiguous) {
      if (2 * count == L) return hn::StoreU(v, d, base);
      return StoreFirstLanes(d, v, 2 * count, base);
    }
    if constexpr (kTwoHalves) {
      const hn::Half<D> dh;
      hn::StoreU(hn::LowerHalf(dh, v), dh, base);
      if (count > 1) hn::StoreU(hn::UpperHalf(dh, v), dh, base + 2 * lane_stride);
      return;
    }
    HWY_ALIGN T lanes[hn::MaxLanes(D())];
    hn::Store(v, d, lanes);
    for (std::size_t l = 0; l < count; ++l) {
      base[2 * l * lane_stride] = lanes[2 * l];
      base[2 * l * lane_stride + 1] = lanes[2 * l + 1];
    }
  }
};

// W x W block of complex values, transposed in registers where the vector shape has a short
// shuffle sequence (512-bit: 8 complex floats or 4 complex doubles; 256-bit: 4 complex floats
// or 2 complex doubles; 128-bit: 2 complex floats), else through a small stack tile in L1.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void TransposeComplex(D d, V* v) {
  using T = hn::TFromD<D>;
  constexpr std::size_t kMax = hn::MaxLanes(D()) / 2;
  constexpr std::size_t kBytes = hn::MaxLanes(D()) * sizeof(T);
  const hn::Repartition<double, D> dd;  // one complex float per 64-bit lane
  if constexpr (kBytes == 32 && kMax == 4) {
    const auto a = hn::BitCast(dd, v[0]), b = hn::BitCast(dd, v[1]);
    const auto c = hn::BitCast(dd, v[2]), e = hn::BitCast(dd, v[3]);
    const auto t0 = hn::InterleaveLower(a, b), t1 = hn::InterleaveUpper(dd, a, b);
    const auto t2 = hn::InterleaveLower(c, e), t3 = hn::InterleaveUpper(dd, c, e);
    v[0] = hn::BitCast(d, hn::ConcatLowerLower(dd, t2, t0));
    v[1] = hn::BitCast(d, hn::ConcatLowerLower(dd, t3, t1));
    v[2] = hn::BitCast(d, hn::ConcatUpperUpper(dd, t2, t0));
    v[3] = hn::BitCast(d, hn::ConcatUpperUpper(dd, t3, t1));
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  } else if constexpr (kBytes == 64 && kMax == 4 && sizeof(T) == 8) {
    // Through the stack tile below instead, the reload of four blocks stored one by one
    // stalled store forwarding (f64 N = 64-256 on AVX-512 Zen 4 took 1.2-1.4x as long).
    TransposeBlocks512(d, v, 0, 1);  // one complex double per block
  } else if constexpr (kBytes == 64 && kMax == 8) {
    Transpose64BitWords512(d, v);  // one complex float per word
#endif
  } else if constexpr (kBytes == 32 && kMax == 2) {
    const V lo = hn::ConcatLowerLower(d, v[1], v[0]);
    v[1] = hn::ConcatUpperUpper(d, v[1], v[0]);
    v[0] = lo;
  } else if constexpr (kBytes == 16 && kMax == 2 && sizeof(T) == 4) {
    const auto a = hn::BitCast(dd, v[0]), b = hn::BitCast(dd, v[1]);
    v[0] = hn::BitCast(d, hn::InterleaveLower(a, b));
    v[1] = hn::BitCast(d, hn::InterleaveUpper(dd, a, b));
  } else {
    const std::size_t w = hn::Lanes(d) / 2;
    HWY_ALIGN T tile[2 * kMax * kMax];
    HWY_ALIGN T flipped[2 * kMax * kMax];
    for (std::size_t r = 0; r < w; ++r) hn::Store(v[r], d, tile + 2 * r * w);
    for (std::size_t r = 0; r < w; ++r)
      for (std::size_t c = 0; c < w; ++c) {
        flipped[2 * (c * w + r)] = tile[2 * (r * w + c)];
        flipped[2 * (c * w + r) + 1] = tile[2 * (r * w + c) + 1];
      }
    for (std::size_t r = 0; r < w; ++r) v[r] = hn::Load(d, flipped + 2 * r * w);
  }
}

// v[k] = complex element k of the W rows src + i * stride (stride in values of T): with
// AVX-512 loaded in 256-bit halves (LoadTransposed512: 4 x 4 complex doubles in 4 shuffles
// instead of 8, 8 x 8 complex floats in 16 instead of 24), elsewhere loaded whole and
// transposed in registers.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void LoadComplexTransposed(D d, const hn::TFromD<D>* src, std::ptrdiff_t stride, V* v) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if constexpr (hn::MaxLanes(D()) * sizeof(hn::TFromD<D>) == 64) {
    LoadTransposed512<2 * sizeof(hn::TFromD<D>)>(d, src, stride, v);
    return;
  }
#endif
  for (std::size_t i = 0; i < hn::Lanes(d) / 2; ++i) v[i] = hn::LoadU(d, src + std::ptrdiff_t(i) * stride);
  TransposeComplex(d, v);
}

// The reverse of LoadComplexTransposed (v is clobbered).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void StoreComplexTransposed(D d, V* v, hn::TFromD<D>* dst, std::ptrdiff_t stride) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if constexpr (hn::MaxLanes(D()) * sizeof(hn::TFromD<D>) == 64) {
    StoreTransposed512<2 * sizeof(hn::TFromD<D>)>(d, v, dst, stride, false);
    return;
  }
#endif
  TransposeComplex(d, v);
  for (std::size_t i = 0; i < hn::Lanes(d) / 2; ++i) hn::StoreU(v[i], d, dst + std::ptrdiff_t(i) * stride);
}

// Sequences whose elements are contiguous but whose lanes are far apart (a batch of whole
// transforms): W x W blocks are loaded row by row and transposed in registers, instead of one
// gather per element. `to_lanes` moves sequences -> lane vectors, otherwise back. Where W does
// not divide n, the last block's rows are read and written in masked parts of r < W values,
// nothing past them (the last sequence may end the caller's array).
template <class D>
HWY_INLINE void TransposeBlocks(D d, std::size_t n, const hn::TFromD<D>* seq, std::ptrdiff_t seq_stride,
                                hn::TFromD<D>* vecs, bool to_lanes, hn::TFromD<D>* seq_out) {
  using V = hn::Vec<D>;
  const std::size_t L = hn::Lanes(d), w = L / 2;
  constexpr std::size_t kMax = hn::MaxLanes(D()) / 2;
  V v[kMax];
  const std::size_t whole = n - n % w;
  for (std::size_t e0 = 0; e0 < whole; e0 += w) {
    if (to_lanes) {
      LoadComplexTransposed(d, seq + 2 * std::ptrdiff_t(e0), 2 * seq_stride, v);
      for (std::size_t j = 0; j < w; ++j) hn::Store(v[j], d, vecs + (e0 + j) * L);
    } else {
      for (std::size_t j = 0; j < w; ++j) v[j] = hn::Load(d, vecs + (e0 + j) * L);
      StoreComplexTransposed(d, v, seq_out + 2 * std::ptrdiff_t(e0), 2 * seq_stride);
    }
  }
  const std::size_t r = n - whole;
  if (r == 0) return;
  const std::ptrdiff_t row = 2 * seq_stride;
  if (to_lanes) {
    for (std::size_t j = 0; j < w; ++j)
      v[j] = LoadFirstLanes(d, seq + 2 * std::ptrdiff_t(whole) + std::ptrdiff_t(j) * row, 2 * r);
    TransposeComplex(d, v);
    for (std::size_t k = 0; k < r; ++k) hn::Store(v[k], d, vecs + (whole + k) * L);
  } else {
    for (std::size_t k = 0; k < w; ++k) v[k] = k < r ? hn::Load(d, vecs + (whole + k) * L) : hn::Zero(d);
    TransposeComplex(d, v);
    for (std::size_t j = 0; j < w; ++j)
      StoreFirstLanes(d, v[j], 2 * r, seq_out + 2 * std::ptrdiff_t(whole) + std::ptrdiff_t(j) * row);
  }
}

// The next group's sequences, asked for while this group is transformed (null: none, or not
// worth it). Whole transforms a batch apart are read and written block by block, W rows at
// once, in bursts the hardware prefetchers do not follow; requested one line per element in
// the first pass (reads) and the last (writes), they arrive while the passes run.
template <class T>
struct PanelAhead {
  const T* src = nullptr;
  T* dst = nullptr;
};

// Up to this many bytes per group, the next group's lines fit in L1 beside this one's buffers.
// Measured with AVX-512 on c2c f32 batches of 8 and 64 MiB, out of place: N = 60, 100, 125 and
// 250 took 10-45% less time; 150, 180, 300 and 500 about the same; 768 2% more, 1024 and 2048
// 7-10% more.
inline constexpr std::size_t kPanelAheadBytes = 16 * 1024;

// The lines of an `ahead` group that element e of a pass asks for: kW rows of row_bytes,
// element e -> row e % kW, line e / kW (n elements cover every line of kW rows whose vectors
// are a cache line each, as with AVX-512; narrower vectors need fewer).
template <std::size_t kW>
struct LineRequests {
  const char* rows = nullptr;  // null: none
  std::ptrdiff_t row_step = 0;
  std::size_t row_bytes = 0;

  template <bool kForWrite>
  HWY_INLINE void request(std::size_t e) const {
    if (rows == nullptr) return;
    const std::size_t offset = e / kW * 64;
    if (offset < row_bytes)
      __builtin_prefetch(rows + std::ptrdiff_t(e % kW) * row_step + std::ptrdiff_t(offset), kForWrite ? 1 : 0, 3);
  }
};

// Only AVX-512 requests ahead (measured there): a panel kernel of its own, so that every other
// panel runs the code it ran before (with the requests' checks in it, a 64^3 c2c f32, whose
// panels request nothing, took 9-20% longer).
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
inline constexpr bool kPanelRequestsAhead = true;
#else
inline constexpr bool kPanelRequestsAhead = false;
#endif

// Which sides of a group of `lanes` sequences go through block transposes: whole transforms
// far apart with contiguous elements, a full group at the widest W.
struct BlockStaging {
  bool in = false, out = false;
};

template <class D>
HWY_INLINE BlockStaging BlockStagingOf(D d, const PanelArgs<hn::TFromD<D>>& a, std::size_t lanes) {
  const std::size_t w = hn::Lanes(d) / 2;
  if (w <= 1 || w != hn::MaxLanes(D()) / 2 || lanes != w) return {};
  return {a.src_lane_stride != 1 && a.src_elem_stride == 1, a.dst_lane_stride != 1 && a.dst_elem_stride == 1};
}

// buffers: the two the passes ping-pong between and the staging one, n vectors each.
template <class D, bool kAhead = false>
void RunPanelWith(D d, const PanelArgs<hn::TFromD<D>>& a, const std::array<std::byte*, 3>& buffers,
                  const PanelAhead<hn::TFromD<D>>& ahead = {}) {
  using T = hn::TFromD<D>;
  using V = hn::Vec<D>;
  const std::size_t L = hn::Lanes(d);
  const std::size_t n = a.plan->n;
  T* const stage = reinterpret_cast<T*>(buffers[2]);
  const BlockStaging staging = BlockStagingOf(d, a, a.lanes);
  const bool stage_in = staging.in, stage_out = staging.out;
  const LaneAccess<D> src(d, stage_in ? 1 : a.src_lane_stride, a.lanes);
  const LaneAccess<D> dst(d, stage_out ? 1 : a.dst_lane_stride, a.lanes);
  const T* in = reinterpret_cast<const T*>(a.src);
  T* out = reinterpret_cast<T*>(a.dst);
  std::ptrdiff_t src_step = 2 * a.src_elem_stride, dst_step = 2 * a.dst_elem_stride;
  if (stage_in) {
    TransposeBlocks(d, n, in, a.src_lane_stride, stage, true, nullptr);
    in = stage;
    src_step = std::ptrdiff_t(L);
  }
  T* const final_out = out;
  if (stage_out) {
    out = stage;  // safe when staged in too: only a single pass reads and writes it, in place
    dst_step = std::ptrdiff_t(L);
  }
  const V scale = hn::Set(d, a.scale);
  const bool scaled = a.scale != T(1);
  const V sign_even = hn::OddEven(hn::Zero(d), hn::Set(d, T(-0.0)));
  const T* tw = reinterpret_cast<const T*>(a.lane_twiddles);
  const std::ptrdiff_t tw_step = 2 * a.twiddle_elem_stride;
  // The accessors by reference: copied into a closure, their fields, just stored one by one,
  // were reloaded as whole vectors, a stalled store forwarding on every call (a seventh of
  // the wide kernel's own time at f64 N = 104 on AVX-512).
  const auto store = [d, &dst, out, dst_step, tw, tw_step, scaled, scale, sign_even](std::size_t e, V y) {
    if (tw != nullptr) y = MulLaneTwiddle(d, y, hn::LoadU(d, tw + std::ptrdiff_t(e) * tw_step), sign_even);
    if (scaled) y = hn::Mul(y, scale);
    dst.store(d, y, out + std::ptrdiff_t(e) * dst_step);
  };
  T* const buffer0 = reinterpret_cast<T*>(buffers[0]);
  T* const buffer1 = reinterpret_cast<T*>(buffers[1]);
  if constexpr (kAhead) {
    // Requests go only with block transposes, whose W is the widest.
    using Requests = LineRequests<hn::MaxLanes(D()) / 2>;
    const std::size_t row_bytes = 2 * n * sizeof(T);
    const Requests ahead_in{stage_in ? reinterpret_cast<const char*>(ahead.src) : nullptr,
                            2 * a.src_lane_stride * std::ptrdiff_t(sizeof(T)), row_bytes};
    const Requests ahead_out{stage_out ? reinterpret_cast<const char*>(ahead.dst) : nullptr,
                             2 * a.dst_lane_stride * std::ptrdiff_t(sizeof(T)), row_bytes};
    const auto load = [d, &src, in, src_step, &ahead_in](std::size_t e) {
      ahead_in.template request<false>(e);
      return src.load(d, in + std::ptrdiff_t(e) * src_step);
    };
    const auto store_ahead = [&store, &ahead_out](std::size_t e, V y) {
      ahead_out.template request<true>(e);
      store(e, y);
    };
    RunLaneFft(d, *a.plan, buffer0, buffer1, load, store_ahead);
  } else {
    const auto load = [d, &src, in, src_step](std::size_t e) { return src.load(d, in + std::ptrdiff_t(e) * src_step); };
    RunLaneFft(d, *a.plan, buffer0, buffer1, load, store);
  }
  if (stage_out) TransposeBlocks(d, n, nullptr, a.dst_lane_stride, stage, false, final_out);
}

// Any number of sequences, W at a time; a lone sequence runs on vectors of exactly one complex
// value (no idle lanes, no gathers).
template <class D, class T = hn::TFromD<D>>
void RunPanelOn(D d, const PanelArgs<T>& a) {
  // Placed once for all the groups: with whole transforms a group's stride apart, their page
  // offsets are alike.
  const std::size_t vectors = a.plan->n * (a.lanes == 1 ? 2 : hn::Lanes(d));
  const auto buffers = core::place_apart<3>(reinterpret_cast<std::byte*>(a.scratch), vectors * sizeof(T),
                                            std::array<const void*, 3>{a.src, a.dst, a.lane_twiddles});
  if (a.lanes == 1) return RunPanelWith(hn::CappedTag<T, 2>(), a, buffers);
  const std::size_t w = hn::Lanes(d) / 2;
  const BlockStaging staging = BlockStagingOf(d, a, w);
  const bool request_ahead =
      kPanelRequestsAhead && (staging.in || staging.out) && w * 2 * a.plan->n * sizeof(T) <= kPanelAheadBytes;
  PanelArgs<T> group = a;
  for (std::size_t first = 0; first < a.lanes; first += w) {
    group.lanes = std::min(w, a.lanes - first);
    group.src = a.src + std::ptrdiff_t(first) * a.src_lane_stride;
    group.dst = a.dst + std::ptrdiff_t(first) * a.dst_lane_stride;
    if (a.lane_twiddles != nullptr) group.lane_twiddles = a.lane_twiddles + first;
    if constexpr (kPanelRequestsAhead) {
      if (request_ahead && first + 2 * w <= a.lanes) {
        PanelAhead<T> ahead;
        ahead.src = reinterpret_cast<const T*>(group.src + std::ptrdiff_t(w) * a.src_lane_stride);
        ahead.dst = reinterpret_cast<T*>(group.dst + std::ptrdiff_t(w) * a.dst_lane_stride);
        RunPanelWith<D, true>(d, group, buffers, ahead);
        continue;
      }
    }
    RunPanelWith(d, group, buffers);
  }
}

template <class T>
void RunPanel(const PanelArgs<T>& a) {
  RunPanelOn(hn::ScalableTag<T>(), a);
}

// The wide kernels' last stage for one block: v[l] holds lanes k1 = g..g+W-1 of column l of
// Y (a W x W block of its rows transposed, missing rows zero); finished with the size-W
// butterfly and scaled, it is stored as X[g + m*k2], k2 < W.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void WideBlockButterfly(D d, const Rotator<D>& rot, V* v) {
  constexpr std::size_t kW = hn::MaxLanes(D()) / 2;
  if constexpr (kW == 2) {
    Dft2<D>(v[0], v[1]);
  } else if constexpr (kW == 4) {
    Dft4(d, rot, v[0], v[1], v[2], v[3]);
  } else if constexpr (kW == 8) {
    Dft8(d, rot, v);
  }
}

template <class D, class V = hn::Vec<D>>
HWY_INLINE void FinishWideBlock(D d, const Rotator<D>& rot, V* v, V scale, std::size_t g, std::size_t m,
                                const LaneAccess<D>& to, hn::TFromD<D>* out, std::ptrdiff_t dst_stride) {
  constexpr std::size_t kW = hn::MaxLanes(D()) / 2;
  WideBlockButterfly(d, rot, v);
  for (std::size_t k2 = 0; k2 < kW; ++k2)
    to.store(d, hn::Mul(v[k2], scale), out + 2 * std::ptrdiff_t(g + m * k2) * dst_stride);
}

// The wide kernels' last stage over all of Y (m vectors, twiddled): transpose each W x W block,
// finish it with a size-W butterfly, store X[k1 + m*k2].
template <class D, class T = hn::TFromD<D>>
HWY_INLINE void FinishWide(D d, const WideArgs<T>& a, const T* y, std::size_t m) {
  using V = hn::Vec<D>;
  const std::size_t L = hn::Lanes(d), w = L / 2;
  const Rotator<D> rot(d, a.plan->forward);
  const V scale = hn::Set(d, a.scale);
  const LaneAccess<D> dst(d, a.dst_stride, w);
  T* out = reinterpret_cast<T*>(a.dst);
  constexpr std::size_t kMax = hn::MaxLanes(D()) / 2;
  // v is local to each block so it lives in registers: a block array shared by the calls
  // went through the stack, with a store-forwarding stall on every block.
  const auto finish = [&](std::size_t g, std::size_t rows, const LaneAccess<D>& to) HWY_ATTR {
    V v[kMax > 0 ? kMax : 1];
    if (rows == kMax) {
      LoadComplexTransposed(d, y + g * L, std::ptrdiff_t(L), v);
    } else {
      for (std::size_t r = 0; r < kMax; ++r) v[r] = r < rows ? hn::Load(d, y + (g + r) * L) : hn::Zero(d);
      TransposeComplex(d, v);
    }
    FinishWideBlock(d, rot, v, scale, g, m, to, out, a.dst_stride);
  };
  const std::size_t full = m - m % w;
  for (std::size_t g = 0; g < full; g += w) finish(g, w, dst);
  if (full < m) finish(full, m - full, LaneAccess<D>(d, a.dst_stride, m - full));
}

template <class D, class T = hn::TFromD<D>>
void RunWideOn(D d, const WideArgs<T>& a) {
  using V = hn::Vec<D>;
  const std::size_t L = hn::Lanes(d), w = L / 2, m = a.plan->n;
  // Vectors of 2, 4 or 8 complex values that fill the tag (the full width of every x86 and
  // Arm target, or a narrower tag on one); the planner only uses this kernel on those.
  if (w != hn::MaxLanes(D()) / 2 || w < 2 || w > 8) return;
  const auto buffers = core::place_apart<2>(reinterpret_cast<std::byte*>(a.scratch), m * L * sizeof(T),
                                            std::array<const void*, 3>{a.src, a.dst, a.twiddles});
  T* const buf0 = reinterpret_cast<T*>(buffers[0]);
  T* const buf1 = reinterpret_cast<T*>(buffers[1]);
  // The last pass writes Y into the buffer it does not read: pass q writes buffer (q+1) % 2.
  T* const y = a.plan->passes.size() % 2 == 0 ? buf0 : buf1;
  const LaneAccess<D> src(d, a.src_stride, w);
  const T* in = reinterpret_cast<const T*>(a.src);
  const std::ptrdiff_t src_step = 2 * std::ptrdiff_t(w) * a.src_stride;
  const T* tw = reinterpret_cast<const T*>(a.twiddles);
  const V sign_even = hn::OddEven(hn::Zero(d), hn::Set(d, T(-0.0)));
  // By reference, as in RunPanelWith.
  const auto load = [d, &src, in, src_step](std::size_t e) { return src.load(d, in + std::ptrdiff_t(e) * src_step); };
  const auto store = [d, y, tw, L, sign_even](std::size_t e, V v) {
    hn::Store(MulLaneTwiddle(d, v, hn::Load(d, tw + e * L), sign_even), d, y + e * L);
  };
  RunLaneFft(d, *a.plan, buf0, buf1, load, store);
  FinishWide(d, a, y, m);
}

template <class T>
void RunWide(const WideArgs<T>& a) {
  RunWideOn(hn::ScalableTag<T>(), a);
}

// ---------------------------------------------------------------------------------------------
// Real transforms: the pairs (k, h-k) are processed W at a time, the upper partners loaded
// as a block and lane-reversed.

template <class D, class V = hn::Vec<D>>
HWY_INLINE V ReverseComplex(D d, V v) {
  const hn::Repartition<uint64_t, D> du;
  const auto r = hn::Reverse(du, hn::BitCast(du, v));  // 64-bit words in reverse order
  if constexpr (sizeof(hn::TFromD<D>) == 4) {
    return hn::BitCast(d, r);
  } else {
    return hn::BitCast(d, hn::Reverse2(du, r));  // put (re, im) of each double back in order
  }
}

// Calls block(d, k) for blocks of pairs k..k+w-1 (w = Lanes(d) / 2) whose partners
// h-k-w+1..h-k lie wholly above them: full vectors, then what is left on vectors of 4, 2 and
// 1 complex values, one block each (all of it, for full vectors of up to 8). Returns the
// first k left. Done one by one (std::complex code), the up to 2W - 1 pairs left took about 9
// cycles each: 13 of r2c-f32 N = 16's 35 ns, 22 of N = 32's 46 (one thread, AVX-512 Zen 4).
template <class T, class Block>
HWY_INLINE std::size_t ForEachPairBlock(std::size_t h, const Block& block) {
  const hn::ScalableTag<T> d;
  const std::size_t w = hn::Lanes(d) / 2;
  std::size_t k = 1;
  for (; 2 * (k + w - 1) < h; k += w) block(d, k);
  const auto narrower = [&](auto tag) HWY_ATTR {
    const std::size_t width = hn::Lanes(tag) / 2;
    if (width < w && 2 * (k + width - 1) < h) {
      block(tag, k);
      k += width;
    }
  };
  narrower(hn::CappedTag<T, 8>());
  narrower(hn::CappedTag<T, 4>());
  narrower(hn::CappedTag<T, 2>());
  return k;
}

// One block of pairs: `lower` holds values k..k+W-1 of the sequence at p, `partner` the
// conjugates of values h-k ... h-k-W+1 in the same lanes (so lane j pairs k+j with h-k-j).
template <class D>
struct PairBlock {
  using T = hn::TFromD<D>;
  using V = hn::Vec<D>;
  D d;
  std::size_t at_lower, at_upper;  // scalar offsets of k and of h-k-W+1
  V sign_odd, sign_even;           // (0, -0, ...) conjugates; (-0, 0, ...) as MulLaneTwiddle wants
  V lower, partner;

  HWY_INLINE PairBlock(D tag, const T* p, std::size_t h, std::size_t k)
      : d(tag), at_lower(2 * k), at_upper(2 * (h - k - hn::Lanes(tag) / 2 + 1)) {
    set_signs();
    lower = hn::LoadU(d, p + at_lower);
    partner = hn::Xor(ReverseComplex(d, hn::LoadU(d, p + at_upper)), sign_odd);
  }
  HWY_INLINE void set_signs() {
    const V neg = hn::Set(d, T(-0.0)), zero = hn::Zero(d);
    sign_odd = hn::OddEven(neg, zero);
    sign_even = hn::OddEven(zero, neg);
  }
  // Stores y_lower as values k.. and conj(y_upper), lanes reversed, as values h-k-W+1 ...
  HWY_INLINE void store(T* q, V y_lower, V y_upper) const {
    hn::StoreU(y_lower, d, q + at_lower);
    hn::StoreU(ReverseComplex(d, hn::Xor(y_upper, sign_odd)), d, q + at_upper);
  }
};

template <class T>
void RealSplit(std::complex<T>* x, std::size_t h, const std::complex<T>* w, T scale) {
  const std::complex<T> z0 = x[0];
  x[h] = (z0.real() - z0.imag()) * scale;
  const T half = T(0.5) * scale;
  T* p = reinterpret_cast<T*>(x);
  const T* pw = reinterpret_cast<const T*>(w);
  // X[k] = (E + w^k O) / 2 and conj(X[h-k]) = (E - w^k O) / 2 for the pairs of a block.
  const auto split = [&](const auto& pair) HWY_ATTR {
    const auto d = pair.d;
    using V = hn::Vec<decltype(d)>;
    const V e = hn::Add(pair.lower, pair.partner);
    const V o = Rotator<decltype(d)>(d, true)(d, hn::Sub(pair.lower, pair.partner));  // times -i
    const V wo = MulLaneTwiddle(d, o, hn::LoadU(d, pw + pair.at_lower), pair.sign_even);
    const V vhalf = hn::Set(d, half);
    return std::array<V, 2>{hn::Mul(hn::Add(e, wo), vhalf), hn::Mul(hn::Sub(e, wo), vhalf)};
  };
  x[0] = (z0.real() + z0.imag()) * scale;
  const auto block = [&](auto d, std::size_t k) HWY_ATTR {
    const PairBlock<decltype(d)> pair(d, p, h, k);
    const auto y = split(pair);
    pair.store(p, y[0], y[1]);
  };
  std::size_t k = ForEachPairBlock<T>(h, block);
  for (; 2 * k < h; ++k) {  // left only by vectors of more than 8 complex values
    const std::complex<T> zk = x[k], zr = std::conj(x[h - k]);
    const std::complex<T> e = zk + zr, o = (zk - zr) * std::complex<T>(0, -1);
    const std::complex<T> wo = w[k] * o;
    x[k] = (e + wo) * half;
    x[h - k] = std::conj(e - wo) * half;
  }
  // The middle bin (even h) is its own partner (w^(h/2) = -i): X[h/2] = conj(Z[h/2]) * scale.
  if (2 * k == h) x[k] = std::conj(x[k]) * scale;
}

template <class T>
void RealMerge(const std::complex<T>* x, std::complex<T>* z, std::size_t h, const std::complex<T>* w) {
  const T x0 = x[0].real(), xh = x[h].real();  // imaginary parts ignored, as numpy
  const T* px = reinterpret_cast<const T*>(x);
  T* pz = reinterpret_cast<T*>(z);
  const T* pw = reinterpret_cast<const T*>(w);
  // Z[k] = E + i O and conj(Z[h-k]) = E - i O for the pairs of a block.
  const auto merge = [&](const auto& pair) HWY_ATTR {
    const auto d = pair.d;
    using V = hn::Vec<decltype(d)>;
    const V e = hn::Add(pair.lower, pair.partner);
    const V w_conj = hn::Xor(hn::LoadU(d, pw + pair.at_lower), pair.sign_odd);
    const V o = MulLaneTwiddle(d, hn::Sub(pair.lower, pair.partner), w_conj, pair.sign_even);
    const V io = Rotator<decltype(d)>(d, false)(d, o);  // times +i
    return std::array<V, 2>{hn::Add(e, io), hn::Sub(e, io)};
  };
  z[0] = {x0 + xh, x0 - xh};  // its partner is X[h]
  const auto block = [&](auto d, std::size_t k) HWY_ATTR {
    const PairBlock<decltype(d)> pair(d, px, h, k);
    const auto y = merge(pair);
    pair.store(pz, y[0], y[1]);  // Z[h-k] = conj(E - i O) = conj(2E) + i conj(2O)
  };
  std::size_t k = ForEachPairBlock<T>(h, block);
  for (; 2 * k < h; ++k) {  // left only by vectors of more than 8 complex values
    const std::complex<T> xk = x[k], xr = std::conj(x[h - k]);
    const std::complex<T> e = xk + xr, o = (xk - xr) * std::conj(w[k]);
    z[k] = e + std::complex<T>(0, 1) * o;
    z[h - k] = std::conj(e) + std::complex<T>(0, 1) * std::conj(o);
  }
  // The middle bin (even h; w^(h/2) = -i): Z[h/2] = 2 conj(X[h/2]).
  if (2 * k == h) z[k] = T(2) * std::conj(x[k]);
}

}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
