// Cache-line aligned storage for tables and buffers that SIMD kernels stream through.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

#include "ripple/array.hpp"

namespace ripple::core {

constexpr std::size_t kAlignment = 64;

template <class T>
struct AlignedAllocator {
  using value_type = T;
  AlignedAllocator() = default;
  template <class U>
  AlignedAllocator(const AlignedAllocator<U>&) noexcept {}
  // Through the allocator of result arrays: tables of long transforms are huge-page backed
  // there, so sweeps that read them with long strides do not miss the TLB on every row.
  T* allocate(std::size_t n) { return static_cast<T*>(ripple::detail::allocate_array_bytes(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { ripple::detail::free_array_bytes(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const AlignedAllocator<U>&) const noexcept { return true; }
};

template <class T>
using AlignedVector = std::vector<T, AlignedAllocator<T>>;

}  // namespace ripple::core
