// Conversion between raw sample encodings and the float32 values streams carry in memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ripple/io/samples.hpp"

namespace ripple::io::detail {

/// Decodes `count` components of `format` (bytes at `src`, little-endian unless big_endian)
/// into floats, with the scaling described in samples.hpp.
void decode_values(SampleFormat format, bool big_endian, const std::byte* src, std::size_t count, float* dst);

/// Encodes floats into `format` (little-endian), rounding to nearest and clipping integer
/// encodings to their range. Returns the number of values clipped. Throws InvalidArgument
/// naming `where` for a NaN or infinity bound for an integer encoding.
std::uint64_t encode_values(SampleFormat format, const float* src, std::size_t count, std::byte* dst,
                            const char* where);

/// Index of the first NaN or infinity in `values`, or values.size().
std::size_t first_nonfinite(std::span<const float> values) noexcept;

/// The real encoding with the same components as `format` (cs16 -> s16), and the complex one.
SampleFormat real_counterpart(SampleFormat format) noexcept;
SampleFormat complex_counterpart(SampleFormat format) noexcept;

}  // namespace ripple::io::detail
