// Goertzel against a direct long-double DFT term (bin centres and between them), tone levels,
// the block detector over a stream fed in odd pieces (tones on and off, null frequencies), and
// the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

#include "ripple/error.hpp"
#include "ripple/tones.hpp"

namespace ripple::tones {
namespace {

std::complex<long double> dft_term(const std::vector<double>& x, double f, double fs) {
  std::complex<long double> acc = 0;
  for (std::size_t n = 0; n < x.size(); ++n) {
    const long double a = -2.0L * 3.14159265358979323846264338327950288L * f * n / fs;
    acc += (long double)x[n] * std::complex<long double>(std::cos(a), std::sin(a));
  }
  return acc;
}

TEST(Goertzel, MatchesDirectDft) {
  std::mt19937 gen(3);
  std::normal_distribution<double> nd;
  for (std::size_t n : {1ul, 2ul, 17ul, 205ul, 4096ul}) {
    std::vector<double> x(n);
    for (auto& v : x) v = nd(gen);
    for (double f : {0.0, 100.0, 697.0, 1000.0, 1234.567, 3999.0, 4000.0}) {
      const auto g = goertzel(x, f, 8000.0);
      const auto ref = dft_term(x, f, 8000.0);
      // Goertzel's rounding grows like n^2 eps near 0 and fs/2 (its coefficient nears +-2).
      EXPECT_LE(std::abs(std::complex<long double>(g) - ref), 1e-15 * double(n * n) + 1e-12 * (1 + std::abs(ref)))
          << "n " << n << " f " << f;
    }
  }
}

std::vector<double> tone(std::size_t n, double f, double fs, double amplitude, std::size_t start = 0) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = amplitude * std::sin(2 * M_PI * f * double(start + i) / fs);
  return x;
}

TEST(Goertzel, ToneLevels) {
  EXPECT_NEAR(tone_level_db(tone(1000, 100.0, 8000.0, 0.3), 100.0, 8000.0), 0.0, 0.01);  // bin centre (12.5 Hz bins)
  EXPECT_LT(tone_level_db(tone(1000, 100.0, 8000.0, 0.3), 1000.0, 8000.0), -40.0);
}

TEST(ToneDetector, FindsTonesBlockByBlockInAStream) {
  const double fs = 8000;
  ToneDetector detector({697.0, 1209.0, 1477.0}, fs, 400, {.threshold_db = -10.0, .null_frequencies = {2000.0}});
  // Block 0: 697 + 1209 (a DTMF "1"); block 1: silence-ish noise; block 2: 1477 with 2000 (nulled).
  std::vector<double> signal;
  auto a = tone(400, 697, fs, 0.5), b = tone(400, 1209, fs, 0.5);
  for (std::size_t i = 0; i < 400; ++i) signal.push_back(a[i] + b[i]);
  std::mt19937 gen(1);
  std::normal_distribution<double> nd(0.0, 0.01);
  for (int i = 0; i < 400; ++i) signal.push_back(nd(gen));
  auto c = tone(400, 1477, fs, 0.5, 800), d = tone(400, 2000, fs, 0.5, 800);
  for (std::size_t i = 0; i < 400; ++i) signal.push_back(c[i] + d[i]);
  std::vector<Detection> found;
  for (std::size_t at = 0; at < signal.size();) {
    const std::size_t piece = std::min<std::size_t>(signal.size() - at, 37 + at % 101);
    auto part = detector.process(std::span<const double>(signal.data() + at, piece));
    found.insert(found.end(), part.begin(), part.end());
    at += piece;
  }
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].block, 0u);
  EXPECT_EQ(found[0].frequency, 697.0);
  EXPECT_EQ(found[1].frequency, 1209.0);
  EXPECT_GT(found[0].level_db, -4.0);  // each tone holds half the block's power: -3 dB
}

TEST(ToneDetector, ComplexSamplesTellPositiveFromNegativeFrequencies) {
  const double fs = 8000;
  const std::size_t n = 1600;
  std::vector<std::complex<float>> iq(n);
  std::mt19937 gen(2);
  std::normal_distribution<double> nd(0.0, 0.05);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = double(i) / fs;
    // +1000 Hz in the first half, -2500 Hz throughout.
    std::complex<double> v = 0.7 * std::polar(1.0, -2 * M_PI * 2500 * t) + std::complex<double>(nd(gen), nd(gen));
    if (i < n / 2) v += 0.7 * std::polar(1.0, 2 * M_PI * 1000 * t);
    iq[i] = std::complex<float>(v);
  }
  // The DFT term at a negative frequency, against the direct sum.
  std::complex<double> direct = 0;
  for (std::size_t i = 0; i < n; ++i) direct += std::complex<double>(iq[i]) * std::polar(1.0, 2 * M_PI * 2500 * double(i) / fs);
  EXPECT_LT(std::abs(goertzel(std::span<const std::complex<float>>(iq), -2500.0, fs) - direct), 1e-9 * std::abs(direct));
  ToneDetector detector({1000.0, -1000.0, 2500.0, -2500.0}, fs, 400, {.threshold_db = -10.0, .complex = true});
  std::vector<Detection> found;
  for (std::size_t at = 0; at < n; at += 123) {
    auto part = detector.process(std::span<const std::complex<float>>(iq.data() + at, std::min<std::size_t>(123, n - at)));
    found.insert(found.end(), part.begin(), part.end());
  }
  std::vector<std::pair<std::size_t, double>> hits;
  for (const auto& d : found) hits.emplace_back(d.block, d.frequency);
  const std::vector<std::pair<std::size_t, double>> expected{{0, 1000.0}, {0, -2500.0}, {1, 1000.0}, {1, -2500.0},
                                                             {2, -2500.0}, {3, -2500.0}};
  EXPECT_EQ(hits, expected);
  EXPECT_THROW((void)detector.process(std::span<const float>()), InvalidArgument);
  ToneDetector real({1000.0}, fs, 400);
  EXPECT_THROW((void)real.process(std::span<const std::complex<float>>(iq)), InvalidArgument);
  EXPECT_THROW(ToneDetector({-1000.0}, fs, 400), InvalidArgument);  // negative needs complex samples
}

TEST(ToneDetector, Errors) {
  EXPECT_THROW(ToneDetector({}, 8000.0, 100), InvalidArgument);
  EXPECT_THROW(ToneDetector({5000.0}, 8000.0, 100), InvalidArgument);
  EXPECT_THROW(ToneDetector({500.0}, 8000.0, 0), InvalidArgument);
  EXPECT_THROW(ToneDetector({500.0}, 8000.0, 100, {.null_frequencies = {0.0}}), InvalidArgument);
  const std::vector<double> x(10);
  EXPECT_THROW((void)goertzel(x, 5000.0, 8000.0), InvalidArgument);
}

}  // namespace
}  // namespace ripple::tones
