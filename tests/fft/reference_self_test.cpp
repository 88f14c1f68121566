// Checks the tests' own long-double reference FFT (tests/common/reference_fft.hpp) against the
// naive long-double DFT, so the large-size tests compare the library with something trusted.
#include <gtest/gtest.h>

#include <vector>

#include "fft/fft_test_util.hpp"

namespace ripple::fft::test {
namespace {

constexpr double kReferenceTolerance = 1e-16;  // long double: errors are ~1e-18

void compare_with_naive(std::size_t n) {
  const std::vector<cld> x = to_ld(random_complex<double>(n, seed_for(n, 1)));
  for (bool forward : {true, false}) {
    const double err = rel_l2(reference_dft(x, forward), naive_dft(x, forward));
    EXPECT_LE(err, kReferenceTolerance) << "reference_dft N=" << n << (forward ? " forward" : " backward");
  }
}

TEST(ReferenceFft, MatchesNaiveDftForSmallSizes) {
  for (std::size_t n = 1; n <= 300; ++n) compare_with_naive(n);
}

// 67, 101, 1009 and 4099 are primes above the naive cut-off (Bluestein); 4489 = 67^2 and
// 2018 = 2 * 1009 mix Bluestein with the radix recursion.
TEST(ReferenceFft, MatchesNaiveDftForBluesteinAndMixedSizes) {
  for (std::size_t n : {67u, 101u, 381u, 512u, 1000u, 1009u, 2018u, 2310u, 4099u, 4489u}) compare_with_naive(n);
}

// At a size where the naive DFT is too slow, a few bins by exact long-double sums.
TEST(ReferenceFft, MatchesExactSumsOnSampledBinsOfLargeSizes) {
  for (std::size_t n : {65536u, 65537u, 196611u}) {
    const std::vector<cld> x = to_ld(random_complex<double>(n, seed_for(n, 2)));
    const std::vector<cld> y = reference_dft(x, true);
    Rng rng(seed_for(n, 3));
    const ripple::test::UnitRootsLd roots(n);  // table-free roots, not the FFT's own tables
    L2Error e;
    for (int s = 0; s < 6; ++s) {
      const std::size_t k = s == 0 ? 0 : rng.below(n);
      cld sum = 0;
      std::size_t idx = 0;  // k * j mod n
      for (std::size_t j = 0; j < n; ++j) {
        sum += x[j] * roots(idx);
        idx += k;
        if (idx >= n) idx -= n;
      }
      e.add(y[k], sum);
    }
    EXPECT_LE(e.rel(), kReferenceTolerance) << "reference_dft N=" << n << ": " << e.describe();
  }
}

}  // namespace
}  // namespace ripple::fft::test
