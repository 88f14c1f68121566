// The real GPU FFTs (src/gpu/device_fft_real) each way they run, r2c and c2r, against the
// long-double reference: in one kernel (even n: the reals paired, the split in the store, the
// merge in the load; odd n: widened reals, the Hermitian spectrum rebuilt in the load;
// Rader's and Bluestein's in-kernel sizes; the split exchange of double 8192) and through the complex plan
// (n = 1 and 2 always, 19683 always, 6561 and 16384 in double, and small sizes sent there by a
// lower pass cap): its first pass reading the real side and its last writing it in every
// layout (odd smooth n; even n of a smooth half: the c2r's merge in the first and pairs of reals
// stored by the last, the r2c's pairs read by the first and the split in the last, or in a
// kernel where a lowered cap leaves no pass to split in; Bluestein's three and five fused
// passes, the first and last of which do the same, the even r2c's split in the last or in a
// kernel after it), else with kernels around it (n = 1 and 2), in contiguous, strided and padded,
// innermost-batched and two-level layouts.
// Outputs are poisoned with NaN: elements outside the output layout must stay NaN and sentinels
// past its end untouched (an odd r2c that stored k > n/2 would hit them).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <type_traits>
#include <vector>

#include "common/reference_fft.hpp"
#include "common/rel_l2.hpp"
#include "fft_test_util.hpp"
#include "gpu/device_fft_bluestein.hpp"
#include "gpu/device_fft_real.hpp"
#include "gpu_test_util.hpp"

namespace ripple::gpu {
namespace {

using ::ripple::test::cld;
using ::ripple::test::rel_l2;

class GpuFftReal : public test::GpuTest {};
RIPPLE_INSTANTIATE_FOR_EACH_GPU(GpuFftReal);

template <class T>
T poison() {
  if constexpr (std::is_floating_point_v<T>)
    return std::numeric_limits<T>::quiet_NaN();
  else
    return {poison<typename T::value_type>(), poison<typename T::value_type>()};
}

// Uploads `host`, runs the plan into an output of out_span elements poisoned with NaN and
// followed by sentinels, and returns the output; checks the sentinels.
template <class In, class Out>
std::vector<Out> run(Context& ctx, const DeviceFftReal& plan, const std::vector<In>& host, std::size_t out_span,
                     double scale) {
  constexpr std::size_t tail = 3;
  std::vector<Out> out(out_span + tail, poison<Out>());
  for (std::size_t i = 0; i < tail; ++i) out[out_span + i] = Out(7.0 + static_cast<double>(i));
  auto stream = ctx.create_stream();
  auto din = ctx.allocate(host.size() * sizeof(In));
  auto dout = ctx.allocate(out.size() * sizeof(Out));
  stream->upload(*din, 0, host.data(), host.size() * sizeof(In));
  stream->upload(*dout, 0, out.data(), out.size() * sizeof(Out));
  plan.run(*stream, *din, *dout, scale);
  stream->synchronize();
  stream->download(*dout, 0, out.data(), out.size() * sizeof(Out));
  for (std::size_t i = 0; i < tail; ++i)
    EXPECT_EQ(out[out_span + i], Out(7.0 + static_cast<double>(i))) << "written past the end";
  return out;
}

template <class T>
bool is_nan(const T& v) {
  if constexpr (std::is_floating_point_v<T>)
    return std::isnan(v);
  else
    return std::isnan(v.real()) && std::isnan(v.imag());
}

// The transforms of `l` by DeviceFftReal(n, r2c, l, max_pass), scaled by 1/sqrt(n); expects the
// one-kernel path or not (`fused`). Returns the error over its bound.
template <class T>
double check(Context& ctx, std::uint64_t n, bool r2c, const FftLayout& l, bool fused,
             std::uint64_t max_pass = kFftMaxOnChip, std::uint64_t max_split_pass = kFftMaxSplitPass) {
  using C = std::complex<T>;
  const bool dbl = std::is_same_v<T, double>;
  const DeviceFftReal plan(ctx, n, dbl, r2c, l, max_pass, max_split_pass);
  max_pass = std::min(max_pass, fft_max_on_chip(dbl, ctx.facts().max_work_group));  // as the plan does
  SCOPED_TRACE((r2c ? "r2c n " : "c2r n ") + std::to_string(n) + " batch " + std::to_string(l.batch) + ": " +
               plan.describe());
  EXPECT_EQ(plan.fused(), fused);
  // A size whose complex FFT takes passes that can (smooth, or Bluestein's fused ones) reads and
  // writes the real side in them, in every layout (an even r2c splits in its last pass where one
  // can pair its transforms, else in a kernel); n = 1 and 2 go through kernels around a work
  // array.
  const std::string path = plan.describe();
  const std::uint64_t complex_size = n % 2 == 0 ? n / 2 : n;
  // Innermost batching puts adjacent batch entries in a group in every pass (FftPass::batch_fast).
  bool batch_fast = false;
  if (!fused && n > 2 && DeviceFftPlan::passes_take_real(complex_size, dbl, max_pass)) {
    const bool split =
        DeviceFftPlan::real_split_fits(n / 2, dbl, max_pass, ctx.facts().max_work_group, max_split_pass);
    EXPECT_NE(path.find(n % 2 != 0 ? (r2c ? "the reals read by the first, the half spectrum stored by"
                                          : "the Hermitian spectrum rebuilt by the first, the real parts")
                        : r2c      ? (split ? "the reals read in pairs by the first, the real spectrum split in"
                                            : "the reals read in pairs by the first")
                                   : "the real spectrum merged in the first, the reals stored in pairs by the last"),
              std::string::npos);
    if (n % 2 == 0 && r2c && !split) EXPECT_NE(path.find("with a split kernel"), std::string::npos);
    // The plan's layout: the caller's, but an even r2c's with a split kernel writes Z to a
    // contiguous work array.
    FftLayout plan_layout = l.one_outer();
    if (n % 2 == 0 && r2c && !split) {
      plan_layout.out_stride = 1;
      plan_layout.out_dist = static_cast<std::int64_t>(n / 2);
    }
    batch_fast = FftPass::batch_fast(plan_layout);
  } else if (!fused) {
    EXPECT_NE(path.find(n % 2 != 0 ? "widened into a work array" : r2c ? "with a split kernel" : "after a merge kernel"),
              std::string::npos);
  }
  EXPECT_EQ(path.find("adjacent batch entries in each group") != std::string::npos, batch_fast);
  const std::uint64_t h = n / 2 + 1;
  const fft::test::Side in = test::layout_side(l, true, r2c ? n : h), out = test::layout_side(l, false, r2c ? h : n);
  const auto values = test::random_complex<T>(n * l.batch, static_cast<unsigned>(3 * n + l.batch + r2c));
  const double scale = 1.0 / std::sqrt(static_cast<double>(n));
  std::vector<std::vector<cld>> want(l.batch);
  std::vector<cld> got, all_want;
  std::vector<char> mapped;
  bool gaps_untouched = true;
  const auto gather = [&](const auto& y, std::uint64_t count) {
    mapped.assign(y.size(), 0);
    for (std::uint64_t b = 0; b < l.batch; ++b)
      for (std::uint64_t e = 0; e < count; ++e) {
        got.emplace_back(y[out.at(b, e)]);
        mapped[out.at(b, e)] = 1;
      }
    for (std::size_t i = 0; i + 3 < y.size(); ++i)
      if (!mapped[i] && !is_nan(y[i])) gaps_untouched = false;
  };
  for (std::uint64_t b = 0; b < l.batch; ++b) {
    std::vector<cld> x(n);
    if (r2c) {
      for (std::uint64_t j = 0; j < n; ++j) x[j] = values[b * n + j].real();
      const auto y = ::ripple::test::reference_dft(x, true);
      want[b].assign(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(h));
    } else {
      // The Hermitian spectrum the c2r sees: imaginary parts of X[0] (and X[n/2]) dropped.
      for (std::uint64_t k = 0; k < h; ++k) x[k] = values[b * n + k];
      x[0].imag(0);
      if (n % 2 == 0) x[n / 2].imag(0);
      for (std::uint64_t k = h; k < n; ++k) x[k] = std::conj(x[n - k]);
      for (const cld& v : ::ripple::test::reference_dft(x, false)) want[b].emplace_back(v.real(), 0);
    }
    for (cld& v : want[b]) all_want.push_back(v * static_cast<long double>(scale));
  }
  if (r2c) {
    std::vector<T> host(in.span(), T(0));
    for (std::uint64_t b = 0; b < l.batch; ++b)
      for (std::uint64_t j = 0; j < n; ++j) host[in.at(b, j)] = values[b * n + j].real();
    gather(run<T, C>(ctx, plan, host, out.span(), scale), h);
  } else {
    std::vector<C> host(in.span(), C(0, 0));
    for (std::uint64_t b = 0; b < l.batch; ++b)
      for (std::uint64_t k = 0; k < h; ++k) host[in.at(b, k)] = values[b * n + k];
    gather(run<C, T>(ctx, plan, host, out.span(), scale), n);
  }
  const double bound = test::fft_bound<T>(n);
  const double err = rel_l2(got, all_want);
  EXPECT_LE(err, bound);  // NaN (an unwritten element) fails too
  EXPECT_TRUE(gaps_untouched) << "an element outside the output layout was written";
  return err / bound;
}

// Layouts of n reals and h = n/2 + 1 complex values per transform (`r2c`: reals in).
std::vector<FftLayout> layouts(std::uint64_t n, bool r2c, bool all) {
  const auto h = static_cast<std::int64_t>(n / 2 + 1), N = static_cast<std::int64_t>(n);
  const auto in_n = r2c ? N : h, out_n = r2c ? h : N;
  std::vector<FftLayout> out;
  FftLayout contiguous;
  contiguous.batch = 3;
  contiguous.in_dist = in_n;
  contiguous.out_dist = out_n;
  out.push_back(contiguous);
  FftLayout inner;  // innermost batching: the column shape
  inner.batch = 4;
  inner.in_stride = inner.out_stride = 4;
  inner.in_dist = inner.out_dist = 1;
  out.push_back(inner);
  if (!all) return out;
  FftLayout strided;  // strided reals at odd distances (no paired loads), padded complex values
  strided.batch = 3;
  (r2c ? strided.in_stride : strided.out_stride) = 2;
  (r2c ? strided.in_dist : strided.out_dist) = 2 * N + 1;
  (r2c ? strided.out_dist : strided.in_dist) = h + 3;
  out.push_back(strided);
  FftLayout two;  // two levels of batch, padded rows (an axis of a multi-dimensional array)
  two.batch = 6;
  two.inner = 3;
  two.in_dist = in_n + 2;
  two.in_dist_outer = 3 * two.in_dist + 5;
  two.out_dist = out_n + 1;
  two.out_dist_outer = 3 * two.out_dist + 2;
  out.push_back(two);
  FftLayout rows_to_columns;  // rows in, innermost batching out: the passes' batch fastest anyway
  rows_to_columns.batch = 3;
  rows_to_columns.in_dist = in_n;
  rows_to_columns.out_stride = 3;
  rows_to_columns.out_dist = 1;
  out.push_back(rows_to_columns);
  FftLayout columns_two;  // two levels, the inner one innermost (axis 0 of a 2-D array, twice)
  columns_two.batch = 10;
  columns_two.inner = 5;
  columns_two.in_stride = columns_two.out_stride = 5;
  columns_two.in_dist = columns_two.out_dist = 1;
  columns_two.in_dist_outer = 5 * in_n + 3;
  columns_two.out_dist_outer = 5 * out_n + 1;
  out.push_back(columns_two);
  FftLayout wide;  // more interleaved entries than a pass's group takes, with a gap
  wide.batch = 70;
  wide.in_stride = wide.out_stride = 73;
  wide.in_dist = wide.out_dist = 1;
  out.push_back(wide);
  return out;
}

template <class T>
void check_sizes(Context& ctx) {
  const bool dbl = std::is_same_v<T, double>;
  double worst = 0;
  struct Case {
    std::uint64_t n;
    bool fused;
    std::uint64_t max_pass = kFftMaxOnChip;
    std::uint64_t max_split_pass = kFftMaxSplitPass;
  };
  // One kernel: even and odd, Rader's in-kernel sizes (97, 2053; 194 and 4106, whose halves are:
  // the r2c's split from his outputs in local memory in natural order), Bluestein's (83; 2050,
  // whose half 1025 = 5^2 41 is), 8192 (the split exchange in double), and in float 6561 = 3^8 and 16384
  // (the split exchange). Not: n = 1 and 2 (a complex FFT of one point), 19683 = 3^9 (two
  // passes), 6561 and 16384 in double, and sizes sent past the one kernel by a cap (120: two
  // passes of its half 60 = 6 x 10, 512: of 16 x 16, 1024: three of 8 x 8 x 8, 480: two of
  // 15 x 16 (an odd count of last-pass transforms: one unpaired), 300: of 10 x 15 (an odd last
  // pass), 72: three of 3 x 3 x 4 (the last pass's 9 transforms an odd count); c2r merging in
  // the first and storing pairs of reals in the last, r2c reading them in the first and
  // splitting in the last, or with no pass of at most 8 points to split in (480 again, and 72),
  // in a kernel after the passes; 15: two passes of 3 x 5; 97,
  // 194: Bluestein's convolution of 195 in three fused passes, whose first and last read and
  // write the real side as a plan's do, the even r2c's C splitting the spectrum with partners
  // (h - i) mod S, H = C S + h (194: H = 97 = 6 x 15 + 7, S = 15; 138: 69 = 4 x 14 + 13, odd h
  // and even S, no transform its own partner; 106: 53 = 3 x 15 + 8; 212: 106 = 5 x 18 + 16,
  // even h and S, slot 1 holding the other transform its own partner), or in a kernel after it
  // (194 with a split cap of 8, below C's 13 points); 131, 262: its
  // convolution of 264 in five fused passes under a cap of 16 (the first and last reading and
  // writing the real side, the r2c's last splitting); odd sizes read and write
  // the real side in the first and last passes: 19683 = 81 x 243, 15 = 3 x 5, 125 = 5 x 5 x 5
  // and 105 = 3 x 5 x 7; Rader's prime as the last pass, writing the real side (5589 = 243 x
  // 23, 207 = 9 x 23 under a cap of 22), but in an even r2c, whose smooth pass is made the last
  // to split the spectrum, the first or a middle one: 11776 (half 23 x 256), 14848 (half 16 x 29
  // x 16 under a cap of 32), and in every layout 414 (half 23 x 9) under a cap of 22; two Rader
  // primes, the first a middle pass (complex, with the pass twiddle): 6003 = 9 x 23 x 29 and
  // 12006 under a cap of 32; Rader's as the first pass, reading the real side: 667 = 23 x 29
  // and 1334 under a cap of 32 (every layout; no smooth pass: a split kernel), 24929 = 97 x 257;
  // Bluestein's in the kernel as first and last passes: 3901 = 47 x 83 and 7802 (a split
  // kernel), and as the first of 6016 (half 47 x 64), whose 64 splits the spectrum, or under a
  // split cap of 32 as the last, a split kernel after it; four large primes: 279841 = 529 x 529.
  std::vector<Case> cases = {{3, true},       {4, true},      {15, true},       {16, true},      {97, true},
                             {120, true},     {194, true},    {2050, true},     {8192, true},    {6561, !dbl},
                             {16384, !dbl},   {1, false},     {2, false},       {19683, false},  {120, false, 30},
                             {15, false, 5},  {97, false, 64}, {194, false, 64}, {512, false, 16}, {1024, false, 8},
                             {480, false, 16}, {300, false, 15}, {125, false, 5}, {105, false, 8},
                             {72, false, 4},  {480, false, 16, 8}, {72, false, 4, 2}, {131, false, 16},
                             {262, false, 16}, {138, false, 16},  {106, false, 16}, {212, false, 24},
                             {194, false, 64, 8}, {83, true},   {2053, true},     {4106, true},
                             {5589, false},   {11776, false}, {2 * 16 * 16 * 29, false, 32}, {207, false, 22},
                             {414, false, 22}, {9 * 23 * 29, false, 32}, {2 * 9 * 23 * 29, false, 32},
                             {667, false, 32}, {1334, false, 32}, {24929, false}, {3901, false},
                             {7802, false}, {6016, false}, {6016, false, kFftMaxOnChip, 32}, {279841, false}};
  for (const Case& c : cases)
    for (bool r2c : {true, false})
      // Every layout in float up to 2050, and in double for a size of passes and one of
      // Bluestein's (pairs at odd reals take scalar loads and stores).
      for (const FftLayout& l : layouts(c.n, r2c, dbl ? c.max_pass < kFftMaxOnChip && (c.n == 480 || c.n == 194)
                                                      : c.n <= 2050))
        worst = std::max(worst, check<T>(ctx, c.n, r2c, l, c.fused, c.max_pass, c.max_split_pass));
  std::printf("[ gpu %s r2c/c2r ] worst error / bound: %.3f\n", dbl ? "f64" : "f32", worst);
}

// On a device of 256-item groups (AMD's OpenCL GPUs) the complex FFT of 8192 points is two
// passes, reading and writing the real side; of 4096, still one kernel.
TEST_P(GpuFftReal, SmallerWorkGroupsTakePassesBeyond4096) {
  test::SmallDevice groups_256(ctx(), 256);
  double worst = 0;
  for (const bool r2c : {true, false}) {
    worst = std::max(worst, check<float>(groups_256, 16384, r2c, layouts(16384, r2c, false).front(), false));
    worst = std::max(worst, check<float>(groups_256, 8192, r2c, layouts(8192, r2c, false).front(), true));
  }
  std::printf("[ gpu f32 r2c/c2r on 256-item groups ] worst error / bound: %.3f\n", worst);
}

TEST_P(GpuFftReal, FloatEachWayMatchesTheReference) { check_sizes<float>(ctx()); }
TEST_P(GpuFftReal, DoubleEachWayMatchesTheReference) {
  if (!ctx().facts().fp64) GTEST_SKIP() << "no fp64";
  check_sizes<double>(ctx());
}

}  // namespace
}  // namespace ripple::gpu
