// Helpers of the GPU tests: the first OpenCL device (PoCL in CI) and the kernel cache in the
// build tree.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gpu/kernel_cache.hpp"
#include "gpu/registry.hpp"
#include "gpu/runtime.hpp"
#include "ripple/device.hpp"

namespace ripple::gpu::test {

/// The first OpenCL device, or null with *why set.
inline Device first_opencl_device(std::string* why) {
  Backend* b = opencl_backend();
  if (!b) {
    *why = not_built_reason(Api::opencl);
    return Device::cpu();
  }
  if (b->devices().empty()) {
    *why = b->absent_reason();
    return Device::cpu();
  }
  return Device::opencl(b->devices()[0].platform, b->devices()[0].device);
}

/// The context of the first OpenCL device, with the test kernel cache; null if there is none.
inline std::shared_ptr<Context> opencl_context(std::string* why) {
#ifdef RIPPLE_TEST_CACHE_DIR
  static const bool cache_set = (set_kernel_cache_directory(RIPPLE_TEST_CACHE_DIR), true);
  (void)cache_set;
#endif
  const Device d = first_opencl_device(why);
  if (d.kind() != DeviceKind::opencl) return nullptr;
  return open_device(d);
}

}  // namespace ripple::gpu::test

/// Skips the test, saying why, when there is no OpenCL device.
#define RIPPLE_REQUIRE_OPENCL(ctx)                                        \
  std::string ripple_no_opencl_why_;                                      \
  auto ctx = ::ripple::gpu::test::opencl_context(&ripple_no_opencl_why_); \
  if (!ctx) GTEST_SKIP() << "no OpenCL device: " << ripple_no_opencl_why_
