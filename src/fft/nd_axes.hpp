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

/// irfftn's shapes from x's and its `axes`, `n` and `s`: the axes (as resized_axes, the real
/// one last), its output length n along the real axis (n or s's last entry, which must agree
/// where both are given, else 2 * (m - 1) of the m values x holds there), the shape the input
/// is cut or zero-padded to (`half`: n/2+1 along the real axis) and the output's (`real`).
/// InvalidArgument as resized_axes, for n and s disagreeing, m < 2 with neither given, a
/// transform length of 0 and a result too large for memory.
struct IrfftnShapes {
  std::vector<std::size_t> axes, half, real;
  std::size_t n = 0;
};
IrfftnShapes irfftn_shapes(const std::vector<int>& axes, std::size_t n, const std::vector<std::size_t>& s,
                           const std::vector<std::size_t>& x_shape);

/// InvalidArgument naming the first transformed axis of length 0.
void check_lengths(const std::vector<std::size_t>& shape, const std::vector<std::size_t>& axes, const char* name);

}  // namespace ripple::fft::detail
