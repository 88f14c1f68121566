// The kernel caches with a real compiler, on every GPU device: a first build compiles and stores, the same
// program on the same context is a memory hit, on a fresh context a disk hit, and a corrupted
// entry is detected, recompiled and rewritten (on PoCL too, through test::WithDiskCache); a
// driver that caches programs itself is left to it; the constant-table cache (device_tables.hpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "gpu/device_tables.hpp"
#include "gpu/kernel_cache.hpp"
#include "gpu/program.hpp"
#include "gpu_test_util.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {
namespace {

class GpuCache : public test::GpuTest {};
RIPPLE_INSTANTIATE_FOR_EACH_GPU(GpuCache);

namespace fs = std::filesystem;

// A program of one kernel that writes TAG to every element.
ProgramSpec tagged_program(const std::string& tag) {
  return {{"dialect.h"},
          {{"RIPPLE_DOUBLE", "0"}, {"TAG", tag}},
          "KERNEL tagged(GLOBAL real_t* x) { x[GLOBAL_ID(0)] = (real_t)TAG; }\n"};
}

// Runs the tagged kernel of `module` over 64 floats on `ctx`; returns element `index`.
float run_tagged(Context& ctx, const Module& module, std::size_t index) {
  auto stream = ctx.create_stream();
  auto mem = ctx.allocate(64 * sizeof(float));
  Launch grid;
  grid.block = {64, 1, 1};
  const Arg args[] = {Arg::memory(*mem)};
  stream->launch(module, "tagged", grid, args);
  stream->synchronize();
  float back = 0;
  stream->download(*mem, index * sizeof(float), &back, sizeof back);
  return back;
}

TEST_P(GpuCache, MissThenMemoryHitThenDiskHitThenCorruptionRebuilt) {
  const fs::path dir = fs::temp_directory_path() / ("ripple-device-cache-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  set_kernel_cache_directory(dir);
  reset_kernel_cache_stats();
  // The cache directory is new, so the first build must compile (PoCL's own cache may still
  // make that quick). Contexts are made fresh, as in new processes, so nothing is in memory.
  const std::string tag = "4242";
  ProgramSpec spec = tagged_program(tag);
  auto fresh_context = [&] { return std::make_shared<test::WithDiskCache>(test::fresh_context(device())); };

  auto ctx1 = fresh_context();
  const std::string key = program_key(*ctx1, spec);
  EXPECT_NE(key.find("-DTAG=" + tag), std::string::npos) << key;
  EXPECT_NE(key.find(ctx1->facts().driver_version), std::string::npos) << key;
  auto m1 = get_module(*ctx1, spec);
  EXPECT_EQ(kernel_cache_stats().compiles, 1u);
  const fs::path file = kernel_cache()->path_for(key);
  ASSERT_TRUE(fs::exists(file));

  auto m1_again = get_module(*ctx1, spec);
  EXPECT_EQ(m1_again, m1);
  EXPECT_EQ(kernel_cache_stats().memory_hits, 1u);

  auto ctx2 = fresh_context();
  auto m2 = get_module(*ctx2, spec);
  EXPECT_EQ(kernel_cache_stats().disk_hits, 1u);
  EXPECT_EQ(kernel_cache_stats().compiles, 1u);
  EXPECT_EQ(run_tagged(*ctx2, *m2, 63), static_cast<float>(std::stol(tag))) << "the binary from disk runs";

  // Corrupt one byte in the middle of the binary.
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(file) / 2 + 40));
    f.put('\x5a');
    f.seekp(static_cast<std::streamoff>(fs::file_size(file) / 2 + 41));
    f.put('\xa5');
  }
  auto ctx3 = fresh_context();
  auto m3 = get_module(*ctx3, spec);
  EXPECT_EQ(kernel_cache_stats().corrupt, 1u);
  EXPECT_EQ(kernel_cache_stats().compiles, 2u);
  ASSERT_TRUE(fs::exists(file));  // rewritten
  auto ctx4 = fresh_context();
  get_module(*ctx4, spec);
  EXPECT_EQ(kernel_cache_stats().disk_hits, 2u);

  // Options are part of the key: another TAG is another entry.
  ProgramSpec other = spec;
  other.defines[1].second = tag + "1";
  EXPECT_NE(program_key(*ctx1, other), key);
  fs::remove_all(dir);
}

TEST_P(GpuCache, UnwritableCacheDirectoryStillCompiles) {
  Context* ctx = &this->ctx();
  const fs::path blocker = fs::temp_directory_path() / ("ripple-cache-blocker-" + std::to_string(::getpid()));
  { std::ofstream(blocker) << "not a directory"; }
  set_kernel_cache_directory(blocker / "ripple");
  reset_kernel_cache_stats();
  const ProgramSpec spec = tagged_program("4243");
  test::WithDiskCache fresh(test::fresh_context(device()));
  EXPECT_NO_THROW(get_module(fresh, spec));
  EXPECT_EQ(kernel_cache_stats().compiles, 1u);
  EXPECT_EQ(kernel_cache_stats().write_failures, 1u);
  fs::remove(blocker);
}

// A driver that keeps its compiled programs itself (PoCL, unless POCL_KERNEL_CACHE turns that
// off) gets nothing from ripple's disk cache: no binary fetched, none stored, and none looked
// up, not even one a context keeping ripple's cache stored. A fresh context compiles again,
// which the driver's own cache makes quick.
TEST_P(GpuCache, ADriverThatCachesProgramsItselfBypassesTheDiskCache) {
  auto ctx1 = test::fresh_context(device());
  const char* pocl_setting = std::getenv("POCL_KERNEL_CACHE");
  if (ctx1->facts().platform_name == "Portable Computing Language" && pocl_setting == nullptr)
    EXPECT_TRUE(ctx1->driver_caches_programs());
  if (!ctx1->driver_caches_programs()) GTEST_SKIP() << ctx1->facts().platform_name << " leaves caching to ripple";
  const fs::path dir = fs::temp_directory_path() / ("ripple-driver-cache-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  set_kernel_cache_directory(dir);
  reset_kernel_cache_stats();
  const ProgramSpec spec = tagged_program("4244");
  get_module(*ctx1, spec);
  EXPECT_FALSE(fs::exists(dir)) << "nothing is written to ripple's disk cache";
  test::WithDiskCache storing(test::fresh_context(device()));
  get_module(storing, spec);
  ASSERT_TRUE(fs::exists(kernel_cache()->path_for(program_key(storing, spec))));
  auto ctx2 = test::fresh_context(device());
  auto m2 = get_module(*ctx2, spec);
  const KernelCacheStats stats = kernel_cache_stats();
  EXPECT_EQ(stats.compiles, 3u) << "the entry on disk is not looked up";
  EXPECT_EQ(stats.disk_hits, 0u);
  EXPECT_EQ(stats.write_failures, 0u);
  EXPECT_EQ(run_tagged(*ctx2, *m2, 5), 4244.0f);
  fs::remove_all(dir);
}

// get_module_async: programs compile on threads of their own, side by side; the same program
// asked for by several threads at once (async and blocking) is compiled once and is one
// module; a compile error reaches every waiter and is not cached, so asking again compiles
// again.
TEST_P(GpuCache, ProgramsCompileSideBySideAndOncePerKey) {
  const fs::path dir = fs::temp_directory_path() / ("ripple-async-cache-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  set_kernel_cache_directory(dir);
  reset_kernel_cache_stats();
  auto ctx = test::fresh_context(device());
  auto tagged = [](int tag) { return tagged_program(std::to_string(tag)); };
  std::vector<PendingModule> pending;
  for (int tag = 5000; tag < 5003; ++tag) pending.push_back(get_module_async(*ctx, tagged(tag)));
  std::vector<std::shared_ptr<const Module>> same(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] { same[t] = get_module(*ctx, tagged(5000)); });
  for (auto& th : threads) th.join();
  for (const PendingModule& p : pending) EXPECT_NO_THROW(p.wait());
  EXPECT_EQ(kernel_cache_stats().compiles, 3u);
  for (int t = 0; t < 4; ++t) EXPECT_EQ(same[t].get(), &*pending[0]) << "thread " << t;
  EXPECT_EQ(run_tagged(*ctx, *pending[2], 0), 5002.0f) << "the module made on another thread runs";
  ProgramSpec broken{{"dialect.h"}, {}, "KERNEL broken(GLOBAL real_t* x) { x[0] = not_declared; }\n"};
  const PendingModule first = get_module_async(*ctx, broken);
  EXPECT_THROW(first.wait(), DeviceError);
  EXPECT_THROW(*first, DeviceError);
  const std::uint64_t compiles = kernel_cache_stats().compiles;
  EXPECT_THROW(get_module(*ctx, broken), DeviceError);
  EXPECT_EQ(kernel_cache_stats().compiles, compiles) << "a failed compile is not counted as one";
  fs::remove_all(dir);
}

// Constant tables: made and uploaded once per context and key, rounded once to the precision
// asked for; past the cache's budget the least recently asked for is dropped (made again when
// asked for, unless something still holds it), and a table above the budget is made for each
// request.
TEST_P(GpuCache, TablesAreMadeOncePerContextAndKey) {
  int made = 0;
  const auto make = [&made](std::size_t n) {
    return [&made, n] {
      ++made;
      std::vector<std::complex<long double>> v(n);
      for (std::size_t i = 0; i < n; ++i) v[i] = {1.0L / 3 + i, -static_cast<long double>(i)};
      return v;
    };
  };
  auto ctx1 = test::fresh_context(device());
  const auto a = complex_table(*ctx1, "test table", false, make(100));
  const auto b = complex_table(*ctx1, "test table", false, make(100));
  EXPECT_EQ(made, 1);
  EXPECT_EQ(a.get(), b.get());
  EXPECT_EQ(a->bytes(), 100 * sizeof(std::complex<float>));
  std::vector<std::complex<float>> back(100);
  auto stream = ctx1->create_stream();
  stream->download(*a, 0, back.data(), back.size() * sizeof(back[0]));
  stream->synchronize();
  EXPECT_EQ(back[7], std::complex<float>(static_cast<float>(1.0L / 3 + 7), -7.0f));
  if (ctx1->facts().fp64) {
    const auto d = complex_table(*ctx1, "test table", true, make(100));  // another precision: another table
    EXPECT_EQ(made, 2);
    EXPECT_EQ(d->bytes(), 100 * sizeof(std::complex<double>));
  }
  auto ctx2 = test::fresh_context(device());  // another context: made again
  const int before = made;
  complex_table(*ctx2, "test table", false, make(100));
  EXPECT_EQ(made, before + 1);
  EXPECT_GE(table_cache_budget(ctx2->facts()), std::size_t{1} << 20);
  // A budget of 1000 bytes: 125 float values.
  ctx2->tables().budget = 1000;
  made = 0;
  const auto ask = [&](const char* key, std::size_t n) { complex_table(*ctx2, key, false, make(n)); };
  ask("a", 100);  // 800 bytes
  ask("b", 20);   // 960 in all
  ask("a", 100);  // kept; now the most recent
  EXPECT_EQ(made, 2);
  ask("c", 20);  // 1120: b, the least recently asked for, goes
  ask("a", 100);
  EXPECT_EQ(made, 3) << "a was dropped instead of b";
  ask("b", 20);  // made again; c goes
  EXPECT_EQ(made, 4);
  ask("a", 100);
  ask("b", 20);
  EXPECT_EQ(made, 4);
  ask("c", 20);
  EXPECT_EQ(made, 5) << "c was kept past the budget";
  ask("big", 200);  // 1600 bytes: above the budget, never kept
  ask("big", 200);
  EXPECT_EQ(made, 7) << "a table above the budget was kept";
  EXPECT_LE(ctx2->tables().bytes, 1000u);
  // A table dropped from the cache while a plan holds it is shared, not made again.
  const auto held = complex_table(*ctx2, "held", false, make(100));
  ask("e", 100);  // 1600 bytes in all: "held", the least recently asked for, goes
  const int before_held = made;
  EXPECT_EQ(complex_table(*ctx2, "held", false, make(100)).get(), held.get());
  EXPECT_EQ(made, before_held) << "a table still in use was made again";
}

// A device of `capacity` bytes that the table cache alone fills: an allocation fails where it
// and the tables the cache holds would not fit.
class FilledByTables final : public test::ForwardingContext {
 public:
  FilledByTables(Context& inner, std::size_t capacity) : ForwardingContext(inner), capacity_(capacity) {}
  int refused = 0;

 protected:
  std::unique_ptr<Memory> allocate_memory(std::size_t bytes) override {
    if (tables().bytes + bytes > capacity_) {
      ++refused;
      throw DeviceError("test: " + std::to_string(bytes) + " bytes do not fit");
    }
    return ForwardingContext::allocate_memory(bytes);
  }

 private:
  std::size_t capacity_;
};

// Tables are a cache for later plans: an allocation that fails while they fill the device frees
// those no plan uses and is tried again; one that still fails, or where every table is in use,
// reports the first failure.
TEST_P(GpuCache, FailedAllocationsFreeTheTablesNoPlanUses) {
  int made = 0;
  const auto values = [&made](std::size_t n) {
    return [&made, n] {
      ++made;
      return std::vector<std::complex<long double>>(n, {0.5L, -0.25L});
    };
  };
  FilledByTables device1(ctx(), 1000);
  complex_table(device1, "unused", false, values(100));  // 800 bytes, no plan holds it
  ASSERT_EQ(device1.tables().bytes, 800u);
  const auto memory = device1.allocate(500);
  EXPECT_EQ(memory->bytes(), 500u);
  EXPECT_EQ(device1.refused, 1);
  EXPECT_EQ(device1.tables().bytes, 0u);
  complex_table(device1, "unused", false, values(100));
  EXPECT_EQ(made, 2) << "the table freed was still found";

  // Making a table needs room too: the cache (locked while a table is made) is emptied from
  // inside, and the new table kept.
  complex_table(device1, "second", false, values(50));  // 400 bytes: 1200 in all
  EXPECT_EQ(device1.refused, 2);
  EXPECT_EQ(device1.tables().bytes, 400u);

  FilledByTables device2(ctx(), 1000);
  const auto held = complex_table(device2, "held", false, values(100));  // a plan's table
  try {
    device2.allocate(500);
    ADD_FAILURE() << "an allocation succeeded that freed nothing";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "test: 500 bytes do not fit");
  }
  EXPECT_EQ(device2.refused, 1) << "tried again with nothing freed";
  const int before = made;
  EXPECT_EQ(complex_table(device2, "held", false, values(100)).get(), held.get());
  EXPECT_EQ(made, before) << "a table in use was made again";

  FilledByTables device3(ctx(), 1000);  // too large even with the cache empty
  complex_table(device3, "unused", false, values(100));
  EXPECT_THROW(device3.allocate(2000), DeviceError);
  EXPECT_EQ(device3.refused, 2);
}

// Device::release_cached_memory frees the tables of the device's context that no plan uses.
TEST_P(GpuCache, ReleaseCachedMemoryFreesTablesNoPlanUses) {
  EXPECT_EQ(Device::cpu().release_cached_memory(), 0u);
  const auto make = [](std::size_t n) {
    return [n] { return std::vector<std::complex<long double>>(n, {1.0L, 2.0L}); };
  };
  device().release_cached_memory();
  complex_table(ctx(), "release test, unused", false, make(1000));
  const auto held = complex_table(ctx(), "release test, held", false, make(3000));
  EXPECT_EQ(device().release_cached_memory(), 1000 * sizeof(std::complex<float>));
  EXPECT_EQ(ctx().tables().bytes, 0u);
  EXPECT_EQ(ctx().tables().by_key.size(), 0u);
  EXPECT_EQ(complex_table(ctx(), "release test, held", false, make(3000)).get(), held.get());
}

}  // namespace
}  // namespace ripple::gpu
