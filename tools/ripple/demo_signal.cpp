// Test signal synthesis for `ripple demo`.
#include "demo_signal.hpp"

#include <cmath>
#include <numbers>
#include <random>

namespace ripple::cli {
namespace {

// Uniform in (0, 1], from the top 53 bits of a 64-bit draw (exactly specified, unlike
// std::uniform_real_distribution).
double uniform_open0(std::mt19937_64& rng) { return (static_cast<double>(rng() >> 11) + 1.0) * 0x1.0p-53; }

}  // namespace

std::vector<double> synthesize(const SignalSpec& spec) {
  constexpr double kTwoPi = 2 * std::numbers::pi;
  std::mt19937_64 rng(spec.seed);
  std::vector<double> x(spec.samples, 0.0);
  for (const Tone& tone : spec.tones) {
    const double amplitude = std::pow(10.0, tone.level_db / 20);
    const double phase = kTwoPi * uniform_open0(rng);
    const double step = kTwoPi * tone.frequency_hz / spec.sample_rate_hz;
    for (std::size_t n = 0; n < x.size(); ++n)
      x[n] += amplitude * std::sin(step * static_cast<double>(n) + phase);
  }
  // Box-Muller: two independent standard normals from two uniforms.
  const double sigma = std::pow(10.0, spec.noise_rms_db / 20);
  for (std::size_t n = 0; n < x.size(); n += 2) {
    const double radius = sigma * std::sqrt(-2 * std::log(uniform_open0(rng)));
    const double angle = kTwoPi * uniform_open0(rng);
    x[n] += radius * std::cos(angle);
    if (n + 1 < x.size()) x[n + 1] += radius * std::sin(angle);
  }
  return x;
}

std::vector<double> hann_window(std::size_t n) {
  std::vector<double> w(n);
  for (std::size_t k = 0; k < n; ++k)
    w[k] = 0.5 - 0.5 * std::cos(2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n));
  return w;
}

}  // namespace ripple::cli
