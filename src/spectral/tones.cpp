// Goertzel's recurrence s[n] = x[n] + 2 cos(w) s[n-1] - s[n-2], finished with the phase
// correction that makes it the exact DFT term at any frequency w (not only at bin centres).
#include "ripple/tones.hpp"

#include <cmath>
#include <numbers>
#include <type_traits>
#include <string>

#include "ripple/error.hpp"

namespace ripple::tones {
namespace {

constexpr bool is_complex(const std::complex<float>*) { return true; }
constexpr bool is_complex(const std::complex<double>*) { return true; }
constexpr bool is_complex(const void*) { return false; }

// Real data: f in [0, fs/2]. Complex (IQ) data: f in [-fs/2, fs/2], the recurrence run on
// complex values (it is linear, and its phase correction holds for any w).
template <class T>
std::complex<double> goertzel_impl(std::span<const T> x, double f, double fs) {
  constexpr bool complex_data = is_complex(static_cast<const T*>(nullptr));
  using Acc = std::conditional_t<complex_data, std::complex<double>, double>;
  if (!(fs > 0) || !std::isfinite(fs)) throw InvalidArgument("goertzel: fs must be a positive number, got " + std::to_string(fs));
  const double lowest = complex_data ? -fs / 2 : 0.0;
  if (!(f >= lowest && f <= fs / 2)) {
    throw InvalidArgument("goertzel: frequency " + std::to_string(f) + " is outside [" + std::to_string(lowest) +
                          ", fs/2] = [" + std::to_string(lowest) + ", " + std::to_string(fs / 2) + "]");
  }
  const double w = 2.0 * std::numbers::pi * f / fs;
  const double coeff = 2.0 * std::cos(w);
  Acc s1 = 0, s2 = 0;
  for (const T v : x) {
    const Acc s0 = Acc(v) + coeff * s1 - s2;
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
std::complex<double> goertzel(std::span<const std::complex<float>> x, double f, double fs) {
  return goertzel_impl(x, f, fs);
}
std::complex<double> goertzel(std::span<const std::complex<double>> x, double f, double fs) {
  return goertzel_impl(x, f, fs);
}

double tone_level_db(std::span<const double> x, double f, double fs) {
  double energy = 0;
  for (double v : x) energy += v * v;
  if (x.empty() || energy == 0) return -INFINITY;
  const double n = double(x.size());
  const double tone = 2.0 * std::norm(goertzel(x, f, fs)) / (n * n);
  return 10.0 * std::log10(tone / (energy / n));
}

double tone_level_db(std::span<const std::complex<double>> x, double f, double fs) {
  double energy = 0;
  for (const auto& v : x) energy += std::norm(v);
  if (x.empty() || energy == 0) return -INFINITY;
  const double n = double(x.size());
  const double tone = std::norm(goertzel(x, f, fs)) / (n * n);
  return 10.0 * std::log10(tone / (energy / n));
}

ToneDetector::ToneDetector(std::vector<double> frequencies, double fs, std::size_t block, ToneDetectorOptions options)
    : frequencies_(std::move(frequencies)), fs_(fs), block_(block), options_(std::move(options)) {
  if (!(fs > 0) || !std::isfinite(fs)) throw InvalidArgument("ToneDetector: fs must be a positive number, got " + std::to_string(fs));
  if (block == 0) throw InvalidArgument("ToneDetector: block must be at least 1 sample, got 0");
  if (frequencies_.empty()) throw InvalidArgument("ToneDetector: at least one frequency to detect must be given");
  const double lowest = options_.complex ? -fs / 2 : 0.0;
  auto check = [&](double f, const char* what) {
    if (!(f > lowest && f < fs / 2)) {
      throw InvalidArgument(std::string("ToneDetector: ") + what + " frequency " + std::to_string(f) + " is outside (" +
                            std::to_string(lowest) + ", fs/2) = (" + std::to_string(lowest) + ", " +
                            std::to_string(fs / 2) + ")" + (options_.complex ? "" : " (real samples)"));
    }
  };
  for (double f : frequencies_) check(f, "detect");
  for (double f : options_.null_frequencies) check(f, "null");
}

void ToneDetector::reset() {
  pending_.clear();
  pending_iq_.clear();
  blocks_done_ = 0;
}

template <class V>
std::vector<Detection> ToneDetector::analyse(std::span<const V> block) {
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

template <class V, class In>
std::vector<Detection> ToneDetector::feed(std::vector<V>& pending, std::span<const In> x) {
  if (options_.complex != is_complex(static_cast<const V*>(nullptr))) {
    throw InvalidArgument(options_.complex ? "ToneDetector: the detector was made for complex samples (options.complex); got real ones"
                                           : "ToneDetector: got complex samples; make the detector with options.complex = true");
  }
  std::vector<Detection> all;
  for (const In v : x) {
    pending.push_back(V(v));
    if (pending.size() == block_) {
      auto found = analyse(std::span<const V>(pending));
      all.insert(all.end(), found.begin(), found.end());
      pending.clear();
      ++blocks_done_;
    }
  }
  return all;
}

std::vector<Detection> ToneDetector::process(std::span<const double> x) { return feed(pending_, x); }
std::vector<Detection> ToneDetector::process(std::span<const float> x) { return feed(pending_, x); }
std::vector<Detection> ToneDetector::process(std::span<const std::complex<double>> x) { return feed(pending_iq_, x); }
std::vector<Detection> ToneDetector::process(std::span<const std::complex<float>> x) { return feed(pending_iq_, x); }

}  // namespace ripple::tones
