// The GPU FFT's global memory traffic as a GPU's memory system would see it, without a GPU: ctest
// runs this binary with Oclgrind as its only OpenCL device and the access model
// (tests/gpu/access_model/) loaded into it, which counts the 32-byte sectors of each warp's
// load and store requests (tests/gpu/CMakeLists.txt). A kernel whose lanes read adjacent
// values asks for every byte of each sector it touches (sector efficiency 1); one whose lanes
// read values a row apart touches a sector for each 8 or 16 bytes (0.25 or 0.5 for complex
// float), and so moves two to four times the bytes through a GPU's caches, and its DRAM too
// where no other warp uses the rest in time. These tests hold the layouts that are designed to
// use whole sectors (packed batches in one kernel, the stage twiddles, staged rows and column
// tiles) to it, and check that the model tells a direct column or row load from a staged one.
// Results are checked against the reference too, so each program is known to have run.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "access_model/access_log.hpp"
#include "common/reference_fft.hpp"
#include "common/rel_l2.hpp"
#include "fft_test_util.hpp"
#include "gpu/device_fft.hpp"
#include "gpu_test_util.hpp"

namespace ripple::gpu {
namespace {

using ::ripple::test::cld;

using access_model::BufferTraffic;
using access_model::Launch;
using access_model::log_path;
using access_model::take_launches;

class GpuAccessModel : public test::GpuTest {
 protected:
  void SetUp() override {
    test::GpuTest::SetUp();
    if (!test::is_oclgrind(device())) GTEST_SKIP() << "the access model runs inside Oclgrind";
    take_launches();
  }
};
RIPPLE_INSTANTIATE_FOR_EACH_GPU(GpuAccessModel);

// ctest runs this binary under Oclgrind with the model: without either, every test above would
// be skipped or see no traffic, so their absence is a failure.
TEST(GpuAccessModelSetup, OclgrindRunsTheModel) {
  const auto devices = Device::list();
  EXPECT_TRUE(std::any_of(devices.begin(), devices.end(), test::is_oclgrind))
      << "no Oclgrind device: run with RIPPLE_OPENCL_LIBRARY set to Oclgrind's liboclgrind-rt.so";
  EXPECT_FALSE(log_path().empty()) << "RIPPLE_ACCESS_MODEL_LOG names no file for the model's log";
}

// Runs the one-kernel program of n float points (column-shaped or not) forward on the
// transforms of `l` (one level of batch, the same on both sides: element e of transform b at
// b in_dist + e in_stride), checks them against the reference, and returns the launches the
// model logged.
std::vector<Launch> run_one_kernel(Context& ctx, std::uint64_t n, const FftLayout& l, bool columns = false) {
  using C = std::complex<float>;
  const DeviceFft fft(ctx, n, false, false, columns);
  const auto at = [&](std::uint64_t b, std::uint64_t e) {
    return b * static_cast<std::uint64_t>(l.in_dist) + e * static_cast<std::uint64_t>(l.in_stride);
  };
  const auto x = test::random_complex<float>(n * l.batch, static_cast<unsigned>(n + l.batch));
  auto stream = ctx.create_stream();
  auto in = ctx.allocate(x.size() * sizeof(C));
  auto out = ctx.allocate(x.size() * sizeof(C));
  stream->upload(*in, 0, x.data(), x.size() * sizeof(C));
  take_launches();  // what the upload logged, if anything
  fft.run(*stream, *in, *out, l, fft::Direction::forward);
  stream->synchronize();
  std::vector<Launch> launches = take_launches();
  std::vector<C> y(x.size());
  stream->download(*out, 0, y.data(), y.size() * sizeof(C));
  std::vector<cld> got, want;
  for (std::uint64_t b = 0; b < l.batch; ++b) {
    std::vector<cld> line(n);
    for (std::uint64_t e = 0; e < n; ++e) line[e] = x[at(b, e)];
    for (const cld& v : ::ripple::test::reference_dft(line, true)) want.push_back(v);
    for (std::uint64_t e = 0; e < n; ++e) got.emplace_back(y[at(b, e)]);
  }
  EXPECT_LE(::ripple::test::rel_l2(got, want), test::fft_bound<float>(n)) << "n " << n;
  EXPECT_FALSE(launches.empty()) << "the access model logged no launch (OCLGRIND_PLUGINS unset?)";
  return launches;
}

// `batch` transforms of n points, one after another
std::vector<Launch> run_c2c(Context& ctx, std::uint64_t n, std::uint64_t batch) {
  FftLayout l;
  l.batch = batch;
  l.in_dist = l.out_dist = static_cast<std::int64_t>(n);
  return run_one_kernel(ctx, n, l);
}

// A pass's column side: `columns` adjacent transforms, element e of column c at c + columns e,
// by the column-shaped program
std::vector<Launch> run_columns(Context& ctx, std::uint64_t n, std::uint64_t columns) {
  FftLayout l;
  l.batch = columns;
  l.in_stride = l.out_stride = static_cast<std::int64_t>(columns);
  l.in_dist = l.out_dist = 1;
  return run_one_kernel(ctx, n, l, true);
}

// The sector efficiency of the loads (or stores) of every buffer of `bytes` in the launches
// (the data and a multi-pass plan's scratch), the least of them; a failure where no such buffer
// was loaded (or stored), so that no test passes on traffic the model did not see.
double data_efficiency(const std::vector<Launch>& launches, std::uint64_t bytes, bool stores) {
  double least = 1.0;
  bool seen = false;
  for (const Launch& l : launches)
    for (const BufferTraffic& b : l.buffers) {
      const access_model::Traffic& t = stores ? b.store : b.load;
      if (b.size != bytes || t.sectors == 0) continue;
      seen = true;
      least = std::min(least, t.sector_efficiency());
    }
  EXPECT_TRUE(seen) << "no " << (stores ? "stores to" : "loads from") << " a buffer of " << bytes << " bytes";
  return least;
}

// A packed batch in one kernel reads and writes whole sectors: a transform's work-items take
// adjacent elements in each load and store, and a warp's lanes past one transform go on into the
// next. (So do its stage twiddles, r-major since 2026-11-30: a warp's lanes read adjacent ones;
// see device_fft.cpp.)
TEST_P(GpuAccessModel, OneKernelBatchesUseWholeSectors) {
  for (std::uint64_t n : {64u, 256u, 1024u, 2048u}) {
    SCOPED_TRACE("n " + std::to_string(n));
    const std::uint64_t batch = 8192 / n, bytes = n * batch * 8;
    const auto launches = run_c2c(ctx(), n, batch);
    ASSERT_EQ(launches.size(), 1u);
    EXPECT_GE(data_efficiency(launches, bytes, false), 0.999);
    EXPECT_GE(data_efficiency(launches, bytes, true), 0.999);
  }
}

// One work-item a transform (8 float points: 64 bytes) would read element e of transform t at
// 8 t + e, its lanes 64 bytes apart (a quarter of each sector); staged, the group's block goes
// through local memory by consecutive work-items (FFT_STAGED_IO) and uses whole sectors.
TEST_P(GpuAccessModel, StagedRowsUseWholeSectors) {
  const std::uint64_t n = 8, batch = 1024, bytes = n * batch * 8;
  const auto staged = run_c2c(ctx(), n, batch);
  EXPECT_GE(data_efficiency(staged, bytes, false), 0.999);
  EXPECT_GE(data_efficiency(staged, bytes, true), 0.999);
  FftShapeTuning direct;
  direct.staging = 0;
  const ScopedFftShapeTuning tuning(direct);
  const auto unstaged = run_c2c(ctx(), n, batch);
  EXPECT_LE(data_efficiency(unstaged, bytes, false), 0.26);
  EXPECT_LE(data_efficiency(unstaged, bytes, true), 0.26);
}

// Columns of 256 points (16 work-items each, 4 a group: 32 bytes of a row): read directly with
// a transform's work-items adjacent, a warp's lanes take 16 rows of two columns, 16 bytes of
// each sector; interleaved (the default, FftShape::interleaves: a warp takes the four columns'
// values of 8 rows at once) or staged as tiles of adjacent columns (forced, staging 1; the rule
// without interleaving), every sector is whole. Columns of 128 points (8 work-items: a warp
// takes four) read whole sectors directly either way, and are not staged.
TEST_P(GpuAccessModel, ColumnTilesUseWholeSectors) {
  const std::uint64_t n = 256, columns = 16, bytes = n * columns * 8;
  EXPECT_TRUE(DeviceFft::shape(n, false, true).interleaves(false));
  EXPECT_FALSE(DeviceFft::shape(n, false, true).stages());
  struct Way {
    int staging;
    bool interleave, whole;
  };
  for (const Way w : {Way{-1, true, true}, Way{1, true, true}, Way{-1, false, true}, Way{0, false, false}}) {
    SCOPED_TRACE("staging " + std::to_string(w.staging) + (w.interleave ? ", interleaved" : ", not interleaved"));
    FftShapeTuning t;
    t.staging = w.staging;
    t.interleave = w.interleave;
    const ScopedFftShapeTuning tuning(t);
    const auto launches = run_columns(ctx(), n, columns);
    const double load = data_efficiency(launches, bytes, false), store = data_efficiency(launches, bytes, true);
    if (w.whole) {
      EXPECT_GE(load, 0.999);
      EXPECT_GE(store, 0.999);
    } else {
      EXPECT_LE(load, 0.51);
      EXPECT_LE(store, 0.51);
    }
  }
  EXPECT_FALSE(DeviceFft::shape(128, false, true).stages());
  // Columns whose group's row is more than a sector (60 and 72 points: 6 and 5 a group) do not
  // interleave; the rule stages them.
  for (const std::uint64_t wide : {60u, 72u}) {
    const FftShape s = DeviceFft::shape(wide, false, true);
    EXPECT_TRUE(s.stages() && !s.interleaves(false)) << wide << " points, " << s.transforms_per_group << " a group";
  }
  const auto narrow = run_columns(ctx(), 128, columns);
  EXPECT_GE(data_efficiency(narrow, 128 * columns * 8, false), 0.999);
  EXPECT_GE(data_efficiency(narrow, 128 * columns * 8, true), 0.999);
}

// The most passes through the banks any launch's local loads or stores took over the least
// they need (1: no bank conflicts); a failure where no launch used local memory.
double worst_conflicts(const std::vector<Launch>& launches) {
  double worst = 1.0;
  bool seen = false;
  for (const Launch& l : launches) {
    seen = seen || (l.local_load.requests > 0 && l.local_store.requests > 0);
    worst = std::max({worst, l.local_load.conflict_factor(), l.local_store.conflict_factor()});
  }
  EXPECT_TRUE(seen) << "no launch loaded and stored local memory";
  return worst;
}

// The exchanges between stages store a stage's outputs R apart (e = j R + r after the first):
// unpadded, a warp's 16 float values of one r met in one bank for every power of two from 16 to
// 4096 points (8.5-16 times the passes). Local memory padded after each 128 bytes
// (FftShape::lds_row) spreads them; the slots span an odd number of values (a staged column
// tile's and an interleaved program's, 32 / transforms a group modulo a bank row), so a warp's
// values of adjacent slots start in different banks too.
TEST_P(GpuAccessModel, LocalMemoryPaddingSpreadsExchangesOverTheBanks) {
  for (std::uint64_t n : {16u, 256u, 1024u, 4096u}) {
    SCOPED_TRACE("n " + std::to_string(n));
    EXPECT_LE(worst_conflicts(run_c2c(ctx(), n, std::max<std::uint64_t>(1, 4096 / n))), 1.01);
  }
  EXPECT_LE(worst_conflicts(run_columns(ctx(), 256, 16)), 1.01) << "interleaved columns of 256 points";
  {
    SCOPED_TRACE("staged column tiles of 256 points");
    FftShapeTuning t;
    t.staging = 1;
    const ScopedFftShapeTuning tuning(t);
    EXPECT_LE(worst_conflicts(run_columns(ctx(), 256, 16)), 1.01);
  }
  FftShapeTuning unpadded;
  unpadded.pad_local = false;
  const ScopedFftShapeTuning tuning(unpadded);
  EXPECT_GE(worst_conflicts(run_c2c(ctx(), 256, 16)), 8.0);
}

}  // namespace
}  // namespace ripple::gpu
