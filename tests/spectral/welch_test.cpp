// welch against scipy.signal.welch: default and explicit segment lengths, overlaps, nfft
// padding, detrend none/constant/linear, density and spectrum scaling, mean and median
// averaging, one- and two-sided, named and explicit windows, n-D on several axes, float32;
// and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "common/golden.hpp"
#include "common/rel_l2.hpp"
#include "common/expect_invalid.hpp"
#include "ripple/error.hpp"
#include "ripple/spectral.hpp"

namespace ripple::spectral {
namespace {

using ripple::test::expect_invalid;

using ripple::test::rel_l2;

std::optional<std::size_t> opt(const std::string& v) {
  if (v == "none") return std::nullopt;
  return std::stoul(v);
}

TEST(Welch, MatchesScipy) {
  int checked = 0;
  for (const auto& line : test::golden_lines("cases.txt")) {
    const std::string& name = line.words.at(0);
    auto k = line.keys;
    SCOPED_TRACE(line.text);
    WelchOptions o;
    o.fs = std::stod(k["fs"]);
    if (k["window"] == "values") {
      const auto w = test::golden_values(name + ".w");
      o.window_values.assign(w.begin(), w.end());
    } else {
      o.window = windows::Window::parse(k["window"]);
    }
    o.nperseg = opt(k["nperseg"]);
    o.noverlap = opt(k["noverlap"]);
    o.nfft = opt(k["nfft"]);
    o.detrend = k["detrend"] == "none" ? Detrend::none : k["detrend"] == "linear" ? Detrend::linear : Detrend::constant;
    o.return_onesided = k["onesided"] == "1";
    o.scaling = k["scaling"] == "spectrum" ? Scaling::spectrum : Scaling::density;
    o.average = k["average"] == "median" ? Average::median : Average::mean;
    o.axis = std::stoi(k["axis"]);
    const auto x = test::read_golden(name + ".x");
    const auto f = test::golden_values(name + ".f");
    const auto p = test::read_golden(name + ".p");
    if (x.dtype() == io::Dtype::f32) {
      const auto r = welch(ArrayView<const float>(x.values<float>().data(), x.shape), o);
      EXPECT_EQ(r.pxx.shape, p.shape);
      EXPECT_LE(rel_l2(r.pxx.values, p.values<float>()), 1e-5);
      EXPECT_LE(rel_l2(r.f, f), 1e-15);
    } else {
      const auto r = welch(ArrayView<const double>(x.values<double>().data(), x.shape), o);
      EXPECT_EQ(r.pxx.shape, p.shape);
      EXPECT_LE(rel_l2(r.pxx.values, p.values<double>()), 1e-12);
      EXPECT_LE(rel_l2(r.f, f), 1e-15);
    }
    ++checked;
  }
  EXPECT_GT(checked, 14);
}

TEST(Welch, Errors) {
  const std::vector<double> x(1000, 1.0);
  const ArrayView<const double> v(x.data(), {x.size()});
  expect_invalid([&] { (void)welch(v, {.nperseg = 0}); }, "nperseg");
  expect_invalid([&] { (void)welch(v, {.nperseg = 100, .noverlap = 100}); }, "noverlap");
  expect_invalid([&] { (void)welch(v, {.nperseg = 100, .nfft = 50}); }, "nfft");
  expect_invalid([&] { (void)welch(v, {.fs = 0.0}); }, "fs");
  expect_invalid([&] { (void)welch(v, {.window_values = std::vector<double>(2000, 1.0)}); }, "longer than the signal");
  expect_invalid([&] { (void)welch(v, {.axis = 1}); }, "axis 1");
}

}  // namespace
}  // namespace ripple::spectral

namespace ripple::spectral {
namespace {

TEST(Spectrogram, MatchesScipy) {
  int checked = 0;
  for (const auto& line : test::golden_lines("spectrogram.txt")) {
    const std::string& name = line.words.at(0);
    auto k = line.keys;
    SCOPED_TRACE(line.text);
    SpectrogramOptions o;
    o.fs = std::stod(k["fs"]);
    o.nperseg = opt(k["nperseg"]);
    o.noverlap = opt(k["noverlap"]);
    o.nfft = opt(k["nfft"]);
    o.axis = std::stoi(k["axis"]);
    o.return_onesided = k["onesided"] == "1";
    const auto x = test::read_golden(name + ".x");
    const auto s = test::read_golden(name + ".s");
    const auto r = spectrogram(ArrayView<const double>(x.values<double>().data(), x.shape), o);
    EXPECT_EQ(r.sxx.shape, s.shape);
    EXPECT_LE(rel_l2(r.sxx.values, s.values<double>()), 1e-12);
    EXPECT_LE(rel_l2(r.f, test::golden_values(name + ".f")), 1e-15);
    EXPECT_LE(rel_l2(r.t, test::golden_values(name + ".t")), 1e-15);
    ++checked;
  }
  EXPECT_EQ(checked, 5);
}

}  // namespace
}  // namespace ripple::spectral
