// Compiles fft_fixed_kernels-inl.h's float wide kernels for every SIMD target and exports
// their lookups (see cpu/fft_kernels.hpp: FftKernels::wide_fixed; the panels are in
// fft_fixed_kernels_f32_panel.cpp). Each precision and kind has its own translation unit:
// these are the library's longest compiles, and apart they build in parallel.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/fft_fixed_kernels_f32.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "cpu/fft_fixed_kernels-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
WideKernel<float> FindWideFixedF32(const int* radices, std::size_t count) {
  return FindWideFixed<float>(radices, count);
}
// The 128-bit table's (narrowest_fft_kernels_f32): the odd sizes on two complex values per
// vector, for targets whose full vectors are wider; null on the others.
WideKernel<float> FindWideFixedF32Xmm(const int* radices, std::size_t count) {
#if HWY_TARGET != HWY_SSE4
  using D = hn::CappedTag<float, 4>;
  if constexpr (hn::MaxLanes(D()) < hn::MaxLanes(hn::ScalableTag<float>())) {
    return FindWideFixedOdd<D>(RadixMatcher{radices, count});
  }
#endif
  (void)radices;
  (void)count;
  return nullptr;
}
}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ripple::cpu {

HWY_EXPORT(FindWideFixedF32);
HWY_EXPORT(FindWideFixedF32Xmm);

// Highway picks the same target here as for the generic kernels (the best this CPU supports
// among those compiled, and every kernel file compiles the same list).
WideKernel<float> find_wide_fixed_f32(const int* radices, std::size_t count) {
  return HWY_DYNAMIC_DISPATCH(FindWideFixedF32)(radices, count);
}
WideKernel<float> find_wide_fixed_f32_xmm(const int* radices, std::size_t count) {
  return HWY_DYNAMIC_DISPATCH(FindWideFixedF32Xmm)(radices, count);
}

#if HWY_ARCH_X86 && (HWY_TARGETS & HWY_AVX2)
WideKernel<float> find_wide_fixed_f32_avx2(const int* radices, std::size_t count) {
  return N_AVX2::FindWideFixedF32(radices, count);
}
#endif

}  // namespace ripple::cpu
#endif  // HWY_ONCE
