// RBJ Audio EQ Cookbook biquads (Robert Bristow-Johnson): the analog prototypes mapped by the
// bilinear transform with the cutoff pre-warped to f0, coefficients as the cookbook writes them,
// normalized by a0.
#include <cmath>
#include <numbers>

#include "iir/design/checks.hpp"
#include "ripple/iir/design.hpp"

namespace ripple::iir {

namespace {

/// w0 = 2 pi f0 / fs and the quantities every cookbook filter uses.
struct Angle {
  double cos_w0;
  double alpha;  // sin(w0) / (2 Q)
};

Angle angle(const char* function, double f0, double fs, double q) {
  design::require_positive(function, "fs", fs);
  if (!(f0 > 0 && f0 < fs / 2)) {
    design::reject(function, "f0 must be in (0, fs/2) = (0, " + design::format_number(fs / 2) + ")",
                   design::format_number(f0));
  }
  design::require_positive(function, "Q", q);
  const double w0 = 2 * std::numbers::pi * f0 / fs;
  return {std::cos(w0), std::sin(w0) / (2 * q)};
}

/// A = 10^(gain_db / 40), the square root of the linear gain.
double amplitude(const char* function, double gain_db) {
  design::require_finite(function, "gain_db", gain_db);
  return std::pow(10.0, gain_db / 40);
}

Sos normalized(double b0, double b1, double b2, double a0, double a1, double a2) {
  return Sos({{b0 / a0, b1 / a0, b2 / a0, 1.0, a1 / a0, a2 / a0}});
}

}  // namespace

Sos rbj_lowpass(double f0, double fs, double q) {
  const auto [c, alpha] = angle("rbj_lowpass", f0, fs, q);
  return normalized((1 - c) / 2, 1 - c, (1 - c) / 2, 1 + alpha, -2 * c, 1 - alpha);
}

Sos rbj_highpass(double f0, double fs, double q) {
  const auto [c, alpha] = angle("rbj_highpass", f0, fs, q);
  return normalized((1 + c) / 2, -(1 + c), (1 + c) / 2, 1 + alpha, -2 * c, 1 - alpha);
}

Sos rbj_bandpass(double f0, double fs, double q) {
  const auto [c, alpha] = angle("rbj_bandpass", f0, fs, q);
  return normalized(alpha, 0, -alpha, 1 + alpha, -2 * c, 1 - alpha);
}

Sos rbj_notch(double f0, double fs, double q) {
  const auto [c, alpha] = angle("rbj_notch", f0, fs, q);
  return normalized(1, -2 * c, 1, 1 + alpha, -2 * c, 1 - alpha);
}

Sos rbj_allpass(double f0, double fs, double q) {
  const auto [c, alpha] = angle("rbj_allpass", f0, fs, q);
  return normalized(1 - alpha, -2 * c, 1 + alpha, 1 + alpha, -2 * c, 1 - alpha);
}

Sos rbj_peaking(double f0, double fs, double q, double gain_db) {
  const auto [c, alpha] = angle("rbj_peaking", f0, fs, q);
  const double a = amplitude("rbj_peaking", gain_db);
  return normalized(1 + alpha * a, -2 * c, 1 - alpha * a, 1 + alpha / a, -2 * c, 1 - alpha / a);
}

Sos rbj_low_shelf(double f0, double fs, double q, double gain_db) {
  const auto [c, alpha] = angle("rbj_low_shelf", f0, fs, q);
  const double a = amplitude("rbj_low_shelf", gain_db);
  const double k = 2 * std::sqrt(a) * alpha;
  return normalized(a * ((a + 1) - (a - 1) * c + k), 2 * a * ((a - 1) - (a + 1) * c),
                    a * ((a + 1) - (a - 1) * c - k), (a + 1) + (a - 1) * c + k, -2 * ((a - 1) + (a + 1) * c),
                    (a + 1) + (a - 1) * c - k);
}

Sos rbj_high_shelf(double f0, double fs, double q, double gain_db) {
  const auto [c, alpha] = angle("rbj_high_shelf", f0, fs, q);
  const double a = amplitude("rbj_high_shelf", gain_db);
  const double k = 2 * std::sqrt(a) * alpha;
  return normalized(a * ((a + 1) + (a - 1) * c + k), -2 * a * ((a - 1) + (a + 1) * c),
                    a * ((a + 1) + (a - 1) * c - k), (a + 1) - (a - 1) * c + k, 2 * ((a - 1) - (a + 1) * c),
                    (a + 1) - (a - 1) * c - k);
}

double rbj_shelf_q(double gain_db, double slope) {
  const double a = amplitude("rbj_shelf_q", gain_db);
  design::require_positive("rbj_shelf_q", "slope", slope);
  const double inv_q2 = (a + 1 / a) * (1 / slope - 1) + 2;
  if (!(inv_q2 > 0)) {
    design::reject(
        "rbj_shelf_q", "slope too steep for this gain (1/Q^2 = (A + 1/A)(1/S - 1) + 2 must be > 0)",
        "slope " + design::format_number(slope) + " with gain " + design::format_number(gain_db) + " dB");
  }
  return 1 / std::sqrt(inv_q2);
}

}  // namespace ripple::iir
