// Runs the CPU FFTs on the narrower SIMD targets compiled in (AVX2 and SSE4 on x86) where this
// CPU has a wider one. Elsewhere the tests reach only the best target's kernels (plus a few
// narrower tables the planner mixes in), while machines without AVX-512 run these: their
// unrolled kernels and register-count rules differ. The kernel tables are chosen once per
// process, so each target needs a fresh one; ctest runs every case in its own.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "cpu/fft_kernels.hpp"
#include "cpu/simd_info.hpp"
#include "fft/fft_test_util.hpp"
#include "hwy/targets.h"
#include "ripple/runtime.hpp"

namespace ripple::fft::test {
namespace {

bool compiled_in(const std::string& name) {
  std::stringstream list(cpu::compiled_targets());
  for (std::string item; std::getline(list, item, ',');)
    if (item == name) return true;
  return false;
}

class FftOnTarget : public ::testing::TestWithParam<std::int64_t> {
 protected:
  void SetUp() override {
    const std::int64_t target = GetParam();
    const std::string name = hwy::TargetName(target);
    if ((hwy::SupportedTargets() & target) == 0) GTEST_SKIP() << "this CPU does not run " << name;
    if (!compiled_in(name))
      GTEST_SKIP() << name << " is not compiled into this build (" << cpu::compiled_targets() << ")";
    hwy::SetSupportedTargetsForTest(target);
    ASSERT_EQ(simd_target(), name);
    if (cpu::fft_kernels_f32().lanes != std::size_t(simd_complex_lanes_f32()) ||
        cpu::fft_kernels_f64().lanes != std::size_t(simd_complex_lanes_f64()))
      GTEST_SKIP() << "the FFT kernels were chosen earlier in this process: run this case alone (ctest does)";
  }
  void TearDown() override { hwy::SetSupportedTargetsForTest(0); }
};

template <class T, Kind K>
void sweep(const std::vector<std::size_t>& sizes, std::size_t batch, std::uint64_t salt) {
  SizeSweep tracker(10);
  for (const std::size_t n : sizes) {
    tracker.begin();
    const auto dir = n % 2 == 0 ? Direction::forward : Direction::backward;
    const PlanDesc d = K == Kind::c2c ? c2c_desc(n, precision_of<T>(), dir, Norm::backward, batch)
                                      : real_desc(K, n, precision_of<T>(), Norm::backward, batch);
    if (!tracker.end(n, check_layout<T, K>(d, seed_for(n, salt)).worst_error)) return;
  }
  std::printf("[   info   ] %s %s %s batch %zu, %zu sizes: worst relative L2 error %.3g at N=%zu\n",
              simd_target().c_str(), type_name<T>(), to_string(K), batch, sizes.size(), tracker.worst(),
              tracker.worst_n());
}

std::vector<std::size_t> every_size(std::size_t first, std::size_t last) {
  std::vector<std::size_t> sizes;
  for (std::size_t n = first; n <= last; ++n) sizes.push_back(n);
  return sizes;
}

// Every short size (each radix sequence with an unrolled kernel is among them, as the wide
// kernel's lane FFT or a panel's), then sizes whose lane FFTs run the longer unrolled and the
// generic passes, Bluestein and Rader, and the four-step.
const std::vector<std::size_t> kLargerSizes = {288, 320, 384, 400, 480, 512, 576, 640, 768, 800, 960, 1000,
                                               1024, 1536, 2048, 4096, 4800, 8192, 16384, 65536, 1009, 4099};

TEST_P(FftOnTarget, C2cEverySizeTo300) {
  sweep<float, Kind::c2c>(every_size(1, 300), 1, 40);
  sweep<double, Kind::c2c>(every_size(1, 300), 1, 41);
}

TEST_P(FftOnTarget, C2cLargerSizes) {
  sweep<float, Kind::c2c>(kLargerSizes, 1, 42);
  sweep<double, Kind::c2c>(kLargerSizes, 1, 43);
}

// Batches run the panel kernels, whose groups and leftovers depend on the vector width (37
// and 74: a run-time radix as the lone pass and as the last).
TEST_P(FftOnTarget, C2cBatches) {
  const std::vector<std::size_t> sizes = {2, 3, 5, 8, 12, 16, 35, 37, 49, 64, 74, 81, 125, 243, 256, 1024};
  sweep<float, Kind::c2c>(sizes, 11, 44);
  sweep<double, Kind::c2c>(sizes, 11, 45);
}

TEST_P(FftOnTarget, RealEverySizeTo130) {
  sweep<float, Kind::r2c>(every_size(1, 130), 1, 46);
  sweep<double, Kind::r2c>(every_size(1, 130), 1, 47);
  sweep<float, Kind::c2r>(every_size(1, 130), 1, 48);
  sweep<double, Kind::c2r>(every_size(1, 130), 1, 49);
}

std::string target_name(const ::testing::TestParamInfo<std::int64_t>& info) {
  return hwy::TargetName(info.param);
}

#if HWY_ARCH_X86
INSTANTIATE_TEST_SUITE_P(X86, FftOnTarget, ::testing::Values(std::int64_t{HWY_AVX2}, std::int64_t{HWY_SSE4}),
                         target_name);
#else
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FftOnTarget);
#endif

}  // namespace
}  // namespace ripple::fft::test
