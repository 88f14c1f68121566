// Error helpers shared by the npy reader and writer: one way to fail, and a safe way to quote
// bytes from a hostile file inside a message.
#pragma once

#include <string>
#include <string_view>

#include "ripple/error.hpp"

namespace ripple::io::detail {

/// Throws IoError(what). The public entry points prefix the message with where it happened.
[[noreturn]] inline void fail(const std::string& what) { throw IoError(what); }

/// `text` made printable for an error message: at most `limit` characters, anything outside
/// printable ASCII written as \xNN, "..." appended when cut.
inline std::string printable(std::string_view text, std::size_t limit = 40) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == limit) return out + "...";
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace ripple::io::detail
