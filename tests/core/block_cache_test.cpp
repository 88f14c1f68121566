// Freed arrays of 64 KiB and more are held and handed to the next array of the same size,
// within bounds.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/block_cache.hpp"
#include "ripple/array.hpp"

namespace ripple {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

class BlockCacheTest : public testing::Test {
 protected:
  void SetUp() override { release_held_arrays(); }
  void TearDown() override { release_held_arrays(); }
  static bool holds() { return core::block_cache_capacity() > 0; }  // off under AddressSanitizer
};

TEST_F(BlockCacheTest, FreedLargeArrayIsReusedForTheSameSize) {
  const double* first = nullptr;
  {
    Array<double> a({8 * kMiB / sizeof(double)});
    first = a.values.data();
  }
  EXPECT_EQ(held_array_bytes(), holds() ? 8 * kMiB : 0);
  Array<double> b({8 * kMiB / sizeof(double) - 3});  // the same size in whole huge pages
  if (holds()) EXPECT_EQ(b.values.data(), first);
  EXPECT_EQ(held_array_bytes(), 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.values.data()) % (2 * kMiB), 0u);
}

TEST_F(BlockCacheTest, OtherSizesAndSmallArraysAreNotTaken) {
  { Array<float> a({6 * kMiB / sizeof(float)}); }
  { Array<float> small({1000}); }  // small arrays are never held
  EXPECT_EQ(held_array_bytes(), holds() ? 6 * kMiB : 0);
  Array<float> other({12 * kMiB / sizeof(float)});
  EXPECT_EQ(held_array_bytes(), holds() ? 6 * kMiB : 0);
  release_held_arrays();
  EXPECT_EQ(held_array_bytes(), 0u);
}

TEST_F(BlockCacheTest, HoldsAtMostItsCapacityAndSlots) {
  if (!holds()) GTEST_SKIP() << "the cache holds nothing in this build";
  const std::size_t capacity = core::block_cache_capacity();
  {
    std::vector<Array<std::uint8_t>> arrays;
    for (int i = 0; i < 12; ++i) arrays.emplace_back(std::vector<std::size_t>{4 * kMiB});
  }
  EXPECT_EQ(held_array_bytes(), std::min<std::size_t>(8 * 4 * kMiB, capacity / (4 * kMiB) * 4 * kMiB));
  // Untouched, so only address space: more than the cache holds is freed, not held.
  { Array<std::uint8_t> huge({capacity + 2 * kMiB}); }
  EXPECT_LE(held_array_bytes(), capacity);
  EXPECT_EQ(held_array_bytes(), std::min<std::size_t>(8 * 4 * kMiB, capacity / (4 * kMiB) * 4 * kMiB));
}

TEST_F(BlockCacheTest, SmallerBlocksAreHeldApartFromLargeOnes) {
  if (!holds()) GTEST_SKIP() << "the cache holds nothing in this build";
  const double* first = nullptr;
  {
    Array<double> a({kMiB / sizeof(double)});
    first = a.values.data();
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % 4096, 0u);
  }
  EXPECT_EQ(held_array_bytes(), kMiB);
  {
    Array<double> b({kMiB / sizeof(double) - 100});  // the same size in 64 KiB steps
    EXPECT_EQ(b.values.data(), first);
  }
  { Array<std::uint8_t> below({core::kHeldBlockBytes - 1}); }  // malloc's own
  EXPECT_EQ(held_array_bytes(), kMiB);
  // A large block held, then more small ones than the small class holds: the large block
  // stays, and the small ones stay within their slots and bound.
  { Array<std::uint8_t> large({4 * kMiB}); }
  {
    std::vector<Array<std::uint8_t>> arrays;
    for (int i = 0; i < 12; ++i) arrays.emplace_back(std::vector<std::size_t>{3 * kMiB});
  }
  const std::size_t small_held = std::min<std::size_t>(8 * 3 * kMiB, core::small_block_cache_capacity() / (3 * kMiB) * 3 * kMiB);
  EXPECT_EQ(held_array_bytes(), 4 * kMiB + small_held);
  Array<std::uint8_t> again({4 * kMiB});
  EXPECT_EQ(held_array_bytes(), small_held);
}

TEST_F(BlockCacheTest, NewestHeldBlockOfTheSizeIsTakenFirst) {
  if (!holds()) GTEST_SKIP() << "the cache holds nothing in this build";
  const std::uint8_t* newest = nullptr;
  {
    Array<std::uint8_t> older({4 * kMiB});
    Array<std::uint8_t> newer({4 * kMiB});
    newest = older.values.data();  // destroyed last (reverse order of construction)
  }
  Array<std::uint8_t> again({4 * kMiB});
  EXPECT_EQ(again.values.data(), newest);
}

}  // namespace
}  // namespace ripple
