// State-space forms of biquads and cascades (see state_space.hpp for the conventions).
#include "iir/state_space.hpp"

#include <algorithm>
#include <cmath>

namespace ripple::iir::detail {

Mat2 transition(const Biquad& q) { return {-Real(q.a1), 1, -Real(q.a2), 0}; }

Mat2 multiply(const Mat2& x, const Mat2& y) {
  return {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3],  //
          x[2] * y[0] + x[3] * y[2], x[2] * y[1] + x[3] * y[3]};
}

Vec2 apply(const Mat2& m, const Vec2& v) { return {m[0] * v[0] + m[1] * v[1], m[2] * v[0] + m[3] * v[1]}; }

Mat2 power(const Mat2& a, std::size_t n) {
  Mat2 result{1, 0, 0, 1};
  Mat2 base = a;
  for (; n != 0; n >>= 1) {
    if (n & 1) result = multiply(result, base);
    base = multiply(base, base);
  }
  return result;
}

bool is_stable(const Biquad& q) {
  // Jury's conditions for z^2 + a1 z + a2.
  return std::abs(q.a2) < 1.0 && std::abs(q.a1) < 1.0 + q.a2;
}

std::vector<double> free_response_rows(const Biquad& q, std::size_t rows) {
  std::vector<double> r(2 * rows);
  // Row t+1 of A^(t+1) = (row t of A^t) * A, so with row t = (p, q'):
  //   (p, q') * [[-a1, 1], [-a2, 0]] = (-a1 p - a2 q', p).
  Real p = 1, s = 0;
  for (std::size_t t = 0; t < rows; ++t) {
    r[2 * t] = double(p);
    r[2 * t + 1] = double(s);
    const Real next = -Real(q.a1) * p - Real(q.a2) * s;
    s = p;
    p = next;
  }
  return r;
}

CascadeSystem cascade_system(const std::vector<Biquad>& sections) {
  CascadeSystem sys;
  sys.states = 2 * sections.size();
  const std::size_t n = sys.states;
  sys.m.assign(n * n, 0);
  // Column j of M is the next state from the unit state e_j with zero input; c_j its output.
  for (std::size_t j = 0; j < n; ++j) {
    Real u = 0;  // input of the current section
    for (std::size_t s = 0; s < sections.size(); ++s) {
      const Biquad& q = sections[s];
      const Real z0 = (2 * s == j) ? 1 : 0;
      const Real z1 = (2 * s + 1 == j) ? 1 : 0;
      const Real y = q.b0 * u + z0;
      sys.m[(2 * s) * n + j] = q.b1 * u - q.a1 * y + z1;
      sys.m[(2 * s + 1) * n + j] = q.b2 * u - q.a2 * y;
      u = y;
    }
  }
  return sys;
}

void matrix_apply_add(const Real* m, std::size_t order, const Real* x, const Real* e, Real* y) {
  for (std::size_t i = 0; i < order; ++i) {
    Real acc = e != nullptr ? e[i] : 0;
    for (std::size_t j = 0; j < order; ++j) acc += m[i * order + j] * x[j];
    y[i] = acc;
  }
}

std::vector<Real> matrix_apply(const std::vector<Real>& m, const std::vector<Real>& x) {
  std::vector<Real> y(x.size());
  matrix_apply_add(m.data(), x.size(), x.data(), nullptr, y.data());
  return y;
}

namespace {
std::vector<Real> matrix_multiply(const std::vector<Real>& a, const std::vector<Real>& b, std::size_t n) {
  std::vector<Real> c(n * n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < n; ++k) {
      const Real aik = a[i * n + k];
      if (aik == 0) continue;
      for (std::size_t j = 0; j < n; ++j) c[i * n + j] += aik * b[k * n + j];
    }
  }
  return c;
}
}  // namespace

std::vector<Real> matrix_power(const std::vector<Real>& m, std::size_t order, std::size_t n) {
  std::vector<Real> result(order * order, 0);
  for (std::size_t i = 0; i < order; ++i) result[i * order + i] = 1;
  std::vector<Real> base = m;
  for (; n != 0; n >>= 1) {
    if (n & 1) result = matrix_multiply(result, base, order);
    if (n > 1) base = matrix_multiply(base, base, order);
  }
  return result;
}

}  // namespace ripple::iir::detail
