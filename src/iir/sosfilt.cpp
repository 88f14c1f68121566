// sosfilt, sosfilt_zi and sosfiltfilt with scipy.signal's rules.
#include <algorithm>
#include <span>
#include <string>
#include <utility>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "iir/plan_cache.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/error.hpp"
#include "ripple/runtime.hpp"

namespace ripple::iir {
namespace detail {
namespace {

std::vector<std::size_t> zi_shape_for(std::span<const std::size_t> x_shape, std::size_t axis, std::size_t sections) {
  std::vector<std::size_t> shape{sections};
  shape.insert(shape.end(), x_shape.begin(), x_shape.end());
  shape[axis + 1] = 2;
  return shape;
}

template <class R>
std::size_t checked_axis(ArrayView<const R> x, int axis) {
  if (x.ndim() == 0) throw InvalidArgument("x must be at least 1-D; got a 0-d array");
  return normalize_axis(axis, x.ndim());
}

// The pads scipy's filtfilt puts at both ends of every line along axis (odd_ext / even_ext /
// const_ext), as two C-ordered arrays of x's shape with `edge` samples along axis: left holds
// samples 0 .. edge-1 of the extended signal, right its samples edge+n .. 2*edge+n-1.
template <class R>
std::pair<Array<R>, Array<R>> edge_pads(ArrayView<const R> x, std::size_t axis, std::size_t edge, PadType padtype) {
  const std::size_t n = x.extent(axis);
  std::vector<std::size_t> shape = x.shape();
  shape[axis] = edge;
  Array<R> left(shape), right(shape);
  const auto pad_strides = c_strides(shape);
  const auto in_offsets = line_offsets(x.shape(), x.strides(), axis);
  const auto pad_offsets = line_offsets(shape, pad_strides, axis);
  const std::ptrdiff_t is = x.stride(axis), ps = pad_strides[axis];
  for (std::size_t c = 0; c < in_offsets.size(); ++c) {
    const R* in = x.data() + in_offsets[c];
    auto at = [&](std::size_t t) { return in[static_cast<std::ptrdiff_t>(t) * is]; };
    const R first = at(0), last = at(n - 1);
    for (std::size_t k = 1; k <= edge; ++k) {
      R before, after;
      switch (padtype) {
        case PadType::odd:
          before = R(2) * first - at(k);
          after = R(2) * last - at(n - 1 - k);
          break;
        case PadType::even:
          before = at(k);
          after = at(n - 1 - k);
          break;
        default:
          before = first;
          after = last;
          break;
      }
      left.values[static_cast<std::size_t>(pad_offsets[c] + static_cast<std::ptrdiff_t>(edge - k) * ps)] = before;
      right.values[static_cast<std::size_t>(pad_offsets[c] + static_cast<std::ptrdiff_t>(k - 1) * ps)] = after;
    }
  }
  return {std::move(left), std::move(right)};
}

// A C-ordered shape seen along one axis: `outer` blocks (the axes before it) of `rows` rows of
// `inner` contiguous elements (the axes after it).
struct RowsAlong {
  std::size_t outer = 1, rows = 1, inner = 1;
};

RowsAlong rows_along(std::span<const std::size_t> shape, std::size_t axis) {
  RowsAlong g;
  g.rows = shape[axis];
  for (std::size_t a = 0; a < axis; ++a) g.outer *= shape[a];
  for (std::size_t a = axis + 1; a < shape.size(); ++a) g.inner *= shape[a];
  return g;
}

// Copies of at least this many samples are split over the threads.
constexpr std::size_t kMinParallelReverse = std::size_t{1} << 16;

// Row from_first + j of `from` (from_rows rows per block) to row to_first + count - 1 - j of
// `to` (to_rows rows per block), for j < count in every block. Large copies are split over the
// threads, by blocks and within them: serial, they held sosfiltfilt of one line on two threads
// to 1.2x one thread (2^22 samples, medians of alternated runs on the 2-core AVX-512 VM: float
// 1079 -> 1235 Msamples/s, double 664 -> 774; one thread unchanged).
template <class R>
void copy_rows_reversed(const R* from, std::size_t from_rows, std::size_t from_first, R* to, std::size_t to_rows,
                        std::size_t to_first, std::size_t count, std::size_t outer, std::size_t inner) {
  const unsigned threads = outer * count * inner >= kMinParallelReverse ? default_threads() : 1;
  const std::size_t shares = outer >= threads ? 1 : threads;  // of each block's rows
  core::parallel_for(outer * shares, threads, [&](std::size_t i) {
    const std::size_t o = i / shares, share = i % shares;
    const std::size_t j0 = count * share / shares, j1 = count * (share + 1) / shares;
    const R* __restrict src = from + (o * from_rows + from_first) * inner;
    R* __restrict dst = to + (o * to_rows + to_first) * inner;
    if (inner == 1) {
      // (A plain indexed loop: the compiler vectorizes it, std::reverse_copy it did not.)
      for (std::size_t j = j0; j < j1; ++j) dst[count - 1 - j] = src[j];
    } else {
      for (std::size_t j = j0; j < j1; ++j) std::copy_n(src + j * inner, inner, dst + (count - 1 - j) * inner);
    }
  });
}

// y (C-ordered) filtered in place from its last sample to its first, starting from `states`.
// The cascade runs forward only, so pieces of every line are copied reversed into a buffer
// that stays in the L3 cache, filtered there and copied back: one pass over memory, where
// reversing y whole before and after filtering took two more. (2^22 samples of butter(8, 0.1)
// on the AVX-512 Zen 4 VM, one thread: f32 5.4-7.3 -> 3.7-5.3 ms, f64 8.5-10.4 -> 5.9-7.3 ms;
// sosfilt takes 1.3-1.6 and 1.9-2.5 ms. 4 MiB pieces beat 0.5 MiB ones, 4.4 against 5.4 ms
// in float: every call of the executor pays for a partial scan block.)
template <class R>
void filter_backward(const SosPlan<typename real_of<R>::type>& plan, Array<R>& y, std::size_t axis,
                     LineStates<typename real_of<R>::type>& states) {
  // At least this many rows, so that many short lines still go through in few calls (the
  // buffer is then at most y's size).
  constexpr std::size_t kPieceBytes = std::size_t(4) << 20, kMinPieceRows = 256;
  const RowsAlong g = rows_along(y.shape, axis);
  const std::size_t row_bytes = g.outer * g.inner * sizeof(R);
  const std::size_t piece = std::min(g.rows, std::max(kMinPieceRows, kPieceBytes / std::max<std::size_t>(row_bytes, 1)));
  std::vector<std::size_t> shape = y.shape;
  shape[axis] = piece;
  // Thread scratch (kept for the next call: an array of its own measured 3-5% slower in
  // double) unless many short lines make the buffer as large as y: the thread would keep that
  // for its lifetime, while the array allocator bounds what it holds.
  const std::size_t count = g.outer * piece * g.inner;
  core::Scratch scratch;
  Array<R> own;
  R* buffer = nullptr;
  if (count * sizeof(R) <= 2 * kPieceBytes) {
    buffer = scratch.get<R>(count);
  } else {
    own = Array<R>(shape);
    buffer = own.values.data();
  }
  for (std::size_t end = g.rows; end > 0;) {
    const std::size_t begin = end > piece ? end - piece : 0, rows = end - begin;
    shape[axis] = rows;
    const ArrayView<R> part(buffer, shape);
    copy_rows_reversed(y.values.data(), g.rows, begin, buffer, rows, 0, rows, g.outer, g.inner);
    apply_sos<R>(plan, part, part, axis, states);
    copy_rows_reversed(static_cast<const R*>(buffer), rows, 0, y.values.data(), g.rows, begin, rows, g.outer, g.inner);
    end = begin;
  }
}

// Line states equal to zi (n_sections x 2) times the sample of each line at `index` along axis.
template <class R>
LineStates<typename real_of<R>::type> scaled_states(const Array<typename real_of<R>::type>& zi,
                                                    ArrayView<const R> x, std::size_t axis, std::size_t index) {
  const std::size_t sections = zi.shape[0];
  auto states = zero_states<R>(x.shape(), axis, sections);
  const auto offsets = line_offsets(x.shape(), x.strides(), axis);
  for (std::size_t c = 0; c < offsets.size(); ++c) {
    const R v = x.data()[offsets[c] + static_cast<std::ptrdiff_t>(index) * x.stride(axis)];
    for (std::size_t p = 0; p < states.components; ++p) {
      typename real_of<R>::type part;
      if constexpr (is_complex_v<R>) {
        part = p == 0 ? v.real() : v.imag();
      } else {
        part = v;
      }
      for (std::size_t k = 0; k < 2 * sections; ++k) {
        states.values[(c * states.components + p) * 2 * sections + k] = zi.values[k] * part;
      }
    }
  }
  return states;
}

}  // namespace

template <Sample R>
Filtered<R> sosfilt(const BasicSos<typename real_of<R>::type>& sos, ArrayView<const R> x, int axis_arg,
                    const ArrayView<const R>* zi) {
  validate_sos(sos);
  const std::size_t axis = checked_axis(x, axis_arg);
  const auto zi_shape = zi_shape_for(x.shape(), axis, sos.size());
  if (zi != nullptr && zi->shape() != zi_shape) {
    throw InvalidArgument("Invalid zi shape. With axis=" + std::to_string(axis_arg) + ", an input with shape " +
                          shape_text(x.shape()) + ", and an sos array with " + std::to_string(sos.size()) +
                          " sections, zi must have shape " + shape_text(zi_shape) + ", got " +
                          shape_text(zi->shape()) + ".");
  }
  const auto plan = cached_sos_plan<typename real_of<R>::type>(sos, x.shape()[axis]);
  auto states = zi != nullptr ? states_from_zi<R>(*zi, axis) : zero_states<R>(x.shape(), axis, sos.size());
  Filtered<R> result;
  result.y = Array<R>(x.shape());
  apply_sos<R>(*plan, x, result.y.view(), axis, states);
  if (zi != nullptr) result.zf = zi_from_states<R>(states, x.shape(), axis);
  return result;
}

template <Sample R>
Array<R> sosfiltfilt(const BasicSos<typename real_of<R>::type>& sos, ArrayView<const R> x, int axis_arg,
                     PadType padtype, std::optional<std::size_t> padlen) {
  using U = typename real_of<R>::type;
  validate_sos(sos);
  const std::size_t axis = checked_axis(x, axis_arg);
  std::size_t ntaps = 2 * sos.size() + 1;
  std::size_t zero_b2 = 0, zero_a2 = 0;
  for (const auto& row : sos.rows()) {
    zero_b2 += row[2] == U(0);
    zero_a2 += row[5] == U(0);
  }
  ntaps -= std::min(zero_b2, zero_a2);
  const std::size_t edge = padtype == PadType::none ? 0 : padlen.value_or(3 * ntaps);
  const std::size_t n = x.extent(axis);
  if (n <= edge) {
    throw InvalidArgument("The length of the input vector x must be greater than padlen, which is " +
                          std::to_string(edge) + "; x has " + std::to_string(n) + " samples along axis " +
                          std::to_string(axis_arg));
  }
  // The extended signal is never built: the forward pass runs over the left pad (for its final
  // states only), x into y and the right pad; the backward pass over the right pad reversed
  // (states only), then y from its end.
  const auto plan = cached_sos_plan<U>(sos, n);
  const Array<U> zi = sosfilt_zi(sos);
  Array<R> y(x.shape());
  LineStates<U> states;
  if (edge == 0) {
    states = scaled_states<R>(zi, x, axis, 0);
    apply_sos<R>(*plan, x, y.view(), axis, states);
    states = scaled_states<R>(zi, ArrayView<const R>(y.view()), axis, n - 1);
  } else {
    auto [left, right] = edge_pads(x, axis, edge, padtype);
    states = scaled_states<R>(zi, ArrayView<const R>(left.view()), axis, 0);
    apply_sos<R>(*plan, left.view(), left.view(), axis, states);
    apply_sos<R>(*plan, x, y.view(), axis, states);
    apply_sos<R>(*plan, right.view(), right.view(), axis, states);
    states = scaled_states<R>(zi, ArrayView<const R>(right.view()), axis, edge - 1);
    const RowsAlong g = rows_along(right.shape, axis);
    copy_rows_reversed(right.values.data(), edge, 0, left.values.data(), edge, 0, edge, g.outer, g.inner);
    apply_sos<R>(*plan, left.view(), left.view(), axis, states);
  }
  filter_backward<R>(*plan, y, axis, states);
  return y;
}

#define RIPPLE_INSTANTIATE(R)                                                                                 \
  template Filtered<R> sosfilt<R>(const BasicSos<real_of<R>::type>&, ArrayView<const R>, int,                 \
                                  const ArrayView<const R>*);                                                 \
  template Array<R> sosfiltfilt<R>(const BasicSos<real_of<R>::type>&, ArrayView<const R>, int, PadType,       \
                                   std::optional<std::size_t>);
RIPPLE_INSTANTIATE(float)
RIPPLE_INSTANTIATE(double)
RIPPLE_INSTANTIATE(std::complex<float>)
RIPPLE_INSTANTIATE(std::complex<double>)
#undef RIPPLE_INSTANTIATE

}  // namespace detail

template <std::floating_point S>
Array<S> sosfilt_zi(const BasicSos<S>& sos) {
  if (sos.size() == 0) throw InvalidArgument("sos must be shape (n_sections, 6) with n_sections >= 1; got 0 sections");
  Array<S> zi({sos.size(), 2});
  double scale = 1.0;
  for (std::size_t s = 0; s < sos.size(); ++s) {
    const auto& row = sos[s];
    const double b[3] = {double(row[0]), double(row[1]), double(row[2])};
    const double a[3] = {double(row[3]), double(row[4]), double(row[5])};
    const std::vector<double> z = lfilter_zi(b, a);
    zi.values[2 * s] = S(scale * z[0]);
    zi.values[2 * s + 1] = S(scale * z[1]);
    scale *= (b[0] + b[1] + b[2]) / (a[0] + a[1] + a[2]);
  }
  return zi;
}

template Array<float> sosfilt_zi<float>(const BasicSos<float>&);
template Array<double> sosfilt_zi<double>(const BasicSos<double>&);

}  // namespace ripple::iir
