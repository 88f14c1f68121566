// Analog lowpass prototypes with unit cutoff, as scipy.signal.buttap, cheb1ap and cheb2ap:
// the same formulas evaluated in the same order, so the poles match scipy's bit for bit.
#include <cmath>
#include <numbers>

#include "iir/design/checks.hpp"
#include "iir/design/numpy_complex.hpp"
#include "ripple/iir/design.hpp"

namespace ripple::iir {

using design::cplx;

namespace {

constexpr double pi = std::numbers::pi;

/// scipy's m = arange(-n + 1, n, 2): the odd (n even) or even (n odd) integers symmetric about 0.
double centred_index(int n, int i) { return double(-n + 1 + 2 * i); }

}  // namespace

Zpk buttap(int n) {
  design::require_order("buttap", "order", n);
  Zpk zpk;
  zpk.p.reserve(std::size_t(n));
  for (int i = 0; i < n; ++i) {
    // -exp(1j * pi * m / (2 n)), evaluated as scipy does: ((1j * pi) * m) / (2 n) is a complex
    // division, which numpy does as a product with 1 / (2 n) (not the same rounding as a real
    // division). m = 0 (odd n) gives the exactly real pole -1.
    const cplx arg = design::divide(cplx(0.0, pi * centred_index(n, i)), cplx(2.0 * n));
    zpk.p.push_back(-std::exp(arg));
  }
  zpk.k = 1.0;
  return zpk;
}

Zpk cheb1ap(int n, double rp) {
  design::require_order("cheb1ap", "order", n);
  design::require_positive("cheb1ap", "rp (passband ripple, dB)", rp);
  const double eps = std::sqrt(std::pow(10.0, 0.1 * rp) - 1.0);  // ripple factor
  const double mu = 1.0 / n * std::asinh(1 / eps);
  Zpk zpk;
  zpk.p.reserve(std::size_t(n));
  for (int i = 0; i < n; ++i) {
    const double theta = pi * centred_index(n, i) / (2 * n);
    zpk.p.push_back(-std::sinh(cplx(mu, theta)));  // poles on an ellipse
  }
  double k = design::product_of_negated(zpk.p).real();
  if (n % 2 == 0) k = k / std::sqrt(1 + eps * eps);  // even orders have -rp dB at DC
  zpk.k = k;
  return zpk;
}

Zpk cheb2ap(int n, double rs) {
  design::require_order("cheb2ap", "order", n);
  design::require_positive("cheb2ap", "rs (stopband attenuation, dB)", rs);
  const double de = 1.0 / std::sqrt(std::pow(10.0, 0.1 * rs) - 1);
  const double mu = std::asinh(1.0 / de) / n;
  Zpk zpk;
  // Zeros on the imaginary axis: 1j / sin(m pi / (2 n)), skipping m = 0 for odd n.
  for (int i = 0; i < n; ++i) {
    const double m = centred_index(n, i);
    if (m == 0) continue;
    zpk.z.push_back(design::divide(cplx(0, 1), cplx(std::sin(m * pi / (2 * n)), 0)));
  }
  for (int i = 0; i < n; ++i) {
    const double theta = pi * centred_index(n, i) / (2 * n);
    zpk.p.push_back(design::divide(cplx(-1, 0), std::sinh(cplx(mu, theta))));
  }
  const cplx num = design::product_of_negated(zpk.p);
  const cplx den = design::product_of_negated(zpk.z);
  zpk.k = design::divide(num, den).real();
  return zpk;
}

}  // namespace ripple::iir
