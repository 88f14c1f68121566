// The sample-file sink and the tone detector sink.
#include <unistd.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <map>

#include "commands.hpp"
#include "ripple/error.hpp"
#include "ripple/tones.hpp"
#include "sinks.hpp"
#include "units.hpp"

namespace ripple::cli {
namespace {

class WriterSink final : public Sink {
 public:
  WriterSink(std::string path, io::WriteOptions options, bool quiet)
      : path_(std::move(path)), options_(std::move(options)), quiet_(quiet) {
    if (path_ == "-" && ::isatty(STDOUT_FILENO) == 1)
      throw UsageError("refusing to write binary samples to a terminal; name an output file or redirect");
    if (path_ != "-" && !options_.force && std::filesystem::exists(path_))
      throw IoError("output file '" + path_ + "' exists; use --force to overwrite it");
  }
  void start(const io::StreamInfo& info) override { writer_ = io::open_writer(path_, info, options_); }
  void consume(std::span<const float> values) override {
    if (!values.empty()) writer_->write(values);
  }
  void finish() override {
    writer_->close();
    if (writer_->clipped() > 0 && !quiet_)
      std::fprintf(stderr, "ripple: warning: %llu values were outside the output's range and clipped\n",
                   static_cast<unsigned long long>(writer_->clipped()));
  }

 private:
  std::string path_;
  io::WriteOptions options_;
  bool quiet_;
  std::unique_ptr<io::SampleWriter> writer_;
};

class TonesSink final : public Sink {
 public:
  TonesSink(const TonesParams& p, std::vector<ToneRun>* out) : p_(p), out_(out) {
    if (p.frequencies.empty()) throw UsageError("tones: give the frequencies to detect with --freq (e.g. --freq 19k,21k)");
    if (!(p.block_seconds > 0)) throw UsageError("tones: --interval must be positive");
  }
  void start(const io::StreamInfo& info) override {
    if (!info.sample_rate) throw UsageError("tones: the input has no sample rate; give it with --rate");
    fs_ = *info.sample_rate;
    // Complex (IQ) input is analysed as complex: a tone at -f (below the centre) is told from +f.
    const double lowest = info.is_complex ? -fs_ / 2 : 0.0;
    for (double f : p_.frequencies)
      if (!(f > lowest && f < fs_ / 2))
        throw UsageError("tones: " + format_frequency(f) + " is not between " + format_frequency(lowest) +
                         " and the Nyquist frequency " + format_frequency(fs_ / 2) +
                         (info.is_complex ? "" : " (real input)"));
    block_ = std::max<std::size_t>(16, static_cast<std::size_t>(std::round(p_.block_seconds * fs_)));
    parts_ = info.is_complex ? 2 : 1;
    channels_ = info.channels;
    complex_ = info.is_complex;
    tones::ToneDetectorOptions o;
    o.threshold_db = p_.threshold_db;
    o.null_frequencies = p_.nulls;
    o.complex = complex_;
    for (std::size_t c = 0; c < channels_; ++c) detectors_.emplace_back(p_.frequencies, fs_, block_, o);
    runs_.resize(channels_);
  }
  void consume(std::span<const float> values) override {
    const std::size_t vpf = channels_ * parts_;
    const std::size_t frames = values.size() / vpf;
    for (std::size_t c = 0; c < channels_; ++c) {
      if (complex_) {
        channel_iq_.resize(frames);
        for (std::size_t t = 0; t < frames; ++t) {
          channel_iq_[t] = {values[t * vpf + c * parts_], values[t * vpf + c * parts_ + 1]};
        }
        for (const tones::Detection& d : detectors_[c].process(std::span<const std::complex<float>>(channel_iq_))) {
          record(c, d);
        }
        continue;
      }
      channel_.resize(frames);
      for (std::size_t t = 0; t < frames; ++t) channel_[t] = values[t * vpf + c * parts_];
      for (const tones::Detection& d : detectors_[c].process(std::span<const float>(channel_))) record(c, d);
    }
  }
  void finish() override {
    const double block_s = double(block_) / fs_;
    std::size_t found = 0;
    for (std::size_t c = 0; c < channels_; ++c) {
      for (double f : p_.frequencies) {
        const auto it = runs_[c].find(f);
        if (it == runs_[c].end()) {
          std::printf("%stone %s: not detected\n", prefix(c).c_str(), format_frequency(f).c_str());
          continue;
        }
        ++found;
        for (const Run& r : it->second) {
          if (out_) out_->push_back({c, f, double(r.first) * block_s, double(r.last + 1) * block_s, r.peak_db});
          std::printf("%stone %s: present from %.3f s to %.3f s (%zu blocks), level %.1f dB\n", prefix(c).c_str(),
                      format_frequency(f).c_str(), double(r.first) * block_s, double(r.last + 1) * block_s,
                      r.last - r.first + 1, r.peak_db);
        }
      }
    }
    const std::size_t wanted = p_.frequencies.size() * channels_;
    std::printf("%zu of %zu tones detected (blocks of %zu samples, threshold %.1f dB)\n", found, wanted, block_,
                p_.threshold_db);
    std::fflush(stdout);
    if (p_.require_all && found != wanted)
      throw Error("tones: " + std::to_string(wanted - found) + " of " + std::to_string(wanted) + " tones not detected");
  }

 private:
  struct Run {
    std::size_t first = 0, last = 0;
    double peak_db = -1e300;
  };
  std::string prefix(std::size_t c) const { return channels_ > 1 ? "channel " + std::to_string(c) + ": " : ""; }
  void record(std::size_t c, const tones::Detection& d) {
    auto& runs = runs_[c][d.frequency];
    if (runs.empty() || runs.back().last + 1 != d.block) runs.push_back({d.block, d.block, d.level_db});
    runs.back().last = d.block;
    runs.back().peak_db = std::max(runs.back().peak_db, d.level_db);
  }

  TonesParams p_;
  std::vector<ToneRun>* out_;
  double fs_ = 0;
  std::size_t block_ = 0, parts_ = 1, channels_ = 1;
  bool complex_ = false;
  std::vector<tones::ToneDetector> detectors_;
  std::vector<std::map<double, std::vector<Run>>> runs_;
  std::vector<float> channel_;
  std::vector<std::complex<float>> channel_iq_;
};

}  // namespace

std::unique_ptr<Sink> make_writer_sink(const std::string& path, const io::WriteOptions& options, bool quiet) {
  return std::make_unique<WriterSink>(path, options, quiet);
}

std::unique_ptr<Sink> make_tones_sink(const TonesParams& p, std::vector<ToneRun>* runs) {
  return std::make_unique<TonesSink>(p, runs);
}

namespace {
class TeeSink final : public Sink {
 public:
  explicit TeeSink(std::vector<std::unique_ptr<Sink>> sinks) : sinks_(std::move(sinks)) {}
  void start(const io::StreamInfo& info) override {
    for (auto& s : sinks_) s->start(info);
  }
  void consume(std::span<const float> values) override {
    for (auto& s : sinks_) s->consume(values);
  }
  void finish() override {
    for (auto& s : sinks_) s->finish();
  }

 private:
  std::vector<std::unique_ptr<Sink>> sinks_;
};
}  // namespace

std::unique_ptr<Sink> make_tee_sink(std::vector<std::unique_ptr<Sink>> sinks) {
  return std::make_unique<TeeSink>(std::move(sinks));
}

}  // namespace ripple::cli
