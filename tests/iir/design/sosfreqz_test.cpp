// sosfreqz and freqz against scipy: frequency grids (count, whole, fs) and explicit frequencies,
// complex responses compared point by point relative to the largest |h| of the case.
#include <gtest/gtest.h>

#include <cstdio>
#include <numbers>

#include "iir/design/design_test_util.hpp"

namespace ripple::iir::test {
namespace {

constexpr double freqz_tolerance = 1e-12;

TEST(IirDesignFreqz, SosfreqzMatchesScipy) {
  const Table cases("sosfreqz_cases");
  const Table sos("sosfreqz_sos");
  const Table freqs("sosfreqz_freqs");
  const Table w_ref("sosfreqz_w");
  const std::vector<cplx> h_ref = complex_values("sosfreqz_h");
  double worst_w = 0, worst_h = 0;
  for (std::size_t r = 0; r < cases.rows(); ++r) {
    const Sos s = sos_rows(sos, cases.index(r, 0), cases.index(r, 1));
    const std::size_t n = cases.index(r, 3);
    const double fs = cases(r, 5) > 0 ? cases(r, 5) : 2 * std::numbers::pi;
    const FrequencyResponse got = cases(r, 2) == 0
                                      ? sosfreqz(s, std::int64_t(n), cases(r, 4) != 0, fs)
                                      : sosfreqz(s, slice(freqs.flat(), cases.index(r, 6), n), fs);
    ASSERT_EQ(got.w.size(), n) << "case " << r;
    ASSERT_EQ(got.h.size(), n) << "case " << r;
    const auto w = slice(w_ref.flat(), cases.index(r, 7), n);
    const auto h = slice(h_ref, cases.index(r, 7), n);
    const double ew = relative_error(got.w, w), eh = complex_error(got.h, h);
    worst_w = std::max(worst_w, ew);
    worst_h = std::max(worst_h, eh);
    EXPECT_LE(ew, 1e-15) << "case " << r;
    EXPECT_LE(eh, freqz_tolerance) << "case " << r;
  }
  std::printf("max sosfreqz error vs scipy: w %.3g, h %.3g (relative to max |h|)\n", worst_w, worst_h);
}

TEST(IirDesignFreqz, FreqzMatchesScipy) {
  const Table cases("freqz_cases");
  const Table b_all("freqz_b");
  const Table a_all("freqz_a");
  const Table w_ref("freqz_w");
  const std::vector<cplx> h_ref = complex_values("freqz_h");
  double worst = 0;
  for (std::size_t r = 0; r < cases.rows(); ++r) {
    const Tf tf{slice(b_all.flat(), cases.index(r, 0), cases.index(r, 1)),
                slice(a_all.flat(), cases.index(r, 2), cases.index(r, 3))};
    const std::size_t n = cases.index(r, 4);
    const double fs = cases(r, 6) > 0 ? cases(r, 6) : 2 * std::numbers::pi;
    const FrequencyResponse got = freqz(tf, std::int64_t(n), cases(r, 5) != 0, fs);
    const double ew = relative_error(got.w, slice(w_ref.flat(), cases.index(r, 7), n));
    const double eh = complex_error(got.h, slice(h_ref, cases.index(r, 7), n));
    worst = std::max(worst, eh);
    EXPECT_LE(ew, 1e-15) << "case " << r;
    EXPECT_LE(eh, freqz_tolerance) << "case " << r;
  }
  std::printf("max freqz error vs scipy: h %.3g (relative to max |h|)\n", worst);
}

// The cascade's response is the product of its sections' and equals the transfer function's (to
// 1e-10 here: an order-8 narrow-band polynomial evaluated by Horner's rule loses digits to
// cancellation, the sections do not).
TEST(IirDesignFreqz, SectionsMultiplyToTheTransferFunction) {
  const Sos sos = butter(4, {0.1, 0.3}, BandType::bandpass);
  const FrequencyResponse a = sosfreqz(sos, 256, true);
  const FrequencyResponse b = freqz(sos2tf(sos), 256, true);
  EXPECT_LE(complex_error(a.h, b.h), 1e-10);
  const std::vector<double> f{0.0, 0.2, 0.5, 0.9};
  const FrequencyResponse c = sosfreqz(sos, f, 2.0);
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_NEAR(c.w[i], f[i], 1e-16);
}

}  // namespace
}  // namespace ripple::iir::test
