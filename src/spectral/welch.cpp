// welch as scipy.signal computes it: segments of nperseg samples every nperseg - noverlap,
// each detrended, windowed, zero-padded to nfft and transformed; |X|^2 scaled (density or
// spectrum), doubled off the DC and Nyquist bins for one-sided output, then averaged (mean, or
// median with scipy's bias correction). Lines and their segments run on threads.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"
#include "ripple/runtime.hpp"
#include "ripple/spectral.hpp"
#include "spectral/segments.hpp"

namespace ripple::spectral {
namespace {

double median_bias(std::size_t n) {
  double bias = 1.0;
  for (std::size_t i = 1; i <= (n - 1) / 2; ++i) {
    const double ii2 = 2.0 * double(i);
    bias += 1.0 / (ii2 + 1) - 1.0 / ii2;
  }
  return bias;
}

}  // namespace

template <class T>
  requires Sample<std::remove_const_t<T>>
Welch<typename ripple::detail::real_of<std::remove_const_t<T>>::type> welch(ArrayView<T> x_in, const WelchOptions& o) {
  using V = std::remove_const_t<T>;
  using U = typename ripple::detail::real_of<V>::type;
  const ArrayView<const V> x(x_in);
  if (x.ndim() == 0) throw InvalidArgument("welch: x must be at least 1-D; got a 0-d array");
  const std::size_t axis = normalize_axis(o.axis, x.ndim());
  if (!(o.fs > 0) || !std::isfinite(o.fs)) throw InvalidArgument("welch: fs must be a positive number, got " + std::to_string(o.fs));
  const std::size_t n = x.extent(axis);
  Welch<U> result;
  if (x.size() == 0) {
    result.pxx = Array<U>(x.shape());
    return result;
  }
  const auto seg = detail::plan_segments<U>("welch", n, o, 2, ripple::detail::is_complex_v<V>);
  const std::size_t segments = seg.count, bins = seg.bins;
  result.f = seg.frequencies;
  std::vector<std::size_t> shape = x.shape();
  shape[axis] = bins;
  result.pxx = Array<U>(shape);
  const auto in_offsets = iir::detail::line_offsets(x.shape(), x.strides(), axis);
  const auto strides = c_strides(shape);
  const auto out_offsets = iir::detail::line_offsets(shape, strides, axis);

  const fft::Plan plan = detail::segment_plan(seg);
  const std::size_t lines = in_offsets.size();
  // Per line: all segments' powers (bins x segments), then averaged.
  const unsigned threads = lines * segments * seg.nfft >= (std::size_t{1} << 16) ? default_threads() : 1u;
  core::parallel_for(lines, threads, [&](std::size_t c) {
    core::Scratch scratch;
    U* power = scratch.get<U>(bins * std::max<std::size_t>(segments, 1));
    detail::segment_powers(seg, plan, x.data() + in_offsets[c], x.stride(axis),
                           [&](std::size_t j, std::size_t k, U p) { power[k * segments + j] = p; });
    U* out = result.pxx.values.data() + out_offsets[c];
    for (std::size_t k = 0; k < bins; ++k) {
      U* row = power + k * segments;
      U value = 0;
      if (segments == 0) {
        value = std::numeric_limits<U>::quiet_NaN();
      } else if (o.average == Average::median && segments > 1) {
        const std::size_t mid = segments / 2;
        std::nth_element(row, row + mid, row + segments);
        value = row[mid];
        if (segments % 2 == 0) value = (value + *std::max_element(row, row + mid)) / U(2);
        value /= U(median_bias(segments));
      } else {
        for (std::size_t s = 0; s < segments; ++s) value += row[s];
        value /= U(segments);
      }
      out[static_cast<std::ptrdiff_t>(k) * strides[axis]] = value;
    }
  });
  return result;
}

#define RIPPLE_WELCH(V, U)                                                         \
  template Welch<U> welch<const V>(ArrayView<const V>, const WelchOptions&); \
  template Welch<U> welch<V>(ArrayView<V>, const WelchOptions&);
RIPPLE_WELCH(float, float)
RIPPLE_WELCH(double, double)
RIPPLE_WELCH(std::complex<float>, float)
RIPPLE_WELCH(std::complex<double>, double)
#undef RIPPLE_WELCH

}  // namespace ripple::spectral
