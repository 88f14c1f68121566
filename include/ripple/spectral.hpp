// Spectral estimation with scipy.signal's semantics: welch (averaged, windowed periodograms)
// and spectrogram (the periodogram of every segment).
//
//   auto [f, pxx] = ripple::spectral::welch(ripple::ArrayView<const float>(x.data(), {x.size()}),
//                                           {.fs = 48000.0, .nperseg = 1024});
#pragma once

#include <cstddef>
#include <optional>
#include <type_traits>
#include <vector>

#include "ripple/array.hpp"
#include "ripple/sample.hpp"
#include "ripple/windows.hpp"

namespace ripple::spectral {

enum class Detrend { none, constant, linear };
enum class Scaling { density, spectrum };
enum class Average { mean, median };

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

/// scipy.signal.welch of real data (float or double; the result has x's precision).
/// Throws InvalidArgument for nperseg == 0, noverlap >= nperseg, nfft < nperseg, fs <= 0,
/// explicit window values longer than the signal or not matching nperseg, a 0-d x, an axis out
/// of range.
template <class T>
  requires std::is_floating_point_v<std::remove_const_t<T>>
Welch<std::remove_const_t<T>> welch(ArrayView<T> x, const WelchOptions& options = {});

/// scipy.signal.spectrogram's parameters (mode 'psd'), with its defaults: a periodic Tukey
/// window with alpha 0.25 and an overlap of nperseg / 8.
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
  int axis = -1;
};

template <class T>
struct Spectrogram {
  std::vector<double> f;  ///< frequencies
  std::vector<double> t;  ///< segment centres, in the units of 1 / fs
  Array<T> sxx;           ///< x's shape with the axis replaced by the frequencies, plus a last axis of segments
};

/// scipy.signal.spectrogram of real data in 'psd' mode: the scaled power of every segment
/// (welch before averaging). Throws as welch.
template <class T>
  requires std::is_floating_point_v<std::remove_const_t<T>>
Spectrogram<std::remove_const_t<T>> spectrogram(ArrayView<T> x, const SpectrogramOptions& options = {});

}  // namespace ripple::spectral
