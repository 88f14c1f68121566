// Checks that bad plan descriptions (ranks 0 and above 3 included) and bad execute() calls throw
// ripple::InvalidArgument with a message naming the offending parameter, and that
// set_threads rejects absurd counts.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "fft/fft_test_util.hpp"
#include "ripple/runtime.hpp"

namespace ripple::fft::test {
namespace {

PlanDesc good() { return c2c_desc(64, Precision::f32, Direction::forward); }

// Validation must be immediate; the watchdog turns a hang (e.g. planning an absurd size)
// into a failure of this test instead of a stuck suite.
template <class E = ripple::InvalidArgument>
void expect_bad_desc(const PlanDesc& d, std::initializer_list<std::string_view> words) {
  const std::string what = "Plan(" + describe(d) + ")";
  const Watchdog watchdog(30, what);
  expect_throw_naming<E>([&] { Plan p(d); }, words, what);
}

TEST(BadDesc, ZeroSize) {
  PlanDesc d = good();
  d.shape = {0};
  expect_bad_desc(d, {"shape"});
  d = real_desc(Kind::r2c, 0, Precision::f64);
  expect_bad_desc(d, {"shape"});
}

TEST(BadDesc, ZeroBatch) {
  PlanDesc d = good();
  d.batch = 0;
  expect_bad_desc(d, {"batch"});
}

TEST(BadDesc, RankZeroIsRejected) {
  PlanDesc d = good();
  d.shape = {};
  expect_bad_desc(d, {"shape", "rank"});
}

TEST(BadDesc, RankAboveThreeIsRejected) {
  PlanDesc d = good();
  d.shape = {2, 2, 2, 2};
  expect_bad_desc(d, {"rank 4"});
}

// Ranks 2 and 3: a zero extent on any axis, element counts whose product overflows, and output
// layouts that alias, each named.
TEST(BadDesc, MultiDimensional) {
  PlanDesc d = good();
  d.shape = {4, 0};
  expect_bad_desc(d, {"shape[1]"});
  d.shape = {3, 5, 0};
  expect_bad_desc(d, {"shape[2]"});
  d.shape = {std::size_t{1} << 31, std::size_t{1} << 31, 8};
  expect_bad_desc(d, {"shape[2]", "overflow"});
  d.shape = {std::size_t{1} << 40, 16};
  d.batch = std::size_t{1} << 20;
  expect_bad_desc(d, {"batch", "overflow"});
  d = good();
  d.shape = {4, 6};
  d.batch = 3;
  d.out_dist = 10;  // 24 outputs per transform, so transforms overlap
  expect_bad_desc(d, {"out_stride", "out_dist"});
  d.out_dist = 0;
  d.out_stride = 0;
  expect_bad_desc(d, {"out_stride"});
  d = real_desc(Kind::r2c, 8, Precision::f32);
  d.shape = {3, 8};
  d.batch = 2;
  d.out_dist = 14;  // 3 x 5 complex outputs per transform
  expect_bad_desc(d, {"out_dist"});
}

// Element counts or byte sizes that do not fit in size_t must be caught before any allocation.
TEST(BadDesc, OverflowingSizes) {
  PlanDesc d = good();
  d.shape = {std::size_t{1} << 62};
  d.batch = 8;
  expect_bad_desc(d, {"shape", "batch", "overflow"});
  d.batch = 1;  // 2^62 complex floats = 2^65 bytes
  expect_bad_desc(d, {"shape", "overflow"});
  d.shape = {std::numeric_limits<std::size_t>::max()};
  expect_bad_desc(d, {"shape", "overflow"});
  d = good();
  d.batch = std::numeric_limits<std::size_t>::max() / 8;
  expect_bad_desc(d, {"batch", "overflow"});
  d = good();
  d.in_stride = std::numeric_limits<std::ptrdiff_t>::max() / 4;
  expect_bad_desc(d, {"stride", "overflow"});
  d = good();
  d.batch = 4;
  d.out_dist = std::numeric_limits<std::ptrdiff_t>::max() / 2;
  expect_bad_desc(d, {"dist", "overflow"});
}

TEST(BadDesc, StridesBelowOne) {
  for (std::ptrdiff_t s : {std::ptrdiff_t{0}, std::ptrdiff_t{-1}}) {
    PlanDesc d = good();
    d.in_stride = s;
    expect_bad_desc(d, {"stride"});
    d = good();
    d.out_stride = s;
    expect_bad_desc(d, {"stride"});
  }
}

TEST(BadDesc, NegativeDist) {
  PlanDesc d = good();
  d.batch = 2;
  d.in_dist = -64;
  expect_bad_desc(d, {"dist"});
  d = good();
  d.batch = 2;
  d.out_dist = -64;
  expect_bad_desc(d, {"dist"});
}

// Output layouts that map two output elements to one address.
TEST(BadDesc, AliasingOutputLayout) {
  PlanDesc d = good();  // N = 64
  d.batch = 2;
  d.out_dist = 32;  // transform 1 starts inside transform 0
  expect_bad_desc(d, {"dist"});
  d = good();
  d.batch = 3;
  d.out_stride = 2;
  d.out_dist = 1;  // b + 2n: (b=2, n=0) and (b=0, n=1) collide
  expect_bad_desc(d, {"dist", "stride"});
  d = good();
  d.batch = 4;
  d.out_stride = 4;
  d.out_dist = 2;  // 2b + 4n: (b=2, n=0) and (b=0, n=1) collide
  expect_bad_desc(d, {"dist", "stride"});
  d = real_desc(Kind::r2c, 64, Precision::f64, Norm::backward, 2);
  d.out_dist = 32;  // 33 complex outputs per transform
  expect_bad_desc(d, {"dist"});
  d = real_desc(Kind::c2r, 64, Precision::f64, Norm::backward, 2);
  d.out_dist = 63;
  expect_bad_desc(d, {"dist"});
}

// The same layouts are fine on the input side (reading one element twice is harmless), and
// legal output layouts close to the limit are accepted.
TEST(BadDesc, NonAliasingLayoutsAreAccepted) {
  PlanDesc d = good();
  d.batch = 2;
  d.out_dist = 64;
  EXPECT_NO_THROW(Plan p(d));
  d.batch = 3;
  d.out_stride = 3;
  d.out_dist = 1;  // interleaved, no collision
  EXPECT_NO_THROW(Plan p(d));
  d = good();
  d.batch = 1;
  d.out_dist = 1;  // dist does not matter for a single transform
  EXPECT_NO_THROW(Plan p(d));
  d = good();
  d.batch = 2;
  d.in_dist = 1;  // overlapping inputs are only read
  EXPECT_NO_THROW(Plan p(d));
  d = good();
  d.shape = {4, 4};
  d.batch = 2;
  d.out_embed = {4, 8};
  d.out_dist = 4;  // the two halves of each row of 8: in the embedding's gaps
  EXPECT_NO_THROW(Plan p(d));
  d.out_dist = 3;  // one row's first element under the other's fourth
  expect_bad_desc(d, {"out_dist = 3", "out_embed = {4, 8}",
                      "overlap: transform 1, element (0, 0) and transform 0, element (0, 3) are both at element 3"});
  // One axis and a batch, decided exactly: {0, 2, 4, 6} and {5, 7, 9, 11} meet nowhere, nor do
  // {0, 4, 8, 12} and {5, 9, 13, 17}; {0, 2, 4, 6} and {4, 6, 8, 10} do.
  d = good();
  d.shape = {4};
  d.batch = 2;
  d.out_stride = 2;
  d.out_dist = 5;
  EXPECT_NO_THROW(Plan p(d));
  d.out_stride = 4;
  EXPECT_NO_THROW(Plan p(d));
  d.out_stride = 2;
  d.out_dist = 4;
  expect_bad_desc(d, {"out_stride = 2", "out_dist = 4",
                      "overlap: transform 1, element (0) and transform 0, element (2) are both at element 4"});
}

// Embeddings: one size per axis, none below the side's size on its axis (the complex side's
// last axis n/2+1), and the output's gaps do not make transforms overlap.
TEST(BadDesc, Embeddings) {
  PlanDesc d = good();
  d.shape = {4, 8};
  d.in_embed = {4, 8, 1};
  expect_bad_desc(d, {"in_embed", "3 sizes", "rank 2"});
  d.in_embed = {4, 7};
  expect_bad_desc(d, {"in_embed[1] = 7", "8"});
  d.in_embed = {};
  d.out_embed = {3, 8};
  expect_bad_desc(d, {"out_embed[0] = 3", "4"});
  d = real_desc(Kind::r2c, 8, Precision::f32, Norm::backward, 2);
  d.shape = {4, 8};
  d.out_embed = {4, 4};  // the spectrum's rows hold 5 values
  expect_bad_desc(d, {"out_embed[1] = 4", "5"});
  d.out_embed = {4, 6};
  d.out_dist = 20;  // a transform spans 3 * 6 + 5 = 23 positions
  expect_bad_desc(d, {"dist"});
  d.out_dist = 23;
  EXPECT_NO_THROW(Plan p(d));
  d.out_dist = 0;  // packed: 4 * 6
  EXPECT_EQ(Plan(d).output_span(), 24u + 23u);
  // Sizes that overflow name the embedding; axis 0's counts only for a packed distance.
  d = good();
  d.shape = {2, 2};
  d.in_embed = {2, std::size_t{1} << 62};
  expect_bad_desc(d, {"in_embed = {2, 4611686018427387904}"});
  d.in_embed = {std::size_t{1} << 62, 2};
  EXPECT_NO_THROW(Plan p(d)) << "one transform: axis 0's embedding is not used";
  d.batch = 2;
  expect_bad_desc(d, {"in_embed = {4611686018427387904, 2}"});
}

TEST(BadDesc, RealKindsWithContradictingDirection) {
  PlanDesc d = real_desc(Kind::r2c, 64, Precision::f32);
  d.direction = Direction::backward;
  expect_bad_desc(d, {"direction"});
  d = real_desc(Kind::c2r, 64, Precision::f32);
  d.direction = Direction::forward;
  expect_bad_desc(d, {"direction"});
}

// ---------------------------------------------------------------------------------------------
// execute()

TEST(BadExecute, NullPointers) {
  const Plan p(good());
  std::vector<std::complex<float>> buf(64);
  expect_throw_naming<ripple::InvalidArgument>([&] { p.execute(static_cast<const std::complex<float>*>(nullptr), buf.data()); }, {"null", "in"}, "null in");
  expect_throw_naming<ripple::InvalidArgument>([&] { p.execute(buf.data(), static_cast<std::complex<float>*>(nullptr)); }, {"null", "out"}, "null out");
  const Plan r(real_desc(Kind::r2c, 64, Precision::f64));
  std::vector<double> rin(64);
  std::vector<std::complex<double>> rout(33);
  expect_throw_naming<ripple::InvalidArgument>([&] { r.execute(static_cast<const double*>(nullptr), rout.data()); },
                                               {"null", "in"}, "r2c null in");
  expect_throw_naming<ripple::InvalidArgument>(
      [&] { r.execute(rin.data(), static_cast<std::complex<double>*>(nullptr)); }, {"null", "out"}, "r2c null out");
}

TEST(BadExecute, WrongPrecisionOverload) {
  const Plan pf(good());
  std::vector<std::complex<double>> d(64);
  expect_throw_naming<ripple::InvalidArgument>([&] { pf.execute(d.data(), d.data()); }, {"precision"},
                                               "double execute on a float plan");
  const Plan pd(c2c_desc(64, Precision::f64, Direction::forward));
  std::vector<std::complex<float>> f(64);
  expect_throw_naming<ripple::InvalidArgument>([&] { pd.execute(f.data(), f.data()); }, {"precision"},
                                               "float execute on a double plan");
}

TEST(BadExecute, WrongKindOverload) {
  const Plan c2c(good());
  std::vector<float> real(128);
  std::vector<std::complex<float>> cplx(128);
  expect_throw_naming<ripple::InvalidArgument>([&] { c2c.execute(real.data(), cplx.data()); }, {"kind", "r2c"},
                                               "r2c overload on a c2c plan");
  expect_throw_naming<ripple::InvalidArgument>([&] { c2c.execute(cplx.data(), real.data()); }, {"kind", "c2r"},
                                               "c2r overload on a c2c plan");
  const Plan r2c(real_desc(Kind::r2c, 64, Precision::f32));
  expect_throw_naming<ripple::InvalidArgument>([&] { r2c.execute(cplx.data(), cplx.data() + 64); }, {"kind", "c2c"},
                                               "c2c overload on an r2c plan");
  expect_throw_naming<ripple::InvalidArgument>([&] { r2c.execute(cplx.data(), real.data()); }, {"kind", "c2r"},
                                               "c2r overload on an r2c plan");
  const Plan c2r(real_desc(Kind::c2r, 64, Precision::f32));
  expect_throw_naming<ripple::InvalidArgument>([&] { c2r.execute(real.data(), cplx.data()); }, {"kind", "r2c"},
                                               "r2c overload on a c2r plan");
}

// in == out is in-place and fine; any other overlap of the two spans is rejected.
TEST(BadExecute, PartiallyOverlappingBuffers) {
  const Plan p(good());
  std::vector<std::complex<float>> buf(256);
  expect_throw_naming<ripple::InvalidArgument>([&] { p.execute(buf.data(), buf.data() + 1); }, {"overlap", "alias"},
                                               "out = in + 1");
  expect_throw_naming<ripple::InvalidArgument>([&] { p.execute(buf.data() + 63, buf.data()); }, {"overlap", "alias"},
                                               "in = out + 63");
  EXPECT_NO_THROW(p.execute(buf.data(), buf.data() + 64));  // adjacent, no overlap
  EXPECT_NO_THROW(p.execute(buf.data() + 64, buf.data()));
  EXPECT_NO_THROW(p.execute(buf.data(), buf.data()));  // in place
  // r2c: 64 floats in, 33 complex out; out starting inside the input's 256 bytes overlaps.
  const Plan r(real_desc(Kind::r2c, 64, Precision::f32));
  std::vector<std::complex<float>> rbuf(128);
  float* as_real = reinterpret_cast<float*>(rbuf.data());
  expect_throw_naming<ripple::InvalidArgument>([&] { r.execute(as_real, rbuf.data() + 16); }, {"overlap", "alias"},
                                               "r2c out inside in");
  expect_throw_naming<ripple::InvalidArgument>([&] { r.execute(as_real + 2, rbuf.data()); }, {"overlap", "alias"},
                                               "r2c in inside out");
  EXPECT_NO_THROW(r.execute(as_real, rbuf.data() + 32));
}

// A failed call must not have written anything.
TEST(BadExecute, RejectedCallLeavesOutputUntouched) {
  const Plan p(good());
  std::vector<std::complex<double>> in(64, {1.0, 2.0});
  std::vector<std::complex<double>> out(64, {7.0, 7.0});
  EXPECT_THROW(p.execute(in.data(), out.data()), ripple::InvalidArgument);
  for (const auto& v : out) ASSERT_EQ(v, std::complex<double>(7.0, 7.0));
}

TEST(SetThreads, RejectsMoreThan1024AndRestores) {
  expect_throw_naming<ripple::InvalidArgument>([] { ripple::set_threads(2000); }, {"2000", "thread", "n"},
                                               "set_threads(2000)");
  const unsigned automatic = ripple::default_threads();
  EXPECT_GE(automatic, 1u);
  EXPECT_NO_THROW(ripple::set_threads(3));
  EXPECT_EQ(ripple::default_threads(), 3u);
  EXPECT_NO_THROW(ripple::set_threads(0));
  EXPECT_EQ(ripple::default_threads(), automatic);
}

}  // namespace
}  // namespace ripple::fft::test
