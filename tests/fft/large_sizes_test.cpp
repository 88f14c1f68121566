// Checks c2c plans above N = 1024 against the fast long-double reference: powers of 2 up to
// 2^22, powers of 3, 5 and 7, mixed 2^a 3^b 5^c 7^d, primes (1009 ... 999983) and sizes with one
// large prime factor; forward and backward, float and double, relative L2 error per size.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "fft/fft_test_util.hpp"

namespace ripple::fft::test {
namespace {

// Sizes above this are skipped in quick mode (ASan, RIPPLE_TEST_QUICK=1).
constexpr std::size_t kQuickLimit = 70000;


template <class T>
void check_size(std::size_t n, const std::vector<std::complex<float>>& x32, const std::vector<cld>& ref_forward,
                bool forward, bool backward) {
  // One input (float values, exact in double too) serves both precisions. The backward
  // transform of conj(x) is conj of the forward transform of x, so one reference does both.
  std::vector<std::complex<T>> x(n), xc(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = {x32[i].real(), x32[i].imag()};
    xc[i] = std::conj(x[i]);
  }
  if (forward) {
    Plan plan(c2c_desc(n, precision_of<T>(), Direction::forward));
    const std::string what = std::string(type_name<T>()) + " forward N=" + std::to_string(n) + " (" + plan.describe() + ")";
    const auto y = execute_checked<std::complex<T>, std::complex<T>>(plan, x, what);
    L2Error e;
    for (std::size_t k = 0; k < n; ++k) e.add(as_ld(y[k]), ref_forward[k]);
    EXPECT_LE(e.rel(), tolerance<T>()) << what << ": " << e.describe();
    std::printf("[   info   ] %s: %s\n", what.c_str(), e.describe().c_str());
  }
  if (backward) {
    Plan plan(c2c_desc(n, precision_of<T>(), Direction::backward, Norm::backward));
    const std::string what = std::string(type_name<T>()) + " backward N=" + std::to_string(n) + " (" + plan.describe() + ")";
    const auto y = execute_checked<std::complex<T>, std::complex<T>>(plan, xc, what);
    const long double inv_n = 1.0L / static_cast<long double>(n);
    L2Error e;
    for (std::size_t k = 0; k < n; ++k) e.add(as_ld(y[k]), std::conj(ref_forward[k]) * inv_n);
    EXPECT_LE(e.rel(), tolerance<T>()) << what << ": " << e.describe();
    std::printf("[   info   ] %s: %s\n", what.c_str(), e.describe().c_str());
  }
}

class LargeC2c : public ::testing::TestWithParam<std::size_t> {};

TEST_P(LargeC2c, FloatAndDoubleMatchReference) {
  const std::size_t n = GetParam();
  if (quick_mode() && n > kQuickLimit) GTEST_SKIP() << "N=" << n << " skipped in quick mode (ASan / RIPPLE_TEST_QUICK)";
  const std::vector<std::complex<float>> x = random_complex<float>(n, seed_for(n, 100));
  const std::vector<cld> ref = reference_dft(to_ld(x), true);
  // The slowest sizes (2^22, 999983) run twice, not four times: float forward, double backward.
  const bool heavy = n > 900000;
  check_size<float>(n, x, ref, true, !heavy);
  check_size<double>(n, x, ref, !heavy, true);
}

constexpr std::size_t pow_(std::size_t b, int e) { return e == 0 ? 1 : b * pow_(b, e - 1); }

INSTANTIATE_TEST_SUITE_P(PowersOf2, LargeC2c,
                         ::testing::Values(pow_(2, 11), pow_(2, 12), pow_(2, 13), pow_(2, 14), pow_(2, 15),
                                           pow_(2, 16), pow_(2, 17), pow_(2, 18), pow_(2, 19), pow_(2, 20),
                                           pow_(2, 22)),
                         size_name);
INSTANTIATE_TEST_SUITE_P(PowersOf3, LargeC2c,
                         ::testing::Values(pow_(3, 7), pow_(3, 9), pow_(3, 10), pow_(3, 12)),
                         size_name);
INSTANTIATE_TEST_SUITE_P(PowersOf5, LargeC2c, ::testing::Values(pow_(5, 5), pow_(5, 6), pow_(5, 8)), size_name);
INSTANTIATE_TEST_SUITE_P(PowersOf7, LargeC2c, ::testing::Values(pow_(7, 4), pow_(7, 5), pow_(7, 7)), size_name);
// 2^a 3^b 5^c 7^d, and products with the primes 11..61 that have no dedicated butterfly.
INSTANTIATE_TEST_SUITE_P(Mixed, LargeC2c,
                         ::testing::Values(2520u, 5040u, 73500u, 151200u, 322560u, 1000000u, 38896u, 28792u,
                                           12673u /* 19*23*29 */, 61u * 4096u),
                         size_name);
// Primes (no factorization at all) and sizes with one large prime factor.
INSTANTIATE_TEST_SUITE_P(Primes, LargeC2c,
                         ::testing::Values(1009u, 1031u, 4099u, 10007u, 65537u, 999983u), size_name);
INSTANTIATE_TEST_SUITE_P(LargePrimeFactor, LargeC2c,
                         ::testing::Values(2u * 10007u, 3u * 65537u, 64u * 1031u, 16u * 4099u, 67u * 128u),
                         size_name);

}  // namespace
}  // namespace ripple::fft::test
