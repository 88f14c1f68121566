// The GPU FFT plans of any size (src/gpu/device_fft_plan, device_fft_bluestein) on every GPU
// device present (PoCL in CI), against the long-double reference DFT: the split of n into
// passes; two passes at 3^10, 5^7, 13^4, 17^4 (and 10^6, 2^22 outside quick mode), float and double; three
// passes (forced by a lower pass cap, so they run at small n) with batches, padded, strided and
// innermost-batched layouts and in place; the one-pass plan in place with different layouts;
// Bluestein for primes and sizes with a large prime factor, in the one kernel (up to 2048), in
// three fused passes and in five (a lower pass cap sends small sizes there), with the same layouts; Rader's prime as the last of two or
// three passes; programs and passes shaped to smaller work-groups. Outputs are poisoned with NaN,
// gaps of strided outputs must stay NaN, sentinels past the end must stay untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "common/expect_invalid.hpp"
#include "common/quick_mode.hpp"
#include "common/reference_fft.hpp"
#include "common/rel_l2.hpp"
#include "gpu/device_fft_bluestein.hpp"
#include "gpu/device_fft_plan.hpp"
#include "fft_test_util.hpp"
#include "gpu_test_util.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"

namespace ripple::gpu {
namespace {

using ::ripple::test::cld;
using ::ripple::test::rel_l2;

class GpuFftPlan : public test::GpuTest {};
RIPPLE_INSTANTIATE_FOR_EACH_GPU(GpuFftPlan);

std::size_t span(std::uint64_t n, std::uint64_t batch, std::int64_t stride, std::int64_t dist) {
  return static_cast<std::size_t>((batch - 1) * dist + (n - 1) * stride + 1);
}

struct Result {
  std::vector<std::complex<long double>> rows;  // the outputs gathered as batch x n
  bool gaps_untouched = true;                   // elements outside the output layout still NaN
};

// Scatters `rows` (batch x n) into the input layout, runs the plan (output poisoned with NaN,
// then sentinels), gathers the output layout. in_place runs on one buffer holding both layouts.
template <class T>
Result run_plan(Context& ctx, const DeviceFftPlan& plan, const std::vector<std::complex<T>>& rows, const FftLayout& l,
                fft::Direction d, double scale, bool in_place = false) {
  using C = std::complex<T>;
  const std::uint64_t n = plan.size();
  const C nan(std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::quiet_NaN());
  const std::size_t in_span = span(n, l.batch, l.in_stride, l.in_dist);
  const std::size_t out_span = span(n, l.batch, l.out_stride, l.out_dist);
  constexpr std::size_t tail = 3;
  const std::size_t in_size = in_place ? std::max(in_span, out_span) + tail : in_span;
  std::vector<C> in(in_size, nan);
  for (std::uint64_t b = 0; b < l.batch; ++b)
    for (std::uint64_t i = 0; i < n; ++i) in[b * l.in_dist + i * l.in_stride] = rows[b * n + i];
  std::vector<C> out(out_span + tail, nan);
  for (std::size_t i = 0; i < tail; ++i) (in_place ? in : out)[(in_place ? in_size : out.size()) - tail + i] = C(T(7 + i), T(-3));
  auto stream = ctx.create_stream();
  auto din = ctx.allocate(in.size() * sizeof(C));
  stream->upload(*din, 0, in.data(), in.size() * sizeof(C));
  std::unique_ptr<Memory> dout;
  if (!in_place) {
    dout = ctx.allocate(out.size() * sizeof(C));
    stream->upload(*dout, 0, out.data(), out.size() * sizeof(C));
  }
  Memory& target = in_place ? *din : *dout;
  plan.run(*stream, *din, target, d, scale);
  stream->synchronize();
  std::vector<C> y(in_place ? in.size() : out.size());
  stream->download(target, 0, y.data(), y.size() * sizeof(C));
  for (std::size_t i = 0; i < tail; ++i) EXPECT_EQ(y[y.size() - tail + i], C(T(7 + i), T(-3))) << "written past the end";
  Result r;
  std::vector<char> mapped(y.size(), 0);
  for (std::uint64_t b = 0; b < l.batch; ++b)
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::size_t at = b * l.out_dist + i * l.out_stride;
      r.rows.emplace_back(y[at]);
      mapped[at] = 1;
    }
  if (!in_place)
    for (std::size_t i = 0; i + tail < y.size(); ++i)
      if (!mapped[i] && !std::isnan(y[i].real())) r.gaps_untouched = false;
  return r;
}

// Unscaled transforms of batch x n rows: in long double, or for float data above 2^16 points
// by the CPU plan in double (itself tested against long double; its error is ~1e-9 of the float
// bound, and the long-double reference of 2^22 points takes seconds).
template <class T>
std::vector<cld> reference(const std::vector<std::complex<T>>& rows, std::uint64_t n, bool forward) {
  if (std::is_same_v<T, float> && n > 65536) {
    const std::vector<std::complex<double>> x(rows.begin(), rows.end());
    std::vector<std::complex<double>> y(x.size());
    fft::PlanDesc desc;
    desc.shape = {static_cast<std::size_t>(n)};
    desc.batch = rows.size() / n;
    desc.precision = fft::Precision::f64;
    desc.direction = forward ? fft::Direction::forward : fft::Direction::backward;
    desc.norm = forward ? fft::Norm::backward : fft::Norm::forward;  // unscaled either way
    fft::Plan(desc).execute(x.data(), y.data());
    return std::vector<cld>(y.begin(), y.end());
  }
  std::vector<cld> out;
  for (std::size_t b = 0; b < rows.size() / n; ++b) {
    std::vector<cld> row(rows.begin() + b * n, rows.begin() + (b + 1) * n);
    const auto y = ::ripple::test::reference_dft(row, forward);
    out.insert(out.end(), y.begin(), y.end());
  }
  return out;
}

// passes = 0: a DeviceFftBluestein plan (Bluestein's fused passes).
template <class T>
double check(Context& ctx, std::uint64_t n, std::uint64_t max_pass, const FftLayout& l, fft::Direction d,
             double scale, std::size_t passes, bool in_place = false, const std::string& describes = "") {
  const bool dbl = std::is_same_v<T, double>;
  const DeviceFftPlan plan(ctx, n, dbl, l, max_pass);
  SCOPED_TRACE(plan.describe());
  EXPECT_EQ(plan.passes().size(), passes);
  EXPECT_EQ(plan.bluestein() != nullptr, passes == 0);
  EXPECT_NE(plan.describe().find(describes), std::string::npos) << "wanted: " << describes;
  // Passes (Bluestein's fused ones too) of innermost-batched data take adjacent batch entries in
  // a group.
  const bool batch_fast = FftPass::batch_fast(l.one_outer()) && (passes >= 2 || passes == 0);
  EXPECT_EQ(plan.batch_fast(), batch_fast && passes >= 2);
  EXPECT_EQ(plan.describe().find("adjacent batch entries in each group") != std::string::npos, batch_fast);
  const auto rows = test::random_complex<T>(n * l.batch, static_cast<unsigned>(n + l.batch));
  const Result r = run_plan<T>(ctx, plan, rows, l, d, scale, in_place);
  auto want = reference(rows, n, d == fft::Direction::forward);
  for (auto& v : want) v *= static_cast<long double>(scale);
  const double err = rel_l2(r.rows, want);
  EXPECT_LE(err, test::fft_bound<T>(n));  // NaN (an unwritten element) fails too
  EXPECT_TRUE(r.gaps_untouched) << "an element outside the output layout was written";
  return err / test::fft_bound<T>(n);
}

FftLayout contiguous(std::uint64_t n, std::uint64_t batch) {
  FftLayout l;
  l.batch = batch;
  l.in_dist = l.out_dist = static_cast<std::int64_t>(n);
  return l;
}

TEST(GpuFftSplit, FewestMostBalancedPasses) {
  using V = std::vector<std::uint64_t>;
  // Double: passes of at most 4096 points.
  EXPECT_EQ(DeviceFftPlan::split(4096, true), V{4096});
  EXPECT_EQ(DeviceFftPlan::split(1, true), V{1});
  EXPECT_EQ(DeviceFftPlan::split(1u << 22, true), (V{2048, 2048}));
  EXPECT_EQ(DeviceFftPlan::split(1u << 24, true), (V{4096, 4096}));
  EXPECT_EQ(DeviceFftPlan::split(59049, true), (V{243, 243}));
  EXPECT_EQ(DeviceFftPlan::split(78125, true), (V{125, 625}));
  EXPECT_EQ(DeviceFftPlan::split(1000000, true), (V{1000, 1000}));
  EXPECT_EQ(DeviceFftPlan::split(4096 * 7, true), (V{128, 224}));
  EXPECT_EQ(DeviceFftPlan::split(28561, true), (V{169, 169}));  // 13^4
  EXPECT_EQ(DeviceFftPlan::split(11 * 13 * 4096, true), (V{704, 832}));
  EXPECT_EQ(DeviceFftPlan::split(4096, true, 16), (V{16, 16, 16}));
  EXPECT_EQ(DeviceFftPlan::split(8192, true), (V{64, 128}));
  // Float: of at most 8192.
  EXPECT_EQ(DeviceFftPlan::split(8192, false), V{8192});
  EXPECT_EQ(DeviceFftPlan::split(1u << 22, false), (V{2048, 2048}));
  EXPECT_EQ(DeviceFftPlan::split(1u << 25, false), (V{4096, 8192}));
  EXPECT_EQ(DeviceFftPlan::split(1u << 26, false), (V{8192, 8192}));
  EXPECT_EQ(DeviceFftPlan::split(1u << 25, true).size(), 3u);
  for (const std::uint64_t n : {std::uint64_t{1} << 25, std::uint64_t{1} << 36, std::uint64_t{3486784401}}) {
    const V p = DeviceFftPlan::split(n, true);
    ASSERT_EQ(p.size(), 3u) << n;
    EXPECT_EQ(p[0] * p[1] * p[2], n);
    for (auto f : p) EXPECT_LE(f, 4096u);
  }
  for (const std::uint64_t n : {std::uint64_t{4097}, std::uint64_t{23}, std::uint64_t{1} << 37, std::uint64_t{2187}}) {
    try {
      DeviceFftPlan::split(n, true, n == 2187 ? 16 : 4096);
      ADD_FAILURE() << n << " was split";
    } catch (const Unsupported& e) {
      EXPECT_NE(std::string(e.what()).find("size n " + std::to_string(n)), std::string::npos) << e.what();
    }
  }
}

// The codelet-smooth sizes of a range, made from the odd ones' powers of two, and Bluestein's
// length (a short scan, else those sizes), against a scan of every integer: small and awkward
// ranges, and sizes whose next smooth one lies past the short scan (2^33 + 17's lies 265183 on).
TEST(GpuFftSplit, SmoothSizesMatchAScan) {
  const auto scan = [](std::uint64_t lo, std::uint64_t hi) {
    std::vector<std::uint64_t> v;
    for (std::uint64_t m = lo; m <= hi; ++m)
      if (codelet_smooth(m)) v.push_back(m);
    return v;
  };
  const auto next_smooth = [](std::uint64_t m) {
    while (!codelet_smooth(m)) ++m;
    return m;
  };
  std::mt19937_64 rng(11);
  for (int t = 0; t < 100; ++t) {
    const std::uint64_t lo = rng() % 50000000 + 1, hi = lo + rng() % 300000;
    EXPECT_EQ(codelet_smooth_sizes(lo, hi), scan(lo, hi)) << lo << ".." << hi;
  }
  EXPECT_EQ(codelet_smooth_sizes(1, 30), scan(1, 30));
  EXPECT_EQ(codelet_smooth_sizes(23, 23), std::vector<std::uint64_t>{});
  EXPECT_EQ(codelet_smooth_sizes(9, 2), std::vector<std::uint64_t>{});
  for (std::uint64_t n = 1; n < 20000; ++n) ASSERT_EQ(bluestein_size(n), next_smooth(2 * n - 1)) << n;
  for (const std::uint64_t n : {std::uint64_t{1} << 33, (std::uint64_t{1} << 33) + 17, std::uint64_t{30000000001}}) {
    const std::uint64_t want = next_smooth(2 * n - 1);
    EXPECT_EQ(bluestein_size(n), want) << n;
    if (n == (std::uint64_t{1} << 33) + 17) EXPECT_GT(want - (2 * n - 1), 4096u);  // past the short scan
  }
}

// Bluestein beyond one kernel takes the shortest convolution that three fused passes can do, when
// one is within 0.4 % of the shortest of all; else the shortest in that range that five can do.
TEST(GpuFftSplit, BluesteinTakesAConvolutionOfTwoPasses) {
  const std::uint64_t n = 709817, smallest = bluestein_size(n);  // a prime
  EXPECT_EQ(smallest, 1419857u);  // 17^5: 289 x 4913 or worse, no two factors of at most 4096
  EXPECT_TRUE(DeviceFftPlan::split(smallest, false, kFftMaxBluesteinOnChip).size() > 2);
  const std::uint64_t m = DeviceFftBluestein::convolution_size(n, false, kFftMaxOnChip);
  EXPECT_GT(m, smallest);
  EXPECT_LE(m, smallest + smallest / 1000);
  EXPECT_TRUE(codelet_smooth(m));
  EXPECT_EQ(DeviceFftPlan::split(m, false, kFftMaxBluesteinOnChip).size(), 2u);
  EXPECT_EQ(DeviceFftBluestein::fused_split(n, false, kFftMaxOnChip).size(), 2u);
  EXPECT_EQ(DeviceFftBluestein::fused_split(n, true, kFftMaxOnChip).size(), 2u);
  EXPECT_EQ(DeviceFftBluestein::convolution_size(4099, false, kFftMaxOnChip), bluestein_size(4099));
  // Past 4096^2 points no convolution splits in two: five passes, at the shortest, each of at
  // most 4096 points in float too (the middle one holds Bluestein's spectrum step).
  const std::uint64_t past = 8388617;  // a prime
  EXPECT_GT(bluestein_size(past), 4096u * 4096u);
  EXPECT_EQ(DeviceFftBluestein::convolution_size(past, false, kFftMaxOnChip), bluestein_size(past));
  const std::vector<std::uint64_t> five = DeviceFftBluestein::fused_split(past, false, kFftMaxOnChip);
  ASSERT_EQ(five.size(), 3u);
  EXPECT_EQ(five[0] * five[1] * five[2], bluestein_size(past));
  for (const std::uint64_t f : five) EXPECT_LE(f, kFftMaxBluesteinOnChip);
  // A lower cap: 97's 195 = 13 x 15 under 15, 3 x 5 x 13 under 13; none under 12. 2053's
  // convolutions (4105 and up) are past 16^3 points.
  EXPECT_EQ(DeviceFftBluestein::fused_split(97, false, 15), (std::vector<std::uint64_t>{13, 15}));
  EXPECT_EQ(DeviceFftBluestein::fused_split(97, false, 13).size(), 3u);
  EXPECT_FALSE(DeviceFftBluestein::fused_passes_fit(97, false, 12));
  EXPECT_FALSE(DeviceFftBluestein::fused_passes_fit(2053, false, 16));
  try {
    DeviceFftPlan::check_size(2053, false, 16);
    ADD_FAILURE() << "2053 under a cap of 16";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("size n 2053"), std::string::npos) << e.what();
  }
}

// Sizes beyond one kernel with prime factors above 19 as passes of one-kernel DFTs: each large
// prime in one pass, by Rader's algorithm (p - 1 codelet-smooth, p <= 4057) or Bluestein's in
// the kernel (a convolution of at most 4096 points), the codelet-smooth rest in split's passes
// first, Bluestein's next, Rader's last; at most three passes, fewest first, then least work.
TEST(GpuFftSplit, LargePrimesTakePassesOfTheirOwn) {
  using V = std::vector<std::uint64_t>;
  const auto split = [](std::uint64_t n, bool dbl, std::uint64_t cap = kFftMaxOnChip) {
    return DeviceFftPlan::split_with_large_primes(n, dbl, cap);
  };
  EXPECT_EQ(split(23 * 256, false), (V{256, 23}));
  EXPECT_EQ(split(2053 * 1000, false), (V{1000, 2053}));
  EXPECT_EQ(split(4057 * 2, true), (V{2, 4057}));
  EXPECT_EQ(split(29 * 256, false, 32), (V{16, 16, 29}));
  EXPECT_EQ(split(std::uint64_t{97} << 26, false), (V{8192, 8192, 97}));
  // Several large primes: two passes with Bluestein's in the kernel before three (529 = 23 x
  // 23, 667 = 23 x 29: convolutions of 1058 and 1344); under a cap that his convolutions
  // exceed, Rader's, one earlier with the pass twiddle.
  EXPECT_EQ(split(23 * 23 * 16, false), (V{16, 529}));
  EXPECT_EQ(split(23 * 29 * 16, false), (V{16, 667}));
  EXPECT_EQ(split(23 * 29 * 16, false, 32), (V{16, 23, 29}));
  EXPECT_EQ(split(23 * 29, false, 32), (V{23, 29}));  // no smooth pass
  // Bluestein's in the kernel where p - 1 is not smooth (46 = 2 x 23; 82 = 2 x 41; 2038 = 2 x
  // 1019, a convolution of 4080), alone in its pass: 47 x 32 (a convolution of 3024, more
  // work per point) would be no fewer passes.
  EXPECT_EQ(split(47 * 1024, false), (V{1024, 47}));
  EXPECT_EQ(split(47 * 83, false), (V{47, 83}));
  EXPECT_EQ(split(47 * 23 * 16, false), (V{16, 1081}));    // 1081 = 47 x 23, the least work of two
  EXPECT_EQ(split(47 * 23 * 16, false, 96), (V{16, 47, 23}));
  EXPECT_EQ(split(2039 * 4096, false), (V{4096, 2039}));
  EXPECT_EQ(split(2039 * 4096, true), (V{4096, 2039}));
  // Least work of two passes: 184 = 8 x 23 by Bluestein's (a convolution of 374), 29 by Rader's.
  EXPECT_EQ(split(8 * 23 * 29, true), (V{184, 29}));
  // Two Rader primes, no smooth part: 24929 = 97 x 257.
  EXPECT_EQ(split(97 * 257, false), (V{97, 257}));
  // Real transforms take the same passes: their first and last read and write the real side,
  // whatever their algorithm.
  EXPECT_TRUE(DeviceFftPlan::passes_take_real(47 * 1024, false, kFftMaxOnChip));
  EXPECT_TRUE(DeviceFftPlan::passes_take_real(97 * 257, false, kFftMaxOnChip));
  // An even r2c splits its spectrum in a smooth pass, made the last; with none (or none within
  // the split pass's cap), in a kernel after the passes.
  EXPECT_TRUE(DeviceFftPlan::real_split_fits(47 * 1024, false, kFftMaxOnChip, kFftMaxGroup));
  EXPECT_EQ(DeviceFftPlan::split_for_real(47 * 1024, false, kFftMaxOnChip, kFftMaxGroup), (V{47, 1024}));
  EXPECT_EQ(DeviceFftPlan::split_for_real(9 * 23 * 29, false, 32, kFftMaxGroup), (V{29, 23, 9}));
  EXPECT_FALSE(DeviceFftPlan::real_split_fits(47 * 1024, false, kFftMaxOnChip, kFftMaxGroup, 512));
  EXPECT_FALSE(DeviceFftPlan::real_split_fits(97 * 257, false, kFftMaxOnChip, kFftMaxGroup));
  EXPECT_FALSE(DeviceFftPlan::real_split_fits(47 * 83, false, kFftMaxOnChip, kFftMaxGroup));
  // A size of one kernel is one pass, whatever passes would also hold it (46 = 23 x 2).
  EXPECT_FALSE(DeviceFftPlan::real_split_fits(46, false, kFftMaxOnChip, kFftMaxGroup));
  EXPECT_THROW(DeviceFftPlan::split_for_real(46, false, kFftMaxOnChip, kFftMaxGroup), Unsupported);
  // Up to six large primes, two a pass by Bluestein's in the kernel (23^3 is above his 2048
  // points; Bluestein's passes first, then Rader's): 23^4 x 2 and 23^2 x 29^2 in two passes,
  // 23^5 and 23^6 in three; not seven.
  EXPECT_EQ(split(23 * 23 * 23 * 23 * 2, false), (V{529, 1058}));
  EXPECT_EQ(split(23 * 23 * 29 * 29, true), (V{529, 841}));
  EXPECT_EQ(split(std::uint64_t{23} * 23 * 23 * 23 * 23, false), (V{529, 529, 23}));
  EXPECT_EQ(split(std::uint64_t{23} * 23 * 23 * 23 * 23 * 23, false), (V{529, 529, 529}));
  EXPECT_TRUE(split(std::uint64_t{23} * 23 * 23 * 23 * 23 * 23 * 23, false).empty());
  // None: four passes, a prime beyond every one-kernel pass, smooth sizes, a prime alone (one
  // kernel), the caps.
  EXPECT_TRUE(split(std::uint64_t{97} << 40, false).empty());
  EXPECT_TRUE(split(4099 * 2, false).empty());  // 4098 = 2 x 3 x 683, a convolution of 8197
  EXPECT_TRUE(split(8209 * 16, false).empty());
  EXPECT_TRUE(split(4096, false).empty());
  EXPECT_TRUE(split(2053, false).empty());
  EXPECT_TRUE(split(29 * 256, false, 16).empty());  // 28 and 57 > 16
  EXPECT_NO_THROW(DeviceFftPlan::check_size(std::uint64_t{97} << 26, false));
  EXPECT_NO_THROW(DeviceFftPlan::check_size(23 * 29 * 16, false));
}

// An r2c's plan splits the spectrum in its last pass, which must hold two transforms a group
// (not: float 8192, double 4096, 32 KiB of local memory each with the split exchange) and have
// at most kFftMaxSplitPass points; such a pass is made the last.
TEST(GpuFftSplit, RealSplitEndsWithAPassThatPairs) {
  using V = std::vector<std::uint64_t>;
  EXPECT_TRUE(DeviceFft::pairs_fit(4096, false));
  EXPECT_FALSE(DeviceFft::pairs_fit(8192, false));
  EXPECT_TRUE(DeviceFft::pairs_fit(2048, true));
  EXPECT_FALSE(DeviceFft::pairs_fit(4096, true));
  EXPECT_FALSE(DeviceFft::pairs_fit(4096, false, 256));  // 256 work-items a transform
  EXPECT_FALSE(DeviceFft::pairs_fit(97, false));         // no codelet
  EXPECT_EQ(DeviceFftPlan::split_for_real(1u << 20, false, kFftMaxOnChip, kFftMaxGroup), (V{1024, 1024}));
  EXPECT_EQ(DeviceFftPlan::split_for_real(1u << 21, false, kFftMaxOnChip, kFftMaxGroup), (V{2048, 1024}));
  EXPECT_EQ(DeviceFftPlan::split_for_real(1u << 21, true, kFftMaxOnChip, kFftMaxGroup), (V{2048, 1024}));
  const V three = DeviceFftPlan::split_for_real(1u << 25, true, kFftMaxOnChip, kFftMaxGroup);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(three[0] * three[1] * three[2], 1u << 25);
  EXPECT_TRUE(DeviceFft::pairs_fit(three[2], true));
  EXPECT_LE(three[2], kFftMaxSplitPass);
  EXPECT_TRUE(DeviceFftPlan::real_split_fits(240, false, 16, kFftMaxGroup));
  EXPECT_FALSE(DeviceFftPlan::real_split_fits(240, false, kFftMaxOnChip, kFftMaxGroup));  // one pass
  EXPECT_FALSE(DeviceFftPlan::real_split_fits(1u << 24, true, kFftMaxOnChip, kFftMaxGroup));  // 4096 x 4096
  EXPECT_FALSE(DeviceFftPlan::real_split_fits(97 * 64, false, 16, kFftMaxGroup));  // Bluestein
  for (const std::uint64_t n : {std::uint64_t{1} << 24, std::uint64_t{1} << 23, std::uint64_t{4096}}) {
    try {
      DeviceFftPlan::split_for_real(n, true, kFftMaxOnChip, kFftMaxGroup);
      ADD_FAILURE() << n << " was split for a real transform";
    } catch (const Unsupported& e) {
      EXPECT_NE(std::string(e.what()).find("size n " + std::to_string(n)), std::string::npos) << e.what();
    }
  }
}

// Every pass of the four-step reads or writes columns, and takes the column shape; one pass on
// contiguous rows does not, on innermost-batched data it does.
TEST_P(GpuFftPlan, PassesWithColumnsTakeTheColumnShape) {
  const DeviceFftPlan two(ctx(), std::uint64_t{1} << 22, false, contiguous(std::uint64_t{1} << 22, 1));
  const std::vector<FftShape> shapes = two.launch_shapes();
  ASSERT_EQ(shapes.size(), 2u);
  for (const FftShape& s : shapes) {
    EXPECT_TRUE(s.columns);
    EXPECT_EQ(s.n, 2048u);
    EXPECT_EQ(s.transforms_per_group, 4u);  // 32 bytes of adjacent float transforms
  }
  const DeviceFftPlan three(ctx(), 4096, false, contiguous(4096, 2), 16);
  ASSERT_EQ(three.launch_shapes().size(), 3u);
  for (const FftShape& s : three.launch_shapes()) EXPECT_TRUE(s.columns);
  EXPECT_FALSE(DeviceFftPlan(ctx(), 1024, false, contiguous(1024, 8)).launch_shapes().at(0).columns);
  FftLayout innermost;
  innermost.batch = 8;
  innermost.in_stride = innermost.out_stride = 8;
  innermost.in_dist = innermost.out_dist = 1;
  EXPECT_TRUE(DeviceFftPlan(ctx(), 1024, false, innermost).launch_shapes().at(0).columns);
}

TEST_P(GpuFftPlan, TwoPassesMatchTheReference) {
  double worst = 0;
  const std::vector<std::uint64_t> sizes =
      ::ripple::test::quick_mode() ? std::vector<std::uint64_t>{59049, 78125, 28561, 83521}
                                   : std::vector<std::uint64_t>{59049, 78125, 28561, 83521, 1000000, std::uint64_t{1} << 22};
  for (const std::uint64_t n : sizes) {
    const fft::Direction d = n % 2 ? fft::Direction::forward : fft::Direction::backward;
    worst = std::max(worst, check<float>(ctx(), n, kFftMaxOnChip, contiguous(n, 1), d, n % 2 ? 1.0 : 1.0 / n, 2));
  }
  std::printf("[ fft multi-pass f32 ] worst error / bound: %.3f\n", worst);
  if (!ctx().facts().fp64) GTEST_SKIP() << ctx().facts().name << " has no double precision";
  worst = check<double>(ctx(), 59049, kFftMaxOnChip, contiguous(59049, 2), fft::Direction::backward,
                        1.0 / std::sqrt(59049.0), 2);
  std::printf("[ fft multi-pass f64 ] worst error / bound: %.3f\n", worst);
}

// Every shape that can staged through local memory (FftShapeTuning::staging 1, as the bench's
// caps rows ask; by default only column shapes whose warps would read less than a sector of a
// row directly are): column tiles with the pass twiddle in their store, rows, groups of several
// transforms with a partial last group, three passes (two levels of batch), a batch, in place,
// float and double, against the reference, Bluestein's fused passes too. Then none staged (0):
// columns of 256 points loaded and stored directly, interleaved (the default) and not.
TEST_P(GpuFftPlan, PassesStagedThroughLocalMemoryMatchTheReference) {
  const auto fwd = fft::Direction::forward, bwd = fft::Direction::backward;
  for (const bool interleave : {true, false}) {
    const ScopedFftShapeTuning direct({.staging = 0, .interleave = interleave});
    const DeviceFft columns(ctx(), 256, false, true, true);
    EXPECT_EQ(columns.plan_shape().interleaves(false), interleave);
    const double worst = check<float>(ctx(), 256 * 256, 256, contiguous(256 * 256, 2), bwd, 1.0, 2);
    std::printf("[ fft multi-pass direct f32%s ] worst error / bound: %.3f\n", interleave ? ", interleaved" : "",
                worst);
  }
  const ScopedFftShapeTuning forced({.staging = 1});
  double worst = 0;
  worst = std::max(worst, check<float>(ctx(), 64 * 48, 64, contiguous(64 * 48, 1), fwd, 1.0, 2));
  worst = std::max(worst, check<float>(ctx(), 60 * 7, 64, contiguous(60 * 7, 3), bwd, 1.0 / 420, 2));
  worst = std::max(worst, check<float>(ctx(), 16 * 16 * 12, 16, contiguous(16 * 16 * 12, 2), fwd, 1.0, 3));
  worst = std::max(worst, check<float>(ctx(), 48 * 64, 64, contiguous(48 * 64, 2), fwd, 1.0, 2, true));
  // Bluestein's fused passes: his chirp and his N in the tiles; groups that straddle two batch
  // entries where a pass's R = M / M1 transforms an entry are not a multiple of its group's
  // (asserted for 2039's loading pass), padded rows in.
  {
    const std::uint64_t n = 2039, m = DeviceFftBluestein::convolution_size(n, false, 4079);
    const std::uint64_t m1 = DeviceFftBluestein::fused_split(n, false, 4079).at(0);
    const FftShape load = DeviceFft::shape(m1, false, true, ctx().facts().max_work_group,
                                           FftConvolution{n, true, false, false, m / m1, 1});
    EXPECT_TRUE(load.stages());
    EXPECT_NE(m / m1 % load.transforms_per_group, 0u) << "M " << m << " = " << m1 << " x " << m / m1;
  }
  FftLayout padded = contiguous(4099, 3);
  padded.in_dist = 4099 + 5;
  worst = std::max(worst, check<float>(ctx(), 4099, kFftMaxOnChip, padded, fwd, 1.0, 0, false, "three fused passes"));
  worst = std::max(worst, check<float>(ctx(), 2039, 4079, contiguous(2039, 3), bwd, 1.0, 0, false, "three fused"));
  worst = std::max(worst, check<float>(ctx(), 97, 13, contiguous(97, 5), fwd, 1.0, 0, false, "five fused passes"));
  std::printf("[ fft multi-pass staged f32 ] worst error / bound: %.3f\n", worst);
  if (!ctx().facts().fp64) GTEST_SKIP() << ctx().facts().name << " has no double precision";
  worst = check<double>(ctx(), 64 * 48, 64, contiguous(64 * 48, 2), bwd, 1.0, 2);
  std::printf("[ fft multi-pass staged f64 ] worst error / bound: %.3f\n", worst);
}

// run_step (the bench's pass timing): the steps one after another on the plan's own scratch are
// run() forward and unscaled, for two and three passes and a batch whose later passes run per
// entry; an index past the steps is refused naming it.
TEST_P(GpuFftPlan, StepsOneByOneAreTheRun) {
  using C = std::complex<float>;
  struct Case {
    std::uint64_t n, batch, max_pass;
  };
  for (const Case c : {Case{64 * 48, 1, 64}, Case{16 * 16 * 12, 3, 16}}) {
    SCOPED_TRACE("n " + std::to_string(c.n) + " batch " + std::to_string(c.batch));
    const FftLayout l = contiguous(c.n, c.batch);
    const DeviceFftPlan plan(ctx(), c.n, false, l, c.max_pass);
    ASSERT_GE(plan.step_count(), 2u);
    const auto x = test::random_complex<float>(c.n * c.batch, 5);
    auto stream = ctx().create_stream();
    auto din = ctx().allocate(x.size() * sizeof(C));
    auto dout = ctx().allocate(x.size() * sizeof(C));
    stream->upload(*din, 0, x.data(), x.size() * sizeof(C));
    const std::vector<C> poison(x.size(), C(std::numeric_limits<float>::quiet_NaN(), 0.0f));
    stream->upload(*dout, 0, poison.data(), poison.size() * sizeof(C));
    // The first pass alone writes the plan's scratch, not the output.
    plan.run_step(*stream, *din, *dout, 0);
    std::vector<C> steps(x.size());
    stream->synchronize();
    stream->download(*dout, 0, steps.data(), steps.size() * sizeof(C));
    for (const C& v : steps) ASSERT_TRUE(std::isnan(v.real())) << "the first step wrote the output";
    for (std::size_t i = 1; i < plan.step_count(); ++i) plan.run_step(*stream, *din, *dout, i);
    stream->synchronize();
    stream->download(*dout, 0, steps.data(), steps.size() * sizeof(C));
    const Result whole = run_plan(ctx(), plan, x, l, fft::Direction::forward, 1.0);
    ASSERT_EQ(whole.rows.size(), steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i)
      ASSERT_EQ(std::complex<long double>(steps[i]), whole.rows[i]) << "element " << i;
    const std::string past = "launch " + std::to_string(plan.step_count());
    ::ripple::test::expect_invalid([&] { plan.run_step(*stream, *din, *dout, plan.step_count()); }, past);
  }
}

// Small sizes through two and three passes (pass cap 16): batches in padded, strided,
// innermost-batched and interleaved layouts (whose passes take adjacent batch entries in a
// group), in place.
template <class T>
void check_layouts(Context& ctx) {
  const auto fwd = fft::Direction::forward, bwd = fft::Direction::backward;
  double worst = 0;
  for (const std::uint64_t n : {std::uint64_t{256}, std::uint64_t{4096}}) {
    SCOPED_TRACE("n " + std::to_string(n));
    const std::size_t passes = n == 256 ? 2 : 3;
    const auto N = static_cast<std::int64_t>(n);
    worst = std::max(worst, check<T>(ctx, n, 16, contiguous(n, 1), fwd, 1.0, passes));
    FftLayout padded;  // rows padded on input, every other element of padded rows out
    padded.batch = 3;
    padded.in_dist = N + 5;
    padded.out_stride = 2;
    padded.out_dist = 2 * N + 3;
    worst = std::max(worst, check<T>(ctx, n, 16, padded, bwd, 1.0 / n, passes));
    FftLayout innermost;  // element i of transform b at i * batch + b, both sides
    innermost.batch = 4;
    innermost.in_stride = innermost.out_stride = 4;
    innermost.in_dist = innermost.out_dist = 1;
    worst = std::max(worst, check<T>(ctx, n, 16, innermost, fwd, 1.0, passes));
    FftLayout mixed = innermost;  // innermost in, contiguous rows out, in place
    mixed.out_stride = 1;
    mixed.out_dist = N;
    worst = std::max(worst, check<T>(ctx, n, 16, mixed, fwd, 1.0, passes, true));
    // Interleaved channels with a gap (5 entries every 7 elements) in, innermost batching out of
    // a batch that fills no whole group of any pass (the fastest level's tail).
    FftLayout interleaved;
    interleaved.batch = 5;
    interleaved.in_stride = 7;
    interleaved.in_dist = 1;
    interleaved.out_stride = 5;
    interleaved.out_dist = 1;
    worst = std::max(worst, check<T>(ctx, n, 16, interleaved, bwd, 1.0, passes));
    FftLayout rows_to_columns = contiguous(n, 3);  // contiguous rows in, innermost batching out
    rows_to_columns.out_stride = 3;
    rows_to_columns.out_dist = 1;
    worst = std::max(worst, check<T>(ctx, n, 16, rows_to_columns, fwd, 1.0, passes));
    FftLayout wide;  // more entries than a 16-point pass's group takes, with a gap
    wide.batch = 70;
    wide.in_stride = wide.out_stride = 73;
    wide.in_dist = wide.out_dist = 1;
    worst = std::max(worst, check<T>(ctx, n, 16, wide, bwd, 1.0, passes));
  }
  std::printf("[ fft 2/3-pass layouts %s ] worst error / bound: %.3f\n", sizeof(T) == 4 ? "f32" : "f64", worst);
}

TEST_P(GpuFftPlan, FloatLayoutsThroughTwoAndThreePasses) { check_layouts<float>(ctx()); }
TEST_P(GpuFftPlan, DoubleLayoutsThroughTwoAndThreePasses) {
  if (!ctx().facts().fp64) GTEST_SKIP() << ctx().facts().name << " has no double precision";
  check_layouts<double>(ctx());
}

// One pass reading and writing different layouts of the same memory works from a copy.
// A three-pass plan of innermost-batched data wants a second scratch of batch x n for passes 2
// and 3 over the whole batch; where the device cannot give it, the plan runs them per batch
// entry through a scratch of n (the batch its slowest level) and gets the same result. Where it
// cannot have even its first scratch, making it fails with DeviceError.
TEST_P(GpuFftPlan, ThreePassesOverTheBatchFallBackWhenMemoryIsShort) {
  constexpr std::uint64_t n = 4096, batch = 4;
  FftLayout innermost;
  innermost.batch = batch;
  innermost.in_stride = innermost.out_stride = static_cast<std::int64_t>(batch);
  innermost.in_dist = innermost.out_dist = 1;
  const std::size_t scratch_bytes = n * batch * sizeof(std::complex<float>);
  ASSERT_TRUE(DeviceFftPlan(ctx(), n, false, innermost, 16).batch_fast());
  test::ShortOfMemory short_once(ctx(), scratch_bytes, 1);
  const DeviceFftPlan plan(short_once, n, false, innermost, 16);
  EXPECT_EQ(short_once.refused(), 1);
  EXPECT_EQ(plan.passes().size(), 3u);
  EXPECT_FALSE(plan.batch_fast());
  EXPECT_EQ(plan.describe().find("adjacent batch entries"), std::string::npos) << plan.describe();
  const auto rows = test::random_complex<float>(n * batch, 17);
  const Result r = run_plan<float>(ctx(), plan, rows, innermost, fft::Direction::forward, 1.0);
  EXPECT_LE(rel_l2(r.rows, reference(rows, n, true)), test::fft_bound<float>(n));
  EXPECT_TRUE(r.gaps_untouched);
  test::ShortOfMemory short_twice(ctx(), scratch_bytes, 2);
  EXPECT_THROW(DeviceFftPlan(short_twice, n, false, innermost, 16), DeviceError);
}

// A device whose work-groups hold fewer work-items than the programs' caps (256 on AMD's OpenCL
// GPUs) gets programs with more butterflies per item, and passes of at most 16 times its limit
// (a radix-16 stage takes an item per butterfly): at 256, 8192 floats in two passes and Rader's
// 4057 (on 512 items elsewhere) on 256; at 64, passes of 1024, and 2053 by Bluestein's three
// passes (its Rader convolution of 2052 points is beyond 1024).
TEST_P(GpuFftPlan, ProgramsAndPassesFitSmallerWorkGroups) {
  EXPECT_EQ(fft_max_on_chip(false, 1024), 8192u);
  EXPECT_EQ(fft_max_on_chip(true, 1024), 4096u);
  EXPECT_EQ(fft_max_on_chip(false, 256), 4096u);
  EXPECT_EQ(fft_max_on_chip(false, 64), 1024u);
  for (const bool dbl : {false, true})
    for (const bool columns : {false, true})
      for (const std::uint64_t n : {2187u, 2053u, 4057u, 4096u, 2048u, 1031u}) {
        const FftShape s = DeviceFft::shape(n, dbl, columns, 256);
        EXPECT_LE(std::uint64_t(s.threads_per_transform) * s.transforms_per_group, 256u) << n << " " << dbl;
        if (n == 4057) EXPECT_EQ(s.rader, 4057u);
      }
  EXPECT_GT(DeviceFft::shape(4057, false).threads_per_transform, 256u);  // the general cap, 512
  try {
    DeviceFft::shape(8192, false, false, 256);
    ADD_FAILURE() << "8192 on 256-item groups";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("needs 512 work-items"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("hold 256"), std::string::npos) << e.what();
  }
  test::SmallDevice groups_256(ctx(), 256), groups_64(ctx(), 64);
  EXPECT_THROW(DeviceFft(groups_256, 8192, false), Unsupported);
  double worst = 0;
  worst = std::max(worst, check<float>(groups_256, 8192, kFftMaxOnChip, contiguous(8192, 2), fft::Direction::forward, 1.0, 2));
  worst = std::max(worst, check<float>(groups_256, 4057, kFftMaxOnChip, contiguous(4057, 2), fft::Direction::backward,
                                       1.0, 1, false, "Rader"));
  worst = std::max(worst, check<double>(groups_256, 2187, kFftMaxOnChip, contiguous(2187, 2), fft::Direction::forward,
                                        1.0, 1));
  worst = std::max(worst, check<float>(groups_64, 2048, kFftMaxOnChip, contiguous(2048, 2), fft::Direction::forward, 1.0, 2));
  worst = std::max(worst, check<float>(groups_64, 2053, kFftMaxOnChip, contiguous(2053, 2), fft::Direction::forward, 1.0,
                                       0, false, "three fused passes"));
  std::printf("[ worst error / bound on small work-groups ] %.3f\n", worst);
}

TEST_P(GpuFftPlan, OnePassInPlaceWithDifferentLayouts) {
  FftLayout l;
  l.batch = 3;
  l.in_dist = 60;
  l.out_stride = 3;
  l.out_dist = 1;
  check<float>(ctx(), 60, kFftMaxOnChip, l, fft::Direction::forward, 1.0, 1, true);
  check<float>(ctx(), 60, kFftMaxOnChip, contiguous(60, 3), fft::Direction::backward, 1.0, 1, true);
}

// A plan that reads or writes a real transform's real side is of its complex size, codelet-smooth
// and in passes or Bluestein's in fused passes; mistakes are InvalidArgument naming the sizes.
TEST_P(GpuFftPlan, RealSideMistakesAreInvalidArguments) {
  const auto throws = [](const auto& make, const std::string& names) {
    try {
      make();
      ADD_FAILURE() << "no error; wanted one naming " << names;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
    }
  };
  const FftLayout l = contiguous(60, 2);
  throws([&] { DeviceFftPlan(ctx(), 60, false, l, 16, FftReal{100, true}); }, "100");  // complex size 50
  throws([&] { DeviceFftPlan(ctx(), 60, false, l, kFftMaxOnChip, FftReal{120, true}); }, "n 60 is one");
  // 97's passes A (13 points, element step 15), B, C as real passes: only A and C, of A's step
  // (C may split an even r2c's spectrum).
  const FftConvolution load{97, true, false, false, 15, 1}, middle{97, false, true, false, 13, 1},
      store{97, false, false, true, 15, 1};
  EXPECT_NO_THROW(DeviceFft(ctx(), 13, false, true, false, load, FftReal{97, true, 15, false}));
  throws([&] { DeviceFft(ctx(), 15, false, true, false, middle, FftReal{97, true, 13, false}); }, "Bluestein's of 97");
  throws([&] { DeviceFft(ctx(), 13, false, true, false, load, FftReal{97, true, 13, false}); }, "pass step 13");
  throws([&] { DeviceFft(ctx(), 13, false, false, false, store, FftReal{97, true, 15, false}); }, "first");
  EXPECT_NO_THROW(DeviceFft(ctx(), 13, false, false, false, store, FftReal{194, true, 15, true}));  // C splits
  // Rader's program and Bluestein's whole DFT are a real plan's first or last pass, but not an
  // even r2c's split pass: 207 = 9 x 23, 423 = 9 x 47.
  EXPECT_NO_THROW(DeviceFft(ctx(), 23, false, false, false, {}, FftReal{207, true, 9, true}));
  EXPECT_NO_THROW(DeviceFft(ctx(), 23, false, true, false, {}, FftReal{207, true, 9, false}));
  EXPECT_NO_THROW(DeviceFft(ctx(), 47, false, true, false, {}, FftReal{846, false, 9, false}));
  throws([&] { DeviceFft(ctx(), 23, false, false, false, {}, FftReal{414, true, 9, true}); }, "last, without");
  throws([&] { DeviceFft(ctx(), 47, false, false, false, {}, FftReal{846, true, 9, true}); }, "last, without");
  throws([&] { DeviceFft(ctx(), 23, false, false, false, {}, FftReal{207, true, 9, false}); }, "first, without");
}

// Batches of n-point transforms: rows padded on input, every other element of padded rows out
// (3); innermost-batched (4); interleaved, 5 entries every 7 elements in and every 9 out; and
// mixed, innermost-batched in, rows out.
struct StridedLayouts {
  FftLayout padded, innermost, interleaved, mixed;
};

StridedLayouts strided_layouts(std::uint64_t n) {
  const auto N = static_cast<std::int64_t>(n);
  StridedLayouts l;
  l.padded.batch = 3;
  l.padded.in_dist = N + 5;
  l.padded.out_stride = 2;
  l.padded.out_dist = 2 * N + 3;
  l.innermost.batch = 4;
  l.innermost.in_stride = l.innermost.out_stride = 4;
  l.innermost.in_dist = l.innermost.out_dist = 1;
  l.interleaved.batch = 5;
  l.interleaved.in_stride = 7;
  l.interleaved.out_stride = 9;
  l.interleaved.in_dist = l.interleaved.out_dist = 1;
  l.mixed = l.innermost;
  l.mixed.out_stride = 1;
  l.mixed.out_dist = N;
  return l;
}

// Where a second scratch of the whole batch cannot be had, three passes and Bluestein's five
// fused passes of innermost-batched data run one batch entry at a time, the batch no longer
// their fastest level (their second scratch holds one entry): 4096 = 16^3 under a cap of 16,
// whose scratch of B N is the first such allocation; 97 under 13 (195 = 3 x 5 x 13), whose
// second is (after the first scratch).
TEST_P(GpuFftPlan, PassesRunOneEntryAtATimeWithoutMemoryForTheBatch) {
  double worst = 0;
  for (const auto& [n, cap, nth, describes] : {std::tuple<std::uint64_t, std::uint64_t, int, const char*>{4096, 16, 1, "3 passes"},
                                               {97, 13, 2, "five fused passes"}}) {
    const FftLayout l = strided_layouts(n).innermost;  // 4 entries, adjacent
    for (const bool tight : {false, true}) {
      SCOPED_TRACE("n " + std::to_string(n) + (tight ? ", one entry at a time" : ", the batch fastest"));
      const std::uint64_t m = n == 97 ? DeviceFftBluestein::convolution_size(n, false, cap) : n;  // 195
      test::FailingAllocation memory(ctx(), l.batch * m * sizeof(std::complex<float>), tight ? nth : 1000);
      const DeviceFftPlan plan(memory, n, false, l, cap);
      EXPECT_EQ(memory.refused(), tight);
      EXPECT_NE(plan.describe().find(describes), std::string::npos) << plan.describe();
      EXPECT_EQ(plan.describe().find("adjacent batch entries") == std::string::npos, tight) << plan.describe();
      const auto rows = test::random_complex<float>(n * l.batch, static_cast<unsigned>(n));
      const Result r = run_plan<float>(ctx(), plan, rows, l, fft::Direction::forward, 1.0);
      const double err = rel_l2(r.rows, reference(rows, n, true));
      EXPECT_LE(err, test::fft_bound<float>(n));
      EXPECT_TRUE(r.gaps_untouched);
      worst = std::max(worst, err / test::fft_bound<float>(n));
    }
  }
  std::printf("[ fft passes one entry at a time ] worst error / bound: %.3f\n", worst);
}

// A pass of more transforms than a launch takes (2^31 - 1 by default; lowered here) runs in
// launches of whole outer indices, or of runs of a plain batch's transforms where it has one
// outer index of more, and gets the same result: a plain batch of 23 in launches of 5 (in place
// too; Rader's and Bluestein's whole DFTs too), two passes over a batch of 5 (16 transforms an
// outer index) in launches of 32. A pass
// whose outer index holds more than a launch and whose program reads the inner index (the pass
// twiddle) or has the batch as its fastest level is refused naming the counts.
TEST_P(GpuFftPlan, PassesSplitIntoLaunchesOfFewerTransforms) {
  const auto fwd = fft::Direction::forward;
  double worst = 0;
  {
    const ScopedFftShapeTuning five({.launch_transforms = 5});
    worst = std::max(worst, check<float>(ctx(), 64, 64, contiguous(64, 23), fwd, 1.0, 1));
    worst = std::max(worst, check<float>(ctx(), 60, 64, contiguous(60, 23), fwd, 1.0 / 60, 1, true));
    // Runs through whole DFTs by Rader's and Bluestein's algorithms in the kernel (their inner
    // index only addresses).
    worst = std::max(worst, check<float>(ctx(), 97, 4096, contiguous(97, 23), fwd, 1.0, 1, false, "Rader"));
    worst = std::max(worst, check<float>(ctx(), 83, 4096, contiguous(83, 23), fwd, 1.0, 1, false, "Bluestein"));
    ::ripple::test::expect_unsupported([&] { DeviceFftPlan(ctx(), 256, false, contiguous(256, 5), 16); },
                                       {"80 transforms", "16 x 1", "at most 5"});
  }
  {
    const ScopedFftShapeTuning some({.launch_transforms = 40});
    worst = std::max(worst, check<float>(ctx(), 256, 16, contiguous(256, 5), fwd, 1.0, 2));
  }
  {
    // Innermost batching: the passes' one outer index holds the batch as its fastest level.
    const ScopedFftShapeTuning some({.launch_transforms = 100});
    FftLayout innermost;  // element i of transform b at i * batch + b
    innermost.batch = 5;
    innermost.in_stride = innermost.out_stride = 5;
    innermost.in_dist = innermost.out_dist = 1;
    ::ripple::test::expect_unsupported([&] { DeviceFftPlan(ctx(), 4096, false, innermost, 16); },
                                       {"1280 transforms", "256 x 5", "at most 100"});
  }
  std::printf("[ fft passes in several launches ] worst error / bound: %.3f\n", worst);
}

// Bluestein (and Rader): primes and a size with a large prime factor, both directions, each
// way it runs: by Rader in the one kernel (23, 97, the primes whose p - 1 is codelet-smooth),
// by Bluestein in the one kernel where the convolution fits (n <= 2048; 2039 the largest, 4095
// points; 1031 and 2039 double with the split exchange; 83), in three fused passes (4099, 8198
// and 709817, and the small sizes with the pass cap below the convolutions), in five fused passes
// (97 with passes of at most 13 points: 195 = 3 x 5 x 13); batches in padded, strided,
// innermost-batched layouts and in place each way.
template <class T>
void check_bluestein(Context& ctx) {
  const auto fwd = fft::Direction::forward, bwd = fft::Direction::backward;
  double worst = 0;
  const bool dbl = std::is_same_v<T, double>;
  struct Way {
    std::uint64_t cap;
    std::size_t passes;
    std::string describes;
  };
  const auto ways = [dbl](std::uint64_t n) {
    std::vector<std::uint64_t> caps{kFftMaxOnChip};
    if (n <= 2048) caps.push_back(bluestein_size(n) - 1);
    if (rader_fits(n, dbl)) caps.push_back(n - 2);  // below Rader's convolution too
    if (n == 97) caps.push_back(13);
    std::vector<Way> w;
    for (const std::uint64_t cap : caps) {
      if (fits_one_kernel(n, dbl, cap))
        w.push_back({cap, 1, rader_fits(n, dbl, cap) ? "one kernel: Rader" : "one kernel: Bluestein"});
      else
        w.push_back({cap, 0,
                     DeviceFftBluestein::fused_split(n, dbl, cap).size() == 2 ? "three fused passes" : "five fused passes"});
    }
    return w;
  };
  // 709817: its smallest convolution, 17^5, has no split in two factors of at most 4096; a
  // slightly longer one does (DeviceFftBluestein::convolution_size). (Five passes at their own
  // sizes, past 4096^2 points, took 45 s and 4.8 GB here: bench/gpu checks 8388617.)
  const std::vector<std::uint64_t> sizes = dbl ? std::vector<std::uint64_t>{97, 1031, 2039}
                                               : std::vector<std::uint64_t>{23, 97, 2039, 4099, 2 * 4099, 709817};
  for (const std::uint64_t n : sizes)
    for (const Way& w : ways(n)) {
      SCOPED_TRACE("n " + std::to_string(n) + " cap " + std::to_string(w.cap));
      worst = std::max(worst, check<T>(ctx, n, w.cap, contiguous(n, 2), fwd, 1.0, w.passes, false, w.describes));
      worst = std::max(worst, check<T>(ctx, n, w.cap, contiguous(n, 1), bwd, 1.0 / std::sqrt(double(n)), w.passes,
                                       false, w.describes));
    }
  // The layouts: 97 by Rader in the kernel, then by Bluestein beyond it; 83 (82 = 2 x 41) by
  // Bluestein in the kernel.
  for (const std::uint64_t n : {std::uint64_t{97}, std::uint64_t{83}}) {
    const auto [padded, innermost, interleaved, mixed] = strided_layouts(n);
    for (const Way& w : ways(n)) {
      SCOPED_TRACE("layouts, n " + std::to_string(n) + " cap " + std::to_string(w.cap));
      worst = std::max(worst, check<T>(ctx, n, w.cap, padded, bwd, 1.0 / n, w.passes, false, w.describes));
      worst = std::max(worst, check<T>(ctx, n, w.cap, innermost, fwd, 1.0, w.passes, false, w.describes));
      worst = std::max(worst, check<T>(ctx, n, w.cap, interleaved, bwd, 1.0, w.passes, false, w.describes));
      worst = std::max(worst, check<T>(ctx, n, w.cap, mixed, fwd, 1.0, w.passes, true, w.describes));
    }
  }
  std::printf("[ fft bluestein %s ] worst error / bound: %.3f\n", dbl ? "f64" : "f32", worst);
}

// Large primes in passes of their own (split_with_large_primes), both directions. Rader's as
// the last pass: 5888 = 256 x 23, 2053000 = 1000 x 2053, 4057 x 64 (float), 6208 = 64 x 97,
// 8114 = 2 x 4057 (double). Four large primes: 23^4 = 529 x 529 (float) and 23^2 x 29^2 = 529
// x 841 (double), both Bluestein's; in float under a cap of 1100 (which 841's convolution
// exceeds) 529 x 29 x 29, Rader's second and last. With the pass twiddle: Rader's in the
// middle of 10672 = 16 x 23 x 29 under a cap of 32, Bluestein's in the middle of 17296 = 16 x
// 47 x 23 under 96 (float), first of 5336 = 184 x 29 (double) and of 3901 = 47 x 83 (both
// Bluestein's: the first reads the caller's layout). Bluestein's last: 12032 = 256 x 47, 10672 = 16 x 667 (float). Under a cap
// of 32, 7424 = 16 x 16 x 29 and 667 = 23 x 29 (Rader's first, with the pass twiddle) in padded,
// innermost-batched (the batch the fastest level of every pass), interleaved layouts and in
// place.
template <class T>
void check_large_prime_passes(Context& ctx) {
  const auto fwd = fft::Direction::forward, bwd = fft::Direction::backward;
  const bool dbl = std::is_same_v<T, double>;
  struct Want {
    std::uint64_t n, cap;
    std::size_t passes;
    std::string describes;
  };
  const std::string rader = "by Rader's algorithm", both_bluestein = "the first (47) and the last (83) by Bluestein's";
  double worst = 0;
  const std::vector<Want> sizes =
      dbl ? std::vector<Want>{{64 * 97, kFftMaxOnChip, 2, rader},
                              {2 * 4057, kFftMaxOnChip, 2, rader},
                              {8 * 23 * 29, kFftMaxOnChip, 2,
                               "the first (184) by Bluestein's algorithm in the kernel, the last (29) by Rader's"},
                              {47 * 83, kFftMaxOnChip, 2, both_bluestein},
                              {23 * 23 * 29 * 29, kFftMaxOnChip, 2, "the first (529) and the last (841) by Bluestein's"}}
          : std::vector<Want>{{23 * 23 * 23 * 23, kFftMaxOnChip, 2, "the first (529) and the last (529) by Bluestein's"},
                              {23 * 23 * 29 * 29, 1100, 3,
                               "the first (529) by Bluestein's algorithm in the kernel, the second (29) and the last (29) by Rader's"},
                              {256 * 23, kFftMaxOnChip, 2, "the last (23) by Rader's algorithm"},
                              {1000 * 2053, kFftMaxOnChip, 2, rader},
                              {64 * 4057, kFftMaxOnChip, 2, rader},
                              {16 * 23 * 29, 32, 3, "the second (23) and the last (29) by Rader's algorithm"},
                              {16 * 47 * 23, 96, 3, "the second (47) by Bluestein's algorithm in the kernel, the last (23) by Rader's"},
                              {47 * 83, kFftMaxOnChip, 2, both_bluestein},
                              {256 * 47, kFftMaxOnChip, 2, "the last (47) by Bluestein's algorithm in the kernel"},
                              {16 * 23 * 29, kFftMaxOnChip, 2, "the last (667) by Bluestein's"}};
  for (const Want& w : sizes) {
    const std::uint64_t n = w.n;
    worst = std::max(worst, check<T>(ctx, n, w.cap, contiguous(n, 2), fwd, 1.0, w.passes, false, w.describes));
    worst = std::max(worst, check<T>(ctx, n, w.cap, contiguous(n, 1), bwd, 1.0 / n, w.passes, false, w.describes));
  }
  for (const std::uint64_t n : {std::uint64_t{16 * 16 * 29}, std::uint64_t{23 * 29}}) {
    const std::size_t passes = n == 23 * 29 ? 2 : 3;
    const StridedLayouts l = strided_layouts(n);
    const FftLayout &padded = l.padded, &innermost = l.innermost, &interleaved = l.interleaved;
    worst = std::max(worst, check<T>(ctx, n, 32, padded, bwd, 1.0, passes, false, rader));
    worst = std::max(worst, check<T>(ctx, n, 32, innermost, fwd, 1.0, passes, false, rader));
    worst = std::max(worst, check<T>(ctx, n, 32, interleaved, bwd, 1.0, passes, false, rader));
    worst = std::max(worst, check<T>(ctx, n, 32, contiguous(n, 3), fwd, 1.0, passes, true, rader));
  }
  std::printf("[ fft large-prime passes %s ] worst error / bound: %.3f\n", dbl ? "f64" : "f32", worst);
}

TEST_P(GpuFftPlan, FloatLargePrimePassesMatchTheReference) { check_large_prime_passes<float>(ctx()); }
TEST_P(GpuFftPlan, DoubleLargePrimePassesMatchTheReference) {
  if (!ctx().facts().fp64) GTEST_SKIP() << ctx().facts().name << " has no double precision";
  check_large_prime_passes<double>(ctx());
}

TEST_P(GpuFftPlan, FloatBluesteinMatchesTheReference) { check_bluestein<float>(ctx()); }
TEST_P(GpuFftPlan, DoubleBluesteinMatchesTheReference) {
  if (!ctx().facts().fp64) GTEST_SKIP() << ctx().facts().name << " has no double precision";
  check_bluestein<double>(ctx());
}

}  // namespace
}  // namespace ripple::gpu
