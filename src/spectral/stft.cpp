// stft as scipy.signal.stft (the legacy function) computes it: each line extended by
// nperseg / 2 samples at both ends (boundary), zero-padded to whole segments (padded), then
// every segment's spectrum scaled by the square root of the density or spectrum scale.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "ripple/spectral.hpp"
#include "spectral/segments.hpp"

namespace ripple::spectral {
namespace {

// Writes the line (n values at `stride`) extended by `edge` values at both ends as scipy's
// even_ext/odd_ext/const_ext/zero_ext do, then `pad` zeros, into out.
template <class V>
void extend_line(const V* x, std::ptrdiff_t stride, std::size_t n, std::size_t edge, Boundary boundary,
                 std::size_t pad, V* out) {
  const auto at = [&](std::size_t i) { return x[static_cast<std::ptrdiff_t>(i) * stride]; };
  for (std::size_t i = 0; i < n; ++i) out[edge + i] = at(i);
  for (std::size_t i = 1; i <= edge; ++i) {
    V left{}, right{};
    switch (boundary) {
      case Boundary::even: left = at(i), right = at(n - 1 - i); break;
      case Boundary::odd: left = V(2) * at(0) - at(i), right = V(2) * at(n - 1) - at(n - 1 - i); break;
      case Boundary::constant: left = at(0), right = at(n - 1); break;
      default: break;  // zeros
    }
    out[edge - i] = left;
    out[edge + n - 1 + i] = right;
  }
  std::fill(out + edge + n + edge, out + edge + n + edge + pad, V(0));
}

}  // namespace

template <class T>
  requires Sample<std::remove_const_t<T>>
Stft<typename ripple::detail::real_of<std::remove_const_t<T>>::type> stft(ArrayView<T> x_in, const StftOptions& o) {
  using V = std::remove_const_t<T>;
  using U = typename ripple::detail::real_of<V>::type;
  const ArrayView<const V> x(x_in);
  if (x.ndim() == 0) throw InvalidArgument("stft: x must be at least 1-D; got a 0-d array");
  const std::size_t axis = normalize_axis(o.axis, x.ndim());
  Stft<U> result;
  const std::size_t n = x.extent(axis);
  if (x.size() == 0) {
    result.zxx = Array<std::complex<U>>(x.shape());
    return result;
  }
  auto seg = detail::plan_segments<U>("stft", n, o, 2, ripple::detail::is_complex_v<V>);
  // The extended, padded line the segments are taken from.
  // nperseg is at most n here, so an even or odd reflection (at most n - 1 values) always fits.
  const std::size_t edge = o.boundary == Boundary::none ? 0 : seg.nperseg / 2;
  const std::size_t extended = n + 2 * edge;
  std::size_t pad = 0;
  if (o.padded) {
    // Python's (-(extended - nperseg) % step) % nperseg, with extended - nperseg possibly < 0.
    const std::ptrdiff_t over = static_cast<std::ptrdiff_t>(extended) - static_cast<std::ptrdiff_t>(seg.nperseg);
    const std::ptrdiff_t step = static_cast<std::ptrdiff_t>(seg.step);
    pad = static_cast<std::size_t>((((-over) % step) + step) % step) % seg.nperseg;
  }
  const std::size_t length = extended + pad;
  seg.count = length >= seg.noverlap ? (length - seg.noverlap) / seg.step : 0;
  const double shift = o.boundary == Boundary::none ? 0.0 : double(seg.nperseg) / 2.0;
  for (std::size_t j = 0; j < seg.count; ++j) {
    result.t.push_back((double(seg.nperseg) / 2.0 + double(j * seg.step) - shift) / o.fs);
  }
  result.f = seg.frequencies;
  const auto layout = detail::segment_layout(x, axis, seg);
  result.zxx = Array<std::complex<U>>(layout.shape);
  const fft::Plan plan = detail::segment_plan(seg);
  const U scale = std::sqrt(seg.scale);
  core::parallel_for(layout.in_offsets.size(), layout.threads, [&](std::size_t c) {
    core::Scratch scratch;
    V* line = scratch.get<V>(length);
    extend_line(x.data() + layout.in_offsets[c], x.stride(axis), n, edge, o.boundary, pad, line);
    detail::SegmentFft<U> transform(seg, plan);
    for (std::size_t j = 0; j < seg.count; ++j) {
      const std::complex<U>* spec = transform(line + j * seg.step, 1);
      std::complex<U>* out = result.zxx.values.data() + layout.out_offsets[c] + static_cast<std::ptrdiff_t>(j) * layout.tstride;
      for (std::size_t k = 0; k < seg.bins; ++k) out[static_cast<std::ptrdiff_t>(k) * layout.fstride] = spec[k] * scale;
    }
  });
  return result;
}

#define RIPPLE_STFT(V, U)                                                   \
  template Stft<U> stft<const V>(ArrayView<const V>, const StftOptions&); \
  template Stft<U> stft<V>(ArrayView<V>, const StftOptions&);
RIPPLE_STFT(float, float)
RIPPLE_STFT(double, double)
RIPPLE_STFT(std::complex<float>, float)
RIPPLE_STFT(std::complex<double>, double)
#undef RIPPLE_STFT

}  // namespace ripple::spectral
