// `ripple demo`: the spectral-analysis check. Synthesizes tones in noise, windows them, takes
// an r2c FFT with ripple, finds the peaks and compares them with the tones that were put in;
// also times the transform. Exits non-zero when a tone is missed, misplaced or spurious.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "demo_signal.hpp"
#include "ripple/fft.hpp"
#include "ripple/runtime.hpp"
#include "spectral_peaks.hpp"

namespace ripple::cli {
namespace {

// The tones to find: off bin centres, spread over 75 dB; the last one is 15 dB below the noise
// RMS in the time domain and only visible thanks to the FFT's processing gain.
const std::vector<Tone> kTones = {
    {440.0, 0.0}, {1000.3, -12.0}, {3150.75, -30.0}, {9876.5, -55.0}, {15000.125, -75.0}};
constexpr double kNoiseRmsDb = -60;
constexpr double kFrequencyToleranceBins = 0.5;
constexpr double kLevelToleranceDb = 1.0;
constexpr std::size_t kPeakHalfWidth = 4;  // bins: a Hann main lobe is +-2 bins wide

struct DemoOptions {
  std::size_t samples = std::size_t{1} << 20;
  double sample_rate_hz = 48000;
  std::uint64_t seed = 20240521;
  unsigned runs = 15;
  unsigned threads = 0;
  double threshold_db = 20;
};

struct Timing {
  double median_s = 0;
  double min_s = 0;
};

// Runs `plan` once to warm up, then `runs` times; median and fastest wall time.
Timing time_transform(const fft::Plan& plan, const float* in, std::complex<float>* out, unsigned runs) {
  using clock = std::chrono::steady_clock;
  plan.execute(in, out);
  std::vector<double> seconds(runs);
  for (double& s : seconds) {
    const auto start = clock::now();
    plan.execute(in, out);
    s = std::chrono::duration<double>(clock::now() - start).count();
  }
  std::sort(seconds.begin(), seconds.end());
  const std::size_t mid = seconds.size() / 2;
  const double median = seconds.size() % 2 ? seconds[mid] : 0.5 * (seconds[mid - 1] + seconds[mid]);
  return {median, seconds.front()};
}

// Index of the detected peak nearest to `bin`, if one lies within the tolerance.
std::optional<std::size_t> nearest_peak(const std::vector<Peak>& peaks, double bin) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < peaks.size(); ++i) {
    const double distance = std::abs(peaks[i].bin - bin);
    if (distance <= kFrequencyToleranceBins && (!best || distance < std::abs(peaks[*best].bin - bin)))
      best = i;
  }
  return best;
}

int run_demo(const DemoOptions& o) {
  const std::size_t n = o.samples;
  const double bin_hz = o.sample_rate_hz / static_cast<double>(n);
  for (const Tone& t : kTones)
    if (t.frequency_hz >= o.sample_rate_hz / 2 - 4 * bin_hz)
      throw UsageError("--rate " + std::to_string(o.sample_rate_hz) + " Hz puts the " +
                       std::to_string(t.frequency_hz) + " Hz tone at or above Nyquist");

  SignalSpec spec{n, o.sample_rate_hz, kTones, kNoiseRmsDb, o.seed};
  const std::vector<double> signal = synthesize(spec);
  const std::vector<double> window = hann_window(n);
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(signal[i] * window[i]);
  const double window_sum = std::accumulate(window.begin(), window.end(), 0.0);

  fft::PlanDesc desc;
  desc.shape = {n};
  desc.kind = fft::Kind::r2c;
  desc.precision = fft::Precision::f32;
  desc.threads = o.threads;
  const fft::Plan plan(desc);
  std::vector<std::complex<float>> spectrum(plan.output_span());
  const Timing timing = time_transform(plan, x.data(), spectrum.data(), o.runs);

  const std::vector<double> levels = amplitude_db(spectrum, window_sum);
  const double floor_db = median_db(std::span(levels).subspan(1, levels.size() - 2));
  const double threshold_db = floor_db + o.threshold_db;
  const std::vector<Peak> peaks = find_peaks(levels, threshold_db, kPeakHalfWidth);

  std::printf(
      "ripple demo: %zu tones + white noise (%.1f dB RMS), %zu samples at %.0f Hz (%.2f s), seed %llu\n",
      kTones.size(), kNoiseRmsDb, n, o.sample_rate_hz, static_cast<double>(n) / o.sample_rate_hz,
      static_cast<unsigned long long>(o.seed));
  std::printf("Hann window, r2c float32 FFT, bin width %.5f Hz\n", bin_hz);
  std::printf("noise floor %.1f dB (median bin), threshold %.1f dB, %zu peaks found\n\n", floor_db,
              threshold_db, peaks.size());
  std::printf("  %12s %14s %10s %9s %10s %8s  %s\n", "true f [Hz]", "found f [Hz]", "err [Hz]", "true [dB]",
              "found [dB]", "err [dB]", "status");

  std::size_t found = 0;
  std::vector<bool> matched(peaks.size(), false);
  for (const Tone& t : kTones) {
    const double bin = t.frequency_hz / bin_hz;
    const std::optional<std::size_t> index = nearest_peak(peaks, bin);
    if (!index) {
      std::printf("  %12.4f %14s %10s %9.2f %10s %8s  MISSED\n", t.frequency_hz, "-", "-", t.level_db, "-",
                  "-");
      continue;
    }
    matched[*index] = true;
    const Peak* p = &peaks[*index];
    const double level_error = p->level_db - t.level_db;
    const bool level_ok = std::abs(level_error) <= kLevelToleranceDb;
    found += level_ok;
    std::printf("  %12.4f %14.4f %+10.4f %9.2f %10.2f %+8.2f  %s\n", t.frequency_hz, p->bin * bin_hz,
                (p->bin - bin) * bin_hz, t.level_db, p->level_db, level_error, level_ok ? "ok" : "LEVEL OFF");
  }
  std::size_t spurious = 0;
  for (std::size_t i = 0; i < peaks.size(); ++i) {
    if (matched[i]) continue;
    ++spurious;
    std::printf("  %12s %14.4f %10s %9s %10.2f %8s  SPURIOUS\n", "-", peaks[i].bin * bin_hz, "-", "-",
                peaks[i].level_db, "-");
  }

  const double seconds = timing.median_s;
  const double flops = 2.5 * static_cast<double>(n) * std::log2(static_cast<double>(n));
  std::printf("\ntransform: %s, up to %u threads: median %.3f ms over %u runs (fastest %.3f ms)\n",
              plan.describe().c_str(), o.threads ? o.threads : ripple::default_threads(), seconds * 1e3,
              o.runs, timing.min_s * 1e3);
  std::printf("throughput: %.1f Msamples/s, %.2f GFLOP/s (counting 2.5 N log2 N flops)\n",
              static_cast<double>(n) / seconds * 1e-6, flops / seconds * 1e-9);
  std::printf("result: %zu of %zu tones found within %.1f bin and %.1f dB, %zu spurious peaks\n", found,
              kTones.size(), kFrequencyToleranceBins, kLevelToleranceDb, spurious);
  if (found != kTones.size() || spurious != 0)
    throw std::runtime_error("demo: " + std::to_string(kTones.size() - found) + " of " +
                             std::to_string(kTones.size()) + " tones missed or off, " +
                             std::to_string(spurious) + " spurious peaks");
  return 0;
}

}  // namespace

Command add_demo_command(CLI::App& app) {
  auto o = std::make_shared<DemoOptions>();
  CLI::App* sub =
      app.add_subcommand("demo", "Find known tones in noise with a windowed r2c FFT, and time the transform");
  sub->add_option("--size", o->samples,
                  "number of samples (default 1048576); at 8192 and below the -75 dB tone sinks under the "
                  "threshold and the demo fails, as it should")
      ->check(CLI::Range(std::size_t{4096}, std::size_t{1} << 26));
  sub->add_option("--rate", o->sample_rate_hz, "sample rate in Hz (default 48000)")
      ->check(CLI::Range(32000.0, 1e9));
  sub->add_option("--seed", o->seed, "seed of the tone phases and the noise");
  sub->add_option("--runs", o->runs, "timed transforms (default 15)")->check(CLI::Range(1u, 10000u));
  sub->add_option("-t,--threads", o->threads, "worker threads (default: ripple's default)")
      ->check(CLI::Range(1u, 1024u));
  sub->add_option("--threshold", o->threshold_db,
                  "detection threshold above the noise floor, dB (default 20)")
      ->check(CLI::Range(3.0, 200.0));
  // `ripple demo radio`: the streaming pipeline on a synthesized radio recording.
  auto radio = std::make_shared<std::function<int()>>();
  add_demo_radio(sub, *radio);
  sub->require_subcommand(0, 1);
  return {sub, [o, radio] {
            const int code = (*radio)();
            return code >= 0 ? code : run_demo(*o);
          }};
}

}  // namespace ripple::cli
