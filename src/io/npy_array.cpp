// NpyArray helpers: dtype facts, shape arithmetic and the errors of the typed accessors.
#include <cstddef>
#include <limits>
#include <string>

#include "io/npy_header.hpp"
#include "ripple/error.hpp"
#include "ripple/io/npy.hpp"

namespace ripple::io {

std::size_t dtype_size(Dtype dtype) noexcept {
  switch (dtype) {
    case Dtype::f32:
      return 4;
    case Dtype::f64:
    case Dtype::c64:
      return 8;
    case Dtype::c128:
      return 16;
  }
  return 0;
}

const char* dtype_name(Dtype dtype) noexcept {
  switch (dtype) {
    case Dtype::f32:
      return "float32";
    case Dtype::f64:
      return "float64";
    case Dtype::c64:
      return "complex64";
    case Dtype::c128:
      return "complex128";
  }
  return "unknown";
}

std::size_t element_count(std::span<const std::size_t> shape) {
  if (const auto count = detail::checked_element_count(shape)) return *count;
  throw InvalidArgument("shape " + shape_string(shape) + " has too many elements to hold in memory");
}

std::string shape_string(std::span<const std::size_t> shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

namespace detail {

std::optional<std::size_t> checked_element_count(std::span<const std::size_t> shape) {
  constexpr std::size_t kMaxBytes = std::numeric_limits<std::ptrdiff_t>::max();
  constexpr std::size_t kMaxElements = kMaxBytes / 16;
  // The product of the non-zero dimensions must be sane even when a zero makes the count 0:
  // nobody can iterate over the other axes of a (0, 2^62, 2^62) array.
  std::size_t nonzero = 1;
  bool empty = false;
  for (const std::size_t dim : shape) {
    if (dim == 0) {
      empty = true;
      continue;
    }
    if (nonzero > kMaxElements / dim) return std::nullopt;
    nonzero *= dim;
  }
  return empty ? 0 : nonzero;
}

void throw_dtype_mismatch(Dtype held, Dtype wanted) {
  throw InvalidArgument(std::string("npy array holds ") + dtype_name(held) + ", not " + dtype_name(wanted));
}

void throw_size_mismatch(std::span<const std::size_t> shape, std::size_t values) {
  throw InvalidArgument("npy array of shape " + shape_string(shape) + " needs " +
                        (checked_element_count(shape) ? std::to_string(*checked_element_count(shape))
                                                      : std::string("too many")) +
                        " values, got " + std::to_string(values));
}

}  // namespace detail
}  // namespace ripple::io
