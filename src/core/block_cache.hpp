// Blocks of 64 KiB and more freed by result arrays, kept for the next array of the same size.
//
// A fresh block of memory costs its page faults and the kernel's zeroing on first touch; on a
// VM that hands freed memory back to its host, the host's faults as well. For a call that
// streams over its data once, that is as much as the call itself (sosfilt, 2^24 doubles, one
// thread on the 2-core AVX-512 Zen 4 VM: 25-33 ms into a fresh array against 15-20 ms into an
// existing one, 72% of the samples in the kernel's clear_page). Programs that filter or
// transform block after block allocate the same sizes again and again, so freed blocks are
// held, a few and a bounded number of bytes, as MKL's memory manager and PyTorch's caching
// allocator hold theirs.
#pragma once

#include <cstddef>

namespace ripple::core {

/// Blocks from this size on are held when freed. Below it malloc's free lists serve; from it
/// on glibc's malloc maps and unmaps blocks, or trims the freed top of its heap, so every call
/// that allocates its result faulted it in afresh (sosfilt of 16 x 8192 doubles, one thread:
/// 395 us a call, 89 us with a held block; every other call paid the faults).
inline constexpr std::size_t kHeldBlockBytes = std::size_t{64} << 10;

/// Blocks from this size on are aligned to and advised as huge pages (numpy does so from 4 MiB
/// too), held and matched in whole huge pages; smaller held blocks are page aligned and
/// matched in 64 KiB steps, with slots and a bound of their own, so they never push out a
/// large block.
inline constexpr std::size_t kLargeBlockBytes = std::size_t{4} << 20;

/// At least `bytes` (>= kHeldBlockBytes) of memory, page aligned (2 MiB aligned from
/// kLargeBlockBytes): a held block of the same rounded size when there is one, else a new one.
/// Throws std::bad_alloc.
void* take_block(std::size_t bytes);

/// Hands back a block from take_block with the same `bytes`: held for reuse while the cache
/// has room (the oldest held blocks of its class are freed to make it), else freed.
void give_block(void* p, std::size_t bytes) noexcept;

/// Bytes of the blocks held now (both classes), and the most the cache holds of large blocks
/// and of smaller ones.
std::size_t held_block_bytes() noexcept;
std::size_t block_cache_capacity() noexcept;
std::size_t small_block_cache_capacity() noexcept;

/// Frees every held block.
void release_held_blocks() noexcept;

}  // namespace ripple::core
