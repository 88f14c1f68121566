// sosfilt, sosfilt_zi and sosfiltfilt with scipy.signal's rules.
#include <algorithm>
#include <string>

#include "iir/plan_cache.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/error.hpp"

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

// x with `edge` samples added at both ends along axis (scipy's odd_ext / even_ext / const_ext).
template <class R>
Array<R> extend(ArrayView<const R> x, std::size_t axis, std::size_t edge, PadType padtype) {
  const std::size_t n = x.extent(axis);
  std::vector<std::size_t> shape = x.shape();
  shape[axis] = n + 2 * edge;
  Array<R> ext(shape);
  const auto ext_strides = c_strides(shape);
  const auto in_offsets = line_offsets(x.shape(), x.strides(), axis);
  const auto out_offsets = line_offsets(shape, ext_strides, axis);
  const std::ptrdiff_t is = x.stride(axis), os = ext_strides[axis];
  for (std::size_t c = 0; c < in_offsets.size(); ++c) {
    const R* in = x.data() + in_offsets[c];
    R* out = ext.values.data() + out_offsets[c];
    auto at = [&](std::size_t t) { return in[static_cast<std::ptrdiff_t>(t) * is]; };
    for (std::size_t t = 0; t < n; ++t) out[static_cast<std::ptrdiff_t>(edge + t) * os] = at(t);
    const R first = at(0), last = at(n - 1);
    for (std::size_t k = 1; k <= edge; ++k) {
      R left, right;
      switch (padtype) {
        case PadType::odd:
          left = R(2) * first - at(k);
          right = R(2) * last - at(n - 1 - k);
          break;
        case PadType::even:
          left = at(k);
          right = at(n - 1 - k);
          break;
        default:
          left = first;
          right = last;
          break;
      }
      out[static_cast<std::ptrdiff_t>(edge - k) * os] = left;
      out[static_cast<std::ptrdiff_t>(edge + n - 1 + k) * os] = right;
    }
  }
  return ext;
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
  Array<R> ext = extend(x, axis, edge, padtype);  // a C-ordered copy when edge == 0
  const auto plan_held = cached_sos_plan<U>(sos, ext.shape[axis]);
  const SosPlan<U>& plan = *plan_held;
  const Array<U> zi = sosfilt_zi(sos);
  const std::size_t len = ext.shape[axis];
  // Forward, in place, from zi * first sample.
  auto states = scaled_states<R>(zi, ArrayView<const R>(ext.view()), axis, 0);
  apply_sos<R>(plan, ext.view(), ext.view(), axis, states);
  // Backward: every line reversed in place, so that the filter runs forward over lines of
  // ext's own strides (unit stride along the last axis: its fast paths, where a reversed view
  // went through the strided one), from zi * last forward output; the crop reads them back.
  const auto es = c_strides(ext.shape);
  const auto lines = line_offsets(ext.shape, es, axis);
  const auto at = [&](std::size_t c, std::size_t t) -> R& {
    return ext.values[static_cast<std::size_t>(lines[c] + static_cast<std::ptrdiff_t>(t) * es[axis])];
  };
  const auto reverse_lines = [&] {
    for (std::size_t c = 0; c < lines.size(); ++c) {
      for (std::size_t t = 0; t < len / 2; ++t) std::swap(at(c, t), at(c, len - 1 - t));
    }
  };
  reverse_lines();
  states = scaled_states<R>(zi, ArrayView<const R>(ext.view()), axis, 0);
  apply_sos<R>(plan, ext.view(), ext.view(), axis, states);
  if (edge == 0) {
    reverse_lines();
    return ext;
  }
  // Crop [edge, edge + n) of the result, which is [len - edge - n, len - edge) reversed.
  Array<R> y(x.shape());
  const auto ys = c_strides(y.shape);
  const auto dst = line_offsets(y.shape, ys, axis);
  for (std::size_t c = 0; c < lines.size(); ++c) {
    R* out = y.values.data() + dst[c];
    for (std::size_t t = 0; t < n; ++t) out[static_cast<std::ptrdiff_t>(t) * ys[axis]] = at(c, len - 1 - edge - t);
  }
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
