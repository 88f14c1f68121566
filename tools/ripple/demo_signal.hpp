// The demo's test signal: a sum of sine tones at known frequencies and levels plus white
// Gaussian noise, reproducible from a seed; and the window applied before the transform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ripple::cli {

/// A sine tone. The level is 20 log10 of its peak amplitude (0 dB: amplitude 1).
struct Tone {
  double frequency_hz = 0;
  double level_db = 0;
};

struct SignalSpec {
  std::size_t samples = 0;
  double sample_rate_hz = 0;
  std::vector<Tone> tones;
  double noise_rms_db = 0;  ///< 20 log10 of the noise's standard deviation
  std::uint64_t seed = 0;   ///< for the tone phases and the noise
};

/// spec.samples samples of sum_t A_t sin(2 pi f_t n / fs + phi_t) + noise, with random phases
/// phi_t and Gaussian noise drawn from a generator seeded with spec.seed (the same seed gives
/// the same samples on every platform up to libm rounding).
std::vector<double> synthesize(const SignalSpec& spec);

/// Periodic ("DFT-even") Hann window of length n: w[k] = 0.5 - 0.5 cos(2 pi k / n). Its sum
/// is n/2 and its spectrum is zero at integer bin offsets of 2 and beyond.
std::vector<double> hann_window(std::size_t n);

}  // namespace ripple::cli
