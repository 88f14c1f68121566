// n-dimensional data as numpy describes it: a shape and per-axis strides, so functions with
// numpy/scipy semantics (an `axis` argument, zi arrays shaped around the data) take a view of
// the caller's memory without copying, whatever its layout (rows, interleaved frames, a
// transposed or sliced array).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ripple {

/// Strides (in elements) of a C-ordered (row-major) array of this shape.
std::vector<std::ptrdiff_t> c_strides(std::span<const std::size_t> shape);

/// Text of a shape as numpy prints it: "()", "(5,)", "(2, 3)".
std::string shape_text(std::span<const std::size_t> shape);

/// Turns a numpy-style axis (negative counts from the end) into 0..ndim-1. Throws
/// InvalidArgument naming `name` and the value when it is out of range, as numpy's AxisError.
std::size_t normalize_axis(int axis, std::size_t ndim, const char* name = "axis");

/// A view of someone else's elements: data pointer, shape and strides in elements (negative
/// strides allowed). T may be const. Views are cheap to copy and never own memory.
template <class T>
class ArrayView {
 public:
  ArrayView() = default;
  /// A C-contiguous array of this shape starting at `data`.
  ArrayView(T* data, std::vector<std::size_t> shape)
      : data_(data), shape_(std::move(shape)), strides_(c_strides(shape_)) {}
  ArrayView(T* data, std::vector<std::size_t> shape, std::vector<std::ptrdiff_t> strides)
      : data_(data), shape_(std::move(shape)), strides_(std::move(strides)) {}
  /// A 1-D contiguous view of a span.
  ArrayView(std::span<T> values) : ArrayView(values.data(), {values.size()}) {}  // NOLINT
  /// A non-const view converts to a const one.
  template <class U>
    requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>)
  ArrayView(const ArrayView<U>& other)  // NOLINT
      : data_(other.data()), shape_(other.shape()), strides_(other.strides()) {}

  T* data() const noexcept { return data_; }
  const std::vector<std::size_t>& shape() const noexcept { return shape_; }
  const std::vector<std::ptrdiff_t>& strides() const noexcept { return strides_; }
  std::size_t ndim() const noexcept { return shape_.size(); }
  std::size_t extent(std::size_t axis) const { return shape_.at(axis); }
  std::ptrdiff_t stride(std::size_t axis) const { return strides_.at(axis); }
  /// Number of elements (1 for a 0-d view).
  std::size_t size() const noexcept {
    std::size_t n = 1;
    for (std::size_t e : shape_) n *= e;
    return n;
  }

 private:
  T* data_ = nullptr;
  std::vector<std::size_t> shape_;
  std::vector<std::ptrdiff_t> strides_;
};

namespace detail {
void* allocate_array_bytes(std::size_t bytes);
void free_array_bytes(void* p, std::size_t bytes) noexcept;
}  // namespace detail

/// Bytes of freed arrays (of 64 KiB and more) that ripple holds for reuse (see
/// ArrayAllocator), and a way to give them back to the system, as MKL's mkl_free_buffers.
std::size_t held_array_bytes() noexcept;
void release_held_arrays() noexcept;

/// The allocator of result arrays. Elements are default-initialized (a result is written in
/// full anyway, so it is not zeroed first). Blocks of 4 MiB and more are 2 MiB aligned and
/// backed by transparent huge pages where the OS offers them, as numpy does: the first touch
/// of fresh memory then costs hundreds of times fewer page faults. When freed, a few of them
/// (at most 512 MiB, or an eighth of the machine's memory) are held for the next array of the
/// same size, which then costs no page faults and no zeroing at all: programs that filter or
/// transform block after block reuse the same few blocks (release_held_arrays frees them).
/// So are a few blocks from 64 KiB to 4 MiB (at most 32 MiB of them), which malloc would
/// otherwise hand back to the system and fault in again on the next call.
template <class T>
struct ArrayAllocator {
  using value_type = T;
  ArrayAllocator() = default;
  template <class U>
  ArrayAllocator(const ArrayAllocator<U>&) noexcept {}  // NOLINT
  T* allocate(std::size_t n) { return static_cast<T*>(detail::allocate_array_bytes(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { detail::free_array_bytes(p, n * sizeof(T)); }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0) {
      ::new (static_cast<void*>(p)) U;
    } else {
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
  }
  friend bool operator==(const ArrayAllocator&, const ArrayAllocator&) { return true; }
};

/// Storage of result arrays and vectors: a std::vector with ArrayAllocator.
template <class T>
using ArrayStorage = std::vector<T, ArrayAllocator<T>>;

/// An owning C-ordered n-dimensional array: what functions with numpy semantics return.
template <class T>
struct Array {
  std::vector<std::size_t> shape;
  ArrayStorage<T> values;  ///< C order; values.size() is the product of shape

  Array() = default;
  /// An array of this shape with unspecified (uninitialized) values.
  explicit Array(std::vector<std::size_t> array_shape)
      : shape(std::move(array_shape)), values(count(shape)) {}
  Array(std::vector<std::size_t> array_shape, const std::vector<T>& array_values)
      : shape(std::move(array_shape)), values(array_values.begin(), array_values.end()) {}

  ArrayView<T> view() { return {values.data(), shape}; }
  ArrayView<const T> view() const { return {values.data(), shape}; }
  std::size_t ndim() const noexcept { return shape.size(); }
  std::size_t size() const noexcept { return values.size(); }

 private:
  static std::size_t count(const std::vector<std::size_t>& s) {
    std::size_t n = 1;
    for (std::size_t e : s) n *= e;
    return n;
  }
};

}  // namespace ripple
