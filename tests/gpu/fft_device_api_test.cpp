// The public device FFT (include/ripple/fft/device.hpp) on every GPU device present and on the
// CPU: c2c plans of one and two passes against the long-double reference and fft::Plan, both
// precisions, norms and directions, padded and innermost-batched layouts, in place; r2c and c2r
// of even sizes (direct, packed, innermost layouts) and odd ones; a second
// plan with a warm kernel cache and every execute compile nothing; the rejections naming the
// field (InvalidArgument) or what the GPU cannot do yet (Unsupported).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "common/expect_invalid.hpp"
#include "common/reference_fft.hpp"
#include "common/rel_l2.hpp"
#include "gpu/kernel_cache.hpp"
#include "fft_test_util.hpp"
#include "gpu_test_util.hpp"
#include "ripple/error.hpp"
#include "ripple/fft/device.hpp"

namespace ripple::fft {
namespace {

using ::ripple::test::cld;
using ::ripple::test::expect_invalid;
using ::ripple::test::rel_l2;

class DeviceFftApi : public gpu::test::QueueTest {
 protected:
  bool on_gpu() const { return queue().device().kind() != DeviceKind::cpu; }
  bool has_fp64() const { return !on_gpu() || queue().device().info().fp64; }
};
RIPPLE_INSTANTIATE_FOR_EACH_DEVICE(DeviceFftApi);

template <class T>
Buffer<std::complex<T>> poisoned(const Queue& q, std::size_t n) {
  const std::vector<std::complex<T>> nan(n, std::complex<T>(std::numeric_limits<T>::quiet_NaN(), 0));
  return Buffer<std::complex<T>>(q, std::span<const std::complex<T>>(nan));
}

// Runs desc on the queue from host input laid out per desc; compares every transform with the
// long-double reference (scaled by the norm) and with fft::Plan on the host.
template <class T>
double check(const Queue& q, const PlanDesc& desc, bool in_place) {
  using C = std::complex<T>;
  const DevicePlan plan(q, desc);
  SCOPED_TRACE(plan.describe());
  const Plan cpu(desc);
  EXPECT_EQ(plan.input_span(), cpu.input_span());
  EXPECT_EQ(plan.output_span(), cpu.output_span());
  const std::size_t n = desc.shape[0];
  const std::ptrdiff_t in_dist = desc.in_dist ? desc.in_dist : n * desc.in_stride;
  const std::ptrdiff_t out_dist = desc.out_dist ? desc.out_dist : n * desc.out_stride;
  const auto rows = gpu::test::random_complex<T>(n * desc.batch, static_cast<unsigned>(n));
  const std::size_t size = in_place ? std::max(plan.input_span(), plan.output_span()) : plan.input_span();
  std::vector<C> host(size, C(0, 0));
  for (std::size_t b = 0; b < desc.batch; ++b)
    for (std::size_t i = 0; i < n; ++i) host[b * in_dist + i * desc.in_stride] = rows[b * n + i];
  Buffer<C> in(q, std::span<const C>(host));
  std::optional<Buffer<C>> separate;
  if (!in_place) separate.emplace(poisoned<T>(q, plan.output_span()));
  Buffer<C>& out = in_place ? in : *separate;
  plan.execute(in, out);
  const std::vector<C> y = out.to_vector();
  std::vector<C> expected(plan.output_span());
  cpu.execute(host.data(), expected.data());
  const bool forward = desc.direction == Direction::forward;
  const long double scale = desc.norm == Norm::ortho                       ? 1.0L / std::sqrt((long double)n)
                            : (desc.norm == Norm::backward) == forward ? 1.0L
                                                                          : 1.0L / n;
  std::vector<C> got, cpu_got;
  std::vector<cld> want;
  for (std::size_t b = 0; b < desc.batch; ++b) {
    std::vector<cld> row(rows.begin() + b * n, rows.begin() + (b + 1) * n);
    for (const cld& v : ::ripple::test::reference_dft(row, forward)) want.push_back(v * scale);
    for (std::size_t i = 0; i < n; ++i) {
      got.push_back(y[b * out_dist + i * desc.out_stride]);
      cpu_got.push_back(expected[b * out_dist + i * desc.out_stride]);
    }
  }
  const double err = rel_l2(got, want);
  EXPECT_LE(err, gpu::test::fft_bound<T>(n));
  EXPECT_LE(rel_l2(got, cpu_got), 2 * gpu::test::fft_bound<T>(n)) << "differs from fft::Plan";
  return err / gpu::test::fft_bound<T>(n);
}

PlanDesc c2c(std::size_t n, std::size_t batch, Precision p, Direction d, Norm norm) {
  PlanDesc desc;
  desc.shape = {n};
  desc.batch = batch;
  desc.precision = p;
  desc.direction = d;
  desc.norm = norm;
  return desc;
}

TEST_P(DeviceFftApi, C2cMatchesTheReferenceAndTheCpuPlan) {
  double worst = 0;
  // One kernel and two passes; sizes whose programs the other GPU FFT tests compile.
  for (const std::size_t n : {std::size_t{60}, std::size_t{1024}, std::size_t{59049}}) {
    SCOPED_TRACE("n " + std::to_string(n));
    worst = std::max(worst, check<float>(queue(), c2c(n, 3, Precision::f32, Direction::forward, Norm::backward), false));
    worst = std::max(worst, check<float>(queue(), c2c(n, 2, Precision::f32, Direction::backward, Norm::ortho), true));
    if (has_fp64())
      worst = std::max(worst, check<double>(queue(), c2c(n, 2, Precision::f64, Direction::backward, Norm::forward), false));
  }
  // Innermost batching in, padded rows out; in place with both layouts in one buffer.
  PlanDesc l = c2c(1024, 3, Precision::f32, Direction::forward, Norm::forward);
  l.in_stride = 3;
  l.in_dist = 1;
  l.out_dist = 1024 + 7;
  worst = std::max(worst, check<float>(queue(), l, false));
  worst = std::max(worst, check<float>(queue(), l, true));
  std::printf("[ fft DevicePlan ] worst error / bound: %.3f\n", worst);
}

TEST_P(DeviceFftApi, WarmPlansAndExecutesCompileNothing) {
  if (!on_gpu()) GTEST_SKIP() << "the CPU compiles no kernels";
  const PlanDesc desc = c2c(59049, 1, Precision::f32, Direction::forward, Norm::backward);
  const DevicePlan first(queue(), desc);
  gpu::reset_kernel_cache_stats();
  const DevicePlan second(queue(), desc);
  Buffer<std::complex<float>> x(queue(), desc.shape[0]);
  second.execute(x, x);
  first.execute(x, x);
  queue().synchronize();
  const gpu::KernelCacheStats s = gpu::kernel_cache_stats();
  EXPECT_EQ(s.compiles, 0u);
  EXPECT_EQ(s.disk_hits, 0u);
  EXPECT_GT(s.memory_hits, 0u);
}

TEST_P(DeviceFftApi, RejectsBadDescsAndBuffers) {
  using CF = std::complex<float>;
  PlanDesc desc = c2c(64, 2, Precision::f32, Direction::forward, Norm::backward);
  desc.in_stride = 0;
  expect_invalid([&] { DevicePlan p(queue(), desc); }, {"in_stride", "0"});
  desc.in_stride = 1;
  desc.batch = 0;
  expect_invalid([&] { DevicePlan p(queue(), desc); }, "batch = 0");
  desc.batch = 2;
  desc.out_dist = 10;
  expect_invalid([&] { DevicePlan p(queue(), desc); }, {"out_stride", "out_dist = 10", "overlap"});
  desc.out_dist = 0;
  desc.shape = {};
  expect_invalid([&] { DevicePlan p(queue(), desc); }, "shape");
  desc.shape = {64};
  const DevicePlan plan(queue(), desc);
  Buffer<CF> x(queue(), 128), small(queue(), 127);
  Buffer<std::complex<double>> xd(queue(), 128);
  expect_invalid([&] { plan.execute(xd, xd); }, {"execute", "c2c f64", "plan is c2c f32"});
  Buffer<float> real(queue(), 128);
  expect_invalid([&] { plan.execute(real, x); }, {"execute", "r2c", "plan is c2c"});
  expect_invalid([&] { plan.execute(small, x); }, {"in holds 127", "spans 128"});
  expect_invalid([&] { plan.execute(x, small); }, {"out holds 127", "spans 128"});
  if (on_gpu()) {
    Buffer<CF> host_side(Queue(Device::cpu()), 128);
    expect_invalid([&] { plan.execute(host_side, x); }, {"in is on cpu", "plan is on " + GetParam()});
  }
}

TEST_P(DeviceFftApi, SaysWhatTheGpuCannotDoYet) {
  if (!on_gpu()) {
    // The CPU does them all: r2c of an odd prime size.
    PlanDesc desc = c2c(11, 1, Precision::f32, Direction::forward, Norm::backward);
    desc.kind = Kind::r2c;
    const DevicePlan plan(queue(), desc);
    const std::vector<float> x{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    Buffer<float> in(queue(), std::span<const float>(x));
    Buffer<std::complex<float>> out(queue(), 6);
    plan.execute(in, out);
    EXPECT_NEAR(out.to_vector()[0].real(), 66.0f, 1e-4);
    return;
  }
  auto expect_unsupported = [&](const PlanDesc& desc, const std::string& words) {
    try {
      DevicePlan p(queue(), desc);
      ADD_FAILURE() << "accepted: " << words;
    } catch (const Unsupported& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  // Float passes take up to 8192 points: three up to 2^39.
  PlanDesc desc = c2c(std::size_t{1} << 40, 1, Precision::f32, Direction::forward, Norm::backward);
  expect_unsupported(desc, "size n 1099511627776");
  desc.shape = {(std::size_t{1} << 39) - 7};  // a prime: Bluestein's padded size needs four passes
  expect_unsupported(desc, "size n 549755813881");
  desc.shape = {16, (std::size_t{1} << 39) - 7};  // an axis the GPU cannot do is named
  expect_unsupported(desc, "axis 1 of size 549755813881");
  desc.shape = {(std::size_t{1} << 39) - 7, 16};
  desc.kind = Kind::r2c;
  expect_unsupported(desc, "axis 0 of size 549755813881");
  // A batch past what one launch takes (2^31 - 1 transforms, one a work-group here) is planned:
  // it runs in several launches (GpuFftPlan.PassesSplitIntoLaunchesOfFewerTransforms).
  desc.kind = Kind::c2c;
  desc.shape = {4096};
  desc.batch = std::size_t{1} << 31;
  EXPECT_NO_THROW(DevicePlan(queue(), desc));
}

// r2c (forward) or c2r (backward) per desc: host data laid out per desc (reals on the real side,
// n/2 + 1 complex values per transform on the other), outputs poisoned with NaN, compared with
// the long-double reference (c2r: the Hermitian spectrum with the imaginary parts of X[0] and
// X[n/2] dropped, as numpy) and fft::Plan.
template <class T>
double check_real(const Queue& q, const PlanDesc& desc) {
  using C = std::complex<T>;
  const bool r2c = desc.kind == Kind::r2c;
  const DevicePlan plan(q, desc);
  SCOPED_TRACE(plan.describe());
  const Plan cpu(desc);
  EXPECT_EQ(plan.input_span(), cpu.input_span());
  EXPECT_EQ(plan.output_span(), cpu.output_span());
  const std::size_t n = desc.shape[0], h = n / 2 + 1;
  const std::size_t n_in = r2c ? n : h, n_out = r2c ? h : n;
  const std::ptrdiff_t in_dist = desc.batch == 1 ? 0 : desc.in_dist ? desc.in_dist : n_in * desc.in_stride;
  const std::ptrdiff_t out_dist = desc.batch == 1 ? 0 : desc.out_dist ? desc.out_dist : n_out * desc.out_stride;
  const auto values = gpu::test::random_complex<T>(n * desc.batch, static_cast<unsigned>(n + 1));
  const long double scale = desc.norm == Norm::ortho                     ? 1.0L / std::sqrt((long double)n)
                            : (desc.norm == Norm::backward) == r2c ? 1.0L
                                                                        : 1.0L / n;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<cld> want;
  std::vector<C> got, cpu_got;
  auto gather = [&](const auto& y) {
    std::vector<std::complex<long double>> v;
    for (std::size_t b = 0; b < desc.batch; ++b)
      for (std::size_t i = 0; i < n_out; ++i) v.emplace_back(y[b * out_dist + i * desc.out_stride]);
    return v;
  };
  std::vector<cld> device_out, cpu_out;
  if (r2c) {
    std::vector<T> host(plan.input_span(), T(0));
    for (std::size_t b = 0; b < desc.batch; ++b)
      for (std::size_t i = 0; i < n; ++i) host[b * in_dist + i * desc.in_stride] = values[b * n + i].real();
    Buffer<T> in(q, std::span<const T>(host));
    Buffer<C> out = poisoned<T>(q, plan.output_span());
    plan.execute(in, out);
    device_out = gather(out.to_vector());
    std::vector<C> c(plan.output_span());
    cpu.execute(host.data(), c.data());
    cpu_out = gather(c);
    for (std::size_t b = 0; b < desc.batch; ++b) {
      std::vector<cld> row;
      for (std::size_t i = 0; i < n; ++i) row.emplace_back(values[b * n + i].real(), 0);
      const auto y = ::ripple::test::reference_dft(row, true);
      for (std::size_t k = 0; k < h; ++k) want.push_back(y[k] * scale);
    }
  } else {
    std::vector<C> host(plan.input_span(), C(0, 0));
    for (std::size_t b = 0; b < desc.batch; ++b)
      for (std::size_t k = 0; k < h; ++k) host[b * in_dist + k * desc.in_stride] = values[b * n + k];
    Buffer<C> in(q, std::span<const C>(host));
    const std::vector<T> poison(plan.output_span(), nan);
    Buffer<T> out(q, std::span<const T>(poison));
    plan.execute(in, out);
    device_out = gather(out.to_vector());
    std::vector<T> r(plan.output_span());
    cpu.execute(host.data(), r.data());
    cpu_out = gather(r);
    for (std::size_t b = 0; b < desc.batch; ++b) {
      std::vector<cld> full(n);
      for (std::size_t k = 0; k < h; ++k) full[k] = values[b * n + k];
      full[0].imag(0);
      if (n % 2 == 0) full[n / 2].imag(0);
      for (std::size_t k = h; k < n; ++k) full[k] = std::conj(full[n - k]);
      for (const cld& v : ::ripple::test::reference_dft(full, false)) want.emplace_back(v.real() * scale, 0);
    }
  }
  const double err = rel_l2(device_out, want);
  EXPECT_LE(err, gpu::test::fft_bound<T>(n));  // NaN (an unwritten element) fails too
  EXPECT_LE(rel_l2(device_out, cpu_out), 2 * gpu::test::fft_bound<T>(n)) << "differs from fft::Plan";
  return err / gpu::test::fft_bound<T>(n);
}

TEST_P(DeviceFftApi, RealTransformsMatchTheReferenceAndTheCpuPlan) {
  double worst = 0;
  // Even sizes whose half is one kernel (120, 2048), Bluestein in one kernel (194) and two
  // passes (118098: around the complex plan); odd sizes, 1 around the complex plan, 15 and 97
  // (Bluestein) in one kernel. fft_real_test.cpp checks each way on more sizes and layouts.
  for (const std::size_t n : {std::size_t{120}, std::size_t{2048}, std::size_t{194}, std::size_t{118098},
                              std::size_t{1}, std::size_t{15}, std::size_t{97}})
    for (const Kind kind : {Kind::r2c, Kind::c2r}) {
      SCOPED_TRACE("n " + std::to_string(n));
      PlanDesc desc = c2c(n, n > 4096 ? 1 : 3, Precision::f32,
                          kind == Kind::r2c ? Direction::forward : Direction::backward, Norm::backward);
      desc.kind = kind;
      worst = std::max(worst, check_real<float>(queue(), desc));
      if (n > 4096) continue;
      desc.norm = Norm::ortho;  // the real side strided (pack / unpack), the complex side padded
      (kind == Kind::r2c ? desc.in_stride : desc.out_stride) = 2;
      (kind == Kind::r2c ? desc.out_dist : desc.in_dist) = n / 2 + 4;
      worst = std::max(worst, check_real<float>(queue(), desc));
      PlanDesc inner = c2c(n, 4, Precision::f32, desc.direction, Norm::forward);  // innermost batching
      inner.kind = kind;
      inner.in_stride = inner.out_stride = 4;
      inner.in_dist = inner.out_dist = 1;
      worst = std::max(worst, check_real<float>(queue(), inner));
      if (has_fp64()) {
        PlanDesc d = c2c(n, 2, Precision::f64, desc.direction, Norm::backward);
        d.kind = kind;
        worst = std::max(worst, check_real<double>(queue(), d));
      }
    }
  std::printf("[ fft DevicePlan r2c/c2r ] worst error / bound: %.3f\n", worst);
}

// In place (execute(data)): each transform's reals and complex values in one buffer, compared
// with the same plan out of place (checked above against the reference). Every element outside
// the input layout is NaN, so an output element left unwritten (holding an input value or NaN)
// fails the comparison.
template <class T>
double check_real_in_place(const Queue& q, const PlanDesc& desc, unsigned seed) {
  using C = std::complex<T>;
  const bool r2c = desc.kind == Kind::r2c;
  const DevicePlan plan(q, desc);
  SCOPED_TRACE(plan.describe());
  const std::size_t n = desc.shape.back(), half = n / 2 + 1;
  std::size_t rows = desc.batch;  // lines along the last axis, packed on the complex side when rank > 1
  for (std::size_t a = 0; a + 1 < desc.shape.size(); ++a) rows *= desc.shape[a];
  // Element i of row r on one side: rank 1 in the desc's layout, rank > 1 packed.
  const auto at = [&](bool input, std::size_t r, std::size_t i) {
    const bool real_side = input == r2c;
    const std::size_t count = real_side ? n : half;
    if (desc.shape.size() > 1) return r * count + i;
    const std::ptrdiff_t stride = input ? desc.in_stride : desc.out_stride;
    const std::ptrdiff_t dist = input ? desc.in_dist : desc.out_dist;
    return r * static_cast<std::size_t>(dist ? dist : static_cast<std::ptrdiff_t>(count) * stride) + i * stride;
  };
  const std::size_t reals = r2c ? plan.input_span() : plan.output_span();
  const std::size_t values = r2c ? plan.output_span() : plan.input_span();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<C> data(std::max(values, (reals + 1) / 2), C(nan, nan));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<T> u(-1, 1);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t i = 0; i < (r2c ? n : half); ++i) {
      if (r2c)
        reinterpret_cast<T*>(data.data())[at(true, r, i)] = u(rng);
      else
        data[at(true, r, i)] = C(u(rng), u(rng));
    }
  // The same input in a buffer of its own, out of place.
  std::vector<cld> expected, got;
  Buffer<C> in_place(q, std::span<const C>(data));
  if (r2c) {
    const std::vector<T> reals_in(reinterpret_cast<const T*>(data.data()),
                                  reinterpret_cast<const T*>(data.data()) + plan.input_span());
    Buffer<C> out = poisoned<T>(q, plan.output_span());
    plan.execute(Buffer<T>(q, std::span<const T>(reals_in)), out);
    const std::vector<C> y = out.to_vector();
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t k = 0; k < half; ++k) expected.emplace_back(y[at(false, r, k)]);
  } else {
    Buffer<T> out(q, plan.output_span());
    plan.execute(Buffer<C>(q, std::span<const C>(data.data(), plan.input_span())), out);
    const std::vector<T> y = out.to_vector();
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t i = 0; i < n; ++i) expected.emplace_back(y[at(false, r, i)]);
  }
  plan.execute(in_place);
  const std::vector<C> y = in_place.to_vector();
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t i = 0; i < (r2c ? half : n); ++i) {
      if (r2c)
        got.emplace_back(y[at(false, r, i)]);
      else
        got.emplace_back(reinterpret_cast<const T*>(y.data())[at(false, r, i)]);
    }
  std::size_t total = 1;
  for (std::size_t v : desc.shape) total *= v;
  const double bound = gpu::test::fft_bound<T>(total);
  const double err = rel_l2(got, expected);
  EXPECT_LE(err, bound) << "in place differs from out of place";
  return err / bound;
}

TEST_P(DeviceFftApi, RealTransformsRunInPlace) {
  double worst = 0;
  // One kernel (even 120, odd 15, Bluestein's 97), the n = 2 kernels, two passes (10000, 118098),
  // in cuFFT's in-place layout.
  for (const std::size_t n : {std::size_t{120}, std::size_t{15}, std::size_t{97}, std::size_t{2}, std::size_t{10000},
                              std::size_t{118098}})
    for (const Kind kind : {Kind::r2c, Kind::c2r}) {
      SCOPED_TRACE("n " + std::to_string(n) + " " + (kind == Kind::r2c ? "r2c" : "c2r"));
      PlanDesc desc = c2c(n, 3, Precision::f32, kind == Kind::r2c ? Direction::forward : Direction::backward,
                          Norm::ortho);
      desc.kind = kind;
      const auto padded = static_cast<std::ptrdiff_t>(2 * (n / 2 + 1));
      (kind == Kind::r2c ? desc.in_dist : desc.out_dist) = padded;
      worst = std::max(worst, check_real_in_place<float>(queue(), desc, 10 + n));
      if (has_fp64() && n < 5000) {
        desc.precision = Precision::f64;
        (kind == Kind::r2c ? desc.out_dist : desc.in_dist) = padded / 2 + 3;  // more room between rows
        (kind == Kind::r2c ? desc.in_dist : desc.out_dist) = padded + 6;
        worst = std::max(worst, check_real_in_place<double>(queue(), desc, 20 + n));
      }
      // One transform in any layout: the real side strided.
      PlanDesc one = c2c(n, 1, Precision::f32, desc.direction, Norm::backward);
      one.kind = kind;
      (kind == Kind::r2c ? one.in_stride : one.out_stride) = 3;
      worst = std::max(worst, check_real_in_place<float>(queue(), one, 30 + n));
    }
  // Rank 2 c2r: its other axis goes through a work array first.
  PlanDesc nd = c2c(10, 2, Precision::f32, Direction::backward, Norm::backward);
  nd.shape = {6, 10};
  nd.kind = Kind::c2r;
  worst = std::max(worst, check_real_in_place<float>(queue(), nd, 40));
  // One line of rank 2: any layout, as one transform of rank 1.
  PlanDesc line = c2c(16, 1, Precision::f32, Direction::forward, Norm::backward);
  line.shape = {1, 16};
  line.kind = Kind::r2c;
  worst = std::max(worst, check_real_in_place<float>(queue(), line, 41));
  std::printf("[ fft DevicePlan r2c/c2r in place ] worst error / bound: %.3f\n", worst);
}

TEST_P(DeviceFftApi, InPlaceRejectsLayoutsItCannotRun) {
  Buffer<std::complex<float>> data(queue(), 4096);
  const auto expect_rejected = [&](const PlanDesc& desc, std::initializer_list<std::string_view> words) {
    const DevicePlan plan(queue(), desc);
    expect_invalid([&] { plan.execute(data); }, words);
  };
  PlanDesc packed = c2c(64, 4, Precision::f32, Direction::forward, Norm::backward);
  packed.kind = Kind::r2c;  // rows of 64 reals under rows of 33 complex values: not the same bytes
  expect_rejected(packed, {"in place", "distance 64", "distance 33", "two buffers"});
  packed.in_dist = 66;
  packed.in_stride = 2;
  expect_rejected(packed, {"in place", "stride 2"});
  PlanDesc nd = c2c(8, 1, Precision::f32, Direction::forward, Norm::backward);
  nd.shape = {4, 8};
  nd.kind = Kind::r2c;
  expect_rejected(nd, {"rank 2", "two buffers"});
  PlanDesc big = c2c(4096, 2, Precision::f32, Direction::forward, Norm::backward);
  big.kind = Kind::r2c;
  big.in_dist = 2 * 2049;
  expect_rejected(big, {"data holds 4096", "4098"});
  if (has_fp64()) {
    PlanDesc f64 = c2c(16, 1, Precision::f64, Direction::forward, Norm::backward);
    f64.kind = Kind::r2c;
    expect_rejected(f64, {"std::complex<float>", "f32", "r2c f64"});
  }
}

}  // namespace
}  // namespace ripple::fft
