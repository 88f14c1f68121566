// RBJ cookbook biquads against the independent numpy implementation in make_golden.py (all eight
// types over f0, fs, Q and gain grids), and their defining properties through sosfreqz.
#include <gtest/gtest.h>

#include <cstdio>
#include <numbers>

#include "iir/design/design_test_util.hpp"

namespace ripple::iir::test {
namespace {

Sos rbj(int type, double f0, double fs, double q, double gain_db) {
  switch (type) {
    case 0: return rbj_lowpass(f0, fs, q);
    case 1: return rbj_highpass(f0, fs, q);
    case 2: return rbj_bandpass(f0, fs, q);
    case 3: return rbj_notch(f0, fs, q);
    case 4: return rbj_allpass(f0, fs, q);
    case 5: return rbj_peaking(f0, fs, q, gain_db);
    case 6: return rbj_low_shelf(f0, fs, q, gain_db);
    default: return rbj_high_shelf(f0, fs, q, gain_db);
  }
}

TEST(IirDesignRbj, MatchesCookbookFormulas) {
  const Table cases("rbj_cases");
  const Table sos("rbj_sos");
  double worst = 0;
  for (std::size_t r = 0; r < cases.rows(); ++r) {
    const Sos got = rbj(int(cases(r, 0)), cases(r, 1), cases(r, 2), cases(r, 3), cases(r, 4));
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0][3], 1.0);
    const double err = sos_error(got, sos_rows(sos, r, 1));
    worst = std::max(worst, err);
    EXPECT_LE(err, design_tolerance) << "type " << cases(r, 0) << " f0 " << cases(r, 1) << " fs "
                                     << cases(r, 2) << " Q " << cases(r, 3) << " gain " << cases(r, 4);
  }
  std::printf("max RBJ error vs numpy cookbook: %.3g over %zu cases\n", worst, cases.rows());
}

/// |H| at frequency f (same unit as fs).
double gain(const Sos& sos, double f, double fs) {
  const std::vector<double> at{f};
  return std::abs(sosfreqz(sos, at, fs).h[0]);
}

double db(double g) { return 20 * std::log10(g); }

// Gains at DC, f0 and Nyquist. The bound grows as f0 falls: the coefficients of a biquad at
// w0 = 2 pi f0 / fs are rounded to eps but its response near DC divides quantities of size w0^2,
// so rounding is amplified about 1/w0^2 (4e4 at 50 Hz / 48 kHz).
TEST(IirDesignRbj, Properties) {
  const double fs = 48000;
  for (double f0 : {50.0, 1000.0, 12000.0}) {
    const double w0 = 2 * std::numbers::pi * f0 / fs;
    const double tol = 1e-12 + 1e-14 / (w0 * w0);
    for (double q : {0.3, 1 / std::sqrt(2.0), 5.0}) {
      SCOPED_TRACE("f0 " + std::to_string(f0) + " Q " + std::to_string(q));
      EXPECT_NEAR(gain(rbj_lowpass(f0, fs, q), 0, fs), 1, tol);
      EXPECT_NEAR(gain(rbj_lowpass(f0, fs, q), f0, fs), q, tol * q);
      EXPECT_NEAR(gain(rbj_highpass(f0, fs, q), fs / 2, fs), 1, tol);
      EXPECT_NEAR(gain(rbj_highpass(f0, fs, q), f0, fs), q, tol * q);
      EXPECT_NEAR(gain(rbj_bandpass(f0, fs, q), f0, fs), 1, tol);
      EXPECT_NEAR(gain(rbj_bandpass(f0, fs, q), 0, fs), 0, tol);
      EXPECT_NEAR(gain(rbj_notch(f0, fs, q), f0, fs), 0, tol);
      EXPECT_NEAR(gain(rbj_notch(f0, fs, q), 0, fs), 1, tol);
      for (double f : {0.0, 0.5 * f0, f0, 2 * f0, 23000.0}) {
        EXPECT_NEAR(gain(rbj_allpass(f0, fs, q), f, fs), 1, tol) << f;
      }
      // In dB: 20 log10(1 + x) ~ 8.7 x.
      for (double g : {-12.0, 6.0, 15.0}) {
        EXPECT_NEAR(db(gain(rbj_peaking(f0, fs, q, g), f0, fs)), g, 10 * tol);
        EXPECT_NEAR(db(gain(rbj_peaking(f0, fs, q, g), 0, fs)), 0, 10 * tol);
        EXPECT_NEAR(db(gain(rbj_low_shelf(f0, fs, q, g), 0, fs)), g, 10 * tol);
        EXPECT_NEAR(db(gain(rbj_low_shelf(f0, fs, q, g), f0, fs)), g / 2, 10 * tol);
        EXPECT_NEAR(db(gain(rbj_low_shelf(f0, fs, q, g), fs / 2, fs)), 0, 10 * tol);
        EXPECT_NEAR(db(gain(rbj_high_shelf(f0, fs, q, g), 0, fs)), 0, 10 * tol);
        EXPECT_NEAR(db(gain(rbj_high_shelf(f0, fs, q, g), f0, fs)), g / 2, 10 * tol);
        EXPECT_NEAR(db(gain(rbj_high_shelf(f0, fs, q, g), fs / 2, fs)), g, 10 * tol);
      }
    }
  }
}

// Zero gain makes peaking and shelves the identity.
TEST(IirDesignRbj, ZeroGainIsIdentity) {
  for (const Sos& s : {rbj_peaking(1000, 48000, 2, 0), rbj_low_shelf(1000, 48000, 0.7, 0),
                       rbj_high_shelf(1000, 48000, 0.7, 0)}) {
    EXPECT_NEAR(s[0][0], 1, 1e-15);
    EXPECT_NEAR(s[0][1], s[0][4], 1e-15);
    EXPECT_NEAR(s[0][2], s[0][5], 1e-15);
  }
}

// Slope S = 1 is Q = 1/sqrt(2) for every gain; steeper slopes raise Q.
TEST(IirDesignRbj, ShelfSlope) {
  for (double g : {-12.0, 0.0, 6.0}) EXPECT_NEAR(rbj_shelf_q(g, 1.0), 1 / std::sqrt(2.0), 1e-15);
  EXPECT_LT(rbj_shelf_q(6.0, 0.5), rbj_shelf_q(6.0, 1.0));
  EXPECT_GT(rbj_shelf_q(6.0, 1.2), rbj_shelf_q(6.0, 1.0));
}

}  // namespace
}  // namespace ripple::iir::test
