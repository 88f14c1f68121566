// Checks r2c and c2r plans against the long-double reference for every N from 1 to 512 and a
// set of larger odd and even N, every normalization, and that c2r ignores the imaginary parts
// of X[0] and (even N) X[N/2] as numpy.fft.irfft does, but not that of X[(N-1)/2] for odd N.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "fft/fft_test_util.hpp"

namespace ripple::fft::test {
namespace {

template <class T>
void sweep(Kind kind, std::size_t first, std::size_t last) {
  SizeSweep tracker(20);
  for (std::size_t n = first; n <= last; ++n) {
    tracker.begin();
    const Norm norm = static_cast<Norm>(n % 3);
    const PlanDesc d = real_desc(kind, n, precision_of<T>(), norm);
    const CheckResult r = kind == Kind::r2c ? check_layout<T, Kind::r2c>(d, seed_for(n, 30))
                                            : check_layout<T, Kind::c2r>(d, seed_for(n, 31));
    if (!tracker.end(n, r.worst_error)) return;
  }
  std::printf("[   info   ] %s %s N=%zu..%zu: worst relative L2 error %.3g at N=%zu\n", type_name<T>(),
              to_string(kind), first, last, tracker.worst(), tracker.worst_n());
}

TEST(RealEverySize, R2cFloat) { sweep<float>(Kind::r2c, 1, 512); }
TEST(RealEverySize, R2cDouble) { sweep<double>(Kind::r2c, 1, 512); }
TEST(RealEverySize, C2rFloat) { sweep<float>(Kind::c2r, 1, 512); }
TEST(RealEverySize, C2rDouble) { sweep<double>(Kind::c2r, 1, 512); }

// Larger odd and even sizes: powers of two, odd composites, primes, one large prime factor.
// One reference per kind serves both precisions: the double plan gets the random input x, the
// float plan x rounded to float (so the float error includes that rounding, ~3e-8).
class RealLargeSizes : public ::testing::TestWithParam<std::size_t> {};

template <class T>
void check_r2c_large(std::size_t n, const std::vector<double>& x, const std::vector<cld>& ref) {
  const std::vector<T> xt(x.begin(), x.end());
  const Plan plan(real_desc(Kind::r2c, n, precision_of<T>()));
  const std::string what = std::string("r2c ") + type_name<T>() + " N=" + std::to_string(n) + " (" + plan.describe() + ")";
  const auto y = execute_checked<T, std::complex<T>>(plan, xt, what);
  const double err = rel_l2(y, ref);
  EXPECT_LE(err, tolerance<T>()) << what << ": relative L2 error " << err;
  std::printf("[   info   ] %s: relative L2 error %.3g\n", what.c_str(), err);
}

template <class T>
void check_c2r_large(std::size_t n, const std::vector<std::complex<double>>& x, const std::vector<long double>& ref) {
  std::vector<std::complex<T>> xt(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) xt[i] = std::complex<T>(x[i]);
  const Plan plan(real_desc(Kind::c2r, n, precision_of<T>()));
  const std::string what = std::string("c2r ") + type_name<T>() + " N=" + std::to_string(n) + " (" + plan.describe() + ")";
  const auto y = execute_checked<std::complex<T>, T>(plan, xt, what);
  const double err = rel_l2(y, ref);
  EXPECT_LE(err, tolerance<T>()) << what << ": relative L2 error " << err;
  std::printf("[   info   ] %s: relative L2 error %.3g\n", what.c_str(), err);
}

TEST_P(RealLargeSizes, R2cAndC2rFloatAndDouble) {
  const std::size_t n = GetParam();
  if (quick_mode() && n > 70000) GTEST_SKIP() << "N=" << n << " skipped in quick mode (ASan / RIPPLE_TEST_QUICK)";
  const std::vector<double> x = random_real<double>(n, seed_for(n, 32));
  const std::vector<cld> ref = ref_r2c(to_ld(x), Norm::backward);
  check_r2c_large<float>(n, x, ref);
  check_r2c_large<double>(n, x, ref);
  const std::vector<std::complex<double>> spectrum = random_complex<double>(n / 2 + 1, seed_for(n, 33));
  const std::vector<long double> ref_back = ref_c2r(to_ld(spectrum), n, Norm::backward);
  check_c2r_large<float>(n, spectrum, ref_back);
  check_c2r_large<double>(n, spectrum, ref_back);
}

INSTANTIATE_TEST_SUITE_P(Sizes, RealLargeSizes,
                         ::testing::Values(1000u, 1001u, 1024u, 1025u, 1031u, 4096u, 4097u, 6561u, 20014u, 65536u,
                                           65537u, 196611u, 390625u, 1u << 20),
                         size_name);

// c2r output with imag(X[0]) and imag(X[N/2]) set to v, on top of a fixed random spectrum.
template <class T>
std::vector<T> c2r_with_edge_imag(std::size_t n, T dc_imag, T nyquist_imag, T last_imag_delta) {
  Plan plan(real_desc(Kind::c2r, n, precision_of<T>()));
  std::vector<std::complex<T>> x = random_complex<T>(n / 2 + 1, seed_for(n, 34));
  x[0].imag(dc_imag);
  if (n % 2 == 0) x[n / 2].imag(nyquist_imag);
  x[n / 2].imag(x[n / 2].imag() + last_imag_delta);
  return execute_checked<std::complex<T>, T>(plan, x, "c2r N=" + std::to_string(n));
}

template <class T>
void check_ignores_edge_imag() {
  for (std::size_t n : {2u, 4u, 16u, 30u, 100u, 1024u, 4096u}) {
    const std::vector<T> a = c2r_with_edge_imag<T>(n, 0, 0, 0);
    const std::vector<T> b = c2r_with_edge_imag<T>(n, 5, -7, 0);
    L2Error e;
    for (std::size_t i = 0; i < n; ++i) e.add(as_ld(b[i]), as_ld(a[i]));
    EXPECT_LE(e.rel(), tolerance<T>()) << "c2r " << type_name<T>() << " N=" << n
                                       << ": imag of X[0]/X[N/2] changed the output; " << e.describe();
  }
  // Odd N: X[(N-1)/2] is an ordinary bin whose imaginary part matters.
  for (std::size_t n : {3u, 5u, 17u, 101u, 1025u}) {
    const std::vector<T> a = c2r_with_edge_imag<T>(n, 0, 0, 0);
    const std::vector<T> b = c2r_with_edge_imag<T>(n, 5, 0, 1);
    L2Error e;
    for (std::size_t i = 0; i < n; ++i) e.add(as_ld(b[i]), as_ld(a[i]));
    EXPECT_GT(e.rel(), 1e-3) << "c2r " << type_name<T>() << " N=" << n
                             << ": changing imag of X[(N-1)/2] did not change the output";
  }
}

TEST(C2rEdgeBins, FloatIgnoresImagOfDcAndNyquist) { check_ignores_edge_imag<float>(); }
TEST(C2rEdgeBins, DoubleIgnoresImagOfDcAndNyquist) { check_ignores_edge_imag<double>(); }

// "Ignores" means not read: a NaN there must not reach the output (numpy's irfft leaves it out).
TEST(C2rEdgeBins, NanInImagOfDcAndNyquistDoesNotReachOutput) {
  for (std::size_t n : {1u, 2u, 8u, 9u, 64u, 1000u, 1001u}) {
    const std::vector<double> ref = c2r_with_edge_imag<double>(n, 0, 0, 0);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> got = c2r_with_edge_imag<double>(n, nan, n % 2 == 0 ? nan : 0.0, 0);
    EXPECT_LE(rel_l2(got, std::vector<long double>(ref.begin(), ref.end())), tolerance<double>())
        << "c2r double N=" << n << " with NaN in imag(X[0])" << (n % 2 == 0 ? " and imag(X[N/2])" : "");
  }
}

// r2c of a real signal equals the first N/2+1 bins of the c2c transform of the same signal,
// and c2r(r2c(x)) = x for every norm (numpy's irfft(rfft(x, norm=...), n, norm=...)).
template <class T>
void check_real_round_trip() {
  for (std::size_t n : {1u, 2u, 3u, 7u, 8u, 15u, 64u, 99u, 1000u, 1023u, 1024u, 4099u, 65536u}) {
    for (Norm norm : {Norm::backward, Norm::ortho, Norm::forward}) {
      const std::vector<T> x = random_real<T>(n, seed_for(n, 35));
      Plan fwd(real_desc(Kind::r2c, n, precision_of<T>(), norm));
      Plan bwd(real_desc(Kind::c2r, n, precision_of<T>(), norm));
      const std::string what = std::string(type_name<T>()) + " N=" + std::to_string(n) + " norm=" + to_string(norm);
      const auto spectrum = execute_checked<T, std::complex<T>>(fwd, x, "r2c " + what);
      const auto back = execute_checked<std::complex<T>, T>(bwd, spectrum, "c2r " + what);
      EXPECT_LE(rel_l2(back, std::vector<long double>(x.begin(), x.end())), 2 * tolerance<T>())
          << "c2r(r2c(x)) != x for " << what;
    }
  }
}

TEST(RealRoundTrip, Float) { check_real_round_trip<float>(); }
TEST(RealRoundTrip, Double) { check_real_round_trip<double>(); }

}  // namespace
}  // namespace ripple::fft::test
