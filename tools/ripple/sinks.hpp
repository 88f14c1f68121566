// Where a chain ends: a sample file (any format io::open_writer knows), a Welch power spectral
// density (CSV or PNG plot), a spectrogram (PNG image with axes and colour bar, or CSV in
// rtl_power's layout), or a tone detector printing what it heard.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ripple/io/samples.hpp"
#include "stream_chain.hpp"

namespace ripple::cli {

/// Writes samples to `path` ("-": standard output). Refuses to write binary samples to a
/// terminal. Prints a warning on stderr (unless quiet) when values were clipped.
std::unique_ptr<Sink> make_writer_sink(const std::string& path, const io::WriteOptions& options, bool quiet);

struct SpectrumParams {
  std::size_t nperseg = 1024;
  std::optional<std::size_t> noverlap;  ///< default: nperseg / 2 (psd), nperseg / 8 (spectrogram)
  std::string window = "hann";
  std::string scaling = "density";  ///< density (V^2/Hz) or spectrum (V^2)
  double range_db = 90;             ///< PNG colour range below the maximum (spectrogram)
  std::size_t columns = 1000;       ///< most time columns kept (spectrogram)
  std::optional<double> integrate;  ///< seconds per row (spectrogram, rtl_power's -i)
};
/// `path`: .csv, .png or "-" (CSV on standard output). Checks the path (exists without force,
/// unknown extension) at construction, before any work.
std::unique_ptr<Sink> make_psd_sink(const std::string& path, const SpectrumParams& p, bool force);
std::unique_ptr<Sink> make_spectrogram_sink(const std::string& path, const SpectrumParams& p, bool force);

struct TonesParams {
  std::vector<double> frequencies;  ///< Hz
  std::vector<double> nulls;        ///< Hz
  double threshold_db = -20;
  double block_seconds = 0.02;
  bool require_all = false;  ///< fail (exit 1) when a tone is never detected
};
/// A run of consecutive blocks in which a tone was present.
struct ToneRun {
  std::size_t channel = 0;
  double frequency = 0;
  double start_s = 0, end_s = 0;
  double peak_db = 0;
};
/// Prints one line per run of consecutive blocks in which a tone was present, then a summary;
/// `runs`, when given, receives them too.
std::unique_ptr<Sink> make_tones_sink(const TonesParams& p, std::vector<ToneRun>* runs = nullptr);

/// Hands every block to each of `sinks` (the demo writes a WAV, a spectrogram and detects tones
/// in one pass).
std::unique_ptr<Sink> make_tee_sink(std::vector<std::unique_ptr<Sink>> sinks);

}  // namespace ripple::cli
