// Rank 2 and 3 DevicePlans on every GPU device present (and the CPU queue) against the
// separable long-double reference (numpy's fftn/ifftn/rfftn/irfftn) and fft::Plan: c2c, r2c and
// c2r (even and odd rows; the input left as it was); unit, odd and prime axes
// (Bluestein on the rows and on outer axes, also with two levels of lines), an axis of two
// passes, batches whose lines need three levels (padded distances), strided layouts, in place
// with the same and with different layouts, both precisions, every norm. Outputs are poisoned
// with NaN, so an element the plan fails to write fails the comparison.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "fft/fft_test_util.hpp"
#include "gpu_test_util.hpp"
#include "ripple/fft/device.hpp"

namespace ripple::fft::test {
namespace {

class DeviceFftNd : public gpu::test::QueueTest {
 protected:
  bool has_fp64() const { return queue().device().kind() == DeviceKind::cpu || queue().device().info().fp64; }
};
RIPPLE_INSTANTIATE_FOR_EACH_DEVICE(DeviceFftNd);

struct NdCase {
  std::vector<std::size_t> shape;
  std::size_t batch = 1;
  std::ptrdiff_t in_stride = 1, out_stride = 1;
  std::ptrdiff_t in_pad = 0, out_pad = 0;  // added to the packed distance when batch > 1
  bool in_place = false;
};

PlanDesc desc_of(const NdCase& c, Precision p, Direction dir, Norm norm) {
  PlanDesc d;
  d.shape = c.shape;
  d.batch = c.batch;
  d.precision = p;
  d.direction = dir;
  d.norm = norm;
  d.in_stride = c.in_stride;
  d.out_stride = c.out_stride;
  const std::size_t n = product(c.shape);
  if (c.in_pad) d.in_dist = static_cast<std::ptrdiff_t>(n) * c.in_stride + c.in_pad;
  if (c.out_pad) d.out_dist = static_cast<std::ptrdiff_t>(n) * c.out_stride + c.out_pad;
  return d;
}

// The error of every transform against the reference, over fft_bound of the whole size.
template <class T>
double check_nd(const Queue& q, const NdCase& c, Direction dir, Norm norm, std::uint64_t seed) {
  using C = std::complex<T>;
  const PlanDesc d = desc_of(c, precision_of<T>(), dir, norm);
  const DevicePlan plan(q, d);
  SCOPED_TRACE(plan.describe());
  const Plan cpu(d);
  EXPECT_EQ(plan.input_span(), cpu.input_span());
  EXPECT_EQ(plan.output_span(), cpu.output_span());
  const std::size_t n = product(c.shape);
  const std::ptrdiff_t in_dist = d.in_dist ? d.in_dist : static_cast<std::ptrdiff_t>(n) * d.in_stride;
  const std::ptrdiff_t out_dist = d.out_dist ? d.out_dist : static_cast<std::ptrdiff_t>(n) * d.out_stride;
  const std::vector<C> x = random_complex<T>(n * c.batch, seed);
  const C nan(std::numeric_limits<T>::quiet_NaN(), 0);
  const std::size_t size = c.in_place ? std::max(plan.input_span(), plan.output_span()) : plan.input_span();
  std::vector<C> host(size, C(0, 0));
  for (std::size_t b = 0; b < c.batch; ++b)
    for (std::size_t i = 0; i < n; ++i) host[b * in_dist + i * d.in_stride] = x[b * n + i];
  Buffer<C> in(q, std::span<const C>(host));
  std::optional<Buffer<C>> separate;
  if (!c.in_place) {
    const std::vector<C> poison(plan.output_span(), nan);
    separate.emplace(q, std::span<const C>(poison));
  }
  Buffer<C>& out = c.in_place ? in : *separate;
  plan.execute(in, out);
  const std::vector<C> y = out.to_vector();
  std::vector<C> expected(plan.output_span(), nan);
  cpu.execute(host.data(), expected.data());
  double worst = 0;
  for (std::size_t b = 0; b < c.batch; ++b) {
    const std::vector<C> one(x.begin() + b * n, x.begin() + (b + 1) * n);
    const std::vector<cld> want = reference_nd(d, to_ld(one));
    std::vector<C> got(n), cpu_got(n);
    for (std::size_t i = 0; i < n; ++i) {
      got[i] = y[b * out_dist + i * d.out_stride];
      cpu_got[i] = expected[b * out_dist + i * d.out_stride];
    }
    const double bound = gpu::test::fft_bound<T>(n);
    const double err = rel_l2(got, want);
    EXPECT_LE(err, bound) << "transform " << b;
    EXPECT_LE(rel_l2(got, to_ld(cpu_got)), 2 * bound) << "transform " << b << " differs from fft::Plan";
    worst = std::max(worst, err / bound);
  }
  return worst;
}

// r2c (In = T, Out = complex) or c2r (In = complex, Out = T): the same checks, the complex side
// of shape[..., n/2+1]. Reals are compared as complex values with zero imaginary parts.
template <class T, class In, class Out>
double check_real(const Queue& q, const NdCase& c, Norm norm, std::uint64_t seed) {
  constexpr bool r2c = std::is_floating_point_v<In>;
  PlanDesc d = desc_of(c, precision_of<T>(), r2c ? Direction::forward : Direction::backward, norm);
  d.kind = r2c ? Kind::r2c : Kind::c2r;
  const std::size_t n_in = product(side_shape(d, !r2c)), n_out = product(side_shape(d, r2c));
  d.in_dist = c.in_pad ? static_cast<std::ptrdiff_t>(n_in) * c.in_stride + c.in_pad : 0;
  d.out_dist = c.out_pad ? static_cast<std::ptrdiff_t>(n_out) * c.out_stride + c.out_pad : 0;
  const DevicePlan plan(q, d);
  SCOPED_TRACE(plan.describe());
  const Plan cpu(d);
  EXPECT_EQ(plan.input_span(), cpu.input_span());
  EXPECT_EQ(plan.output_span(), cpu.output_span());
  const std::ptrdiff_t in_dist = d.in_dist ? d.in_dist : static_cast<std::ptrdiff_t>(n_in) * d.in_stride;
  const std::ptrdiff_t out_dist = d.out_dist ? d.out_dist : static_cast<std::ptrdiff_t>(n_out) * d.out_stride;
  std::vector<In> x(n_in * c.batch);
  if constexpr (r2c)
    x = random_real<T>(x.size(), seed);
  else
    x = random_complex<T>(x.size(), seed);
  std::vector<In> host(plan.input_span(), In(0));
  for (std::size_t b = 0; b < c.batch; ++b)
    for (std::size_t i = 0; i < n_in; ++i) host[b * in_dist + i * d.in_stride] = x[b * n_in + i];
  const Out nan(std::numeric_limits<T>::quiet_NaN());
  const std::vector<Out> poison(plan.output_span(), nan);
  Buffer<In> in(q, std::span<const In>(host));
  Buffer<Out> out(q, std::span<const Out>(poison));
  plan.execute(in, out);
  const std::vector<Out> y = out.to_vector();
  std::vector<Out> expected(plan.output_span(), nan);
  cpu.execute(host.data(), expected.data());
  EXPECT_TRUE(in.to_vector() == host) << "the input was modified";
  double worst = 0;
  for (std::size_t b = 0; b < c.batch; ++b) {
    const std::vector<In> one(x.begin() + b * n_in, x.begin() + (b + 1) * n_in);
    const std::vector<cld> want = reference_nd(d, to_ld(one));
    std::vector<std::complex<T>> got(n_out), cpu_got(n_out);
    for (std::size_t i = 0; i < n_out; ++i) {
      got[i] = y[b * out_dist + i * d.out_stride];
      cpu_got[i] = expected[b * out_dist + i * d.out_stride];
    }
    const double bound = gpu::test::fft_bound<T>(product(c.shape));
    const double err = rel_l2(got, want);
    EXPECT_LE(err, bound) << "transform " << b;
    EXPECT_LE(rel_l2(got, to_ld(cpu_got)), 2 * bound) << "transform " << b << " differs from fft::Plan";
    worst = std::max(worst, err / bound);
  }
  return worst;
}

TEST_P(DeviceFftNd, RealMatchesTheReferenceAndTheCpuPlan) {
  const std::vector<NdCase> cases{
      {{6, 10}},
      {{7, 9}, 2},             // odd rows: a complex FFT of the full row
      {{1, 16}},               // c2r's first pass along a unit axis: a copy
      {{23, 32}},              // Bluestein lines on axis 0
      {{3, 5, 8}, 2, 1, 1, 5, 3},   // padded distances: two levels of rows, three on the middle axis
      {{4, 6, 12}, 3, 2, 1, 0, 0},  // strided reals in (r2c) / complex values in (c2r)
      {{4, 3, 10}, 2, 1, 2, 0, 0},  // strided output
  };
  double worst = 0;
  int variant = 0;
  for (const NdCase& c : cases) {
    SCOPED_TRACE("shape " + ::testing::PrintToString(c.shape) + " batch " + std::to_string(c.batch));
    const Norm norm = static_cast<Norm>(variant % 3);
    const std::uint64_t seed = seed_for(product(c.shape), 500 + variant);
    worst = std::max(worst, check_real<float, float, std::complex<float>>(queue(), c, norm, seed));
    worst = std::max(worst, check_real<float, std::complex<float>, float>(queue(), c, norm, seed + 1));
    if (has_fp64() && variant % 3 == 0) {
      worst = std::max(worst, check_real<double, double, std::complex<double>>(queue(), c, norm, seed + 2));
      worst = std::max(worst, check_real<double, std::complex<double>, double>(queue(), c, norm, seed + 3));
    }
    ++variant;
  }
  std::printf("[ fft DevicePlan rank 2/3 r2c/c2r ] worst error / bound: %.3f\n", worst);
}

TEST_P(DeviceFftNd, C2cMatchesTheReferenceAndTheCpuPlan) {
  const std::vector<NdCase> cases{
      {{6, 10}},
      {{7, 9}, 2},
      {{64, 64}},
      {{23, 31}},           // Bluestein rows, and Bluestein lines of axis 0 (one level)
      {{3, 23, 4}},         // Bluestein on the middle axis: two levels of lines, run per outer one
      {{13, 1, 11}},        // a unit axis
      {{2, 8192, 2}},       // an axis of two passes with two levels of lines
      {{3, 5, 7}, 2, 1, 1, 5, 3},             // padded distances: three levels on the middle axis
      {{3, 5, 7}, 2, 1, 1, 5, 5, true},       // the same in place
      {{16, 8, 4}, 3, 2, 1, 0, 0, true},      // in place, strided input, packed output
      {{4, 6, 5}, 2, 1, 3, 0, 0},             // strided output
  };
  double worst = 0;
  int variant = 0;
  for (const NdCase& c : cases) {
    SCOPED_TRACE("shape " + ::testing::PrintToString(c.shape) + " batch " + std::to_string(c.batch));
    const Direction dir = variant % 2 ? Direction::backward : Direction::forward;
    const Norm norm = static_cast<Norm>(variant % 3);
    worst = std::max(worst, check_nd<float>(queue(), c, dir, norm, seed_for(product(c.shape), 300 + variant)));
    if (has_fp64() && variant % 3 == 0)
      worst = std::max(worst, check_nd<double>(queue(), c, dir, norm, seed_for(product(c.shape), 400 + variant)));
    ++variant;
  }
  std::printf("[ fft DevicePlan rank 2/3 ] worst error / bound: %.3f\n", worst);
}

// Embedded layouts (in_embed / out_embed) against the reference and fft::Plan: the input's gaps
// are NaN (a read of one poisons the result), the output's hold a sentinel that must stay; in
// place (execute(data)) r2c with padded real rows and c2r, against the same plan out of place.
template <class T, class In, class Out>
double check_embedded(const Queue& q, const PlanDesc& d, std::uint64_t seed) {
  const DevicePlan plan(q, d);
  SCOPED_TRACE(plan.describe());
  const Plan cpu(d);
  const Side in_side = input_side(d), out_side = output_side(d);
  EXPECT_EQ(plan.input_span(), in_side.span());
  EXPECT_EQ(plan.output_span(), out_side.span());
  const T nan = std::numeric_limits<T>::quiet_NaN(), sentinel = T(-7.25);
  std::vector<In> host(in_side.span(), In(nan));
  std::vector<std::vector<cld>> inputs(d.batch);
  Rng rng(seed);
  for (std::size_t b = 0; b < d.batch; ++b)
    for (std::size_t i = 0; i < in_side.count; ++i)
      inputs[b].push_back(fft::test::detail::fill_random(rng, host[in_side.at(b, i)]));
  std::vector<Out> out_host(out_side.span(), Out(sentinel));
  const std::vector<char> written = out_side.mask(out_side.span());
  for (std::size_t i = 0; i < out_host.size(); ++i)
    if (written[i]) out_host[i] = Out(nan);
  Buffer<Out> out(q, std::span<const Out>(out_host));
  plan.execute(Buffer<In>(q, std::span<const In>(host)), out);
  const std::vector<Out> y = out.to_vector();
  std::vector<Out> expected(out_side.span());
  cpu.execute(host.data(), expected.data());
  const double bound = gpu::test::fft_bound<T>(product(d.shape));
  double worst = 0;
  for (std::size_t b = 0; b < d.batch; ++b) {
    const std::vector<cld> want = expected_output(d, inputs[b]);
    std::vector<cld> got, cpu_got;
    for (std::size_t i = 0; i < out_side.count; ++i) {
      got.push_back(as_ld(y[out_side.at(b, i)]));
      cpu_got.push_back(as_ld(expected[out_side.at(b, i)]));
    }
    const double err = rel_l2(got, want);
    EXPECT_LE(err, bound) << "transform " << b;
    EXPECT_LE(rel_l2(got, cpu_got), 2 * bound) << "transform " << b << " differs from fft::Plan";
    worst = std::max(worst, err / bound);
  }
  std::size_t clobbered = 0;
  for (std::size_t i = 0; i < y.size(); ++i) clobbered += !written[i] && !same_bits(y[i], Out(sentinel));
  EXPECT_EQ(clobbered, 0u) << "elements outside the output layout were written";
  return worst;
}

TEST_P(DeviceFftNd, EmbeddedLayoutsMatchTheReferenceAndTheCpuPlan) {
  struct Case {
    Kind kind;
    std::vector<std::size_t> shape, in_embed, out_embed;
    std::size_t batch;
    std::ptrdiff_t stride;
    std::ptrdiff_t in_dist = 0, out_dist = 0;
  };
  const std::vector<Case> cases{
      {Kind::c2c, {6, 10}, {6, 13}, {8, 12}, 2, 1},
      {Kind::c2c, {3, 5, 7}, {3, 6, 9}, {}, 3, 2},    // a padded middle axis: lines in three levels
      {Kind::c2c, {4, 23, 6}, {4, 25, 6}, {4, 23, 7}, 1, 1},  // Bluestein's lines
      {Kind::r2c, {4, 10}, {4, 12}, {}, 2, 1},
      {Kind::r2c, {3, 4, 6}, {3, 4, 8}, {3, 4, 5}, 2, 1},
      // Real rows in three levels (a padded middle axis, a batch not a whole number of arrays
      // apart): one launch per entry; also through the n = 2 kernels.
      {Kind::r2c, {3, 4, 6}, {3, 5, 8}, {}, 2, 1, 130, 0},
      {Kind::c2r, {3, 4, 2}, {}, {3, 6, 3}, 3, 2, 0, 121},
      {Kind::c2c, {4, 4}, {}, {4, 8}, 2, 1, 0, 4},      // two transforms in each other's gaps
      {Kind::c2c, {4}, {}, {}, 2, 2, 5, 5},             // interleaved, not nested: 0 2 4 6 / 5 7 9 11
      {Kind::c2c, {8}, {}, {}, 2, 5, 2, 2},             // 0 5 10 .. / 2 7 12 ..
      {Kind::r2c, {6}, {}, {}, 2, 2, 5, 5},
      {Kind::r2c, {3, 6}, {}, {3, 8}, 2, 1, 0, 4},
      {Kind::c2r, {4, 10}, {}, {4, 12}, 3, 1},
      {Kind::c2r, {5, 3, 7}, {6, 3, 4}, {5, 3, 9}, 2, 3},
      // Rows 100 apart of 4 elements at stride 2, two transforms 5 apart: three levels that do
      // not nest, yet nothing meets (accepted since the collision check is exact).
      {Kind::c2c, {3, 4}, {}, {3, 50}, 2, 2, 0, 5},
      {Kind::r2c, {3, 6}, {}, {3, 50}, 2, 2, 0, 5},
      {Kind::c2r, {3, 4}, {}, {3, 50}, 2, 2, 0, 5},
  };
  double worst = 0;
  int variant = 0;
  for (const Case& c : cases) {
    PlanDesc d;
    d.shape = c.shape;
    d.kind = c.kind;
    d.batch = c.batch;
    d.direction = c.kind == Kind::c2r || (c.kind == Kind::c2c && variant % 2) ? Direction::backward : Direction::forward;
    d.norm = static_cast<Norm>(variant % 3);
    d.in_embed = c.in_embed;
    d.out_embed = c.out_embed;
    d.in_stride = d.out_stride = c.stride;
    d.in_dist = c.in_dist;
    d.out_dist = c.out_dist;
    SCOPED_TRACE(describe(d));
    const std::uint64_t seed = seed_for(product(c.shape), 800 + variant);
    for (const Precision p : {Precision::f32, Precision::f64}) {
      if (p == Precision::f64 && (!has_fp64() || variant % 2)) continue;
      d.precision = p;
      if (p == Precision::f32) {
        if (c.kind == Kind::c2c) worst = std::max(worst, check_embedded<float, std::complex<float>, std::complex<float>>(queue(), d, seed));
        if (c.kind == Kind::r2c) worst = std::max(worst, check_embedded<float, float, std::complex<float>>(queue(), d, seed));
        if (c.kind == Kind::c2r) worst = std::max(worst, check_embedded<float, std::complex<float>, float>(queue(), d, seed));
      } else {
        if (c.kind == Kind::c2c) worst = std::max(worst, check_embedded<double, std::complex<double>, std::complex<double>>(queue(), d, seed));
        if (c.kind == Kind::r2c) worst = std::max(worst, check_embedded<double, double, std::complex<double>>(queue(), d, seed));
        if (c.kind == Kind::c2r) worst = std::max(worst, check_embedded<double, std::complex<double>, double>(queue(), d, seed));
      }
    }
    ++variant;
  }
  std::printf("[ fft DevicePlan embedded layouts ] worst error / bound: %.3f\n", worst);
}

// c2c in place with different embeddings on the two sides, the rows' pass in groups (three
// levels): it must read from a copy, as a group's output overlaps later groups' input. Against
// fft::Plan in place on the same buffer.
TEST_P(DeviceFftNd, C2cInPlaceWithDifferentEmbeddings) {
  using C = std::complex<float>;
  PlanDesc d;
  d.shape = {3, 5, 7};
  d.batch = 2;
  d.in_embed = {3, 6, 7};
  d.out_embed = {3, 5, 9};
  d.in_dist = 130;  // not a whole number of arrays: the rows' third level
  const DevicePlan plan(queue(), d);
  SCOPED_TRACE(plan.describe());
  const Side in_side = input_side(d), out_side = output_side(d);
  std::vector<C> data(std::max(in_side.span(), out_side.span()), C(0.5f, -0.25f));
  const std::vector<C> x = random_complex<float>(in_side.count * d.batch, 11);
  for (std::size_t b = 0; b < d.batch; ++b)
    for (std::size_t i = 0; i < in_side.count; ++i) data[in_side.at(b, i)] = x[b * in_side.count + i];
  std::vector<C> host = data;
  Plan(d).execute(host.data(), host.data());
  Buffer<C> buffer(queue(), std::span<const C>(data));
  plan.execute(buffer, buffer);
  const std::vector<C> y = buffer.to_vector();
  std::vector<cld> got, want;
  for (std::size_t b = 0; b < d.batch; ++b)
    for (std::size_t i = 0; i < out_side.count; ++i) {
      got.push_back(as_ld(y[out_side.at(b, i)]));
      want.push_back(as_ld(host[out_side.at(b, i)]));
    }
  EXPECT_LE(rel_l2(got, want), 2 * gpu::test::fft_bound<float>(product(d.shape)));
}

// In place (execute(data)), r2c of rank 2 and 3 with the reals' rows padded to 2 (n/2+1)
// values (in_embed), as FFTW and cuFFT lay them out: against the same plan out of place, the
// padding NaN (so a read of it poisons the result). Layouts whose rows do not coincide are
// refused, naming them.
template <class T>
double check_padded_r2c_in_place(const Queue& q, const std::vector<std::size_t>& shape, std::size_t batch,
                                 std::uint64_t seed) {
  using C = std::complex<T>;
  PlanDesc d;
  d.shape = shape;
  d.kind = Kind::r2c;
  d.batch = batch;
  d.precision = precision_of<T>();
  d.in_embed = shape;
  d.in_embed.back() = 2 * (shape.back() / 2 + 1);
  const DevicePlan plan(q, d);
  SCOPED_TRACE(plan.describe());
  const Side in_side = input_side(d), out_side = output_side(d);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<C> data(std::max(out_side.span(), (in_side.span() + 1) / 2), C(nan, nan));
  T* reals = reinterpret_cast<T*>(data.data());
  const std::vector<T> x = random_real<T>(in_side.count * batch, seed);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t i = 0; i < in_side.count; ++i) reals[in_side.at(b, i)] = x[b * in_side.count + i];
  const std::vector<T> separate_in(reals, reals + in_side.span());
  Buffer<C> separate_out(q, out_side.span());
  plan.execute(Buffer<T>(q, std::span<const T>(separate_in)), separate_out);
  const std::vector<C> want = separate_out.to_vector();
  Buffer<C> in_place(q, std::span<const C>(data));
  plan.execute(in_place);
  const std::vector<C> got = in_place.to_vector();
  std::vector<cld> g, w;
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t i = 0; i < out_side.count; ++i) {
      g.push_back(as_ld(got[out_side.at(b, i)]));
      w.push_back(as_ld(want[out_side.at(b, i)]));
    }
  const double bound = gpu::test::fft_bound<T>(product(shape));
  const double err = rel_l2(g, w);
  EXPECT_LE(err, bound) << "in place differs from out of place";
  return err / bound;
}

TEST_P(DeviceFftNd, PaddedR2cRunsInPlace) {
  double worst = check_padded_r2c_in_place<float>(queue(), {4, 10}, 2, 1);
  worst = std::max(worst, check_padded_r2c_in_place<float>(queue(), {3, 4, 7}, 1, 2));   // odd rows
  worst = std::max(worst, check_padded_r2c_in_place<float>(queue(), {2, 3, 8192}, 2, 3));  // rows of 4096 pairs
  if (has_fp64()) worst = std::max(worst, check_padded_r2c_in_place<double>(queue(), {5, 6}, 3, 4));
  std::printf("[ fft DevicePlan padded r2c in place ] worst error / bound: %.3f\n", worst);
  Buffer<std::complex<float>> data(queue(), 1024);
  PlanDesc d;
  d.shape = {4, 10};
  d.kind = Kind::r2c;
  d.in_embed = {4, 14};  // rows of 14 reals over rows of 6 complex values
  const auto refused = [&](const PlanDesc& desc, std::initializer_list<std::string_view> words) {
    const DevicePlan plan(queue(), desc);
    expect_throw_naming<InvalidArgument>([&] { plan.execute(data); }, words, describe(desc));
  };
  refused(d, {"rank 2", "in_embed", "12", "4/4, 14/6", "two buffers"});
  d.in_embed = {4, 12};
  d.out_embed = {5, 6};  // axis 0 sets only the packed distance: 30 complex values
  d.batch = 2;
  d.in_dist = 48;  // the reals' own array, not twice that
  refused(d, {"distance 48", "distance 30"});
}

// The one-shot fftn/ifftn/rfftn/irfftn on Buffers over any axes of an array (the lines of an
// axis with the elements after it and those before it as two levels; four axes; the real axis
// last, first or in the middle; irfftn's n cutting or padding its input) against the
// long-double reference. The output buffers are the functions' own, so they cannot be poisoned
// here; every case draws new inputs, so stale memory holding a right answer is not one.
struct AxesCase {
  std::vector<std::size_t> shape;
  std::vector<int> axes;
  std::size_t n = 0;  // irfftn's
};

template <class T>
double check_one_shots(const Queue& q, const AxesCase& c, Norm norm, std::uint64_t seed) {
  using C = std::complex<T>;
  const std::vector<std::size_t> axes = normalized_axes(c.axes, c.shape.size());
  const std::size_t real_axis = axes.back();
  std::size_t transformed = 1;
  for (std::size_t a : axes) transformed *= c.shape[a];
  const double bound = gpu::test::fft_bound<T>(transformed);
  double worst = 0;
  const auto check = [&](double err, const char* what) {
    EXPECT_LE(err, bound) << what;
    worst = std::max(worst, err / bound);
  };
  const auto sized = [](std::size_t got, std::size_t want, const char* what) {
    EXPECT_EQ(got, want) << what << "'s output size";
    return got == want;
  };
  const std::vector<C> x = random_complex<T>(product(c.shape), seed);
  const Buffer<C> xb(q, std::span<const C>(x));
  for (const bool forward : {true, false}) {
    const Buffer<C> y = forward ? fftn(xb, c.shape, c.axes, norm) : ifftn(xb, c.shape, c.axes, norm);
    if (!sized(y.size(), x.size(), "fftn")) return INFINITY;
    check(rel_l2(y.to_vector(), ref_fftn(to_ld(x), c.shape, axes, forward, norm)), forward ? "fftn" : "ifftn");
  }
  EXPECT_TRUE(xb.to_vector() == x) << "the input was modified";
  const std::vector<T> r = random_real<T>(product(c.shape), seed + 1);
  const Buffer<C> spectrum = rfftn(Buffer<T>(q, std::span<const T>(r)), c.shape, c.axes, norm);
  std::vector<std::size_t> half = c.shape;
  half[real_axis] = half[real_axis] / 2 + 1;
  if (!sized(spectrum.size(), product(half), "rfftn")) return INFINITY;
  check(rel_l2(spectrum.to_vector(), ref_rfftn(to_ld(r), c.shape, axes, norm)), "rfftn");
  // irfftn of a half spectrum of the real axis's usual length, or of another where n is given.
  const std::size_t n = c.n ? c.n : c.shape[real_axis];
  std::vector<std::size_t> in_shape = half;
  if (c.n) in_shape[real_axis] = c.shape[real_axis] / 2 + 1;
  const std::vector<C> h = random_complex<T>(product(in_shape), seed + 2);
  const Buffer<C> hb(q, std::span<const C>(h));
  const Buffer<T> back = irfftn(hb, in_shape, c.axes, n, norm);
  std::vector<std::size_t> out_shape = in_shape;
  out_shape[real_axis] = n;
  if (!sized(back.size(), product(out_shape), "irfftn")) return INFINITY;
  const std::vector<long double> want = ref_irfftn(to_ld(h), in_shape, axes, n, norm);
  L2Error e;
  const std::vector<T> got = back.to_vector();
  for (std::size_t i = 0; i < want.size(); ++i) e.add(static_cast<long double>(got[i]), want[i]);
  check(e.rel(), "irfftn");
  EXPECT_TRUE(hb.to_vector() == h) << "irfftn modified its input";
  return worst;
}

TEST_P(DeviceFftNd, OneShotsOverAnyAxesMatchTheReference) {
  const std::vector<AxesCase> cases{
      {{4, 6, 5}, {}},
      {{4, 6, 5}, {0, 2}},
      {{4, 6, 10}, {1}},          // the middle axis: its lines in two levels
      {{5, 3, 4, 6}, {}},         // four axes
      {{2, 3, 4, 6}, {2, 0}},     // the real axis first
      {{3, 8, 5}, {-1, 1}},       // the real axis in the middle
      {{7, 5, 3}, {0}},           // odd real axis 0, its lines 15 apart
      {{3, 47, 4}, {1}},          // Bluestein's lines in two levels
      {{4, 5, 6}, {0, 2}, 9},     // irfftn: odd n cuts its input (6 -> 5)
      {{4, 5, 6}, {2, 1}, 14},    // irfftn: n pads its input (3 -> 8) along axis 1
      {{16384, 2}, {0}},          // two passes on strided lines (the real axis too)
      {{3, 1, 4}, {1}},           // lines of one point (the real one widened by a kernel)
      {{3, 2, 4}, {0, 1}},        // real lines of two points, 4 apart (packed by a kernel)
  };
  double worst = 0;
  int variant = 0;
  for (const AxesCase& c : cases) {
    SCOPED_TRACE("shape " + ::testing::PrintToString(c.shape) + " axes " + ::testing::PrintToString(c.axes) +
                 " n " + std::to_string(c.n));
    const Norm norm = static_cast<Norm>(variant % 3);
    const std::uint64_t seed = seed_for(product(c.shape), 700 + variant);
    worst = std::max(worst, check_one_shots<float>(queue(), c, norm, seed));
    if (has_fp64() && variant % 2 == 0) worst = std::max(worst, check_one_shots<double>(queue(), c, norm, seed + 3));
    ++variant;
  }
  std::printf("[ fft one-shots over axes ] worst error / bound: %.3f\n", worst);
}

// numpy's s on the device: the array cut or zero-padded along each transformed axis first (on
// the device, one axis at a time), as the host functions (held to the reference by
// tests/fft/one_shot_nd_test.cpp) do.
TEST_P(DeviceFftNd, OneShotsTakeNumpysS) {
  using C = std::complex<float>;
  const std::vector<std::size_t> shape{4, 6, 5};
  const std::vector<C> x = random_complex<float>(product(shape), 810);
  const Buffer<C> xb(queue(), std::span<const C>(x));
  const ArrayView<const C> view(x.data(), shape);
  const double bound = gpu::test::fft_bound<float>(7 * 6 * 3);
  const auto same = [&](const auto& device, const auto& host, const char* what) {
    ASSERT_EQ(device.size(), host.values.size()) << what;
    using V = typename std::decay_t<decltype(host.values)>::value_type;
    const std::vector<V> want(host.values.begin(), host.values.end());
    if constexpr (std::is_floating_point_v<V>)
      EXPECT_LE(rel_l2(device.to_vector(), std::vector<long double>(want.begin(), want.end())), bound) << what;
    else
      EXPECT_LE(rel_l2(device.to_vector(), to_ld(want)), bound) << what;
  };
  same(fftn(xb, shape, {0, 2}, Norm::ortho, {7, 3}), fftn(view, {0, 2}, Norm::ortho, {7, 3}), "fftn pad 0, cut 2");
  same(ifftn(xb, shape, {}, Norm::backward, {8, 2}), ifftn(view, {}, Norm::backward, {8, 2}), "ifftn last two axes");
  const std::vector<float> r = random_real<float>(product(shape), 811);
  same(rfftn(Buffer<float>(queue(), std::span<const float>(r)), shape, {0, 1}, Norm::forward, {3, 9}),
       rfftn(ArrayView<const float>(r.data(), shape), {0, 1}, Norm::forward, {3, 9}), "rfftn");
  same(irfftn(xb, shape, {1, 2}, 0, Norm::ortho, {3, 11}), irfftn(view, {1, 2}, 0, Norm::ortho, {3, 11}),
       "irfftn: axis 1 cut, the real axis's input padded");
  same(irfftn(xb, shape, {2, 0}, 0, Norm::backward, {6, 4}), irfftn(view, {2, 0}, 0, Norm::backward, {6, 4}),
       "irfftn: real axis 0 cut, axis 2 padded");
  expect_throw_naming<InvalidArgument>([&] { (void)fftn(xb, shape, {0, 1}, Norm::backward, {4}); },
                                       {"fftn", "s has 1 sizes"}, "s shorter than axes");
  expect_throw_naming<InvalidArgument>([&] { (void)irfftn(xb, shape, {}, 6, Norm::backward, {3, 8}); },
                                       {"n = 6", "s's last entry 8"}, "n and s disagreeing");
  expect_throw_naming<InvalidArgument>(
      [&] { (void)fftn(xb, shape, {0}, Norm::backward, {static_cast<std::size_t>(-1)}); },
      {"fftn", "more values than memory"}, "a huge s");
  if (!has_fp64()) return;
  const std::vector<std::complex<double>> xd(x.begin(), x.end());
  const Buffer<std::complex<double>> xdb(queue(), std::span<const std::complex<double>>(xd));
  const ArrayView<const std::complex<double>> view_d(xd.data(), shape);
  const Array<std::complex<double>> host = fftn(view_d, {1, -1}, Norm::forward, {9, 2});
  const std::vector<std::complex<double>> got = fftn(xdb, shape, {1, -1}, Norm::forward, {9, 2}).to_vector();
  EXPECT_LE(rel_l2(got, to_ld(std::vector<std::complex<double>>(host.values.begin(), host.values.end()))),
            gpu::test::fft_bound<double>(18))
      << "double";
}

TEST_P(DeviceFftNd, OneShotsRejectBadArguments) {
  const Buffer<std::complex<float>> x(queue(), 24);
  expect_throw_naming<InvalidArgument>([&] { (void)fftn(x, {5, 5}); }, {"fftn", "24", "25"}, "a shape larger than x");
  expect_throw_naming<InvalidArgument>([&] { (void)ifftn(x, {4, 6}, {1, -1}); }, {"axis -1", "twice"},
                                       "a repeated axis");
  expect_throw_naming<InvalidArgument>([&] { (void)fftn(x, {4, 6}, {2}); }, {"axes", "2"}, "axis 2 of a 2-d array");
  expect_throw_naming<InvalidArgument>([&] { (void)fftn(x, {}); }, {"0-d"}, "a 0-d shape");
  expect_throw_naming<InvalidArgument>([&] { (void)rfftn(Buffer<float>(queue(), 4), {0, 4}, {0}); },
                                       {"axis 0", "length 0"}, "an empty transformed axis");
  expect_throw_naming<InvalidArgument>([&] { (void)irfftn(x, {24, 1}); }, {"n"}, "irfftn of a real axis of 1 without n");
  // An empty axis not transformed: an empty result.
  EXPECT_EQ(fftn(x, {0, 6}, {1}).size(), 0u);
}

}  // namespace
}  // namespace ripple::fft::test
