// fir::Filter: lfilter(h, [1], x) with state, by FFT overlap-save for long filters and direct
// dot products otherwise. A line's input is seen as its history (the last len(h) - 1 samples
// of earlier calls) followed by this call's samples; output i is the dot product of the
// reversed taps with the len(h) inputs ending at i. Both methods read inputs only, so chunks of
// a line are independent and run on threads.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "cpu/fir_kernels.hpp"
#include "core/interleaved.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"
#include "ripple/fir.hpp"
#include "ripple/runtime.hpp"

namespace ripple::fir {
namespace {

// Outputs per work item (a multiple of any FFT step is not needed: items cut blocks anew).
constexpr std::size_t kChunk = std::size_t{1} << 16;

std::size_t next_pow2(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace

template <Sample T>
struct Filter<T>::Impl {
  using U = Real;
  std::size_t taps = 0, lines = 0, channels = 0;
  std::vector<U> reversed;  // taps reversed
  std::vector<U> history;   // per real line, taps - 1 samples
  Method method = Method::direct;
  std::size_t n = 0, step = 0;  // FFT size and outputs per FFT block
  std::vector<std::complex<U>> spectrum;  // of h zero-padded to n
  std::unique_ptr<fft::Plan> forward, backward;
  // Per-call tables, kept so that a stream's steady state does not allocate.
  std::vector<const U*> line_in;
  std::vector<U*> line_out;
  std::vector<U> copy, next_history;

  // Filters `count` samples of every real line: line_in[l][t * is] into line_out[l][t * os].
  void filter_lines(std::size_t count, std::ptrdiff_t is, std::ptrdiff_t os, bool in_place);

  // Outputs [a, b) of one real line: in(i) is input i of this call (i may be negative, down to
  // -(taps - 1), meaning history), out at y + i * os.
  void run(const U* hist, const U* x, std::ptrdiff_t is, U* y, std::ptrdiff_t os, std::size_t a, std::size_t b) const {
    core::Scratch scratch;
    auto input = [&](std::ptrdiff_t i) -> U {
      return i < 0 ? hist[static_cast<std::ptrdiff_t>(taps - 1) + i] : x[i * is];
    };
    std::size_t i = a;
    if (method == Method::fft) {
      U* block = scratch.get<U>(n);
      auto* freq = scratch.get<std::complex<U>>(n / 2 + 1);
      for (; i + step <= b; i += step) {
        // Inputs i - (taps - 1) .. i + step - 1: n values.
        for (std::size_t k = 0; k < n; ++k) block[k] = input(static_cast<std::ptrdiff_t>(i + k) - static_cast<std::ptrdiff_t>(taps - 1));
        forward->execute(block, freq);
        for (std::size_t k = 0; k <= n / 2; ++k) freq[k] *= spectrum[k];
        backward->execute(freq, block);
        for (std::size_t k = 0; k < step; ++k) y[static_cast<std::ptrdiff_t>(i + k) * os] = block[taps - 1 + k];
      }
    }
    if (i < b) {
      const std::size_t count = b - i;
      U* window = scratch.get<U>(count + taps - 1);
      for (std::size_t k = 0; k < count + taps - 1; ++k) {
        window[k] = input(static_cast<std::ptrdiff_t>(i + k) - static_cast<std::ptrdiff_t>(taps - 1));
      }
      U* result = os == 1 ? y + static_cast<std::ptrdiff_t>(i) : scratch.get<U>(count);
      cpu::fir_kernels<U>().convolve(reversed.data(), taps, window, result, count);
      if (os != 1) {
        for (std::size_t k = 0; k < count; ++k) y[static_cast<std::ptrdiff_t>(i + k) * os] = result[k];
      }
    }
  }
};

template <Sample T>
Filter<T>::Filter(std::span<const double> h, std::size_t channels, Method method) : impl_(std::make_unique<Impl>()) {
  using U = Real;
  if (h.empty()) throw InvalidArgument("fir::Filter: h must have at least one tap");
  if (channels == 0) throw InvalidArgument("fir::Filter: channels must be at least 1, got 0");
  Impl& im = *impl_;
  im.taps = h.size();
  im.channels = channels;
  im.lines = channels * (ripple::detail::is_complex_v<T> ? 2 : 1);
  for (std::size_t k = h.size(); k-- > 0;) im.reversed.push_back(U(h[k]));
  im.history.assign(im.lines * (im.taps - 1), U(0));
  // Cost per output: direct, 2 * taps flops at full SIMD rate; FFT of size n (4 * taps rounded
  // up to a power of two), about 2.5 n log2 n flops each way plus the product, shared by
  // n - taps + 1 outputs, at a lower rate (kFftSlowdown, measured: the crossover is near 150
  // taps on a 2-core Zen 3, float).
  constexpr double kFftSlowdown = 4.5;
  const std::size_t n = std::max<std::size_t>(256, next_pow2(4 * im.taps));
  const double fft_cost = (5.0 * double(n) * std::log2(double(n)) + 4.0 * double(n)) / double(n - im.taps + 1);
  const double direct_cost = 2.0 * double(im.taps);
  if (method == Method::automatic) method = fft_cost * kFftSlowdown < direct_cost ? Method::fft : Method::direct;
  im.method = method;
  if (method == Method::fft) {
    im.n = n;
    im.step = n - im.taps + 1;
    fft::PlanDesc desc;
    desc.shape = {n};
    desc.precision = sizeof(U) == sizeof(float) ? fft::Precision::f32 : fft::Precision::f64;
    desc.threads = 1;
    desc.kind = fft::Kind::r2c;
    im.forward = std::make_unique<fft::Plan>(desc);
    desc.kind = fft::Kind::c2r;
    desc.direction = fft::Direction::backward;
    im.backward = std::make_unique<fft::Plan>(desc);
    std::vector<double> padded(n, 0.0);
    std::copy(h.begin(), h.end(), padded.begin());
    const auto spectrum = fft::rfft(std::span<const double>(padded));
    for (const auto& c : spectrum) im.spectrum.push_back(std::complex<U>(c));  // c2r scales by 1/n (numpy norm)
  }
}

template <Sample T>
Filter<T>::Filter(Filter&&) noexcept = default;
template <Sample T>
Filter<T>& Filter<T>::operator=(Filter&&) noexcept = default;
template <Sample T>
Filter<T>::~Filter() = default;

template <Sample T>
typename Filter<T>::Method Filter<T>::method() const noexcept {
  return impl_->method;
}
template <Sample T>
std::size_t Filter<T>::fft_size() const noexcept {
  return impl_->n;
}
template <Sample T>
std::size_t Filter<T>::channels() const noexcept {
  return impl_->channels;
}

template <Sample T>
void Filter<T>::process(ArrayView<const T> x, ArrayView<T> y, int axis_arg) {
  using U = Real;
  Impl& im = *impl_;
  if (x.ndim() == 0) throw InvalidArgument("fir::Filter::process: x must be at least 1-D; got a 0-d array");
  const std::size_t axis = normalize_axis(axis_arg, x.ndim());
  if (y.shape() != x.shape()) {
    throw InvalidArgument("fir::Filter::process: y has shape " + shape_text(y.shape()) + " but x has shape " +
                          shape_text(x.shape()));
  }
  const std::size_t count = x.extent(axis);
  const auto in_offsets = iir::detail::line_offsets(x.shape(), x.strides(), axis);
  if (in_offsets.size() != im.channels) {
    throw InvalidArgument("fir::Filter::process: x of shape " + shape_text(x.shape()) + " has " +
                          std::to_string(in_offsets.size()) + " lines along axis " + std::to_string(axis_arg) +
                          " but the filter has " + std::to_string(im.channels) + " channels");
  }
  if (count == 0) return;
  const auto out_offsets = iir::detail::line_offsets(y.shape(), y.strides(), axis);
  constexpr std::size_t parts = ripple::detail::is_complex_v<T> ? 2 : 1;
  const U* in = reinterpret_cast<const U*>(x.data());
  U* out = reinterpret_cast<U*>(y.data());
  im.line_in.resize(im.lines);
  im.line_out.resize(im.lines);
  for (std::size_t line = 0; line < im.lines; ++line) {
    const std::ptrdiff_t part = static_cast<std::ptrdiff_t>(line % parts);
    im.line_in[line] = in + static_cast<std::ptrdiff_t>(parts) * in_offsets[line / parts] + part;
    im.line_out[line] = out + static_cast<std::ptrdiff_t>(parts) * out_offsets[line / parts] + part;
  }
  const bool in_place = static_cast<const void*>(x.data()) == static_cast<const void*>(y.data());
  im.filter_lines(count, static_cast<std::ptrdiff_t>(parts) * x.stride(axis), static_cast<std::ptrdiff_t>(parts) * y.stride(axis),
                  in_place);
}

template <Sample T>
void Filter<T>::Impl::filter_lines(std::size_t count, std::ptrdiff_t is, std::ptrdiff_t os, bool in_place) {
  // In place (y == x), outputs would overwrite inputs other chunks still read: copy the input.
  const std::size_t chunks = (count + kChunk - 1) / kChunk;
  const std::size_t hist = taps - 1;
  if (in_place) {
    copy.resize(lines * count);
    for (std::size_t line = 0; line < lines; ++line) {
      for (std::size_t t = 0; t < count; ++t) copy[line * count + t] = line_in[line][static_cast<std::ptrdiff_t>(t) * is];
      line_in[line] = copy.data() + line * count;
    }
  }
  const std::ptrdiff_t read_stride = in_place ? 1 : is;
  // The new history of each line is taken before anything is written.
  next_history.resize(history.size());
  for (std::size_t line = 0; line < lines; ++line) {
    for (std::size_t k = 0; k < hist; ++k) {
      // Input index count - hist + k of the concatenation history + x.
      const std::ptrdiff_t i = static_cast<std::ptrdiff_t>(count) - static_cast<std::ptrdiff_t>(hist) + static_cast<std::ptrdiff_t>(k);
      next_history[line * hist + k] =
          i < 0 ? history[line * hist + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(hist) + i)]
                : line_in[line][i * read_stride];
    }
  }
  const unsigned threads = count * lines * taps >= (std::size_t{1} << 18) ? default_threads() : 1u;
  core::parallel_for(lines * chunks, threads, [&](std::size_t item) {
    const std::size_t line = item / chunks, chunk = item % chunks;
    run(history.data() + line * hist, line_in[line], read_stride, line_out[line], os, chunk * kChunk,
        std::min(count, (chunk + 1) * kChunk));
  });
  std::swap(history, next_history);
}

template <Sample T>
void Filter<T>::process_interleaved(std::span<const T> x, std::span<T> y) {
  core::check_interleaved("fir::Filter::process_interleaved", x.size(), y.size(), channels());
  // Lines straight from the frames (no views, no allocation once the tables have grown).
  Impl& im = *impl_;
  const std::size_t count = x.size() / im.channels;
  if (count == 0) return;
  const Real* in = reinterpret_cast<const Real*>(x.data());
  Real* out = reinterpret_cast<Real*>(y.data());
  im.line_in.resize(im.lines);
  im.line_out.resize(im.lines);
  for (std::size_t line = 0; line < im.lines; ++line) {
    im.line_in[line] = in + line;
    im.line_out[line] = out + line;
  }
  const auto stride = static_cast<std::ptrdiff_t>(im.lines);
  im.filter_lines(count, stride, stride, static_cast<const void*>(x.data()) == static_cast<const void*>(y.data()));
}

template <Sample T>
Array<T> Filter<T>::operator()(ArrayView<const T> x, int axis) {
  Array<T> y(x.shape());
  process(x, y.view(), axis);
  return y;
}

template <Sample T>
void Filter<T>::reset() {
  std::fill(impl_->history.begin(), impl_->history.end(), Real(0));
}

template class Filter<float>;
template class Filter<double>;
template class Filter<std::complex<float>>;
template class Filter<std::complex<double>>;

}  // namespace ripple::fir
