// Compiles fir_kernels-inl.h for every SIMD target and exports a dispatch table; the best
// target is chosen once per process.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/fir_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "cpu/fir_kernels-inl.h"
#include "hwy/highway.h"

#if HWY_ONCE
#include "cpu/fir_kernels.hpp"
#include "hwy/targets.h"

namespace ripple::cpu {
namespace {
// HWY_DYNAMIC_DISPATCH yields Highway's choose-the-target stub until a target has been chosen;
// the tables must hold the chosen functions, or every call would go through the stub.
void choose_target() { hwy::GetChosenTarget().Update(hwy::SupportedTargets()); }
}  // namespace

HWY_EXPORT(DotF32);
HWY_EXPORT(DotF64);
HWY_EXPORT(ConvolveF32);
HWY_EXPORT(ConvolveF64);
HWY_EXPORT(DotStridedF32);
HWY_EXPORT(DotStridedF64);
HWY_EXPORT(PolyphaseOrderedF32);
HWY_EXPORT(PolyphaseOrderedF64);
HWY_EXPORT(LanesF32);
HWY_EXPORT(LanesF64);

const FirKernels<float>& fir_kernels_f32() {
  static const FirKernels<float> kernels = [] {
    choose_target();
    return FirKernels<float>{HWY_DYNAMIC_DISPATCH(DotF32), HWY_DYNAMIC_DISPATCH(ConvolveF32),
                             HWY_DYNAMIC_DISPATCH(DotStridedF32),
                             HWY_DYNAMIC_DISPATCH(PolyphaseOrderedF32), HWY_DYNAMIC_DISPATCH(LanesF32)()};
  }();
  return kernels;
}

const FirKernels<double>& fir_kernels_f64() {
  static const FirKernels<double> kernels = [] {
    choose_target();
    return FirKernels<double>{HWY_DYNAMIC_DISPATCH(DotF64), HWY_DYNAMIC_DISPATCH(ConvolveF64),
                              HWY_DYNAMIC_DISPATCH(DotStridedF64),
                              HWY_DYNAMIC_DISPATCH(PolyphaseOrderedF64), HWY_DYNAMIC_DISPATCH(LanesF64)()};
  }();
  return kernels;
}

}  // namespace ripple::cpu
#endif  // HWY_ONCE
