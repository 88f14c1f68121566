// Complex arithmetic as numpy does it, so that designs reproduce scipy's values to the last bit
// where the operations are the same: division by Smith's algorithm (numpy's loop; the library
// is compiled with -fcx-limited-range, which would make `/` the textbook formula), squares as
// numpy's power(x, 2), element-wise products with numpy's fused multiply-adds, and products of arrays
// accumulated left to right as np.prod.
//
// Signed zeros matter here: numpy promotes a real operand r to complex(r, +0) before adding,
// subtracting or dividing, and sqrt's branch cut follows the sign of a zero imaginary part (an
// odd-order bandpass design's real pole goes to +j or -j by it). So mixed real/complex
// arithmetic in the design code is always written with the real operand made complex first,
// never with std::complex's mixed operators, which leave the imaginary part untouched.
#pragma once

#include <cmath>
#include <complex>
#include <span>

namespace ripple::iir::design {

using cplx = std::complex<double>;

/// a / b exactly as numpy's complex128 divide.
inline cplx divide(cplx a, cplx b) {
  const double ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const double abs_br = std::fabs(br), abs_bi = std::fabs(bi);
  if (abs_br >= abs_bi) {
    if (abs_br == 0 && abs_bi == 0) return {ar / abs_br, ai / abs_br};  // inf or nan, as numpy
    const double rat = bi / br;
    const double scl = 1.0 / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const double rat = br / bi;
  const double scl = 1.0 / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

/// a * b by the textbook formula: numpy's complex products in np.prod and np.convolve.
inline cplx multiply(cplx a, cplx b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

/// a * b as numpy's element-wise multiply ufunc computes it on x86-64 with FMA (its SIMD loop
/// fuses one product into each part). Always computed this way here, with std::fma, so the
/// result does not depend on the machine; numpy on a CPU without FMA rounds once more (1 ulp).
inline cplx multiply_elementwise(cplx a, cplx b) {
  return {std::fma(a.real(), b.real(), -(a.imag() * b.imag())),
          std::fma(a.real(), b.imag(), a.imag() * b.real())};
}

/// |x| as numpy's abs (hypot; spelled out so no compiler flag turns it into sqrt(re^2 + im^2)).
inline double magnitude(cplx x) { return std::hypot(x.real(), x.imag()); }

/// x**2 as numpy computes it for complex arrays (the element-wise multiply x * x).
inline cplx square(cplx x) { return multiply_elementwise(x, x); }

/// np.prod(-values), left to right.
inline cplx product_of_negated(std::span<const cplx> values) {
  cplx acc = 1.0;
  for (const cplx& v : values) acc = multiply(acc, -v);
  return acc;
}

/// np.prod(c - values) for a real constant c, left to right (c promoted to complex(c, +0)).
inline cplx product_of_differences(double c, std::span<const cplx> values) {
  cplx acc = 1.0;
  for (const cplx& v : values) acc = multiply(acc, cplx(c) - v);
  return acc;
}

}  // namespace ripple::iir::design
