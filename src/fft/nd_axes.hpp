// The argument checks of the numpy-style n-dimensional one-shot transforms, shared by those on
// host arrays (one_shot_nd.cpp) and on device Buffers (device_one_shot_nd.cpp), so both reject
// the same arguments with the same messages.
#pragma once

#include <cstddef>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

namespace ripple::fft::detail {

/// The product of shape[from, to) (to at most shape.size()).
inline std::size_t product_of(const std::vector<std::size_t>& shape, std::size_t from, std::size_t to) {
  return std::accumulate(shape.begin() + std::ptrdiff_t(from), shape.begin() + std::ptrdiff_t(to), std::size_t{1},
                         std::multiplies<>());
}
/// The product of shape[from, end).
inline std::size_t product_of(const std::vector<std::size_t>& shape, std::size_t from = 0) {
  return product_of(shape, from, shape.size());
}

/// The axes to transform, normalized, in the caller's order (the last one is the real axis of
/// rfftn/irfftn); empty `axes` means every axis. InvalidArgument, prefixed by `name`, for a 0-d
/// array, an axis out of range or one given twice.
std::vector<std::size_t> checked_axes(const std::vector<int>& axes, std::size_t ndim, const std::string& name);

/// numpy's `s` beside `axes`: the axes to transform (as checked_axes; where axes is empty and s
/// is not, the last s.size() axes, as numpy) and the shape the input is cut or zero-padded to
/// first (x_shape with each of those axes s's entry long; x_shape itself for an empty s).
/// InvalidArgument, prefixed by `name`, for s and axes of different lengths, more entries in s
/// than x has axes, an entry of 0, and as checked_axes.
struct Resized {
  std::vector<std::size_t> axes;
  std::vector<std::size_t> shape;
};
Resized resized_axes(const std::vector<int>& axes, const std::vector<std::size_t>& s,
                     const std::vector<std::size_t>& x_shape, const std::string& name);

/// InvalidArgument, prefixed by `name`, where an array of `shape` would have more values than
/// any memory holds (their bytes overflowing; a huge s entry, as numpy's -1 cast to size_t).
void check_size(const std::vector<std::size_t>& shape, const std::string& name);

/// irfftn's real output length from its `n` and `s` (s's last entry): whichever is given (both
/// must agree), else 2 * (m - 1) of the m values the input holds along the real axis.
std::size_t irfftn_length(std::size_t m, std::size_t n, const std::vector<std::size_t>& s);

/// InvalidArgument naming the first transformed axis of length 0.
void check_lengths(const std::vector<std::size_t>& shape, const std::vector<std::size_t>& axes, const char* name);

/// irfftn's output length along its real axis, whose input holds m values: n, or 2 * (m - 1)
/// where n is 0 (InvalidArgument if m < 2 then).
std::size_t irfftn_length(std::size_t m, std::size_t n);

}  // namespace ripple::fft::detail
