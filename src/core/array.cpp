// Shape helpers behind include/ripple/array.hpp.
#include "ripple/array.hpp"

#include <new>

#include "core/block_cache.hpp"
#include "ripple/error.hpp"

namespace ripple {

namespace detail {
namespace {
constexpr std::size_t kAlign = 64;
}  // namespace

void* allocate_array_bytes(std::size_t bytes) {
  if (bytes >= core::kHeldBlockBytes) return core::take_block(bytes);
  return ::operator new(bytes == 0 ? 1 : bytes, std::align_val_t{kAlign});
}

void free_array_bytes(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  if (bytes >= core::kHeldBlockBytes) {
    core::give_block(p, bytes);
  } else {
    ::operator delete(p, std::align_val_t{kAlign});
  }
}
}  // namespace detail

std::size_t held_array_bytes() noexcept { return core::held_block_bytes(); }
void release_held_arrays() noexcept { core::release_held_blocks(); }

std::vector<std::ptrdiff_t> c_strides(std::span<const std::size_t> shape) {
  std::vector<std::ptrdiff_t> strides(shape.size());
  std::ptrdiff_t step = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = step;
    step *= static_cast<std::ptrdiff_t>(shape[i]);
  }
  return strides;
}

std::string shape_text(std::span<const std::size_t> shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  if (shape.size() == 1) text += ",";
  return text + ")";
}

std::size_t normalize_axis(int axis, std::size_t ndim, const char* name) {
  const auto n = static_cast<long long>(ndim);
  const long long a = axis < 0 ? axis + n : axis;
  if (a < 0 || a >= n) {
    throw InvalidArgument(std::string(name) + " " + std::to_string(axis) +
                          " is out of bounds for an array of dimension " + std::to_string(ndim));
  }
  return static_cast<std::size_t>(a);
}

}  // namespace ripple
