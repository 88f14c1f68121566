// The pieces of `ripple demo` on their own: signal synthesis, window, levels, peak search.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "demo_signal.hpp"
#include "spectral_peaks.hpp"

namespace ripple::cli {
namespace {

double rms(const std::vector<double>& x) {
  double sum = 0;
  for (const double v : x) sum += v * v;
  return std::sqrt(sum / static_cast<double>(x.size()));
}

TEST(DemoSignal, ToneLevelsAndNoiseRms) {
  const SignalSpec tone{48000, 48000, {{1000, -6}}, -400, 1};
  EXPECT_NEAR(rms(synthesize(tone)), std::pow(10, -6.0 / 20) / std::sqrt(2.0), 1e-6);
  const SignalSpec noise{100000, 48000, {}, -20, 1};
  EXPECT_NEAR(rms(synthesize(noise)), 0.1, 0.002);
}

TEST(DemoSignal, TheSeedDecides) {
  const SignalSpec a{1000, 48000, {{440, 0}}, -30, 7};
  SignalSpec b = a;
  EXPECT_EQ(synthesize(a), synthesize(b));
  b.seed = 8;
  EXPECT_NE(synthesize(a), synthesize(b));
}

TEST(DemoSignal, PeriodicHannWindow) {
  const auto w = hann_window(16);
  EXPECT_DOUBLE_EQ(w[0], 0.0);
  EXPECT_DOUBLE_EQ(w[8], 1.0);
  EXPECT_NEAR(w[4], 0.5, 1e-15);
  EXPECT_NEAR(w[3], w[13], 1e-15);
  EXPECT_NEAR(std::accumulate(w.begin(), w.end(), 0.0), 8.0, 1e-12);
}

TEST(SpectralPeaks, AmplitudeLevelsOfAWindowedSine) {
  // A Hann-windowed sine of amplitude A centred on bin 1 of N = 8 reads A N / 4 there.
  const double a = 0.25;
  const std::vector<std::complex<float>> spectrum{{0, 0}, {0, float(-a * 8 / 4)}, {0, 0}, {0, 0}, {0, 0}};
  const auto levels = amplitude_db(spectrum, 4.0);
  EXPECT_NEAR(levels[1], 20 * std::log10(a), 1e-6);
  EXPECT_EQ(levels[0], -400);
}

TEST(SpectralPeaks, MedianIgnoresAFewLoudBins) {
  const std::vector<double> levels{-100, -101, -99, 0, -100, -102, -98, -5, -100};
  EXPECT_EQ(median_db(levels), -100);
}

TEST(SpectralPeaks, ParabolicVertex) {
  const auto parabola = [](double x) { return 5 - 2 * (x - 0.3) * (x - 0.3); };
  const Vertex v = parabolic_vertex(parabola(-1), parabola(0), parabola(1));
  EXPECT_NEAR(v.offset, 0.3, 1e-12);
  EXPECT_NEAR(v.value, 5, 1e-12);
  const Vertex flat = parabolic_vertex(1, 1, 1);
  EXPECT_EQ(flat.offset, 0);
  EXPECT_EQ(flat.value, 1);
}

TEST(SpectralPeaks, LocalMaximaAboveTheThreshold) {
  std::vector<double> levels(40, -100);
  levels[10] = -20;  // a peak, with a weaker shoulder 2 bins away that is not a peak
  levels[9] = -30;
  levels[11] = -26;
  levels[12] = -25;
  levels[25] = -60;  // a peak below the threshold
  levels[31] = -40;  // a peak
  const auto peaks = find_peaks(levels, -50, 4);
  ASSERT_EQ(peaks.size(), 2u);
  EXPECT_GT(peaks[0].bin, 10.0);  // pulled towards the louder neighbour on the right
  EXPECT_LT(peaks[0].bin, 10.5);
  EXPECT_GE(peaks[0].level_db, -20);
  EXPECT_NEAR(peaks[1].bin, 31, 1e-12);
}

TEST(SpectralPeaks, EqualNeighboursGiveOnePeak) {
  std::vector<double> levels(10, -100);
  levels[4] = levels[5] = -10;
  EXPECT_EQ(find_peaks(levels, -50, 2).size(), 1u);
}

}  // namespace
}  // namespace ripple::cli
