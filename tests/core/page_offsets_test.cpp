// place_apart: buffers inside their region, not overlapping, line aligned, and at page offsets
// apart from the pointers to avoid and from each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "core/page_offsets.hpp"

namespace ripple::core {
namespace {

std::size_t page_offset(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % kPageBytes; }

// Between the cache lines of a and b, in bytes.
std::size_t page_distance(const void* a, const void* b) {
  const auto line_start = [](const void* p) { return page_offset(p) / kLineBytes * kLineBytes; };
  const std::size_t d = (line_start(a) + kPageBytes - line_start(b)) % kPageBytes;
  return std::min(d, kPageBytes - d);
}

struct Freer {
  void operator()(std::byte* p) const { std::free(p); }
};

template <std::size_t kCount>
void check_layout(std::size_t bytes, const std::array<const void*, 3>& avoid, bool expect_apart) {
  const std::size_t region_bytes = apart_region_bytes(kCount, bytes);
  // Start the region at an arbitrary line of a page, as the scratch arena may.
  const std::size_t pages = (region_bytes + kPageBytes - 1) / kPageBytes + 1;
  std::unique_ptr<std::byte, Freer> memory(static_cast<std::byte*>(std::aligned_alloc(kPageBytes, pages * kPageBytes)));
  ASSERT_NE(memory, nullptr);
  std::byte* const region = memory.get() + page_offset(avoid[0]) / kLineBytes * kLineBytes;
  const auto placed = place_apart<kCount>(region, bytes, avoid);
  for (std::size_t b = 0; b < kCount; ++b) {
    SCOPED_TRACE(testing::Message() << "buffer " << b << " of " << bytes << " bytes");
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(placed[b]) % kLineBytes, 0u);
    EXPECT_GE(placed[b], region);
    EXPECT_LE(placed[b] + bytes, region + region_bytes);
    if (b > 0) EXPECT_GE(placed[b], placed[b - 1] + bytes);
    if (!expect_apart) continue;
    // kMinApartBytes can be kept from up to three offsets (each rules out 17 of the 64 lines);
    // from more, three lines (each then rules out 5).
    std::size_t taken = b;
    for (const void* p : avoid) taken += p != nullptr;
    const std::size_t least = taken <= 3 ? kMinApartBytes : 3 * kLineBytes;
    for (const void* p : avoid)
      if (p != nullptr) EXPECT_GE(page_distance(placed[b], p), least);
    for (std::size_t c = 0; c < b; ++c) EXPECT_GE(page_distance(placed[b], placed[c]), least);
  }
}

TEST(PlaceApart, BuffersOfAPageOrMoreStandApartFromEverythingNamed) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::size_t> offset(0, 1 << 20);
  for (std::size_t bytes : {std::size_t{4096}, std::size_t{8192}, std::size_t{16384 + 64}, std::size_t{1} << 20}) {
    for (int trial = 0; trial < 50; ++trial) {
      const auto* base = reinterpret_cast<const std::byte*>(std::uintptr_t{1} << 30);
      const std::array<const void*, 3> avoid{base + offset(rng) / 16 * 16, base + offset(rng) / 16 * 16,
                                             trial % 5 == 0 ? nullptr : base + offset(rng) / 64 * 64};
      check_layout<2>(bytes, avoid, true);
      check_layout<3>(bytes, avoid, true);
    }
  }
}

TEST(PlaceApart, PointersAtOneOffsetStillLeaveRoom) {
  const auto* base = reinterpret_cast<const std::byte*>(std::uintptr_t{1} << 30);
  check_layout<3>(8192, {base, base + kPageBytes, base + 7 * kPageBytes}, true);
  check_layout<3>(8192, {nullptr, nullptr, nullptr}, true);
}

TEST(PlaceApart, ShortBuffersAreLaidEndToEnd) {
  std::vector<std::byte> region(apart_region_bytes(3, 1000) + kLineBytes);
  auto* start = reinterpret_cast<std::byte*>((reinterpret_cast<std::uintptr_t>(region.data()) + kLineBytes - 1) /
                                             kLineBytes * kLineBytes);
  const auto placed = place_apart<3>(start, 1000, std::array<const void*, 1>{start});
  EXPECT_EQ(placed[0], start);
  EXPECT_EQ(placed[1], start + 1024);
  EXPECT_EQ(placed[2], start + 2048);
  EXPECT_EQ(apart_region_bytes(3, 1000), 3u * 1024);
}

}  // namespace
}  // namespace ripple::core
