// include/ripple/device.hpp: device ids, listing, best(), backend reports, CPU buffers.
#include "ripple/device.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <vector>

#include "gpu/queue_impl.hpp"
#include "gpu/registry.hpp"
#include "ripple/error.hpp"

namespace ripple {
namespace {

TEST(DeviceId, ParsesAndPrintsEveryKind) {
  EXPECT_EQ(Device::parse("cpu"), Device::cpu());
  EXPECT_EQ(Device::parse("cuda:3"), Device::cuda(3));
  EXPECT_EQ(Device::parse("cuda"), Device::cuda(0));
  EXPECT_EQ(Device::parse("opencl:1.2"), Device::opencl(1, 2));
  const Device d = Device::parse("opencl:0.5");
  EXPECT_EQ(d.kind(), DeviceKind::opencl);
  EXPECT_EQ(d.platform(), 0);
  EXPECT_EQ(d.index(), 5);
  for (const char* text : {"cpu", "cuda:0", "cuda:12", "opencl:0.0", "opencl:3.7"})
    EXPECT_EQ(Device::parse(text).to_string(), text);
}

TEST(DeviceId, RejectsMalformedTextNamingIt) {
  for (const char* text : {"gpu", "", "cuda:", "cuda:-1", "cuda:x", "cuda:1.0", "opencl:1", "opencl:0.",
                           "opencl:a.b", "opencl:0.-1", "CPU", "cuda:+1", "opencl:0.0.0"}) {
    try {
      Device::parse(text);
      ADD_FAILURE() << "accepted \"" << text << "\"";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("\"" + std::string(text) + "\""), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(Device::cuda(-1), InvalidArgument);
  EXPECT_THROW(Device::opencl(0, -2), InvalidArgument);
}

TEST(DeviceList, CpuFirstAndEveryListedDeviceIsAvailable) {
  const auto all = Device::list();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front(), Device::cpu());
  for (const Device& d : all) {
    EXPECT_TRUE(d.available()) << d.to_string();
    const DeviceInfo info = d.info();
    EXPECT_FALSE(info.name.empty()) << d.to_string();
    EXPECT_GT(info.compute_units, 0u) << d.to_string();
    if (d.kind() != DeviceKind::cpu) EXPECT_GT(info.global_memory, 0u) << d.to_string();
    // For the record (bench/gpu/run.sh shows these lines of a GPU machine's log).
    std::printf("[ device %s ] %s, %u compute units, %.1f GiB, driver %s, %s\n", d.to_string().c_str(),
                info.name.c_str(), info.compute_units, static_cast<double>(info.global_memory) / (1 << 30),
                info.driver_version.c_str(), info.runtime_version.c_str());
  }
  EXPECT_EQ(all.size(), 1 + gpu::all_devices().size());
}

TEST(DeviceList, AbsentDevicesAreReportedNotFatal) {
  const Device ghost = Device::opencl(99, 0);
  EXPECT_FALSE(ghost.available());
  EXPECT_THROW(ghost.info(), Unsupported);
  try {
    Queue q(ghost);
    FAIL() << "opened an absent device";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("opencl:99.0"), std::string::npos) << e.what();
  }
}

TEST(DeviceList, BackendsReportWhyTheyHaveNoDevices) {
  const auto backends = Device::backends();
  ASSERT_EQ(backends.size(), 2u);
  EXPECT_EQ(backends[0].name, "CUDA");
  EXPECT_EQ(backends[1].name, "OpenCL");
  for (const auto& b : backends) {
    std::printf("[ backend %s ] %s, %zu devices%s%s\n", b.name.c_str(), b.built ? "built" : "not built", b.devices,
                b.reason.empty() ? "" : ": ", b.reason.c_str());
    if (b.devices == 0)
      EXPECT_FALSE(b.reason.empty()) << b.name;
    else
      EXPECT_TRUE(b.reason.empty()) << b.name << ": " << b.reason;
  }
#ifdef RIPPLE_HAVE_CUDA
  EXPECT_TRUE(backends[0].built);
#else
  EXPECT_FALSE(backends[0].built);
  EXPECT_NE(backends[0].reason.find("not built"), std::string::npos);
#endif
#ifdef RIPPLE_HAVE_OPENCL
  EXPECT_TRUE(backends[1].built);
#endif
}

// With PoCL installed (CI installs it), its CPU device is listed, so the OpenCL tests cannot
// silently skip there.
TEST(DeviceList, FindsPoclWhenItsIcdIsInstalled) {
#ifndef RIPPLE_HAVE_OPENCL
  GTEST_SKIP() << "this build has no OpenCL backend";
#else
  if (!std::filesystem::exists("/etc/OpenCL/vendors/pocl.icd") || std::getenv("OCL_ICD_VENDORS"))
    GTEST_SKIP() << "PoCL's ICD is not installed (apt-get install pocl-opencl-icd)";
  bool found = false;
  for (const Device& d : Device::list())
    if (d.kind() == DeviceKind::opencl &&
        d.info().platform.find("Portable Computing Language") != std::string::npos) {
      found = true;
      EXPECT_FALSE(d.info().is_gpu);
      EXPECT_TRUE(d.info().fp64);
    }
  EXPECT_TRUE(found) << "OpenCL: " << Device::backends()[1].reason;
#endif
}

TEST(DeviceBest, PrefersCudaThenOpenclGpusThenTheCpu) {
  const auto& all = gpu::all_devices();
  bool cuda = false, cl_gpu = false, cl_cpu = false;
  for (const auto& f : all) {
    cuda |= f.api == gpu::Api::cuda;
    cl_gpu |= f.api == gpu::Api::opencl && f.is_gpu;
    cl_cpu |= f.api == gpu::Api::opencl && !f.is_gpu;
  }
  const Device best = Device::best();
  if (cuda)
    EXPECT_EQ(best.kind(), DeviceKind::cuda);
  else if (cl_gpu)
    EXPECT_TRUE(best.kind() == DeviceKind::opencl && best.info().is_gpu);
  else
    EXPECT_EQ(best, Device::cpu());  // PoCL's CPU device is not preferred over the CPU itself
  if (!cuda && !cl_gpu && cl_cpu) {
    const Device asked = Device::best(true);
    EXPECT_EQ(asked.kind(), DeviceKind::opencl);
    EXPECT_FALSE(asked.info().is_gpu);
  }
}

TEST(CpuBuffer, UploadDownloadAndRangeChecks) {
  Queue q(Device::cpu());
  EXPECT_EQ(q.device(), Device::cpu());
  const std::vector<double> host = {1, 2, 3, 4, 5};
  Buffer<double> buf(q, std::span<const double>(host));
  EXPECT_EQ(buf.size(), 5u);
  EXPECT_EQ(buf.to_vector(), host);
  const std::vector<double> part = {9, 8};
  buf.upload(std::span<const double>(part), 3);
  std::vector<double> back(3);
  buf.download(std::span<double>(back), 2);
  EXPECT_EQ(back, (std::vector<double>{3, 9, 8}));
  EXPECT_THROW(buf.upload(std::span<const double>(part), 4), InvalidArgument);
  EXPECT_THROW(buf.download(std::span<double>(back), 3), InvalidArgument);
  try {
    buf.download(std::span<double>(back), 6);
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("offset 6"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Buffer<double>(q, static_cast<std::size_t>(-1) / 4), InvalidArgument);
  q.synchronize();
}

// The caller's host memory as a CPU Buffer (tests/gpu/interop_test.cpp has every device; this
// one also runs under the sanitizers): copies reach the caller's array, its bytes outlive the
// buffer, moves keep the pointer, and two wraps are told apart from one another.
TEST(CpuBuffer, WrapsTheCallersMemory) {
  const Queue q(Device::cpu());
  EXPECT_EQ(q.native_handle(), nullptr);
  std::vector<double> mine = {1, 2, 3, 4, 5, 6};
  {
    Buffer<double> wrapped = Buffer<double>::wrap(q, mine.data(), 4);
    EXPECT_EQ(wrapped.native_handle(), mine.data());
    EXPECT_EQ(wrapped.to_vector(), (std::vector<double>{1, 2, 3, 4}));
    wrapped.upload(std::vector<double>{9, 8}, 1);
    Buffer<double> moved = std::move(wrapped);
    EXPECT_EQ(moved.native_handle(), mine.data());
    EXPECT_THROW(moved.upload(std::vector<double>{7}, 4), InvalidArgument);  // past its 4 values
  }
  EXPECT_EQ(mine, (std::vector<double>{1, 9, 8, 4, 5, 6}));
  const Buffer<double> a = Buffer<double>::wrap(q, mine.data(), 4);
  const Buffer<double> same = Buffer<double>::wrap(q, mine.data(), 2);
  const Buffer<double> inside = Buffer<double>::wrap(q, mine.data() + 3, 3);
  const Buffer<double> after = Buffer<double>::wrap(q, mine.data() + 4, 2);
  using gpu::Sharing;
  EXPECT_EQ(gpu::sharing(a.raw(), 32, a.raw(), 32), Sharing::same_start);
  EXPECT_EQ(gpu::sharing(a.raw(), 32, same.raw(), 16), Sharing::same_start);
  EXPECT_EQ(gpu::sharing(a.raw(), 32, inside.raw(), 24), Sharing::overlapping);
  EXPECT_EQ(gpu::sharing(inside.raw(), 24, a.raw(), 32), Sharing::overlapping);
  EXPECT_EQ(gpu::sharing(a.raw(), 32, after.raw(), 16), Sharing::apart);
  EXPECT_EQ(gpu::sharing(a.raw(), 24, inside.raw(), 24), Sharing::apart);  // only 3 values of a used
  EXPECT_EQ(gpu::sharing(Buffer<double>(q, 4).raw(), 32, a.raw(), 32), Sharing::apart);
  EXPECT_THROW((void)Buffer<double>::wrap(q, nullptr, 1), InvalidArgument);
  EXPECT_THROW((void)Buffer<double>::wrap(q, reinterpret_cast<char*>(mine.data()) + 4, 1), InvalidArgument);
  EXPECT_THROW((void)Queue::wrap(Device::cpu(), nullptr), InvalidArgument);
}

}  // namespace
}  // namespace ripple
