#include "core/scratch.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>

namespace ripple::core {
namespace {
constexpr std::size_t kAlign = 64;
std::size_t round_up(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }
}  // namespace

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
    blocks_.push_back({std::make_unique_for_overwrite<std::byte[]>(size + kAlign), size});
  }
  live_.emplace_back(block, offset + bytes);
  ++top_;
  auto base = reinterpret_cast<std::uintptr_t>(blocks_[block].memory.get());
  base = (base + kAlign - 1) / kAlign * kAlign;
  return reinterpret_cast<void*>(base + offset);
}

}  // namespace ripple::core
