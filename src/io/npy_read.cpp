// Reading .npy files from memory, from files and from streams.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <istream>
#include <string>
#include <system_error>

#include "io/npy_decode.hpp"
#include "io/npy_error.hpp"
#include "io/npy_header.hpp"
#include "io/npy_prelude.hpp"

namespace ripple::io {
namespace {

// Runs `body`, prefixing the message of any IoError it throws with `where`.
template <class Body>
NpyArray with_context(const std::string& where, Body&& body) {
  try {
    return body();
  } catch (const IoError& e) {
    throw IoError(where + ": " + e.what());
  }
}

NpyArray read_regular_file(std::ifstream& in, std::uint64_t total) {
  std::array<std::byte, detail::kMaxPreludeSize> head{};
  const auto head_size = static_cast<std::size_t>(std::min<std::uint64_t>(total, head.size()));
  auto read_exact = [&](void* dst, std::size_t bytes) {
    in.read(static_cast<char*>(dst), static_cast<std::streamsize>(bytes));
    if (static_cast<std::size_t>(in.gcount()) != bytes)
      detail::fail("read error (the file is shorter than its size said, or unreadable)");
  };
  read_exact(head.data(), head_size);
  const detail::Prelude prelude = detail::parse_prelude(std::span(head.data(), head_size), total);
  in.seekg(static_cast<std::streamoff>(prelude.size));
  std::string text(prelude.header_length, '\0');
  read_exact(text.data(), text.size());
  const detail::NpyHeader header = detail::parse_header(text);
  const std::uint64_t available = total - prelude.size - prelude.header_length;
  return detail::decode_payload(header, available,
                                [&](std::byte* dst, std::size_t bytes) { read_exact(dst, bytes); });
}

NpyArray parse_bytes(std::span<const std::byte> bytes) {
  const std::size_t head = std::min(bytes.size(), detail::kMaxPreludeSize);
  const detail::Prelude prelude = detail::parse_prelude(bytes.first(head), bytes.size());
  const std::string_view text(reinterpret_cast<const char*>(bytes.data() + prelude.size),
                              prelude.header_length);
  const detail::NpyHeader header = detail::parse_header(text);
  const auto data = bytes.subspan(prelude.size + prelude.header_length);
  return detail::decode_payload(header, data.size(),
                                [&](std::byte* dst, std::size_t n) { std::memcpy(dst, data.data(), n); });
}

// Everything left in the stream. Memory grows with what actually arrives, never with what a
// header claims.
std::vector<std::byte> read_to_end(std::istream& in) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::vector<std::byte> bytes;
  while (in) {
    const std::size_t old = bytes.size();
    bytes.resize(old + kChunk);
    in.read(reinterpret_cast<char*>(bytes.data() + old), static_cast<std::streamsize>(kChunk));
    bytes.resize(old + static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) detail::fail("reading failed");
  return bytes;
}

}  // namespace

NpyArray parse_npy(std::span<const std::byte> bytes) {
  return with_context("npy", [&] { return parse_bytes(bytes); });
}

NpyArray read_npy(const std::filesystem::path& path) {
  const std::string where = "npy file '" + path.string() + "'";
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) throw IoError(where + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot open " + where + ": " + std::strerror(errno));
  if (!std::filesystem::is_regular_file(status))  // a pipe or a device: its size is unknown
    return with_context(where, [&] { return parse_bytes(read_to_end(in)); });
  const std::uintmax_t total = std::filesystem::file_size(path, ec);
  if (ec) throw IoError("cannot get the size of " + where + ": " + ec.message());
  return with_context(where, [&] { return read_regular_file(in, total); });
}

NpyArray read_npy(std::istream& in) {
  return with_context("npy", [&] { return parse_bytes(read_to_end(in)); });
}

}  // namespace ripple::io
