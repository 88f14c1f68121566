// What welch and spectrogram share (scipy's _spectral_helper in psd mode): choosing the window
// and segment layout, and transforming every segment of a line (detrended, windowed,
// zero-padded) into its scaled power spectrum.
#pragma once

#include <algorithm>
#include <complex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/scratch.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/array.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"
#include "ripple/runtime.hpp"
#include "ripple/spectral.hpp"

namespace ripple::spectral::detail {

template <class U>
struct Segments {
  std::size_t nperseg = 0, noverlap = 0, step = 0, nfft = 0, count = 0, bins = 0;
  bool onesided = true;
  Detrend detrend = Detrend::constant;
  std::vector<U> window;
  U scale = 1;  // of |X|^2: density or spectrum
  std::vector<double> frequencies;
};

/// Validates and lays out the segments of lines of n samples (scipy's _triage_segments and
/// checks). `who` names the function in error messages; noverlap defaults to
/// nperseg / default_overlap_divisor.
template <class U, class Options>
Segments<U> plan_segments(const char* who, std::size_t n, const Options& o, std::size_t default_overlap_divisor,
                          bool complex_input = false) {
  const std::string name(who);
  if (!(o.fs > 0) || !std::isfinite(o.fs)) throw InvalidArgument(name + ": fs must be a positive number, got " + std::to_string(o.fs));
  Segments<U> s;
  std::vector<double> win;
  if (!o.window_values.empty()) {
    win = o.window_values;
    if (n < win.size()) {
      throw InvalidArgument(name + ": the window (" + std::to_string(win.size()) + " values) is longer than the signal (" +
                            std::to_string(n) + " samples)");
    }
    if (o.nperseg && *o.nperseg != win.size()) {
      throw InvalidArgument(name + ": nperseg " + std::to_string(*o.nperseg) + " differs from the window length " +
                            std::to_string(win.size()));
    }
    s.nperseg = win.size();
  } else {
    s.nperseg = o.nperseg.value_or(256);
    if (s.nperseg == 0) throw InvalidArgument(name + ": nperseg must be a positive integer, got 0");
    s.nperseg = std::min(s.nperseg, n);
    win = windows::get_window(o.window, s.nperseg, /*fftbins=*/true);
  }
  s.nfft = o.nfft.value_or(s.nperseg);
  if (s.nfft < s.nperseg) {
    throw InvalidArgument(name + ": nfft (" + std::to_string(s.nfft) + ") must be greater than or equal to nperseg (" +
                          std::to_string(s.nperseg) + ")");
  }
  s.noverlap = o.noverlap.value_or(s.nperseg / default_overlap_divisor);
  if (s.noverlap >= s.nperseg) {
    throw InvalidArgument(name + ": noverlap (" + std::to_string(s.noverlap) + ") must be less than nperseg (" +
                          std::to_string(s.nperseg) + ")");
  }
  s.step = s.nperseg - s.noverlap;
  s.count = n >= s.noverlap ? (n - s.noverlap) / s.step : 0;
  s.onesided = o.return_onesided && !complex_input;  // scipy: complex data is always two-sided
  s.bins = s.onesided ? s.nfft / 2 + 1 : s.nfft;
  s.detrend = o.detrend;
  double sum = 0, sq = 0;
  for (double v : win) {
    const U w = U(v);
    s.window.push_back(w);
    sum += double(w);
    sq += double(w) * double(w);
  }
  s.scale = U(o.scaling == Scaling::density ? 1.0 / (o.fs * sq) : 1.0 / (sum * sum));
  for (std::size_t k = 0; k < s.bins; ++k) {
    const double kk = (!s.onesided && k >= (s.nfft + 1) / 2) ? double(k) - double(s.nfft) : double(k);
    s.frequencies.push_back(kk / (double(s.nfft) * (1.0 / o.fs)));
  }
  return s;
}

/// Where the segments of each line of x go in spectrogram's and stft's result: x's shape with
/// the axis replaced by the frequencies and a last axis of segments (C order). Lines run on
/// threads when there is enough work.
struct SegmentLayout {
  std::vector<std::size_t> shape;
  std::vector<std::ptrdiff_t> in_offsets, out_offsets;  // per line
  std::ptrdiff_t fstride = 0, tstride = 0;             // between frequencies and segments
  unsigned threads = 1;
};

template <class V, class U>
SegmentLayout segment_layout(const ArrayView<const V>& x, std::size_t axis, const Segments<U>& s) {
  SegmentLayout l;
  l.shape = x.shape();
  l.shape[axis] = s.bins;
  l.shape.push_back(s.count);
  const auto strides = c_strides(l.shape);
  const std::vector<std::size_t> line_shape(l.shape.begin(), l.shape.end() - 1);
  l.in_offsets = iir::detail::line_offsets(x.shape(), x.strides(), axis);
  l.out_offsets =
      iir::detail::line_offsets(line_shape, std::span<const std::ptrdiff_t>(strides).first(line_shape.size()), axis);
  l.fstride = strides[axis];
  l.tstride = strides.back();
  l.threads = l.in_offsets.size() * s.count * s.nfft >= (std::size_t{1} << 16) ? default_threads() : 1u;
  return l;
}

/// The FFT plan segments are transformed with (r2c one-sided, c2c two-sided).
template <class U>
fft::Plan segment_plan(const Segments<U>& s) {
  fft::PlanDesc desc;
  desc.shape = {s.nfft};
  desc.precision = sizeof(U) == sizeof(float) ? fft::Precision::f32 : fft::Precision::f64;
  desc.kind = s.onesided ? fft::Kind::r2c : fft::Kind::c2c;
  desc.threads = 1;
  return fft::Plan(desc);
}

template <class U>
void detrend_segment(U* d, std::size_t n, Detrend kind) {
  if (kind == Detrend::none || n == 0) return;
  if (kind == Detrend::constant) {
    U mean = 0;
    for (std::size_t i = 0; i < n; ++i) mean += d[i];
    mean /= U(n);
    for (std::size_t i = 0; i < n; ++i) d[i] -= mean;
    return;
  }
  // Least squares fit of a * u + b, u = (i + 1) / n, as scipy's detrend('linear'), in double.
  double su = 0, suu = 0, sy = 0, suy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double u = double(i + 1) / double(n);
    su += u;
    suu += u * u;
    sy += d[i];
    suy += u * double(d[i]);
  }
  const double det = double(n) * suu - su * su;
  const double a = det != 0 ? (double(n) * suy - su * sy) / det : 0.0;
  const double b = (sy - a * su) / double(n);
  for (std::size_t i = 0; i < n; ++i) d[i] = U(double(d[i]) - (a * double(i + 1) / double(n) + b));
}

/// The spectra of segments of a line: each segment detrended (real and imaginary parts
/// separately, as scipy's least squares does for complex data), windowed, zero-padded to nfft
/// and transformed (r2c for one-sided spectra of real data, c2c otherwise). Unscaled. Scratch
/// comes from the calling thread's arena.
template <class U>
class SegmentFft {
 public:
  SegmentFft(const Segments<U>& s, const fft::Plan& plan)
      : s_(s), plan_(plan), re_(scratch_.get<U>(s.nfft)), im_(scratch_.get<U>(s.nfft)),
        cin_(scratch_.get<std::complex<U>>(s.nfft)), spec_(scratch_.get<std::complex<U>>(s.nfft)) {}

  /// The spectrum (bins values) of the nperseg samples at seg[0], seg[stride], ...
  template <class V>
  const std::complex<U>* operator()(const V* seg, std::ptrdiff_t stride) {
    constexpr bool complex_data = !std::is_floating_point_v<V>;
    for (std::size_t i = 0; i < s_.nperseg; ++i) {
      const V v = seg[static_cast<std::ptrdiff_t>(i) * stride];
      if constexpr (complex_data) {
        re_[i] = v.real();
        im_[i] = v.imag();
      } else {
        re_[i] = v;
      }
    }
    detrend_segment(re_, s_.nperseg, s_.detrend);
    if constexpr (complex_data) detrend_segment(im_, s_.nperseg, s_.detrend);
    for (std::size_t i = 0; i < s_.nperseg; ++i) re_[i] *= s_.window[i];
    std::fill(re_ + s_.nperseg, re_ + s_.nfft, U(0));
    if (s_.onesided) {
      plan_.execute(re_, spec_);
      return spec_;
    }
    for (std::size_t i = 0; i < s_.nperseg; ++i) {
      cin_[i] = std::complex<U>(re_[i], complex_data ? im_[i] * s_.window[i] : U(0));
    }
    std::fill(cin_ + s_.nperseg, cin_ + s_.nfft, std::complex<U>(0));
    plan_.execute(cin_, spec_);
    return spec_;
  }

 private:
  const Segments<U>& s_;
  const fft::Plan& plan_;
  core::Scratch scratch_;
  U *re_, *im_;
  std::complex<U>*cin_, *spec_;
};

/// The scaled power of bin k of a spectrum (one-sided spectra doubled off DC and Nyquist, as
/// scipy).
template <class U>
U bin_power(const Segments<U>& s, const std::complex<U>* spec, std::size_t k) {
  U p = std::norm(spec[k]) * s.scale;
  if (s.onesided && k > 0 && (s.nfft % 2 == 1 || k < s.bins - 1)) p *= U(2);
  return p;
}

/// Calls power(segment, bin, value) with the scaled power of every bin of every segment of one
/// line (real or complex samples V).
template <class U, class V, class Sink>
void segment_powers(const Segments<U>& s, const fft::Plan& plan, const V* line, std::ptrdiff_t stride, Sink&& power) {
  SegmentFft<U> transform(s, plan);
  for (std::size_t j = 0; j < s.count; ++j) {
    const std::complex<U>* spec = transform(line + static_cast<std::ptrdiff_t>(j * s.step) * stride, stride);
    for (std::size_t k = 0; k < s.bins; ++k) power(j, k, bin_power(s, spec, k));
  }
}

}  // namespace ripple::spectral::detail
