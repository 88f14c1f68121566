// `ripple demo radio`: the command line's main job on a realistic recording. Synthesizes 2 s of
// a 2.4 Msps cs16 SigMF capture (three FM carriers, a chirp sweeping the band, and in a channel
// 300 kHz up a pair of near-ultrasonic beacon tones, in noise), draws its wideband spectrogram,
// then shifts the channel to baseband, decimates by 50 (CIC 25 + compensation FIR 2) to
// 48 kHz, takes the upper sideband (real part), highpasses at 18 kHz, and in one pass writes the
// channel's WAV and spectrogram and detects the tones. Prints what it found and each stage's
// throughput; fails when a tone is missed or found at the wrong times.
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <random>

#include "commands.hpp"
#include "ripple/error.hpp"
#include "ripple/io/samples.hpp"
#include "sinks.hpp"
#include "steps.hpp"
#include "units.hpp"

namespace ripple::cli {
namespace {

constexpr double kRate = 2.4e6, kSeconds = 2.0, kCentre = 100.0e6, kChannel = 300e3;

struct Beacon {
  double frequency;  // in the channel (audio) Hz
  double on_s, off_s;
};
const Beacon kBeacons[] = {{20200, 0.2, 1.8}, {21200, 0.6, 1.4}};

struct RadioOptions {
  std::string out = "ripple-demo";
  bool force = false;
  std::uint64_t seed = 5;
};

// The recording, block by block: carriers with slow FM, a linear chirp from -1 to +1 MHz, the
// beacon tones at kChannel + f (so the channel's upper sideband carries them), complex noise.
double synthesize(const std::string& path, const RadioOptions& o) {
  io::StreamInfo info;
  info.is_complex = true;
  info.sample_rate = kRate;
  info.center_frequency = kCentre;
  info.datetime = "2026-11-21T12:00:00Z";
  info.source_format = io::SampleFormat::cs16;
  auto writer = io::open_writer(path, info, {.format = std::nullopt, .encoding = std::nullopt, .force = o.force});
  const auto start = std::chrono::steady_clock::now();
  std::mt19937_64 rng(o.seed);
  std::normal_distribution<double> noise(0.0, 0.003);
  struct Carrier {
    double f, amplitude, deviation, rate;
  };
  const Carrier carriers[] = {{-600e3, 0.1, 5e3, 1000}, {250e3, 0.08, 3e3, 400}, {700e3, 0.06, 8e3, 2500}};
  const std::size_t n = static_cast<std::size_t>(kRate * kSeconds);
  constexpr std::size_t kBlock = 1 << 16;
  std::vector<float> block(2 * kBlock);
  const double two_pi = 2 * std::numbers::pi;
  for (std::size_t at = 0; at < n; at += kBlock) {
    const std::size_t m = std::min(kBlock, n - at);
    for (std::size_t i = 0; i < m; ++i) {
      const double t = double(at + i) / kRate;
      std::complex<double> v(noise(rng), noise(rng));
      for (const Carrier& c : carriers)
        v += c.amplitude * std::polar(1.0, two_pi * c.f * t + c.deviation / c.rate * std::sin(two_pi * c.rate * t));
      const double k = 1e6;  // chirp rate, Hz/s: -1 MHz at t = 0 to +1 MHz at t = 2 s
      v += 0.05 * std::polar(1.0, two_pi * (-1e6 * t + 0.5 * k * t * t));
      for (const Beacon& b : kBeacons)
        if (t >= b.on_s && t < b.off_s) v += 0.02 * std::polar(1.0, two_pi * (kChannel + b.frequency) * t);
      block[2 * i] = float(v.real());
      block[2 * i + 1] = float(v.imag());
    }
    writer->write(std::span(block).first(2 * m));
  }
  writer->close();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void print_report(const char* title, const RunReport& r) {
  std::printf("\n%s\n%s", title, format_report(r).c_str());
}

int run_radio(const RadioOptions& o) {
  std::filesystem::create_directories(o.out);
  const auto path = [&](const char* name) { return (std::filesystem::path(o.out) / name).string(); };
  const std::string recording = path("recording.sigmf-meta");
  for (const char* name : {"recording.sigmf-meta", "recording.sigmf-data", "wideband.png", "channel.png", "channel.wav"})
    if (!o.force && std::filesystem::exists(path(name)))
      throw IoError("output file '" + path(name) + "' exists; use --force to overwrite it");

  const double synth_s = synthesize(recording, o);
  const double samples = kRate * kSeconds;
  std::printf("ripple demo radio: %.1f s of cs16 IQ at %s around %s (SigMF, %s): 3 FM carriers, a chirp, beacon "
              "tones at +%s, noise\n",
              kSeconds, format_frequency(kRate).c_str(), format_frequency(kCentre).c_str(), recording.c_str(),
              format_frequency(kChannel).c_str());
  std::printf("synthesis: %.0f ms (%s)\n", synth_s * 1e3, (format_si(samples / synth_s) + "S/s").c_str());

  RunOptions run;
  run.progress = false;
  {
    auto reader = io::open_reader(recording);
    SpectrumParams sp;
    sp.nperseg = 2048;
    auto sink = make_spectrogram_sink(path("wideband.png"), sp, true);
    std::vector<std::unique_ptr<Step>> none;
    print_report("wideband spectrogram -> wideband.png", run_chain(*reader, none, *sink, run));
  }

  std::vector<ToneRun> runs;
  RunReport channel;
  {
    auto reader = io::open_reader(recording);
    std::vector<std::unique_ptr<Step>> steps;
    steps.push_back(make_shift(-kChannel));
    steps.push_back(make_decimate({.ratio = 50}));
    steps.push_back(make_real_part());
    FilterParams hp;
    hp.type = "highpass";
    hp.cutoffs = {18000};
    hp.order = 6;
    steps.push_back(make_filter(hp));
    std::vector<std::unique_ptr<Sink>> sinks;
    sinks.push_back(
        make_writer_sink(path("channel.wav"), {.format = std::nullopt, .encoding = "s16", .force = true}, false));
    SpectrumParams sp;
    sp.nperseg = 512;
    sinks.push_back(make_spectrogram_sink(path("channel.png"), sp, true));
    TonesParams tp;
    for (const Beacon& b : kBeacons) tp.frequencies.push_back(b.frequency);
    tp.threshold_db = -10;  // band-limited noise alone reads up to about -15 dB in a 960-sample block
    std::printf("\nchannel at +%s: shift, decimate 50 (CIC + compensation FIR), real part (USB), highpass 18 kHz "
                "-> channel.wav, channel.png, tones:\n",
                format_frequency(kChannel).c_str());
    std::fflush(stdout);
    sinks.push_back(make_tones_sink(tp, &runs));
    auto tee = make_tee_sink(std::move(sinks));
    channel = run_chain(*reader, steps, *tee, run);
  }
  print_report("channel pipeline", channel);

  // Each beacon must be found once, within a block or two of its true on and off times.
  constexpr double kTolerance = 0.05;
  std::size_t found = 0;
  std::printf("\n  %10s %12s %12s %12s %12s  %s\n", "tone", "true on", "found on", "true off", "found off", "status");
  for (const Beacon& b : kBeacons) {
    const ToneRun* match = nullptr;
    std::size_t count = 0;
    for (const ToneRun& r : runs)
      if (r.frequency == b.frequency) {
        ++count;
        match = &r;
      }
    const bool ok = count == 1 && std::abs(match->start_s - b.on_s) <= kTolerance &&
                    std::abs(match->end_s - b.off_s) <= kTolerance;
    found += ok;
    if (match)
      std::printf("  %10s %11.3fs %11.3fs %11.3fs %11.3fs  %s\n", format_frequency(b.frequency).c_str(), b.on_s,
                  match->start_s, b.off_s, match->end_s, ok ? "ok" : (count > 1 ? "INTERRUPTED" : "WRONG TIME"));
    else
      std::printf("  %10s %11.3fs %12s %11.3fs %12s  MISSED\n", format_frequency(b.frequency).c_str(), b.on_s, "-",
                  b.off_s, "-");
  }
  std::printf("result: %zu of %zu beacon tones found at the right times; files in %s/\n", found, std::size(kBeacons),
              o.out.c_str());
  if (found != std::size(kBeacons))
    throw Error("demo radio: " + std::to_string(std::size(kBeacons) - found) + " beacon tones missed or mistimed");
  return 0;
}

}  // namespace

void add_demo_radio(CLI::App* demo, std::function<int()>& run_radio_out) {
  auto o = std::make_shared<RadioOptions>();
  CLI::App* sub = demo->add_subcommand(
      "radio", "the CLI's main job: synthesize a 2.4 Msps SigMF recording, decimate a channel with CIC + FIR, "
               "filter, write spectrograms and a WAV, detect beacon tones, report each stage's throughput");
  sub->add_option("--out", o->out, "directory for the files (default ripple-demo)");
  sub->add_flag("-f,--force", o->force, "overwrite the files of an earlier run");
  sub->add_option("--seed", o->seed, "seed of the noise");
  run_radio_out = [o, sub]() -> int { return sub->parsed() ? run_radio(*o) : -1; };
}

}  // namespace ripple::cli
