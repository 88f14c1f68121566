// scipy.signal._filter_design._cplxreal: split roots into conjugate pairs and real values.
#pragma once

#include <complex>
#include <span>
#include <vector>

namespace ripple::iir::design {

struct SplitRoots {
  /// One value per conjugate pair (positive imaginary part, the pair's average), sorted by real
  /// part, runs of equal real parts by |imag|.
  std::vector<std::complex<double>> pairs;
  /// Real values (|imag| <= tol |x|), sorted.
  std::vector<double> reals;
};

/// _cplxreal(values) with scipy's default tolerance 100 eps. Throws InvalidArgument (naming
/// `function` and `what`, e.g. "zeros") when a complex value has no conjugate.
SplitRoots split_conjugates(std::span<const std::complex<double>> values, const char* function,
                            const char* what);

}  // namespace ripple::iir::design
