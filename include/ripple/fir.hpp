// FIR filter design with scipy.signal's semantics: firwin (windowed-sinc design of lowpass,
// highpass, bandpass, bandstop and multiband filters), kaiserord / kaiser_beta / kaiser_atten
// (Kaiser's window-design formulas).
//
//   // 79 taps, lowpass at 0.1 * Nyquist, Hamming window (scipy's defaults)
//   std::vector<double> h = ripple::fir::firwin(79, {0.1});
//   // Kaiser design: 60 dB stopband, transition 5 kHz wide, band 1-3 kHz at fs = 48 kHz
//   auto [taps, beta] = ripple::fir::kaiserord(60.0, 5000.0 / 24000.0);
//   auto bp = ripple::fir::firwin(taps | 1, {1000.0, 3000.0},
//                                 {.window = ripple::windows::Window{ripple::windows::Kind::kaiser, beta},
//                                  .pass_zero = ripple::fir::PassZero::bandpass, .fs = 48000.0});
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "ripple/array.hpp"
#include "ripple/sample.hpp"
#include "ripple/windows.hpp"

namespace ripple::fir {

/// scipy's pass_zero: whether the response at 0 Hz is a passband, or the named band type
/// (lowpass/bandstop pass 0 Hz, highpass/bandpass do not; the named forms also check the
/// number of cutoffs: one for lowpass/highpass, at least two for bandpass/bandstop).
enum class PassZero { yes, no, lowpass, highpass, bandpass, bandstop };

struct FirwinOptions {
  /// Transition width (units of fs, or normalized to Nyquist without fs): when given, the
  /// window is a Kaiser window whose beta follows from kaiser_atten(numtaps, width).
  std::optional<double> width{};
  windows::Window window{windows::Kind::hamming, 0.0};
  PassZero pass_zero = PassZero::yes;
  /// Scale so the response at the centre of the first passband (0 Hz, Nyquist, or the band's
  /// middle) is exactly 1.
  bool scale = true;
  /// Sample rate; without it cutoffs are normalized to Nyquist (0 < cutoff < 1).
  std::optional<double> fs{};
};

/// scipy.signal.firwin: `numtaps` coefficients of a linear-phase FIR filter whose band edges
/// are `cutoff` (strictly increasing, each in (0, fs/2)). Throws InvalidArgument for
/// numtaps == 0, an empty or non-increasing cutoff list, a cutoff outside (0, fs/2), fs <= 0,
/// a cutoff count that does not fit a named pass_zero, or an even numtaps with a passband at
/// Nyquist ("a filter with an even number of coefficients must have zero response at Nyquist").
std::vector<double> firwin(std::size_t numtaps, std::span<const double> cutoff, const FirwinOptions& options = {});
inline std::vector<double> firwin(std::size_t numtaps, std::initializer_list<double> cutoff,
                                  const FirwinOptions& options = {}) {
  return firwin(numtaps, std::span<const double>(cutoff.begin(), cutoff.size()), options);
}

/// Number of taps and Kaiser beta for a filter with `ripple` dB of attenuation (|ripple|, at
/// least 8) and a transition `width` normalized to Nyquist (scipy.signal.kaiserord).
struct KaiserOrder {
  std::size_t numtaps;
  double beta;
};
KaiserOrder kaiserord(double ripple, double width);
/// Kaiser's beta for an attenuation of `a` dB (scipy.signal.kaiser_beta).
double kaiser_beta(double a);
/// Attenuation in dB of a Kaiser-window design with numtaps taps and transition width `width`
/// normalized to Nyquist (scipy.signal.kaiser_atten).
double kaiser_atten(std::size_t numtaps, double width);

/// How resample_poly treats the signal beyond its ends (scipy's padtype): zeros, or the line's
/// mean / median / minimum / maximum removed before filtering and added back after.
enum class ResamplePad { constant, mean, median, minimum, maximum };

struct ResampleOptions {
  /// The anti-aliasing window for the designed lowpass (scipy's default ('kaiser', 5.0)).
  windows::Window window{windows::Kind::kaiser, 5.0};
  /// Explicit filter taps instead of a designed filter (scipy's array `window`), if non-empty.
  std::vector<double> taps;
  ResamplePad padtype = ResamplePad::constant;
};

namespace detail {
template <Sample R>
Array<R> resample_poly(ArrayView<const R> x, std::size_t up, std::size_t down, int axis, const ResampleOptions& options);
template <Sample R>
Array<R> upfirdn(std::span<const typename ripple::detail::real_of<R>::type> h, ArrayView<const R> x, std::size_t up,
                 std::size_t down, int axis);
}  // namespace detail

/// scipy.signal.upfirdn: along `axis`, upsample x by `up` (up - 1 zeros after each sample),
/// filter with the FIR h, and keep every `down`-th sample. The output length along the axis is
/// ((n - 1) * up + len(h) - 1) / down + 1 (the full convolution, decimated). The result type is
/// numpy's result_type of h and x (complex x is filtered as its real and imaginary parts).
/// Polyphase: each output costs len(h) / up multiply-adds, as SIMD dot products; threads over
/// lines and over output ranges. Throws InvalidArgument for an empty h, up or down of 0, a 0-d x,
/// an axis out of range.
template <std::floating_point H, SampleElement X>
Array<result_t<H, std::remove_const_t<X>>> upfirdn(std::span<const H> h, ArrayView<X> x, std::size_t up = 1,
                                                   std::size_t down = 1, int axis = -1) {
  using R = result_t<H, std::remove_const_t<X>>;
  using U = typename ripple::detail::real_of<R>::type;
  Array<R> keep;
  const std::vector<U> taps(h.begin(), h.end());
  return detail::upfirdn<R>(taps, ripple::detail::as_view<R>(x, keep), up, down, axis);
}

/// scipy.signal.resample_poly: x resampled by up/down along `axis` (scipy's default axis is 0)
/// with a polyphase filter: a lowpass designed by firwin(2 * 10 * max(up, down) + 1,
/// 1 / max(up, down), window) (or options.taps), times up, applied by upfirdn and centred so
/// that the output has ceil(n * up / down) samples aligned with the input. up and down are
/// reduced by their gcd first; up == down returns a copy. The result has x's element type.
/// Throws InvalidArgument for up or down of 0, a 0-d x, an axis out of range, empty explicit
/// taps, or min/max/median padding of complex data.
template <SampleElement X>
Array<std::remove_const_t<X>> resample_poly(ArrayView<X> x, std::size_t up, std::size_t down, int axis = 0,
                                            const ResampleOptions& options = {}) {
  return detail::resample_poly<std::remove_const_t<X>>(ArrayView<const std::remove_const_t<X>>(x), up, down, axis,
                                                       options);
}

template <Sample X>
ArrayStorage<X> resample_poly(const std::vector<X>& x, std::size_t up, std::size_t down,
                              const ResampleOptions& options = {}) {
  return resample_poly(ArrayView<const X>(x.data(), {x.size()}), up, down, 0, options).values;
}

/// Streaming upfirdn for one channel: blocks of any sizes go in, and the outputs that depend only
/// on samples seen so far come out, so the concatenated outputs plus flush() equal the one-shot
/// upfirdn of the concatenated input (to rounding). The state (the last taps/up input samples
/// and the output position) is kept between calls. The outputs are computed by the one-shot
/// upfirdn's SIMD polyphase kernels (complex samples as separate real and imaginary lines);
/// process() allocates nothing once its buffers have grown to the block size, and `out` is
/// grown once per call. T: float, double or complex; coefficients in T's precision.
template <Sample T>
class UpFirDn {
 public:
  using Real = typename ripple::detail::real_of<T>::type;
  /// Throws InvalidArgument for an empty h or up/down of 0.
  UpFirDn(std::span<const double> h, std::size_t up, std::size_t down);
  UpFirDn(UpFirDn&&) noexcept;
  UpFirDn& operator=(UpFirDn&&) noexcept;
  ~UpFirDn();
  /// Appends to `out` every output computable from the input so far; returns how many.
  std::size_t process(std::span<const T> x, std::vector<T>& out);
  /// Appends the remaining outputs (those reaching past the last sample, as upfirdn pads with
  /// zeros) and resets the stream. Returns how many.
  std::size_t flush(std::vector<T>& out);
  /// Back to the start of a new stream.
  void reset();
  /// Most outputs one process() call with n inputs can append.
  std::size_t max_output(std::size_t n) const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Streaming resample_poly for one channel (scipy's has no state): the same filter (designed
/// by firwin as resample_poly does, or options.taps), its delay removed, so the concatenated
/// outputs plus flush() are the one-shot resample_poly of the concatenated input: ceil(n up /
/// down) samples. Outputs lag the input by about half the filter. Only constant (zero) padding
/// streams (the others need the whole signal's level first); up and down are reduced by their
/// gcd. Throws InvalidArgument for up or down of 0 or a padtype other than constant.
template <Sample T>
class ResamplePoly {
 public:
  ResamplePoly(std::size_t up, std::size_t down, const ResampleOptions& options = {});
  std::size_t process(std::span<const T> x, std::vector<T>& out);
  /// Appends the rest of the ceil(n up / down) outputs and resets the stream.
  std::size_t flush(std::vector<T>& out);
  void reset();
  std::size_t up() const noexcept { return up_; }
  std::size_t down() const noexcept { return down_; }
  /// Length of the polyphase filter (scipy's, padded in front to a whole delay).
  std::size_t taps() const noexcept { return taps_; }
  std::size_t max_output(std::size_t n) const noexcept { return inner_.max_output(n); }

 private:
  std::size_t up_ = 1, down_ = 1, taps_ = 0, delay_ = 0;  // delay_: outputs dropped at the start
  UpFirDn<T> inner_;
  std::size_t seen_ = 0, produced_ = 0, dropped_ = 0;
  std::size_t drop_delay(std::vector<T>& out, std::size_t first);
};

/// Streaming FIR filtering with state, scipy's lfilter(h, [1], x) carried across blocks: each
/// call returns exactly as many samples as it is given (no latency). Long filters run by FFT
/// overlap-save on ripple's FFT (whole blocks of N - len(h) + 1 samples), short ones, and the
/// remainder of a call shorter than a block, as direct SIMD dot products; the method is chosen
/// by cost at construction. Channels as iir::Filter: the lines of a view along an axis, or
/// interleaved frames. T: float, double or complex (filtered as real and imaginary parts).
template <Sample T>
class Filter {
 public:
  using Real = typename ripple::detail::real_of<T>::type;
  enum class Method { automatic, direct, fft };

  /// Throws InvalidArgument for an empty h or channels == 0.
  explicit Filter(std::span<const double> h, std::size_t channels = 1, Method method = Method::automatic);
  Filter(Filter&&) noexcept;
  Filter& operator=(Filter&&) noexcept;
  ~Filter();

  /// The method in use (direct or fft).
  Method method() const noexcept;
  /// FFT size when the method is fft, else 0.
  std::size_t fft_size() const noexcept;
  std::size_t channels() const noexcept;

  /// Filters the lines of x along `axis` into y (same shape; may be x itself). x must have
  /// channels() lines. Throws InvalidArgument on a shape mismatch.
  void process(ArrayView<const T> x, ArrayView<T> y, int axis = -1);
  /// Interleaved frames (sample t of channel c at x[t * channels() + c]).
  void process_interleaved(std::span<const T> x, std::span<T> y);
  Array<T> operator()(ArrayView<const T> x, int axis = -1);
  /// Back to the zero state.
  void reset();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One-dimensional convenience: upfirdn of a vector.
template <std::floating_point H, Sample X>
ArrayStorage<result_t<H, X>> upfirdn(const std::vector<H>& h, const std::vector<X>& x, std::size_t up = 1,
                                     std::size_t down = 1) {
  return upfirdn(std::span<const H>(h), ArrayView<const X>(x.data(), {x.size()}), up, down, -1).values;
}

}  // namespace ripple::fir
