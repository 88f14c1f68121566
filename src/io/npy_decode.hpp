// Turning a parsed header and the data bytes after it into an NpyArray: size checks before
// allocation, byte swapping and Fortran-to-C reordering.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "io/npy_header.hpp"
#include "ripple/io/npy.hpp"

namespace ripple::io::detail {

/// Copies exactly `bytes` bytes of the data section into `dst` or throws IoError.
using FillData = std::function<void(std::byte* dst, std::size_t bytes)>;

/// Builds the array `header` describes from a data section of `available` bytes. Throws
/// IoError, before allocating, when the shape is too large or `available` is not exactly the
/// size the shape and dtype need (truncated data or trailing bytes).
NpyArray decode_payload(const NpyHeader& header, std::uint64_t available, const FillData& fill);

}  // namespace ripple::io::detail
