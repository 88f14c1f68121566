// Builds SosPlan: rounds the coefficients to the working precision first, so every table
// describes the filter the recurrence really computes.
#include "iir/sos_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/scratch.hpp"
#include "iir/tuning.hpp"

namespace ripple::iir::detail {

std::shared_ptr<const std::vector<Real>> CascadePowers::get(const CascadeSystem& cascade, std::size_t n) {
  {
    std::lock_guard lock(mutex_);
    const auto found = std::find_if(held_.begin(), held_.end(), [n](const auto& h) { return h.first == n; });
    if (found != held_.end()) {
      std::rotate(found, found + 1, held_.end());  // now the most recently used
      return held_.back().second;
    }
  }
  // Computed outside the lock: threads asking for other lengths need not wait.
  auto power = std::make_shared<const std::vector<Real>>(matrix_power(cascade.m, cascade.states, n));
  std::lock_guard lock(mutex_);
  if (std::none_of(held_.begin(), held_.end(), [n](const auto& h) { return h.first == n; })) {
    if (held_.size() == kHeld) held_.erase(held_.begin());
    held_.emplace_back(n, power);
  }
  return power;
}

namespace {

// The fused scan's tables: the cascade's block transition and its free response, output at t
// of the zero-input cascade started from unit state e_k, for t until it stays below
// `negligible` (at most fused_rows rows). The responses are followed only until every state
// has decayed far below that (state_floor), so a long block costs no more to plan than a
// short one when the filter is well damped.
template <class T>
void add_fused_tables(SosPlan<T>& plan, double negligible) {
  const std::size_t order = 2 * plan.sections;
  const std::size_t rows = plan.fused_rows;
  const double output_floor = negligible / double(order);
  // A state this small cannot lift a later output above the floor unless the cascade's
  // transient gain exceeds 2^30.
  const double state_floor = output_floor * 0x1p-30;
  // The 2K zero-input cascades, one from each unit state e_k, side by side (k innermost, so
  // the compiler runs them in SIMD lanes and their recurrences overlap); h[t * order + k],
  // in the thread's scratch: a plan is built for every one-shot sosfilt, and a fresh vector
  // grown to the response's length (up to megabytes) cost more in page faults and copies than
  // the recurrence itself (butter(8, 0.01) in double: about 1.4 ms a plan, 60% of it that).
  std::vector<double> z(2 * plan.sections * order, 0.0), u(order);
  core::Scratch scratch;
  double* h = scratch.get<double>(rows * order);
  for (std::size_t k = 0; k < order; ++k) z[k * order + k] = 1.0;
  std::size_t last = 0;
  for (std::size_t t = 0; t < rows; ++t) {
    std::fill(u.begin(), u.end(), 0.0);
    for (std::size_t s = 0; s < plan.sections; ++s) {
      const Biquad& q = plan.biquads[s];
      double* z0 = z.data() + 2 * s * order;
      double* z1 = z0 + order;
      for (std::size_t k = 0; k < order; ++k) {
        const double y = q.b0 * u[k] + z0[k];
        z0[k] = q.b1 * u[k] - q.a1 * y + z1[k];
        z1[k] = q.b2 * u[k] - q.a2 * y;
        u[k] = y;
      }
    }
    std::copy(u.begin(), u.end(), h + t * order);
    for (std::size_t k = 0; k < order; ++k) {
      if (std::abs(u[k]) >= output_floor) last = t + 1;
    }
    if ((t & 63) == 63) {
      double largest = 0.0;
      for (double v : z) largest = std::max(largest, std::abs(v));
      if (largest < state_floor) break;
    }
  }
  plan.fused_correct_rows = last;
  // Rows an odd number of cache lines apart: 2^k apart, the 2K rows read together would share
  // one set of the 8-way L1 and evict each other.
  constexpr std::size_t kLine = 64 / sizeof(T);
  std::size_t lines = std::max<std::size_t>(1, (last + kLine - 1) / kLine);
  lines += 1 - lines % 2;
  const std::size_t stride = lines * kLine;
  plan.fused_free_stride = stride;
  plan.fused_free_rows.assign(order * stride, T(0));
  for (std::size_t t = 0; t < last; ++t) {
    for (std::size_t k = 0; k < order; ++k) plan.fused_free_rows[k * stride + t] = T(h[t * order + k]);
  }
  plan.fused_transition = matrix_power(plan.cascade.m, order, rows);
}

// The per-section scan's tables: each section's free-response rows and block transition.
template <class T>
void add_section_tables(SosPlan<T>& plan) {
  plan.block_rows = tuning::kScanBlockRows;
  const std::size_t rows = plan.block_rows;
  plan.free_rows.reserve(2 * rows * plan.sections);
  plan.free_rows_wide.reserve(2 * rows * plan.sections);
  const double negligible = tuning::kFreeResponseNegligible * std::numeric_limits<T>::epsilon();
  for (const Biquad& q : plan.biquads) {
    const auto r = free_response_rows(q, rows);
    double gain = 0.0;
    std::size_t last = 0;
    for (std::size_t t = 0; t < rows; ++t) {
      const double size = std::abs(r[2 * t]) + std::abs(r[2 * t + 1]);
      gain = std::max(gain, size);
      if (size >= negligible) last = t + 1;
    }
    for (double v : r) plan.free_rows.push_back(T(v));
    plan.free_rows_wide.insert(plan.free_rows_wide.end(), r.begin(), r.end());
    plan.block_transition.push_back(power(transition(q), rows));
    plan.correct_rows.push_back(last);
    plan.scan_wide.push_back(sizeof(T) < sizeof(double) && gain > tuning::kFloatScanTransientGainLimit);
    plan.coef_wide.insert(plan.coef_wide.end(), {q.b0, q.b1, q.b2, q.a1, q.a2});
  }
}

}  // namespace

template <class T, class S>
SosPlan<T> make_sos_plan(const BasicSos<S>& sos, std::size_t longest_line, ScanTables tables) {
  SosPlan<T> plan;
  plan.sections = sos.size();
  plan.stable = true;
  plan.coef.reserve(5 * plan.sections);
  plan.biquads.reserve(plan.sections);
  for (const auto& row : sos.rows()) {
    const T c[5] = {T(row[0]), T(row[1]), T(row[2]), T(row[4]), T(row[5])};
    plan.coef.insert(plan.coef.end(), c, c + 5);
    const Biquad q{double(c[0]), double(c[1]), double(c[2]), double(c[3]), double(c[4])};
    plan.biquads.push_back(q);
    plan.stable = plan.stable && is_stable(q);
  }
  // Lines too short to repay the tables run serially (SosPlan::block_rows == 0).
  if (!plan.stable || longest_line < tuning::kScanTablesFrom) return plan;
  add_section_tables(plan);
  plan.cascade = cascade_system(plan.biquads);
  // Float only where no section needs its blocks in double (SosPlan::scan_wide): the fused
  // scan runs the whole cascade in T, so a lightly damped section's transient would reach the
  // rounding of every later one. Measured over the 147 golden designs through a stream, 600 to
  // 10^5 samples: float error at most 1.19x the serial float recurrence's (1.24x with the
  // per-section scan); without the rule 4.5x (cheby2 2 at 1e-3, 3000 samples).
  const bool precise = std::none_of(plan.scan_wide.begin(), plan.scan_wide.end(), [](bool wide) { return wide; });
  plan.scan_fused = (sizeof(T) == sizeof(double) || precise) && tables == ScanTables::all &&
                    longest_line >= tuning::kFusedScanTablesFrom;
  if (plan.scan_fused) {
    plan.fused_rows = tuning::kFusedScanRows;
    add_fused_tables(plan, tuning::kFreeResponseNegligible * std::numeric_limits<T>::epsilon());
  }
  return plan;
}

template SosPlan<float> make_sos_plan<float, float>(const BasicSos<float>&, std::size_t, ScanTables);
template SosPlan<double> make_sos_plan<double, float>(const BasicSos<float>&, std::size_t, ScanTables);
template SosPlan<double> make_sos_plan<double, double>(const BasicSos<double>&, std::size_t, ScanTables);
template SosPlan<float> make_sos_plan<float, double>(const BasicSos<double>&, std::size_t, ScanTables);

}  // namespace ripple::iir::detail
