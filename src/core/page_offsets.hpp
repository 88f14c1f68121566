// Scratch buffers placed apart in the 4 KiB page offset.
//
// A loop that reads one buffer while it writes another runs slowly when the two walk through
// the same addresses modulo 4 KiB: each load waits behind the stores whose low 12 address bits
// it shares (the core cannot tell early that they differ) and both streams crowd the same L1
// sets. Power-of-two transforms over buffers that are page multiples, laid end to end, do that
// on every element: their radix passes read and write p elements a power of two apart. Placed
// apart, the FFT kernels' buffers took 0.68-0.89x the time from 32 KiB (wide kernel, f64
// N = 2048-65536, f32 N = 4096-131072) and 0.90-0.93x in batched panels of 1024 points (one
// thread, AVX-512 Zen 4, the same build with and without, in one process).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace ripple::core {

inline constexpr std::size_t kPageBytes = 4096;
inline constexpr std::size_t kLineBytes = 64;
/// How far apart place_apart keeps page offsets where it can.
inline constexpr std::size_t kMinApartBytes = 512;

/// Bytes of a region from which place_apart lays out `count` buffers of `bytes` each.
constexpr std::size_t apart_region_bytes(std::size_t count, std::size_t bytes) {
  const std::size_t lines = (bytes + kLineBytes - 1) / kLineBytes * kLineBytes;
  return count * (bytes < kPageBytes ? lines : lines + kPageBytes);
}

/// Lays out kCount buffers of `bytes` each, one after another in `region` (64-byte aligned,
/// apart_region_bytes(kCount, bytes) long). Each starts at a page offset, in whole cache
/// lines, at least kMinApartBytes from those of `avoid` (null entries ignored) and of the
/// buffers placed before it while those are at most three, else at least three lines from
/// them (or as far as a crowded page allows). Buffers shorter than a page are laid end to
/// end, which already starts them at different offsets; the search (about 7 ns) would cost
/// more than their short loops could gain.
template <std::size_t kCount, std::size_t kAvoid>
std::array<std::byte*, kCount> place_apart(std::byte* region, std::size_t bytes,
                                           const std::array<const void*, kAvoid>& avoid) {
  const std::size_t stride = (bytes + kLineBytes - 1) / kLineBytes * kLineBytes;
  std::array<std::byte*, kCount> placed{};
  if (bytes < kPageBytes) {
    for (std::size_t b = 0; b < kCount; ++b) placed[b] = region + b * stride;
    return placed;
  }
  constexpr unsigned kLines = kPageBytes / kLineBytes;  // one bit per line of the page
  static_assert(kLines == 64);
  // Successive candidates are 17 lines apart, so no power-of-two stride of a kernel's passes
  // lines a buffer up with the one before it.
  constexpr unsigned kStaggerLines = 17;
  const auto line_of = [](const void* p) {
    return unsigned(reinterpret_cast<std::uintptr_t>(p) / kLineBytes % kLines);
  };
  // near[r]: the lines within kRadii[r] of a taken one. The widest radius that leaves a line
  // free decides.
  constexpr unsigned kRadii[] = {kMinApartBytes / kLineBytes, 2, 0};
  std::array<std::uint64_t, 3> near{};
  const auto take = [&](unsigned line) {
    for (std::size_t r = 0; r < near.size(); ++r) {
      const std::uint64_t run = (std::uint64_t(2) << (2 * kRadii[r])) - 1;  // 2 radius + 1 lines
      near[r] |= std::rotl(run, int(line) - int(kRadii[r]));
    }
  };
  for (const void* p : avoid)
    if (p != nullptr) take(line_of(p));
  std::byte* cursor = region;
  for (std::size_t b = 0; b < kCount; ++b) {
    unsigned target = 0;
    for (const std::uint64_t taken : near) {
      if (taken == ~std::uint64_t(0)) continue;
      target = kStaggerLines;
      while ((taken >> target & 1) != 0) target = (target + kStaggerLines) % kLines;
      break;
    }
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(cursor) % kPageBytes;
    placed[b] = cursor + (target * kLineBytes + kPageBytes - offset) % kPageBytes;
    cursor = placed[b] + stride;
    take(target);
  }
  return placed;
}

}  // namespace ripple::core
