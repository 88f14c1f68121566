// Shared helpers of the IIR filtering tests: seeded signals, the serial long-double reference
// of scipy's recurrences, the relative L2 error, views of .npy arrays, and "throws naming".
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdlib>
#include <initializer_list>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/expect_invalid.hpp"
#include "common/quick_mode.hpp"
#include "common/rel_l2.hpp"
#include "ripple/array.hpp"
#include "ripple/error.hpp"
#include "ripple/iir.hpp"
#include "ripple/io/npy.hpp"

namespace ripple::iir::test {

using ripple::test::quick_mode;

template <class T>
std::vector<T> random_signal(std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal;
  std::vector<T> x(n);
  for (auto& v : x) {
    if constexpr (std::is_floating_point_v<T>) {
      v = T(normal(gen));
    } else {
      const double re = normal(gen);
      v = T(typename T::value_type(re), typename T::value_type(normal(gen)));
    }
  }
  return x;
}

/// A cascade of `count` stable sections with poles at radius `radius` and spread angles.
inline Sos resonant_sos(std::size_t count, double radius, unsigned seed = 1) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.02, 3.0);
  std::vector<Sos::Row> rows;
  for (std::size_t s = 0; s < count; ++s) {
    const double theta = u(gen);
    rows.push_back({0.3 + 0.1 * s, -0.2, 0.15, 1.0, -2 * radius * std::cos(theta), radius * radius});
  }
  return Sos(rows);
}

/// scipy's sosfilt recurrence on one line in precision W (long double for the reference, T to
/// reproduce a serial float computation), coefficients rounded to T first; z = 2 per section,
/// the initial state (zero when empty), and the final state in *final when given.
template <class W, class T, class X>
std::vector<W> serial_sosfilt(const Sos& sos, const std::vector<X>& x, std::vector<W> z = {},
                              std::vector<W>* final = nullptr) {
  if (z.empty()) z.assign(2 * sos.size(), W(0));
  std::vector<W> y(x.size());
  for (std::size_t t = 0; t < x.size(); ++t) {
    W u = W(x[t]);
    for (std::size_t s = 0; s < sos.size(); ++s) {
      const auto& r = sos[s];
      const W b0 = W(T(r[0])), b1 = W(T(r[1])), b2 = W(T(r[2])), a1 = W(T(r[4])), a2 = W(T(r[5]));
      const W v = b0 * u + z[2 * s];
      z[2 * s] = b1 * u - a1 * v + z[2 * s + 1];
      z[2 * s + 1] = b2 * u - a2 * v;
      u = v;
    }
    y[t] = u;
  }
  if (final != nullptr) *final = z;
  return y;
}

using ripple::test::rel_l2;

using ripple::test::expect_invalid;

/// A read-only view of an .npy array's values as T (which must be its dtype).
template <class T>
ArrayView<const T> view_of(const io::NpyArray& a) {
  return ArrayView<const T>(a.values<T>().data(), a.shape);
}

}  // namespace ripple::iir::test
