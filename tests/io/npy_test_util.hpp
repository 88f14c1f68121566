// Helpers for the npy tests: raw .npy buffers built byte by byte (so tests can make files the
// library's own writer never would), and test arrays with distinctive values.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ripple/io/npy.hpp"

namespace ripple::test {

inline std::vector<std::byte> bytes_of(std::string_view text) {
  std::vector<std::byte> out(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) out[i] = static_cast<std::byte>(text[i]);
  return out;
}

/// A .npy buffer: magic, version major.minor, the header length field (2 bytes for major 1,
/// else 4), the header text verbatim, then `data` appended.
inline std::vector<std::byte> raw_npy(std::string_view header, const std::vector<std::byte>& data = {},
                                      int major = 1, int minor = 0) {
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += static_cast<char>(minor);
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  for (std::size_t i = 0; i < length_bytes; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  out += header;
  auto bytes = bytes_of(out);
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

/// `count` bytes of filler data.
inline std::vector<std::byte> zero_bytes(std::size_t count) { return std::vector<std::byte>(count); }

/// The bytes of `values` as they lie in memory.
template <class T>
std::vector<std::byte> bytes_of_values(const std::vector<T>& values) {
  const auto* p = reinterpret_cast<const std::byte*>(values.data());
  return std::vector<std::byte>(p, p + values.size() * sizeof(T));
}

/// Distinct, exactly representable values: element i is i/4 - 3 (and -i/8 imaginary).
template <class T>
std::vector<T> pattern(std::size_t count) {
  std::vector<T> v(count);
  for (std::size_t i = 0; i < count; ++i) {
    const double re = static_cast<double>(i) / 4 - 3;
    if constexpr (std::is_floating_point_v<T>) {
      v[i] = static_cast<T>(re);
    } else {
      using R = typename T::value_type;
      v[i] = T(static_cast<R>(re), static_cast<R>(-static_cast<double>(i) / 8));
    }
  }
  return v;
}

}  // namespace ripple::test
