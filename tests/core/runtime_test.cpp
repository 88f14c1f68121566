// Checks the process-wide runtime facts and the thread-count setting.
#include <gtest/gtest.h>

#include <string>

#include "ripple/error.hpp"
#include "ripple/runtime.hpp"

TEST(Runtime, ReportsVersionAndTarget) {
  EXPECT_FALSE(std::string(ripple::version()).empty());
  EXPECT_NE(ripple::build_info().find("simd_targets_compiled="), std::string::npos);
  EXPECT_FALSE(ripple::simd_target().empty());
  EXPECT_GE(ripple::simd_complex_lanes_f32(), 1);
  EXPECT_GE(ripple::simd_complex_lanes_f32(), ripple::simd_complex_lanes_f64());
}

TEST(Runtime, ThreadCountCanBeSetAndRestored) {
  ripple::set_threads(3);
  EXPECT_EQ(ripple::default_threads(), 3u);
  ripple::set_threads(0);
  EXPECT_GE(ripple::default_threads(), 1u);
  EXPECT_THROW(ripple::set_threads(5000), ripple::InvalidArgument);
}
