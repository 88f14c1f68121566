// The GPU kernels executed on every GPU device (OpenCL on PoCL in CI; CUDA too on a GPU) against CPU
// references: batched strided copy/scale, the device scan (sum: exact; 2x2 affine maps: against a long-double
// serial composition) at lengths around the warp, the tile and many tiles, and the dialect smoke test. Device
// buffers through the public Queue/Buffer.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "dialect_smoke.hpp"
#include "gpu/device_copy.hpp"
#include "gpu/device_scan.hpp"
#include "gpu/program.hpp"
#include "gpu/queue_impl.hpp"
#include "gpu_test_util.hpp"
#include "ripple/device.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {
namespace {

class GpuBuffer : public test::GpuTest {};
RIPPLE_INSTANTIATE_FOR_EACH_GPU(GpuBuffer);

class GpuScan : public test::GpuTest {};
RIPPLE_INSTANTIATE_FOR_EACH_GPU(GpuScan);

class GpuDialect : public test::GpuTest {};
RIPPLE_INSTANTIATE_FOR_EACH_GPU(GpuDialect);

template <class T>
std::unique_ptr<Memory> to_device(Context& ctx, Stream& s, const std::vector<T>& host) {
  auto m = ctx.allocate(host.size() * sizeof(T));
  s.upload(*m, 0, host.data(), host.size() * sizeof(T));
  return m;
}

template <class T>
std::vector<T> from_device(Stream& s, const Memory& m, std::size_t n) {
  std::vector<T> host(n);
  s.download(m, 0, host.data(), n * sizeof(T));
  return host;
}

TEST_P(GpuBuffer, PublicQueueAndBufferRoundTrip) {
  Context* ctx = &this->ctx();
  const Device dev = device();
  Queue q(dev);
  EXPECT_EQ(q.device(), dev);
  std::vector<std::int32_t> host(10007);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<std::int32_t>(i * 7919 % 10007) - 5000;
  Buffer<std::int32_t> buf(q, std::span<const std::int32_t>(host));
  EXPECT_EQ(buf.to_vector(), host);
  const std::vector<std::int32_t> patch = {1, 2, 3};
  buf.upload(std::span<const std::int32_t>(patch), 10004);
  std::vector<std::int32_t> tail(4);
  buf.download(std::span<std::int32_t>(tail), 10003);
  EXPECT_EQ(tail, (std::vector<std::int32_t>{host[10003], 1, 2, 3}));
  EXPECT_THROW(buf.upload(std::span<const std::int32_t>(patch), 10005), InvalidArgument);
  q.synchronize();
  // Two queues on one device share its context, so buffers and programs are shared.
  Queue q2(dev);
  EXPECT_EQ(q2.impl()->context, q.impl()->context);
}

TEST_P(GpuBuffer, DeviceToDeviceCopy) {
  auto stream = ctx().create_stream();
  std::vector<std::uint32_t> a(1000), b(1000, 7);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::uint32_t>(i * 2654435761u);
  auto da = to_device(ctx(), *stream, a);
  auto db = to_device(ctx(), *stream, b);
  stream->copy(*da, 40, *db, 400, 2000);  // values 10..509 of a to 100..599 of b
  stream->synchronize();
  const auto got = from_device<std::uint32_t>(*stream, *db, b.size());
  for (std::size_t i = 0; i < b.size(); ++i)
    ASSERT_EQ(got[i], i >= 100 && i < 600 ? a[i - 90] : 7u) << i;
}

// Launch logic driven from public objects: a DeviceCopy between two Buffers of one Queue.
TEST_P(GpuBuffer, KernelsRunOnPublicBuffers) {
  Context* ctx = &this->ctx();
  Queue q(device());
  std::vector<std::complex<float>> host(300);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = {float(i), -float(i)};
  Buffer<std::complex<float>> in(q, std::span<const std::complex<float>>(host));
  Buffer<std::complex<float>> out(q, host.size());
  const DeviceCopy copy(context_of(q), false, true);
  CopyLayout l;
  l.count = host.size();
  copy.run(stream_of(q), memory_of(in.raw()), memory_of(out.raw()), l, {0, 2});  // times 2i
  q.synchronize();
  const auto back = out.to_vector();
  for (std::size_t i = 0; i < host.size(); ++i) ASSERT_EQ(back[i], host[i] * std::complex<float>(0, 2)) << i;
  // CPU queues and buffers are refused by name.
  Queue cpu(Device::cpu());
  Buffer<float> on_cpu(cpu, 4);
  try {
    memory_of(on_cpu.raw());
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("on cpu"), std::string::npos) << e.what();
  }
  EXPECT_THROW(stream_of(cpu), InvalidArgument);
}

class GpuCopy : public test::GpuTest {};
RIPPLE_INSTANTIATE_FOR_EACH_GPU(GpuCopy);

template <class T>
void check_copy(Context& ctx, bool complex) {
  auto stream = ctx.create_stream();
  const DeviceCopy copy(ctx, sizeof(T) == 8, complex);
  const int w = complex ? 2 : 1;  // reals per element
  CopyLayout l;
  l.count = 1000;
  l.batch = 7;
  l.in_stride = 2;
  l.in_dist = 2001;
  l.out_offset = l.count - 1;  // reversed elements
  l.out_stride = -1;
  l.out_dist = 1003;
  const std::size_t in_elems = 7 * 2001, out_elems = 7 * 1003;
  std::vector<T> in(in_elems * w);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<T>(std::sin(0.37 * double(i)) * 100);
  const T sentinel = T(-12345);
  std::vector<T> out(out_elems * w, sentinel);
  auto din = to_device(ctx, *stream, in);
  auto dout = to_device(ctx, *stream, out);
  const std::complex<double> scale = complex ? std::complex<double>(0.5, -0.25) : 3.0;
  copy.run(*stream, *din, *dout, l, scale);
  stream->synchronize();
  const auto got = from_device<T>(*stream, *dout, out.size());
  std::vector<T> want = out;
  for (std::uint64_t b = 0; b < l.batch; ++b)
    for (std::uint64_t i = 0; i < l.count; ++i) {
      const std::size_t s = b * l.in_dist + i * l.in_stride, d = l.out_offset + b * l.out_dist - i;
      if (complex) {
        const std::complex<T> x(in[2 * s], in[2 * s + 1]);
        const std::complex<T> y(x.real() * T(scale.real()) - x.imag() * T(scale.imag()),
                                x.real() * T(scale.imag()) + x.imag() * T(scale.real()));
        want[2 * d] = y.real();
        want[2 * d + 1] = y.imag();
      } else {
        want[d] = in[s] * T(scale.real());
      }
    }
  const T tol = sizeof(T) == 4 ? T(1e-4) : T(1e-12);
  for (std::size_t k = 0; k < want.size(); ++k) {
    if (want[k] == sentinel) {
      ASSERT_EQ(got[k], sentinel) << "element " << k << " written outside the layout";
    } else {
      ASSERT_NEAR(got[k], want[k], tol * (1 + std::abs(want[k]))) << "element " << k;
    }
  }
  // A layout reaching past the output is refused before launching.
  CopyLayout bad = l;
  bad.out_dist = 1004;
  EXPECT_THROW(copy.run(*stream, *din, *dout, bad, scale), InvalidArgument);
  bad = l;
  bad.out_offset = 0;  // reversed from 0: index -1
  try {
    copy.run(*stream, *din, *dout, bad, scale);
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("reaches index -"), std::string::npos) << e.what();
  }
  if (!complex) EXPECT_THROW(copy.run(*stream, *din, *dout, l, {1.0, 1.0}), InvalidArgument);
}

TEST_P(GpuCopy, BatchedStridedScaledMatchesCpuInEveryVariant) {
  for (const bool dbl : {false, true})
    for (const bool complex : {false, true}) {
      SCOPED_TRACE(std::string(dbl ? "f64" : "f32") + (complex ? " complex" : " real"));
      if (dbl)
        check_copy<double>(ctx(), complex);
      else
        check_copy<float>(ctx(), complex);
    }
}

// Runs the scan of `in` (n values of `words` reals) and returns the result.
template <class T>
std::vector<T> device_scan(Context& ctx, const DeviceScan& scan, const std::vector<T>& in, std::uint64_t n,
                           DeviceScan::Workspace& ws, bool in_place = false) {
  auto stream = ctx.create_stream();
  auto din = to_device(ctx, *stream, in);
  std::unique_ptr<Memory> dout;
  if (!in_place) dout = ctx.allocate(in.size() * sizeof(T));
  scan.run(*stream, *din, in_place ? *din : *dout, n, ws);
  stream->synchronize();
  return from_device<T>(*stream, in_place ? *din : *dout, in.size());
}

std::vector<std::uint64_t> lengths_around(std::uint64_t tile) {
  return {1, 31, 32, 33, tile - 1, tile, tile + 1, 5 * tile + 3};
}

template <class T>
void check_sum_scan(Context& ctx, ScanConfig config, std::vector<std::uint64_t> lengths) {
  config.op = ScanOp::sum;
  config.double_precision = sizeof(T) == 8;
  const DeviceScan scan(ctx, config);
  const std::uint64_t max_n = *std::max_element(lengths.begin(), lengths.end());
  auto ws = scan.workspace(ctx, max_n);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> small(-8, 8);
  for (std::uint64_t n : lengths) {
    std::vector<T> in(n);
    for (auto& v : in) v = static_cast<T>(small(rng));  // partial sums stay exact in float
    const auto got = device_scan(ctx, scan, in, n, ws, n % 2 == 1);
    T acc = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      acc += in[i];
      ASSERT_EQ(got[i], acc) << "n " << n << " index " << i << " (tile " << scan.tile() << ")";
    }
  }
}

// Maps x -> r R(theta) x + b: contracting, so compositions stay bounded for any length.
template <class T>
void check_affine_scan(Context& ctx, ScanConfig config, std::vector<std::uint64_t> lengths) {
  config.op = ScanOp::affine2;
  config.double_precision = sizeof(T) == 8;
  const DeviceScan scan(ctx, config);
  ASSERT_EQ(scan.words(), 6u);
  const std::uint64_t max_n = *std::max_element(lengths.begin(), lengths.end());
  auto ws = scan.workspace(ctx, max_n);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> radius(0.9, 0.999), angle(-3.14, 3.14), offset(-1, 1);
  for (std::uint64_t n : lengths) {
    std::vector<T> in(6 * n);
    for (std::uint64_t i = 0; i < n; ++i) {
      const double r = radius(rng), a = angle(rng);
      T* m = &in[6 * i];
      m[0] = T(r * std::cos(a));
      m[1] = T(-r * std::sin(a));
      m[2] = T(r * std::sin(a));
      m[3] = T(r * std::cos(a));
      m[4] = T(offset(rng));
      m[5] = T(offset(rng));
    }
    const auto got = device_scan(ctx, scan, in, n, ws);
    // Serial composition in long double: P_i = M_i o P_{i-1}.
    long double p[6] = {1, 0, 0, 1, 0, 0};
    double worst = 0;
    std::uint64_t worst_at = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const T* m = &in[6 * i];
      const long double q[6] = {m[0] * p[0] + m[1] * p[2],        m[0] * p[1] + m[1] * p[3],
                                m[2] * p[0] + m[3] * p[2],        m[2] * p[1] + m[3] * p[3],
                                m[0] * p[4] + m[1] * p[5] + m[4], m[2] * p[4] + m[3] * p[5] + m[5]};
      std::copy(q, q + 6, p);
      for (int k = 0; k < 6; ++k) {
        const double err = std::abs(double(got[6 * i + k] - p[k])) / (1 + std::abs(double(p[k])));
        if (err > worst) worst = err, worst_at = i;
      }
    }
    // The scan regroups the products (log depth), so its rounding differs from the serial
    // order by a few units in the last place, times the conditioning of the maps (<= 1/(1-r)).
    const double tol = sizeof(T) == 4 ? 2e-3 : 5e-12;
    EXPECT_LT(worst, tol) << "n " << n << ", worst at " << worst_at << " (tile " << scan.tile() << ")";
  }
}

TEST_P(GpuScan, SumFloatExactAtEveryLength) {
  Context* ctx = &this->ctx();
  ScanConfig c;
  auto lengths = lengths_around(DeviceScan(*ctx, {ScanOp::sum}).tile());
  lengths.push_back(1000000);
  check_sum_scan<float>(*ctx, c, lengths);
}

TEST_P(GpuScan, SumDoubleExactAtEveryLength) {
  Context* ctx = &this->ctx();
  ScanConfig c;
  c.double_precision = true;
  check_sum_scan<double>(*ctx, c, lengths_around(DeviceScan(*ctx, c).tile()));
}

TEST_P(GpuScan, SumWithASmallOddTile) {
  Context* ctx = &this->ctx();
  ScanConfig c;
  c.block = 64;
  c.items = 3;  // tile 192: tiles not a power of two, two logical warps
  check_sum_scan<float>(*ctx, c, lengths_around(192));
}

// Most tiles find their predecessor's inclusive prefix already posted; here only every 4th
// tile posts one, so look-back must combine up to 3 aggregates; with every 45th, walks cross
// windows of 32 predecessors (look_back.h reads 32 at a time) and end at any lane of one.
TEST_P(GpuScan, LookBackOverAggregates) {
  Context* ctx = &this->ctx();
  ScanConfig c;
  c.block = 64;
  c.items = 2;
  c.test_prefix_every = 4;
  check_sum_scan<float>(*ctx, c, {1, 127, 128, 129, 4 * 128 + 5, 37 * 128 + 100});
  c.op = ScanOp::affine2;
  check_affine_scan<float>(*ctx, c, {37 * 128 + 100});
  c.op = ScanOp::sum;
  c.test_prefix_every = 45;
  check_sum_scan<float>(*ctx, c, {33 * 128, 100 * 128 + 5});
  c.op = ScanOp::affine2;
  check_affine_scan<float>(*ctx, c, {100 * 128 + 5});
}

TEST_P(GpuScan, Affine2FloatMatchesLongDoubleComposition) {
  Context* ctx = &this->ctx();
  ScanConfig c;
  c.op = ScanOp::affine2;
  auto lengths = lengths_around(DeviceScan(*ctx, c).tile());
  lengths.push_back(1000000);
  check_affine_scan<float>(*ctx, c, lengths);
}

TEST_P(GpuScan, Affine2DoubleMatchesLongDoubleComposition) {
  Context* ctx = &this->ctx();
  ScanConfig c;
  c.op = ScanOp::affine2;
  c.double_precision = true;
  auto lengths = lengths_around(DeviceScan(*ctx, c).tile());
  lengths.push_back(1000000);
  check_affine_scan<double>(*ctx, c, lengths);
}

TEST_P(GpuScan, RejectsBadConfigurationsAndSizes) {
  Context* ctx = &this->ctx();
  ScanConfig c;
  c.block = 48;
  try {
    DeviceScan bad(*ctx, c);
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("block 48"), std::string::npos) << e.what();
  }
  c.block = 0;
  c.items = 65;
  EXPECT_THROW(DeviceScan(*ctx, c), InvalidArgument);
  // A tile whose staging needs more local memory than the device has.
  c.op = ScanOp::affine2;
  c.double_precision = true;
  c.block = 1024;
  c.items = static_cast<unsigned>(std::min<std::uint64_t>(64, ctx->facts().local_memory / (1024 * 48) + 1));
  try {
    DeviceScan bad(*ctx, c);
    FAIL() << "local memory " << ctx->facts().local_memory;
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("bytes of local memory"), std::string::npos) << e.what();
  }
  const DeviceScan scan(*ctx, ScanConfig{});
  auto ws = scan.workspace(*ctx, 100);
  auto stream = ctx->create_stream();
  auto mem = ctx->allocate(1000 * sizeof(float));
  EXPECT_THROW(scan.run(*stream, *mem, *mem, 101, ws), InvalidArgument);
  auto ws_big = scan.workspace(*ctx, 5000);
  EXPECT_THROW(scan.run(*stream, *mem, *mem, 1001, ws_big), InvalidArgument);
}

TEST_P(GpuDialect, SmokeKernelUsesEveryPart) {
  Context* ctx = &this->ctx();
  for (const bool dbl : {false, true}) {
    ProgramSpec spec{{"dialect.h"}, {{"RIPPLE_DOUBLE", dbl ? "1" : "0"}}, test::kDialectSmoke};
    auto module = get_module(*ctx, spec);
    auto stream = ctx->create_stream();
    const std::uint64_t n = 1000;  // 4 groups of 256, the last partly idle
    std::vector<double> a(2 * n), b(2 * n);
    for (std::size_t i = 0; i < 2 * n; ++i) a[i] = 0.01 * double(i) - 3, b[i] = 1.5 - 0.002 * double(i);
    auto cast = [&](const std::vector<double>& v) {
      if (dbl) return to_device(*ctx, *stream, v);
      return to_device(*ctx, *stream, std::vector<float>(v.begin(), v.end()));
    };
    auto da = cast(a), db = cast(b);
    auto dout = ctx->allocate(2 * n * (dbl ? 8 : 4));
    auto dsum = to_device(*ctx, *stream, std::vector<std::uint64_t>{0});
    auto dcount = to_device(*ctx, *stream, std::vector<std::uint32_t>{0});
    Launch grid;
    grid.groups = {4, 1, 1};
    grid.block = {256, 1, 1};
    const Arg args[] = {Arg::memory(*da),   Arg::memory(*db),     Arg::memory(*dout),
                        Arg::memory(*dsum), Arg::memory(*dcount), Arg::value(n)};
    stream->launch(*module, "dialect_smoke", grid, args);
    stream->synchronize();
    std::vector<double> out(2 * n);
    if (dbl) {
      out = from_device<double>(*stream, *dout, 2 * n);
    } else {
      const auto f = from_device<float>(*stream, *dout, 2 * n);
      out.assign(f.begin(), f.end());
    }
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::complex<double> x(a[2 * i], a[2 * i + 1]), y(b[2 * i], b[2 * i + 1]);
      const std::complex<double> want = 2.0 * x * y.real() - 0.5 * x;
      ASSERT_NEAR(out[2 * i], want.real(), 1e-4 * (1 + std::abs(want))) << i;
      ASSERT_NEAR(out[2 * i + 1], want.imag(), 1e-4 * (1 + std::abs(want))) << i;
    }
    const std::uint64_t sum = from_device<std::uint64_t>(*stream, *dsum, 1)[0];
    EXPECT_EQ(sum, ((n * (n - 1) / 2) << 32) + n);  // needs all 64 bits of the atomic
    EXPECT_EQ(from_device<std::uint32_t>(*stream, *dcount, 1)[0], n);
  }
}

}  // namespace
}  // namespace ripple::gpu
