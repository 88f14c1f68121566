// libFuzzer target: any byte string given to parse_npy must either decode to an array that
// re-encodes and re-parses to the same thing, or raise ripple::IoError. Anything else (a crash,
// a sanitizer report, another exception, a huge allocation) is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

#include "ripple/error.hpp"
#include "ripple/io/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ripple::io;
  const auto bytes = std::as_bytes(std::span(data, size));
  NpyArray array;
  try {
    array = parse_npy(bytes);
  } catch (const ripple::IoError&) {
    return 0;
  }
  // Accepted: the array must be self-consistent and survive a round trip.
  if (element_count(array.shape) != array.size()) std::abort();
  const NpyArray again = parse_npy(encode_npy(array));
  if (again.shape != array.shape || again.dtype() != array.dtype()) std::abort();
  const auto as_bytes = [](const NpyArray& x) {
    return std::visit([](const auto& v) { return std::as_bytes(std::span(v)); }, x.data);
  };
  const auto a = as_bytes(array);
  const auto b = as_bytes(again);
  if (a.size() != b.size() || (a.size() && std::memcmp(a.data(), b.data(), a.size()) != 0)) std::abort();
  return 0;
}
