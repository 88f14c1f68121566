// src/gpu/kernel_cache: entries round-trip; corrupt, truncated and foreign files are detected
// and removed; an unwritable directory is not fatal; the default directory follows XDG.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpu/kernel_cache.hpp"

namespace ripple::gpu {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("ripple-cache-test-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(dir);
  return dir;
}

std::vector<std::byte> bytes_of(const std::string& s) {
  std::vector<std::byte> v(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) v[i] = static_cast<std::byte>(s[i]);
  return v;
}

std::vector<char> read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const fs::path& p, const std::vector<char>& data) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

TEST(KernelCache, StoresAndLoadsByKey) {
  const fs::path dir = fresh_dir("roundtrip");
  KernelCache cache(dir);
  const auto binary = bytes_of("compiled kernel bytes \x01\x02");
  EXPECT_FALSE(cache.load("key A").has_value());
  ASSERT_TRUE(cache.store("key A", binary));
  EXPECT_TRUE(fs::exists(cache.path_for("key A")));
  const auto back = cache.load("key A");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, binary);
  EXPECT_FALSE(cache.load("key B").has_value());
  // A second store replaces the entry.
  const auto other = bytes_of("v2");
  ASSERT_TRUE(cache.store("key A", other));
  EXPECT_EQ(*cache.load("key A"), other);
  fs::remove_all(dir);
}

TEST(KernelCache, CorruptEntriesAreDetectedAndRemoved) {
  const fs::path dir = fresh_dir("corrupt");
  KernelCache cache(dir);
  const auto binary = bytes_of(std::string(1000, 'k'));
  reset_kernel_cache_stats();
  const fs::path file = cache.path_for("key");
  const auto good = [&] {
    EXPECT_TRUE(cache.store("key", binary));
    return read_all(file);
  };
  // One flipped byte in the binary.
  auto data = good();
  data[data.size() - 10] ^= 0x20;
  write_all(file, data);
  EXPECT_FALSE(cache.load("key").has_value());
  EXPECT_FALSE(fs::exists(file));
  // Truncated.
  data = good();
  data.resize(data.size() / 2);
  write_all(file, data);
  EXPECT_FALSE(cache.load("key").has_value());
  EXPECT_FALSE(fs::exists(file));
  // Shorter than a header, and a bad magic.
  write_all(file, {'R', 'P'});
  EXPECT_FALSE(cache.load("key").has_value());
  data = good();
  data[0] = 'X';
  write_all(file, data);
  EXPECT_FALSE(cache.load("key").has_value());
  // A flipped byte in the stored key is caught by the checksum too.
  data = good();
  data[8 + 24 + 1] ^= 1;
  write_all(file, data);
  EXPECT_FALSE(cache.load("key").has_value());
  EXPECT_EQ(kernel_cache_stats().corrupt, 5u);
  // And a rebuilt entry works again.
  good();
  EXPECT_EQ(*cache.load("key"), binary);
  fs::remove_all(dir);
}

TEST(KernelCache, AnEntryOfAnotherKeyIsNotUsed) {
  const fs::path dir = fresh_dir("collision");
  KernelCache cache(dir);
  ASSERT_TRUE(cache.store("first", bytes_of("one")));
  // Put first's (valid) entry where "second" would live, as a hash collision would.
  fs::copy_file(cache.path_for("first"), cache.path_for("second"), fs::copy_options::overwrite_existing);
  EXPECT_FALSE(cache.load("second").has_value());
  EXPECT_TRUE(cache.load("first").has_value());
  fs::remove_all(dir);
}

TEST(KernelCache, UnwritableOrDisabledDirectoryIsNotFatal) {
  // A regular file where the directory should be: nothing can be created under it.
  const fs::path blocker = fresh_dir("blocker");
  write_all(blocker, {'x'});
  KernelCache under_file(blocker / "ripple");
  reset_kernel_cache_stats();
  EXPECT_FALSE(under_file.store("key", bytes_of("bin")));
  EXPECT_FALSE(under_file.load("key").has_value());
  EXPECT_EQ(kernel_cache_stats().write_failures, 1u);
  fs::remove(blocker);

  KernelCache disabled{fs::path()};
  EXPECT_FALSE(disabled.store("key", bytes_of("bin")));
  EXPECT_FALSE(disabled.load("key").has_value());
}

TEST(KernelCache, DefaultDirectoryFollowsXdgThenHome) {
  const char* old_xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved_xdg = old_xdg ? old_xdg : "";
  const char* old_home = std::getenv("HOME");
  const std::string saved_home = old_home ? old_home : "";
  setenv("XDG_CACHE_HOME", "/some/xdg", 1);
  EXPECT_EQ(default_kernel_cache_directory(), fs::path("/some/xdg/ripple"));
  setenv("XDG_CACHE_HOME", "relative/ignored", 1);  // XDG: relative paths are invalid
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(default_kernel_cache_directory(), fs::path("/home/someone/.cache/ripple"));
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(default_kernel_cache_directory(), fs::path("/home/someone/.cache/ripple"));
  if (old_xdg) setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
  if (old_home) setenv("HOME", saved_home.c_str(), 1);
}

TEST(KernelCache, Fnv1aMatchesTheReferenceValues) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

}  // namespace
}  // namespace ripple::gpu
