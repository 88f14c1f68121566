// Helpers of the GPU tests: a fixture parameterized over every GPU device present (CUDA devices
// and OpenCL devices: PoCL in CI, NVIDIA's CUDA and OpenCL on a lent GPU), with the kernel cache
// in the build tree so test processes share compiled kernels.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/kernel_cache.hpp"
#include "gpu/registry.hpp"
#include "gpu/runtime.hpp"
#include "ripple/device.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu::test {

/// "cuda:0", "opencl:0.0", ... for every GPU device present.
inline std::vector<std::string> gpu_device_ids() {
  std::vector<std::string> ids;
  for (const Device& d : Device::list())
    if (d.kind() != DeviceKind::cpu) ids.push_back(d.to_string());
  return ids;
}

/// A test name part for a device id: "opencl:0.0" -> "opencl_0_0".
inline std::string device_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (c == ':' || c == '.') c = '_';
  return s;
}

/// A new Context on `device` (not the shared one), as a fresh process would have.
inline std::shared_ptr<Context> fresh_context(const Device& device) {
  Backend* b = device.kind() == DeviceKind::cuda ? cuda_backend() : opencl_backend();
  const DeviceFacts* f = find_device(device);
  return b->open(static_cast<std::size_t>(f - b->devices().data()));
}

/// Whether `device` is Oclgrind's simulator (the race check, tests/gpu/CMakeLists.txt).
inline bool is_oclgrind(const Device& device) {
  return device.kind() == DeviceKind::opencl && device.info().platform == "Oclgrind";
}

/// Compiled kernels go to the build tree's cache (set once per process), shared by the tests
/// (on PoCL, to PoCL's own cache instead: Context::driver_caches_programs). On Oclgrind (the
/// race check, tests/gpu/CMakeLists.txt), whose builds take options of their own
/// (OCLGRIND_BUILD_OPTIONS) that no cache key holds, nothing is kept on disk.
inline void use_test_kernel_cache(const Device& device) {
  if (is_oclgrind(device)) {
    set_kernel_cache_directory({});
    return;
  }
#ifdef RIPPLE_TEST_CACHE_DIR
  static const bool cache_set = (set_kernel_cache_directory(RIPPLE_TEST_CACHE_DIR), true);
  (void)cache_set;
#endif
}

/// "cpu" and every GPU device present (for the public APIs, which run on all of them).
inline std::vector<std::string> all_device_ids() {
  std::vector<std::string> ids{"cpu"};
  for (const auto& id : gpu_device_ids()) ids.push_back(id);
  return ids;
}

/// A fixture with a Queue on the device of its parameter (a device id as Device::parse reads).
class QueueTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const Device device = Device::parse(GetParam());
    use_test_kernel_cache(device);
    queue_.emplace(device);
  }
  const Queue& queue() const { return *queue_; }

 private:
  std::optional<Queue> queue_;
};

class GpuTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    device_ = Device::parse(GetParam());
    use_test_kernel_cache(device_);
    context_ = open_device(device_);
  }
  const Device& device() const { return device_; }
  Context& ctx() { return *context_; }
  bool is_cuda() const { return device_.kind() == DeviceKind::cuda; }

 private:
  Device device_;
  std::shared_ptr<Context> context_;
};

/// A Context that forwards everything to another: the base of the decorators below, each of
/// which changes one thing a device could differ in.
class ForwardingContext : public Context {
 public:
  explicit ForwardingContext(Context& inner) : inner_(inner) {}
  const DeviceFacts& facts() const override { return inner_.facts(); }
  std::string binary_identity() const override { return inner_.binary_identity(); }
  std::vector<std::byte> compile(const std::string& source, const std::vector<std::string>& options,
                                 std::unique_ptr<Module>* module, bool want_binary) override {
    return inner_.compile(source, options, module, want_binary);
  }
  bool driver_caches_programs() const override { return inner_.driver_caches_programs(); }
  std::unique_ptr<Module> load(std::span<const std::byte> binary) override { return inner_.load(binary); }
  std::unique_ptr<Stream> create_stream() override { return inner_.create_stream(); }
  std::unique_ptr<Memory> wrap_memory(void* native, std::size_t bytes, std::size_t alignment) override {
    return inner_.wrap_memory(native, bytes, alignment);
  }
  std::unique_ptr<Stream> wrap_stream(void* native) override { return inner_.wrap_stream(native); }
  std::unique_ptr<Memory> placeholder(std::size_t bytes) override { return inner_.placeholder(bytes); }

 protected:
  std::unique_ptr<Memory> allocate_memory(std::size_t bytes) override { return inner_.allocate(bytes); }

 private:
  Context& inner_;
};

/// Holds the context a decorator forwards to, as its first base: made before the decorator's
/// Context part and destroyed after it (and after the modules that part keeps).
struct OwnedContext {
  std::shared_ptr<Context> owned;
};

/// A fresh context that uses ripple's disk cache even where the driver caches programs itself
/// (PoCL), so that the disk cache's tests run on every device.
class WithDiskCache final : private OwnedContext, public ForwardingContext {
 public:
  explicit WithDiskCache(std::shared_ptr<Context> inner)
      : OwnedContext{std::move(inner)}, ForwardingContext(*owned) {}
  bool driver_caches_programs() const override { return false; }
};

/// A Context that refuses the first `count` allocations of at least `min_bytes` with
/// DeviceError, as a device short of memory would: for the paths that fall back to using less
/// memory.
class ShortOfMemory final : public ForwardingContext {
 public:
  ShortOfMemory(Context& inner, std::size_t min_bytes, int count)
      : ForwardingContext(inner), min_bytes_(min_bytes), left_(count) {}
  /// How many allocations were refused.
  int refused() const { return refused_; }

 protected:
  std::unique_ptr<Memory> allocate_memory(std::size_t bytes) override {
    if (bytes >= min_bytes_ && left_ > 0) {
      --left_;
      ++refused_;
      throw DeviceError("test: out of device memory allocating " + std::to_string(bytes) + " bytes");
    }
    return ForwardingContext::allocate_memory(bytes);
  }

 private:
  std::size_t min_bytes_;
  int left_;
  int refused_ = 0;
};

/// A Context whose device reports work-groups of at most `max_group` work-items (AMD's OpenCL
/// GPUs report 256) and, optionally, less local memory (an embedded-profile OpenCL device):
/// for the paths that shape their programs to the device's limits.
class SmallDevice final : public ForwardingContext {
 public:
  /// local_memory (bytes a group may have) is the inner device's where 0.
  SmallDevice(Context& inner, std::size_t max_group, std::uint64_t local_memory = 0)
      : ForwardingContext(inner), facts_(inner.facts()) {
    facts_.max_work_group = max_group;
    if (local_memory != 0) facts_.local_memory = local_memory;
  }
  const DeviceFacts& facts() const override { return facts_; }

 private:
  DeviceFacts facts_;
};

/// A Context whose nth allocation of at least min_bytes fails with DeviceError, as on a device
/// out of memory: for the paths that fall back where a larger scratch cannot be had.
class FailingAllocation final : public ForwardingContext {
 public:
  FailingAllocation(Context& inner, std::size_t min_bytes, int nth)
      : ForwardingContext(inner), min_bytes_(min_bytes), nth_(nth) {}
  /// Whether the refused allocation was asked for.
  bool refused() const { return seen_ >= nth_; }

 protected:
  std::unique_ptr<Memory> allocate_memory(std::size_t bytes) override {
    if (bytes >= min_bytes_ && ++seen_ == nth_)
      throw DeviceError("test: an allocation of " + std::to_string(bytes) + " bytes refused");
    return ForwardingContext::allocate_memory(bytes);
  }

 private:
  std::size_t min_bytes_;
  int nth_, seen_ = 0;
};

}  // namespace ripple::gpu::test

/// Runs the fixture's tests on the CPU and once per GPU device.
#define RIPPLE_INSTANTIATE_FOR_EACH_DEVICE(fixture)                                                      \
  INSTANTIATE_TEST_SUITE_P(Devices, fixture, ::testing::ValuesIn(::ripple::gpu::test::all_device_ids()), \
                           ::ripple::gpu::test::device_test_name)

/// Runs the fixture's tests once per GPU device; machines without one run none of them (the
/// device tests check that PoCL is found where it is installed).
#define RIPPLE_INSTANTIATE_FOR_EACH_GPU(fixture)                                                         \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(fixture);                                                \
  INSTANTIATE_TEST_SUITE_P(Devices, fixture, ::testing::ValuesIn(::ripple::gpu::test::gpu_device_ids()), \
                           ::ripple::gpu::test::device_test_name)
