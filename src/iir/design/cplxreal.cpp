// Conjugate-pair splitting exactly as scipy's _cplxreal: stable sort by (real, |imag|), reals by
// a relative tolerance, positive and negative halves matched run by run of equal real parts.
#include "iir/design/cplxreal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "iir/design/checks.hpp"
#include "iir/design/numpy_complex.hpp"

namespace ripple::iir::design {

namespace {

using cplx = std::complex<double>;

constexpr double tolerance = 100 * std::numeric_limits<double>::epsilon();

[[noreturn]] void no_conjugate(const char* function, const char* what) {
  throw InvalidArgument(std::string(function) + ": " + what +
                        " contain a complex value without its conjugate (they must come in "
                        "conjugate pairs to within relative tolerance 100 eps)");
}

}  // namespace

SplitRoots split_conjugates(std::span<const cplx> values, const char* function, const char* what) {
  SplitRoots out;
  if (values.empty()) return out;
  for (const cplx& v : values) {
    if (!std::isfinite(v.real()) || !std::isfinite(v.imag())) {
      throw InvalidArgument(std::string(function) + ": " + what + " must be finite, got (" +
                            format_number(v.real()) + ", " + format_number(v.imag()) + ")");
    }
  }
  std::vector<cplx> z(values.begin(), values.end());
  std::stable_sort(z.begin(), z.end(), [](const cplx& a, const cplx& b) {
    if (a.real() != b.real()) return a.real() < b.real();
    return std::fabs(a.imag()) < std::fabs(b.imag());
  });

  std::vector<cplx> positive, negative;
  for (const cplx& v : z) {
    if (std::fabs(v.imag()) <= tolerance * magnitude(v)) {
      out.reals.push_back(v.real());
    } else if (v.imag() > 0) {
      positive.push_back(v);
    } else {
      negative.push_back(v);
    }
  }
  if (positive.size() != negative.size()) no_conjugate(function, what);
  if (positive.empty()) return out;

  // Runs of (nearly) equal real parts among the positive halves: positions i where
  // real[i+1] - real[i] <= tol |positive[i]| chain i and i+1. Each run of both halves is
  // re-sorted by |imag| so that the halves line up.
  const std::size_t n = positive.size();
  std::size_t start = 0;
  while (start < n) {
    std::size_t stop = start;  // last index of the run
    while (stop + 1 < n &&
           positive[stop + 1].real() - positive[stop].real() <= tolerance * magnitude(positive[stop])) {
      ++stop;
    }
    if (stop > start) {
      const auto by_imag = [](const cplx& a, const cplx& b) {
        return std::fabs(a.imag()) < std::fabs(b.imag());
      };
      std::stable_sort(positive.begin() + std::ptrdiff_t(start), positive.begin() + std::ptrdiff_t(stop) + 1,
                       by_imag);
      std::stable_sort(negative.begin() + std::ptrdiff_t(start), negative.begin() + std::ptrdiff_t(stop) + 1,
                       by_imag);
    }
    start = stop + 1;
  }

  for (std::size_t i = 0; i < n; ++i) {
    const cplx conj_neg = std::conj(negative[i]);
    if (magnitude(positive[i] - conj_neg) > tolerance * magnitude(negative[i])) {
      no_conjugate(function, what);
    }
    out.pairs.push_back(divide(positive[i] + conj_neg, 2.0));  // average out rounding
  }
  return out;
}

}  // namespace ripple::iir::design
