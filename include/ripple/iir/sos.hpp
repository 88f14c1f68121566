// Filter representations shared by IIR design and filtering: second-order sections in scipy's
// layout, zeros/poles/gain and transfer-function polynomials.
#pragma once

#include <array>
#include <complex>
#include <concepts>
#include <cstddef>
#include <span>
#include <vector>

namespace ripple::iir {

/// A cascade of second-order sections (biquads), scipy's `sos` layout: one row
/// [b0 b1 b2 a0 a1 a2] per section, numerator b0 + b1 z^-1 + b2 z^-2 over denominator
/// a0 + a1 z^-1 + a2 z^-2, applied first row first. Filtering requires a0 == 1 in every row
/// (as scipy: a design function always returns that).
template <std::floating_point T>
class BasicSos {
 public:
  using Row = std::array<T, 6>;

  BasicSos() = default;
  explicit BasicSos(std::vector<Row> rows) : rows_(std::move(rows)) {}
  /// Rows from a flat row-major buffer of n_sections*6 values (a numpy (n, 6) array). Throws
  /// InvalidArgument when the value count is not a multiple of 6 or is 0.
  static BasicSos from_flat(std::span<const T> values);
  /// The same sections in another precision.
  template <std::floating_point U>
  explicit BasicSos(const BasicSos<U>& other) {
    rows_.reserve(other.size());
    for (const auto& r : other.rows()) rows_.push_back({T(r[0]), T(r[1]), T(r[2]), T(r[3]), T(r[4]), T(r[5])});
  }

  std::size_t size() const noexcept { return rows_.size(); }
  const std::vector<Row>& rows() const noexcept { return rows_; }
  const Row& operator[](std::size_t section) const { return rows_.at(section); }
  /// The coefficients as one flat row-major array of size()*6 values.
  std::vector<T> flat() const;

 private:
  std::vector<Row> rows_;
};

using Sos = BasicSos<double>;
using SosF = BasicSos<float>;

/// Zeros, poles and gain: H(s) or H(z) = k * prod(x - z_i) / prod(x - p_i).
struct Zpk {
  std::vector<std::complex<double>> z;
  std::vector<std::complex<double>> p;
  double k = 1.0;
};

/// Transfer function as polynomial coefficients in descending powers (scipy's b, a):
/// H(z) = (b[0] + b[1] z^-1 + ...) / (a[0] + a[1] z^-1 + ...).
struct Tf {
  std::vector<double> b;
  std::vector<double> a;
};

}  // namespace ripple::iir
