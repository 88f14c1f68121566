// upfirdn as a polyphase filter (fir/polyphase.hpp, shared with the streaming UpFirDn): each
// line is copied once into a zero-padded buffer, so every output is one SIMD dot product over
// contiguous memory with no bounds checks.
#include <algorithm>
#include <string>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "fir/polyphase.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/error.hpp"
#include "ripple/fir.hpp"
#include "ripple/runtime.hpp"

namespace ripple::fir::detail {
namespace {

// Outputs per work item when one line is split over threads.
constexpr std::size_t kOutputsPerItem = std::size_t{1} << 15;

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
  const auto poly = Polyphase<U>::make(h, up, down);
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
    poly.run(padded, first, dst + static_cast<std::ptrdiff_t>(k0) * os, os, k0, k1);
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
