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
    for (std::size_t t = 0; t < plan.block_rows; ++t) {
      plan.free_rows.push_back(T(rows[2 * t]));
      plan.free_rows.push_back(T(rows[2 * t + 1]));
      gain = std::max(gain, std::abs(rows[2 * t]) + std::abs(rows[2 * t + 1]));
    }
    plan.free_rows_wide.insert(plan.free_rows_wide.end(), rows.begin(), rows.end());
    plan.block_transition.push_back(power(transition(q), plan.block_rows));
    const double negligible = tuning::kFreeResponseNegligible * std::numeric_limits<T>::epsilon();
    std::size_t last = 0;
    for (std::size_t t = 0; t < plan.block_rows; ++t) {
      if (std::abs(rows[2 * t]) + std::abs(rows[2 * t + 1]) >= negligible) last = t + 1;
    }
    plan.correct_rows.push_back(last);
    plan.scan_wide.push_back(sizeof(T) < sizeof(double) && gain > tuning::kFloatScanTransientGainLimit);
    plan.coef_wide.insert(plan.coef_wide.end(), {q.b0, q.b1, q.b2, q.a1, q.a2});
  }
  plan.cascade = cascade_system(plan.biquads);
  return plan;
}

template SosPlan<float> make_sos_plan<float, float>(const BasicSos<float>&);
template SosPlan<double> make_sos_plan<double, float>(const BasicSos<float>&);
template SosPlan<double> make_sos_plan<double, double>(const BasicSos<double>&);
template SosPlan<float> make_sos_plan<float, double>(const BasicSos<double>&);

}  // namespace ripple::iir::detail
