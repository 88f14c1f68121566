// The sample encodings: names, sizes, and their conversions to and from float32.
#include "io/sample_codec.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <cmath>
#include <cstring>
#include <string>

#include "ripple/error.hpp"

namespace ripple::io {
namespace {

constexpr std::array<SampleFormatInfo, 12> kFormats = {{
    {"cu8", 1, true, false},  {"cs8", 1, true, false},  {"cs16", 2, true, false}, {"cs32", 4, true, false},
    {"cf32", 4, true, true},  {"cf64", 8, true, true},  {"u8", 1, false, false},  {"s8", 1, false, false},
    {"s16", 2, false, false}, {"s32", 4, false, false}, {"f32", 4, false, true},  {"f64", 8, false, true},
}};

struct Alias {
  const char* name;
  SampleFormat format;
};
// Other spellings users of GNU Radio, SigMF and sox know.
constexpr std::array<Alias, 14> kAliases = {{
    {"cfile", SampleFormat::cf32}, {"fc32", SampleFormat::cf32}, {"ci8", SampleFormat::cs8},
    {"ci16", SampleFormat::cs16},  {"ci32", SampleFormat::cs32}, {"ri8", SampleFormat::s8},
    {"ri16", SampleFormat::s16},   {"ri32", SampleFormat::s32},  {"rf32", SampleFormat::f32},
    {"rf64", SampleFormat::f64},   {"ru8", SampleFormat::u8},    {"f", SampleFormat::f32},
    {"c", SampleFormat::cf32},     {"float", SampleFormat::f32},
}};

template <class T>
T load(const std::byte* p, bool swap) {
  T v;
  std::memcpy(&v, p, sizeof v);
  if (swap) {
    if constexpr (sizeof(T) == 2) v = std::bit_cast<T>(__builtin_bswap16(std::bit_cast<std::uint16_t>(v)));
    if constexpr (sizeof(T) == 4) v = std::bit_cast<T>(__builtin_bswap32(std::bit_cast<std::uint32_t>(v)));
    if constexpr (sizeof(T) == 8) v = std::bit_cast<T>(__builtin_bswap64(std::bit_cast<std::uint64_t>(v)));
  }
  return v;
}

template <class T>
void decode_as(const std::byte* src, std::size_t count, float* dst, bool swap, double scale, double offset) {
  const auto s = static_cast<float>(scale), o = static_cast<float>(offset);
  if (!swap && sizeof(T) > 1) {  // the common case, in a loop the compiler vectorizes
    for (std::size_t i = 0; i < count; ++i) {
      T v;
      std::memcpy(&v, src + i * sizeof(T), sizeof v);
      dst[i] = static_cast<float>(v) * s + o;
    }
    return;
  }
  for (std::size_t i = 0; i < count; ++i) dst[i] = static_cast<float>(load<T>(src + i * sizeof(T), swap)) * s + o;
}

template <class T>
std::uint64_t encode_int(const float* src, std::size_t count, std::byte* dst, double scale, double offset,
                         const char* where) {
  constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
  constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
  std::uint64_t clipped = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double x = src[i];
    if (!std::isfinite(x))
      throw InvalidArgument(std::string(where) + ": value " + std::to_string(i) + " is " +
                            (std::isnan(x) ? "NaN" : "infinite") + ", which an integer encoding cannot hold");
    double v = std::nearbyint(x * scale + offset);
    if (v < lo || v > hi) {
      ++clipped;
      v = std::clamp(v, lo, hi);
    }
    const T t = static_cast<T>(v);
    std::memcpy(dst + i * sizeof(T), &t, sizeof t);
  }
  return clipped;
}

}  // namespace

SampleFormatInfo format_info(SampleFormat format) noexcept { return kFormats[static_cast<std::size_t>(format)]; }

std::optional<SampleFormat> parse_sample_format(std::string_view name) {
  for (std::size_t i = 0; i < kFormats.size(); ++i)
    if (name == kFormats[i].name) return static_cast<SampleFormat>(i);
  for (const Alias& a : kAliases)
    if (name == a.name) return a.format;
  return std::nullopt;
}

std::string sample_format_names() {
  std::string names;
  for (const auto& f : kFormats) names += (names.empty() ? "" : ", ") + std::string(f.name);
  return names;
}

namespace detail {

void decode_values(SampleFormat format, bool big_endian, const std::byte* src, std::size_t count, float* dst) {
  const bool swap = big_endian != (std::endian::native == std::endian::big);
  switch (format) {
    case SampleFormat::cu8:
    case SampleFormat::u8:
      return decode_as<std::uint8_t>(src, count, dst, false, 1.0 / 127.5, -1.0);
    case SampleFormat::cs8:
    case SampleFormat::s8:
      return decode_as<std::int8_t>(src, count, dst, false, 1.0 / 128, 0);
    case SampleFormat::cs16:
    case SampleFormat::s16:
      return decode_as<std::int16_t>(src, count, dst, swap, 1.0 / 32768, 0);
    case SampleFormat::cs32:
    case SampleFormat::s32:
      return decode_as<std::int32_t>(src, count, dst, swap, 1.0 / 2147483648.0, 0);
    case SampleFormat::cf32:
    case SampleFormat::f32:
      if (!swap) {
        std::memcpy(dst, src, count * 4);
        return;
      }
      return decode_as<float>(src, count, dst, true, 1, 0);
    case SampleFormat::cf64:
    case SampleFormat::f64:
      return decode_as<double>(src, count, dst, swap, 1, 0);
  }
}

std::uint64_t encode_values(SampleFormat format, const float* src, std::size_t count, std::byte* dst,
                            const char* where) {
  static_assert(std::endian::native == std::endian::little, "writers produce little-endian data");
  switch (format) {
    case SampleFormat::cu8:
    case SampleFormat::u8:
      return encode_int<std::uint8_t>(src, count, dst, 127.5, 127.5, where);
    case SampleFormat::cs8:
    case SampleFormat::s8:
      return encode_int<std::int8_t>(src, count, dst, 128, 0, where);
    case SampleFormat::cs16:
    case SampleFormat::s16:
      return encode_int<std::int16_t>(src, count, dst, 32768, 0, where);
    case SampleFormat::cs32:
    case SampleFormat::s32:
      return encode_int<std::int32_t>(src, count, dst, 2147483648.0, 0, where);
    case SampleFormat::cf32:
    case SampleFormat::f32:
      std::memcpy(dst, src, count * 4);
      return 0;
    case SampleFormat::cf64:
    case SampleFormat::f64:
      for (std::size_t i = 0; i < count; ++i) {
        const double v = src[i];
        std::memcpy(dst + i * 8, &v, 8);
      }
      return 0;
  }
  return 0;
}

std::size_t first_nonfinite(std::span<const float> values) noexcept {
  // Branch-free scan in chunks (vectorizes); the index is searched only in a chunk that has one.
  constexpr std::size_t kChunk = 256;
  for (std::size_t at = 0; at < values.size(); at += kChunk) {
    const std::size_t n = std::min(kChunk, values.size() - at);
    std::uint32_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto bits = std::bit_cast<std::uint32_t>(values[at + i]);
      bad |= static_cast<std::uint32_t>((bits & 0x7f800000u) == 0x7f800000u);
    }
    if (bad)
      for (std::size_t i = 0; i < n; ++i)
        if (!std::isfinite(values[at + i])) return at + i;
  }
  return values.size();
}

SampleFormat real_counterpart(SampleFormat format) noexcept {
  const auto i = static_cast<std::size_t>(format);
  return i < 6 ? static_cast<SampleFormat>(i + 6) : format;
}

SampleFormat complex_counterpart(SampleFormat format) noexcept {
  const auto i = static_cast<std::size_t>(format);
  return i >= 6 ? static_cast<SampleFormat>(i - 6) : format;
}

}  // namespace detail
}  // namespace ripple::io
