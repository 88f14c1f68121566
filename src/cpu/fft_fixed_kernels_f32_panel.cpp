// Compiles fft_fixed_kernels-inl.h's float panel kernels for every SIMD target and exports
// their lookups (see cpu/fft_kernels.hpp: FftKernels::panel_fixed; the wide ones are in
// fft_fixed_kernels_f32.cpp). The fixed kernels are the library's longest compiles: split by
// precision and by kind, they build in parallel in pieces of similar length.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/fft_fixed_kernels_f32_panel.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "cpu/fft_fixed_kernels-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
PanelKernel<float> FindPanelFixedF32(const int* radices, std::size_t count) {
  return FindPanelFixed<hn::ScalableTag<float>>(radices, count);
}
}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ripple::cpu {

HWY_EXPORT(FindPanelFixedF32);

// Highway picks the same target here as for the generic kernels (the best this CPU supports
// among those compiled, and every kernel file compiles the same list).
PanelKernel<float> find_panel_fixed_f32(const int* radices, std::size_t count) {
  return HWY_DYNAMIC_DISPATCH(FindPanelFixedF32)(radices, count);
}

#if HWY_ARCH_X86 && (HWY_TARGETS & HWY_AVX2)
PanelKernel<float> find_panel_fixed_f32_avx2(const int* radices, std::size_t count) {
  return N_AVX2::FindPanelFixedF32(radices, count);
}
#endif

}  // namespace ripple::cpu
#endif  // HWY_ONCE
