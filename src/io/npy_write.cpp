// Writing .npy files: the preamble, then the values as they lie in memory.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <ostream>

#include "io/npy_prelude.hpp"
#include "ripple/error.hpp"

namespace ripple::io {
namespace {

void check_invariant(const NpyArray& array) {
  if (element_count(array.shape) != array.size()) detail::throw_size_mismatch(array.shape, array.size());
}

std::span<const std::byte> data_bytes(const NpyArray& array) {
  return std::visit([](const auto& v) { return std::as_bytes(std::span(v)); }, array.data);
}

// Returns false when the stream failed.
bool write_all(std::ostream& out, const NpyArray& array, NpyVersion min_version) {
  check_invariant(array);
  const std::string preamble = detail::encode_preamble(array.dtype(), array.shape, min_version);
  const auto data = data_bytes(array);
  out.write(preamble.data(), static_cast<std::streamsize>(preamble.size()));
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  out.flush();
  return static_cast<bool>(out);
}

}  // namespace

std::vector<std::byte> encode_npy(const NpyArray& array, NpyVersion min_version) {
  check_invariant(array);
  const std::string preamble = detail::encode_preamble(array.dtype(), array.shape, min_version);
  const auto data = data_bytes(array);
  std::vector<std::byte> out(preamble.size() + data.size());
  std::memcpy(out.data(), preamble.data(), preamble.size());
  if (!data.empty()) std::memcpy(out.data() + preamble.size(), data.data(), data.size());
  return out;
}

void write_npy(const std::filesystem::path& path, const NpyArray& array, NpyVersion min_version) {
  check_invariant(array);  // before the file is created or truncated
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw IoError("cannot create npy file '" + path.string() + "': " + std::strerror(errno));
  const bool written = write_all(out, array, min_version);
  out.close();
  if (!written || !out)
    throw IoError("writing npy file '" + path.string() + "' failed: " + std::strerror(errno));
}

void write_npy(std::ostream& out, const NpyArray& array, NpyVersion min_version) {
  if (!write_all(out, array, min_version)) throw IoError("npy: writing to the stream failed");
}

}  // namespace ripple::io
