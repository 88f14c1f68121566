// The psd (Welch) and spectrogram sinks, on ripple::spectral::SpectrogramStream: each complete
// segment gives a row of scaled powers; the psd is their mean (scipy's welch), the spectrogram
// keeps them (averaged in time to a bounded number of columns).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "commands.hpp"
#include "plot.hpp"
#include "ripple/error.hpp"
#include "ripple/spectral.hpp"
#include "sinks.hpp"
#include "units.hpp"

namespace ripple::cli {
namespace {

using RowFn = std::function<void(std::span<const float>, double)>;

// SpectrogramStream of one channel, real or complex.
class ChannelSpectra {
 public:
  virtual ~ChannelSpectra() = default;
  virtual void push(std::span<const float> values, const RowFn& row) = 0;
  virtual const std::vector<double>& frequencies() const = 0;
  virtual std::size_t step() const = 0;
};

template <class T>
class ChannelSpectraOf final : public ChannelSpectra {
 public:
  ChannelSpectraOf(const spectral::SpectrogramOptions& o, std::size_t average) : stream_(o, average) {}
  void push(std::span<const float> values, const RowFn& row) override {
    stream_.push(std::span<const T>(reinterpret_cast<const T*>(values.data()), values.size() * sizeof(float) / sizeof(T)),
                 [&](std::span<const float> p, double t) { row(p, t); });
  }
  const std::vector<double>& frequencies() const override { return stream_.frequencies(); }
  std::size_t step() const override { return stream_.step(); }

 private:
  spectral::SpectrogramStream<T> stream_;
};

enum class OutputKind { csv, png, stdout_csv };

OutputKind output_kind(const std::string& path, bool force, const char* who) {
  if (path == "-") return OutputKind::stdout_csv;
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext != ".csv" && ext != ".png")
    throw UsageError(std::string(who) + ": the output must be a .csv or .png file (or - for CSV on standard output), not '" +
                     path + "'");
  if (std::filesystem::is_directory(path)) throw IoError("cannot write '" + path + "': is a directory");
  if (!force && std::filesystem::exists(path))
    throw IoError("output file '" + path + "' exists; use --force to overwrite it");
  return ext == ".csv" ? OutputKind::csv : OutputKind::png;
}

// Text to a file (via a temporary renamed into place) or to standard output.
void write_text(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return;
  }
  const std::filesystem::path target(path);
  const auto temp = target.parent_path() / ("." + target.filename().string() + ".ripple-partial");
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw IoError("cannot create '" + path + "'");
    out << text;
    if (!out.flush()) throw IoError("writing '" + path + "' failed");
  }
  std::filesystem::rename(temp, target);
}

// Common to both sinks: per-channel spectra of the stream, frequencies in ascending order
// (two-sided spectra of complex streams come in FFT order), absolute when the centre is known.
class SpectraSink : public Sink {
 protected:
  SpectraSink(std::string path, const SpectrumParams& p, bool force, const char* who, std::size_t default_overlap_div)
      : path_(std::move(path)), p_(p), who_(who), kind_(output_kind(path_, force, who)),
        default_overlap_div_(default_overlap_div) {
    if (p.nperseg < 2) throw UsageError(std::string(who) + ": --nperseg must be at least 2");
  }

  void start_spectra(const io::StreamInfo& info, std::size_t average) {
    if (!info.sample_rate) throw UsageError(who_ + ": the input has no sample rate; give it with --rate");
    info_ = info;
    spectral::SpectrogramOptions o;
    o.fs = *info.sample_rate;
    o.window = windows::Window::parse(p_.window);
    o.nperseg = p_.nperseg;
    o.noverlap = p_.noverlap ? *p_.noverlap : p_.nperseg / default_overlap_div_;
    if (p_.scaling != "density" && p_.scaling != "spectrum")
      throw UsageError(who_ + ": --scaling must be density or spectrum, not '" + p_.scaling + "'");
    o.scaling = p_.scaling == "density" ? spectral::Scaling::density : spectral::Scaling::spectrum;
    o.detrend = spectral::Detrend::constant;
    o.return_onesided = !info.is_complex;
    for (std::size_t c = 0; c < info.channels; ++c) {
      if (info.is_complex)
        channels_.push_back(std::make_unique<ChannelSpectraOf<Complex>>(o, average));
      else
        channels_.push_back(std::make_unique<ChannelSpectraOf<float>>(o, average));
    }
    const std::vector<double>& f = channels_[0]->frequencies();
    order_.resize(f.size());
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return f[a] < f[b]; });
    const double offset = info.is_complex && info.center_frequency ? *info.center_frequency : 0.0;
    for (std::size_t i : order_) freqs_.push_back(f[i] + offset);
    parts_ = info.is_complex ? 2 : 1;
  }

  // Feeds the interleaved frames to every channel; row(channel, power, t).
  template <class F>
  void push_all(std::span<const float> values, F&& row) {
    const std::size_t channels = channels_.size();
    const std::size_t vpf = channels * parts_;
    for (std::size_t c = 0; c < channels; ++c) {
      std::span<const float> mine = values;
      if (channels > 1) {
        scratch_.resize(values.size() / channels);
        for (std::size_t t = 0; t < values.size() / vpf; ++t)
          for (std::size_t k = 0; k < parts_; ++k) scratch_[t * parts_ + k] = values[t * vpf + c * parts_ + k];
        mine = scratch_;
      }
      channels_[c]->push(mine, [&](std::span<const float> p, double t) { row(c, p, t); });
    }
  }

  std::string axis_label() const {
    return info_.is_complex && info_.center_frequency ? "frequency [Hz] (RF)" : "frequency [Hz]";
  }
  std::string unit() const { return p_.scaling == "density" ? "dB re 1/Hz" : "dB"; }

  std::string path_;
  SpectrumParams p_;
  std::string who_;
  OutputKind kind_;
  std::size_t default_overlap_div_;
  io::StreamInfo info_;
  std::vector<std::unique_ptr<ChannelSpectra>> channels_;
  std::vector<std::size_t> order_;  // ascending frequency order of the bins
  std::vector<double> freqs_;
  std::size_t parts_ = 1;
  std::vector<float> scratch_;
};

class PsdSink final : public SpectraSink {
 public:
  PsdSink(const std::string& path, const SpectrumParams& p, bool force) : SpectraSink(path, p, force, "psd", 2) {}
  void start(const io::StreamInfo& info) override {
    start_spectra(info, 1);
    sums_.assign(info.channels, std::vector<double>(freqs_.size(), 0.0));
  }
  void consume(std::span<const float> values) override {
    push_all(values, [&](std::size_t c, std::span<const float> power, double) {
      for (std::size_t i = 0; i < power.size(); ++i) sums_[c][i] += power[i];
      if (c == 0) ++segments_;
    });
  }
  void finish() override {
    if (segments_ == 0)
      throw Error("psd: the stream is shorter than one segment of " + std::to_string(p_.nperseg) +
                  " samples (use a smaller --nperseg)");
    std::vector<std::vector<double>> psd(sums_.size());
    for (std::size_t c = 0; c < sums_.size(); ++c)
      for (std::size_t i : order_) psd[c].push_back(sums_[c][i] / double(segments_));
    if (kind_ == OutputKind::png) {
      LinePlot plot;
      plot.title = "power spectral density (Welch, " + std::to_string(segments_) + " segments of " +
                   std::to_string(p_.nperseg) + ", " + p_.window + ")";
      plot.xs = freqs_;
      plot.x = {axis_label(), freqs_.front(), freqs_.back()};
      double lo = 1e300, hi = -1e300;
      for (std::size_t c = 0; c < psd.size(); ++c) {
        std::vector<double> db;
        for (double v : psd[c]) db.push_back(10 * std::log10(std::max(v, 1e-300)));
        for (double v : db)
          if (v > -290) lo = std::min(lo, v), hi = std::max(hi, v);
        plot.ys.push_back(std::move(db));
        plot.names.push_back("channel " + std::to_string(c));
      }
      lo = std::max(lo, hi - 200);
      plot.y = {"PSD [" + unit() + "]", std::floor(lo / 10) * 10, std::ceil(hi / 10) * 10 + (hi == lo ? 10 : 0)};
      write_line_plot(path_, plot);
      return;
    }
    std::string text = "frequency_hz";
    for (std::size_t c = 0; c < psd.size(); ++c) text += psd.size() == 1 ? ",psd" : ",psd_" + std::to_string(c);
    text += "\n";
    char cell[64];
    for (std::size_t i = 0; i < freqs_.size(); ++i) {
      std::snprintf(cell, sizeof cell, "%.17g", freqs_[i]);
      text += cell;
      for (const auto& ch : psd) {
        std::snprintf(cell, sizeof cell, ",%.9g", ch[i]);
        text += cell;
      }
      text += "\n";
    }
    write_text(path_, text);
  }

 private:
  std::vector<std::vector<double>> sums_;
  std::size_t segments_ = 0;
};

class SpectrogramSink final : public SpectraSink {
 public:
  SpectrogramSink(const std::string& path, const SpectrumParams& p, bool force)
      : SpectraSink(path, p, force, "spectrogram", 8) {
    if (p.columns < 2) throw UsageError("spectrogram: --columns must be at least 2");
  }
  void start(const io::StreamInfo& info) override {
    // Segments per row: --integrate seconds, else enough to fit the stream (when its length is
    // known) in the columns; rows are merged in pairs if more arrive anyway.
    const std::size_t step = p_.nperseg - (p_.noverlap ? *p_.noverlap : p_.nperseg / 8);
    if (p_.noverlap && *p_.noverlap >= p_.nperseg) throw UsageError("spectrogram: --noverlap must be below --nperseg");
    std::size_t average = 1;
    if (p_.integrate && info.sample_rate) {
      average = std::max<std::size_t>(1, static_cast<std::size_t>(std::round(*p_.integrate * *info.sample_rate / double(step))));
    } else if (info.frames && kind_ == OutputKind::png) {
      const std::uint64_t segments = *info.frames / step;
      average = std::max<std::uint64_t>(1, (segments + p_.columns - 1) / p_.columns);
    }
    average_ = average;
    start_spectra(info, average);
    row_.assign(freqs_.size(), 0.0f);
  }
  void consume(std::span<const float> values) override {
    const std::size_t channels = channels_.size();
    push_all(values, [&](std::size_t c, std::span<const float> power, double t) {
      for (std::size_t i = 0; i < order_.size(); ++i) row_[i] += power[order_[i]] / float(channels);
      if (c + 1 < channels) return;
      rows_.insert(rows_.end(), row_.begin(), row_.end());
      times_.push_back(t);
      weights_.push_back(1);
      std::fill(row_.begin(), row_.end(), 0.0f);
      if (kind_ == OutputKind::png && times_.size() > 2 * p_.columns) merge_pairs();
    });
  }
  void finish() override {
    if (times_.empty())
      throw Error("spectrogram: the stream is shorter than one segment of " + std::to_string(p_.nperseg) +
                  " samples (use a smaller --nperseg)");
    if (kind_ == OutputKind::png)
      write_png();
    else
      write_csv();
  }

 private:
  // Halves the number of rows (bounded memory for streams of unknown length).
  void merge_pairs() {
    const std::size_t bins = freqs_.size();
    const std::size_t n = times_.size() / 2;
    for (std::size_t r = 0; r < n; ++r) {
      const double w0 = weights_[2 * r], w1 = weights_[2 * r + 1];
      for (std::size_t i = 0; i < bins; ++i)
        rows_[r * bins + i] = float((rows_[2 * r * bins + i] * w0 + rows_[(2 * r + 1) * bins + i] * w1) / (w0 + w1));
      times_[r] = (times_[2 * r] * w0 + times_[2 * r + 1] * w1) / (w0 + w1);
      weights_[r] = w0 + w1;
    }
    const std::size_t keep = times_.size() % 2;  // an odd last row stays as it is
    if (keep) {
      std::copy_n(rows_.begin() + std::ptrdiff_t((times_.size() - 1) * bins), bins, rows_.begin() + std::ptrdiff_t(n * bins));
      times_[n] = times_.back();
      weights_[n] = weights_.back();
    }
    rows_.resize((n + keep) * bins);
    times_.resize(n + keep);
    weights_.resize(n + keep);
  }

  void write_png() {
    ImagePlot plot;
    const std::size_t bins = freqs_.size(), cols = times_.size();
    plot.columns = cols;
    plot.rows = bins;
    plot.values.resize(bins * cols);
    double vmax = -1e300;
    for (std::size_t c = 0; c < cols; ++c)
      for (std::size_t i = 0; i < bins; ++i) {
        const double db = 10 * std::log10(std::max<double>(rows_[c * bins + i], 1e-30));
        plot.values[i * cols + c] = float(db);
        vmax = std::max(vmax, db);
      }
    plot.vmax = std::ceil(vmax / 10) * 10;
    plot.vmin = plot.vmax - p_.range_db;
    const double dt = cols > 1 ? (times_.back() - times_.front()) / double(cols - 1) : double(p_.nperseg) / *info_.sample_rate;
    plot.x = {"time [s]", times_.front() - dt / 2, times_.back() + dt / 2};
    const double df = bins > 1 ? (freqs_.back() - freqs_.front()) / double(bins - 1) : 1;
    plot.y = {axis_label(), freqs_.front() - df / 2, freqs_.back() + df / 2};
    plot.colour_label = unit();
    plot.title = "spectrogram, " + format_frequency(*info_.sample_rate) + " sample rate, " + std::to_string(p_.nperseg) +
                 "-point " + p_.window + " segments";
    write_image_plot(path_, plot);
  }

  // rtl_power's CSV: date, time, Hz low, Hz high, Hz step, samples, dB, dB, ...
  void write_csv() {
    std::time_t origin = 0;
    double origin_frac = 0;
    if (info_.datetime) {
      std::tm tm{};
      const char* rest = strptime(info_.datetime->c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
      if (rest) {
        origin = timegm(&tm);
        if (*rest == '.') origin_frac = std::atof(rest);
      }
    }
    const std::size_t bins = freqs_.size();
    const double step_hz = bins > 1 ? freqs_[1] - freqs_[0] : 0;
    std::string text;
    char cell[128];
    for (std::size_t r = 0; r < times_.size(); ++r) {
      const double t = origin_frac + times_[r];
      const std::time_t when = origin + static_cast<std::time_t>(std::floor(t));
      std::tm tm{};
      gmtime_r(&when, &tm);
      std::strftime(cell, sizeof cell, "%Y-%m-%d, %H:%M:%S", &tm);
      text += cell;
      std::snprintf(cell, sizeof cell, ", %.0f, %.0f, %.2f, %zu", freqs_.front(), freqs_.back() + step_hz, step_hz,
                    static_cast<std::size_t>(weights_[r] * double(average_ * p_.nperseg)));
      text += cell;
      for (std::size_t i = 0; i < bins; ++i) {
        std::snprintf(cell, sizeof cell, ", %.2f", 10 * std::log10(std::max<double>(rows_[r * bins + i], 1e-30)));
        text += cell;
      }
      text += "\n";
    }
    write_text(path_, text);
  }

  std::size_t average_ = 1;
  std::vector<float> row_;
  std::vector<float> rows_;
  std::vector<double> times_, weights_;
};

}  // namespace

std::unique_ptr<Sink> make_psd_sink(const std::string& path, const SpectrumParams& p, bool force) {
  return std::make_unique<PsdSink>(path, p, force);
}
std::unique_ptr<Sink> make_spectrogram_sink(const std::string& path, const SpectrumParams& p, bool force) {
  return std::make_unique<SpectrogramSink>(path, p, force);
}

}  // namespace ripple::cli
