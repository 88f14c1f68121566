// Shape helpers behind include/ripple/array.hpp.
#include "ripple/array.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

#include "ripple/error.hpp"

namespace ripple {

namespace detail {
namespace {
// From this size on, blocks are aligned to and advised as huge pages (numpy uses 4 MiB too).
constexpr std::size_t kHugeFrom = std::size_t{4} << 20;
constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kAlign = 64;
}  // namespace

void* allocate_array_bytes(std::size_t bytes) {
  if (bytes >= kHugeFrom) {
    void* p = nullptr;
    if (posix_memalign(&p, kHugePage, bytes) != 0) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);  // advice only: ignored where huge pages are off
#endif
    return p;
  }
  return ::operator new(bytes == 0 ? 1 : bytes, std::align_val_t{kAlign});
}

void free_array_bytes(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  if (bytes >= kHugeFrom) {
    std::free(p);
  } else {
    ::operator delete(p, std::align_val_t{kAlign});
  }
}
}  // namespace detail

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
