#include "core/scratch.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>

#include "ripple/array.hpp"

namespace ripple::core {
namespace {
constexpr std::size_t kAlign = 64;
std::size_t round_up(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }
}  // namespace

void ScratchArena::Free::operator()(std::byte* p) const noexcept { detail::free_array_bytes(p, bytes); }

ScratchArena& ScratchArena::this_thread() {
  thread_local ScratchArena arena;
  return arena;
}

// Acquisitions form a stack. Each one is placed after the previous live one, in the same block
// if it fits, else in the next block big enough (allocating one only when none is).
void* ScratchArena::acquire(std::size_t bytes) {
  bytes = round_up(bytes == 0 ? 1 : bytes);
  live_.resize(top_);
  std::size_t block = 0, offset = 0;
  if (top_ > 0) std::tie(block, offset) = live_.back();  // end of the previous acquisition
  while (block < blocks_.size() && offset + bytes > blocks_[block].size) {
    ++block;
    offset = 0;
  }
  if (block == blocks_.size()) {
    const std::size_t size = std::max<std::size_t>(bytes, std::size_t(1) << 20);
    const std::size_t bytes_held = size + kAlign;
    blocks_.push_back({std::unique_ptr<std::byte[], Free>(static_cast<std::byte*>(detail::allocate_array_bytes(bytes_held)),
                                                          Free{bytes_held}),
                       size});
  }
  live_.emplace_back(block, offset + bytes);
  ++top_;
  auto base = reinterpret_cast<std::uintptr_t>(blocks_[block].memory.get());
  base = (base + kAlign - 1) / kAlign * kAlign;
  return reinterpret_cast<void*>(base + offset);
}

}  // namespace ripple::core
