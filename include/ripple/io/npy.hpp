// NumPy .npy files: an in-memory array type and functions to read and write it.
//
// Format (numpy/lib/format.py): the magic "\x93NUMPY", a version byte pair, a little-endian
// header length (2 bytes in version 1.0, 4 bytes in 2.0 and 3.0), a Python dict literal
// {'descr': ..., 'fortran_order': ..., 'shape': (...), } padded with spaces to a multiple of
// 64 bytes, then the raw element data.
//
// What is supported:
//   - reading versions 1.0, 2.0 and 3.0; writing 1.0, or 2.0 when asked or when the header
//     needs it;
//   - dtypes float32 ('f4'), float64 ('f8'), complex64 ('c8'), complex128 ('c16') in any byte
//     order: '<' little-endian, '>' big-endian (byte-swapped on read), '=' or '|' or none
//     meaning native; data is always held in native byte order in memory;
//   - fortran_order True: transposed into C order on read (the array keeps its shape);
//   - any number of dimensions up to 64, including 0-d (one element) and empty arrays.
// A file that is not like this (bad magic, bad header, unknown dtype, wrong data size...)
// raises ripple::IoError whose message says what is wrong; nothing is allocated beyond what
// the input actually holds.
#pragma once

#include <complex>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace ripple::io {

/// Element types an NpyArray can hold. The order matches the alternatives of NpyData.
enum class Dtype { f32, f64, c64, c128 };

/// The C++ element types an NpyArray can hold.
template <class T>
concept NpyElement = std::same_as<T, float> || std::same_as<T, double> ||
    std::same_as<T, std::complex<float>> || std::same_as<T, std::complex<double>>;

/// The Dtype of element type T.
template <NpyElement T>
inline constexpr Dtype dtype_of = std::same_as<T, float>                 ? Dtype::f32
                                  : std::same_as<T, double>              ? Dtype::f64
                                  : std::same_as<T, std::complex<float>> ? Dtype::c64
                                                                         : Dtype::c128;

/// Bytes per element: 4, 8, 8 or 16.
std::size_t dtype_size(Dtype dtype) noexcept;
/// numpy's name of the dtype: "float32", "float64", "complex64" or "complex128".
const char* dtype_name(Dtype dtype) noexcept;
/// True for the complex dtypes.
constexpr bool is_complex(Dtype dtype) noexcept { return dtype == Dtype::c64 || dtype == Dtype::c128; }

/// Number of elements of an array of this shape (1 for the 0-d shape {}). Throws
/// InvalidArgument when the element count or its size in bytes for 16-byte elements would
/// overflow (a shape no memory can hold).
std::size_t element_count(std::span<const std::size_t> shape);

/// Text of a shape as numpy prints it: "()", "(5,)", "(2, 3)".
std::string shape_string(std::span<const std::size_t> shape);

using NpyData = std::variant<std::vector<float>, std::vector<double>, std::vector<std::complex<float>>,
                             std::vector<std::complex<double>>>;

namespace detail {
[[noreturn]] void throw_dtype_mismatch(Dtype held, Dtype wanted);
[[noreturn]] void throw_size_mismatch(std::span<const std::size_t> shape, std::size_t values);
}  // namespace detail

/// An n-dimensional array in C (row-major) order. Invariant kept by the constructor and checked
/// again by the writers: element_count(shape) == number of values in `data`.
struct NpyArray {
  std::vector<std::size_t> shape;  ///< empty for a 0-d array (one value)
  NpyData data;

  NpyArray() = default;
  /// Takes the values of an array of this shape. Throws InvalidArgument when their number is
  /// not element_count(shape).
  template <NpyElement T>
  NpyArray(std::vector<std::size_t> array_shape, std::vector<T> values)
      : shape(std::move(array_shape)), data(std::move(values)) {
    const auto& held = std::get<std::vector<T>>(data);
    if (element_count(shape) != held.size()) detail::throw_size_mismatch(shape, held.size());
  }

  Dtype dtype() const noexcept { return static_cast<Dtype>(data.index()); }
  /// Number of values held.
  std::size_t size() const noexcept {
    return std::visit([](const auto& v) { return v.size(); }, data);
  }
  /// The values, in C order. Throws InvalidArgument when T is not the held element type.
  template <NpyElement T>
  std::span<const T> values() const {
    if (const auto* v = std::get_if<std::vector<T>>(&data)) return *v;
    detail::throw_dtype_mismatch(dtype(), dtype_of<T>);
  }
  template <NpyElement T>
  std::span<T> values() {
    if (auto* v = std::get_if<std::vector<T>>(&data)) return *v;
    detail::throw_dtype_mismatch(dtype(), dtype_of<T>);
  }
};

static_assert(std::same_as<std::variant_alternative_t<int(Dtype::f32), NpyData>, std::vector<float>>);
static_assert(std::same_as<std::variant_alternative_t<int(Dtype::f64), NpyData>, std::vector<double>>);
static_assert(
    std::same_as<std::variant_alternative_t<int(Dtype::c64), NpyData>, std::vector<std::complex<float>>>);
static_assert(
    std::same_as<std::variant_alternative_t<int(Dtype::c128), NpyData>, std::vector<std::complex<double>>>);

/// Smallest format version the writers use. Version 2.0 is used anyway when the header does
/// not fit version 1.0's 65535 bytes.
enum class NpyVersion : std::uint8_t { v1 = 1, v2 = 2 };

/// Decodes a complete .npy file held in memory. Throws IoError ("npy: <what is wrong>") for
/// anything malformed or unsupported, including bytes left over after the data.
NpyArray parse_npy(std::span<const std::byte> bytes);

/// Reads a .npy file. The data size the header claims is checked against the file size before
/// anything is allocated. Throws IoError naming the file when it cannot be opened or read, or
/// is malformed.
NpyArray read_npy(const std::filesystem::path& path);

/// Reads one .npy file from a stream up to its end (e.g. std::cin). Throws IoError as
/// parse_npy does, or when the stream fails.
NpyArray read_npy(std::istream& in);

/// Encodes an array as a complete .npy file, data in native byte order, C order. Throws
/// InvalidArgument when the array breaks its invariant.
std::vector<std::byte> encode_npy(const NpyArray& array, NpyVersion min_version = NpyVersion::v1);

/// Writes an array to a .npy file, replacing the file if it exists. Throws InvalidArgument as
/// encode_npy does and IoError naming the file when it cannot be written.
void write_npy(const std::filesystem::path& path, const NpyArray& array,
               NpyVersion min_version = NpyVersion::v1);

/// Writes an array to a stream (e.g. std::cout). Throws as the file overload does.
void write_npy(std::ostream& out, const NpyArray& array, NpyVersion min_version = NpyVersion::v1);

}  // namespace ripple::io
