// The roots of unity every FFT table is cut from, computed in long double so that tables in
// double and float are rounded once from nearly exact values: w_m^k = e^{-2 pi i k / m}
// (forward sign). Double entries are within 0.501 ulp (about 0.06% of them one ulp from the
// correctly rounded value, by a __float128 reference, for either way below); float ones are
// correctly rounded.
// Two small tables (size ~sqrt(m) each) give any power as one long-double product, so making a
// table of m roots costs O(m) multiplies and only O(sqrt m) sin/cos calls (as ducc0's UnityRoots).
#pragma once

#include <complex>
#include <cstddef>
#include <vector>

namespace ripple::fft::detail {

class UnitRoots {
 public:
  explicit UnitRoots(std::size_t m);
  std::size_t size() const { return m_; }
  /// e^{-2 pi i k / m} for forward, its conjugate otherwise; any k (reduced mod m).
  std::complex<long double> operator()(std::size_t k, bool forward = true) const {
    k %= m_;
    const std::complex<long double> w = coarse_[k / fine_.size()] * fine_[k % fine_.size()];
    return forward ? w : std::conj(w);
  }

 private:
  std::size_t m_;
  std::vector<std::complex<long double>> fine_;    // w^k, k < B
  std::vector<std::complex<long double>> coarse_;  // w^{kB}
};

/// Exact e^{-2 pi i k / m} in long double, with octant symmetry so the argument stays small.
std::complex<long double> unit_root(std::size_t k, std::size_t m);

}  // namespace ripple::fft::detail
