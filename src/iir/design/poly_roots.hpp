// Roots of a real polynomial as the eigenvalues of its companion matrix (numpy.roots' method).
#pragma once

#include <complex>
#include <span>
#include <vector>

namespace ripple::iir::design {

/// Roots of c[0] x^(n-1) + ... + c[n-1] with numpy.roots' conventions: leading zero coefficients
/// are ignored, each trailing zero coefficient gives a root at 0 (appended after the others), no
/// nonzero coefficient or a constant gives no roots. The others are the eigenvalues of the
/// companion matrix (first row -c[1:]/c[0], ones below the diagonal), balanced, by Francis
/// double-shift QR; complex roots come in exact conjugate pairs. Coefficients must be finite.
/// Throws InvalidArgument naming `function` when the iteration does not converge.
std::vector<std::complex<double>> polynomial_roots(std::span<const double> c, const char* function);

}  // namespace ripple::iir::design
