// butter_zpk / cheby1_zpk / cheby2_zpk against scipy's output='zpk' (zeros and poles in scipy's
// order, compared element by element), and zpk2tf of them against scipy's output='ba' for
// orders <= 6 (higher-order polynomials are too ill-conditioned to compare coefficient-wise).
#include <gtest/gtest.h>

#include <cstdio>

#include "iir/design/design_cases.hpp"

namespace ripple::iir::test {
namespace {

TEST(IirDesignZpk, MatchesScipyInOrder) {
  const Table cases("design_cases");
  const std::vector<cplx> z_ref = complex_values("design_z");
  const std::vector<cplx> p_ref = complex_values("design_p");
  double worst_z = 0, worst_p = 0, worst_k = 0;
  for (std::size_t r = 0; r < cases.rows(); ++r) {
    const DesignCase c = DesignCase::from(cases, r);
    const Zpk ours = c.zpk();
    const double ez = complex_error(ours.z, slice(z_ref, c.z_offset, c.z_count));
    const double ep = complex_error(ours.p, slice(p_ref, c.p_offset, c.p_count));
    const double ek = std::fabs(ours.k - c.k) / std::fabs(c.k);
    worst_z = std::max(worst_z, ez);
    worst_p = std::max(worst_p, ep);
    worst_k = std::max(worst_k, ek);
    EXPECT_LE(ez, design_tolerance) << c.describe();
    EXPECT_LE(ep, design_tolerance) << c.describe();
    EXPECT_LE(ek, design_tolerance) << c.describe();
  }
  std::printf("max error vs scipy zpk: zeros %.3g, poles %.3g (relative to max |root|), k %.3g\n", worst_z,
              worst_p, worst_k);
}

// b and a, each relative to its largest coefficient.
TEST(IirDesignZpk, Zpk2tfMatchesScipyBa) {
  const Table cases("design_cases");
  const Table tf_cases("design_tf_cases");
  const Table b_ref("design_b");
  const Table a_ref("design_a");
  double worst = 0;
  std::size_t compared = 0;
  for (std::size_t r = 0; r < cases.rows(); ++r) {
    if (tf_cases(r, 1) == 0) continue;
    const DesignCase c = DesignCase::from(cases, r);
    const Tf tf = zpk2tf(c.zpk());
    const auto b = slice(b_ref.flat(), tf_cases.index(r, 0), tf_cases.index(r, 1));
    const auto a = slice(a_ref.flat(), tf_cases.index(r, 2), tf_cases.index(r, 3));
    ASSERT_EQ(tf.b.size(), b.size()) << c.describe();
    ASSERT_EQ(tf.a.size(), a.size()) << c.describe();
    const double err = std::max(relative_error(tf.b, b), relative_error(tf.a, a));
    worst = std::max(worst, err);
    ++compared;
    EXPECT_LE(err, design_tolerance) << c.describe();
  }
  EXPECT_GT(compared, 500u);
  std::printf("max error of zpk2tf(design) vs scipy 'ba' (orders <= 6): %.3g\n", worst);
}

}  // namespace
}  // namespace ripple::iir::test
