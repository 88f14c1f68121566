// upfirdn as a polyphase filter (fir/polyphase.hpp, shared with the streaming UpFirDn). Where
// an output's window lies inside a unit-stride real line, the kernels read the line in place;
// elsewhere (the ends of the line, strided lines, the parts of complex samples) the samples
// are copied with their zero padding into a small buffer first, a few thousand at a time so
// the copy is still in the L1/L2 cache when the dot products read it.
#include <algorithm>
#include <string>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "fir/upfirdn_lines.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/error.hpp"
#include "ripple/fir.hpp"
#include "ripple/runtime.hpp"

namespace ripple::fir::detail {
namespace {

// Outputs per work item when one line is split over threads.
constexpr std::size_t kOutputsPerItem = std::size_t{1} << 15;
// Padded-line values copied at a time.
constexpr std::size_t kCopyValues = std::size_t{1} << 13;

}  // namespace

template <Sample R>
void upfirdn_lines(const Polyphase<typename ripple::detail::real_of<R>::type>& poly, ArrayView<const R> x,
                   std::size_t axis, std::size_t k_begin, Array<R>& y) {
  using U = typename ripple::detail::real_of<R>::type;
  const std::size_t n = x.extent(axis), count = y.shape[axis];
  if (y.size() == 0) return;
  constexpr std::size_t parts = ripple::detail::is_complex_v<R> ? 2 : 1;
  const auto in_offsets = iir::detail::line_offsets(x.shape(), x.strides(), axis);
  const auto y_strides = c_strides(y.shape);
  const auto out_offsets = iir::detail::line_offsets(y.shape, y_strides, axis);
  const std::size_t lines = in_offsets.size() * parts;
  const std::size_t chunks = (count + kOutputsPerItem - 1) / kOutputsPerItem;
  const std::size_t taps = poly.taps, up = poly.up, down = poly.down;
  const U* in = reinterpret_cast<const U*>(x.data());
  U* out = reinterpret_cast<U*>(y.values.data());
  const std::ptrdiff_t is = static_cast<std::ptrdiff_t>(parts) * x.stride(axis);
  const std::ptrdiff_t os = static_cast<std::ptrdiff_t>(parts) * y_strides[axis];
  // Output k reads padded indices [k down / up, + taps), i.e. samples from k down / up -
  // (taps - 1) to k down / up: all inside the line for k in [inner_lo, inner_hi).
  const std::size_t inner_lo = ((taps - 1) * up + down - 1) / down, inner_hi = (n * up + down - 1) / down;
  const std::size_t outputs_per_copy = std::max<std::size_t>(1, kCopyValues * up / down);
  const unsigned threads = lines * count * taps >= (std::size_t{1} << 16) ? default_threads() : 1u;
  core::parallel_for(lines * chunks, threads, [&](std::size_t item) {
    const std::size_t line = item / chunks, chunk = item % chunks;
    const std::size_t k0 = k_begin + chunk * kOutputsPerItem, k1 = k_begin + std::min(count, (chunk + 1) * kOutputsPerItem);
    const U* src = in + static_cast<std::ptrdiff_t>(parts) * in_offsets[line / parts] + static_cast<std::ptrdiff_t>(line % parts);
    U* dst = out + static_cast<std::ptrdiff_t>(parts) * out_offsets[line / parts] + static_cast<std::ptrdiff_t>(line % parts);
    const auto at = [&](std::size_t k) { return dst + static_cast<std::ptrdiff_t>(k - k_begin) * os; };  // output k
    core::Scratch scratch;
    U* padded = nullptr;
    // Outputs [a, b) from copies of the padded line (taps - 1 zeros, the samples, zeros).
    const auto through_copies = [&](std::size_t a, std::size_t b) {
      if (padded == nullptr && a < b) padded = scratch.get<U>(kCopyValues + 2 * taps + 8);
      for (std::size_t s = a; s < b; s += outputs_per_copy) {
        const std::size_t e = std::min(b, s + outputs_per_copy);
        const std::size_t first = s * down / up, last = (e - 1) * down / up + taps;
        // Padded index j holds sample j - (taps - 1) for j in [taps - 1, taps - 1 + n).
        const std::size_t lead_end = std::clamp(taps - 1, first, last), data_end = std::clamp(taps - 1 + n, lead_end, last);
        std::fill(padded, padded + (lead_end - first), U(0));
        if (data_end > lead_end) {
          const U* from = src + static_cast<std::ptrdiff_t>(lead_end - (taps - 1)) * is;
          U* to = padded + (lead_end - first);
          if (is == 1) {
            std::copy(from, from + (data_end - lead_end), to);
          } else {
            for (std::size_t j = 0; j < data_end - lead_end; ++j) to[j] = from[static_cast<std::ptrdiff_t>(j) * is];
          }
        }
        std::fill(padded + (data_end - first), padded + (last - first), U(0));
        poly.run(padded, first, at(s), os, s, e);
      }
    };
    if (is == 1) {
      const std::size_t lo = std::clamp(inner_lo, k0, k1), hi = std::clamp(inner_hi, lo, k1);
      through_copies(k0, lo);
      // The line itself as the padded line from padded index taps - 1 on.
      if (hi > lo) poly.run(src, taps - 1, at(lo), os, lo, hi);
      through_copies(hi, k1);
    } else {
      through_copies(k0, k1);
    }
  });
}

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
  if (y.size() == 0) return y;
  upfirdn_lines<R>(Polyphase<U>::make(h, up, down), x, axis, 0, y);
  return y;
}

#define RIPPLE_UPFIRDN(R)                                                                                             \
  template void upfirdn_lines<R>(const Polyphase<ripple::detail::real_of<R>::type>&, ArrayView<const R>, std::size_t, \
                                 std::size_t, Array<R>&);                                                             \
  template Array<R> upfirdn<R>(std::span<const ripple::detail::real_of<R>::type>, ArrayView<const R>, std::size_t,    \
                               std::size_t, int);
RIPPLE_UPFIRDN(float)
RIPPLE_UPFIRDN(double)
RIPPLE_UPFIRDN(std::complex<float>)
RIPPLE_UPFIRDN(std::complex<double>)
#undef RIPPLE_UPFIRDN

}  // namespace ripple::fir::detail
