// Polynomials from roots and polynomial products, as numpy's poly and convolve compute them
// (coefficients in descending powers).
#pragma once

#include <complex>
#include <span>
#include <vector>

#include "iir/design/numpy_complex.hpp"

namespace ripple::iir::design {

/// The real parts of the coefficients of prod(x - r) (np.poly; [1] for no roots). The roots
/// are expected in conjugate pairs, so the imaginary parts are rounding noise or zero.
inline std::vector<double> poly(std::span<const cplx> roots) {
  std::vector<cplx> c{1.0};
  for (const cplx& r : roots) {
    std::vector<cplx> next(c.size() + 1, 0.0);  // c * [1, -r], as np.convolve sums it
    for (std::size_t i = 0; i < c.size(); ++i) {
      next[i] += c[i];
      next[i + 1] += multiply(c[i], -r);
    }
    c = std::move(next);
  }
  std::vector<double> out(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) out[i] = c[i].real();
  return out;
}

/// Full convolution of two coefficient lists (np.convolve: the polynomial product).
inline std::vector<double> convolve(std::span<const double> a, std::span<const double> b) {
  std::vector<double> out(a.size() + b.size() - 1, 0.0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < b.size(); ++j) out[i + j] += a[i] * b[j];
  }
  return out;
}

}  // namespace ripple::iir::design
