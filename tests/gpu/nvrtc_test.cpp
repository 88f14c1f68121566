// Every kernel variant compiled by NVRTC for sm_90 (CUDA's dialect side, no GPU needed), and
// NVRTC's compiler log carried by DeviceError.
#include <gtest/gtest.h>

#include <string>

#include "dialect_smoke.hpp"
#include "gpu/program.hpp"
#include "gpu/variants.hpp"
#include "ripple/error.hpp"

#ifdef RIPPLE_HAVE_CUDA
#include "gpu/cuda/nvrtc_api.hpp"
#endif

namespace ripple::gpu {
namespace {

#ifdef RIPPLE_HAVE_CUDA
std::vector<std::byte> nvrtc(const ProgramSpec& spec) {
  return cuda::compile_cubin(program_source(spec), "test.cu", program_options(spec), "sm_90");
}

// A cubin is an ELF file.
void expect_elf(const std::vector<std::byte>& bin) {
  ASSERT_GT(bin.size(), 4u);
  EXPECT_EQ(bin[0], std::byte{0x7f});
  EXPECT_EQ(bin[1], std::byte{'E'});
  EXPECT_EQ(bin[2], std::byte{'L'});
  EXPECT_EQ(bin[3], std::byte{'F'});
}
#endif

class NvrtcVariant : public ::testing::TestWithParam<KernelVariant> {};

TEST_P(NvrtcVariant, CompilesForSm90) {
#ifndef RIPPLE_HAVE_CUDA
  GTEST_SKIP() << "this build has no CUDA backend (RIPPLE_CUDA=OFF or no toolkit): NVRTC checks skipped";
#else
  std::string why;
  ASSERT_TRUE(cuda::nvrtc_available(&why)) << why;
  expect_elf(nvrtc(GetParam().spec));
#endif
}

INSTANTIATE_TEST_SUITE_P(AllKernels, NvrtcVariant, ::testing::ValuesIn(kernel_variants()),
                         [](const auto& info) { return info.param.name; });

TEST(Nvrtc, DialectSmokeKernelCompilesInBothPrecisions) {
#ifndef RIPPLE_HAVE_CUDA
  GTEST_SKIP() << "this build has no CUDA backend";
#else
  for (const char* dbl : {"0", "1"}) {
    ProgramSpec spec{{"dialect.h"}, {{"RIPPLE_DOUBLE", dbl}}, test::kDialectSmoke};
    expect_elf(nvrtc(spec));
  }
#endif
}

TEST(Nvrtc, SyntaxErrorGivesTheCompilerLog) {
#ifndef RIPPLE_HAVE_CUDA
  GTEST_SKIP() << "this build has no CUDA backend";
#else
  ProgramSpec spec{{"dialect.h"}, {}, "KERNEL broken(GLOBAL real_t* x) {\n  x[0] = undeclared_thing;\n}\n"};
  try {
    nvrtc(spec);
    FAIL() << "compiled a kernel with an error";
  } catch (const DeviceError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("NVRTC"), std::string::npos) << msg;
    EXPECT_NE(msg.find("undeclared_thing"), std::string::npos) << msg;  // from the log
    EXPECT_NE(msg.find("extra(2)"), std::string::npos) << msg;          // file and line
    EXPECT_NE(msg.find("sm_90"), std::string::npos) << msg;
  }
#endif
}

TEST(Nvrtc, AMissingConstantIsReportedByTheKernel) {
#ifndef RIPPLE_HAVE_CUDA
  GTEST_SKIP() << "this build has no CUDA backend";
#else
  ProgramSpec spec = kernel_variants().back().spec;  // a scan
  std::erase_if(spec.defines, [](const auto& d) { return d.first == "BLOCK"; });
  try {
    nvrtc(spec);
    FAIL();
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("needs -DBLOCK"), std::string::npos) << e.what();
  }
#endif
}

}  // namespace
}  // namespace ripple::gpu
