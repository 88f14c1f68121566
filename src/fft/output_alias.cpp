// The output-collision search (output_alias.hpp).
#include "fft/output_alias.hpp"

#include <algorithm>
#include <utility>

namespace ripple::fft::detail {

namespace {

// Products of a count and a step stay below 2^126: spans were checked to fit the address space.
using i128 = __int128;

i128 floor_div(i128 a, i128 b) {  // b > 0
  const i128 q = a / b;
  return q * b > a ? q - 1 : q;
}
i128 ceil_div(i128 a, i128 b) { return -floor_div(-a, b); }
i128 mod(i128 a, i128 b) { return a - floor_div(a, b) * b; }  // in [0, b)

// g = gcd(a, b) with u a + v b = g.
i128 extended_gcd(i128 a, i128 b, i128& u, i128& v) {
  i128 r0 = a, r1 = b, u0 = 1, u1 = 0, v0 = 0, v1 = 1;
  while (r1 != 0) {
    const i128 q = r0 / r1;
    r0 = std::exchange(r1, r0 - q * r1);
    u0 = std::exchange(u1, u0 - q * u1);
    v0 = std::exchange(v1, v0 - q * v1);
  }
  u = u0;
  v = v0;
  return r0;
}

class Search {
 public:
  Search(std::vector<AliasLevel> levels, std::size_t budget)
      : levels_(std::move(levels)), reach_(levels_.size() + 1, 0), d_(levels_.size(), 0), budget_(budget) {
    for (std::size_t k = levels_.size(); k-- > 0;)
      reach_[k] = reach_[k + 1] + i128(levels_[k].count - 1) * i128(levels_[k].step);
  }

  // Whether some d_k.. (|d_i| < count_i) gives sum_{i >= k} d_i step_i = t, filling d_[k..];
  // nothing when out of budget.
  std::optional<bool> solve(std::size_t k, i128 t) {
    const std::size_t n = levels_.size();
    if (k == n) return t == 0;
    if (t > reach_[k] || -t > reach_[k]) return false;
    if (k + 1 == n) {
      if (t % i128(levels_[k].step) != 0) return false;
      d_[k] = t / i128(levels_[k].step);
      return true;
    }
    if (k + 2 == n) return last_two(k, t);
    const i128 step = levels_[k].step, most = levels_[k].count - 1, rest = reach_[k + 1];
    const i128 lo = std::max(-most, ceil_div(t - rest, step)), hi = std::min(most, floor_div(t + rest, step));
    for (i128 x = lo; x <= hi; ++x) {
      if (budget_-- == 0) return std::nullopt;
      d_[k] = x;
      const std::optional<bool> found = solve(k + 1, t - x * step);
      if (!found || *found) return found;
    }
    return false;
  }

  // The first level whose d is not 0 is level f, its d positive (the negation of a solution is
  // one): some d_f in 1.. with the levels after it making up -d_f step_f. Where only one level
  // follows, the least such pair is d_f = y/g, d_{f+1} = -x/g (x, y their steps, g the gcd):
  // it fits the counts or none does.
  std::optional<bool> any_collision() {
    const std::size_t n = levels_.size();
    for (std::size_t f = 0; f < n; ++f) {
      const i128 step = levels_[f].step;
      if (f + 2 == n) {
        i128 u, v;
        const i128 next = levels_[f + 1].step, g = extended_gcd(step, next, u, v);
        if (next / g >= i128(levels_[f].count) || step / g >= i128(levels_[f + 1].count)) return false;
        std::fill(d_.begin(), d_.end(), 0);
        d_[f] = next / g;
        d_[f + 1] = -(step / g);
        return true;
      }
      const i128 hi = std::min(i128(levels_[f].count - 1), floor_div(reach_[f + 1], step));
      for (i128 x = 1; x <= hi; ++x) {
        if (budget_-- == 0) return std::nullopt;
        std::fill(d_.begin(), d_.end(), 0);
        d_[f] = x;
        const std::optional<bool> found = solve(f + 1, -x * step);
        if (!found || *found) return found;
      }
    }
    return false;
  }

  /// The d that any_collision found.
  const std::vector<i128>& solution() const { return d_; }

 private:
  // i x + j y = t with |i| <= a, |j| <= b: from one solution (i0 the least residue of u t/g
  // modulo y/g), the others are i0 + m y/g, j0 - m x/g; some m must fit both bounds.
  bool last_two(std::size_t k, i128 t) {
    const i128 x = levels_[k].step, a = levels_[k].count - 1;
    const i128 y = levels_[k + 1].step, b = levels_[k + 1].count - 1;
    i128 u, v;
    const i128 g = extended_gcd(x, y, u, v);
    if (t % g != 0) return false;
    const i128 xg = x / g, yg = y / g;
    const i128 i0 = mod(mod(u, yg) * mod(t / g, yg), yg);
    const i128 j0 = (t - i0 * x) / y;
    const i128 m_lo = std::max(ceil_div(-a - i0, yg), ceil_div(j0 - b, xg));
    const i128 m_hi = std::min(floor_div(a - i0, yg), floor_div(j0 + b, xg));
    if (m_lo > m_hi) return false;
    d_[k] = i0 + m_lo * yg;
    d_[k + 1] = j0 - m_lo * xg;
    return true;
  }

  std::vector<AliasLevel> levels_;  // widest step first
  std::vector<i128> reach_;         // reach_[k]: the most that levels k.. reach
  std::vector<i128> d_;
  std::size_t budget_;
};

}  // namespace

AliasCheck find_collision(const std::vector<AliasLevel>& levels, std::size_t budget) {
  // Levels that vary, widest step first, remembering where each came from.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < levels.size(); ++i)
    if (levels[i].count > 1) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t p, std::size_t q) { return levels[p].step > levels[q].step; });
  std::vector<AliasLevel> sorted;
  for (std::size_t i : order) sorted.push_back(levels[i]);
  Search search(std::move(sorted), budget);
  AliasCheck check;
  const std::optional<bool> found = search.any_collision();
  if (!found) {
    check.decided = false;
    return check;
  }
  if (!*found) return check;
  Collision c;
  c.first.assign(levels.size(), 0);
  c.second.assign(levels.size(), 0);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const i128 dk = search.solution()[k];
    (dk > 0 ? c.first : c.second)[order[k]] = static_cast<std::size_t>(dk > 0 ? dk : -dk);
    if (dk > 0) c.address += static_cast<std::size_t>(dk) * levels[order[k]].step;
  }
  check.collision = c;
  return check;
}

}  // namespace ripple::fft::detail
