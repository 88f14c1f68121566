// The .npy header proper: the Python dict literal that follows the prelude, e.g.
//   {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
// parsed strictly (exactly these three keys) and formatted the way numpy writes it.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ripple/io/npy.hpp"

namespace ripple::io::detail {

/// Most dimensions a header may declare (numpy 2's NPY_MAXDIMS).
inline constexpr std::size_t kMaxDims = 64;

/// Element count of a shape, or nullopt when it, or its size in bytes at 16 bytes an element,
/// would not fit in std::ptrdiff_t (the limit of any allocation). 1 for the 0-d shape.
std::optional<std::size_t> checked_element_count(std::span<const std::size_t> shape);

struct NpyHeader {
  Dtype dtype = Dtype::f64;
  bool swap_bytes = false;  ///< the data's byte order is the opposite of this machine's
  bool fortran_order = false;
  std::vector<std::size_t> shape;
};

/// Parses the header text (without the prelude). Throws IoError naming the first problem:
/// not a dict, missing/duplicate/unexpected keys, unknown dtype, shape not a tuple of
/// non-negative integers, too many dimensions, trailing characters.
NpyHeader parse_header(std::string_view text);

/// The header text for `dtype` in native byte order and C order: the dict, padded with spaces
/// and ended by '\n' so that prelude_size plus its length is a multiple of 64.
std::string format_header(Dtype dtype, std::span<const std::size_t> shape, std::size_t prelude_size);

}  // namespace ripple::io::detail
