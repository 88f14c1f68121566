// spectrogram as scipy.signal computes it: every segment's scaled power (psd mode), or its
// STFT value (scaled by the square root of the psd scale), magnitude, angle or angle unwrapped
// along frequency; laid out as x's shape with the axis replaced by frequency and a last axis
// of segments.
#include <cmath>
#include <numbers>

#include "core/thread_pool.hpp"
#include "ripple/spectral.hpp"
#include "spectral/segments.hpp"

namespace ripple::spectral {
namespace {

// numpy.unwrap along one line of n values at stride `stride` (period 2 pi, discont pi).
template <class U>
void unwrap(U* p, std::size_t n, std::ptrdiff_t stride) {
  const U pi = U(std::numbers::pi), two_pi = U(2 * std::numbers::pi);
  U correction = 0;
  U previous = n > 0 ? p[0] : U(0);
  for (std::size_t i = 1; i < n; ++i) {
    U& v = p[static_cast<std::ptrdiff_t>(i) * stride];
    const U dd = v - previous;
    previous = v;
    U ddmod = std::fmod(dd + pi, two_pi);
    if (ddmod < 0) ddmod += two_pi;  // Python's modulo
    ddmod -= pi;
    if (ddmod == -pi && dd > 0) ddmod = pi;
    if (std::abs(dd) >= pi) correction += ddmod - dd;
    v += correction;
  }
}

}  // namespace

template <class T>
  requires Sample<std::remove_const_t<T>>
Spectrogram<typename ripple::detail::real_of<std::remove_const_t<T>>::type> spectrogram(ArrayView<T> x_in,
                                                                                        const SpectrogramOptions& o) {
  using V = std::remove_const_t<T>;
  using U = typename ripple::detail::real_of<V>::type;
  const ArrayView<const V> x(x_in);
  if (x.ndim() == 0) throw InvalidArgument("spectrogram: x must be at least 1-D; got a 0-d array");
  const std::size_t axis = normalize_axis(o.axis, x.ndim());
  Spectrogram<U> result;
  const std::size_t n = x.extent(axis);
  const bool complex_mode = o.mode == SpectrogramMode::complex;
  if (x.size() == 0) {
    if (complex_mode) {
      result.zxx = Array<std::complex<U>>(x.shape());
    } else {
      result.sxx = Array<U>(x.shape());
    }
    return result;
  }
  auto seg = detail::plan_segments<U>("spectrogram", n, o, 8, ripple::detail::is_complex_v<V>);
  result.f = seg.frequencies;
  for (std::size_t j = 0; j < seg.count; ++j) {
    result.t.push_back((double(seg.nperseg) / 2.0 + double(j * seg.step)) / o.fs);
  }
  const auto layout = detail::segment_layout(x, axis, seg);
  if (complex_mode) {
    result.zxx = Array<std::complex<U>>(layout.shape);
  } else {
    result.sxx = Array<U>(layout.shape);
  }
  const fft::Plan plan = detail::segment_plan(seg);
  const std::ptrdiff_t fstride = layout.fstride, tstride = layout.tstride;
  const U stft_scale = std::sqrt(seg.scale);
  core::parallel_for(layout.in_offsets.size(), layout.threads, [&](std::size_t c) {
    const V* line = x.data() + layout.in_offsets[c];
    if (o.mode == SpectrogramMode::psd) {
      U* out = result.sxx.values.data() + layout.out_offsets[c];
      detail::segment_powers(seg, plan, line, x.stride(axis), [&](std::size_t j, std::size_t k, U p) {
        out[static_cast<std::ptrdiff_t>(k) * fstride + static_cast<std::ptrdiff_t>(j) * tstride] = p;
      });
      return;
    }
    detail::SegmentFft<U> transform(seg, plan);
    for (std::size_t j = 0; j < seg.count; ++j) {
      const std::complex<U>* spec = transform(line + static_cast<std::ptrdiff_t>(j * seg.step) * x.stride(axis), x.stride(axis));
      const std::ptrdiff_t at = layout.out_offsets[c] + static_cast<std::ptrdiff_t>(j) * tstride;
      for (std::size_t k = 0; k < seg.bins; ++k) {
        const std::complex<U> z = spec[k] * stft_scale;
        const std::ptrdiff_t i = at + static_cast<std::ptrdiff_t>(k) * fstride;
        switch (o.mode) {
          case SpectrogramMode::complex: result.zxx.values[i] = z; break;
          case SpectrogramMode::magnitude: result.sxx.values[i] = std::abs(z); break;
          default: result.sxx.values[i] = std::arg(z); break;
        }
      }
      if (o.mode == SpectrogramMode::phase) unwrap(result.sxx.values.data() + at, seg.bins, fstride);
    }
  });
  return result;
}

#define RIPPLE_SPECTROGRAM(V, U)                                                                  \
  template Spectrogram<U> spectrogram<const V>(ArrayView<const V>, const SpectrogramOptions&); \
  template Spectrogram<U> spectrogram<V>(ArrayView<V>, const SpectrogramOptions&);
RIPPLE_SPECTROGRAM(float, float)
RIPPLE_SPECTROGRAM(double, double)
RIPPLE_SPECTROGRAM(std::complex<float>, float)
RIPPLE_SPECTROGRAM(std::complex<double>, double)
#undef RIPPLE_SPECTROGRAM

}  // namespace ripple::spectral
