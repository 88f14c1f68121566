// Interleaved frames (sample t of channel c at t * channels + c, as in WAV files) seen as a
// (frames, channels) array, after checking the sizes streaming filters are given.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ripple/error.hpp"

namespace ripple::core {

/// Throws InvalidArgument naming `who` when `values` interleaved values are not a multiple of
/// channels or the output size differs.
inline void check_interleaved(const char* who, std::size_t values, std::size_t out_values, std::size_t channels) {
  if (values % channels != 0) {
    throw InvalidArgument(std::string(who) + ": x has " + std::to_string(values) + " values, not a multiple of the " +
                          std::to_string(channels) + " channels");
  }
  if (out_values != values) {
    throw InvalidArgument(std::string(who) + ": y has " + std::to_string(out_values) + " values but x has " +
                          std::to_string(values));
  }
}

/// Shape {frames, channels} of `values` interleaved values, after check_interleaved.
inline std::vector<std::size_t> interleaved_shape(const char* who, std::size_t values, std::size_t out_values,
                                                  std::size_t channels) {
  check_interleaved(who, values, out_values, channels);
  return {values / channels, channels};
}

}  // namespace ripple::core
