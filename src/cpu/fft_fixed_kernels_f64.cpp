// Compiles fft_fixed_kernels-inl.h's double wide kernels for every SIMD target and exports
// their lookups (see cpu/fft_kernels.hpp: FftKernels::wide_fixed; the panels are in
// fft_fixed_kernels_f64_panel.cpp, the float kernels in fft_fixed_kernels_f32*.cpp).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/fft_fixed_kernels_f64.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "cpu/fft_fixed_kernels-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
WideKernel<double> FindWideFixedF64(const int* radices, std::size_t count) {
  return FindWideFixed<double>(radices, count);
}
}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ripple::cpu {

HWY_EXPORT(FindWideFixedF64);

WideKernel<double> find_wide_fixed_f64(const int* radices, std::size_t count) {
  return HWY_DYNAMIC_DISPATCH(FindWideFixedF64)(radices, count);
}

#if HWY_ARCH_X86 && (HWY_TARGETS & HWY_AVX2)
WideKernel<double> find_wide_fixed_f64_avx2(const int* radices, std::size_t count) {
  return N_AVX2::FindWideFixedF64(radices, count);
}
#endif

}  // namespace ripple::cpu
#endif  // HWY_ONCE
