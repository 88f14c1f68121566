// Spectral estimation with scipy.signal's semantics: welch (averaged, windowed periodograms),
// spectrogram (the periodogram, magnitude, angle or complex spectrum of every segment) and stft
// (the legacy scipy.signal.stft), for real or complex data (complex data gives two-sided
// spectra, as scipy); and SpectrogramStream, the spectrogram of a stream fed in blocks.
//
//   auto [f, pxx] = ripple::spectral::welch(ripple::ArrayView<const float>(x.data(), {x.size()}),
//                                           {.fs = 48000.0, .nperseg = 1024});
#pragma once

#include <complex>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "ripple/array.hpp"
#include "ripple/sample.hpp"
#include "ripple/windows.hpp"

namespace ripple::spectral {

enum class Detrend { none, constant, linear };
enum class Scaling { density, spectrum };
enum class Average { mean, median };
/// How stft extends the signal by nperseg / 2 samples at both ends (scipy's boundary; none:
/// no extension).
enum class Boundary { none, zeros, even, odd, constant };
/// What spectrogram returns per segment and bin (scipy's mode): scaled power, the complex
/// STFT value, its magnitude, its angle, or the angle unwrapped along frequency.
enum class SpectrogramMode { psd, complex, magnitude, angle, phase };

/// scipy.signal.welch's parameters, with its defaults.
struct WelchOptions {
  double fs = 1.0;
  windows::Window window{windows::Kind::hann, 0.0};
  /// Explicit window values instead of `window` (then nperseg defaults to their count).
  std::vector<double> window_values;
  /// Segment length; default 256, or the signal length when shorter (as scipy, which warns).
  std::optional<std::size_t> nperseg;
  /// Overlap; default nperseg / 2.
  std::optional<std::size_t> noverlap;
  /// FFT length (zero padding); default nperseg.
  std::optional<std::size_t> nfft;
  Detrend detrend = Detrend::constant;
  bool return_onesided = true;
  Scaling scaling = Scaling::density;
  Average average = Average::mean;
  int axis = -1;
};

/// Frequencies and the power spectral density (or power spectrum) along the axis.
template <class T>
struct Welch {
  std::vector<double> f;
  Array<T> pxx;  ///< x's shape with the axis replaced by the number of frequencies
};

/// scipy.signal.welch of real or complex data (float or double; the result is real, of x's
/// precision; complex data is always two-sided). Throws InvalidArgument for nperseg == 0,
/// noverlap >= nperseg, nfft < nperseg, fs <= 0, explicit window values longer than the
/// signal or not matching nperseg, a 0-d x, an axis out of range.
template <class T>
  requires Sample<std::remove_const_t<T>>
Welch<typename ripple::detail::real_of<std::remove_const_t<T>>::type> welch(ArrayView<T> x, const WelchOptions& options = {});

/// scipy.signal.spectrogram's parameters, with its defaults: a periodic Tukey window with
/// alpha 0.25, an overlap of nperseg / 8, mode psd.
struct SpectrogramOptions {
  double fs = 1.0;
  windows::Window window{windows::Kind::tukey, 0.25};
  std::vector<double> window_values;
  std::optional<std::size_t> nperseg;
  std::optional<std::size_t> noverlap;
  std::optional<std::size_t> nfft;
  Detrend detrend = Detrend::constant;
  bool return_onesided = true;
  Scaling scaling = Scaling::density;
  SpectrogramMode mode = SpectrogramMode::psd;
  int axis = -1;
};

template <class T>
struct Spectrogram {
  std::vector<double> f;  ///< frequencies
  std::vector<double> t;  ///< segment centres, in the units of 1 / fs
  /// x's shape with the axis replaced by the frequencies, plus a last axis of segments: the
  /// result of every mode but complex (empty then).
  Array<T> sxx;
  /// The same layout for mode complex (empty otherwise).
  Array<std::complex<T>> zxx;
};

/// scipy.signal.spectrogram of real or complex data. psd: the scaled power of every segment
/// (welch before averaging); the other modes take the STFT of each segment (scaled by the
/// square root of the psd scale, no boundary extension or padding) and return it, its
/// magnitude, angle or unwrapped angle. Throws as welch.
template <class T>
  requires Sample<std::remove_const_t<T>>
Spectrogram<typename ripple::detail::real_of<std::remove_const_t<T>>::type> spectrogram(ArrayView<T> x,
                                                                                const SpectrogramOptions& options = {});

/// scipy.signal.stft's parameters, with its defaults (a periodic Hann window, overlap
/// nperseg / 2, no detrending, zero extension at both ends, padding to whole segments,
/// spectrum scaling).
struct StftOptions {
  double fs = 1.0;
  windows::Window window{windows::Kind::hann, 0.0};
  std::vector<double> window_values;
  std::optional<std::size_t> nperseg;
  std::optional<std::size_t> noverlap;
  std::optional<std::size_t> nfft;
  Detrend detrend = Detrend::none;
  bool return_onesided = true;
  Boundary boundary = Boundary::zeros;
  /// Zero-pad the end so the last segment is whole.
  bool padded = true;
  Scaling scaling = Scaling::spectrum;
  int axis = -1;
};

template <class T>
struct Stft {
  std::vector<double> f;
  std::vector<double> t;
  Array<std::complex<T>> zxx;  ///< x's shape with the axis replaced by frequencies, plus a last axis of segments
};

/// scipy.signal.stft (the legacy function) of real or complex data. As scipy, a segment longer
/// than the signal is cut to its length. Throws as welch.
template <class T>
  requires Sample<std::remove_const_t<T>>
Stft<typename ripple::detail::real_of<std::remove_const_t<T>>::type> stft(ArrayView<T> x, const StftOptions& options = {});

/// The psd spectrogram of one stream fed in blocks of any sizes: each complete segment gives a
/// row of scaled powers, the rows equal to spectrogram() of the concatenated stream (mode psd;
/// options.axis and options.mode are ignored). With `average` > 1 every row is the mean of that
/// many consecutive segments (rtl_power's integration), and its time is their centre. T: float,
/// double or complex. Explicit window values require nperseg to match.
template <Sample T>
class SpectrogramStream {
 public:
  using Real = typename ripple::detail::real_of<T>::type;
  using Row = std::function<void(std::span<const Real> power, double t)>;

  /// nperseg defaults to 256 (it is never cut to a signal's length: the stream has none).
  /// Throws InvalidArgument as spectrogram, and for average == 0.
  explicit SpectrogramStream(const SpectrogramOptions& options, std::size_t average = 1);
  SpectrogramStream(SpectrogramStream&&) noexcept;
  SpectrogramStream& operator=(SpectrogramStream&&) noexcept;
  ~SpectrogramStream();

  const std::vector<double>& frequencies() const noexcept;
  std::size_t bins() const noexcept;
  /// Samples between consecutive segments (nperseg - noverlap).
  std::size_t step() const noexcept;
  /// Feeds samples; calls row() for every row they complete.
  void push(std::span<const T> x, const Row& row);
  /// Back to the start of a new stream.
  void reset();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ripple::spectral
