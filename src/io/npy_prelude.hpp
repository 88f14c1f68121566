// The fixed-size start of a .npy file: magic "\x93NUMPY", major and minor version bytes and
// the little-endian length of the header text that follows (2 bytes in 1.0, 4 in 2.0/3.0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "ripple/io/npy.hpp"

namespace ripple::io::detail {

/// Bytes to look at to decode any prelude.
inline constexpr std::size_t kMaxPreludeSize = 12;
/// Longest header text accepted on read. numpy itself refuses more than 10000 bytes by
/// default; anything near this limit is hostile, not a real array description.
inline constexpr std::size_t kMaxHeaderLength = std::size_t{1} << 20;

struct Prelude {
  std::uint8_t major = 1;
  std::size_t size = 10;          ///< bytes of the prelude itself: 10 or 12
  std::size_t header_length = 0;  ///< bytes of header text after it
};

/// Decodes the prelude of a file `total_size` bytes long, given its first
/// min(total_size, kMaxPreludeSize) bytes. Throws IoError for a bad magic, an unsupported
/// version, a file that ends inside the prelude or a header length that is absurd or longer
/// than the rest of the file.
Prelude parse_prelude(std::span<const std::byte> head, std::uint64_t total_size);

/// Prelude and header text for an array of this dtype and shape, in the lowest version at or
/// above `min_version` that can hold the header.
std::string encode_preamble(Dtype dtype, std::span<const std::size_t> shape, NpyVersion min_version);

}  // namespace ripple::io::detail
