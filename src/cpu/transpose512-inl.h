// Transposes of 512-bit vectors by x86 block shuffles, shared by the FFT and IIR kernels.
// Compiled only where AVX-512 is (HWY_TARGET <= HWY_AVX3); callers fall back elsewhere.

// Per-target include guard (Highway's convention for -inl.h files).
#if defined(RIPPLE_CPU_TRANSPOSE512_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef RIPPLE_CPU_TRANSPOSE512_INL_H_
#undef RIPPLE_CPU_TRANSPOSE512_INL_H_
#else
#define RIPPLE_CPU_TRANSPOSE512_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
// The 4 x 4 transpose of 128-bit blocks across v[i0], v[i0 + step], v[i0 + 2 step],
// v[i0 + 3 step]: two rounds of 2-source block shuffles, 8 in all, where Highway's portable
// block operations take a shuffle and a blend for each half of that.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void TransposeBlocks512(D d, V* v, std::size_t i0, std::size_t step) {
  const hn::Repartition<double, D> dd;
  const __m512d a = hn::BitCast(dd, v[i0]).raw, b = hn::BitCast(dd, v[i0 + step]).raw;
  const __m512d c = hn::BitCast(dd, v[i0 + 2 * step]).raw, e = hn::BitCast(dd, v[i0 + 3 * step]).raw;
  constexpr int kEven = _MM_SHUFFLE(2, 0, 2, 0), kOdd = _MM_SHUFFLE(3, 1, 3, 1);
  const __m512d t0 = _mm512_shuffle_f64x2(a, b, kEven), t1 = _mm512_shuffle_f64x2(a, b, kOdd);
  const __m512d t2 = _mm512_shuffle_f64x2(c, e, kEven), t3 = _mm512_shuffle_f64x2(c, e, kOdd);
  using VD = hn::Vec<decltype(dd)>;
  v[i0] = hn::BitCast(d, VD{_mm512_shuffle_f64x2(t0, t2, kEven)});
  v[i0 + step] = hn::BitCast(d, VD{_mm512_shuffle_f64x2(t1, t3, kEven)});
  v[i0 + 2 * step] = hn::BitCast(d, VD{_mm512_shuffle_f64x2(t0, t2, kOdd)});
  v[i0 + 3 * step] = hn::BitCast(d, VD{_mm512_shuffle_f64x2(t1, t3, kOdd)});
}

// The 8 x 8 transpose of 64-bit words in v[0..8) (doubles, or complex floats one per word):
// in-block 2 x 2 transposes of row pairs, then the blocks across v[k], v[2 + k], ... (24
// shuffles).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void Transpose64BitWords512(D d, V* v) {
  const hn::Repartition<double, D> dd;
  for (std::size_t q = 0; q < 8; q += 2) {
    const auto a = hn::BitCast(dd, v[q]), b = hn::BitCast(dd, v[q + 1]);
    v[q] = hn::BitCast(d, hn::InterleaveLower(dd, a, b));
    v[q + 1] = hn::BitCast(d, hn::InterleaveUpper(dd, a, b));
  }
  for (std::size_t k = 0; k < 2; ++k) TransposeBlocks512(d, v, k, 2);
}

// Blocks 0 and 2 of a and c as [a0 c0 | a2 c2], and blocks 1 and 3 as [a1 c1 | a3 c3]: the
// 128-bit moves of a 4 x 4 transpose of doubles in each 256-bit half, one permute each. Zen 4
// runs a 512-bit vector as two 256-bit halves, so these cost half what block moves across the
// halves cost (TransposeBlocks512).
HWY_INLINE __m512d LowerBlocksInHalves(__m512d a, __m512d c) {
  return _mm512_mask_permutex_pd(a, 0xCC, c, _MM_SHUFFLE(1, 0, 1, 0));
}
HWY_INLINE __m512d UpperBlocksInHalves(__m512d a, __m512d c) {
  return _mm512_mask_permutex_pd(c, 0x33, a, _MM_SHUFFLE(3, 2, 3, 2));
}

// The R/2 x R/2 transposes within each 256-bit half of v[0..R/2), for R elements of
// kElemBytes a vector: 16 floats, 8 doubles or complex floats, 4 complex doubles.
template <std::size_t kElemBytes, class D, class V = hn::Vec<D>>
HWY_INLINE void TransposeHalves512(D d, V* v) {
  const hn::Repartition<double, D> dd;
  using VD = hn::Vec<decltype(dd)>;
  const auto raw = [&](const V& x) HWY_ATTR { return hn::BitCast(dd, x).raw; };
  const auto put = [&](__m512d x) HWY_ATTR { return hn::BitCast(d, VD{x}); };
  if constexpr (kElemBytes == 16) {
    const __m512d a = raw(v[0]), b = raw(v[1]);
    v[0] = put(LowerBlocksInHalves(a, b));
    v[1] = put(UpperBlocksInHalves(a, b));
  } else if constexpr (kElemBytes == 8) {
    const __m512d a = _mm512_unpacklo_pd(raw(v[0]), raw(v[1])), b = _mm512_unpackhi_pd(raw(v[0]), raw(v[1]));
    const __m512d c = _mm512_unpacklo_pd(raw(v[2]), raw(v[3])), e = _mm512_unpackhi_pd(raw(v[2]), raw(v[3]));
    v[0] = put(LowerBlocksInHalves(a, c));
    v[1] = put(LowerBlocksInHalves(b, e));
    v[2] = put(UpperBlocksInHalves(a, c));
    v[3] = put(UpperBlocksInHalves(b, e));
  } else {
    static_assert(kElemBytes == 4 && sizeof(hn::TFromD<D>) == 4);
    // Rows 4q..4q+3: in-block 4 x 4 transposes, as TransposeSquare's 128-bit case.
    __m512d s[8];
    for (std::size_t q = 0; q < 8; q += 4) {
      const __m512d t0 = raw(hn::InterleaveLower(d, v[q], v[q + 1]));
      const __m512d t1 = raw(hn::InterleaveUpper(d, v[q], v[q + 1]));
      const __m512d t2 = raw(hn::InterleaveLower(d, v[q + 2], v[q + 3]));
      const __m512d t3 = raw(hn::InterleaveUpper(d, v[q + 2], v[q + 3]));
      s[q] = _mm512_unpacklo_pd(t0, t2);
      s[q + 1] = _mm512_unpackhi_pd(t0, t2);
      s[q + 2] = _mm512_unpacklo_pd(t1, t3);
      s[q + 3] = _mm512_unpackhi_pd(t1, t3);
    }
    for (std::size_t k = 0; k < 4; ++k) {
      v[k] = put(LowerBlocksInHalves(s[k], s[k + 4]));
      v[k + 4] = put(UpperBlocksInHalves(s[k], s[k + 4]));
    }
  }
}

// An R x R tile of elements of kElemBytes (R = 64 / kElemBytes) loaded transposed: v[k] =
// element k of the rows src + i * stride, i < R (stride in values of T). Each vector is loaded
// as two 256-bit halves, rows i and i + R/2, so only the transposes within the halves are
// left: 16 shuffles for 8 x 8 doubles where the in-register transpose takes 24, 48 for 16 x 16
// floats against 64, 4 for 4 x 4 complex doubles against 8 (a fused IIR cascade of 4
// sections on runs of doubles in L2, on the Zen 4: 0.61 -> 0.57 ns a sample).
template <std::size_t kElemBytes, class D, class V = hn::Vec<D>>
HWY_INLINE void LoadTransposed512(D d, const hn::TFromD<D>* src, std::ptrdiff_t stride, V* v) {
  constexpr std::size_t kHalf = 32 / kElemBytes;              // rows per half tile
  constexpr std::size_t kHalfValues = hn::MaxLanes(D()) / 2;  // values of T per 256 bits
  const hn::Half<D> dh;
  for (std::size_t h = 0; h < 2; ++h) {
    V* u = v + kHalf * h;
    for (std::size_t i = 0; i < kHalf; ++i) {
      const auto* row = src + static_cast<std::ptrdiff_t>(i) * stride + kHalfValues * h;
      u[i] = hn::Combine(d, hn::LoadU(dh, row + static_cast<std::ptrdiff_t>(kHalf) * stride), hn::LoadU(dh, row));
    }
    TransposeHalves512<kElemBytes>(d, u);
  }
}

// StoreTransposed512's streamed form, out of line: inlined, its 2R live vectors cost the
// cached form's loop registers (the IIR cascade in L2, double: 0.63 against 0.58 ns a sample).
template <std::size_t kElemBytes, class D, class V = hn::Vec<D>>
HWY_NOINLINE void StreamTransposed512(D d, const V* v, hn::TFromD<D>* dst, std::ptrdiff_t stride) {
  constexpr std::size_t kHalf = 32 / kElemBytes;
  constexpr std::size_t kHalfValues = hn::MaxLanes(D()) / 2;
  const hn::Half<D> dh;
  V u[2 * kHalf];
  for (std::size_t k = 0; k < 2 * kHalf; ++k) u[k] = v[k];
  TransposeHalves512<kElemBytes>(d, u);
  TransposeHalves512<kElemBytes>(d, u + kHalf);
  for (std::size_t i = 0; i < kHalf; ++i) {
    auto* row = dst + static_cast<std::ptrdiff_t>(i) * stride;
    auto* row_hi = row + static_cast<std::ptrdiff_t>(kHalf) * stride;
    hn::Stream(hn::LowerHalf(dh, u[i]), dh, row);
    hn::Stream(hn::LowerHalf(dh, u[kHalf + i]), dh, row + kHalfValues);
    hn::Stream(hn::UpperHalf(dh, u[i]), dh, row_hi);
    hn::Stream(hn::UpperHalf(dh, u[kHalf + i]), dh, row_hi + kHalfValues);
  }
}

// The reverse of LoadTransposed512: element k of v[j] to row k (dst + k * stride), element j.
// `stream` stores non-temporally (dst and stride then keep every half 32-byte aligned), and
// then both halves of a row's line one after the other: with the 2R half lines open at once, a
// 16 x 2^20 float IIR cascade ran 3.5x slower on the Zen 4 (its write-combining buffers
// flushed partial lines). Cached stores go out half tile by half tile.
template <std::size_t kElemBytes, class D, class V = hn::Vec<D>>
HWY_INLINE void StoreTransposed512(D d, const V* v, hn::TFromD<D>* dst, std::ptrdiff_t stride, bool stream) {
  constexpr std::size_t kHalf = 32 / kElemBytes;
  constexpr std::size_t kHalfValues = hn::MaxLanes(D()) / 2;
  const hn::Half<D> dh;
  const auto row = [&](std::size_t i) { return dst + static_cast<std::ptrdiff_t>(i) * stride; };
  if (!stream) {
    for (std::size_t h = 0; h < 2; ++h) {
      V u[kHalf];
      for (std::size_t k = 0; k < kHalf; ++k) u[k] = v[kHalf * h + k];
      TransposeHalves512<kElemBytes>(d, u);
      for (std::size_t i = 0; i < kHalf; ++i) {
        hn::StoreU(hn::LowerHalf(dh, u[i]), dh, row(i) + kHalfValues * h);
        hn::StoreU(hn::UpperHalf(dh, u[i]), dh, row(i + kHalf) + kHalfValues * h);
      }
    }
    return;
  }
  StreamTransposed512<kElemBytes>(d, v, dst, stride);
}
#endif

}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
