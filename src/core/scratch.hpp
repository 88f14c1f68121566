// Per-thread scratch memory for plan execution. A plan asks for workspace with a Scratch frame;
// frames nest (a Bluestein plan executing its sub-plan gets a deeper region), and blocks are
// kept for the thread's lifetime, so after the first call on a thread execution does not
// allocate.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace ripple::core {

class ScratchArena {
 public:
  static ScratchArena& this_thread();
  /// Returns `bytes` of 64-byte aligned memory valid until release(mark) with an earlier mark.
  void* acquire(std::size_t bytes);
  std::size_t mark() const { return top_; }
  void release(std::size_t mark) { top_ = mark; }

 private:
  // Blocks come from the allocator of result arrays: large ones are huge-page backed, so the
  // strided sweeps of long transforms over their scratch do not miss the TLB on every row.
  struct Free {
    std::size_t bytes;
    void operator()(std::byte* p) const noexcept;
  };
  struct Block {
    std::unique_ptr<std::byte[], Free> memory;
    std::size_t size;
  };
  std::vector<Block> blocks_;
  std::size_t top_ = 0;  // number of live acquisitions
  std::vector<std::pair<std::size_t, std::size_t>> live_;  // (block, end offset) of each
};

/// RAII frame: memory taken through it is returned when it goes out of scope. The thread's
/// arena is looked up on first use only, so a frame that takes nothing costs nothing.
class Scratch {
 public:
  Scratch() = default;
  ~Scratch() {
    if (arena_ != nullptr) arena_->release(mark_);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  template <class T>
  T* get(std::size_t count) {
    if (arena_ == nullptr) {
      arena_ = &ScratchArena::this_thread();
      mark_ = arena_->mark();
    }
    return static_cast<T*>(arena_->acquire(count * sizeof(T)));
  }

 private:
  ScratchArena* arena_ = nullptr;
  std::size_t mark_ = 0;
};

}  // namespace ripple::core
