// resample_poly as scipy.signal computes it: design (or take) the anti-aliasing lowpass, scale
// it by up, pad it so the kept outputs are centred, and compute only the ceil(n * up / down)
// upfirdn outputs kept, into the result; optionally remove a per-line background level first
// and add it back. The designed filters are cached (designed_lowpass).
#include <algorithm>
#include <deque>
#include <mutex>
#include <numeric>
#include <string>
#include <utility>

#include "fir/resample_design.hpp"
#include "fir/upfirdn_lines.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/error.hpp"
#include "ripple/fir.hpp"

namespace ripple::fir::detail {
namespace {

template <class R>
R background(std::vector<R> line, ResamplePad pad) {
  if constexpr (ripple::detail::is_complex_v<R>) {
    R sum = 0;
    for (const R& v : line) sum += v;
    return sum / typename R::value_type(line.size());
  } else {
    switch (pad) {
      case ResamplePad::mean: {
        R sum = 0;
        for (R v : line) sum += v;
        return sum / R(line.size());
      }
      case ResamplePad::minimum: return *std::min_element(line.begin(), line.end());
      case ResamplePad::maximum: return *std::max_element(line.begin(), line.end());
      case ResamplePad::median: {
        const std::size_t mid = line.size() / 2;
        std::nth_element(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(mid), line.end());
        const R upper = line[mid];
        if (line.size() % 2 == 1) return upper;
        const R lower = *std::max_element(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(mid));
        return (lower + upper) / R(2);
      }
      default: return R(0);
    }
  }
}

}  // namespace

namespace {

// The designed lowpass depends only on max(up, down) and the window, and designing it costs
// more than filtering a few hundred thousand samples at 147/160 (3201 Kaiser points of the
// Bessel function): the last few designs are kept, as FFT libraries keep their plans. Only
// filters up to kCachedTaps taps are kept, so the cache stays under a few MB.
constexpr std::size_t kCachedDesigns = 8;
constexpr std::size_t kCachedTaps = std::size_t{1} << 16;

struct DesignKey {
  std::size_t max_rate;
  windows::Kind kind;
  double parameter;
  bool operator==(const DesignKey&) const = default;
};

std::vector<double> designed_lowpass(std::size_t max_rate, const windows::Window& window) {
  const std::size_t numtaps = 2 * 10 * max_rate + 1;
  const auto design = [&] { return firwin(numtaps, {1.0 / double(max_rate)}, {.window = window}); };
  if (numtaps > kCachedTaps) return design();
  static std::mutex mutex;
  static std::deque<std::pair<DesignKey, std::vector<double>>> cache;  // most recent first
  const DesignKey key{max_rate, window.kind, window.parameter};
  {
    const std::lock_guard<std::mutex> lock(mutex);
    for (const auto& [k, h] : cache) {
      if (k == key) return h;
    }
  }
  std::vector<double> h = design();  // throws for a bad window parameter: nothing is cached
  const std::lock_guard<std::mutex> lock(mutex);
  cache.emplace_front(key, h);
  if (cache.size() > kCachedDesigns) cache.pop_back();
  return h;
}

}  // namespace

ResampleDesign resample_design(std::size_t up, std::size_t down, const ResampleOptions& options) {
  ResampleDesign design;
  std::size_t half_len = 0;
  if (!options.taps.empty()) {
    half_len = (options.taps.size() - 1) / 2;
    design.h = options.taps;
  } else {
    const std::size_t max_rate = std::max(up, down);
    half_len = 10 * max_rate;
    design.h = designed_lowpass(max_rate, options.window);
  }
  for (double& v : design.h) v *= double(up);
  const std::size_t pre_pad = down - half_len % down;
  design.h.insert(design.h.begin(), pre_pad, 0.0);
  design.delay = (half_len + pre_pad) / down;
  return design;
}

template <Sample R>
Array<R> resample_poly(ArrayView<const R> x, std::size_t up, std::size_t down, int axis_arg,
                       const ResampleOptions& options) {
  using U = typename ripple::detail::real_of<R>::type;
  if (up < 1 || down < 1) {
    throw InvalidArgument("resample_poly: up and down must be >= 1; got up = " + std::to_string(up) + ", down = " +
                          std::to_string(down));
  }
  if (x.ndim() == 0) throw InvalidArgument("resample_poly: x must be at least 1-D; got a 0-d array");
  const std::size_t axis = normalize_axis(axis_arg, x.ndim());
  if constexpr (ripple::detail::is_complex_v<R>) {
    if (options.padtype != ResamplePad::constant && options.padtype != ResamplePad::mean) {
      throw InvalidArgument("resample_poly: minimum, maximum and median padding are not defined for complex data");
    }
  }
  const std::size_t g = std::gcd(up, down);
  up /= g;
  down /= g;
  const std::size_t n_in = x.extent(axis);
  if ((up == 1 && down == 1) || x.size() == 0) {
    const std::vector<U> identity{U(1)};
    return upfirdn<R>(identity, x, 1, 1, axis_arg);  // a C-ordered copy, as scipy's
  }
  const std::size_t n_out = (n_in * up) / down + ((n_in * up) % down != 0);
  const ResampleDesign design = resample_design(up, down, options);
  const auto poly = Polyphase<U>::make(std::span<const double>(design.h), up, down);

  // Background removal works on a copy of x.
  Array<R> shifted;
  std::vector<R> levels;
  ArrayView<const R> source = x;
  if (options.padtype != ResamplePad::constant) {
    const auto in_offsets = iir::detail::line_offsets(x.shape(), x.strides(), axis);
    shifted = Array<R>(x.shape());
    const auto strides = c_strides(x.shape());
    const auto out_offsets = iir::detail::line_offsets(x.shape(), strides, axis);
    for (std::size_t c = 0; c < in_offsets.size(); ++c) {
      std::vector<R> line(n_in);
      for (std::size_t t = 0; t < n_in; ++t) line[t] = x.data()[in_offsets[c] + static_cast<std::ptrdiff_t>(t) * x.stride(axis)];
      const R level = background(line, options.padtype);
      levels.push_back(level);
      for (std::size_t t = 0; t < n_in; ++t) {
        shifted.values[static_cast<std::size_t>(out_offsets[c] + static_cast<std::ptrdiff_t>(t) * strides[axis])] = line[t] - level;
      }
    }
    source = shifted.view();
  }
  // The kept outputs of upfirdn(h, x), straight into the result: scipy's h padded with zeros
  // to reach them continues the convolution of the zero-extended signal, as upfirdn_lines does.
  std::vector<std::size_t> shape = x.shape();
  shape[axis] = n_out;
  Array<R> y(shape);
  upfirdn_lines<R>(poly, source, axis, design.delay, y);
  if (!levels.empty()) {
    const auto y_strides = c_strides(shape);
    const auto y_offsets = iir::detail::line_offsets(shape, y_strides, axis);
    for (std::size_t c = 0; c < y_offsets.size(); ++c) {
      for (std::size_t t = 0; t < n_out; ++t) {
        y.values[static_cast<std::size_t>(y_offsets[c] + static_cast<std::ptrdiff_t>(t) * y_strides[axis])] += levels[c];
      }
    }
  }
  return y;
}

template Array<float> resample_poly<float>(ArrayView<const float>, std::size_t, std::size_t, int, const ResampleOptions&);
template Array<double> resample_poly<double>(ArrayView<const double>, std::size_t, std::size_t, int,
                                             const ResampleOptions&);
template Array<std::complex<float>> resample_poly<std::complex<float>>(ArrayView<const std::complex<float>>, std::size_t,
                                                                       std::size_t, int, const ResampleOptions&);
template Array<std::complex<double>> resample_poly<std::complex<double>>(ArrayView<const std::complex<double>>,
                                                                         std::size_t, std::size_t, int,
                                                                         const ResampleOptions&);

}  // namespace ripple::fir::detail
