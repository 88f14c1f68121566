#include "core/block_cache.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <mutex>
#include <new>

namespace ripple::core {
namespace {

// Under AddressSanitizer nothing is held, so a use of a freed array is still reported.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kHold = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kHold = false;
#else
constexpr bool kHold = true;
#endif
#else
constexpr bool kHold = true;
#endif

// Each class holds at most this many blocks and this share of the machine's memory (512 MiB
// at most for large blocks, 32 MiB for the others): enough for a call's input-sized result and
// a temporary or two, little beside what the program itself holds.
constexpr std::size_t kSlots = 8;
constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kSmallStep = std::size_t{64} << 10;
constexpr std::size_t kPage = 4096;
constexpr std::size_t kMaxHeldBytes = std::size_t{512} << 20;
constexpr std::size_t kMaxHeldSmallBytes = std::size_t{32} << 20;
constexpr std::size_t kMemoryShare = 8;

std::size_t capacity_bytes(std::size_t most) {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return most / 4;
  return std::min(most, static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / kMemoryShare);
}

struct Held {
  void* p = nullptr;
  std::size_t bytes = 0;
  unsigned long long age = 0;  // order of arrival: the oldest is freed first
};

class BlockCache {
 public:
  explicit BlockCache(std::size_t most) : capacity_(kHold ? capacity_bytes(most) : 0) {}

  void* take(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    Held* best = nullptr;
    for (Held& h : slots_) {
      if (h.p != nullptr && h.bytes == bytes && (best == nullptr || h.age > best->age)) best = &h;
    }
    if (best == nullptr) return nullptr;
    void* p = best->p;
    held_ -= best->bytes;
    *best = {};
    return p;
  }

  // False when the block is not held (too large, or the cache is off): the caller frees it.
  bool give(void* p, std::size_t bytes) noexcept {
    if (!kHold || bytes > capacity_) return false;
    std::lock_guard lock(mutex_);
    while (held_ + bytes > capacity_ || full()) free_oldest();
    for (Held& h : slots_) {
      if (h.p == nullptr) {
        h = {p, bytes, ++arrivals_};
        held_ += bytes;
        return true;
      }
    }
    return false;  // not reached: free_oldest emptied a slot
  }

  void release() noexcept {
    std::lock_guard lock(mutex_);
    while (held_ > 0) free_oldest();
  }

  std::size_t held() noexcept {
    std::lock_guard lock(mutex_);
    return held_;
  }
  std::size_t capacity() const noexcept { return capacity_; }

 private:
  bool full() const noexcept {
    return std::all_of(slots_.begin(), slots_.end(), [](const Held& h) { return h.p != nullptr; });
  }
  void free_oldest() noexcept {
    Held* oldest = nullptr;
    for (Held& h : slots_) {
      if (h.p != nullptr && (oldest == nullptr || h.age < oldest->age)) oldest = &h;
    }
    if (oldest == nullptr) return;
    std::free(oldest->p);
    held_ -= oldest->bytes;
    *oldest = {};
  }

  std::mutex mutex_;
  std::array<Held, kSlots> slots_{};
  std::size_t held_ = 0;
  unsigned long long arrivals_ = 0;
  const std::size_t capacity_;
};

// Never destroyed: arrays freed by static destructors at exit still find them.
BlockCache& large_cache() {
  static BlockCache* const instance = new BlockCache(kMaxHeldBytes);
  return *instance;
}
BlockCache& small_cache() {
  static BlockCache* const instance = new BlockCache(kMaxHeldSmallBytes);
  return *instance;
}

bool is_large(std::size_t bytes) { return bytes >= kLargeBlockBytes; }
BlockCache& cache_for(std::size_t bytes) { return is_large(bytes) ? large_cache() : small_cache(); }

// Sizes are held and matched in whole steps (huge pages for large blocks), so arrays of nearly
// the same size share blocks.
std::size_t rounded(std::size_t bytes) {
  const std::size_t step = is_large(bytes) ? kHugePage : kSmallStep;
  return (bytes + step - 1) / step * step;
}

}  // namespace

void* take_block(std::size_t bytes) {
  const std::size_t size = rounded(bytes);
  if (void* p = cache_for(size).take(size)) return p;
  const std::size_t alignment = is_large(size) ? kHugePage : kPage;
  void* p = nullptr;
  if (posix_memalign(&p, alignment, size) != 0) {
    release_held_blocks();  // the held blocks may be what memory lacks
    if (posix_memalign(&p, alignment, size) != 0) throw std::bad_alloc();
  }
#ifdef MADV_HUGEPAGE
  if (is_large(size)) madvise(p, size, MADV_HUGEPAGE);  // advice only: ignored where huge pages are off
#endif
  return p;
}

void give_block(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  const std::size_t size = rounded(bytes);
  if (!cache_for(size).give(p, size)) std::free(p);
}

std::size_t held_block_bytes() noexcept { return large_cache().held() + small_cache().held(); }
std::size_t block_cache_capacity() noexcept { return large_cache().capacity(); }
std::size_t small_block_cache_capacity() noexcept { return small_cache().capacity(); }
void release_held_blocks() noexcept {
  large_cache().release();
  small_cache().release();
}

}  // namespace ripple::core
