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

template <class U>
void detrend(U* d, std::size_t n, Detrend kind) {
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

}  // namespace

template <class T>
  requires std::is_floating_point_v<std::remove_const_t<T>>
Welch<std::remove_const_t<T>> welch(ArrayView<T> x_in, const WelchOptions& o) {
  using U = std::remove_const_t<T>;
  const ArrayView<const U> x(x_in);
  if (x.ndim() == 0) throw InvalidArgument("welch: x must be at least 1-D; got a 0-d array");
  const std::size_t axis = normalize_axis(o.axis, x.ndim());
  if (!(o.fs > 0) || !std::isfinite(o.fs)) throw InvalidArgument("welch: fs must be a positive number, got " + std::to_string(o.fs));
  const std::size_t n = x.extent(axis);
  Welch<U> result;
  if (x.size() == 0) {
    result.pxx = Array<U>(x.shape());
    return result;
  }
  // Window and segment length (scipy's _triage_segments).
  std::vector<double> win;
  std::size_t nperseg = 0;
  if (!o.window_values.empty()) {
    win = o.window_values;
    if (n < win.size()) {
      throw InvalidArgument("welch: the window (" + std::to_string(win.size()) + " values) is longer than the signal (" +
                            std::to_string(n) + " samples)");
    }
    if (o.nperseg && *o.nperseg != win.size()) {
      throw InvalidArgument("welch: nperseg " + std::to_string(*o.nperseg) + " differs from the window length " +
                            std::to_string(win.size()));
    }
    nperseg = win.size();
  } else {
    nperseg = o.nperseg.value_or(256);
    if (nperseg == 0) throw InvalidArgument("welch: nperseg must be a positive integer, got 0");
    nperseg = std::min(nperseg, n);
    win = windows::get_window(o.window, nperseg, /*fftbins=*/true);
  }
  const std::size_t nfft = o.nfft.value_or(nperseg);
  if (nfft < nperseg) {
    throw InvalidArgument("welch: nfft (" + std::to_string(nfft) + ") must be greater than or equal to nperseg (" +
                          std::to_string(nperseg) + ")");
  }
  const std::size_t noverlap = o.noverlap.value_or(nperseg / 2);
  if (noverlap >= nperseg) {
    throw InvalidArgument("welch: noverlap (" + std::to_string(noverlap) + ") must be less than nperseg (" +
                          std::to_string(nperseg) + ")");
  }
  const std::size_t step = nperseg - noverlap;
  const std::size_t segments = (n - noverlap) / step;
  const bool onesided = o.return_onesided;
  const std::size_t bins = onesided ? nfft / 2 + 1 : nfft;
  double win_sum = 0, win_sq = 0;
  std::vector<U> w(win.size());
  for (std::size_t i = 0; i < win.size(); ++i) {
    w[i] = U(win[i]);
    win_sum += double(w[i]);
    win_sq += double(w[i]) * double(w[i]);
  }
  const U scale = U(o.scaling == Scaling::density ? 1.0 / (o.fs * win_sq) : 1.0 / (win_sum * win_sum));
  for (std::size_t k = 0; k < bins; ++k) {
    const double kk = (!onesided && k >= (nfft + 1) / 2) ? double(k) - double(nfft) : double(k);
    result.f.push_back(kk / (double(nfft) * (1.0 / o.fs)));
  }
  std::vector<std::size_t> shape = x.shape();
  shape[axis] = bins;
  result.pxx = Array<U>(shape);
  const auto in_offsets = iir::detail::line_offsets(x.shape(), x.strides(), axis);
  const auto strides = c_strides(shape);
  const auto out_offsets = iir::detail::line_offsets(shape, strides, axis);

  fft::PlanDesc desc;
  desc.shape = {nfft};
  desc.precision = sizeof(U) == sizeof(float) ? fft::Precision::f32 : fft::Precision::f64;
  desc.kind = onesided ? fft::Kind::r2c : fft::Kind::c2c;
  desc.threads = 1;
  const fft::Plan plan(desc);
  const std::size_t lines = in_offsets.size();
  // Per line: all segments' powers (bins x segments), then averaged.
  const unsigned threads = lines * segments * nfft >= (std::size_t{1} << 16) ? default_threads() : 1u;
  core::parallel_for(lines, threads, [&](std::size_t c) {
    core::Scratch scratch;
    U* seg = scratch.get<U>(nfft);
    auto* spec = scratch.get<std::complex<U>>(nfft);
    auto* cin = scratch.get<std::complex<U>>(nfft);
    U* power = scratch.get<U>(bins * std::max<std::size_t>(segments, 1));
    const U* line = x.data() + in_offsets[c];
    for (std::size_t s = 0; s < segments; ++s) {
      for (std::size_t i = 0; i < nperseg; ++i) seg[i] = line[static_cast<std::ptrdiff_t>(s * step + i) * x.stride(axis)];
      detrend(seg, nperseg, o.detrend);
      for (std::size_t i = 0; i < nperseg; ++i) seg[i] *= w[i];
      std::fill(seg + nperseg, seg + nfft, U(0));
      if (onesided) {
        plan.execute(seg, spec);
      } else {
        for (std::size_t i = 0; i < nfft; ++i) cin[i] = std::complex<U>(seg[i], 0);
        plan.execute(cin, spec);
      }
      for (std::size_t k = 0; k < bins; ++k) {
        U p = std::norm(spec[k]) * scale;
        if (onesided && k > 0 && (nfft % 2 == 1 || k < bins - 1)) p *= U(2);
        power[k * segments + s] = p;
      }
    }
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

template Welch<float> welch<const float>(ArrayView<const float>, const WelchOptions&);
template Welch<double> welch<const double>(ArrayView<const double>, const WelchOptions&);
template Welch<float> welch<float>(ArrayView<float>, const WelchOptions&);
template Welch<double> welch<double>(ArrayView<double>, const WelchOptions&);

}  // namespace ripple::spectral
