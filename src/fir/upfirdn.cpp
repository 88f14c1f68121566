// upfirdn as a polyphase filter: output k sits at position n = k * down of the upsampled
// signal, so only the taps of phase p = n mod up meet nonzero samples, and
//   y[k] = sum_t h[p + t * up] * x[n / up - t].
// Each phase's taps are stored reversed, and each line is copied once into a zero-padded
// buffer, so every output is one SIMD dot product over contiguous memory with no bounds checks.
#include <algorithm>
#include <string>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "cpu/fir_kernels.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/error.hpp"
#include "ripple/fir.hpp"
#include "ripple/runtime.hpp"

namespace ripple::fir::detail {
namespace {

// Outputs per work item when one line is split over threads.
constexpr std::size_t kOutputsPerItem = std::size_t{1} << 15;

template <class U>
struct Polyphase {
  std::size_t up = 1, down = 1, taps = 0;  // taps per phase
  std::vector<U> reversed;                 // phase p at [p * taps, (p + 1) * taps), reversed
};

template <class U>
Polyphase<U> make_polyphase(std::span<const U> h, std::size_t up, std::size_t down) {
  Polyphase<U> poly;
  poly.up = up;
  poly.down = down;
  poly.taps = (h.size() + up - 1) / up;
  poly.reversed.assign(up * poly.taps, U(0));
  for (std::size_t p = 0; p < up; ++p) {
    for (std::size_t t = 0; p + t * up < h.size(); ++t) poly.reversed[p * poly.taps + (poly.taps - 1 - t)] = h[p + t * up];
  }
  return poly;
}

// Outputs [k0, k1) of one real line. The full padded line is taps - 1 zeros, the input
// samples, and taps zeros; `padded` holds it from index `first` on.
template <class U>
void run_outputs(const Polyphase<U>& poly, const U* padded, std::size_t first, U* out, std::ptrdiff_t os,
                 std::size_t k0, std::size_t k1) {
  const auto dot = cpu::fir_kernels<U>().dot;
  for (std::size_t k = k0; k < k1; ++k) {
    const std::size_t n = k * poly.down;
    const std::size_t p = n % poly.up;
    out[static_cast<std::ptrdiff_t>(k) * os] =
        dot(poly.reversed.data() + p * poly.taps, padded + (n / poly.up - first), poly.taps);
  }
}

}  // namespace

template <Sample R>
Array<R> upfirdn(std::span<const typename ripple::detail::real_of<R>::type> h, ArrayView<const R> x, std::size_t up,
                 std::size_t down, int axis_arg) {
  using U = typename ripple::detail::real_of<R>::type;
  if (h.empty()) throw InvalidArgument("upfirdn: h must be 1-D with non-zero length; got 0 taps");
  if (up < 1 || down < 1) {
    throw InvalidArgument("upfirdn: both up and down must be >= 1; got up = " + std::to_string(up) + ", down = " +
                          std::to_string(down));
  }
  if (x.ndim() == 0) throw InvalidArgument("upfirdn: x must be at least 1-D; got a 0-d array");
  const std::size_t axis = normalize_axis(axis_arg, x.ndim());
  const std::size_t n = x.extent(axis);
  std::vector<std::size_t> shape = x.shape();
  shape[axis] = n == 0 ? 0 : ((n - 1) * up + h.size() - 1) / down + 1;
  Array<R> y(shape);
  const std::size_t outputs = shape[axis];
  if (y.size() == 0) return y;
  const Polyphase<U> poly = make_polyphase(h, up, down);
  constexpr std::size_t parts = ripple::detail::is_complex_v<R> ? 2 : 1;
  const auto in_offsets = iir::detail::line_offsets(x.shape(), x.strides(), axis);
  const auto y_strides = c_strides(shape);
  const auto out_offsets = iir::detail::line_offsets(shape, y_strides, axis);
  const std::size_t lines = in_offsets.size() * parts;
  const std::size_t chunks = (outputs + kOutputsPerItem - 1) / kOutputsPerItem;
  const std::size_t padded_size = (poly.taps - 1) + n + poly.taps;
  const U* in = reinterpret_cast<const U*>(x.data());
  U* out = reinterpret_cast<U*>(y.values.data());
  const std::ptrdiff_t is = static_cast<std::ptrdiff_t>(parts) * x.stride(axis);
  const std::ptrdiff_t os = static_cast<std::ptrdiff_t>(parts) * y_strides[axis];
  const unsigned threads = lines * outputs * poly.taps >= (std::size_t{1} << 16) ? default_threads() : 1u;
  // Work items are (line, chunk of outputs); each copies the part of its line it needs.
  core::parallel_for(lines * chunks, threads, [&](std::size_t item) {
    const std::size_t line = item / chunks, chunk = item % chunks;
    const std::size_t k0 = chunk * kOutputsPerItem, k1 = std::min(outputs, k0 + kOutputsPerItem);
    const U* src = in + static_cast<std::ptrdiff_t>(parts) * in_offsets[line / parts] + static_cast<std::ptrdiff_t>(line % parts);
    U* dst = out + static_cast<std::ptrdiff_t>(parts) * out_offsets[line / parts] + static_cast<std::ptrdiff_t>(line % parts);
    // Inputs this chunk reads: padded indices [first, last) of the full padded line.
    const std::size_t first = (k0 * down) / up, last = std::min(padded_size, (k1 - 1) * down / up + poly.taps);
    core::Scratch scratch;
    U* padded = scratch.get<U>(last - first);
    for (std::size_t j = first; j < last; ++j) {
      const std::size_t i = j - (poly.taps - 1);  // input index (wraps below zero)
      padded[j - first] = (j >= poly.taps - 1 && i < n) ? src[static_cast<std::ptrdiff_t>(i) * is] : U(0);
    }
    run_outputs(poly, padded, first, dst, os, k0, k1);
  });
  return y;
}

template Array<float> upfirdn<float>(std::span<const float>, ArrayView<const float>, std::size_t, std::size_t, int);
template Array<double> upfirdn<double>(std::span<const double>, ArrayView<const double>, std::size_t, std::size_t, int);
template Array<std::complex<float>> upfirdn<std::complex<float>>(std::span<const float>,
                                                                 ArrayView<const std::complex<float>>, std::size_t,
                                                                 std::size_t, int);
template Array<std::complex<double>> upfirdn<std::complex<double>>(std::span<const double>,
                                                                   ArrayView<const std::complex<double>>, std::size_t,
                                                                   std::size_t, int);

}  // namespace ripple::fir::detail
