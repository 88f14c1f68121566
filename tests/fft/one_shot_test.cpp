// Checks the one-shot functions fft/ifft/rfft/irfft against the reference with numpy.fft's
// semantics: every norm, irfft's default n = 2*(m-1), explicit odd n, truncation and zero
// padding of irfft's input, repeated calls (plan cache) and empty input.
#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "fft/fft_test_util.hpp"

namespace ripple::fft::test {
namespace {

const std::vector<std::size_t> kSizes{1, 2, 3, 8, 15, 64, 100, 101, 1024, 1031, 4096, 10007};

template <class T>
void check_fft_ifft() {
  for (std::size_t n : kSizes) {
    for (Norm norm : {Norm::backward, Norm::ortho, Norm::forward}) {
      const std::vector<std::complex<T>> x = random_complex<T>(n, seed_for(n, 80 + static_cast<int>(norm)));
      const std::vector<cld> x_ld = to_ld(x);
      const std::string what = std::string(type_name<T>()) + " N=" + std::to_string(n) + " norm=" + to_string(norm);
      const auto y = fft(std::span<const std::complex<T>>(x), norm);
      ASSERT_EQ(y.size(), n) << "fft " << what;
      const double ef = rel_l2(y, ref_c2c(x_ld, true, norm));
      EXPECT_LE(ef, tolerance<T>()) << "fft " << what << ": relative L2 error " << ef;
      const auto z = ifft(std::span<const std::complex<T>>(x), norm);
      ASSERT_EQ(z.size(), n) << "ifft " << what;
      const double eb = rel_l2(z, ref_c2c(x_ld, false, norm));
      EXPECT_LE(eb, tolerance<T>()) << "ifft " << what << ": relative L2 error " << eb;
    }
  }
}

TEST(OneShot, FftIfftFloat) { check_fft_ifft<float>(); }
TEST(OneShot, FftIfftDouble) { check_fft_ifft<double>(); }

template <class T>
void check_rfft() {
  for (std::size_t n : kSizes) {
    for (Norm norm : {Norm::backward, Norm::ortho, Norm::forward}) {
      const std::vector<T> x = random_real<T>(n, seed_for(n, 85 + static_cast<int>(norm)));
      const auto y = rfft(std::span<const T>(x), norm);
      ASSERT_EQ(y.size(), n / 2 + 1) << "rfft N=" << n;
      const double err = rel_l2(y, ref_r2c(to_ld(x), norm));
      EXPECT_LE(err, tolerance<T>()) << "rfft " << type_name<T>() << " N=" << n << " norm=" << to_string(norm)
                                     << ": relative L2 error " << err;
    }
  }
}

TEST(OneShot, RfftFloat) { check_rfft<float>(); }
TEST(OneShot, RfftDouble) { check_rfft<double>(); }

// irfft(x, n, norm) with m = x.size() inputs: n = 0 means 2*(m-1); the input is truncated or
// zero-padded to n/2+1 bins; imag of X[0] (and X[n/2] for even n) is ignored.
template <class T>
void check_irfft_case(std::size_t m, std::size_t n_arg, Norm norm) {
  const std::vector<std::complex<T>> x = random_complex<T>(m, seed_for(m * 7919 + n_arg, 90 + static_cast<int>(norm)));
  const std::size_t n = n_arg == 0 ? 2 * (m - 1) : n_arg;
  std::vector<cld> half = to_ld(x);
  half.resize(n / 2 + 1);  // truncate, or pad with zeros
  const std::vector<long double> ref = ref_c2r(half, n, norm);
  const auto y = irfft(std::span<const std::complex<T>>(x), n_arg, norm);
  const std::string what = std::string("irfft ") + type_name<T>() + " m=" + std::to_string(m) +
                           " n=" + std::to_string(n_arg) + " norm=" + to_string(norm);
  ASSERT_EQ(y.size(), n) << what;
  const double err = rel_l2(y, ref);
  EXPECT_LE(err, tolerance<T>()) << what << ": relative L2 error " << err;
}

template <class T>
void check_irfft() {
  for (Norm norm : {Norm::backward, Norm::ortho, Norm::forward}) {
    for (std::size_t m : {2u, 3u, 5u, 33u, 513u, 2049u}) check_irfft_case<T>(m, 0, norm);  // n = 2(m-1)
    for (std::size_t m : {1u, 2u, 3u, 5u, 33u, 513u}) check_irfft_case<T>(m, 2 * m - 1, norm);  // odd n
    check_irfft_case<T>(100, 64, norm);    // truncation: only 33 of 100 bins used
    check_irfft_case<T>(100, 63, norm);    // truncation, odd n
    check_irfft_case<T>(10, 64, norm);     // zero padding to 33 bins
    check_irfft_case<T>(10, 1001, norm);   // zero padding, odd n
    check_irfft_case<T>(1, 1, norm);       // n = 1: just X[0]
    check_irfft_case<T>(4, 1, norm);
    check_irfft_case<T>(4, 2, norm);
  }
}

TEST(OneShot, IrfftFloat) { check_irfft<float>(); }
TEST(OneShot, IrfftDouble) { check_irfft<double>(); }

// The plans behind the one-shot functions are cached: repeated and interleaved calls of
// different sizes give the same bits.
TEST(OneShot, RepeatedCallsGiveIdenticalResults) {
  const auto a = random_complex<double>(1000, 95);
  const auto b = random_complex<double>(999, 96);
  const auto fa = fft(std::span<const std::complex<double>>(a));
  const auto fb = fft(std::span<const std::complex<double>>(b));
  const auto ia = ifft(std::span<const std::complex<double>>(a), Norm::ortho);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(fft(std::span<const std::complex<double>>(a)), fa);
    EXPECT_EQ(fft(std::span<const std::complex<double>>(b)), fb);
    EXPECT_EQ(ifft(std::span<const std::complex<double>>(a), Norm::ortho), ia);
  }
}

// numpy rejects zero points; so must ripple.
TEST(OneShot, EmptyInputThrowsInvalidArgument) {
  const std::vector<std::complex<float>> empty_c;
  const std::vector<float> empty_r;
  const std::vector<std::complex<double>> one{{1.0, 0.0}};
  EXPECT_THROW(fft(std::span<const std::complex<float>>(empty_c)), ripple::InvalidArgument);
  EXPECT_THROW(ifft(std::span<const std::complex<float>>(empty_c)), ripple::InvalidArgument);
  EXPECT_THROW(rfft(std::span<const float>(empty_r)), ripple::InvalidArgument);
  EXPECT_THROW(irfft(std::span<const std::complex<float>>(empty_c)), ripple::InvalidArgument);
  // One input bin and n = 0 means n = 2*(1-1) = 0 output points.
  EXPECT_THROW(irfft(std::span<const std::complex<double>>(one)), ripple::InvalidArgument);
}

}  // namespace
}  // namespace ripple::fft::test
