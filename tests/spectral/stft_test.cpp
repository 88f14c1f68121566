// stft against scipy.signal.stft (boundary extensions, padding, scaling, detrend, one- and
// two-sided, n-D on several axes, float32, complex data); the streaming spectrogram against
// spectrogram() of the whole stream, with and without averaging; errors.
#include <gtest/gtest.h>

#include <complex>
#include <random>

#include "common/expect_invalid.hpp"
#include "common/golden.hpp"
#include "common/rel_l2.hpp"
#include "ripple/spectral.hpp"

namespace ripple::spectral {
namespace {

using test::rel_l2;


template <class V>
void check_stft(const io::NpyArray& x, const StftOptions& o, const io::NpyArray& z, const std::string& name, double bound) {
  const auto r = stft(ArrayView<const V>(x.values<V>().data(), x.shape), o);
  EXPECT_EQ(r.zxx.shape, z.shape);
  using C = std::complex<typename ripple::detail::real_of<V>::type>;
  EXPECT_LE(rel_l2(r.zxx.values, z.values<C>()), bound);
  EXPECT_LE(rel_l2(r.f, test::golden_values(name + ".f")), 1e-15);
  EXPECT_LE(rel_l2(r.t, test::golden_values(name + ".t")), 1e-15);
}

TEST(Stft, MatchesScipy) {
  int checked = 0;
  for (const auto& line : test::golden_lines("stft.txt")) {
    const std::string& name = line.words.at(0);
    auto k = line.keys;
    SCOPED_TRACE(line.text);
    StftOptions o;
    o.fs = std::stod(k["fs"]);
    o.window = windows::Window::parse(k["window"]);
    o.nperseg = test::optional_size(k["nperseg"]);
    o.noverlap = test::optional_size(k["noverlap"]);
    o.nfft = test::optional_size(k["nfft"]);
    o.axis = std::stoi(k["axis"]);
    o.return_onesided = k["onesided"] == "1";
    const std::string b = k["boundary"];
    o.boundary = b == "even" ? Boundary::even : b == "odd" ? Boundary::odd : b == "constant" ? Boundary::constant
                 : b == "None" ? Boundary::none : Boundary::zeros;
    o.padded = k["padded"] == "1";
    o.scaling = k["scaling"] == "psd" ? Scaling::density : Scaling::spectrum;
    o.detrend = k["detrend"] == "linear" ? Detrend::linear : Detrend::none;
    const auto x = test::read_golden(name + ".x");
    const auto z = test::read_golden(name + ".z");
    switch (x.dtype()) {
      case io::Dtype::f32: check_stft<float>(x, o, z, name, 1e-5); break;
      case io::Dtype::f64: check_stft<double>(x, o, z, name, 1e-12); break;
      case io::Dtype::c64: check_stft<std::complex<float>>(x, o, z, name, 1e-5); break;
      case io::Dtype::c128: check_stft<std::complex<double>>(x, o, z, name, 1e-12); break;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 12);
}

TEST(Stft, Errors) {
  const std::vector<double> x(40, 1.0);
  const ArrayView<const double> v(x.data(), {x.size()});
  test::expect_invalid([&] { (void)stft(v, {.nperseg = 16, .noverlap = 16}); }, "noverlap");
  test::expect_invalid([&] { (void)stft(v, {.fs = -1.0}); }, "fs");
  test::expect_invalid([&] { (void)stft(v, {.window_values = std::vector<double>(41, 1.0)}); }, "longer");
  // A segment longer than the signal is cut to it (scipy warns and does the same).
  const auto r = stft(v, {.nperseg = 128, .boundary = Boundary::odd});
  EXPECT_EQ(r.f.size(), 21u);
}

template <class T>
std::vector<T> noise(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> d;
  std::vector<T> x(n);
  for (auto& v : x) {
    if constexpr (ripple::detail::is_complex_v<T>) {
      v = T(d(rng), d(rng));
    } else {
      v = T(d(rng));
    }
  }
  return x;
}

template <class T>
void stream_matches_one_shot(std::size_t average) {
  using R = typename ripple::detail::real_of<T>::type;
  const auto x = noise<T>(20000, 5);
  const SpectrogramOptions o{.fs = 48000.0, .nperseg = 300, .noverlap = 100, .nfft = 512};
  const auto whole = spectrogram(ArrayView<const T>(x.data(), {x.size()}), o);
  const std::size_t bins = whole.f.size(), segments = whole.t.size();
  SpectrogramStream<T> stream(o, average);
  ASSERT_EQ(stream.bins(), bins);
  EXPECT_EQ(stream.frequencies(), whole.f);
  EXPECT_EQ(stream.step(), 200u);
  std::vector<std::vector<R>> rows;
  std::vector<double> times;
  std::mt19937 rng(3);
  for (std::size_t at = 0; at < x.size();) {
    const std::size_t n = std::min<std::size_t>(std::uniform_int_distribution<std::size_t>(0, 700)(rng), x.size() - at);
    stream.push(std::span<const T>(x.data() + at, n), [&](std::span<const R> row, double t) {
      rows.emplace_back(row.begin(), row.end());
      times.push_back(t);
    });
    at += n;
  }
  ASSERT_EQ(rows.size(), segments / average);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::vector<double> expected(bins, 0.0);
    double t = 0;
    for (std::size_t j = r * average; j < (r + 1) * average; ++j) {
      for (std::size_t k = 0; k < bins; ++k) expected[k] += whole.sxx.values[k * segments + j] / double(average);
      t += whole.t[j] / double(average);
    }
    ASSERT_LE(rel_l2(rows[r], expected), sizeof(R) == 4 ? 2e-6 : 1e-13) << "row " << r;
    ASSERT_NEAR(times[r], t, 1e-12) << "row " << r;
  }
}

TEST(SpectrogramStream, ChunkedStreamEqualsOneShot) {
  stream_matches_one_shot<double>(1);
  stream_matches_one_shot<float>(1);
  stream_matches_one_shot<std::complex<float>>(1);
  stream_matches_one_shot<std::complex<double>>(7);
}

TEST(SpectrogramStream, ResetAndErrors) {
  const auto x = noise<float>(3000, 9);
  SpectrogramStream<float> stream({.nperseg = 256});
  std::vector<float> first, again;
  stream.push(x, [&](std::span<const float> row, double) { first.insert(first.end(), row.begin(), row.end()); });
  stream.reset();
  stream.push(x, [&](std::span<const float> row, double) { again.insert(again.end(), row.begin(), row.end()); });
  EXPECT_EQ(first, again);
  EXPECT_FALSE(first.empty());
  test::expect_invalid([] { SpectrogramStream<float>({.nperseg = 256}, 0); }, "average");
  test::expect_invalid([] { SpectrogramStream<float>({.nperseg = 0}); }, "nperseg");
  test::expect_invalid([] { SpectrogramStream<float>({.nperseg = 64, .noverlap = 64}); }, "noverlap");
}

}  // namespace
}  // namespace ripple::spectral
