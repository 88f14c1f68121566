// Work on the caller's memory and queues (include/ripple/device.hpp: Buffer::wrap,
// Queue::wrap, native_handle), as cuFFT and VkFFT users bring their own, on every device present
// and the CPU: plans and filters run on wrapped memory and leave it the caller's (not freed, its
// objects still usable); two wraps of one memory from the same byte run in place, overlapping
// ones are refused; an OpenCL queue of the caller's own context and a CUDA stream of the
// caller's take ripple's work in order with the caller's; each misfit (null, too small,
// misaligned, another context or device, out-of-order queue) is refused by name. The caller's
// side is written with the native APIs (OpenCL's, CUDA's runtime), as a user's program would.
#include <gtest/gtest.h>

#if defined(RIPPLE_TEST_OPENCL_API)
#include <CL/cl.h>
#endif
#if defined(RIPPLE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "common/expect_invalid.hpp"
#include "common/rel_l2.hpp"
#include "fft_test_util.hpp"
#include "gpu_test_util.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"
#include "ripple/fft/device.hpp"
#include "ripple/iir.hpp"
#include "ripple/iir/device.hpp"

namespace ripple {
namespace {

using C = std::complex<float>;
using test::expect_invalid;
using test::rel_l2;

// Memory the caller allocated with the device's own API, written and read through it: host
// memory on the CPU, clCreateBuffer in the queue's context, cudaMalloc.
class CallerMemory {
 public:
  CallerMemory(const Queue& queue, std::size_t bytes) : queue_(queue), bytes_(bytes) {
    switch (queue.device().kind()) {
      case DeviceKind::cpu:
        host_.resize(bytes / sizeof(double) + 1);
        handle_ = host_.data();
        break;
      case DeviceKind::opencl:
#if defined(RIPPLE_TEST_OPENCL_API)
      {
        cl_int status = CL_SUCCESS;
        handle_ = clCreateBuffer(context_of(queue), CL_MEM_READ_WRITE, bytes, nullptr, &status);
        EXPECT_EQ(status, CL_SUCCESS);
      }
#endif
      break;
      case DeviceKind::cuda:
#if defined(RIPPLE_HAVE_CUDA)
        EXPECT_EQ(cudaSetDevice(queue.device().index()), cudaSuccess);
        EXPECT_EQ(cudaMalloc(&handle_, bytes), cudaSuccess);
#endif
        break;
    }
  }
  ~CallerMemory() {
#if defined(RIPPLE_TEST_OPENCL_API)
    if (kind() == DeviceKind::opencl) clReleaseMemObject(static_cast<cl_mem>(handle_));
#endif
#if defined(RIPPLE_HAVE_CUDA)
    if (kind() == DeviceKind::cuda) cudaFree(handle_);
#endif
  }
  CallerMemory(const CallerMemory&) = delete;
  CallerMemory& operator=(const CallerMemory&) = delete;

  void* handle() const { return handle_; }

  // The handle of `bytes` bytes from `offset` on (0: all the rest): a pointer, or an OpenCL
  // sub-buffer (kept here).
  void* at(std::size_t offset, std::size_t bytes = 0) {
    if (kind() != DeviceKind::opencl) return static_cast<char*>(handle_) + offset;
#if defined(RIPPLE_TEST_OPENCL_API)
    const cl_buffer_region region{offset, bytes ? bytes : bytes_ - offset};
    cl_int status = CL_SUCCESS;
    cl_mem sub = clCreateSubBuffer(static_cast<cl_mem>(handle_), CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                   &region, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    subs_.emplace_back(sub, [](cl_mem m) { clReleaseMemObject(m); });
    return sub;
#else
    return nullptr;
#endif
  }

  template <class T>
  void write(const std::vector<T>& values) {
    const std::size_t bytes = values.size() * sizeof(T);
    switch (kind()) {
      case DeviceKind::cpu:
        std::memcpy(handle_, values.data(), bytes);
        break;
      case DeviceKind::opencl:
#if defined(RIPPLE_TEST_OPENCL_API)
        EXPECT_EQ(clEnqueueWriteBuffer(native_queue(), static_cast<cl_mem>(handle_), CL_TRUE, 0, bytes,
                                       values.data(), 0, nullptr, nullptr),
                  CL_SUCCESS);
#endif
        break;
      case DeviceKind::cuda:
#if defined(RIPPLE_HAVE_CUDA)
        EXPECT_EQ(cudaMemcpy(handle_, values.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
#endif
        break;
    }
  }

  template <class T>
  std::vector<T> read(std::size_t n) {
    std::vector<T> values(n);
    const std::size_t bytes = n * sizeof(T);
    queue_.synchronize();
    switch (kind()) {
      case DeviceKind::cpu:
        std::memcpy(values.data(), handle_, bytes);
        break;
      case DeviceKind::opencl:
#if defined(RIPPLE_TEST_OPENCL_API)
        EXPECT_EQ(clEnqueueReadBuffer(native_queue(), static_cast<cl_mem>(handle_), CL_TRUE, 0, bytes, values.data(),
                                      0, nullptr, nullptr),
                  CL_SUCCESS);
#endif
        break;
      case DeviceKind::cuda:
#if defined(RIPPLE_HAVE_CUDA)
        EXPECT_EQ(cudaMemcpy(values.data(), handle_, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
#endif
        break;
    }
    return values;
  }

#if defined(RIPPLE_TEST_OPENCL_API)
  static cl_context context_of(const Queue& queue) {
    cl_context context = nullptr;
    clGetCommandQueueInfo(static_cast<cl_command_queue>(queue.native_handle()), CL_QUEUE_CONTEXT, sizeof context,
                          &context, nullptr);
    return context;
  }
#endif

 private:
  DeviceKind kind() const { return queue_.device().kind(); }
#if defined(RIPPLE_TEST_OPENCL_API)
  cl_command_queue native_queue() const { return static_cast<cl_command_queue>(queue_.native_handle()); }
  std::vector<std::unique_ptr<std::remove_pointer_t<cl_mem>, void (*)(cl_mem)>> subs_;
#endif
  Queue queue_;
  std::size_t bytes_;
  std::vector<double> host_;
  void* handle_ = nullptr;
};

std::vector<C> random_values(std::size_t n, unsigned seed) { return gpu::test::random_complex<float>(n, seed); }

// The host plan's output for `in`, the reference the wrapped runs are held to.
std::vector<C> host_result(const fft::PlanDesc& desc, std::vector<C> in) {
  const fft::Plan plan(desc);
  std::vector<C> out(plan.output_span());
  plan.execute(in.data(), out.data());
  return out;
}

// The devices present of one API, for the tests of that API's own objects.
[[maybe_unused]] std::vector<std::string> device_ids_of(DeviceKind kind) {
  std::vector<std::string> ids;
  for (const std::string& id : gpu::test::gpu_device_ids())
    if (Device::parse(id).kind() == kind) ids.push_back(id);
  return ids;
}

class Interop : public gpu::test::QueueTest {
 protected:
  void SetUp() override {
    QueueTest::SetUp();
#if !defined(RIPPLE_TEST_OPENCL_API)
    if (queue().device().kind() == DeviceKind::opencl)
      GTEST_SKIP() << "built without an OpenCL library to link (libOpenCL.so; Debian ocl-icd-opencl-dev)";
#endif
  }
  bool on_cpu() const { return queue().device().kind() == DeviceKind::cpu; }
};
RIPPLE_INSTANTIATE_FOR_EACH_DEVICE(Interop);

TEST_P(Interop, PlansRunOnTheCallersMemoryAndLeaveIt) {
  fft::PlanDesc desc;
  desc.shape = {1000};
  desc.batch = 3;
  const std::vector<C> x = random_values(3000, 1);
  CallerMemory in(queue(), 3000 * sizeof(C)), out(queue(), 3000 * sizeof(C));
  in.write(x);
  out.write(std::vector<C>(3000, C(NAN, NAN)));
  {
    const Buffer<C> wrapped_in = Buffer<C>::wrap(queue(), in.handle(), 3000);
    Buffer<C> wrapped_out = Buffer<C>::wrap(queue(), out.handle(), 3000);
    EXPECT_EQ(wrapped_in.native_handle(), in.handle());
    EXPECT_EQ(wrapped_in.size(), 3000u);
    fft::DevicePlan(queue(), desc).execute(wrapped_in, wrapped_out);
    queue().synchronize();
  }
  // The buffers are gone, the caller's memory is not.
  EXPECT_LT(rel_l2(out.read<C>(3000), host_result(desc, x)), 1e-6);
  EXPECT_LT(rel_l2(in.read<C>(3000), x), 1e-12) << "the input was changed";
}

// A plan's work area in the caller's memory, from an offset into it (an OpenCL sub-buffer, whose
// pieces become sub-buffers of its parent; a CUDA pointer past the allocation's start).
TEST_P(Interop, AWorkAreaInTheCallersMemory) {
  fft::PlanDesc desc;
  desc.shape = {59049};
  fft::DevicePlan plan(queue(), desc, fft::WorkArea::caller);
  const std::size_t bytes = plan.work_bytes();
  CallerMemory memory(queue(), 8192 + bytes);
  memory.write(std::vector<unsigned char>(8192 + bytes, 0xff));
  Buffer<std::byte> area = Buffer<std::byte>::wrap(queue(), memory.at(4096), bytes);
  plan.set_work_area(area);
  const std::vector<C> x = random_values(59049, 9);
  Buffer<C> data(queue(), std::span<const C>(x));
  plan.execute(data, data);
  EXPECT_LT(rel_l2(data.to_vector(), host_result(desc, x)), 1e-5);
  // The bytes before and after the area are as they were.
  const std::vector<unsigned char> all = memory.read<unsigned char>(8192 + bytes);
  EXPECT_EQ(std::count(all.begin(), all.begin() + 4096, 0xff), 4096) << "before the area";
  EXPECT_EQ(std::count(all.begin() + 4096 + bytes, all.end(), 0xff), 4096) << "after the area";
  if (queue().device().kind() != DeviceKind::opencl) return;
  // A sub-buffer beside the area's pieces may be transformed; the buffer under them may not.
  const std::size_t data_bytes = (59049 * sizeof(C) + 4095) / 4096 * 4096;  // the data, then the area
  CallerMemory shared(queue(), data_bytes + bytes);
  Buffer<std::byte> piece_area = Buffer<std::byte>::wrap(queue(), shared.at(data_bytes, bytes), bytes);
  plan.set_work_area(piece_area);
  Buffer<C> beside = Buffer<C>::wrap(queue(), shared.at(0, 59049 * sizeof(C)), 59049);
  beside.upload(x);
  plan.execute(beside, beside);
  EXPECT_LT(rel_l2(beside.to_vector(), host_result(desc, x)), 1e-5);
  Buffer<C> whole = Buffer<C>::wrap(queue(), shared.handle(), 59049);
  Buffer<C> elsewhere(queue(), 59049);
  expect_invalid([&] { plan.execute(whole, elsewhere); }, {"in is the OpenCL buffer", "sub-buffers of"});
}

TEST_P(Interop, NativeHandlesReachRipplesOwnMemoryAndQueue) {
  Buffer<float> b(queue(), 4);
  EXPECT_NE(b.native_handle(), nullptr);
  EXPECT_EQ(queue().native_handle() == nullptr, on_cpu());
  // Written by the caller through the handle, read by ripple.
  Buffer<float> same = Buffer<float>::wrap(queue(), b.native_handle(), 4);
  same.upload(std::vector<float>{1, 2, 3, 4});
  EXPECT_EQ(b.to_vector(), (std::vector<float>{1, 2, 3, 4}));
}

TEST_P(Interop, TwoWrapsFromOneByteRunInPlace) {
  // The output innermost-batched: in place, each transform's output lands on others' input.
  fft::PlanDesc desc;
  desc.shape = {1000};
  desc.batch = 5;
  desc.out_stride = 5;
  desc.out_dist = 1;
  const std::vector<C> x = random_values(5000, 2);
  CallerMemory memory(queue(), 5000 * sizeof(C));
  memory.write(x);
  const Buffer<C> in = Buffer<C>::wrap(queue(), memory.handle(), 5000);
  Buffer<C> out = Buffer<C>::wrap(queue(), memory.handle(), 5000);
  fft::DevicePlan(queue(), desc).execute(in, out);
  EXPECT_LT(rel_l2(memory.read<C>(5000), host_result(desc, x)), 1e-6);

  // r2c in cuFFT's in-place layout, the reals and the spectrum wrapped apart.
  fft::PlanDesc real;
  real.shape = {64};
  real.batch = 3;
  real.kind = fft::Kind::r2c;
  real.in_dist = 66;
  real.out_dist = 33;
  std::vector<float> reals(198, 0.0f);
  for (std::size_t i = 0; i < reals.size(); ++i) reals[i] = i % 66 < 64 ? std::sin(0.37f * i) : 0.0f;
  memory.write(reals);
  const Buffer<float> real_in = Buffer<float>::wrap(queue(), memory.handle(), 198);
  Buffer<C> spectrum = Buffer<C>::wrap(queue(), memory.handle(), 99);
  fft::DevicePlan real_plan(queue(), real);
  real_plan.execute(real_in, spectrum);
  const fft::Plan host(real);
  std::vector<C> want(99);
  host.execute(reals.data(), want.data());
  EXPECT_LT(rel_l2(memory.read<C>(99), want), 1e-6);

  // Packed real layouts cannot share bytes: refused as execute(data) refuses them.
  real.in_dist = real.out_dist = 0;
  expect_invalid([&] { fft::DevicePlan(queue(), real).execute(real_in, spectrum); }, {"in place", "two buffers"});

  // A filter in place.
  const iir::Sos sos = iir::butter(4, 0.2);
  std::vector<float> samples(2000);
  for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = std::sin(0.05f * i) + (i % 7 == 0 ? 1.0f : 0.0f);
  memory.write(samples);
  const Buffer<float> x_samples = Buffer<float>::wrap(queue(), memory.handle(), 1000);
  Buffer<float> y_samples = Buffer<float>::wrap(queue(), memory.handle(), 1000);
  iir::sosfilt(sos, x_samples, y_samples, 2);
  const std::vector<float> want_y = iir::sosfilt(Queue(Device::cpu()), sos, std::span<const float>(samples).first(1000), 2);
  EXPECT_LT(rel_l2(memory.read<float>(1000), want_y), 1e-5);
  // A streaming filter on the buffer and a sub-buffer of it from its first byte.
  memory.write(samples);
  iir::DeviceFilter<float> filter(queue(), sos, 2);
  Buffer<float> y_part = Buffer<float>::wrap(queue(), memory.at(0, 4000), 1000);
  filter.process(x_samples, y_part);
  EXPECT_LT(rel_l2(memory.read<float>(1000), want_y), 1e-5);

  // c2r in place, its spectrum the larger side: the output wrapped on just its 196 reals.
  fft::PlanDesc inverse = real;
  inverse.kind = fft::Kind::c2r;
  inverse.direction = fft::Direction::backward;
  inverse.in_dist = 33;
  inverse.out_dist = 66;
  const std::vector<C> half = random_values(99, 6);
  memory.write(half);
  const Buffer<C> spectrum_in = Buffer<C>::wrap(queue(), memory.handle(), 99);
  Buffer<float> reals_out = Buffer<float>::wrap(queue(), memory.at(0, 196 * sizeof(float)), 196);
  fft::DevicePlan(queue(), inverse).execute(spectrum_in, reals_out);
  const fft::Plan host_inverse(inverse);
  std::vector<float> want_reals(196);
  std::vector<C> half_copy = half;
  host_inverse.execute(half_copy.data(), want_reals.data());
  const std::vector<float> got = memory.read<float>(196);
  for (std::size_t b = 0; b < 3; ++b)
    EXPECT_LT(rel_l2(std::vector<float>(got.begin() + 66 * b, got.begin() + 66 * b + 64),
                     std::vector<float>(want_reals.begin() + 66 * b, want_reals.begin() + 66 * b + 64)),
              1e-5)
        << "transform " << b;
}

TEST_P(Interop, OverlappingWrapsAreRefused) {
  fft::PlanDesc desc;
  desc.shape = {1024};
  desc.batch = 2;
  CallerMemory memory(queue(), 8192 * sizeof(C));
  memory.write(random_values(8192, 3));
  const fft::DevicePlan plan(queue(), desc);
  const Buffer<C> in = Buffer<C>::wrap(queue(), memory.at(0), 2048);
  Buffer<C> overlapping = Buffer<C>::wrap(queue(), memory.at(512 * sizeof(C)), 2048);
  expect_invalid([&] { plan.execute(in, overlapping); }, {"in and out share memory", "same byte"});
  // Apart: the output after the input's 2048 values.
  Buffer<C> apart = Buffer<C>::wrap(queue(), memory.at(4096 * sizeof(C)), 2048);
  const std::vector<C> x = memory.read<C>(2048);
  plan.execute(in, apart);
  EXPECT_LT(rel_l2(apart.to_vector(), host_result(desc, x)), 1e-6);
  // OpenCL: a buffer and a sub-buffer of it, however far apart, are not one command's in and out.
  const Buffer<C> whole = Buffer<C>::wrap(queue(), memory.handle(), 2048);
  if (queue().device().kind() == DeviceKind::opencl)
    expect_invalid([&] { plan.execute(whole, apart); }, {"in and out", "sub-buffer of it"});

  // A filter's x and y, and its state.
  const iir::Sos sos = iir::butter(4, 0.2);
  const Buffer<float> x_samples = Buffer<float>::wrap(queue(), memory.at(0), 2000);
  Buffer<float> y_samples = Buffer<float>::wrap(queue(), memory.at(512 * sizeof(C)), 2000);
  expect_invalid([&] { iir::sosfilt(sos, x_samples, y_samples); }, {"sosfilt", "x and y share memory"});
  Buffer<float> state = Buffer<float>::wrap(queue(), memory.at(4096 * sizeof(C)), sos.size() * 2);
  Buffer<float> y_apart = Buffer<float>::wrap(queue(), memory.at(4096 * sizeof(C)), 2000);
  expect_invalid([&] { iir::sosfilt(sos, x_samples, y_apart, 1, state); }, {"the state and y share memory"});
}

TEST_P(Interop, WrapRefusesNullMisalignedAndSmallMemory) {
  expect_invalid([&] { (void)Buffer<C>::wrap(queue(), nullptr, 4); }, {"Buffer::wrap", "null"});
  CallerMemory memory(queue(), 64);
  if (queue().device().kind() != DeviceKind::opencl)  // OpenCL sub-buffers are aligned by the driver
    expect_invalid([&] { (void)Buffer<C>::wrap(queue(), memory.at(2), 4); }, {"Buffer::wrap", "aligned"});
  if (!on_cpu())  // a host pointer tells nothing of its size
    expect_invalid([&] { (void)Buffer<C>::wrap(queue(), memory.handle(), 1 << 20); }, {"Buffer::wrap", "8388608"});
  expect_invalid([&] { (void)Buffer<C>::wrap(queue(), memory.handle(), std::size_t(-1) / 4); }, "overflows");
  if (on_cpu()) expect_invalid([&] { (void)Queue::wrap(Device::cpu(), nullptr); }, "CPU has no queue");
}

#if defined(RIPPLE_TEST_OPENCL_API)
// The caller's own cl_context, in-order queue and buffers (as pyopencl's or an application's).
class CallersOpenclContext {
 public:
  explicit CallersOpenclContext(const Queue& ripple_queue, cl_command_queue_properties properties = 0) {
    clGetCommandQueueInfo(static_cast<cl_command_queue>(ripple_queue.native_handle()), CL_QUEUE_DEVICE,
                          sizeof device_, &device_, nullptr);
    cl_int status = CL_SUCCESS;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    queue_ = clCreateCommandQueue(context_, device_, properties, &status);
    ok_ = status == CL_SUCCESS;
  }
  ~CallersOpenclContext() {
    for (cl_mem m : buffers_) clReleaseMemObject(m);
    if (queue_) clReleaseCommandQueue(queue_);
    clReleaseContext(context_);
  }
  bool ok() const { return ok_; }
  cl_command_queue queue() const { return queue_; }
  cl_mem buffer(std::size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE) {
    cl_int status = CL_SUCCESS;
    buffers_.push_back(clCreateBuffer(context_, flags, bytes, nullptr, &status));
    EXPECT_EQ(status, CL_SUCCESS);
    return buffers_.back();
  }

 private:
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  bool ok_ = false;
  std::vector<cl_mem> buffers_;
};

class OpenclInterop : public gpu::test::QueueTest {};
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OpenclInterop);
INSTANTIATE_TEST_SUITE_P(Devices, OpenclInterop, ::testing::ValuesIn(device_ids_of(DeviceKind::opencl)),
                         gpu::test::device_test_name);

TEST_P(OpenclInterop, WorkOnTheCallersQueueIsInOrderWithTheCallers) {
  CallersOpenclContext caller(queue());
  ASSERT_TRUE(caller.ok());
  fft::PlanDesc desc;
  desc.shape = {48, 30};
  desc.kind = fft::Kind::r2c;
  std::vector<float> x(48 * 30);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.11f * i * i);
  std::vector<C> y(48 * 16, C(NAN, NAN));
  cl_mem in = caller.buffer(x.size() * sizeof(float)), out = caller.buffer(y.size() * sizeof(C));
  {
    const Queue wrapped = Queue::wrap(queue().device(), caller.queue());
    EXPECT_EQ(wrapped.native_handle(), caller.queue());
    const fft::DevicePlan plan(wrapped, desc);
    const Buffer<float> wrapped_in = Buffer<float>::wrap(wrapped, in, x.size());
    Buffer<C> wrapped_out = Buffer<C>::wrap(wrapped, out, y.size());
    // Neither the caller nor ripple waits between the write, the transform and the read: the
    // queue orders them.
    ASSERT_EQ(clEnqueueWriteBuffer(caller.queue(), in, CL_FALSE, 0, x.size() * sizeof(float), x.data(), 0, nullptr,
                                   nullptr),
              CL_SUCCESS);
    plan.execute(wrapped_in, wrapped_out);
    ASSERT_EQ(clEnqueueReadBuffer(caller.queue(), out, CL_FALSE, 0, y.size() * sizeof(C), y.data(), 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(caller.queue()), CL_SUCCESS);
    const fft::Plan host(desc);
    std::vector<C> want(host.output_span());
    host.execute(x.data(), want.data());
    EXPECT_LT(rel_l2(y, want), 1e-6);

    // Memory of the caller's context is not ripple's, nor the other way round.
    Buffer<C> ripples(queue(), y.size());
    expect_invalid([&] { plan.execute(Buffer<float>(queue(), x.size()), wrapped_out); },
                   {"execute", "in and the plan", "different OpenCL contexts"});
    expect_invalid([&] { (void)Buffer<C>::wrap(queue(), out, y.size()); }, "another OpenCL context");
    expect_invalid([&] { fft::DevicePlan(queue(), desc).execute(wrapped_in, ripples); }, "different OpenCL contexts");
  }
  // ripple's Queue is gone, the caller's queue is not.
  std::vector<float> again(x.size());
  EXPECT_EQ(clEnqueueReadBuffer(caller.queue(), in, CL_TRUE, 0, x.size() * sizeof(float), again.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  EXPECT_EQ(again, x);
}

// A context of the caller's over two devices of one platform (PoCL with
// POCL_DEVICES="pthread pthread"; skipped where the platform has one): a queue of each device
// wrapped, each runs on its own device.
TEST_P(OpenclInterop, CallersContextOverTwoDevices) {
  cl_device_id mine = nullptr;
  clGetCommandQueueInfo(static_cast<cl_command_queue>(queue().native_handle()), CL_QUEUE_DEVICE, sizeof mine, &mine,
                        nullptr);
  cl_platform_id platform = nullptr;
  clGetDeviceInfo(mine, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr);
  cl_uint count = 0;
  clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (count < 2) GTEST_SKIP() << "the platform has one device";
  std::vector<cl_device_id> devices(count);
  clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr);
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 2, devices.data(), nullptr, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  fft::PlanDesc desc;
  desc.shape = {360};
  const std::vector<C> x = random_values(360, 8);
  cl_command_queue queues[2];
  cl_mem memory[2];
  for (int d = 0; d < 2; ++d) {
    queues[d] = clCreateCommandQueue(context, devices[d], 0, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    memory[d] = clCreateBuffer(context, CL_MEM_READ_WRITE, 360 * sizeof(C), nullptr, &status);
  }
  {
    // Both wrapped at once, so both are in use together.
    std::vector<Queue> wrapped;
    for (int d = 0; d < 2; ++d) wrapped.push_back(Queue::wrap(Device::opencl(queue().device().platform(), d), queues[d]));
    for (int d = 0; d < 2; ++d) {
      Buffer<C> data = Buffer<C>::wrap(wrapped[d], memory[d], 360);
      data.upload(x);
      fft::DevicePlan(wrapped[d], desc).execute(data, data);
      EXPECT_LT(rel_l2(data.to_vector(), host_result(desc, x)), 1e-6) << "device " << d;
    }
  }
  for (int d = 0; d < 2; ++d) {
    clReleaseMemObject(memory[d]);
    clReleaseCommandQueue(queues[d]);
  }
  clReleaseContext(context);
}

// Device::release_cached_memory() empties the tables of contexts of the caller's too.
TEST_P(OpenclInterop, ReleaseCachedMemoryReachesCallersContexts) {
  CallersOpenclContext caller(queue());
  ASSERT_TRUE(caller.ok());
  const Queue wrapped = Queue::wrap(queue().device(), caller.queue());
  queue().device().release_cached_memory();
  {
    fft::PlanDesc desc;
    desc.shape = {59049};  // two passes: twiddle tables
    const fft::DevicePlan plan(wrapped, desc);
  }
  EXPECT_GT(queue().device().release_cached_memory(), 0u);
  EXPECT_EQ(queue().device().release_cached_memory(), 0u);
}

TEST_P(OpenclInterop, MisfitsAreRefusedByName) {
  CallersOpenclContext caller(queue());
  ASSERT_TRUE(caller.ok());
  const Queue wrapped = Queue::wrap(queue().device(), caller.queue());
  expect_invalid([&] { (void)Buffer<C>::wrap(wrapped, caller.buffer(64, CL_MEM_READ_ONLY), 8); }, "CL_MEM_READ_ONLY");
  expect_invalid([&] { (void)Buffer<C>::wrap(wrapped, caller.buffer(64, CL_MEM_WRITE_ONLY), 8); }, "CL_MEM_WRITE_ONLY");
  Buffer<C> closed = Buffer<C>::wrap(wrapped, caller.buffer(64, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS), 8);
  expect_invalid([&] { closed.upload(random_values(8, 7)); }, {"Buffer::upload", "CL_MEM_HOST_NO_ACCESS"});
  expect_invalid([&] { (void)closed.to_vector(); }, {"Buffer::download", "CL_MEM_HOST_NO_ACCESS"});
  expect_invalid([&] { (void)Buffer<C>::wrap(wrapped, caller.buffer(64), 9); }, {"holds 64 bytes", "needs 72"});
  expect_invalid([&] { (void)Queue::wrap(queue().device(), nullptr); }, {"Queue::wrap", "null"});
  CallersOpenclContext out_of_order(queue(), CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  if (out_of_order.ok())  // where the driver has such queues
    expect_invalid([&] { (void)Queue::wrap(queue().device(), out_of_order.queue()); }, "out of order");
  // A queue of ripple's own context shares ripple's memory.
  const Queue same = Queue::wrap(queue().device(), queue().native_handle());
  Buffer<C> b(queue(), 8);
  b.upload(random_values(8, 4));
  fft::PlanDesc desc;
  desc.shape = {8};
  Buffer<C> out(same, 8);
  fft::DevicePlan(same, desc).execute(b, out);
  EXPECT_LT(rel_l2(out.to_vector(), host_result(desc, b.to_vector())), 1e-6);
}
#endif

#if defined(RIPPLE_HAVE_CUDA)
class CudaInterop : public gpu::test::QueueTest {};
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CudaInterop);
INSTANTIATE_TEST_SUITE_P(Devices, CudaInterop, ::testing::ValuesIn(device_ids_of(DeviceKind::cuda)),
                         gpu::test::device_test_name);

TEST_P(CudaInterop, WorkOnTheCallersStreamIsInOrderWithTheCallers) {
  ASSERT_EQ(cudaSetDevice(queue().device().index()), cudaSuccess);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  fft::PlanDesc desc;
  desc.shape = {1 << 16};
  desc.batch = 2;
  const std::vector<C> x = random_values(1 << 17, 5);
  std::vector<C> y(x.size());
  void* memory = nullptr;
  ASSERT_EQ(cudaMalloc(&memory, x.size() * sizeof(C)), cudaSuccess);
  {
    const Queue wrapped = Queue::wrap(queue().device(), stream);
    EXPECT_EQ(wrapped.native_handle(), stream);
    const fft::DevicePlan plan(wrapped, desc);
    Buffer<C> data = Buffer<C>::wrap(wrapped, memory, x.size());
    ASSERT_EQ(cudaMemcpyAsync(memory, x.data(), x.size() * sizeof(C), cudaMemcpyHostToDevice, stream), cudaSuccess);
    plan.execute(data, data);
    ASSERT_EQ(cudaMemcpyAsync(y.data(), memory, y.size() * sizeof(C), cudaMemcpyDeviceToHost, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    EXPECT_LT(rel_l2(y, host_result(desc, x)), 1e-6);
    // The default stream is a queue too.
    const Queue default_stream = Queue::wrap(queue().device(), nullptr);
    Buffer<C> again = Buffer<C>::wrap(default_stream, memory, x.size());
    again.upload(x);
    fft::DevicePlan(default_stream, desc).execute(again, again);
    EXPECT_LT(rel_l2(again.to_vector(), host_result(desc, x)), 1e-6);
  }
  // ripple's Queue is gone, the caller's stream is not.
  ASSERT_EQ(cudaMemsetAsync(memory, 0, x.size() * sizeof(C), stream), cudaSuccess);
  ASSERT_EQ(cudaMemcpyAsync(y.data(), memory, y.size() * sizeof(C), cudaMemcpyDeviceToHost, stream), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(y, std::vector<C>(x.size(), C(0, 0)));
  cudaStreamDestroy(stream);
  cudaFree(memory);
}

TEST_P(CudaInterop, MisfitsAreRefusedByName) {
  std::vector<C> host(16);
  expect_invalid([&] { (void)Buffer<C>::wrap(queue(), host.data(), 16); }, "not CUDA device memory");
  void* pinned = nullptr;
  ASSERT_EQ(cudaMallocHost(&pinned, 64), cudaSuccess);
  expect_invalid([&] { (void)Buffer<C>::wrap(queue(), pinned, 8); }, "page-locked host memory");
  cudaFreeHost(pinned);
  void* small = nullptr;
  ASSERT_EQ(cudaMalloc(&small, 64), cudaSuccess);
  expect_invalid([&] { (void)Buffer<std::complex<double>>::wrap(queue(), static_cast<char*>(small) + 8, 2); },
                 "aligned to 16 bytes");
  cudaFree(small);
}
#endif

}  // namespace
}  // namespace ripple
