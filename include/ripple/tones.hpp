// Tone measurement and detection on blocks of a stream: the Goertzel algorithm (one DFT term at
// any frequency, not only bin centres) and a detector that reports which of a set of tones are
// present in each block, optionally requiring other frequencies to be quiet.
//
//   ripple::tones::ToneDetector dtmf({697, 770, 852, 941, 1209, 1336, 1477}, 8000.0, 205,
//                                    {.threshold_db = -10.0});
//   for (const auto& hit : dtmf.process(block)) { ... hit.frequency, hit.level_db ... }
#pragma once

#include <complex>
#include <cstddef>
#include <span>
#include <vector>

namespace ripple::tones {

/// The DFT of x at frequency f (same units as fs): sum_n x[n] e^{-2 pi i f n / fs}, by the
/// generalized Goertzel recurrence (exact for any f, not only bin centres), in double. Its
/// rounding error grows like n^2 eps for f near 0 or fs/2 (about 2e-9 absolute for n = 4096
/// unit-variance samples at 0.9997 fs/2): fine for detection, not for spectra of long blocks.
/// Throws InvalidArgument for fs <= 0 or f outside [0, fs/2].
std::complex<double> goertzel(std::span<const float> x, double f, double fs);
std::complex<double> goertzel(std::span<const double> x, double f, double fs);
/// The same for complex (IQ) data, f in [-fs/2, fs/2] (negative: below the centre frequency).
std::complex<double> goertzel(std::span<const std::complex<float>> x, double f, double fs);
std::complex<double> goertzel(std::span<const std::complex<double>> x, double f, double fs);

/// Level of a tone in a block relative to the block's mean power, in dB: 10 log10(2 |X(f)|^2 /
/// n^2 / mean(x^2)). A pure sine at f gives 0 dB (at a bin centre), white noise about
/// -10 log10(n / 2).
double tone_level_db(std::span<const double> x, double f, double fs);
/// Complex data: 10 log10(|X(f)|^2 / n^2 / mean(|x|^2)); a complex exponential at f gives 0 dB.
double tone_level_db(std::span<const std::complex<double>> x, double f, double fs);

struct ToneDetectorOptions {
  /// A tone is present when its level (tone_level_db) is at least this.
  double threshold_db = -6.0;
  /// Frequencies that must stay below the threshold for any detection in the block (e.g.
  /// harmonics or a pilot that marks interference).
  std::vector<double> null_frequencies;
  /// Complex (IQ) samples: frequencies may be negative, in (-fs/2, fs/2), and process() takes
  /// complex data (real data is rejected, and the other way round).
  bool complex = false;
};

struct Detection {
  std::size_t block = 0;  ///< index of the block in the stream
  double frequency = 0;   ///< one of the detector's frequencies
  double level_db = 0;
};

/// Detects tones in consecutive blocks of `block` samples of a stream fed in pieces of any size
/// (a partial block is kept for the next call).
class ToneDetector {
 public:
  /// Throws InvalidArgument for no frequencies, a frequency outside (0, fs/2) (or (-fs/2, fs/2)
  /// for complex samples), fs <= 0, block == 0.
  ToneDetector(std::vector<double> frequencies, double fs, std::size_t block, ToneDetectorOptions options = {});
  /// Feeds samples; returns the detections of every block completed by them.
  std::vector<Detection> process(std::span<const double> x);
  std::vector<Detection> process(std::span<const float> x);
  /// Complex samples (options.complex); throws InvalidArgument when the kind does not match.
  std::vector<Detection> process(std::span<const std::complex<double>> x);
  std::vector<Detection> process(std::span<const std::complex<float>> x);
  void reset();

 private:
  std::vector<double> frequencies_;
  double fs_;
  std::size_t block_;
  ToneDetectorOptions options_;
  std::vector<double> pending_;
  std::vector<std::complex<double>> pending_iq_;
  std::size_t blocks_done_ = 0;
  template <class V>
  std::vector<Detection> analyse(std::span<const V> block);
  template <class V, class In>
  std::vector<Detection> feed(std::vector<V>& pending, std::span<const In> x);
};

}  // namespace ripple::tones
