// Device-free checks of the GPU FFT's planning (src/gpu/device_fft*, no Context): in a process
// that never loads an OpenCL driver, whose signal handlers could hide a fault (PoCL's SIGFPE
// handler once hid a division by zero in DeviceFft's real-pass check, taken by every multi-pass
// plan), and one that `make test` runs under ASan+UBSan too, unlike the suites that execute
// kernels.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdint>
#include <vector>

#include "gpu/device_fft.hpp"
#include "gpu/device_fft_plan.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {
namespace {

// The checks of a program's real side: complex programs of every kind (smooth, Rader's,
// Bluestein's whole DFT) with and without the pass twiddle, whole real transforms, real plans'
// first and last passes, and the mistakes.
TEST(GpuFftPlanning, RealSideChecksTakeEveryProgramWithoutFaulting) {
  std::signal(SIGFPE, SIG_DFL);  // a division by zero ends the process
  for (const std::uint64_t n : {64u, 97u, 47u, 2048u})
    for (const bool twiddle : {false, true})
      EXPECT_NO_THROW(DeviceFft::check_real(n, DeviceFft::shape(n, false), twiddle, {}, {})) << n;
  const FftShape s60 = DeviceFft::shape(60, false), s23 = DeviceFft::shape(23, false), s47 = DeviceFft::shape(47, false);
  EXPECT_NO_THROW(DeviceFft::check_real(60, s60, false, {}, FftReal{120, true}));
  EXPECT_THROW(DeviceFft::check_real(60, s60, true, {}, FftReal{120, true}), InvalidArgument);
  EXPECT_THROW(DeviceFft::check_real(60, s60, false, {}, FftReal{100, true}), InvalidArgument);
  // 207 = 9 x 23, 423 = 9 x 47: Rader's and Bluestein's as first (twiddle) and last passes.
  EXPECT_NO_THROW(DeviceFft::check_real(23, s23, true, {}, FftReal{207, true, 9, false}));
  EXPECT_NO_THROW(DeviceFft::check_real(23, s23, false, {}, FftReal{207, false, 9, true}));
  EXPECT_NO_THROW(DeviceFft::check_real(47, s47, true, {}, FftReal{846, false, 9, false}));
  EXPECT_THROW(DeviceFft::check_real(23, s23, false, {}, FftReal{207, true, 9, false}), InvalidArgument);
  EXPECT_THROW(DeviceFft::check_real(23, s23, false, {}, FftReal{414, true, 9, true}), InvalidArgument);  // a split
  EXPECT_THROW(DeviceFft::check_real(23, s23, true, {}, FftReal{207, true, 4, false}), InvalidArgument);  // 9 % 4
  EXPECT_THROW(DeviceFft::check_real(47, s47, true, {}, FftReal{207, true, 9, false}), InvalidArgument);  // 47 ∤ 207
}

// Every size up to 20000, each precision: the size check accepts it, and the programs of a plan
// of large-prime passes have shapes, as columns and rows.
TEST(GpuFftPlanning, EverySizeToTwentyThousandIsPlanned) {
  std::signal(SIGFPE, SIG_DFL);
  std::size_t with_passes = 0;
  for (const bool dbl : {false, true})
    for (std::uint64_t n = 1; n <= 20000; ++n) {
      ASSERT_NO_THROW(DeviceFftPlan::check_size(n, dbl)) << n << (dbl ? " f64" : " f32");
      const std::vector<std::uint64_t> passes = DeviceFftPlan::split_with_large_primes(n, dbl);
      if (passes.empty()) continue;
      ++with_passes;
      std::uint64_t product = 1;
      for (const std::uint64_t p : passes) {
        product *= p;
        ASSERT_TRUE(fits_one_kernel(p, dbl)) << n << " pass " << p;
        ASSERT_NO_THROW(DeviceFft::shape(p, dbl, true)) << n << " pass " << p;
        ASSERT_NO_THROW(DeviceFft::shape(p, dbl, false)) << n << " pass " << p;
      }
      ASSERT_EQ(product, n);
      ASSERT_TRUE(passes.size() == 2 || passes.size() == 3) << n;
    }
  EXPECT_GT(with_passes, 1000u);
}

}  // namespace
}  // namespace ripple::gpu
