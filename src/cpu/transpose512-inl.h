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
#endif

}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
