// zpk2sos against scipy for every pairing ('nearest', 'keep_odd', 'minimal') on random systems
// (every mix of 0..3 conjugate pairs and 0..3 real roots among zeros and poles) and designed
// ones, compared row by row in order to design_tolerance.
#include <gtest/gtest.h>

#include <cstdio>

#include "iir/design/design_test_util.hpp"

namespace ripple::iir::test {
namespace {

TEST(IirDesignZpk2sos, MatchesScipyForEveryPairing) {
  const Table cases("zpk2sos_cases");
  const std::vector<cplx> z_all = complex_values("zpk2sos_z");
  const std::vector<cplx> p_all = complex_values("zpk2sos_p");
  const Table sos("zpk2sos_sos");
  ASSERT_GT(cases.rows(), 300u);
  double worst[3] = {0, 0, 0};
  std::size_t count[3] = {0, 0, 0};
  for (std::size_t r = 0; r < cases.rows(); ++r) {
    const auto pairing = Pairing(int(cases(r, 0)));
    const Zpk zpk{slice(z_all, cases.index(r, 1), cases.index(r, 2)),
                  slice(p_all, cases.index(r, 3), cases.index(r, 4)), cases(r, 5)};
    const Sos ref = sos_rows(sos, cases.index(r, 6), cases.index(r, 7));
    const double err = sos_error(zpk2sos(zpk, pairing), ref);
    worst[int(pairing)] = std::max(worst[int(pairing)], err);
    ++count[int(pairing)];
    EXPECT_LE(err, design_tolerance) << "case " << r << " pairing " << int(pairing) << ": " << zpk.z.size()
                                     << " zeros, " << zpk.p.size() << " poles";
  }
  std::printf(
      "max zpk2sos row error vs scipy: nearest %.3g (%zu cases), keep_odd %.3g (%zu), "
      "minimal %.3g (%zu)\n",
      worst[0], count[0], worst[1], count[1], worst[2], count[2]);
}

TEST(IirDesignZpk2sos, NoRootsGiveOneGainSection) {
  const Sos sos = zpk2sos(Zpk{{}, {}, 2.5});
  ASSERT_EQ(sos.size(), 1u);
  EXPECT_EQ(sos.flat(), (std::vector<double>{2.5, 0, 0, 1, 0, 0}));
}

// scipy's docstring example: three zeros and three poles under the three pairings.
TEST(IirDesignZpk2sos, ScipyDocstringExample) {
  const Zpk zpk{{-1.0, {-0.5, -0.5}, {-0.5, 0.5}}, {0.75, {0.8, 0.1}, {0.8, -0.1}}, 1.0};
  const auto near = [](const Sos& s, std::vector<double> want) {
    const std::vector<double> got = s.flat();
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-15) << i;
  };
  near(zpk2sos(zpk), {1, 1, 0.5, 1, -0.75, 0, 1, 1, 0, 1, -1.6, 0.65});
  near(zpk2sos(zpk, Pairing::keep_odd), {1, 1, 0, 1, -0.75, 0, 1, 1, 0.5, 1, -1.6, 0.65});
  near(zpk2sos(zpk, Pairing::minimal), {0, 1, 1, 0, 1, -0.75, 1, 1, 0.5, 1, -1.6, 0.65});
}

}  // namespace
}  // namespace ripple::iir::test
