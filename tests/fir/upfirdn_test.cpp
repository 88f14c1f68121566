// upfirdn against scipy.signal.upfirdn: tap counts 1..801, up/down pairs including coprime and
// equal ones, lengths 1..10^5, n-D on several axes, complex and float32; and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "common/golden.hpp"
#include "common/rel_l2.hpp"
#include "common/expect_invalid.hpp"
#include "ripple/error.hpp"
#include "ripple/fir.hpp"

namespace ripple::fir {
namespace {

using ripple::test::expect_invalid;

using ripple::test::rel_l2;

template <class T>
void check(const io::NpyArray& h, const io::NpyArray& x, const io::NpyArray& expected, std::size_t up,
           std::size_t down, int axis) {
  using U = typename ripple::detail::real_of<T>::type;
  const auto y = upfirdn(h.values<U>(), ArrayView<const T>(x.values<T>().data(), x.shape), up, down, axis);
  ASSERT_EQ(y.shape, expected.shape);
  EXPECT_LE(rel_l2(y.values, expected.values<T>()), (std::is_same_v<U, float> ? 1e-6 : 1e-13));
}

TEST(Upfirdn, MatchesScipy) {
  int checked = 0;
  for (const auto& line : test::golden_lines("cases.txt")) {
    const std::string& name = line.words.at(0);
    auto keys = line.keys;
    SCOPED_TRACE(line.text);
    const auto h = test::read_golden(name + ".h"), x = test::read_golden(name + ".x"), y = test::read_golden(name + ".y");
    const std::size_t up = std::stoul(keys["up"]), down = std::stoul(keys["down"]);
    const int axis = std::stoi(keys["axis"]);
    switch (x.dtype()) {
      case io::Dtype::f32: check<float>(h, x, y, up, down, axis); break;
      case io::Dtype::f64: check<double>(h, x, y, up, down, axis); break;
      case io::Dtype::c128: check<std::complex<double>>(h, x, y, up, down, axis); break;
      default: ADD_FAILURE() << "unexpected dtype";
    }
    ++checked;
  }
  EXPECT_GT(checked, 200);
}

TEST(Upfirdn, Errors) {
  const std::vector<double> h{1, 2, 3}, x(10, 1.0), none;
  expect_invalid([&] { (void)upfirdn(none, x); }, "h must be");
  expect_invalid([&] { (void)upfirdn(h, x, 0, 1); }, "up = 0");
  expect_invalid([&] { (void)upfirdn(h, x, 1, 0); }, "down = 0");
  expect_invalid([&] { (void)upfirdn(std::span<const double>(h), ArrayView<const double>(x.data(), {10}), 1, 1, 2); },
                 "axis 2");
  EXPECT_EQ(upfirdn(h, none).size(), 0u);  // an empty signal gives an empty result, as scipy
}

}  // namespace
}  // namespace ripple::fir

namespace ripple::fir {
namespace {

TEST(ResamplePoly, MatchesScipy) {
  int checked = 0;
  const std::map<std::string, ResamplePad> pads{{"constant", ResamplePad::constant}, {"mean", ResamplePad::mean},
                                                {"median", ResamplePad::median},     {"minimum", ResamplePad::minimum},
                                                {"maximum", ResamplePad::maximum}};
  for (const auto& line : test::golden_lines("resample.txt")) {
    const std::string& name = line.words.at(0);
    auto keys = line.keys;
    SCOPED_TRACE(line.text);
    ResampleOptions options;
    options.padtype = pads.at(keys["padtype"]);
    if (keys["window"] == "taps") {
      const auto taps = test::golden_values(name + ".h");
      options.taps.assign(taps.begin(), taps.end());
    } else {
      options.window = windows::Window::parse(keys["window"]);
    }
    const auto x = test::read_golden(name + ".x"), expected = test::read_golden(name + ".y");
    const std::size_t up = std::stoul(keys["up"]), down = std::stoul(keys["down"]);
    const int axis = std::stoi(keys["axis"]);
    if (x.dtype() == io::Dtype::f32) {
      const auto y = resample_poly(ArrayView<const float>(x.values<float>().data(), x.shape), up, down, axis, options);
      ASSERT_EQ(y.shape, expected.shape);
      EXPECT_LE(rel_l2(y.values, expected.values<float>()), 2e-6);
    } else {
      const auto y = resample_poly(ArrayView<const double>(x.values<double>().data(), x.shape), up, down, axis, options);
      ASSERT_EQ(y.shape, expected.shape);
      EXPECT_LE(rel_l2(y.values, expected.values<double>()), 1e-13);
    }
    ++checked;
  }
  EXPECT_GT(checked, 40);
}

TEST(ResamplePoly, Errors) {
  const std::vector<double> x(10, 1.0);
  expect_invalid([&] { (void)resample_poly(x, 0, 1); }, "up = 0");
  const std::vector<std::complex<double>> z(10);
  expect_invalid([&] { (void)resample_poly(z, 2, 1, {.padtype = ResamplePad::median}); }, "complex");
}

}  // namespace
}  // namespace ripple::fir

namespace ripple::fir {
namespace {

// Streaming in blocks of any sizes equals the one-shot result.
template <class T>
void check_stream(std::size_t taps, std::size_t up, std::size_t down, const std::vector<std::size_t>& blocks) {
  using U = typename ripple::detail::real_of<T>::type;
  SCOPED_TRACE("taps " + std::to_string(taps) + " up " + std::to_string(up) + " down " + std::to_string(down));
  std::vector<double> h(taps);
  for (std::size_t i = 0; i < taps; ++i) h[i] = std::sin(0.3 * double(i) + 0.1);
  std::size_t n = 0;
  for (auto b : blocks) n += b;
  std::vector<T> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (ripple::detail::is_complex_v<T>) {
      x[i] = T(U(std::cos(0.7 * double(i))), U(std::sin(1.3 * double(i))));
    } else {
      x[i] = T(std::cos(0.7 * double(i)) + 0.2 * std::sin(0.05 * double(i * i)));
    }
  }
  const std::vector<U> hu(h.begin(), h.end());
  const auto once = upfirdn(std::span<const U>(hu), ArrayView<const T>(x.data(), {n}), up, down);
  UpFirDn<T> stream(h, up, down);
  std::vector<T> y;
  std::size_t at = 0;
  for (auto b : blocks) {
    stream.process(std::span<const T>(x.data() + at, b), y);
    at += b;
  }
  stream.flush(y);
  ASSERT_EQ(y.size(), once.size());
  EXPECT_LE(rel_l2(y, once.values), (std::is_same_v<U, float> ? 1e-6 : 1e-14));
}

TEST(UpFirDnStream, BlocksOfAnySizeEqualOneShot) {
  for (auto [up, down] : {std::pair<std::size_t, std::size_t>{1, 1}, {1, 10}, {3, 2}, {2, 3}, {160, 147}, {5, 1}}) {
    for (std::size_t taps : {1, 2, 7, 79}) {
      check_stream<double>(taps, up, down, {1, 1, 1, 2, 3, 5, 8, 13, 100, 7});
      check_stream<float>(taps, up, down, {500, 1, 499});
    }
  }
  check_stream<std::complex<double>>(31, 3, 4, {17, 1, 200});
  check_stream<std::complex<float>>(79, 1, 10, {4096, 3, 1, 1000, 77});
  check_stream<std::complex<float>>(101, 1, 2, {33, 9000, 5});
  check_stream<float>(801, 1, 1, {2000, 1, 3001, 17});
  check_stream<double>(5, 7, 3, std::vector<std::size_t>(300, 1));
}

// Streaming resample_poly in blocks of any sizes equals the one-shot resample_poly (its delay
// removed, the output cut to ceil(n up / down)); outputs poisoned with NaN first.
template <class T>
void check_resample_stream(std::size_t up, std::size_t down, const std::vector<std::size_t>& blocks,
                           const ResampleOptions& options = {}) {
  using U = typename ripple::detail::real_of<T>::type;
  SCOPED_TRACE("resample up " + std::to_string(up) + " down " + std::to_string(down));
  std::size_t n = 0;
  for (auto b : blocks) n += b;
  std::vector<T> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (ripple::detail::is_complex_v<T>) {
      x[i] = T(U(std::cos(0.07 * double(i))), U(std::sin(0.013 * double(i * i % 997))));
    } else {
      x[i] = T(std::cos(0.07 * double(i)) + 0.2 * std::sin(0.05 * double(i * i % 991)));
    }
  }
  const auto once = resample_poly(x, up, down, options);
  ResamplePoly<T> stream(up, down, options);
  std::vector<T> y(3, T(std::numeric_limits<U>::quiet_NaN()));
  std::size_t at = 0;
  for (auto b : blocks) {
    stream.process(std::span<const T>(x.data() + at, b), y);
    at += b;
  }
  stream.flush(y);
  y.erase(y.begin(), y.begin() + 3);
  ASSERT_EQ(y.size(), once.size());
  EXPECT_LE(rel_l2(y, once), (std::is_same_v<U, float> ? 1e-6 : 1e-14));
}

TEST(ResamplePolyStream, BlocksOfAnySizeEqualOneShot) {
  check_resample_stream<double>(3, 7, {1, 2, 500, 3, 1000});
  check_resample_stream<double>(2, 1, {7, 7, 7});  // shorter than the filter: zero-padded end
  check_resample_stream<float>(1, 50, {4000, 1, 6000});
  check_resample_stream<std::complex<float>>(160, 147, {1000, 999, 1});
  check_resample_stream<std::complex<double>>(4, 4, {10, 5});  // equal rates: a copy
  check_resample_stream<double>(5, 3, {300, 301}, {.taps = {0.1, 0.2, 0.4, 0.2, 0.1}});
  expect_invalid([] { ResamplePoly<float> s(0, 2); }, "up = 0");
  expect_invalid([] { ResamplePoly<float> s(2, 3, {.padtype = ResamplePad::mean}); }, "constant padding");
}

TEST(UpFirDnStream, ResetAndErrors) {
  const std::vector<double> h{0.5, 0.5};
  UpFirDn<double> stream(h, 1, 1);
  std::vector<double> y;
  const std::vector<double> x{1, 2, 3};
  stream.process(x, y);
  stream.reset();
  std::vector<double> z;
  stream.process(x, z);
  EXPECT_EQ(y, z);
  expect_invalid([] { UpFirDn<float> s(std::vector<double>{}, 1, 1); }, "at least one tap");
  expect_invalid([&] { UpFirDn<float> s(h, 0, 1); }, "up = 0");
}

}  // namespace
}  // namespace ripple::fir
