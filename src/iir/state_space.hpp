// Biquads as state-space systems, the mathematics every executor of a section cascade shares
// (CPU scan here, GPU scan later).
//
// One section in direct form II transposed (scipy's sosfilt), coefficients [b0 b1 b2 1 a1 a2]:
//   y    = b0 u + z0
//   z0' = b1 u - a1 y + z1
//   z1' = b2 u - a2 y
// is the linear system z' = A z + B u, y = C z + D u with
//   A = [[-a1, 1], [-a2, 0]],  B = [b1 - a1 b0, b2 - a2 b0],  C = [1, 0],  D = b0.
// Started from a state s instead of zero, its output differs by the free response
// C A^t s, and after L samples its state differs by A^L s. That is what makes blocks filtered
// from a zero state correctable once the true state at their start is known (a scan over the
// affine maps z -> A^L z + e).
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace ripple::iir::detail {

/// Carries and matrix powers are kept in long double: for poles near z = 1 the block maps are
/// far from normal (entries of A^L grow like L before they decay), and in double the scan of
/// carries loses up to three digits against the serial recurrence.
using Real = long double;
/// A 2x2 matrix, row-major, and a 2-vector.
using Mat2 = std::array<Real, 4>;
using Vec2 = std::array<Real, 2>;

/// A section's coefficients in double: b0 b1 b2 a1 a2 (a0 is 1).
struct Biquad {
  double b0, b1, b2, a1, a2;
};

Mat2 transition(const Biquad& q);
Mat2 multiply(const Mat2& x, const Mat2& y);
Vec2 apply(const Mat2& m, const Vec2& v);
/// A^n by repeated squaring.
Mat2 power(const Mat2& a, std::size_t n);

/// True when both poles lie strictly inside the unit circle (|a2| < 1, |a1| < 1 + a2): only
/// then do free responses decay and blocks may be filtered from zero state and corrected.
bool is_stable(const Biquad& q);

/// First rows of A^t for t = 0..rows-1, as pairs: C A^t s = r[2t] s0 + r[2t+1] s1.
std::vector<double> free_response_rows(const Biquad& q, std::size_t rows);

/// The whole cascade as one system of 2K states (section s owns states 2s, 2s+1), zero input:
/// Z' = M Z, output y = c Z. Used to carry the cascade's state over a long range at once.
struct CascadeSystem {
  std::size_t states = 0;
  std::vector<Real> m;  ///< states x states, row-major
};
CascadeSystem cascade_system(const std::vector<Biquad>& sections);
/// M^n for a square row-major matrix of order `order`.
std::vector<Real> matrix_power(const std::vector<Real>& m, std::size_t order, std::size_t n);
/// y = M x for a square matrix.
std::vector<Real> matrix_apply(const std::vector<Real>& m, const std::vector<Real>& x);
/// y = M x + e for a square row-major matrix of order `order` (y must not alias x), without
/// allocating: for scans that apply it once per block.
void matrix_apply_add(const Real* m, std::size_t order, const Real* x, const Real* e, Real* y);

}  // namespace ripple::iir::detail
