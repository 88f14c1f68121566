// butter / cheby1 / cheby2 as second-order sections against scipy's output='sos': orders 1..12,
// all four band types, cutoffs 1e-3 .. 0.9 (normalized) and some with a sample rate. Sections
// must come out in scipy's order; each row's b and a within 1e-12 of scipy's relative to the
// row's largest |b| and |a| (design_tolerance).
#include <gtest/gtest.h>

#include <cstdio>

#include "iir/design/design_cases.hpp"

namespace ripple::iir::test {
namespace {

TEST(IirDesignSos, MatchesScipyRowByRow) {
  const Table cases("design_cases");
  const Table sos("design_sos");
  ASSERT_GT(cases.rows(), 1000u);
  double worst[3] = {0, 0, 0};
  std::size_t exact = 0;
  for (std::size_t r = 0; r < cases.rows(); ++r) {
    const DesignCase c = DesignCase::from(cases, r);
    const Sos ref = sos_rows(sos, c.sos_offset, c.sos_rows);
    const Sos ours = c.sos();
    const double err = sos_error(ours, ref);
    worst[int(c.kind)] = std::max(worst[int(c.kind)], err);
    exact += ours.flat() == ref.flat();
    EXPECT_LE(err, design_tolerance) << c.describe() << ": " << ours.size() << " sections, scipy "
                                     << ref.size();
  }
  std::printf("max row error vs scipy: butter %.3g, cheby1 %.3g, cheby2 %.3g; bit-identical %zu of %zu\n",
              worst[0], worst[1], worst[2], exact, cases.rows());
}

}  // namespace
}  // namespace ripple::iir::test
