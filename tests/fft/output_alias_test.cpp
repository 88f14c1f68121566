// The output-collision search (src/fft/output_alias.hpp) against a brute force over every pair
// of positions, on random small layouts of up to four levels; its witnesses; its budget.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "fft/output_alias.hpp"

namespace ripple::fft::detail {
namespace {

// Every position's address; whether two meet.
bool brute_force_collides(const std::vector<AliasLevel>& levels) {
  std::set<std::size_t> seen;
  std::vector<std::size_t> index(levels.size(), 0);
  while (true) {
    std::size_t address = 0;
    for (std::size_t i = 0; i < levels.size(); ++i) address += index[i] * levels[i].step;
    if (!seen.insert(address).second) return true;
    std::size_t i = 0;
    while (i < levels.size() && ++index[i] == levels[i].count) index[i++] = 0;
    if (i == levels.size()) return false;
  }
}

std::size_t address_of(const std::vector<AliasLevel>& levels, const std::vector<std::size_t>& at) {
  std::size_t a = 0;
  for (std::size_t i = 0; i < levels.size(); ++i) a += at[i] * levels[i].step;
  return a;
}

TEST(OutputAlias, MatchesBruteForceOnRandomLayouts) {
  std::mt19937_64 rng(20261129);
  int collide = 0, apart = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::vector<AliasLevel> levels(1 + rng() % 4);
    // Half the layouts with steps of a common factor (gcds above 1), up to 12 positions a level.
    const std::size_t factor = trial % 2 ? 1 : 1 + rng() % 12;
    for (AliasLevel& l : levels) {
      l.count = 1 + rng() % (trial % 3 ? 6 : 12);
      // Mostly small steps (near misses), sometimes nested ones.
      l.step = factor * (rng() % 3 == 0 ? 1 + rng() % 60 : 1 + rng() % 9);
    }
    const bool expected = brute_force_collides(levels);
    const AliasCheck check = find_collision(levels);
    ASSERT_TRUE(check.decided);
    ASSERT_EQ(check.collision.has_value(), expected) << "trial " << trial;
    if (!expected) {
      ++apart;
      continue;
    }
    ++collide;
    const Collision& c = *check.collision;
    ASSERT_NE(c.first, c.second);
    for (std::size_t i = 0; i < levels.size(); ++i) {
      ASSERT_LT(c.first[i], std::max<std::size_t>(levels[i].count, 1));
      ASSERT_LT(c.second[i], std::max<std::size_t>(levels[i].count, 1));
    }
    EXPECT_EQ(address_of(levels, c.first), c.address);
    EXPECT_EQ(address_of(levels, c.second), c.address);
  }
  // Both outcomes were drawn often.
  EXPECT_GT(collide, 2000);
  EXPECT_GT(apart, 2000);
}

// Large layouts: nesting ones (no search), interleaves that only the exact test accepts, and a
// collision far out.
TEST(OutputAlias, LargeLayouts) {
  const std::size_t big = std::size_t(1) << 20;
  // 3-D transforms of 1024 x 1024 x 1024 in a padded array, batched after one another.
  EXPECT_FALSE(find_collision({{1024, 1030 * 1040}, {1024, 1040}, {1024, 1}, {big, 1030u * 1030 * 1040}}).collision);
  // Rows 100 apart of 4 elements at stride 2, two transforms 5 apart ({0, 2, 4, 6} and {5, 7, 9,
  // 11}): they do not nest (5 is within the 6 a row reaches), yet nothing meets. The nesting rule
  // that decided three levels until 2026-11-29 refused it.
  EXPECT_FALSE(find_collision({{3, 100}, {4, 2}, {2, 5}}).collision);
  EXPECT_TRUE(find_collision({{3, 100}, {4, 2}, {2, 4}}).collision);
  // Two levels are decided in closed form, whatever their counts (no search step).
  const AliasCheck two = find_collision({{std::size_t(1) << 21, (std::size_t(1) << 21) + 1},
                                         {std::size_t(1) << 22, std::size_t(1) << 21}},
                                        1);
  EXPECT_TRUE(two.decided);
  EXPECT_FALSE(two.collision);
  // Steps 6 and 10: 5 of 6 meet 3 of 10 at 30, their least common multiple.
  const AliasCheck c = find_collision({{big, 6}, {big, 10}});
  ASSERT_TRUE(c.collision);
  EXPECT_EQ(c.collision->address, 30u);
}

// Past its budget the search gives up rather than answer.
TEST(OutputAlias, GivesUpPastItsBudget) {
  const std::vector<AliasLevel> tangled{{50, 1009}, {50, 1013}, {50, 1019}, {50, 1021}};
  EXPECT_FALSE(find_collision(tangled, 10).decided);
  EXPECT_TRUE(find_collision(tangled).decided);
}

}  // namespace
}  // namespace ripple::fft::detail
