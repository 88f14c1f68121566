// Compiles cic_kernels-inl.h for every SIMD target and exports a dispatch table per (input,
// register) type; the best target is chosen once per process.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/cic_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "cpu/cic_kernels-inl.h"
#include "hwy/highway.h"

#if HWY_ONCE
#include "cpu/cic_kernels.hpp"
#include "hwy/targets.h"

namespace ripple::cpu {
namespace {
// HWY_DYNAMIC_DISPATCH yields Highway's choose-the-target stub until a target has been chosen;
// the tables must hold the chosen functions, or every call would go through the stub.
void choose_target() { hwy::GetChosenTarget().Update(hwy::SupportedTargets()); }
}  // namespace

HWY_EXPORT(CicIntegrate16x32);
HWY_EXPORT(CicIntegrate16x64);
HWY_EXPORT(CicIntegrate32x32);
HWY_EXPORT(CicIntegrate32x64);
HWY_EXPORT(CicComb32);
HWY_EXPORT(CicComb64);
HWY_EXPORT(CicSegments);
HWY_EXPORT(CicLaneSegments);
HWY_EXPORT(CicIntegrateLanes16);
HWY_EXPORT(CicIntegrateLanes32);
HWY_EXPORT(CicFloatToInt32);
HWY_EXPORT(CicInt64ToF32);
HWY_EXPORT(CicInt64ToF64);

const CicSampleKernels& cic_sample_kernels() {
  static const CicSampleKernels kernels = [] {
    choose_target();
    return CicSampleKernels{HWY_DYNAMIC_DISPATCH(CicFloatToInt32), HWY_DYNAMIC_DISPATCH(CicInt64ToF32),
                            HWY_DYNAMIC_DISPATCH(CicInt64ToF64)};
  }();
  return kernels;
}

template <>
const CicKernels<std::int16_t, std::uint32_t>& cic_kernels() {
  static const CicKernels<std::int16_t, std::uint32_t> kernels = [] {
    choose_target();
    return CicKernels<std::int16_t, std::uint32_t>{HWY_DYNAMIC_DISPATCH(CicIntegrate16x32), HWY_DYNAMIC_DISPATCH(CicComb32),
                                                   HWY_DYNAMIC_DISPATCH(CicIntegrateLanes16),
                                                   HWY_DYNAMIC_DISPATCH(CicLaneSegments)(),
                                                   HWY_DYNAMIC_DISPATCH(CicSegments)(), 8};
  }();
  return kernels;
}

template <>
const CicKernels<std::int16_t, std::uint64_t>& cic_kernels() {
  static const CicKernels<std::int16_t, std::uint64_t> kernels = [] {
    choose_target();
    return CicKernels<std::int16_t, std::uint64_t>{HWY_DYNAMIC_DISPATCH(CicIntegrate16x64), HWY_DYNAMIC_DISPATCH(CicComb64), nullptr,
                                                   0, HWY_DYNAMIC_DISPATCH(CicSegments)(), 8};
  }();
  return kernels;
}

template <>
const CicKernels<std::int32_t, std::uint32_t>& cic_kernels() {
  static const CicKernels<std::int32_t, std::uint32_t> kernels = [] {
    choose_target();
    return CicKernels<std::int32_t, std::uint32_t>{HWY_DYNAMIC_DISPATCH(CicIntegrate32x32), HWY_DYNAMIC_DISPATCH(CicComb32),
                                                   HWY_DYNAMIC_DISPATCH(CicIntegrateLanes32),
                                                   HWY_DYNAMIC_DISPATCH(CicLaneSegments)(),
                                                   HWY_DYNAMIC_DISPATCH(CicSegments)(), 4};
  }();
  return kernels;
}

template <>
const CicKernels<std::int32_t, std::uint64_t>& cic_kernels() {
  static const CicKernels<std::int32_t, std::uint64_t> kernels = [] {
    choose_target();
    return CicKernels<std::int32_t, std::uint64_t>{HWY_DYNAMIC_DISPATCH(CicIntegrate32x64), HWY_DYNAMIC_DISPATCH(CicComb64), nullptr,
                                                   0, HWY_DYNAMIC_DISPATCH(CicSegments)(), 4};
  }();
  return kernels;
}

}  // namespace ripple::cpu
#endif  // HWY_ONCE
