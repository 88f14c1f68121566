// Decoding and encoding of the .npy prelude (magic, version, header length).
#include "io/npy_prelude.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "io/npy_error.hpp"
#include "io/npy_header.hpp"

namespace ripple::io::detail {
namespace {
constexpr std::array<unsigned char, 6> kMagic{0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr std::size_t kMagicAndVersion = 8;

std::size_t prelude_size(std::uint8_t major) { return major == 1 ? 10 : 12; }
}  // namespace

Prelude parse_prelude(std::span<const std::byte> head, std::uint64_t total_size) {
  const auto byte = [&](std::size_t i) { return std::to_integer<unsigned>(head[i]); };
  if (head.size() < kMagic.size() ||
      !std::equal(kMagic.begin(), kMagic.end(), head.begin(),
                  [](unsigned char m, std::byte b) { return std::byte{m} == b; }))
    fail("not an npy file: it does not start with the magic string \\x93NUMPY");
  if (head.size() < kMagicAndVersion) fail("truncated: the file ends inside the version bytes");
  Prelude prelude;
  prelude.major = static_cast<std::uint8_t>(byte(6));
  const unsigned minor = byte(7);
  if (prelude.major < 1 || prelude.major > 3 || minor != 0)
    fail("unsupported npy format version " + std::to_string(prelude.major) + "." + std::to_string(minor) +
         " (1.0, 2.0 and 3.0 are supported)");
  prelude.size = prelude_size(prelude.major);
  if (head.size() < prelude.size) fail("truncated: the file ends inside the header length");
  prelude.header_length = byte(8) | byte(9) << 8;
  if (prelude.major > 1) prelude.header_length |= std::size_t{byte(10)} << 16 | std::size_t{byte(11)} << 24;
  if (prelude.header_length > kMaxHeaderLength)
    fail("header length " + std::to_string(prelude.header_length) + " is absurd (limit " +
         std::to_string(kMaxHeaderLength) + " bytes)");
  if (prelude.header_length > total_size - prelude.size)
    fail("truncated: header length " + std::to_string(prelude.header_length) + " exceeds the " +
         std::to_string(total_size - prelude.size) + " bytes after the prelude");
  return prelude;
}

std::string encode_preamble(Dtype dtype, std::span<const std::size_t> shape, NpyVersion min_version) {
  constexpr std::size_t kMaxV1Header = std::numeric_limits<std::uint16_t>::max();
  std::uint8_t major = static_cast<std::uint8_t>(min_version);
  std::string header = format_header(dtype, shape, prelude_size(major));
  if (major == 1 && header.size() > kMaxV1Header) {
    major = 2;
    header = format_header(dtype, shape, prelude_size(major));
  }
  std::string out(kMagic.begin(), kMagic.end());
  out += static_cast<char>(major);
  out += '\0';
  const std::size_t length = header.size();
  for (std::size_t i = 0; i < (major == 1 ? 2u : 4u); ++i)
    out += static_cast<char>((length >> (8 * i)) & 0xff);
  return out + header;
}

}  // namespace ripple::io::detail
