// Second-order sections from zeros, poles and gain: scipy.signal.zpk2sos for digital systems,
// step for step (padding, _cplxreal ordering, "worst pole first", nearest-zero pairing and its
// special cases) so that the sections and their order are scipy's.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "iir/design/checks.hpp"
#include "iir/design/cplxreal.hpp"
#include "iir/design/numpy_complex.hpp"
#include "iir/design/polynomial.hpp"
#include "ripple/iir/design.hpp"

namespace ripple::iir {

using design::cplx;

namespace {

constexpr const char* function = "zpk2sos";

bool is_real(const cplx& x) { return x.imag() == 0; }  // np.isreal

std::size_t count_real(const std::vector<cplx>& v) {
  return std::size_t(std::count_if(v.begin(), v.end(), is_real));
}

/// Pairs first (one value each), then the reals: scipy's np.concatenate(_cplxreal(x)).
std::vector<cplx> canonical(const std::vector<cplx>& values, const char* what) {
  const design::SplitRoots split = design::split_conjugates(values, function, what);
  std::vector<cplx> out(split.pairs);
  for (double r : split.reals) out.emplace_back(r, 0.0);
  return out;
}

/// Index of the pole closest to the unit circle (first of equals, as np.argmin).
std::size_t index_worst(const std::vector<cplx>& p) {
  std::size_t best = 0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double d = std::fabs(1 - design::magnitude(p[i]));
    if (d < best_distance) {
      best_distance = d;
      best = i;
    }
  }
  return best;
}

enum class Which { real, complex, any };

/// Index of the element of `from` closest to `to` among the real, complex or all elements
/// (scipy's _nearest_real_complex_idx; exact ties go to the lower index).
std::size_t index_nearest(const std::vector<cplx>& from, const cplx& to, Which which) {
  std::size_t best = from.size();
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (which == Which::real && !is_real(from[i])) continue;
    if (which == Which::complex && is_real(from[i])) continue;
    const double d = design::magnitude(from[i] - to);
    if (best == from.size() || d < best_distance) {
      best_distance = d;
      best = i;
    }
  }
  if (best == from.size()) {
    throw InvalidArgument(std::string(function) + ": no " + (which == Which::real ? "real" : "complex") +
                          " zero left to pair with a pole (unbalanced zeros and poles)");
  }
  return best;
}

cplx take(std::vector<cplx>& v, std::size_t i) {
  const cplx x = v[i];
  v.erase(v.begin() + std::ptrdiff_t(i));
  return x;
}

/// One section from up to two zeros and poles, right-aligned in [b0 b1 b2 a0 a1 a2]
/// (scipy's _single_zpksos with k = 1).
Sos::Row section(std::initializer_list<cplx> zeros, std::initializer_list<cplx> poles) {
  Sos::Row row{};
  const std::vector<double> b = design::poly(zeros), a = design::poly(poles);
  std::copy(b.begin(), b.end(), row.begin() + std::ptrdiff_t(3 - b.size()));
  std::copy(a.begin(), a.end(), row.begin() + std::ptrdiff_t(6 - a.size()));
  return row;
}

}  // namespace

Sos zpk2sos(const Zpk& zpk, Pairing pairing) {
  design::require_finite(function, "k", zpk.k);
  if (zpk.z.empty() && zpk.p.empty()) return Sos({{zpk.k, 0.0, 0.0, 1.0, 0.0, 0.0}});

  std::vector<cplx> z = zpk.z, p = zpk.p;
  std::size_t n_sections = 0;
  if (pairing != Pairing::minimal) {
    // Pad with roots at the origin to equal counts (and an even count for 'nearest').
    const std::size_t n = std::max(z.size(), p.size());
    p.resize(n, 0.0);
    z.resize(n, 0.0);
    n_sections = (n + 1) / 2;
    if (n % 2 == 1 && pairing == Pairing::nearest) {
      p.emplace_back(0.0);
      z.emplace_back(0.0);
    }
  } else {
    if (p.size() < z.size()) {
      design::reject(function, "pairing 'minimal' needs at least as many poles as zeros",
                     std::to_string(z.size()) + " zeros and " + std::to_string(p.size()) + " poles");
    }
    n_sections = (p.size() + 1) / 2;
  }
  z = canonical(z, "zeros");
  p = canonical(p, "poles");

  std::vector<Sos::Row> rows(n_sections);
  // Built from the last section back, so the poles closest to the unit circle come last.
  for (std::size_t si = n_sections; si-- > 0;) {
    const cplx p1 = take(p, index_worst(p));
    if (is_real(p1) && count_real(p) == 0) {
      // Last real pole: a first-order section with the nearest real zero, if any.
      if (pairing != Pairing::minimal) {
        const cplx z1 = take(z, index_nearest(z, p1, Which::real));
        rows[si] = section({z1, 0.0}, {p1, 0.0});
      } else if (!z.empty()) {
        const cplx z1 = take(z, index_nearest(z, p1, Which::real));
        rows[si] = section({z1}, {p1});
      } else {
        rows[si] = section({}, {p1});
      }
    } else if (p.size() + 1 == z.size() && !is_real(p1) && count_real(p) == 1 && count_real(z) == 1) {
      // One real pole and one real zero left for later: this complex pole takes complex zeros.
      const cplx z1 = take(z, index_nearest(z, p1, Which::complex));
      rows[si] = section({z1, std::conj(z1)}, {p1, std::conj(p1)});
    } else {
      cplx p2;
      if (is_real(p1)) {
        // The real pole closest to the unit circle among the remaining real ones.
        std::vector<std::size_t> real_index;
        std::vector<cplx> real_poles;
        for (std::size_t i = 0; i < p.size(); ++i) {
          if (is_real(p[i])) {
            real_index.push_back(i);
            real_poles.push_back(p[i]);
          }
        }
        p2 = take(p, real_index[index_worst(real_poles)]);
      } else {
        p2 = std::conj(p1);
      }
      if (!z.empty()) {
        const cplx z1 = take(z, index_nearest(z, p1, Which::any));
        if (!is_real(z1)) {
          rows[si] = section({z1, std::conj(z1)}, {p1, p2});
        } else if (!z.empty()) {
          const cplx z2 = take(z, index_nearest(z, p1, Which::real));
          rows[si] = section({z1, z2}, {p1, p2});
        } else {
          rows[si] = section({z1}, {p1, p2});
        }
      } else {
        rows[si] = section({}, {p1, p2});
      }
    }
  }
  for (std::size_t j = 0; j < 3; ++j) rows[0][j] *= zpk.k;  // the gain goes in the first section
  return Sos(std::move(rows));
}

}  // namespace ripple::iir
