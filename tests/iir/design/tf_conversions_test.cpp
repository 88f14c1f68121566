// tf2sos, sos2tf, tf2zpk and sos2zpk against scipy. sos2tf is plain polynomial products and
// must match to design_tolerance. tf2sos goes through polynomial roots: ripple's companion-matrix
// QR and LAPACK's agree only to rounding times the roots' condition numbers, so its bounds are
// looser and stated per family of transfer functions.
#include <gtest/gtest.h>

#include <cstdio>

#include "iir/design/design_test_util.hpp"

namespace ripple::iir::test {
namespace {

// Transfer functions whose zeros and poles are all simple (cheby2 designs, random systems with
// roots in |x| < 1.2): their roots are well conditioned, and the sections match scipy's row by
// row to this bound.
constexpr double tf_simple_roots_tolerance = 1e-11;
// Butterworth / Chebyshev I have N-fold zeros at -1 (and +1): any root finder gets those only to
// about eps^(1/N), each differently, so the sections differ from scipy's in those zeros' digits
// (up to ~1e-2 at order 8). What must agree is the filter: the cascade's response, relative to
// its peak, on 512 frequencies.
constexpr double tf_response_tolerance = 1e-10;

TEST(IirDesignTf, Tf2sosMatchesScipy) {
  const Table cases("tf_cases");
  const Table b_all("tf_b");
  const Table a_all("tf_a");
  const Table sos("tf_sos");
  double worst_rows = 0, worst_response = 0, worst_repeated_rows = 0;
  for (std::size_t r = 0; r < cases.rows(); ++r) {
    const Tf tf{slice(b_all.flat(), cases.index(r, 0), cases.index(r, 1)),
                slice(a_all.flat(), cases.index(r, 2), cases.index(r, 3))};
    const Sos ref = sos_rows(sos, cases.index(r, 4), cases.index(r, 5));
    const Sos got = tf2sos(tf);
    ASSERT_EQ(got.size(), ref.size()) << "case " << r;
    const double rows = sos_error(got, ref);
    const double response = complex_error(sosfreqz(got).h, sosfreqz(ref).h);
    worst_response = std::max(worst_response, response);
    EXPECT_LE(response, tf_response_tolerance) << "case " << r << ": order " << tf.a.size() - 1;
    if (cases(r, 6) != 0) {
      worst_rows = std::max(worst_rows, rows);
      EXPECT_LE(rows, tf_simple_roots_tolerance) << "case " << r << ": order " << tf.a.size() - 1;
    } else {
      worst_repeated_rows = std::max(worst_repeated_rows, rows);
    }
  }
  std::printf(
      "tf2sos vs scipy over %zu transfer functions: rows (simple roots) %.3g, rows (repeated "
      "zeros, not bounded) %.3g, response %.3g\n",
      cases.rows(), worst_rows, worst_repeated_rows, worst_response);
}

TEST(IirDesignTf, Sos2tfMatchesScipy) {
  const Table cases("sos2tf_cases");
  const Table sos("sos2tf_sos");
  const Table b_all("sos2tf_b");
  const Table a_all("sos2tf_a");
  double worst = 0;
  for (std::size_t r = 0; r < cases.rows(); ++r) {
    const Tf tf = sos2tf(sos_rows(sos, cases.index(r, 0), cases.index(r, 1)));
    const auto b = slice(b_all.flat(), cases.index(r, 2), cases.index(r, 3));
    const auto a = slice(a_all.flat(), cases.index(r, 4), cases.index(r, 5));
    ASSERT_EQ(tf.b.size(), b.size());
    ASSERT_EQ(tf.a.size(), a.size());
    const double err = std::max(relative_error(tf.b, b), relative_error(tf.a, a));
    worst = std::max(worst, err);
    EXPECT_LE(err, design_tolerance) << "case " << r;
  }
  std::printf("max sos2tf error vs scipy (relative to max |coefficient|): %.3g\n", worst);
}

// sos -> tf -> sos gives back the sections when the roots are simple (cheby2), and the same
// filter otherwise.
TEST(IirDesignTf, RoundTrips) {
  for (int order = 1; order <= 6; ++order) {
    const Sos simple = cheby2(order, 40, 0.3);
    EXPECT_LE(sos_error(tf2sos(sos2tf(simple)), simple), 1e-12) << "cheby2 order " << order;
    const Sos repeated = butter(order, 0.3);
    EXPECT_LE(complex_error(sosfreqz(tf2sos(sos2tf(repeated))).h, sosfreqz(repeated).h), 1e-12)
        << "butter order " << order;
  }
}

// tf2zpk: roots of known polynomials.
TEST(IirDesignTf, Tf2zpkFindsKnownRoots) {
  // 3 (x - 2)(x - 6) / ((x - 1)(x - 8)) with a leading zero in a (dropped by normalize).
  const Zpk zpk = tf2zpk(Tf{{3, -24, 36}, {0, 1, -9, 8}});
  EXPECT_DOUBLE_EQ(zpk.k, 3.0);
  EXPECT_LE(root_set_error(zpk.z, {2.0, 6.0}), 1e-15);
  EXPECT_LE(root_set_error(zpk.p, {1.0, 8.0}), 1e-15);
  // x^3 - 1 (cube roots of unity), trailing zeros give roots at 0.
  const Zpk cube = tf2zpk(Tf{{1, 0, 0, -1, 0, 0}, {1}});
  const double h = std::sqrt(3.0) / 2;
  EXPECT_LE(root_set_error(cube.z, {1.0, {-0.5, h}, {-0.5, -h}, 0.0, 0.0}), 1e-15);
  EXPECT_TRUE(cube.p.empty());
  // Roots spread over many decades (the balancing matters).
  std::vector<cplx> roots{1e-4, 1e-2, 1.0, 1e2, 1e4, {0.5, 3.0}, {0.5, -3.0}};
  const Tf tf = zpk2tf(Zpk{roots, {}, 1.0});
  const Zpk back = tf2zpk(tf);
  for (const cplx& r : roots) {
    double nearest = INFINITY;
    for (const cplx& x : back.z) nearest = std::min(nearest, std::abs(x - r) / std::abs(r));
    EXPECT_LE(nearest, 1e-10) << r;
  }
}

// sos2zpk: two zeros and two poles per section, gain the product of the b0's.
TEST(IirDesignTf, Sos2zpkOfDesign) {
  const Zpk zpk = cheby1_zpk(5, 1.0, {0.2, 0.4}, BandType::bandpass);
  const Sos sos = zpk2sos(zpk);
  const Zpk back = sos2zpk(sos);
  EXPECT_EQ(back.z.size(), 2 * sos.size());
  EXPECT_EQ(back.p.size(), 2 * sos.size());
  EXPECT_LE(root_set_error(back.z, zpk.z), 1e-7);  // zeros of multiplicity 5 at +-1
  EXPECT_LE(root_set_error(back.p, zpk.p), 1e-13);
  EXPECT_NEAR(back.k, zpk.k, 1e-13 * std::fabs(zpk.k));
}

}  // namespace
}  // namespace ripple::iir::test
