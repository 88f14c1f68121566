// Compiles fft_lane_kernels-inl.h for every SIMD target and exports a dispatch table; the best
// target is chosen once per process.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/fft_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "cpu/fft_lane_kernels-inl.h"
#include "hwy/highway.h"

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
HWY_EXPORT(FindWideFixedF32);
HWY_EXPORT(FindWideFixedF64);
HWY_EXPORT(FindPanelFixedF32);
HWY_EXPORT(FindPanelFixedF64);
HWY_EXPORT(RealSplitF32);
HWY_EXPORT(RealSplitF64);
HWY_EXPORT(RealMergeF32);
HWY_EXPORT(RealMergeF64);
HWY_EXPORT(ComplexLanesF32);
HWY_EXPORT(ComplexLanesF64);
HWY_EXPORT(TargetName);

const FftKernels<float>& fft_kernels_f32() {
  static const FftKernels<float> kernels{static_cast<std::size_t>(HWY_DYNAMIC_DISPATCH(ComplexLanesF32)()),
                                         HWY_DYNAMIC_DISPATCH(RunPanelF32), HWY_DYNAMIC_DISPATCH(FindPanelFixedF32),
                                         HWY_DYNAMIC_DISPATCH(RunWideF32),
                                         HWY_DYNAMIC_DISPATCH(FindWideFixedF32),
                                         HWY_DYNAMIC_DISPATCH(RealSplitF32), HWY_DYNAMIC_DISPATCH(RealMergeF32)};
  return kernels;
}

const FftKernels<double>& fft_kernels_f64() {
  static const FftKernels<double> kernels{static_cast<std::size_t>(HWY_DYNAMIC_DISPATCH(ComplexLanesF64)()),
                                          HWY_DYNAMIC_DISPATCH(RunPanelF64), HWY_DYNAMIC_DISPATCH(FindPanelFixedF64),
                                          HWY_DYNAMIC_DISPATCH(RunWideF64),
                                          HWY_DYNAMIC_DISPATCH(FindWideFixedF64),
                                          HWY_DYNAMIC_DISPATCH(RealSplitF64), HWY_DYNAMIC_DISPATCH(RealMergeF64)};
  return kernels;
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
