// Lines along an axis, zi layouts, and the hand-off to the CPU executor.
#include "iir/sos_apply.hpp"

#include <string>

#include "cpu/iir_sos_executor.hpp"
#include "ripple/error.hpp"
#include "ripple/runtime.hpp"

namespace ripple::iir::detail {

std::vector<std::ptrdiff_t> line_offsets(std::span<const std::size_t> shape, std::span<const std::ptrdiff_t> strides,
                                         std::size_t axis) {
  std::size_t count = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (d != axis) count *= shape[d];
  }
  std::vector<std::ptrdiff_t> offsets;
  offsets.reserve(count);
  std::vector<std::size_t> index(shape.size(), 0);
  for (std::size_t c = 0; c < count; ++c) {
    std::ptrdiff_t at = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) at += static_cast<std::ptrdiff_t>(index[d]) * strides[d];
    offsets.push_back(at);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (d == axis) continue;
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return offsets;
}

namespace {
template <class R>
constexpr std::size_t components_of = is_complex_v<R> ? 2 : 1;

// The zi view without its leading sections dimension, one section at a time: lines of 2 along
// axis.
template <class R>
std::vector<std::size_t> zi_line_shape(std::span<const std::size_t> zi_shape) {
  return {zi_shape.begin() + 1, zi_shape.end()};
}
}  // namespace

template <Sample R>
LineStates<typename real_of<R>::type> zero_states(std::span<const std::size_t> shape, std::size_t axis,
                                                  std::size_t sections) {
  std::size_t lines = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (d != axis) lines *= shape[d];
  }
  LineStates<typename real_of<R>::type> states;
  states.lines = lines;
  states.components = components_of<R>;
  states.sections = sections;
  states.values.assign(lines * states.components * sections * 2, 0);
  return states;
}

template <Sample R>
LineStates<typename real_of<R>::type> states_from_zi(ArrayView<const R> zi, std::size_t axis) {
  const auto shape = zi_line_shape<R>(zi.shape());
  const std::span<const std::ptrdiff_t> strides(zi.strides().data() + 1, zi.strides().size() - 1);
  const auto offsets = line_offsets(shape, strides, axis);
  const std::size_t sections = zi.extent(0);
  auto states = zero_states<R>(shape, axis, sections);
  const std::ptrdiff_t axis_stride = strides[axis];
  for (std::size_t c = 0; c < offsets.size(); ++c) {
    for (std::size_t s = 0; s < sections; ++s) {
      for (std::size_t i = 0; i < 2; ++i) {
        const R v = zi.data()[static_cast<std::ptrdiff_t>(s) * zi.stride(0) + offsets[c] +
                              static_cast<std::ptrdiff_t>(i) * axis_stride];
        for (std::size_t p = 0; p < states.components; ++p) {
          typename real_of<R>::type part;
          if constexpr (is_complex_v<R>) {
            part = p == 0 ? v.real() : v.imag();
          } else {
            part = v;
          }
          states.values[((c * states.components + p) * sections + s) * 2 + i] = part;
        }
      }
    }
  }
  return states;
}

template <Sample R>
Array<R> zi_from_states(const LineStates<typename real_of<R>::type>& states, std::span<const std::size_t> x_shape,
                        std::size_t axis) {
  std::vector<std::size_t> shape{states.sections};
  shape.insert(shape.end(), x_shape.begin(), x_shape.end());
  shape[axis + 1] = 2;
  Array<R> zi(shape);
  const auto strides = c_strides(shape);
  const auto line_shape = zi_line_shape<R>(shape);
  const auto offsets = line_offsets(line_shape, std::span<const std::ptrdiff_t>(strides).subspan(1), axis);
  for (std::size_t c = 0; c < offsets.size(); ++c) {
    for (std::size_t s = 0; s < states.sections; ++s) {
      for (std::size_t i = 0; i < 2; ++i) {
        auto part = [&](std::size_t p) {
          return states.values[((c * states.components + p) * states.sections + s) * 2 + i];
        };
        R v;
        if constexpr (is_complex_v<R>) {
          v = R(part(0), part(1));
        } else {
          v = part(0);
        }
        zi.values[static_cast<std::size_t>(static_cast<std::ptrdiff_t>(s) * strides[0] + offsets[c] +
                                           static_cast<std::ptrdiff_t>(i) * strides[axis + 1])] = v;
      }
    }
  }
  return zi;
}

template <Sample R>
void apply_sos(const SosPlan<typename real_of<R>::type>& plan, ArrayView<const R> x, ArrayView<R> y,
               std::size_t axis, LineStates<typename real_of<R>::type>& states) {
  using U = typename real_of<R>::type;
  constexpr std::size_t parts = components_of<R>;
  const auto in_offsets = line_offsets(x.shape(), x.strides(), axis);
  const auto out_offsets = line_offsets(y.shape(), y.strides(), axis);
  cpu::SosLines<U> lines;
  lines.length = x.extent(axis);
  lines.in_stride = static_cast<std::ptrdiff_t>(parts) * x.stride(axis);
  lines.out_stride = static_cast<std::ptrdiff_t>(parts) * y.stride(axis);
  const U* in = reinterpret_cast<const U*>(x.data());
  U* out = reinterpret_cast<U*>(y.data());
  for (std::size_t c = 0; c < in_offsets.size(); ++c) {
    for (std::size_t p = 0; p < parts; ++p) {
      lines.in.push_back(in + static_cast<std::ptrdiff_t>(parts) * in_offsets[c] + static_cast<std::ptrdiff_t>(p));
      lines.out.push_back(out + static_cast<std::ptrdiff_t>(parts) * out_offsets[c] + static_cast<std::ptrdiff_t>(p));
    }
  }
  cpu::run_sos_cascade(plan, lines, states.values.data(), default_threads());
}

template <class U>
void validate_sos(const BasicSos<U>& sos) {
  if (sos.size() == 0) throw InvalidArgument("sos array must be shape (n_sections, 6) with n_sections >= 1; got 0 sections");
  for (std::size_t s = 0; s < sos.size(); ++s) {
    if (sos[s][3] != U(1)) {
      throw InvalidArgument("sos[:, 3] should be all ones; section " + std::to_string(s) + " has a0 = " +
                            std::to_string(sos[s][3]));
    }
  }
}

template void validate_sos<float>(const BasicSos<float>&);
template void validate_sos<double>(const BasicSos<double>&);

#define RIPPLE_INSTANTIATE(R)                                                                                   \
  template LineStates<real_of<R>::type> zero_states<R>(std::span<const std::size_t>, std::size_t, std::size_t); \
  template LineStates<real_of<R>::type> states_from_zi<R>(ArrayView<const R>, std::size_t);                     \
  template Array<R> zi_from_states<R>(const LineStates<real_of<R>::type>&, std::span<const std::size_t>,        \
                                      std::size_t);                                                             \
  template void apply_sos<R>(const SosPlan<real_of<R>::type>&, ArrayView<const R>, ArrayView<R>, std::size_t,   \
                             LineStates<real_of<R>::type>&);
RIPPLE_INSTANTIATE(float)
RIPPLE_INSTANTIATE(double)
RIPPLE_INSTANTIATE(std::complex<float>)
RIPPLE_INSTANTIATE(std::complex<double>)
#undef RIPPLE_INSTANTIATE

}  // namespace ripple::iir::detail
