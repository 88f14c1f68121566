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
  EXPECT_NE(Device::best().kind(), DeviceKind::opencl);
  EXPECT_NE(Device::best(true).kind(), DeviceKind::opencl);
  Queue q(Device::cpu());
  const std::vector<float> host = {1, 2, 3};
  Buffer<float> buf(q, std::span<const float>(host));
  EXPECT_EQ(buf.to_vector(), host);
  const std::vector<double> x = {1, 0, 0, 0};
  const auto spectrum = fft::rfft(std::span<const double>(x));
  ASSERT_EQ(spectrum.size(), 3u);
  EXPECT_DOUBLE_EQ(spectrum[1].real(), 1.0);
}

}  // namespace
}  // namespace ripple
