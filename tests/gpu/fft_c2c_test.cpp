// The one-kernel GPU FFT (src/gpu/device_fft, kernels/fft_c2c.cl) on every GPU device present
// (PoCL in CI), against the long-double reference DFT and the CPU fft::Plan: sizes 1..4096 of
// every radix (2, 3, 4, 5, 7, 8, 11, 13, 16, 17, 19 stages, the split exchange of large double
// transforms), primes by Rader in the kernel (23 .. 4057: the split exchange above 2048
// double) and other sizes with larger prime factors by Bluestein in the kernel (47,
// 1031: its split exchange in double), batches
// 1, 3, 17, float and double, both directions, numpy's three norms, outputs poisoned with NaN and
// sentinels past the end; strided and innermost-batched layouts, in place; rejected sizes and
// layouts. One program per size and precision serves every batch, direction and norm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "common/expect_invalid.hpp"
#include "common/reference_fft.hpp"
#include "common/rel_l2.hpp"
#include "gpu/device_fft.hpp"
#include "fft_test_util.hpp"
#include "gpu_test_util.hpp"
#include "ripple/fft.hpp"

namespace ripple::gpu {
namespace {

using ::ripple::test::cld;
using ::ripple::test::rel_l2;

class GpuFft : public test::GpuTest {};
RIPPLE_INSTANTIATE_FOR_EACH_GPU(GpuFft);

// Powers of two take every ending of their radix-16 stages: 32 = 8 4, 128 = 16 8, 512 = 8 8 8,
// 1024 = 16 8 8, 2048 = 16 16 8, 4096 = 16 16 16.
const std::uint64_t kSizes[] = {1,   2,   3,   4,   5,   7,   8,    11,   12,   13,   15,   16,   17,   19,   32, 60,
                                64,  100, 128, 143, 243, 323, 343, 512, 625, 1024, 2048, 2197, 3971, 4004, 4080, 4096,
                                // Rader (primes p whose p - 1 is codelet-smooth): 23, 29, 97, 257 (two
                                // radix-16 stages), 113 (112 = 16 x 7: an idle slot in the first
                                // stage, whose table read PoCL once ran past the table), 2053,
                                // 4057 (the split exchange in double); Bluestein (the others): 47, 1031
                                23,  29,  97,  113, 257, 2053, 4057, 47,   1031};
// Float only (one kernel up to 8192 points, the split exchange above 4096): 2^13, 3^8 (1024
// work-items), 8190 = 2 3^2 5 7 13.
const std::uint64_t kFloatSizes[] = {8192, 6561, 8190};

double norm_scale(std::uint64_t n, fft::Direction d, fft::Norm norm) {
  if (norm == fft::Norm::ortho) return 1.0 / std::sqrt(static_cast<double>(n));
  const bool forward = d == fft::Direction::forward;
  return (norm == fft::Norm::backward) == forward ? 1.0 : 1.0 / static_cast<double>(n);
}

// Runs `plan` on host data through device buffers; the output buffer (out_elements long) is
// poisoned with NaN and followed by sentinels that must stay untouched. in_place runs on the
// input buffer itself (its layout must equal the output's).
template <class T>
std::vector<std::complex<T>> run_device(Context& ctx, const DeviceFft& plan, const std::vector<std::complex<T>>& x,
                                        std::size_t out_elements, const FftLayout& layout, fft::Direction d,
                                        fft::Norm norm, bool in_place = false) {
  using C = std::complex<T>;
  auto stream = ctx.create_stream();
  constexpr std::size_t tail = 4;
  auto din = ctx.allocate(std::max<std::size_t>(1, x.size()) * sizeof(C));
  stream->upload(*din, 0, x.data(), x.size() * sizeof(C));
  std::vector<C> poison(out_elements + tail, C(std::numeric_limits<T>::quiet_NaN(), 0));
  for (std::size_t i = 0; i < tail; ++i) poison[out_elements + i] = C(T(1000 + i), T(-1));
  std::unique_ptr<Memory> dout;
  if (!in_place) {
    dout = ctx.allocate(poison.size() * sizeof(C));
    stream->upload(*dout, 0, poison.data(), poison.size() * sizeof(C));
  }
  Memory& out = in_place ? *din : *dout;
  plan.run(*stream, *din, out, layout, d, norm);
  stream->synchronize();
  std::vector<C> y(in_place ? x.size() : poison.size());
  stream->download(out, 0, y.data(), y.size() * sizeof(C));
  if (!in_place) {
    for (std::size_t i = 0; i < tail; ++i) EXPECT_EQ(y[out_elements + i], C(T(1000 + i), T(-1))) << "written past the end";
    y.resize(out_elements);
  }
  return y;
}

// Reference transforms of `batch` contiguous rows of n, unscaled, in long double.
template <class T>
std::vector<cld> reference_rows(const std::vector<std::complex<T>>& x, std::uint64_t n, std::uint64_t batch, bool forward) {
  std::vector<cld> out;
  out.reserve(n * batch);
  for (std::uint64_t b = 0; b < batch; ++b) {
    std::vector<cld> row(x.begin() + b * n, x.begin() + (b + 1) * n);
    const auto y = ::ripple::test::reference_dft(row, forward);
    out.insert(out.end(), y.begin(), y.end());
  }
  return out;
}

// `plan` on `rows` (batch rows of n, contiguous) laid out innermost-batched in and out (element i
// of transform b at i * batch + b), normalized `backward`; the result back in row order.
template <class T>
std::vector<std::complex<T>> run_innermost(Context& ctx, const DeviceFft& plan, const std::vector<std::complex<T>>& rows,
                                           std::uint64_t n, std::uint64_t batch, fft::Direction d) {
  std::vector<std::complex<T>> x(n * batch);
  for (std::uint64_t b = 0; b < batch; ++b)
    for (std::uint64_t i = 0; i < n; ++i) x[i * batch + b] = rows[b * n + i];
  FftLayout l;
  l.batch = batch;
  l.in_stride = l.out_stride = static_cast<std::int64_t>(batch);
  l.in_dist = l.out_dist = 1;
  const auto y = run_device(ctx, plan, x, n * batch, l, d, fft::Norm::backward);
  std::vector<std::complex<T>> got(n * batch);
  for (std::uint64_t b = 0; b < batch; ++b)
    for (std::uint64_t i = 0; i < n; ++i) got[b * n + i] = y[i * batch + b];
  return got;
}

template <class T>
void check_contiguous_batches(Context& ctx) {
  using C = std::complex<T>;
  const bool dbl = std::is_same_v<T, double>;
  if (dbl && !ctx.facts().fp64) GTEST_SKIP() << ctx.facts().name << " has no double precision";
  constexpr std::uint64_t kMaxBatch = 17;
  double worst_ratio = 0;
  std::vector<std::uint64_t> sizes(std::begin(kSizes), std::end(kSizes));
  if (!dbl) sizes.insert(sizes.end(), std::begin(kFloatSizes), std::end(kFloatSizes));
  for (const std::uint64_t n : sizes) {
    SCOPED_TRACE("n " + std::to_string(n));
    const DeviceFft plan(ctx, n, dbl);
    const auto x = test::random_complex<T>(n * kMaxBatch, static_cast<unsigned>(n));
    for (const fft::Direction d : {fft::Direction::forward, fft::Direction::backward}) {
      const bool forward = d == fft::Direction::forward;
      const auto ref = reference_rows(x, n, kMaxBatch, forward);
      // The CPU plan on the whole batch (norm backward), as a second opinion.
      fft::PlanDesc desc;
      desc.shape = {n};
      desc.batch = kMaxBatch;
      desc.precision = dbl ? fft::Precision::f64 : fft::Precision::f32;
      desc.direction = d;
      std::vector<C> cpu(n * kMaxBatch);
      fft::Plan(desc).execute(x.data(), cpu.data());
      for (const std::uint64_t batch : {1u, 3u, 17u})
        for (const fft::Norm norm : {fft::Norm::backward, fft::Norm::ortho, fft::Norm::forward}) {
          SCOPED_TRACE("batch " + std::to_string(batch) + (forward ? " forward" : " backward") + " norm " +
                       std::to_string(static_cast<int>(norm)));
          FftLayout layout;
          layout.batch = batch;
          layout.in_dist = layout.out_dist = static_cast<std::int64_t>(n);
          const auto y = run_device(ctx, plan, x, n * batch, layout, d, norm);
          const long double s = norm_scale(n, d, norm);
          std::vector<cld> want(ref.begin(), ref.begin() + n * batch);
          for (auto& v : want) v *= s;
          const double err = rel_l2(y, want);
          EXPECT_LE(err, test::fft_bound<T>(n));  // NaN (an unwritten element) fails too
          worst_ratio = std::max(worst_ratio, err / test::fft_bound<T>(n));
          if (norm == fft::Norm::backward) {
            const std::vector<C> cpu_rows(cpu.begin(), cpu.begin() + n * batch);
            EXPECT_LE(rel_l2(y, cpu_rows), 2 * test::fft_bound<T>(n)) << "differs from the CPU plan";
          }
        }
    }
  }
  std::printf("[ fft c2c %s ] worst error / bound over all cases: %.3f\n", dbl ? "f64" : "f32", worst_ratio);
}

TEST_P(GpuFft, FloatBatchesMatchTheReferenceAndTheCpuPlan) { check_contiguous_batches<float>(ctx()); }
TEST_P(GpuFft, DoubleBatchesMatchTheReferenceAndTheCpuPlan) { check_contiguous_batches<double>(ctx()); }

// Packed batches staged through local memory (FFT_STAGED_IO) by default only where one
// work-item holds a transform of at least a sector (the sizes above from 4 to 19; 2 and 3 too in
// double): here every plain program is staged (sizes of many work-items, several stages, several
// transforms a group, the last group partly empty), and the default's staged sizes are not,
// packed and in place, against the reference.
TEST_P(GpuFft, StagedAndDirectLoadsAgreeWithTheReference) {
  for (const bool dbl : {false, true}) {
    if (dbl && !ctx().facts().fp64) continue;
    for (const auto& [staging, sizes] : {std::pair{1, std::vector<std::uint64_t>{9, 60, 256, 1000}},
                                        std::pair{0, std::vector<std::uint64_t>{8, 13}}})
      for (const std::uint64_t n : sizes) {
        SCOPED_TRACE(std::string(dbl ? "f64" : "f32") + " n " + std::to_string(n) + (staging ? " staged" : " direct"));
        const ScopedFftShapeTuning forced({.staging = staging});
        const DeviceFft plan(ctx(), n, dbl);
        EXPECT_EQ(plan.plan_shape().stages(), staging == 1);
        constexpr std::uint64_t batch = 23;
        FftLayout layout;
        layout.batch = batch;
        layout.in_dist = layout.out_dist = static_cast<std::int64_t>(n);
        auto check = [&](auto one) {
          using T = decltype(one);
          const auto x = test::random_complex<T>(n * batch, static_cast<unsigned>(n + batch));
          const auto want = reference_rows(x, n, batch, true);
          for (const bool in_place : {false, true}) {
            const auto y = run_device(ctx(), plan, x, n * batch, layout, fft::Direction::forward,
                                      fft::Norm::backward, in_place);
            EXPECT_LE(rel_l2(y, want), test::fft_bound<T>(n)) << (in_place ? "in place" : "out of place");
          }
        };
        if (dbl) check(double{});
        else check(float{});
      }
  }
}

// Which sizes run in one kernel: codelet-smooth ones up to the precision's on-chip size (8192
// float, 4096 double); primes p whose p - 1 is such a size by Rader; every other size up to
// 2048 by Bluestein over its smallest codelet-smooth convolution >= 2n - 1; none of them above;
// groups within CUDA's 1024, local memory within 32 KiB.
TEST(GpuFftShape, RaderForPrimesAndBluesteinUpTo2048InTheKernel) {
  EXPECT_EQ(bluestein_size(29), 57u);
  EXPECT_EQ(bluestein_size(2039), 4080u);
  const auto is_prime = [](std::uint64_t n) {
    for (std::uint64_t d = 2; d * d <= n; ++d)
      if (n % d == 0) return false;
    return n >= 2;
  };
  for (const bool dbl : {false, true}) {
    const std::uint64_t cap = fft_max_on_chip(dbl);
    std::uint64_t raders = 0;
    for (std::uint64_t n = 1; n <= cap + 2; ++n) {
      const bool smooth = codelet_smooth(n);
      const bool rader = !smooth && is_prime(n) && codelet_smooth(n - 1) && n - 1 <= 4096;
      ASSERT_EQ(rader_fits(n, dbl), rader) << "n " << n << " double " << dbl;
      raders += rader;
      ASSERT_EQ(fits_one_kernel(n, dbl), smooth ? n <= cap : rader || n <= 2048) << "n " << n << " double " << dbl;
      if (!fits_one_kernel(n, dbl)) {
        EXPECT_THROW(DeviceFft::shape(n, dbl), Unsupported) << "n " << n;
        continue;
      }
      const FftShape s = DeviceFft::shape(n, dbl);
      ASSERT_LE(s.threads_per_transform * s.transforms_per_group, kFftMaxGroup) << "n " << n;
      ASSERT_LE(s.transforms_per_group * s.local_values() * (dbl ? 16 : 8) / (s.split_exchange ? 2 : 1), 32768u)
          << "n " << n;
      ASSERT_EQ(s.transform_size(), n);
      if (smooth) continue;
      if (rader) {
        ASSERT_EQ(s.rader, n);
        ASSERT_EQ(s.n, n - 1);
        ASSERT_EQ(s.conv.n, 0u);
        ASSERT_EQ(s.whole_convolution(), "Rader, convolution of " + std::to_string(n - 1));
        continue;
      }
      ASSERT_EQ(s.rader, 0u);
      ASSERT_EQ(s.conv.n, n);
      ASSERT_TRUE(s.conv.whole());
      ASSERT_EQ(s.n, bluestein_size(n));
      ASSERT_TRUE(codelet_smooth(s.n) && s.n >= 2 * n - 1) << "n " << n;
    }
    EXPECT_EQ(raders, 178u) << "primes 23 .. 4057 with a codelet-smooth p - 1";
  }
  EXPECT_TRUE(DeviceFft::shape(4057, true).split_exchange);
  EXPECT_FALSE(DeviceFft::shape(4057, false).split_exchange);
  EXPECT_FALSE(rader_fits(97, false, 95)) << "a lower cap holds Rader's convolution too";
  EXPECT_TRUE(fits_one_kernel(97, false, 96));
  EXPECT_EQ(DeviceFft::shape(4096, false).conv.n, 0u);
  EXPECT_TRUE(DeviceFft::shape(8192, false).split_exchange);
  EXPECT_FALSE(fits_one_kernel(97, false, 95)) << "a lower cap holds the convolutions too";
  EXPECT_FALSE(fits_one_kernel(47, false, 94));
}

// The column shape: enough adjacent transforms per group for whole memory sectors, exchanging
// real and imaginary parts in turn where that makes them fit, never over 1024 work-items.
TEST(GpuFftShape, ColumnsTakeWholeSectorsWithinTheBudgets) {
  struct Want {
    std::uint64_t n;
    bool dbl;
    unsigned per_group;
    bool split;
  };
  for (const Want w : {Want{2048, false, 4, true}, Want{4096, false, 2, true}, Want{1024, false, 4, false},
                       Want{2048, true, 2, true}, Want{4096, true, 1, true}, Want{1024, true, 2, false},
                       Want{16, false, 64, false}}) {
    SCOPED_TRACE("n " + std::to_string(w.n) + (w.dbl ? " f64" : " f32"));
    const FftShape s = DeviceFft::shape(w.n, w.dbl, true);
    EXPECT_EQ(s.transforms_per_group, w.per_group);
    EXPECT_EQ(s.split_exchange, w.split);
    EXPECT_LE(s.threads_per_transform * s.transforms_per_group, kFftMaxGroup);
    const std::uint64_t lds = s.transforms_per_group * w.n * (w.dbl ? 16 : 8) / (s.split_exchange ? 2 : 1);
    EXPECT_LE(lds, 32768u);
  }
  // A device allowing groups of 256 (many OpenCL GPUs) gets fewer transforms, never a refusal.
  EXPECT_EQ(DeviceFft::shape(2048, false, true, 256).transforms_per_group, 2u);
  EXPECT_EQ(DeviceFft::shape(4096, false, true, 256).transforms_per_group, 1u);
  // Rows keep one transform a group where one fills it, and the full exchange where it fits.
  EXPECT_EQ(DeviceFft::shape(2048, false).transforms_per_group, 1u);
  EXPECT_FALSE(DeviceFft::shape(2048, false).split_exchange);
  FftPass p;  // the four-step's first pass: columns on both sides
  p.count = p.inner = 64;
  p.in_stride = p.out_stride = 64;
  p.in_dist_inner = p.out_dist_inner = 1;
  EXPECT_TRUE(p.columns());
  p.in_stride = 1;  // rows in, columns out (the second pass)
  p.in_dist_inner = 64;
  EXPECT_TRUE(p.columns());
  p.out_stride = 1;
  p.out_dist_inner = 64;
  EXPECT_FALSE(p.columns());
  p.count = 1;
  p.in_stride = 64;
  p.in_dist_inner = 1;
  EXPECT_FALSE(p.columns()) << "one transform has no neighbours";
  // With a fastest level of batch, a group's neighbours are adjacent entries.
  p.count = 64 * 4;
  p.fast = 4;
  p.in_dist_fast = p.out_dist_fast = 1;
  p.in_stride = p.out_stride = 256;
  p.in_dist_inner = p.out_dist_inner = 4;
  EXPECT_TRUE(p.columns()) << "entries closer than the elements";
  p.in_dist_fast = p.out_dist_fast = 64 * 64;
  EXPECT_FALSE(p.columns()) << "entries farther than the elements";
}

// A batch whose entries lie closer than the elements on either side (innermost batching,
// interleaved channels) is the passes' fastest level (FftPass::over_batch): transform (b, o, i)
// at b * batch + o * outer + i * inner on each side; else the batch is the outer level.
TEST(GpuFftShape, BatchTheFastestLevelWhereItsEntriesAreAdjacent) {
  FftLayout l;
  l.batch = 4;
  l.in_dist = l.out_dist = 100;
  EXPECT_FALSE(FftPass::batch_fast(l));
  l.out_stride = 4;
  l.out_dist = 1;
  EXPECT_TRUE(FftPass::batch_fast(l)) << "innermost out";
  l.batch = 1;
  EXPECT_FALSE(FftPass::batch_fast(l)) << "one entry";
  const FftPass::Side in{1, 70, 8, 800}, out{1000, 0, 1, 10};
  const FftPass fast = FftPass::over_batch(4, 3, 5, true, in, out);
  EXPECT_EQ(fast.count, 60u);
  EXPECT_EQ(fast.inner, 5u);
  EXPECT_EQ(fast.fast, 4u);
  EXPECT_EQ(fast.in_dist_fast, 1);
  EXPECT_EQ(fast.in_dist_outer, 70);
  EXPECT_EQ(fast.in_dist_inner, 8);
  EXPECT_EQ(fast.in_stride, 800);
  EXPECT_EQ(fast.out_dist_fast, 1000);
  EXPECT_EQ(fast.out_stride, 10);
  const FftPass slow = FftPass::over_batch(4, 1, 5, false, in, out);
  EXPECT_EQ(slow.count, 20u);
  EXPECT_EQ(slow.fast, 1u);
  EXPECT_EQ(slow.in_dist_outer, 1);
  EXPECT_EQ(slow.out_dist_outer, 1000);
  const FftPass one = FftPass::over_batch(1, 3, 5, false, in, out);
  EXPECT_EQ(one.in_dist_outer, 70) << "one entry: the outer level is o";
  ::ripple::test::expect_invalid([&] { FftPass::over_batch(4, 3, 5, false, in, out); }, {"batch of 4", "3 outer"});
}

// Column-shaped programs on innermost-batched data (element i of transform b at i * batch + b),
// with a batch that leaves the last group partly empty: several transforms a group, the split
// exchange with several transforms, Rader (97, 2053: his natural-order loads and stores through
// local memory strided) and Bluestein (47), both precisions.
template <class T>
void check_column_shapes(Context& ctx) {
  const bool dbl = std::is_same_v<T, double>;
  if (dbl && !ctx.facts().fp64) GTEST_SKIP() << ctx.facts().name << " has no double precision";
  double worst = 0;
  for (const std::uint64_t n :
       {std::uint64_t{60}, std::uint64_t{143}, std::uint64_t{2048}, std::uint64_t{4096}, std::uint64_t{97},
        std::uint64_t{2053}, std::uint64_t{47}}) {
    SCOPED_TRACE("n " + std::to_string(n));
    const DeviceFft plan(ctx, n, dbl, false, true);
    ASSERT_TRUE(plan.plan_shape().columns);
    const std::uint64_t batch = 5;
    const auto rows = test::random_complex<T>(n * batch, static_cast<unsigned>(n) + 11);
    for (const fft::Direction d : {fft::Direction::forward, fft::Direction::backward}) {
      auto ref = reference_rows(rows, n, batch, d == fft::Direction::forward);
      for (auto& v : ref) v *= static_cast<long double>(norm_scale(n, d, fft::Norm::backward));
      const auto got = run_innermost(ctx, plan, rows, n, batch, d);
      const double err = rel_l2(got, ref);
      EXPECT_LE(err, test::fft_bound<T>(n));  // NaN (an unwritten element) fails too
      worst = std::max(worst, err / test::fft_bound<T>(n));
    }
  }
  std::printf("[ fft c2c columns %s ] worst error / bound: %.3f\n", dbl ? "f64" : "f32", worst);
}

TEST_P(GpuFft, FloatColumnShapesMatchTheReference) { check_column_shapes<float>(ctx()); }
TEST_P(GpuFft, DoubleColumnShapesMatchTheReference) { check_column_shapes<double>(ctx()); }

// Strided layouts on sizes whose programs the tests above compiled: innermost batching (stride
// = batch, dist = 1), padded rows with an output stride, and in place.
TEST_P(GpuFft, StridedInnermostAndInPlaceLayouts) {
  using C = std::complex<float>;
  for (const std::uint64_t n : {std::uint64_t{60}, std::uint64_t{1024}}) {
    SCOPED_TRACE("n " + std::to_string(n));
    const DeviceFft plan(ctx(), n, false);
    const std::uint64_t batch = 5;
    const auto rows = test::random_complex<float>(n * batch, 7);
    const auto ref = reference_rows(rows, n, batch, true);
    // Innermost batching in and out.
    EXPECT_LE(rel_l2(run_innermost(ctx(), plan, rows, n, batch, fft::Direction::forward), ref),
              test::fft_bound<float>(n));
    // Contiguous rows in, every other element of padded rows out (untouched ones stay NaN).
    {
      FftLayout l;
      l.batch = batch;
      l.in_dist = static_cast<std::int64_t>(n);
      l.out_stride = 2;
      l.out_dist = static_cast<std::int64_t>(2 * n + 3);
      const std::size_t out_elements = (batch - 1) * (2 * n + 3) + 2 * (n - 1) + 1;
      const auto y = run_device(ctx(), plan, rows, out_elements, l, fft::Direction::forward, fft::Norm::backward);
      std::vector<C> got(n * batch);
      for (std::uint64_t b = 0; b < batch; ++b)
        for (std::uint64_t i = 0; i < n; ++i) got[b * n + i] = y[b * (2 * n + 3) + 2 * i];
      EXPECT_LE(rel_l2(got, ref), test::fft_bound<float>(n));
      EXPECT_TRUE(std::isnan(y[1].real())) << "a gap between strided outputs was written";
    }
    // In place, contiguous.
    {
      FftLayout l;
      l.batch = batch;
      l.in_dist = l.out_dist = static_cast<std::int64_t>(n);
      const auto y = run_device(ctx(), plan, rows, n * batch, l, fft::Direction::forward, fft::Norm::backward, true);
      EXPECT_LE(rel_l2(y, ref), test::fft_bound<float>(n));
    }
  }
}

// Groups take up to 32 KiB of local memory, the least OpenCL's full profile allows; a device
// with less (the embedded profile) refuses a size whose group needs more when it is planned,
// naming both amounts, and takes the smaller ones.
TEST_P(GpuFft, RefusesGroupsBeyondTheDevicesLocalMemory) {
  test::SmallDevice small(ctx(), ctx().facts().max_work_group, 16384);
  ::ripple::test::expect_unsupported([&] { DeviceFft plan(small, 4096, false); },
                                     {"size n 4096", "needs 32768 bytes of local memory", "has 16384"});
  EXPECT_NO_THROW(DeviceFft(small, 256, false));
}

TEST_P(GpuFft, RejectsSizesAndLayoutsItCannotDo) {
  // Above the on-chip size (8192 float, 4096 double), and sizes with a prime factor above 19
  // whose Bluestein convolution exceeds 4096 that no Rader takes (2053 double is Rader's).
  struct Size {
    std::uint64_t n;
    bool dbl;
  };
  for (const auto [n, dbl] : {Size{2063, false}, Size{4099, false}, Size{16384, false}, Size{8209, false},
                              Size{2063, true}, Size{4097, true}, Size{8192, true}, Size{2 * 1031, true}}) {
    if (dbl && !ctx().facts().fp64) continue;
    try {
      DeviceFft plan(ctx(), n, dbl);
      ADD_FAILURE() << "size " << n << " was accepted";
    } catch (const Unsupported& e) {
      EXPECT_NE(std::string(e.what()).find("size n " + std::to_string(n)), std::string::npos) << e.what();
      if (!codelet_smooth(n)) {
        EXPECT_NE(std::string(e.what()).find("Bluestein convolution of"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("not a prime of at most 4097"), std::string::npos) << e.what();
      }
    }
  }
  // Bluestein's and Rader's whole DFTs take a pass twiddle (passes of DeviceFftPlan).
  EXPECT_NO_THROW(DeviceFft(ctx(), 47, false, true));
  EXPECT_NO_THROW(DeviceFft(ctx(), 97, false, true));
  ::ripple::test::expect_invalid([&] { DeviceFft plan(ctx(), 0, false); }, {"size n", "0"});
  const DeviceFft plan(ctx(), 8, false);
  auto stream = ctx().create_stream();
  auto mem = ctx().allocate(16 * sizeof(std::complex<float>));
  FftLayout l;
  l.batch = 2;
  l.in_dist = l.out_dist = 8;
  l.in_stride = 0;
  ::ripple::test::expect_invalid([&] { plan.run(*stream, *mem, *mem, l, fft::Direction::forward); }, {"input stride", "0"});
  l.in_stride = 1;
  l.out_dist = 9;
  ::ripple::test::expect_invalid([&] { plan.run(*stream, *mem, *mem, l, fft::Direction::forward); },
                       {"output layout", "reaches element 16", "buffer of 16"});
  // A fastest level of batch needs a program made for it.
  l.out_dist = 8;
  FftPass p = FftPass::of(l);  // the two transforms of 8 as a fastest level of two
  p.fast = 2;
  p.inner = 1;
  p.in_dist_fast = p.out_dist_fast = 8;
  ::ripple::test::expect_invalid([&] { plan.launch(*stream, *mem, *mem, p, fft::Direction::forward, 1.0); },
                                 {"fast 2", "fastest level"});
  const DeviceFft fast(ctx(), 8, false, false, false, {}, {}, true);
  EXPECT_TRUE(fast.plan_shape().batch_fast);
  EXPECT_NO_THROW(fast.launch(*stream, *mem, *mem, p, fft::Direction::forward, 1.0));
  // A pass twiddle W_T^(i e) is read unreduced: (inner - 1)(n - 1) must stay below T.
  const DeviceFft turned(ctx(), 8, false, true);
  const FftPassTwiddles table = FftPassTwiddles::make(ctx(), 16, false);
  FftPass rows = FftPass::of(l);
  rows.count = rows.inner = 2;  // (2 - 1)(8 - 1) = 7 < 16
  EXPECT_NO_THROW(turned.launch(*stream, *mem, *mem, rows, fft::Direction::forward, 1.0, &table));
  rows.inner = 3;  // 14 < 16
  rows.count = 3;
  rows.in_dist_inner = rows.out_dist_inner = 4;
  EXPECT_NO_THROW(turned.launch(*stream, *mem, *mem, rows, fft::Direction::forward, 1.0, &table));
  rows.inner = rows.count = 4;  // 21: past the table
  rows.in_dist_inner = rows.out_dist_inner = 2;
  ::ripple::test::expect_invalid(
      [&] { turned.launch(*stream, *mem, *mem, rows, fft::Direction::forward, 1.0, &table); },
      {"pass twiddle of 16 points", "inner 4"});
  stream->synchronize();
}

}  // namespace
}  // namespace ripple::gpu
