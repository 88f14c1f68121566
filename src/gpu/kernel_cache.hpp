// The on-disk cache of compiled kernels: one file per program key (source hash, options,
// device, driver), under $XDG_CACHE_HOME/ripple (else ~/.cache/ripple). Every entry carries its
// full key and a checksum of key and binary, so a corrupt, truncated or colliding file is
// detected, removed and rebuilt. An unwritable or missing directory only means no caching.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ripple::gpu {

/// 64-bit FNV-1a of bytes (cache file names and checksums; not cryptographic).
std::uint64_t fnv1a64(std::span<const std::byte> bytes, std::uint64_t seed = 0xcbf29ce484222325ULL);
std::uint64_t fnv1a64(std::string_view text, std::uint64_t seed = 0xcbf29ce484222325ULL);

/// Counts since the process started (or reset_kernel_cache_stats()).
struct KernelCacheStats {
  std::uint64_t memory_hits = 0;  ///< module found already loaded on the context
  std::uint64_t disk_hits = 0;    ///< binary loaded from the disk cache
  std::uint64_t compiles = 0;     ///< programs compiled from source
  std::uint64_t corrupt = 0;      ///< disk entries rejected (bad header, size, key or checksum)
  std::uint64_t write_failures = 0;
};

class KernelCache {
 public:
  /// A cache in `dir`; an empty path disables the disk cache.
  explicit KernelCache(std::filesystem::path dir);
  const std::filesystem::path& directory() const { return dir_; }
  /// The file that holds `key`.
  std::filesystem::path path_for(std::string_view key) const;
  /// The binary stored for `key`, or nothing (no entry, or a bad one, which is then removed).
  std::optional<std::vector<std::byte>> load(std::string_view key);
  /// Stores atomically (temporary file + rename). Returns false, without throwing, if the
  /// directory cannot be created or written.
  bool store(std::string_view key, std::span<const std::byte> binary);

 private:
  std::filesystem::path dir_;
};

/// The process's cache: directory from $XDG_CACHE_HOME/ripple or $HOME/.cache/ripple, chosen at
/// first use; set_kernel_cache_directory() replaces it (an empty path disables the disk cache).
std::shared_ptr<KernelCache> kernel_cache();
void set_kernel_cache_directory(const std::filesystem::path& dir);
/// The default directory as the environment gives it now (empty if neither variable is set).
std::filesystem::path default_kernel_cache_directory();

KernelCacheStats kernel_cache_stats();
void reset_kernel_cache_stats();
/// Counters, for program.cpp and the cache itself.
void count_memory_hit();
void count_disk_hit();
void count_compile();

}  // namespace ripple::gpu
