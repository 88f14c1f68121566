// Shared helpers of the IIR design tests: the golden case tables written by make_golden.py
// (float64 matrices, one case per row, columns documented there), slices of the concatenated
// reference arrays, the error measures the tests state their bounds in, and the "throws
// InvalidArgument naming X" assertion.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <complex>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/golden.hpp"
#include "ripple/error.hpp"
#include "ripple/iir/design.hpp"

namespace ripple::iir::test {

using cplx = std::complex<double>;

/// The coefficient bound of every comparison with a scipy design: per section, each of b and a
/// compared relative to its largest coefficient (see sos_error).
inline constexpr double design_tolerance = 1e-12;

/// A float64 matrix from the golden directory (a case table or a (rows, 6) array of sections).
class Table {
 public:
  explicit Table(const std::string& name) {
    const io::NpyArray a = ripple::test::read_golden(name);
    const auto v = a.values<double>();
    values_.assign(v.begin(), v.end());
    rows_ = a.shape.empty() ? 0 : a.shape[0];
    cols_ = a.shape.size() > 1 ? a.shape[1] : 1;
  }
  std::size_t rows() const { return rows_; }
  double operator()(std::size_t r, std::size_t c) const { return values_[r * cols_ + c]; }
  std::size_t index(std::size_t r, std::size_t c) const { return std::size_t((*this)(r, c)); }
  std::span<const double> row(std::size_t r) const { return {values_.data() + r * cols_, cols_}; }
  std::span<const double> flat() const { return values_; }

 private:
  std::vector<double> values_;
  std::size_t rows_ = 0, cols_ = 0;
};

/// The values of a 1-D complex128 golden array.
inline std::vector<cplx> complex_values(const std::string& name) {
  const io::NpyArray a = ripple::test::read_golden(name);
  const auto v = a.values<cplx>();
  return {v.begin(), v.end()};
}

template <class T>
std::vector<T> slice(const std::vector<T>& all, std::size_t offset, std::size_t count) {
  return {all.begin() + std::ptrdiff_t(offset), all.begin() + std::ptrdiff_t(offset + count)};
}
inline std::vector<double> slice(std::span<const double> all, std::size_t offset, std::size_t count) {
  return {all.begin() + std::ptrdiff_t(offset), all.begin() + std::ptrdiff_t(offset + count)};
}

/// Rows [offset, offset + count) of a (rows, 6) golden array of sections.
inline Sos sos_rows(const Table& sos, std::size_t offset, std::size_t count) {
  std::vector<Sos::Row> rows(count);
  for (std::size_t r = 0; r < count; ++r) {
    for (std::size_t c = 0; c < 6; ++c) rows[r][c] = sos(offset + r, c);
  }
  return Sos(std::move(rows));
}

/// max |x - ref| / max |ref| (0 when both are all zeros), over the given index range.
inline double relative_error(std::span<const double> x, std::span<const double> ref) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    diff = std::max(diff, std::fabs(x[i] - ref[i]));
    scale = std::max(scale, std::fabs(ref[i]));
  }
  return scale == 0 ? diff : diff / scale;
}

/// The error of sections against scipy's, row by row in order: for every row, the numerator
/// [b0 b1 b2] relative to its largest |b| and the denominator [a0 a1 a2] relative to its largest
/// |a|; the maximum over all rows. Infinity when the section counts differ.
inline double sos_error(const Sos& x, const Sos& ref) {
  if (x.size() != ref.size()) return INFINITY;
  double worst = 0;
  for (std::size_t r = 0; r < ref.size(); ++r) {
    const auto& a = x[r];
    const auto& b = ref[r];
    worst = std::max(worst, relative_error(std::span(a).first(3), std::span(b).first(3)));
    worst = std::max(worst, relative_error(std::span(a).last(3), std::span(b).last(3)));
  }
  return worst;
}

/// max |x_i - ref_i| / max |ref_i| for complex sequences compared in order.
inline double complex_error(std::span<const cplx> x, std::span<const cplx> ref) {
  if (x.size() != ref.size()) return INFINITY;
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    diff = std::max(diff, std::abs(x[i] - ref[i]));
    scale = std::max(scale, std::abs(ref[i]));
  }
  return scale == 0 ? diff : diff / scale;
}

/// Roots compared as multisets: each ref root is matched greedily to the nearest unused root of
/// x; returns max |match - ref| / max(1, max |ref|).
inline double root_set_error(std::vector<cplx> x, const std::vector<cplx>& ref) {
  if (x.size() != ref.size()) return INFINITY;
  double diff = 0, scale = 1;
  for (const cplx& r : ref) scale = std::max(scale, std::abs(r));
  for (const cplx& r : ref) {
    auto best = std::min_element(
        x.begin(), x.end(), [&](const cplx& a, const cplx& b) { return std::abs(a - r) < std::abs(b - r); });
    diff = std::max(diff, std::abs(*best - r));
    x.erase(best);
  }
  return diff / scale;
}

inline std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Asserts that f throws ripple::InvalidArgument whose message contains every one of `words`
/// (case-insensitive), e.g. the parameter's name and the rejected value.
inline void expect_invalid(const std::function<void()>& f, std::initializer_list<std::string_view> words,
                           const std::string& what) {
  try {
    f();
    ADD_FAILURE() << what << ": no exception";
  } catch (const InvalidArgument& e) {
    const std::string message = lower(e.what());
    for (std::string_view w : words) {
      EXPECT_NE(message.find(lower(std::string(w))), std::string::npos)
          << what << ": message \"" << e.what() << "\" does not mention \"" << w << "\"";
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": threw something other than InvalidArgument: " << e.what();
  }
}

}  // namespace ripple::iir::test
