// Compiles fft_fixed_kernels-inl.h for every SIMD target and exports its lookups (see
// cpu/fft_kernels.hpp: FftKernels::panel_fixed and wide_fixed).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/fft_fixed_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "cpu/fft_fixed_kernels-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
WideKernel<float> FindWideFixedF32(const int* radices, std::size_t count) { return FindWideFixed<float>(radices, count); }
WideKernel<double> FindWideFixedF64(const int* radices, std::size_t count) { return FindWideFixed<double>(radices, count); }
PanelKernel<float> FindPanelFixedF32(const int* radices, std::size_t count) { return FindPanelFixed<float>(radices, count); }
PanelKernel<double> FindPanelFixedF64(const int* radices, std::size_t count) {
  return FindPanelFixed<double>(radices, count);
}
}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ripple::cpu {

HWY_EXPORT(FindWideFixedF32);
HWY_EXPORT(FindWideFixedF64);
HWY_EXPORT(FindPanelFixedF32);
HWY_EXPORT(FindPanelFixedF64);

// Highway picks the same target here as for the generic kernels (the best this CPU supports
// among those compiled, and both files compile the same list).
WideKernel<float> find_wide_fixed_f32(const int* radices, std::size_t count) {
  return HWY_DYNAMIC_DISPATCH(FindWideFixedF32)(radices, count);
}
WideKernel<double> find_wide_fixed_f64(const int* radices, std::size_t count) {
  return HWY_DYNAMIC_DISPATCH(FindWideFixedF64)(radices, count);
}
PanelKernel<float> find_panel_fixed_f32(const int* radices, std::size_t count) {
  return HWY_DYNAMIC_DISPATCH(FindPanelFixedF32)(radices, count);
}
PanelKernel<double> find_panel_fixed_f64(const int* radices, std::size_t count) {
  return HWY_DYNAMIC_DISPATCH(FindPanelFixedF64)(radices, count);
}

#if HWY_ARCH_X86 && (HWY_TARGETS & HWY_AVX2)
WideKernel<float> find_wide_fixed_f32_avx2(const int* radices, std::size_t count) {
  return N_AVX2::FindWideFixedF32(radices, count);
}
WideKernel<double> find_wide_fixed_f64_avx2(const int* radices, std::size_t count) {
  return N_AVX2::FindWideFixedF64(radices, count);
}
PanelKernel<float> find_panel_fixed_f32_avx2(const int* radices, std::size_t count) {
  return N_AVX2::FindPanelFixedF32(radices, count);
}
PanelKernel<double> find_panel_fixed_f64_avx2(const int* radices, std::size_t count) {
  return N_AVX2::FindPanelFixedF64(radices, count);
}
#endif

}  // namespace ripple::cpu
#endif  // HWY_ONCE
