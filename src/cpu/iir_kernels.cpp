// Compiles iir_kernels-inl.h for every SIMD target and exports a dispatch table; the best
// target is chosen once per process.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/iir_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "cpu/iir_kernels-inl.h"
#include "hwy/highway.h"

#if HWY_ONCE
#include "cpu/iir_kernels.hpp"

namespace ripple::cpu {

HWY_EXPORT(CascadeF32);
HWY_EXPORT(CascadeF64);
HWY_EXPORT(CascadeRunsF32);
HWY_EXPORT(CascadeRunsF64);
HWY_EXPORT(AddFreeResponseF32);
HWY_EXPORT(AddFreeResponseF64);
HWY_EXPORT(AddStateResponsesF32);
HWY_EXPORT(AddStateResponsesF64);
HWY_EXPORT(SectionF32);
HWY_EXPORT(SectionF64);
HWY_EXPORT(StageInF32);
HWY_EXPORT(StageInF64);
HWY_EXPORT(StageOutF32);
HWY_EXPORT(StageOutF64);
HWY_EXPORT(IirLanesF32);
HWY_EXPORT(IirLanesF64);

const IirKernels<float>& iir_kernels_f32() {
  static const IirKernels<float> kernels{static_cast<std::size_t>(HWY_DYNAMIC_DISPATCH(IirLanesF32)()),
                                         HWY_DYNAMIC_DISPATCH(CascadeF32), HWY_DYNAMIC_DISPATCH(CascadeRunsF32),
                                         HWY_DYNAMIC_DISPATCH(SectionF32),
                                         HWY_DYNAMIC_DISPATCH(AddFreeResponseF32),
                                         HWY_DYNAMIC_DISPATCH(AddStateResponsesF32),
                                         HWY_DYNAMIC_DISPATCH(StageInF32), HWY_DYNAMIC_DISPATCH(StageOutF32)};
  return kernels;
}

const IirKernels<double>& iir_kernels_f64() {
  static const IirKernels<double> kernels{static_cast<std::size_t>(HWY_DYNAMIC_DISPATCH(IirLanesF64)()),
                                          HWY_DYNAMIC_DISPATCH(CascadeF64), HWY_DYNAMIC_DISPATCH(CascadeRunsF64),
                                          HWY_DYNAMIC_DISPATCH(SectionF64),
                                          HWY_DYNAMIC_DISPATCH(AddFreeResponseF64),
                                          HWY_DYNAMIC_DISPATCH(AddStateResponsesF64),
                                          HWY_DYNAMIC_DISPATCH(StageInF64), HWY_DYNAMIC_DISPATCH(StageOutF64)};
  return kernels;
}

}  // namespace ripple::cpu
#endif  // HWY_ONCE
