// Data section of a .npy file to NpyArray.
#include "io/npy_decode.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "io/npy_error.hpp"

namespace ripple::io::detail {
namespace {

NpyData make_data(Dtype dtype, std::size_t count) {
  switch (dtype) {
    case Dtype::f32:
      return std::vector<float>(count);
    case Dtype::f64:
      return std::vector<double>(count);
    case Dtype::c64:
      return std::vector<std::complex<float>>(count);
    case Dtype::c128:
      return std::vector<std::complex<double>>(count);
  }
  fail("internal: unknown dtype");
}

// Reverses the bytes of every real scalar (a complex value is two of them).
void swap_scalars(std::byte* data, std::size_t bytes, std::size_t scalar_size) {
  for (std::size_t i = 0; i + scalar_size <= bytes; i += scalar_size)
    std::reverse(data + i, data + i + scalar_size);
}

// The same array in C order, given its values in Fortran (column-major) order.
template <class T>
std::vector<T> fortran_to_c(const std::vector<T>& fortran, const std::vector<std::size_t>& shape) {
  std::vector<T> c(fortran.size());
  if (c.empty()) return c;
  const std::size_t rank = shape.size();
  std::vector<std::size_t> stride(rank);  // Fortran strides: the first axis is contiguous
  for (std::size_t d = 0, s = 1; d < rank; s *= shape[d], ++d) stride[d] = s;
  std::vector<std::size_t> index(rank, 0);
  std::size_t offset = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    c[i] = fortran[offset];
    for (std::size_t d = rank; d-- > 0;) {  // C order: the last axis runs fastest
      if (++index[d] < shape[d]) {
        offset += stride[d];
        break;
      }
      offset -= stride[d] * (shape[d] - 1);
      index[d] = 0;
    }
  }
  return c;
}

std::string describe(const NpyHeader& header) {
  return "shape " + shape_string(header.shape) + " of " + dtype_name(header.dtype);
}

}  // namespace

NpyArray decode_payload(const NpyHeader& header, std::uint64_t available, const FillData& fill) {
  const auto count = checked_element_count(header.shape);
  if (!count) fail("header shape " + shape_string(header.shape) + " has too many elements");
  const std::size_t item = dtype_size(header.dtype);
  const std::uint64_t needed = std::uint64_t{*count} * item;
  if (available < needed)
    fail("truncated: " + describe(header) + " needs " + std::to_string(needed) + " bytes of data but only " +
         std::to_string(available) + " follow the header");
  if (available > needed)
    fail(std::to_string(available - needed) + " bytes of trailing data after the array (" + describe(header) +
         " needs " + std::to_string(needed) + " bytes)");

  NpyArray array;
  array.shape = header.shape;
  array.data = make_data(header.dtype, *count);
  std::visit(
      [&](auto& values) {
        auto* bytes = reinterpret_cast<std::byte*>(values.data());
        if (needed > 0) fill(bytes, needed);
        if (header.swap_bytes) swap_scalars(bytes, needed, is_complex(header.dtype) ? item / 2 : item);
        if (header.fortran_order && header.shape.size() > 1) values = fortran_to_c(values, header.shape);
      },
      array.data);
  return array;
}

}  // namespace ripple::io::detail
