// Whether an output layout puts two of its elements at one address: the layout's levels (each
// axis, the batch) are `count` positions `step` elements apart, so two positions meet exactly
// where some d != 0 with |d_i| < count_i gives sum d_i step_i = 0. Decided exactly: a search
// from the widest step down, each level's d bounded by what the levels below it can reach (the
// last two levels solved in closed form by the extended gcd, or by the gcd alone where they are
// the only ones left to vary). Layouts whose levels nest (each
// step beyond all that the levels below reach: transforms one after another, interleaved, in
// an embedding's gaps) leave the search nothing to try; only contrived ones make it search,
// and past a budget it gives up (undecided) rather than take long.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace ripple::fft::detail {

struct AliasLevel {
  std::size_t count;
  std::size_t step;
};

/// Two positions of the layout (an index per level, in the levels' order) at one address.
struct Collision {
  std::vector<std::size_t> first, second;
  std::size_t address = 0;
};

struct AliasCheck {
  bool decided = true;                 // false: the search passed its budget
  std::optional<Collision> collision;  // where decided: a collision, or none
};

/// Steps tried by the search before it gives up.
inline constexpr std::size_t kAliasSearchBudget = std::size_t(1) << 20;

/// Levels of count 0 or 1 are ignored; steps must be >= 1, and the layout's reach, the sum of
/// (count - 1) step, below 2^63 (plan_desc.cpp checks each side's span first).
AliasCheck find_collision(const std::vector<AliasLevel>& levels, std::size_t budget = kAliasSearchBudget);

}  // namespace ripple::fft::detail
