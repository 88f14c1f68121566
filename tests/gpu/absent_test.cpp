// The library on a machine without usable OpenCL: run by CTest twice, once with an ICD loader
// that finds no drivers (OCL_ICD_VENDORS = an empty directory) and once with no loader at all
// (RIPPLE_OPENCL_LIBRARY = a path that does not exist). Nothing throws; the CPU still works.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "ripple/device.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"

#ifdef RIPPLE_HAVE_CUDA
#include "gpu/cuda/nvrtc_api.hpp"
#endif

namespace ripple {
namespace {

// "loader", "drivers", or "" when run outside CTest.
std::string absent_mode() {
  const char* lib = std::getenv("RIPPLE_OPENCL_LIBRARY");
  if (lib && std::string(lib).find("/nonexistent/") == 0) return "loader";
  return std::getenv("OCL_ICD_VENDORS") ? "drivers" : "";
}

TEST(AbsentOpencl, NoOpenclDevicesAndAReason) {
  if (absent_mode().empty()) GTEST_SKIP() << "run through CTest, which sets the environment";
  std::vector<BackendStatus> backends;
  ASSERT_NO_THROW(backends = Device::backends());
  ASSERT_EQ(backends.size(), 2u);
  const BackendStatus& cl = backends[1];
  EXPECT_EQ(cl.devices, 0u);
#ifdef RIPPLE_HAVE_OPENCL
  if (absent_mode() == "drivers")
    EXPECT_NE(cl.reason.find("no platforms"), std::string::npos) << cl.reason;
  else
    EXPECT_NE(cl.reason.find("/nonexistent/libOpenCL.so.1"), std::string::npos) << cl.reason;
#else
  EXPECT_NE(cl.reason.find("not built"), std::string::npos) << cl.reason;
#endif
  for (const Device& d : Device::list()) EXPECT_NE(d.kind(), DeviceKind::opencl) << d.to_string();
  EXPECT_FALSE(Device::opencl(0, 0).available());
  EXPECT_THROW(Queue(Device::opencl(0, 0)), Unsupported);
}

TEST(AbsentOpencl, TheCpuKeepsWorking) {
  if (!absent_mode().empty()) {
    EXPECT_NE(Device::best().kind(), DeviceKind::opencl);
    EXPECT_NE(Device::best(true).kind(), DeviceKind::opencl);
  }
  Queue q(Device::cpu());
  const std::vector<float> host = {1, 2, 3};
  Buffer<float> buf(q, std::span<const float>(host));
  EXPECT_EQ(buf.to_vector(), host);
  const std::vector<double> x = {1, 0, 0, 0};
  const auto spectrum = fft::rfft(std::span<const double>(x));
  ASSERT_EQ(spectrum.size(), 3u);
  EXPECT_DOUBLE_EQ(spectrum[1].real(), 1.0);
}

// Run with RIPPLE_NVRTC_LIBRARY pointing nowhere: compiling says why instead of crashing.
TEST(AbsentNvrtc, CompilingSaysWhichLibraryIsMissing) {
#ifndef RIPPLE_HAVE_CUDA
  GTEST_SKIP() << "this build has no CUDA backend";
#else
  const char* lib = std::getenv("RIPPLE_NVRTC_LIBRARY");
  if (!lib || std::string(lib).find("/nonexistent/") != 0) GTEST_SKIP() << "run through CTest";
  std::string why;
  EXPECT_FALSE(gpu::cuda::nvrtc_available(&why));
  EXPECT_NE(why.find("/nonexistent/libnvrtc.so"), std::string::npos) << why;
  EXPECT_TRUE(gpu::cuda::nvrtc_version().empty());
  try {
    gpu::cuda::compile_cubin("extern \"C\" __global__ void k() {}", "k.cu", {}, "sm_90");
    FAIL() << "compiled without NVRTC";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot load NVRTC"), std::string::npos) << e.what();
  }
#endif
}

}  // namespace
}  // namespace ripple
