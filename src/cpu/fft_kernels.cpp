// Compiles fft_lane_kernels-inl.h for every SIMD target and exports a dispatch table; the best
// target is chosen once per process.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/fft_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "cpu/fft_lane_kernels-inl.h"
#include "cpu/fft_real_direct-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
void RunPanelF32(const PanelArgs<float>& a) { RunPanel(a); }
void RealSplitF32(std::complex<float>* x, std::size_t h, const std::complex<float>* w, float s) { RealSplit(x, h, w, s); }
void RealSplitF64(std::complex<double>* x, std::size_t h, const std::complex<double>* w, double s) { RealSplit(x, h, w, s); }
void RealMergeF32(const std::complex<float>* x, std::complex<float>* z, std::size_t h, const std::complex<float>* w) {
  RealMerge(x, z, h, w);
}
void RealMergeF64(const std::complex<double>* x, std::complex<double>* z, std::size_t h, const std::complex<double>* w) {
  RealMerge(x, z, h, w);
}
void RealDirectR2cF32(const RealDirectArgs<float>& a) { RealDirectR2c(a); }
void RealDirectR2cF64(const RealDirectArgs<double>& a) { RealDirectR2c(a); }
void RealDirectC2rF32(const RealDirectArgs<float>& a) { RealDirectC2r(a); }
void RealDirectC2rF64(const RealDirectArgs<double>& a) { RealDirectC2r(a); }
void RunWideF32(const WideArgs<float>& a) { RunWide(a); }
void RunWideF64(const WideArgs<double>& a) { RunWide(a); }
void RunPanelF64(const PanelArgs<double>& a) { RunPanel(a); }
// Float on 128-bit vectors (two complex values) of the same target, for narrowest_fft_kernels_f32.
// The planner takes only its wide kernel; its panel runs one sequence per vector, the kernel
// RunPanel already compiles for lone sequences (a 128-bit one took 55 s more to compile).
void RunPanelF32Xmm(const PanelArgs<float>& a) { RunPanelOn(hn::CappedTag<float, 2>(), a); }
void RunWideF32Xmm(const WideArgs<float>& a) { RunWideOn(hn::CappedTag<float, 4>(), a); }
int ComplexLanesF32() { return static_cast<int>(hn::Lanes(hn::ScalableTag<float>()) / 2); }
int ComplexLanesF64() { return static_cast<int>(hn::Lanes(hn::ScalableTag<double>()) / 2); }
const char* TargetName() { return hwy::TargetName(HWY_TARGET); }
}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <string>

#include "cpu/fft_kernels.hpp"
#include "cpu/simd_info.hpp"
#include "hwy/targets.h"

namespace ripple::cpu {

HWY_EXPORT(RunPanelF32);
HWY_EXPORT(RunPanelF64);
HWY_EXPORT(RunWideF32);
HWY_EXPORT(RunWideF64);
HWY_EXPORT(RunPanelF32Xmm);
HWY_EXPORT(RunWideF32Xmm);
HWY_EXPORT(RealSplitF32);
HWY_EXPORT(RealSplitF64);
HWY_EXPORT(RealMergeF32);
HWY_EXPORT(RealMergeF64);
HWY_EXPORT(RealDirectR2cF32);
HWY_EXPORT(RealDirectR2cF64);
HWY_EXPORT(RealDirectC2rF32);
HWY_EXPORT(RealDirectC2rF64);
HWY_EXPORT(ComplexLanesF32);
HWY_EXPORT(ComplexLanesF64);
HWY_EXPORT(TargetName);

const FftKernels<float>& fft_kernels_f32() {
  static const FftKernels<float> kernels{static_cast<std::size_t>(HWY_DYNAMIC_DISPATCH(ComplexLanesF32)()),
                                         HWY_DYNAMIC_DISPATCH(RunPanelF32), &find_panel_fixed_f32,
                                         HWY_DYNAMIC_DISPATCH(RunWideF32),
                                         &find_wide_fixed_f32,
                                         HWY_DYNAMIC_DISPATCH(RealSplitF32), HWY_DYNAMIC_DISPATCH(RealMergeF32),
                                         HWY_DYNAMIC_DISPATCH(RealDirectR2cF32), HWY_DYNAMIC_DISPATCH(RealDirectC2rF32)};
  return kernels;
}

const FftKernels<double>& fft_kernels_f64() {
  static const FftKernels<double> kernels{static_cast<std::size_t>(HWY_DYNAMIC_DISPATCH(ComplexLanesF64)()),
                                          HWY_DYNAMIC_DISPATCH(RunPanelF64), &find_panel_fixed_f64,
                                          HWY_DYNAMIC_DISPATCH(RunWideF64),
                                          &find_wide_fixed_f64,
                                          HWY_DYNAMIC_DISPATCH(RealSplitF64), HWY_DYNAMIC_DISPATCH(RealMergeF64),
                                          HWY_DYNAMIC_DISPATCH(RealDirectR2cF64), HWY_DYNAMIC_DISPATCH(RealDirectC2rF64)};
  return kernels;
}

// The AVX2 table where the best target is wider (AVX-512): there, short transforms whose size
// is not a multiple of 8 (float) or 4 (double) complex values still take the wide kernel, and
// short ones that are run it with fewer, cheaper blocks.
#if HWY_ARCH_X86 && (HWY_TARGETS & HWY_AVX2)
namespace {
bool avx2_narrower(std::size_t best_lanes, std::size_t avx2_lanes) {
  return (hwy::SupportedTargets() & HWY_AVX2) != 0 && avx2_lanes < best_lanes;
}
}  // namespace

const FftKernels<float>* narrow_fft_kernels_f32() {
  static const FftKernels<float> kernels{static_cast<std::size_t>(N_AVX2::ComplexLanesF32()),
                                         &N_AVX2::RunPanelF32, &find_panel_fixed_f32_avx2,
                                         &N_AVX2::RunWideF32, &find_wide_fixed_f32_avx2,
                                         &N_AVX2::RealSplitF32, &N_AVX2::RealMergeF32,
                                         &N_AVX2::RealDirectR2cF32, &N_AVX2::RealDirectC2rF32};
  static const bool usable = avx2_narrower(fft_kernels_f32().lanes, kernels.lanes);
  return usable ? &kernels : nullptr;
}

const FftKernels<double>* narrow_fft_kernels_f64() {
  static const FftKernels<double> kernels{static_cast<std::size_t>(N_AVX2::ComplexLanesF64()),
                                          &N_AVX2::RunPanelF64, &find_panel_fixed_f64_narrow,
                                          &N_AVX2::RunWideF64, &find_wide_fixed_f64_avx2,
                                          &N_AVX2::RealSplitF64, &N_AVX2::RealMergeF64,
                                          &N_AVX2::RealDirectR2cF64, &N_AVX2::RealDirectC2rF64};
  static const bool usable = avx2_narrower(fft_kernels_f64().lanes, kernels.lanes);
  return usable ? &kernels : nullptr;
}
#else
const FftKernels<float>* narrow_fft_kernels_f32() { return nullptr; }
const FftKernels<double>* narrow_fft_kernels_f64() { return nullptr; }
#endif

// Wherever the best target's float vectors hold more than two complex values (AVX2 and
// AVX-512): its kernels on 128-bit vectors, for the sizes N = 2 mod 4 that no wider vector
// divides.
const FftKernels<float>* narrowest_fft_kernels_f32() {
  constexpr std::size_t kLanes = 2;
  constexpr auto no_fixed_panels = [](const int*, std::size_t) -> PanelKernel<float> { return nullptr; };
  static const FftKernels<float> kernels{kLanes,
                                         HWY_DYNAMIC_DISPATCH(RunPanelF32Xmm), no_fixed_panels,
                                         HWY_DYNAMIC_DISPATCH(RunWideF32Xmm), &find_wide_fixed_f32_xmm,
                                         HWY_DYNAMIC_DISPATCH(RealSplitF32), HWY_DYNAMIC_DISPATCH(RealMergeF32),
                                         HWY_DYNAMIC_DISPATCH(RealDirectR2cF32), HWY_DYNAMIC_DISPATCH(RealDirectC2rF32)};
  static const bool usable = fft_kernels_f32().lanes > kLanes;
  return usable ? &kernels : nullptr;
}

std::string chosen_target() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }
int complex_lanes_f32() { return HWY_DYNAMIC_DISPATCH(ComplexLanesF32)(); }
int complex_lanes_f64() { return HWY_DYNAMIC_DISPATCH(ComplexLanesF64)(); }

std::string compiled_targets() {
  std::string names;
  for (int64_t targets = HWY_TARGETS; targets != 0; targets &= targets - 1) {
    const int64_t target = targets & -targets;
    if (!names.empty()) names += ",";
    names += hwy::TargetName(target);
  }
  return names;
}

}  // namespace ripple::cpu
#endif  // HWY_ONCE
