// Shared by sosfilt, sosfiltfilt and the streaming Filter: running a prepared cascade over every
// line of an n-dimensional view along one axis, and moving filter states between scipy's zi
// layout (n_sections, ..., 2, ...) and the executor's per-line layout.
#pragma once

#include <complex>
#include <cstddef>
#include <span>
#include <vector>

#include "iir/sos_plan.hpp"
#include "ripple/array.hpp"
#include "ripple/iir/filtering.hpp"

namespace ripple::iir::detail {

/// Offsets (in elements) of the first element of every line along `axis`, the other
/// dimensions enumerated in C order.
std::vector<std::ptrdiff_t> line_offsets(std::span<const std::size_t> shape, std::span<const std::ptrdiff_t> strides,
                                         std::size_t axis);

/// Real states of one cascade applied to many lines: for line c, component p (0, or 0/1 for
/// the real and imaginary parts of complex data) and section s, the pair at
/// [((c * components + p) * sections + s) * 2 + i].
template <class U>
struct LineStates {
  std::size_t lines = 0, components = 1, sections = 0;
  std::vector<U> values;
};

/// Zero states for the lines of `shape` along `axis`.
template <Sample R>
LineStates<typename real_of<R>::type> zero_states(std::span<const std::size_t> shape, std::size_t axis,
                                                  std::size_t sections);
/// States read from a zi view of shape (sections, ..., 2, ...) (already checked).
template <Sample R>
LineStates<typename real_of<R>::type> states_from_zi(ArrayView<const R> zi, std::size_t axis);
/// The states as a zi-shaped array.
template <Sample R>
Array<R> zi_from_states(const LineStates<typename real_of<R>::type>& states, std::span<const std::size_t> x_shape,
                        std::size_t axis);

/// y = the cascade applied to x along `axis` (y has x's shape; y may be x itself), starting
/// from and updating `states`.
template <Sample R>
void apply_sos(const SosPlan<typename real_of<R>::type>& plan, ArrayView<const R> x, ArrayView<R> y,
               std::size_t axis, LineStates<typename real_of<R>::type>& states);

/// scipy's _validate_sos: at least one section, a0 == 1 in every row.
template <class U>
void validate_sos(const BasicSos<U>& sos);

}  // namespace ripple::iir::detail
