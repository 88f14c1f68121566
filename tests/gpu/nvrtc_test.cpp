// Every kernel variant compiled by NVRTC for sm_90 (CUDA's dialect side, no GPU needed), and
// NVRTC's compiler log carried by DeviceError.
#include <gtest/gtest.h>

#include <iostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "dialect_smoke.hpp"
#include "gpu/program.hpp"
#include "gpu/variants.hpp"
#include "ripple/error.hpp"

#ifdef RIPPLE_HAVE_CUDA
#include "gpu/cuda/nvrtc_api.hpp"
#endif

namespace ripple::gpu {

// gtest shows a test's parameter beside its name (in ctest's log too): the variant's name, not
// the 112 bytes of the struct in hex.
void PrintTo(const KernelVariant& variant, std::ostream* os) { *os << variant.name; }

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

// What ptxas reports of one kernel ("--ptxas-options=-v").
struct KernelResources {
  std::string kernel;
  int registers = -1;
  int stack_bytes = 0, spill_store_bytes = 0, spill_load_bytes = 0, shared_bytes = 0;
};

std::vector<KernelResources> ptxas_report(const std::string& log) {
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  std::vector<KernelResources> out;
  std::istringstream lines(log);
  std::smatch m;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, m, entry)) {
      out.push_back({m[1].str()});
    } else if (out.empty()) {
      continue;
    } else if (std::regex_search(line, m, frame)) {
      out.back().stack_bytes = std::stoi(m[1].str());
      out.back().spill_store_bytes = std::stoi(m[2].str());
      out.back().spill_load_bytes = std::stoi(m[3].str());
    } else if (std::regex_search(line, m, used)) {
      out.back().registers = std::stoi(m[1].str());
      if (std::regex_search(line, m, smem)) out.back().shared_bytes = std::stoi(m[1].str());
    }
  }
  return out;
}
#endif

class NvrtcVariant : public ::testing::TestWithParam<KernelVariant> {};

#ifdef RIPPLE_HAVE_CUDA
constexpr int kParkedBytes = 8;
#endif

// Each variant compiled once to a cubin, with ptxas's report. Registers spilled to local memory
// cost a GPU kernel a round trip through L1/L2 per use: no variant may spill on sm_90 but an
// FFT program's value or two parked once (at most kParkedBytes stored and reloaded), which ptxas does of its
// own accord to keep a register count that fits more groups per SM (seen: one 32-bit value in
// radix-11 float programs at 48 registers and 2432 f64 at 168, far below their groups' caps).
// A program short of registers (its group's cap) spills more, or reloads in a loop: 16-184
// bytes in the cases that set the FFT's item caps (src/gpu/device_fft.cpp). The report is
// printed for the record with registers, shared memory and stack; arrays indexed at run time,
// such as the channel kernel's section states, are on the stack by design and are not spills.
TEST_P(NvrtcVariant, CompilesForSm90WithoutSpills) {
#ifndef RIPPLE_HAVE_CUDA
  GTEST_SKIP() << "this build has no CUDA backend (RIPPLE_CUDA=OFF or no toolkit): NVRTC checks skipped";
#else
  std::string why;
  ASSERT_TRUE(cuda::nvrtc_available(&why)) << why;
  const ProgramSpec& spec = GetParam().spec;
  std::vector<std::string> options = program_options(spec);
  options.push_back("--ptxas-options=-v");
  std::string log;
  expect_elf(cuda::compile_cubin(program_source(spec), "test.cu", options, "sm_90", &log));
  const std::vector<KernelResources> kernels = ptxas_report(log);
  ASSERT_FALSE(kernels.empty()) << "no kernel in ptxas's report:\n" << log;
  for (const KernelResources& k : kernels) {
    std::cout << GetParam().name << " " << k.kernel << ": " << k.registers << " registers, " << k.shared_bytes
              << " bytes shared, " << k.stack_bytes << " bytes stack, " << k.spill_store_bytes << "/"
              << k.spill_load_bytes << " bytes spilled/reloaded\n";
    EXPECT_GT(k.registers, 0) << k.kernel << ":\n" << log;
    const int parked = GetParam().name.rfind("fft_", 0) == 0 ? kParkedBytes : 0;  // seen in FFT programs only
    EXPECT_LE(k.spill_store_bytes, parked) << k.kernel << " spills registers:\n" << log;
    EXPECT_LE(k.spill_load_bytes, parked) << k.kernel << " reloads spilled registers:\n" << log;
  }
#endif
}

INSTANTIATE_TEST_SUITE_P(AllKernels, NvrtcVariant, ::testing::ValuesIn(kernel_variants()),
                         [](const auto& info) { return info.param.name; });

// The host side of the list, without NVRTC (the sanitizer build runs this, not the compiles
// above, whose work is NVRTC's): every variant has a name of its own, every file it names is
// embedded (program_source throws naming one that is not), and its constants are defined once
// each, as valid options (program_options throws on a name or value that is not).
TEST(NvrtcVariants, EveryVariantHasANameFilesAndConstants) {
  const std::vector<KernelVariant> variants = kernel_variants();
  ASSERT_GT(variants.size(), 200u);
  std::set<std::string> names;
  for (const KernelVariant& v : variants) {
    EXPECT_TRUE(names.insert(v.name).second) << "two variants named " << v.name;
    EXPECT_FALSE(v.spec.files.empty()) << v.name;
    EXPECT_NO_THROW(program_source(v.spec)) << v.name;
    std::set<std::string> defined;
    for (const auto& define : v.spec.defines)
      EXPECT_TRUE(defined.insert(define.first).second) << v.name << " defines " << define.first << " twice";
    EXPECT_NO_THROW(program_options(v.spec)) << v.name;
  }
}

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
