// Builds SosPlan: rounds the coefficients to the working precision first, so every table
// describes the filter the recurrence really computes.
#include "iir/sos_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "iir/tuning.hpp"

namespace ripple::iir::detail {

template <class T, class S>
SosPlan<T> make_sos_plan(const BasicSos<S>& sos) {
  SosPlan<T> plan;
  plan.sections = sos.size();
  plan.stable = true;
  for (const auto& row : sos.rows()) {
    const T c[5] = {T(row[0]), T(row[1]), T(row[2]), T(row[4]), T(row[5])};
    plan.coef.insert(plan.coef.end(), c, c + 5);
    const Biquad q{double(c[0]), double(c[1]), double(c[2]), double(c[3]), double(c[4])};
    plan.biquads.push_back(q);
    plan.stable = plan.stable && is_stable(q);
  }
  if (!plan.stable) return plan;
  plan.block_rows = tuning::kScanBlockRows;
  for (const Biquad& q : plan.biquads) {
    const auto rows = free_response_rows(q, plan.block_rows);
    double gain = 0.0;
    for (std::size_t t = 0; t < plan.block_rows; ++t) gain = std::max(gain, std::abs(rows[2 * t]) + std::abs(rows[2 * t + 1]));
    plan.scan_wide.push_back(sizeof(T) < sizeof(double) && gain > tuning::kFloatScanTransientGainLimit);
    plan.coef_wide.insert(plan.coef_wide.end(), {q.b0, q.b1, q.b2, q.a1, q.a2});
  }
  plan.wide = std::find(plan.scan_wide.begin(), plan.scan_wide.end(), true) != plan.scan_wide.end();
  plan.cascade = cascade_system(plan.biquads);
  const std::size_t n = plan.states();
  plan.block_map = matrix_power(plan.cascade.m, n, plan.block_rows);
  const std::vector<Real> rows = cascade_free_rows(plan.cascade, plan.block_rows);
  plan.free_rows.assign(rows.begin(), rows.end());
  if (plan.wide) plan.free_rows_wide.assign(rows.begin(), rows.end());
  // Each state's response decays at the rate of the slowest pole it passes through; the
  // correction ends where all have decayed from their peaks below the negligible fraction.
  const Real negligible = tuning::kFreeResponseNegligible * std::numeric_limits<T>::epsilon();
  for (std::size_t k = 0; k < n; ++k) {
    Real peak = 0;
    for (std::size_t t = 0; t < plan.block_rows; ++t) peak = std::max(peak, std::abs(rows[t * n + k]));
    for (std::size_t t = plan.block_rows; t-- > plan.correct_rows;) {
      if (std::abs(rows[t * n + k]) >= negligible * peak && peak > 0) {
        plan.correct_rows = t + 1;
        break;
      }
    }
  }
  return plan;
}

template SosPlan<float> make_sos_plan<float, float>(const BasicSos<float>&);
template SosPlan<double> make_sos_plan<double, float>(const BasicSos<float>&);
template SosPlan<double> make_sos_plan<double, double>(const BasicSos<double>&);
template SosPlan<float> make_sos_plan<float, double>(const BasicSos<double>&);

}  // namespace ripple::iir::detail
