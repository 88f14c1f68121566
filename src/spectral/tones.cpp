// Goertzel's recurrence s[n] = x[n] + 2 cos(w) s[n-1] - s[n-2], finished with the phase
// correction that makes it the exact DFT term at any frequency w (not only at bin centres).
#include "ripple/tones.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "ripple/error.hpp"

namespace ripple::tones {
namespace {

template <class T>
std::complex<double> goertzel_impl(std::span<const T> x, double f, double fs) {
  if (!(fs > 0) || !std::isfinite(fs)) throw InvalidArgument("goertzel: fs must be a positive number, got " + std::to_string(fs));
  if (!(f >= 0 && f <= fs / 2)) {
    throw InvalidArgument("goertzel: frequency " + std::to_string(f) + " is outside [0, fs/2] = [0, " +
                          std::to_string(fs / 2) + "]");
  }
  const double w = 2.0 * std::numbers::pi * f / fs;
  const double coeff = 2.0 * std::cos(w);
  double s1 = 0, s2 = 0;
  for (const T v : x) {
    const double s0 = double(v) + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  // y = s[N-1] - e^{-iw} s[N-2] is X(w) e^{iw(N-1)}; undo that phase.
  const std::complex<double> y = s1 - std::polar(1.0, -w) * s2;
  return y * std::polar(1.0, -w * double(x.size() - (x.empty() ? 0 : 1)));
}

}  // namespace

std::complex<double> goertzel(std::span<const float> x, double f, double fs) { return goertzel_impl(x, f, fs); }
std::complex<double> goertzel(std::span<const double> x, double f, double fs) { return goertzel_impl(x, f, fs); }

double tone_level_db(std::span<const double> x, double f, double fs) {
  double energy = 0;
  for (double v : x) energy += v * v;
  if (x.empty() || energy == 0) return -INFINITY;
  const double n = double(x.size());
  const double tone = 2.0 * std::norm(goertzel(x, f, fs)) / (n * n);
  return 10.0 * std::log10(tone / (energy / n));
}

ToneDetector::ToneDetector(std::vector<double> frequencies, double fs, std::size_t block, ToneDetectorOptions options)
    : frequencies_(std::move(frequencies)), fs_(fs), block_(block), options_(std::move(options)) {
  if (!(fs > 0) || !std::isfinite(fs)) throw InvalidArgument("ToneDetector: fs must be a positive number, got " + std::to_string(fs));
  if (block == 0) throw InvalidArgument("ToneDetector: block must be at least 1 sample, got 0");
  if (frequencies_.empty()) throw InvalidArgument("ToneDetector: at least one frequency to detect must be given");
  auto check = [&](double f, const char* what) {
    if (!(f > 0 && f < fs / 2)) {
      throw InvalidArgument(std::string("ToneDetector: ") + what + " frequency " + std::to_string(f) +
                            " is outside (0, fs/2) = (0, " + std::to_string(fs / 2) + ")");
    }
  };
  for (double f : frequencies_) check(f, "detect");
  for (double f : options_.null_frequencies) check(f, "null");
}

void ToneDetector::reset() {
  pending_.clear();
  blocks_done_ = 0;
}

std::vector<Detection> ToneDetector::analyse(std::span<const double> block) {
  std::vector<Detection> found;
  for (double f : options_.null_frequencies) {
    if (tone_level_db(block, f, fs_) >= options_.threshold_db) return found;
  }
  for (double f : frequencies_) {
    const double level = tone_level_db(block, f, fs_);
    if (level >= options_.threshold_db) found.push_back({blocks_done_, f, level});
  }
  return found;
}

std::vector<Detection> ToneDetector::process(std::span<const double> x) {
  std::vector<Detection> all;
  for (double v : x) {
    pending_.push_back(v);
    if (pending_.size() == block_) {
      auto found = analyse(pending_);
      all.insert(all.end(), found.begin(), found.end());
      pending_.clear();
      ++blocks_done_;
    }
  }
  return all;
}

std::vector<Detection> ToneDetector::process(std::span<const float> x) {
  const std::vector<double> wide(x.begin(), x.end());
  return process(std::span<const double>(wide));
}

}  // namespace ripple::tones
