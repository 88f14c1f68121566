// upfirdn against scipy.signal.upfirdn: tap counts 1..801, up/down pairs including coprime and
// equal ones, lengths 1..10^5, n-D on several axes, complex and float32; and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <fstream>
#include <map>
#include <sstream>

#include "common/golden.hpp"
#include "ripple/error.hpp"
#include "ripple/fir.hpp"

namespace ripple::fir {
namespace {

template <class A, class B>
double rel_l2(const A& a, const B& b) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    num += std::norm(std::complex<long double>(a[i]) - std::complex<long double>(b[i]));
    den += std::norm(std::complex<long double>(b[i]));
  }
  return den == 0 ? double(num) : std::sqrt(double(num / den));
}

template <class T>
void check(const io::NpyArray& h, const io::NpyArray& x, const io::NpyArray& expected, std::size_t up,
           std::size_t down, int axis) {
  using U = typename ripple::detail::real_of<T>::type;
  const auto y = upfirdn(h.values<U>(), ArrayView<const T>(x.values<T>().data(), x.shape), up, down, axis);
  ASSERT_EQ(y.shape, expected.shape);
  EXPECT_LE(rel_l2(y.values, expected.values<T>()), (std::is_same_v<U, float> ? 1e-6 : 1e-13));
}

TEST(Upfirdn, MatchesScipy) {
  std::ifstream cases(test::golden_dir() / "cases.txt");
  std::string line;
  int checked = 0;
  while (std::getline(cases, line)) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    std::map<std::string, std::string> keys;
    for (std::string kv; words >> kv;) keys[kv.substr(0, kv.find('='))] = kv.substr(kv.find('=') + 1);
    SCOPED_TRACE(line);
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

template <class F>
void expect_invalid(F&& f, const std::string& word) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
  }
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
  std::ifstream cases(test::golden_dir() / "resample.txt");
  std::string line;
  int checked = 0;
  const std::map<std::string, ResamplePad> pads{{"constant", ResamplePad::constant}, {"mean", ResamplePad::mean},
                                                {"median", ResamplePad::median},     {"minimum", ResamplePad::minimum},
                                                {"maximum", ResamplePad::maximum}};
  while (std::getline(cases, line)) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    std::map<std::string, std::string> keys;
    for (std::string kv; words >> kv;) keys[kv.substr(0, kv.find('='))] = kv.substr(kv.find('=') + 1);
    SCOPED_TRACE(line);
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
