// The relative L2 error ||a - b|| / ||b|| the tests hold results to, over real or complex
// values of any precision, accumulated in long double.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>

namespace ripple::test {

/// a and b are indexable with size(); b is the reference. 0 when both are all zero, infinity
/// when only the reference is.
template <class A, class B>
double rel_l2(const A& a, const B& b) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const auto da = std::complex<long double>(a[i]);
    const auto db = std::complex<long double>(b[i]);
    num += std::norm(da - db);
    den += std::norm(db);
  }
  if (den == 0) return num == 0 ? 0.0 : INFINITY;
  return std::sqrt(double(num / den));
}

}  // namespace ripple::test
