// welch against scipy.signal.welch: default and explicit segment lengths, overlaps, nfft
// padding, detrend none/constant/linear, density and spectrum scaling, mean and median
// averaging, one- and two-sided, named and explicit windows, n-D on several axes, float32;
// and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
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
    o.nperseg = test::optional_size(k["nperseg"]);
    o.noverlap = test::optional_size(k["noverlap"]);
    o.nfft = test::optional_size(k["nfft"]);
    o.detrend = k["detrend"] == "none" ? Detrend::none : k["detrend"] == "linear" ? Detrend::linear : Detrend::constant;
    o.return_onesided = k["onesided"] == "1";
    o.scaling = k["scaling"] == "spectrum" ? Scaling::spectrum : Scaling::density;
    o.average = k["average"] == "median" ? Average::median : Average::mean;
    o.axis = std::stoi(k["axis"]);
    const auto x = test::read_golden(name + ".x");
    const auto f = test::golden_values(name + ".f");
    const auto p = test::read_golden(name + ".p");
    if (x.dtype() == io::Dtype::c64) {
      const auto r = welch(ArrayView<const std::complex<float>>(x.values<std::complex<float>>().data(), x.shape), o);
      EXPECT_EQ(r.pxx.shape, p.shape);
      EXPECT_LE(rel_l2(r.pxx.values, p.values<float>()), 1e-5);
      EXPECT_LE(rel_l2(r.f, f), 1e-15);
    } else if (x.dtype() == io::Dtype::c128) {
      const auto r = welch(ArrayView<const std::complex<double>>(x.values<std::complex<double>>().data(), x.shape), o);
      EXPECT_EQ(r.pxx.shape, p.shape);
      EXPECT_LE(rel_l2(r.pxx.values, p.values<double>()), 1e-12);
      EXPECT_LE(rel_l2(r.f, f), 1e-15);
    } else if (x.dtype() == io::Dtype::f32) {
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
  EXPECT_EQ(checked, 18);
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

// Angles are compared on the circle (a bin whose value is real may be +pi or -pi), and only
// where the magnitude is not at rounding level; unwrapped phases may also differ by whole turns
// from such a bin on, so they are compared as angles too.
double angle_error(const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>& magnitude) {
  double worst = 0;
  const double peak = *std::max_element(magnitude.begin(), magnitude.end());
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (magnitude[i] < 1e-9 * peak) continue;
    worst = std::max(worst, std::abs(std::remainder(a[i] - b[i], 2 * M_PI)));
  }
  return worst;
}

template <class V>
Spectrogram<double> spectrogram_of(const io::NpyArray& x, const SpectrogramOptions& o) {
  if constexpr (std::is_same_v<V, std::complex<float>> || std::is_same_v<V, float>) {
    const auto r = spectrogram(ArrayView<const V>(x.values<V>().data(), x.shape), o);
    Spectrogram<double> d{r.f, r.t, Array<double>(r.sxx.shape), Array<std::complex<double>>(r.zxx.shape)};
    std::copy(r.sxx.values.begin(), r.sxx.values.end(), d.sxx.values.begin());
    std::copy(r.zxx.values.begin(), r.zxx.values.end(), d.zxx.values.begin());
    return d;
  } else {
    return spectrogram(ArrayView<const V>(x.values<V>().data(), x.shape), o);
  }
}

TEST(Spectrogram, MatchesScipy) {
  int checked = 0;
  for (const auto& line : test::golden_lines("spectrogram.txt")) {
    const std::string& name = line.words.at(0);
    auto k = line.keys;
    SCOPED_TRACE(line.text);
    SpectrogramOptions o;
    o.fs = std::stod(k["fs"]);
    o.nperseg = test::optional_size(k["nperseg"]);
    o.noverlap = test::optional_size(k["noverlap"]);
    o.nfft = test::optional_size(k["nfft"]);
    o.axis = std::stoi(k["axis"]);
    o.return_onesided = k["onesided"] == "1";
    o.detrend = k["detrend"] == "none" ? Detrend::none : Detrend::constant;
    const std::string mode = k["mode"];
    o.mode = mode == "complex"     ? SpectrogramMode::complex
             : mode == "magnitude" ? SpectrogramMode::magnitude
             : mode == "angle"     ? SpectrogramMode::angle
             : mode == "phase"     ? SpectrogramMode::phase
                                   : SpectrogramMode::psd;
    const auto x = test::read_golden(name + ".x");
    const auto s = test::read_golden(name + ".s");
    const bool single = x.dtype() == io::Dtype::c64 || x.dtype() == io::Dtype::f32;
    const auto r = x.dtype() == io::Dtype::c64    ? spectrogram_of<std::complex<float>>(x, o)
                   : x.dtype() == io::Dtype::c128 ? spectrogram_of<std::complex<double>>(x, o)
                                                  : spectrogram_of<double>(x, o);
    const double bound = single ? 1e-5 : 1e-12;
    if (o.mode == SpectrogramMode::complex) {
      EXPECT_EQ(r.zxx.shape, s.shape);
      EXPECT_TRUE(r.sxx.values.empty());
      EXPECT_LE(rel_l2(r.zxx.values, s.values<std::complex<double>>()), bound);
    } else {
      EXPECT_EQ(r.sxx.shape, s.shape);
      std::vector<double> expected(s.size());
      if (s.dtype() == io::Dtype::f32) {
        std::copy(s.values<float>().begin(), s.values<float>().end(), expected.begin());
      } else {
        expected.assign(s.values<double>().begin(), s.values<double>().end());
      }
      const std::vector<double> got(r.sxx.values.begin(), r.sxx.values.end());
      if (o.mode == SpectrogramMode::angle || o.mode == SpectrogramMode::phase) {
        auto mo = o;
        mo.mode = SpectrogramMode::magnitude;
        const auto magnitude = spectrogram_of<double>(x, mo).sxx.values;
        EXPECT_LE(angle_error(got, expected, {magnitude.begin(), magnitude.end()}), 1e-9);
        // Unwrapped phases may differ from scipy's by whole turns (a DC bin at rounding level has
        // a random angle); what unwrapping guarantees is no step over pi along frequency.
        if (o.mode == SpectrogramMode::phase) {
          const std::size_t axis = normalize_axis(o.axis, x.shape.size());
          const auto strides = c_strides(r.sxx.shape);
          const std::size_t fs = std::size_t(strides[axis]);
          double worst = 0;
          for (std::size_t i = 0; i < got.size(); ++i) {
            if ((i / fs) % r.sxx.shape[axis] > 0) worst = std::max(worst, std::abs(got[i] - got[i - fs]));
          }
          EXPECT_LE(worst, M_PI + 1e-9);
        }
      } else {
        EXPECT_LE(rel_l2(got, expected), bound);
      }
    }
    EXPECT_LE(rel_l2(r.f, test::golden_values(name + ".f")), 1e-15);
    EXPECT_LE(rel_l2(r.t, test::golden_values(name + ".t")), 1e-15);
    ++checked;
  }
  EXPECT_EQ(checked, 12);
}

}  // namespace
}  // namespace ripple::spectral
