// Frequency responses as scipy.signal.sosfreqz and freqz: the same frequency grid (numpy's
// linspace), z^-1 = exp(-j w), Horner's rule in z^-1 for numerator and denominator, numpy's
// complex division, and the sections' responses multiplied in order.
#include <cmath>
#include <numbers>
#include <string>

#include "iir/design/checks.hpp"
#include "iir/design/numpy_complex.hpp"
#include "ripple/iir/design.hpp"

namespace ripple::iir {

using design::cplx;

namespace {

constexpr double two_pi = 2 * std::numbers::pi;

/// c[0] + c[1] x + c[2] x^2 + ... by Horner's rule from the last coefficient (numpy's polyval
/// of the polynomial module, which freqz applies to b and a with x = exp(-j w)).
cplx polyval_ascending(std::span<const double> c, cplx x) {
  cplx acc = c.back();
  for (std::size_t i = c.size() - 1; i-- > 0;) acc = cplx(c[i]) + design::multiply_elementwise(acc, x);
  return acc;
}

/// Angular frequencies in rad/sample: numpy's linspace(0, pi or 2 pi, n, endpoint=False).
std::vector<double> grid(const char* function, std::int64_t n, bool whole) {
  if (n < 0) design::reject(function, "worN (number of frequencies) must be >= 0", std::to_string(n));
  const double last = whole ? two_pi : std::numbers::pi;
  std::vector<double> w(static_cast<std::size_t>(n));
  const double step = last / double(n);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = double(i) * step;
  return w;
}

/// rad/sample from the caller's frequencies in units of fs: 2 pi f / fs.
std::vector<double> to_angular(const char* function, std::span<const double> f, double fs) {
  std::vector<double> w(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (!std::isfinite(f[i])) {
      design::reject(function, "frequencies must be finite",
                     "frequencies[" + std::to_string(i) + "] = " + design::format_number(f[i]));
    }
    w[i] = two_pi * f[i] / fs;
  }
  return w;
}

void check_sos(const char* function, const Sos& sos) {
  if (sos.size() == 0) design::reject(function, "sos must have at least one section", "0");
  for (std::size_t s = 0; s < sos.size(); ++s) {
    if (sos[s][3] != 1) {
      design::reject(function, "sos[:, 3] (a0 of every section) must be 1",
                     "sos[" + std::to_string(s) + "][3] = " + design::format_number(sos[s][3]));
    }
  }
}

void check_tf(const char* function, const Tf& tf) {
  if (tf.b.empty()) design::reject(function, "b must have at least one coefficient", "none");
  if (tf.a.empty()) design::reject(function, "a must have at least one coefficient", "none");
  bool nonzero = false;
  for (double v : tf.a) nonzero = nonzero || v != 0;
  if (!nonzero) design::reject(function, "a must have a nonzero coefficient", "all zeros");
}

/// The response of the cascade at angular frequencies w, then w converted to units of fs.
FrequencyResponse sos_response(const Sos& sos, std::vector<double> w, double fs) {
  FrequencyResponse r;
  r.h.assign(w.size(), cplx(1.0, 0.0));
  for (std::size_t i = 0; i < w.size(); ++i) {
    const cplx zm1(std::cos(w[i]), -std::sin(w[i]));  // exp(-j w)
    for (const auto& row : sos.rows()) {
      const cplx num = polyval_ascending(std::span<const double>(row.data(), 3), zm1);
      const cplx den = polyval_ascending(std::span<const double>(row.data() + 3, 3), zm1);
      r.h[i] = design::multiply_elementwise(r.h[i], design::divide(num, den));
    }
  }
  const double to_fs = fs / two_pi;
  for (double& x : w) x = x * to_fs;
  r.w = std::move(w);
  return r;
}

FrequencyResponse tf_response(const Tf& tf, std::vector<double> w, double fs) {
  FrequencyResponse r;
  r.h.resize(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    const cplx zm1(std::cos(w[i]), -std::sin(w[i]));
    r.h[i] = design::divide(polyval_ascending(tf.b, zm1), polyval_ascending(tf.a, zm1));
  }
  const double to_fs = fs / two_pi;
  for (double& x : w) x = x * to_fs;
  r.w = std::move(w);
  return r;
}

}  // namespace

FrequencyResponse sosfreqz(const Sos& sos, std::int64_t n, bool whole, double fs) {
  design::require_positive("sosfreqz", "fs", fs);
  check_sos("sosfreqz", sos);
  return sos_response(sos, grid("sosfreqz", n, whole), fs);
}

FrequencyResponse sosfreqz(const Sos& sos, std::span<const double> frequencies, double fs) {
  design::require_positive("sosfreqz", "fs", fs);
  check_sos("sosfreqz", sos);
  return sos_response(sos, to_angular("sosfreqz", frequencies, fs), fs);
}

FrequencyResponse freqz(const Tf& tf, std::int64_t n, bool whole, double fs) {
  design::require_positive("freqz", "fs", fs);
  check_tf("freqz", tf);
  return tf_response(tf, grid("freqz", n, whole), fs);
}

FrequencyResponse freqz(const Tf& tf, std::span<const double> frequencies, double fs) {
  design::require_positive("freqz", "fs", fs);
  check_tf("freqz", tf);
  return tf_response(tf, to_angular("freqz", frequencies, fs), fs);
}

}  // namespace ripple::iir
