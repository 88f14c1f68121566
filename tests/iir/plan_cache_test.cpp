// One-shot filters reuse the plan of the same sections and line-length tier, and keep only the
// last few.
#include <gtest/gtest.h>

#include "iir/iir_test_util.hpp"
#include "iir/plan_cache.hpp"
#include "iir/tuning.hpp"

namespace ripple::iir::test {
namespace {

TEST(IirPlanCache, SameSectionsAndTierShareOnePlan) {
  const BasicSos<double> sos(resonant_sos(3, 0.9, 71));
  const std::size_t long_line = tuning::kFusedScanTablesFrom;
  const auto first = detail::cached_sos_plan<double>(sos, long_line);
  EXPECT_EQ(detail::cached_sos_plan<double>(sos, long_line + 12345), first);
  EXPECT_TRUE(first->scan_fused);
  // Another tier of line length builds other tables.
  const auto short_plan = detail::cached_sos_plan<double>(sos, tuning::kScanTablesFrom - 1);
  EXPECT_NE(short_plan, first);
  EXPECT_EQ(short_plan->block_rows, 0u);
  // One coefficient's last bit apart: another plan.
  auto rows = sos.rows();
  rows[1][4] = std::nextafter(rows[1][4], 0.0);
  EXPECT_NE(detail::cached_sos_plan<double>(BasicSos<double>(rows), long_line), first);
  // Float sections rounded from the same doubles plan for float.
  const auto as_float = detail::cached_sos_plan<float>(BasicSos<float>(sos), long_line);
  EXPECT_EQ(detail::cached_sos_plan<float>(BasicSos<float>(sos), long_line), as_float);
}

TEST(IirPlanCache, KeepsOnlyTheLastFewPlans) {
  const std::size_t line = tuning::kScanTablesFrom;
  const BasicSos<double> first_sos(resonant_sos(2, 0.8, 90));
  const auto first = detail::cached_sos_plan<double>(first_sos, line);
  std::weak_ptr<const detail::SosPlan<double>> watch = first;
  for (unsigned i = 0; i < 20; ++i) detail::cached_sos_plan<double>(BasicSos<double>(resonant_sos(2, 0.8, 100 + i)), line);
  // The caller's copy lives on; the cache let go of it, so a new lookup builds a new plan.
  EXPECT_NE(detail::cached_sos_plan<double>(first_sos, line), first);
  EXPECT_FALSE(watch.expired());
  const auto again = detail::cached_sos_plan<double>(first_sos, line);
  EXPECT_EQ(detail::cached_sos_plan<double>(first_sos, line), again);
}

}  // namespace
}  // namespace ripple::iir::test
