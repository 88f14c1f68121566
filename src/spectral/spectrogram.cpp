// spectrogram (psd mode) as scipy.signal computes it: every segment's scaled power, laid out
// as x's shape with the axis replaced by frequency and a last axis of segments.
#include "core/thread_pool.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/runtime.hpp"
#include "ripple/spectral.hpp"
#include "spectral/segments.hpp"

namespace ripple::spectral {

template <class T>
  requires std::is_floating_point_v<std::remove_const_t<T>>
Spectrogram<std::remove_const_t<T>> spectrogram(ArrayView<T> x_in, const SpectrogramOptions& o) {
  using U = std::remove_const_t<T>;
  const ArrayView<const U> x(x_in);
  if (x.ndim() == 0) throw InvalidArgument("spectrogram: x must be at least 1-D; got a 0-d array");
  const std::size_t axis = normalize_axis(o.axis, x.ndim());
  Spectrogram<U> result;
  const std::size_t n = x.extent(axis);
  if (x.size() == 0) {
    result.sxx = Array<U>(x.shape());
    return result;
  }
  const auto seg = detail::plan_segments<U>("spectrogram", n, o, 8);
  result.f = seg.frequencies;
  for (std::size_t j = 0; j < seg.count; ++j) {
    result.t.push_back((double(seg.nperseg) / 2.0 + double(j * seg.step)) / o.fs);
  }
  std::vector<std::size_t> shape = x.shape();
  shape[axis] = seg.bins;
  shape.push_back(seg.count);
  result.sxx = Array<U>(shape);
  const auto strides = c_strides(shape);
  std::vector<std::size_t> line_shape(shape.begin(), shape.end() - 1);
  const auto in_offsets = iir::detail::line_offsets(x.shape(), x.strides(), axis);
  const auto out_offsets =
      iir::detail::line_offsets(line_shape, std::span<const std::ptrdiff_t>(strides).first(line_shape.size()), axis);
  const fft::Plan plan = detail::segment_plan(seg);
  const std::size_t lines = in_offsets.size();
  const unsigned threads = lines * seg.count * seg.nfft >= (std::size_t{1} << 16) ? default_threads() : 1u;
  core::parallel_for(lines, threads, [&](std::size_t c) {
    U* out = result.sxx.values.data() + out_offsets[c];
    const std::ptrdiff_t fs = strides[axis], ts = strides.back();
    detail::segment_powers(seg, plan, x.data() + in_offsets[c], x.stride(axis), [&](std::size_t j, std::size_t k, U p) {
      out[static_cast<std::ptrdiff_t>(k) * fs + static_cast<std::ptrdiff_t>(j) * ts] = p;
    });
  });
  return result;
}

template Spectrogram<float> spectrogram<const float>(ArrayView<const float>, const SpectrogramOptions&);
template Spectrogram<double> spectrogram<const double>(ArrayView<const double>, const SpectrogramOptions&);
template Spectrogram<float> spectrogram<float>(ArrayView<float>, const SpectrogramOptions&);
template Spectrogram<double> spectrogram<double>(ArrayView<double>, const SpectrogramOptions&);

}  // namespace ripple::spectral
