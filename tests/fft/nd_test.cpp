// Rank 2 and 3 plans against the separable long-double reference (fft_test_util.hpp's
// reference_nd, numpy's fftn/ifftn/rfftn/irfftn semantics): shapes with odd, prime and unit
// axes, c2c both ways, r2c and c2r, float and double, every norm, batched and strided layouts,
// in place, threads, and one plan executed from several threads at once. Outputs are poisoned
// with NaN and every element outside the layout must keep its sentinel (check_layout).
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "fft/fft_test_util.hpp"

namespace ripple::fft::test {
namespace {

using Shape = std::vector<std::size_t>;

// Unit axes, odd and prime axes, powers of two, a large prime on the last axis (rows through
// Rader/Bluestein) and on an outer axis (lines through the convolution path).
const std::vector<Shape> kShapes{{1, 7},    {1, 64},      {9, 1},      {64, 1},     {2, 3},        {6, 10},
                                 {7, 9},    {17, 31},     {64, 64},    {5, 1009},   {1031, 3},     {2, 2, 2},
                                 {3, 5, 7}, {13, 1, 11},  {16, 8, 4},  {1, 1, 5},   {128, 96, 2},  {4, 6, 67}};

PlanDesc nd_desc(Kind kind, const Shape& shape, Precision p, Direction dir, Norm norm, std::size_t batch = 1) {
  PlanDesc d;
  d.shape = shape;
  d.kind = kind;
  d.precision = p;
  d.direction = kind == Kind::c2c ? dir : kind == Kind::r2c ? Direction::forward : Direction::backward;
  d.norm = norm;
  d.batch = batch;
  return d;
}

// The separable reference itself against the definition, a direct sum over both indices:
// X[k0][k1] = sum x[n0][n1] e^{-2 pi i (k0 n0 / N0 + k1 n1 / N1)}.
TEST(NdReference, MatchesDirectSum) {
  const std::size_t n0 = 3, n1 = 4;
  const std::vector<cld> x = to_ld(random_complex<double>(n0 * n1, 7));
  const std::vector<cld> y = reference_nd(nd_desc(Kind::c2c, {n0, n1}, Precision::f64, Direction::forward,
                                                  Norm::backward), x);
  const long double two_pi = 6.283185307179586476925286766559005768L;
  std::vector<cld> direct(n0 * n1);
  for (std::size_t k0 = 0; k0 < n0; ++k0)
    for (std::size_t k1 = 0; k1 < n1; ++k1)
      for (std::size_t i0 = 0; i0 < n0; ++i0)
        for (std::size_t i1 = 0; i1 < n1; ++i1) {
          const long double phase = -two_pi * (static_cast<long double>(k0 * i0) / n0 +
                                                static_cast<long double>(k1 * i1) / n1);
          direct[k0 * n1 + k1] += x[i0 * n1 + i1] * cld(std::cos(phase), std::sin(phase));
        }
  EXPECT_LE(rel_l2(y, direct), 1e-17);
}

template <class T>
void check_shapes(Kind kind) {
  int variant = 0;
  for (const Shape& shape : kShapes) {
    for (Direction dir : {Direction::forward, Direction::backward}) {
      if (kind != Kind::c2c && dir == Direction::backward) continue;
      const PlanDesc d =
          nd_desc(kind, shape, precision_of<T>(), dir, static_cast<Norm>(variant % 3));
      check_layout_any<T>(d, seed_for(product(shape), 70 + variant));
      ++variant;
    }
  }
}

TEST(NdShapes, C2cFloat) { check_shapes<float>(Kind::c2c); }
TEST(NdShapes, C2cDouble) { check_shapes<double>(Kind::c2c); }
TEST(NdShapes, R2cFloat) { check_shapes<float>(Kind::r2c); }
TEST(NdShapes, R2cDouble) { check_shapes<double>(Kind::r2c); }
TEST(NdShapes, C2rFloat) { check_shapes<float>(Kind::c2r); }
TEST(NdShapes, C2rDouble) { check_shapes<double>(Kind::c2r); }

// Batched and strided layouts: strides on both sides, padded dists, and innermost batching
// (stride = batch, dist = 1), for every kind.
template <class T>
void check_layouts(Kind kind) {
  const std::vector<Shape> shapes{{3, 5}, {8, 6}, {2, 3, 4}, {5, 1, 9}, {4, 16}};
  int variant = 0;
  for (const Shape& shape : shapes) {
    for (std::size_t batch : {1u, 3u, 5u}) {
      for (int layout = 0; layout < 4; ++layout) {
        PlanDesc d = nd_desc(kind, shape, precision_of<T>(), variant % 2 ? Direction::backward : Direction::forward,
                             static_cast<Norm>(variant % 3), batch);
        const Shape in_shape = side_shape(d, kind == Kind::c2r), out_shape = side_shape(d, kind == Kind::r2c);
        const auto in_count = static_cast<std::ptrdiff_t>(product(in_shape));
        const auto out_count = static_cast<std::ptrdiff_t>(product(out_shape));
        switch (layout) {
          case 0: d.in_stride = 2; d.out_stride = 3; break;
          case 1: d.in_dist = in_count + 5; d.out_dist = out_count + 3; break;
          case 2:
            d.in_stride = 3;
            d.in_dist = 3 * in_count + 2;
            d.out_stride = 2;
            d.out_dist = 2 * out_count + 7;
            break;
          case 3: d.in_stride = d.out_stride = static_cast<std::ptrdiff_t>(batch); d.in_dist = d.out_dist = 1; break;
        }
        check_layout_any<T>(d, seed_for(product(shape) * 100 + batch, 80 + layout));
        ++variant;
      }
    }
  }
}

TEST(NdLayouts, C2cFloat) { check_layouts<float>(Kind::c2c); }
TEST(NdLayouts, C2cDouble) { check_layouts<double>(Kind::c2c); }
TEST(NdLayouts, R2cFloat) { check_layouts<float>(Kind::r2c); }
TEST(NdLayouts, R2cDouble) { check_layouts<double>(Kind::r2c); }
TEST(NdLayouts, C2rFloat) { check_layouts<float>(Kind::c2r); }
TEST(NdLayouts, C2rDouble) { check_layouts<double>(Kind::c2r); }

// In place: the same buffer for input and output (c2c with equal layouts, strided too; r2c and
// c2r with their packed layouts overlapping).
template <class T>
void check_in_place() {
  for (const Shape& shape : {Shape{8, 8}, Shape{5, 7}, Shape{3, 4, 6}, Shape{17, 1, 3}}) {
    for (std::size_t batch : {1u, 3u}) {
      PlanDesc c = nd_desc(Kind::c2c, shape, precision_of<T>(), Direction::backward, Norm::ortho, batch);
      check_layout<T, Kind::c2c>(c, seed_for(product(shape) + batch, 90), true);
      c.in_stride = c.out_stride = 2;
      check_layout<T, Kind::c2c>(c, seed_for(product(shape) + batch, 91), true);
      check_layout<T, Kind::r2c>(nd_desc(Kind::r2c, shape, precision_of<T>(), Direction::forward, Norm::forward, batch),
                                 seed_for(product(shape) + batch, 92), true);
      check_layout<T, Kind::c2r>(nd_desc(Kind::c2r, shape, precision_of<T>(), Direction::backward, Norm::backward, batch),
                                 seed_for(product(shape) + batch, 93), true);
    }
  }
}

TEST(NdInPlace, Float) { check_in_place<float>(); }
TEST(NdInPlace, Double) { check_in_place<double>(); }

// Embedded layouts (in_embed / out_embed: FFTW's inembed/onembed): rows and planes within
// larger arrays on either side, batched and strided; the gaps keep their sentinels. In place,
// the reals' rows padded to 2 (n/2+1) values, as FFTW's and cuFFT's in-place real transforms of
// rank 2 and 3 lay them out.
template <class T>
void check_embedded() {
  struct Case {
    Kind kind;
    Shape shape, in_embed, out_embed;
    std::size_t batch;
    std::ptrdiff_t stride;
  };
  const std::vector<Case> cases{
      {Kind::c2c, {6, 10}, {6, 13}, {8, 12}, 2, 1},
      {Kind::c2c, {3, 5, 7}, {3, 6, 9}, {}, 3, 2},
      {Kind::c2c, {4, 1, 6}, {4, 2, 6}, {5, 1, 8}, 1, 1},
      {Kind::r2c, {4, 10}, {4, 12}, {}, 2, 1},
      {Kind::r2c, {3, 4, 6}, {3, 5, 8}, {3, 4, 5}, 2, 1},
      {Kind::c2r, {4, 10}, {}, {4, 12}, 3, 1},
      {Kind::c2r, {5, 3, 7}, {6, 3, 4}, {5, 4, 7}, 2, 3},
  };
  int variant = 0;
  for (const Case& c : cases) {
    PlanDesc d = nd_desc(c.kind, c.shape, precision_of<T>(), variant % 2 ? Direction::backward : Direction::forward,
                         static_cast<Norm>(variant % 3), c.batch);
    d.in_embed = c.in_embed;
    d.out_embed = c.out_embed;
    d.in_stride = d.out_stride = c.stride;
    check_layout_any<T>(d, seed_for(product(c.shape) + c.batch, 95 + variant));
    ++variant;
  }
  // In place, c2c: one embedding on both sides (run in place), or two (from a copy; here each
  // output row would overwrite the next input row: more rows than a SIMD group reads at once).
  for (const auto& [in_embed, out_embed] : {std::pair<Shape, Shape>{{41, 12}, {41, 12}}, {{42, 10}, {40, 11}}}) {
    PlanDesc d = nd_desc(Kind::c2c, {40, 10}, precision_of<T>(), Direction::forward, Norm::ortho, 2);
    d.in_embed = in_embed;
    d.out_embed = out_embed;
    d.in_dist = d.out_dist = 500;  // the same distance: only the pitches differ
    check_layout<T, Kind::c2c>(d, seed_for(60 + in_embed[0], 98), true);
    PlanDesc d3 = nd_desc(Kind::c2c, {3, 4, 5}, precision_of<T>(), Direction::backward, Norm::backward, 2);
    d3.in_embed = {4, in_embed[0], in_embed[1]};
    d3.out_embed = {3, out_embed[0], out_embed[1]};
    d3.in_dist = d3.out_dist = 1800;
    check_layout<T, Kind::c2c>(d3, seed_for(60 + in_embed[1], 99), true);
  }
  // In place: padded real rows, the complex side packed.
  for (const Shape& shape : {Shape{4, 10}, Shape{5, 7}, Shape{3, 4, 6}, Shape{2, 3, 5}}) {
    Shape padded = shape;
    padded.back() = 2 * (shape.back() / 2 + 1);
    for (std::size_t batch : {1u, 2u}) {
      PlanDesc r = nd_desc(Kind::r2c, shape, precision_of<T>(), Direction::forward, Norm::backward, batch);
      r.in_embed = padded;
      check_layout<T, Kind::r2c>(r, seed_for(product(shape) + batch, 96), true);
      PlanDesc c = nd_desc(Kind::c2r, shape, precision_of<T>(), Direction::backward, Norm::ortho, batch);
      c.out_embed = padded;
      check_layout<T, Kind::c2r>(c, seed_for(product(shape) + batch, 97), true);
    }
  }
}

TEST(NdEmbedded, Float) { check_embedded<float>(); }
TEST(NdEmbedded, Double) { check_embedded<double>(); }

// Large enough that the plan uses its threads (blocks of lines and rows shared out).
TEST(NdThreads, TwoThreadsEveryKind) {
  for (const Shape& shape : {Shape{256, 136}, Shape{40, 30, 32}, Shape{33, 1030}}) {
    for (Kind kind : {Kind::c2c, Kind::r2c, Kind::c2r}) {
      PlanDesc d = nd_desc(kind, shape, Precision::f32, Direction::forward, Norm::backward, 2);
      d.threads = 2;
      check_layout_any<float>(d, seed_for(product(shape), 100 + static_cast<int>(kind)));
    }
  }
  // Embedded: planes apart from their rows' spacing, fewer than the threads (each plane's rows
  // threaded) and more (threads over planes); the reals' side embedded for r2c and c2r.
  for (const auto& [shape, embed] : {std::pair<Shape, Shape>{{1, 300, 130}, {1, 310, 140}},
                                     {{8, 40, 128}, {8, 48, 130}}}) {
    for (Kind kind : {Kind::c2c, Kind::r2c, Kind::c2r}) {
      PlanDesc d = nd_desc(kind, shape, Precision::f32, Direction::forward, Norm::backward, 1);
      d.threads = 2;
      (kind == Kind::c2r ? d.out_embed : d.in_embed) = embed;
      check_layout_any<float>(d, seed_for(product(shape), 103 + static_cast<int>(kind)));
    }
  }
}

// r2c then c2r (backward norm) gives the signal back, for even and odd last axes.
TEST(NdRoundTrip, RealForwardThenBackward) {
  for (const Shape& shape : {Shape{12, 10}, Shape{7, 9}, Shape{4, 5, 6}, Shape{3, 3, 3}}) {
    const PlanDesc fwd = nd_desc(Kind::r2c, shape, Precision::f64, Direction::forward, Norm::backward);
    const PlanDesc bwd = nd_desc(Kind::c2r, shape, Precision::f64, Direction::backward, Norm::backward);
    const Plan p(fwd), q(bwd);
    const std::vector<double> x = random_real<double>(product(shape), seed_for(product(shape), 110));
    const auto spectrum = execute_checked<double, std::complex<double>>(p, x, describe(fwd));
    const auto back = execute_checked<std::complex<double>, double>(q, spectrum, describe(bwd));
    std::vector<long double> ref(x.begin(), x.end());
    EXPECT_LE(rel_l2(back, ref), tolerance<double>()) << describe(fwd);
  }
}

// One plan executed from several threads at once on different buffers gives each its own
// correct result.
TEST(NdConcurrency, OnePlanManyThreads) {
  const PlanDesc d = nd_desc(Kind::c2c, {24, 20}, Precision::f64, Direction::forward, Norm::backward);
  const Plan plan(d);
  constexpr int kThreads = 4;
  std::vector<std::vector<std::complex<double>>> in(kThreads), out(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    in[t] = random_complex<double>(480, seed_for(480, 120 + t));
    out[t].assign(480, {nan_value<double>(), nan_value<double>()});
  }
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([&, t] {
      for (int rep = 0; rep < 20; ++rep) plan.execute(in[t].data(), out[t].data());
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_LE(rel_l2(out[t].data(), reference_nd(d, to_ld(in[t]))), tolerance<double>()) << "thread " << t;
}

TEST(NdDescribe, NamesEveryAxis) {
  const Plan p(nd_desc(Kind::r2c, {5, 6, 1009}, Precision::f32, Direction::forward, Norm::backward));
  const std::string s = p.describe();
  EXPECT_NE(s.find("5x6x1009"), std::string::npos) << s;
  EXPECT_NE(s.find("axis0"), std::string::npos) << s;
  EXPECT_NE(s.find("axis2"), std::string::npos) << s;
}

}  // namespace
}  // namespace ripple::fft::test
