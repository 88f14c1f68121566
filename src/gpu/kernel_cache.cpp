// The disk cache of compiled kernels. File layout (little-endian as the host writes it):
//   8 bytes magic "RPLKRN01", u64 key length, u64 binary length, u64 FNV-1a of key then binary,
//   key bytes, binary bytes.
#include "gpu/kernel_cache.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <system_error>

namespace ripple::gpu {

namespace {

constexpr std::array<char, 8> kMagic = {'R', 'P', 'L', 'K', 'R', 'N', '0', '1'};
constexpr std::size_t kHeader = 8 + 3 * 8;

struct Counters {
  std::atomic<std::uint64_t> memory_hits{0}, disk_hits{0}, compiles{0}, corrupt{0}, write_failures{0};
};
Counters& counters() {
  static Counters c;
  return c;
}

std::uint64_t checksum(std::string_view key, std::span<const std::byte> binary) {
  return fnv1a64(binary, fnv1a64(key));
}

std::mutex& cache_mutex() {
  static std::mutex m;
  return m;
}
std::shared_ptr<KernelCache>& cache_slot() {
  static std::shared_ptr<KernelCache> c;
  return c;
}

}  // namespace

std::uint64_t fnv1a64(std::span<const std::byte> bytes, std::uint64_t h) {
  for (std::byte b : bytes) {
    h ^= static_cast<std::uint64_t>(b);
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::uint64_t fnv1a64(std::string_view text, std::uint64_t seed) {
  return fnv1a64(std::as_bytes(std::span<const char>(text.data(), text.size())), seed);
}

KernelCache::KernelCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

std::filesystem::path KernelCache::path_for(std::string_view key) const {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.bin", static_cast<unsigned long long>(fnv1a64(key)));
  return dir_ / name;
}

std::optional<std::vector<std::byte>> KernelCache::load(std::string_view key) {
  if (dir_.empty()) return std::nullopt;
  const auto path = path_for(key);
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<char> all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto reject = [&]() -> std::optional<std::vector<std::byte>> {
    counters().corrupt++;
    std::error_code ec;
    std::filesystem::remove(path, ec);
    return std::nullopt;
  };
  if (all.size() < kHeader || std::memcmp(all.data(), kMagic.data(), 8) != 0) return reject();
  std::uint64_t key_len, bin_len, sum;
  std::memcpy(&key_len, all.data() + 8, 8);
  std::memcpy(&bin_len, all.data() + 16, 8);
  std::memcpy(&sum, all.data() + 24, 8);
  if (key_len > all.size() || bin_len > all.size() || kHeader + key_len + bin_len != all.size())
    return reject();
  const std::string_view stored_key(all.data() + kHeader, key_len);
  std::vector<std::byte> binary(bin_len);
  std::memcpy(binary.data(), all.data() + kHeader + key_len, bin_len);
  if (checksum(stored_key, binary) != sum) return reject();
  if (stored_key != key) return std::nullopt;  // a hash collision: a valid entry for another key
  return binary;
}

bool KernelCache::store(std::string_view key, std::span<const std::byte> binary) {
  if (dir_.empty() || binary.empty()) return false;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  const auto path = path_for(key);
  static std::atomic<unsigned> serial{0};
  auto tmp = path;
  tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(serial++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (out) {
      const std::uint64_t key_len = key.size(), bin_len = binary.size(), sum = checksum(key, binary);
      out.write(kMagic.data(), 8);
      out.write(reinterpret_cast<const char*>(&key_len), 8);
      out.write(reinterpret_cast<const char*>(&bin_len), 8);
      out.write(reinterpret_cast<const char*>(&sum), 8);
      out.write(key.data(), static_cast<std::streamsize>(key.size()));
      out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
    }
    if (out && out.flush()) {
      out.close();
      std::filesystem::rename(tmp, path, ec);
      if (!ec) return true;
    }
  }
  std::filesystem::remove(tmp, ec);
  counters().write_failures++;
  return false;
}

std::filesystem::path default_kernel_cache_directory() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return std::filesystem::path(xdg) / "ripple";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::filesystem::path(home) / ".cache" / "ripple";
  return {};
}

std::shared_ptr<KernelCache> kernel_cache() {
  std::lock_guard lock(cache_mutex());
  auto& slot = cache_slot();
  if (!slot) slot = std::make_shared<KernelCache>(default_kernel_cache_directory());
  return slot;
}

void set_kernel_cache_directory(const std::filesystem::path& dir) {
  std::lock_guard lock(cache_mutex());
  cache_slot() = std::make_shared<KernelCache>(dir);
}

KernelCacheStats kernel_cache_stats() {
  Counters& c = counters();
  return {c.memory_hits.load(), c.disk_hits.load(), c.compiles.load(), c.corrupt.load(),
          c.write_failures.load()};
}

void reset_kernel_cache_stats() {
  Counters& c = counters();
  c.memory_hits = c.disk_hits = c.compiles = c.corrupt = c.write_failures = 0;
}

void count_memory_hit() { counters().memory_hits++; }
void count_disk_hit() { counters().disk_hits++; }
void count_compile() { counters().compiles++; }

}  // namespace ripple::gpu
