// Conversions between zeros/poles/gain, transfer functions and second-order sections, as
// scipy.signal's zpk2tf, tf2zpk (with normalize), tf2sos, sos2tf and sos2zpk.
#include <algorithm>
#include <cmath>
#include <string>

#include "iir/design/checks.hpp"
#include "iir/design/cplxreal.hpp"
#include "iir/design/numpy_complex.hpp"
#include "iir/design/poly_roots.hpp"
#include "iir/design/polynomial.hpp"
#include "ripple/iir/design.hpp"

namespace ripple::iir {

using design::cplx;

namespace {

void require_finite_values(const char* function, const char* name, std::span<const double> v) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      design::reject(function, std::string(name) + " must be finite",
                     std::string(name) + "[" + std::to_string(i) + "] = " + design::format_number(v[i]));
    }
  }
}

void require_sections(const char* function, const Sos& sos) {
  if (sos.size() == 0) design::reject(function, "sos must have at least one section", "0");
  for (std::size_t s = 0; s < sos.size(); ++s) {
    require_finite_values(function, ("sos row " + std::to_string(s)).c_str(), sos[s]);
  }
}

}  // namespace

Tf zpk2tf(const Zpk& zpk) {
  design::require_finite("zpk2tf", "k", zpk.k);
  design::split_conjugates(zpk.z, "zpk2tf", "zeros");  // validation: real polynomials only
  design::split_conjugates(zpk.p, "zpk2tf", "poles");
  Tf tf;
  tf.b = design::poly(zpk.z);
  for (double& b : tf.b) b *= zpk.k;
  tf.a = design::poly(zpk.p);
  return tf;
}

Zpk tf2zpk(const Tf& tf) {
  constexpr const char* function = "tf2zpk";
  if (tf.b.empty()) design::reject(function, "b must have at least one coefficient", "none");
  if (tf.a.empty()) design::reject(function, "a must have at least one coefficient", "none");
  require_finite_values(function, "b", tf.b);
  require_finite_values(function, "a", tf.a);
  // scipy.signal.normalize: drop a's leading zeros, divide by a[0], drop b's negligible leading
  // coefficients (|b_i| <= 1e-14 after the division; at least one is kept).
  const auto a_first = std::find_if(tf.a.begin(), tf.a.end(), [](double v) { return v != 0; });
  if (a_first == tf.a.end()) design::reject(function, "a must have a nonzero coefficient", "all zeros");
  const double a0 = *a_first;
  std::vector<double> a(a_first, tf.a.end()), b = tf.b;
  for (double& v : b) v = v / a0;
  for (double& v : a) v = v / a0;
  std::size_t leading = 0;
  while (leading + 1 < b.size() && std::fabs(b[leading]) <= 1e-14) ++leading;
  b.erase(b.begin(), b.begin() + std::ptrdiff_t(leading));

  Zpk zpk;
  zpk.k = b[0];
  if (zpk.k != 0) {
    for (double& v : b) v = v / zpk.k;
    zpk.z = design::polynomial_roots(b, function);
  }
  zpk.p = design::polynomial_roots(a, function);
  return zpk;
}

Sos tf2sos(const Tf& tf, Pairing pairing) { return zpk2sos(tf2zpk(tf), pairing); }

Tf sos2tf(const Sos& sos) {
  require_sections("sos2tf", sos);
  Tf tf{{1.0}, {1.0}};
  for (const auto& row : sos.rows()) {
    tf.b = design::convolve(tf.b, std::span<const double>(row.data(), 3));
    tf.a = design::convolve(tf.a, std::span<const double>(row.data() + 3, 3));
  }
  return tf;
}

Zpk sos2zpk(const Sos& sos) {
  require_sections("sos2zpk", sos);
  Zpk zpk;
  zpk.z.assign(2 * sos.size(), 0.0);
  zpk.p.assign(2 * sos.size(), 0.0);
  zpk.k = 1.0;
  for (std::size_t s = 0; s < sos.size(); ++s) {
    const auto& row = sos[s];
    const Zpk section = tf2zpk(Tf{{row[0], row[1], row[2]}, {row[3], row[4], row[5]}});
    std::copy(section.z.begin(), section.z.end(), zpk.z.begin() + std::ptrdiff_t(2 * s));
    std::copy(section.p.begin(), section.p.end(), zpk.p.begin() + std::ptrdiff_t(2 * s));
    zpk.k *= section.k;
  }
  return zpk;
}

}  // namespace ripple::iir
