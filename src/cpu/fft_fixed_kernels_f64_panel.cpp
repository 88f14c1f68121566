// Compiles fft_fixed_kernels-inl.h's double panel kernels for every SIMD target and exports
// their lookups (see cpu/fft_kernels.hpp: FftKernels::panel_fixed; the wide ones are in
// fft_fixed_kernels_f64.cpp). The fixed kernels are the library's longest compiles: split by
// precision and by kind, they build in parallel in pieces of similar length.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/fft_fixed_kernels_f64_panel.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "cpu/fft_fixed_kernels-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
PanelKernel<double> FindPanelFixedF64(const int* radices, std::size_t count) {
  return FindPanelFixed<hn::ScalableTag<double>>(radices, count);
}
#if HWY_ARCH_X86 && HWY_TARGET == HWY_AVX3
// The narrow table's unrolled panels on an AVX-512 CPU: AVX-512 instructions on 256-bit
// vectors, two complex doubles as on AVX2, but with 32 registers where AVX2 has 16. A radix-3
// panel of 27 spilled to the stack from AVX2's (422 stack accesses -> 236), and the four-step
// sweeps that run these took less time (one thread, AVX-512 Zen 4, ripple/FFTW medians of
// three alternated runs: f64 N = 243 0.98 -> 0.94, 729 0.90 -> 0.82, 625 0.80 -> 0.75).
PanelKernel<double> FindPanelFixedF64Ymm(const int* radices, std::size_t count) {
  return FindPanelFixed<hn::CappedTag<double, 4>>(radices, count);
}
#endif
}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "hwy/targets.h"

namespace ripple::cpu {

HWY_EXPORT(FindPanelFixedF64);

PanelKernel<double> find_panel_fixed_f64(const int* radices, std::size_t count) {
  return HWY_DYNAMIC_DISPATCH(FindPanelFixedF64)(radices, count);
}

#if HWY_ARCH_X86 && (HWY_TARGETS & HWY_AVX2)
PanelKernel<double> find_panel_fixed_f64_narrow(const int* radices, std::size_t count) {
#if HWY_TARGETS & HWY_AVX3
  static const bool avx512 = (hwy::SupportedTargets() & HWY_AVX3) != 0;
  if (avx512) return N_AVX3::FindPanelFixedF64Ymm(radices, count);
#endif
  return N_AVX2::FindPanelFixedF64(radices, count);
}
#endif

}  // namespace ripple::cpu
#endif  // HWY_ONCE
