// Checks batched and strided layouts (c2c, r2c, c2r): batches below, at and above the SIMD
// width, strides > 1, dists larger than packed, "innermost batching" (stride = batch, dist = 1),
// mixed input/output layouts and in-place execution; every output element is checked against
// the reference, and elements between strided outputs must keep their sentinel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "fft/fft_test_util.hpp"
#include "ripple/runtime.hpp"

namespace ripple::fft::test {
namespace {

/// How a case lays out its data, given N's element counts on each side and the batch.
enum class Layout {
  packed,           // stride 1, dist 0
  packed_explicit,  // stride 1, dist = count
  strided,          // in_stride 2, out_stride 3, dist 0 (packed at that stride)
  padded_dist,      // stride 1, dist = count + 5 (in) / count + 3 (out)
  strided_padded,   // in_stride 3, in_dist 3*count + 2; out_stride 2, out_dist 2*count + 7
  innermost,        // stride = batch, dist = 1 on both sides
  innermost_in,     // input innermost, output packed
  innermost_out,    // input packed, output innermost
};

const char* layout_name(Layout s) {
  switch (s) {
    case Layout::packed: return "packed";
    case Layout::packed_explicit: return "packed_explicit";
    case Layout::strided: return "strided";
    case Layout::padded_dist: return "padded_dist";
    case Layout::strided_padded: return "strided_padded";
    case Layout::innermost: return "innermost";
    case Layout::innermost_in: return "innermost_in";
    case Layout::innermost_out: return "innermost_out";
  }
  return "?";
}

void apply_shape(PlanDesc& d, Layout s) {
  const std::size_t n = d.shape[0];
  const auto in_count = static_cast<std::ptrdiff_t>(d.kind == Kind::c2r ? n / 2 + 1 : n);
  const auto out_count = static_cast<std::ptrdiff_t>(d.kind == Kind::r2c ? n / 2 + 1 : n);
  const auto batch = static_cast<std::ptrdiff_t>(d.batch);
  switch (s) {
    case Layout::packed: break;
    case Layout::packed_explicit:
      d.in_dist = in_count;
      d.out_dist = out_count;
      break;
    case Layout::strided:
      d.in_stride = 2;
      d.out_stride = 3;
      break;
    case Layout::padded_dist:
      d.in_dist = in_count + 5;
      d.out_dist = out_count + 3;
      break;
    case Layout::strided_padded:
      d.in_stride = 3;
      d.in_dist = 3 * in_count + 2;
      d.out_stride = 2;
      d.out_dist = 2 * out_count + 7;
      break;
    case Layout::innermost:
      d.in_stride = d.out_stride = batch;
      d.in_dist = d.out_dist = 1;
      break;
    case Layout::innermost_in:
      d.in_stride = batch;
      d.in_dist = 1;
      break;
    case Layout::innermost_out:
      d.out_stride = batch;
      d.out_dist = 1;
      break;
  }
}

/// 1, 3, 5, 8, 17 and the SIMD widths around the chosen target's lanes (float and double).
std::vector<std::size_t> batches() {
  std::set<std::size_t> b{1, 3, 5, 8, 17};
  for (int lanes : {ripple::simd_complex_lanes_f32(), ripple::simd_complex_lanes_f64()}) {
    const auto l = static_cast<std::size_t>(std::max(lanes, 1));
    for (std::size_t v : {l - 1, l, l + 1, 2 * l + 1})
      if (v > 0) b.insert(v);
  }
  return {b.begin(), b.end()};
}

// On AVX-512, 12, 16, 60, 64, 128 (float), 8, 12, 250 (double) and the double four-step of 243
// run on the narrower table (256-bit vectors: AVX2, or AVX-512 instructions for the double
// unrolled panels); float 42 (unrolled) and 66 (generic) on the 128-bit table, as do the
// half-size transforms of real 100. Batches of 37 and 74 that fill the lanes run the generic
// panel kernel with a run-time radix as the lone pass and as the last (PassAt).
const std::vector<std::size_t> kC2cSizes{1,  2,  3,  5,   8,   12,  16,  17,   37,   42,   60,
                                         64, 66, 74, 97, 128, 243, 250, 1000, 1024, 1031, 4096};
const std::vector<std::size_t> kRealSizes{1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 30, 64, 99, 100, 1024, 1025, 4097};

std::string case_name(const ::testing::TestParamInfo<Layout>& info) { return layout_name(info.param); }

class LayoutTest : public ::testing::TestWithParam<Layout> {
 protected:
  template <class T>
  void run(Kind kind, const std::vector<std::size_t>& sizes) {
    const std::vector<std::size_t> bs = batches();
    int variant = 0;
    for (std::size_t n : sizes) {
      for (std::size_t batch : bs) {
        // Large N with every batch would be slow; large N gets the small batches.
        if (n >= 1000 && batch > 8) continue;
        PlanDesc d = kind == Kind::c2c
                         ? c2c_desc(n, precision_of<T>(), variant % 2 ? Direction::backward : Direction::forward,
                                    static_cast<Norm>(variant % 3), batch)
                         : real_desc(kind, n, precision_of<T>(), static_cast<Norm>(variant % 3), batch);
        ++variant;
        apply_shape(d, GetParam());
        check_layout_any<T>(d, seed_for(n * 1000 + batch, 40 + static_cast<int>(GetParam())));
        if (HasFailure() && failure_count() > 40) {
          ADD_FAILURE() << "stopping after 40 failures";
          return;
        }
      }
    }
  }
};

TEST_P(LayoutTest, C2cFloat) { run<float>(Kind::c2c, kC2cSizes); }
TEST_P(LayoutTest, C2cDouble) { run<double>(Kind::c2c, kC2cSizes); }
TEST_P(LayoutTest, R2cFloat) { run<float>(Kind::r2c, kRealSizes); }
TEST_P(LayoutTest, R2cDouble) { run<double>(Kind::r2c, kRealSizes); }
TEST_P(LayoutTest, C2rFloat) { run<float>(Kind::c2r, kRealSizes); }
TEST_P(LayoutTest, C2rDouble) { run<double>(Kind::c2r, kRealSizes); }

INSTANTIATE_TEST_SUITE_P(Layouts, LayoutTest,
                         ::testing::Values(Layout::packed, Layout::packed_explicit, Layout::strided, Layout::padded_dist,
                                           Layout::strided_padded, Layout::innermost, Layout::innermost_in,
                                           Layout::innermost_out),
                         case_name);

// In place: the same pointer for input and output, with identical layouts on both sides
// (c2c) or FFTW's padded real layout (r2c/c2r: the real side has dist 2*(N/2+1) reals).
template <class T>
void check_in_place_c2c() {
  for (std::size_t n : {1u, 2u, 7u, 16u, 100u, 128u, 1024u, 1031u, 4096u, 65536u}) {
    for (std::size_t batch : {1u, 3u, 8u}) {
      if (n > 4096 && batch > 3) continue;
      for (int layout = 0; layout < 3; ++layout) {
        PlanDesc d = c2c_desc(n, precision_of<T>(), layout == 1 ? Direction::backward : Direction::forward,
                              Norm::ortho, batch);
        if (layout == 1) {
          d.in_stride = d.out_stride = 2;
          d.in_dist = d.out_dist = static_cast<std::ptrdiff_t>(2 * n + 1);
        } else if (layout == 2) {
          d.in_stride = d.out_stride = static_cast<std::ptrdiff_t>(batch);
          d.in_dist = d.out_dist = 1;
        }
        check_layout<T, Kind::c2c>(d, seed_for(n * 10 + batch, 50 + layout), true);
      }
    }
  }
}

template <class T>
void check_in_place_real() {
  for (std::size_t n : {1u, 2u, 5u, 8u, 63u, 64u, 1000u, 1001u, 4096u}) {
    for (std::size_t batch : {1u, 3u, 8u}) {
      const auto half = static_cast<std::ptrdiff_t>(n / 2 + 1);
      PlanDesc r2c = real_desc(Kind::r2c, n, precision_of<T>(), Norm::backward, batch);
      r2c.in_dist = 2 * half;
      r2c.out_dist = half;
      check_layout<T, Kind::r2c>(r2c, seed_for(n * 10 + batch, 55), true);
      PlanDesc c2r = real_desc(Kind::c2r, n, precision_of<T>(), Norm::backward, batch);
      c2r.in_dist = half;
      c2r.out_dist = 2 * half;
      check_layout<T, Kind::c2r>(c2r, seed_for(n * 10 + batch, 56), true);
    }
  }
}

TEST(InPlace, C2cFloat) { check_in_place_c2c<float>(); }
TEST(InPlace, C2cDouble) { check_in_place_c2c<double>(); }
TEST(InPlace, RealFloat) { check_in_place_real<float>(); }
TEST(InPlace, RealDouble) { check_in_place_real<double>(); }

// A large batch of mid-size transforms with a padded layout (exercises the batch loop with
// many SIMD groups and a remainder).
TEST(LargeBatch, StridedPaddedC2cAndR2c) {
  PlanDesc d = c2c_desc(256, Precision::f32, Direction::forward, Norm::backward, 259);
  d.in_stride = 2;
  d.out_dist = 260;
  check_layout<float, Kind::c2c>(d, 60);
  PlanDesc r = real_desc(Kind::r2c, 250, Precision::f64, Norm::ortho, 131);
  r.in_stride = 131;
  r.in_dist = 1;
  check_layout<double, Kind::r2c>(r, 61);
}

// Batches of 2-8 KiB entries whose results pass 8 MiB compute each entry into a buffer and
// stream it out (C2cWide::kStageOutFromBytes): contiguous and padded entries, destinations
// only 8-byte aligned (float), in place, on one thread and two.
TEST(LargeBatch, StagedAndStreamedEntries) {
  for (unsigned threads : {1u, 2u}) {
    PlanDesc d = c2c_desc(128, Precision::f64, Direction::forward, Norm::backward, 8193);
    d.threads = threads;
    check_layout<double, Kind::c2c>(d, 70 + threads);
    d.out_dist = 131;
    d.in_stride = 2;
    d.in_dist = 257;
    check_layout<double, Kind::c2c>(d, 72 + threads);
    PlanDesc f = c2c_desc(512, Precision::f32, Direction::backward, Norm::ortho, 2049);
    f.threads = threads;
    f.out_dist = 513;
    check_layout<float, Kind::c2c>(f, 74 + threads);
    PlanDesc in_place = c2c_desc(256, Precision::f64, Direction::backward, Norm::forward, 4099);
    in_place.threads = threads;
    check_layout<double, Kind::c2c>(in_place, 76 + threads, true);
  }
}

// Transforms of 12 MiB and more go to the four-step on one thread too, with its stages, blocked
// twiddles and non-temporal stores (from 8 MiB): strided, batched with padded dists, in place,
// on one thread and two.
template <class T>
void check_long_four_step() {
  const std::size_t n = (std::size_t(16) << 20) / sizeof(std::complex<T>);
  for (unsigned threads : {1u, 2u}) {
    PlanDesc strided = c2c_desc(n, precision_of<T>(), Direction::forward, Norm::backward);
    strided.threads = threads;
    strided.in_stride = 2;
    strided.out_stride = 3;
    const CheckResult r = check_layout<T, Kind::c2c>(strided, seed_for(n + threads, 62));
    EXPECT_NE(Plan(strided).describe().find("four-step"), std::string::npos) << Plan(strided).describe();
    std::printf("[   info   ] %s: worst error %.3g\n", describe(strided).c_str(), r.worst_error);
    PlanDesc batched = c2c_desc(n, precision_of<T>(), Direction::backward, Norm::ortho, 2);
    batched.threads = threads;
    batched.in_dist = static_cast<std::ptrdiff_t>(n + 5);
    batched.out_dist = static_cast<std::ptrdiff_t>(n + 3);
    check_layout<T, Kind::c2c>(batched, seed_for(n + threads, 63));
    PlanDesc in_place = c2c_desc(n, precision_of<T>(), Direction::forward, Norm::forward);
    in_place.threads = threads;
    check_layout<T, Kind::c2c>(in_place, seed_for(n + threads, 64), true);
  }
}

TEST(LongFourStep, LayoutsFloat) {
  if (quick_mode()) GTEST_SKIP() << "16 MiB transforms skipped in quick mode (ASan / RIPPLE_TEST_QUICK)";
  check_long_four_step<float>();
}
TEST(LongFourStep, LayoutsDouble) {
  if (quick_mode()) GTEST_SKIP() << "16 MiB transforms skipped in quick mode (ASan / RIPPLE_TEST_QUICK)";
  check_long_four_step<double>();
}

// Convolutions too long for the cache run as three fused sweeps (FourStepConvolution); on two
// threads from 1 MiB on, so these sizes reach it quickly: Bluestein and Rader, strided,
// batched with padded dists and in place.
template <class T>
void check_long_convolution(std::size_t n, const char* method) {
  PlanDesc strided = c2c_desc(n, precision_of<T>(), Direction::forward, Norm::backward);
  strided.threads = 2;
  strided.in_stride = 2;
  strided.out_stride = 3;
  const std::string plan = Plan(strided).describe();
  EXPECT_NE(plan.find(method), std::string::npos) << plan;
  EXPECT_NE(plan.find("four-step-convolution"), std::string::npos) << plan;
  check_layout<T, Kind::c2c>(strided, seed_for(n, 65));
  PlanDesc batched = c2c_desc(n, precision_of<T>(), Direction::backward, Norm::ortho, 2);
  batched.threads = 2;
  batched.in_dist = static_cast<std::ptrdiff_t>(n + 5);
  batched.out_dist = static_cast<std::ptrdiff_t>(n + 3);
  check_layout<T, Kind::c2c>(batched, seed_for(n, 66));
  PlanDesc in_place = c2c_desc(n, precision_of<T>(), Direction::forward, Norm::forward);
  in_place.threads = 2;
  check_layout<T, Kind::c2c>(in_place, seed_for(n, 67), true);
}

TEST(LongConvolution, BluesteinLayouts) {
  check_long_convolution<double>(40009, "bluestein");  // m = 81920
  check_long_convolution<float>(80021, "bluestein");   // m = 163840
}
TEST(LongConvolution, RaderLayouts) {
  check_long_convolution<double>(114689, "rader");  // 7 * 2^14 + 1
  check_long_convolution<float>(147457, "rader");   // 9 * 2^14 + 1
}

// desc() gives back what the plan was made with; describe() says something.
TEST(PlanAccessors, DescRoundTripsAndDescribeIsNotEmpty) {
  PlanDesc d = real_desc(Kind::r2c, 100, Precision::f64, Norm::ortho, 3);
  d.in_stride = 2;
  d.out_dist = 60;
  const Plan p(d);
  EXPECT_EQ(p.desc().shape, d.shape);
  EXPECT_EQ(p.desc().batch, 3u);
  EXPECT_EQ(p.desc().kind, Kind::r2c);
  EXPECT_EQ(p.desc().precision, Precision::f64);
  EXPECT_EQ(p.desc().norm, Norm::ortho);
  EXPECT_EQ(p.desc().in_stride, 2);
  EXPECT_EQ(p.desc().out_dist, 60);
  EXPECT_FALSE(p.describe().empty());
  // input: (3-1)*200 + 99*2 + 1; output: (3-1)*60 + 50 + 1.
  EXPECT_EQ(p.input_span(), 599u);
  EXPECT_EQ(p.output_span(), 171u);
  // A copy is the same plan and works on its own.
  const Plan copy = p;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(copy.describe(), p.describe());
  check_layout<double, Kind::r2c>(copy.desc(), 62);
}

}  // namespace
}  // namespace ripple::fft::test
