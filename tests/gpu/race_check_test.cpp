// The GPU kernels' local-memory hand-offs under a race detector. PoCL runs a group's work-items
// one after another between barriers, so a missing barrier where an item reads what a
// lower-numbered item wrote goes unnoticed there and breaks on a GPU. Oclgrind (an OpenCL
// simulator) reports any two accesses to one address by different items with no barrier
// between, whatever order they run in, and any access outside a buffer: ctest runs this binary
// with Oclgrind as its only OpenCL device (tests/gpu/CMakeLists.txt) and fails on its reports.
// Each program shape the kernels have (stage exchanges, idle items, several transforms a group,
// the split exchange, Rader's and Bluestein's steps, the real transforms' loads and stores, the
// r2c split pass's partners, innermost batching, the pass twiddle, in place) at sizes small
// enough to simulate; the results are checked against the long-double reference, so each
// program is known to have run. And the biquad cascade's two kernels (BiquadCascadeBothPaths).
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "common/reference_fft.hpp"
#include "common/rel_l2.hpp"
#include "fft_test_util.hpp"
#include "gpu/device_fft_plan.hpp"
#include "gpu/device_fft_real.hpp"
#include "gpu_test_util.hpp"
#include "iir/iir_test_util.hpp"
#include "ripple/iir.hpp"

namespace ripple::gpu {
namespace {

using ::ripple::test::cld;

class GpuRaceCheck : public test::GpuTest {};
RIPPLE_INSTANTIATE_FOR_EACH_GPU(GpuRaceCheck);

// Uploads `in`, runs `run(stream, in, out)` into out_count values of Out (into the input's own
// memory in place) and returns them.
template <class Out, class In, class Run>
std::vector<Out> run_on_device(Context& ctx, const std::vector<In>& in, std::size_t out_count, bool in_place,
                               const Run& run) {
  auto stream = ctx.create_stream();
  auto din = ctx.allocate(in.size() * sizeof(In));
  stream->upload(*din, 0, in.data(), in.size() * sizeof(In));
  std::unique_ptr<Memory> dout = in_place ? nullptr : ctx.allocate(out_count * sizeof(Out));
  Memory& target = in_place ? *din : *dout;
  run(*stream, *din, target);
  stream->synchronize();
  std::vector<Out> out(out_count);
  stream->download(target, 0, out.data(), out_count * sizeof(Out));
  return out;
}

// ctest runs this binary under Oclgrind only: without it (a wrong library path, say) no device
// would be found and every test below skipped, so its absence is a failure. (bench/gpu/run.sh
// runs the CUDA tests below under compute-sanitizer, without this one.)
TEST(GpuRaceCheckSetup, OclgrindIsAnOpenClDevice) {
  const auto devices = Device::list();
  EXPECT_TRUE(std::any_of(devices.begin(), devices.end(), test::is_oclgrind))
      << "no Oclgrind device: run with RIPPLE_OPENCL_LIBRARY set to Oclgrind's liboclgrind-rt.so";
}

// `batch` contiguous transforms of n points (or, innermost, interleaved: element e of entry b
// at b + e * batch) by a plan capped at max_pass points a pass, forward, against the reference.
void check_c2c(Context& ctx, std::uint64_t n, std::uint64_t batch, std::uint64_t max_pass, bool innermost,
               bool in_place = false) {
  using C = std::complex<float>;
  FftLayout l;
  l.batch = batch;
  if (innermost) {
    l.in_stride = l.out_stride = static_cast<std::int64_t>(batch);
    l.in_dist = l.out_dist = 1;
  } else {
    l.in_dist = l.out_dist = static_cast<std::int64_t>(n);
  }
  const DeviceFftPlan plan(ctx, n, false, l, max_pass);
  SCOPED_TRACE("c2c n " + std::to_string(n) + " batch " + std::to_string(batch) + ": " + plan.describe());
  const auto x = test::random_complex<float>(n * batch, static_cast<unsigned>(n + batch));
  const auto at = [&](std::uint64_t b, std::uint64_t e) { return innermost ? b + e * batch : b * n + e; };
  std::vector<C> in(n * batch);
  for (std::uint64_t b = 0; b < batch; ++b)
    for (std::uint64_t e = 0; e < n; ++e) in[at(b, e)] = x[b * n + e];
  const auto y = run_on_device<C>(ctx, in, n * batch, in_place, [&](Stream& s, const Memory& i, Memory& o) {
    plan.run(s, i, o, fft::Direction::forward, 1.0);
  });
  std::vector<cld> got, want;
  for (std::uint64_t b = 0; b < batch; ++b) {
    const std::vector<cld> row(x.begin() + static_cast<std::ptrdiff_t>(b * n),
                               x.begin() + static_cast<std::ptrdiff_t>((b + 1) * n));
    for (const cld& v : ::ripple::test::reference_dft(row, true)) want.push_back(v);
    for (std::uint64_t e = 0; e < n; ++e) got.emplace_back(y[at(b, e)]);
  }
  EXPECT_LE(::ripple::test::rel_l2(got, want), test::fft_bound<float>(n));
}

// `batch` contiguous real transforms of n points each way, against the reference; in place,
// each transform's reals on the bytes of its complex values (rows of 2 (n/2 + 1) reals).
void check_real(Context& ctx, std::uint64_t n, bool r2c, std::uint64_t max_pass,
                std::uint64_t max_split_pass = kFftMaxSplitPass, bool in_place = false) {
  const std::uint64_t h = n / 2 + 1, batch = 2;
  const std::uint64_t row = in_place ? 2 * h : n;  // reals from one transform to the next
  FftLayout l;
  l.batch = batch;
  l.in_dist = static_cast<std::int64_t>(r2c ? row : h);
  l.out_dist = static_cast<std::int64_t>(r2c ? h : row);
  const DeviceFftReal plan(ctx, n, false, r2c, l, max_pass, max_split_pass);
  SCOPED_TRACE((r2c ? "r2c n " : "c2r n ") + std::to_string(n) + ": " + plan.describe());
  const auto x = test::random_complex<float>(n * batch, static_cast<unsigned>(2 * n + r2c));
  std::vector<cld> got, want;
  const auto run = [&](Stream& s, const Memory& i, Memory& o) { plan.run(s, i, o, 1.0); };
  if (r2c) {
    std::vector<float> in(row * batch);
    for (std::uint64_t b = 0; b < batch; ++b)
      for (std::uint64_t j = 0; j < n; ++j) in[b * row + j] = x[b * n + j].real();
    const auto spectrum = run_on_device<std::complex<float>>(ctx, in, h * batch, in_place, run);
    for (std::uint64_t b = 0; b < batch; ++b) {
      std::vector<cld> reals(n);
      for (std::uint64_t j = 0; j < n; ++j) reals[j] = in[b * row + j];
      const auto full = ::ripple::test::reference_dft(reals, true);
      want.insert(want.end(), full.begin(), full.begin() + static_cast<std::ptrdiff_t>(h));
      for (std::uint64_t k = 0; k < h; ++k) got.emplace_back(spectrum[b * h + k]);
    }
  } else {
    std::vector<std::complex<float>> in(h * batch);
    for (std::uint64_t b = 0; b < batch; ++b) {
      for (std::uint64_t k = 0; k < h; ++k) in[b * h + k] = x[b * n + k];
      in[b * h].imag(0);
      if (n % 2 == 0) in[b * h + h - 1].imag(0);
    }
    const auto signal = run_on_device<float>(ctx, in, row * batch, in_place, run);
    for (std::uint64_t b = 0; b < batch; ++b) {
      std::vector<cld> spectrum(n);
      for (std::uint64_t k = 0; k < h; ++k) spectrum[k] = in[b * h + k];
      for (std::uint64_t k = h; k < n; ++k) spectrum[k] = std::conj(spectrum[n - k]);
      for (const cld& v : ::ripple::test::reference_dft(spectrum, false)) want.emplace_back(v.real(), 0);
      for (std::uint64_t j = 0; j < n; ++j) got.emplace_back(signal[b * row + j]);
    }
  }
  EXPECT_LE(::ripple::test::rel_l2(got, want), test::fft_bound<float>(n));
}

// One kernel: stages exchanged through local memory (radices 2-16, items with idle butterflies,
// several transforms a group, the split exchange at 8192), n = 1, Rader's (97) and Bluestein's
// (47, 83) convolutions in the kernel, innermost batching, in place; packed batches staged
// through local memory (FFT_STAGED_IO: 16 by default, one stage on one work-item; 25 and 9
// forced, two stages of three and two work-items, 9 in place).
TEST_P(GpuRaceCheck, OneKernelC2c) {
  for (const std::uint64_t n : {1, 2, 16, 26, 60, 64, 77, 243, 256, 1024})
    check_c2c(ctx(), n, 3, kFftMaxOnChip, false);
  for (const std::uint64_t n : {47, 83, 97}) check_c2c(ctx(), n, 2, kFftMaxOnChip, false);
  check_c2c(ctx(), 60, 5, kFftMaxOnChip, true);
  {
    const ScopedFftShapeTuning forced({.staging = 1});
    check_c2c(ctx(), 25, 3, kFftMaxOnChip, false);
    check_c2c(ctx(), 9, 5, kFftMaxOnChip, false, true);
  }
  check_c2c(ctx(), 64, 3, kFftMaxOnChip, false, true);
  check_c2c(ctx(), 8192, 1, kFftMaxOnChip, false);
}

// Passes: the first with the pass twiddle in its store, three passes, a Rader prime as a pass
// of its own, innermost batching (every pass over the batch), in place; Bluestein's three fused
// passes (97 under a cap of 16) and five (under 13: 195 = 3 x 5 x 13), innermost-batched too;
// some again with every shape that can staged through local memory (FFT_STAGED_IO).
TEST_P(GpuRaceCheck, PassesC2c) {
  check_c2c(ctx(), 64, 2, 8, false);
  check_c2c(ctx(), 120, 2, 16, false);
  check_c2c(ctx(), 36, 2, 4, false);
  check_c2c(ctx(), 8 * 23, 2, 23, false);
  check_c2c(ctx(), 120, 4, 16, true);
  check_c2c(ctx(), 97, 2, 16, false);
  check_c2c(ctx(), 97, 2, 13, false);
  check_c2c(ctx(), 97, 3, 13, true);
  check_c2c(ctx(), 64, 2, 8, false, true);
  {  // every shape that can staged through local memory: column tiles, rows, three passes
    const ScopedFftShapeTuning forced({.staging = 1});
    check_c2c(ctx(), 64, 2, 8, false);
    check_c2c(ctx(), 120, 2, 16, false);
    check_c2c(ctx(), 36, 2, 4, false);
  }
}

// Real transforms in one kernel (even: the reals paired, the split in the store and the merge
// in the load, in two rounds at 16384; odd: widened, the Hermitian spectrum rebuilt; Rader's
// inside an even one), and
// through passes: the r2c's split in the last pass (partners in one group, an odd count of
// them), Bluestein's three fused passes with the split in their last, the split kernel after
// them, his five fused passes (131 and 262 under a cap of 16: 264 = 3 x 8 x 11); in place.
TEST_P(GpuRaceCheck, RealTransforms) {
  for (const bool r2c : {true, false}) {
    for (const std::uint64_t n : {2, 15, 26, 27, 60, 64, 16384}) check_real(ctx(), n, r2c, kFftMaxOnChip);
    check_real(ctx(), 120, r2c, 30);
    check_real(ctx(), 72, r2c, 4);
    check_real(ctx(), 105, r2c, 8);
    check_real(ctx(), 194, r2c, 64);
    check_real(ctx(), 131, r2c, 16);
    check_real(ctx(), 262, r2c, 16);
    // In place (fft::DevicePlan::execute(data)): one kernel, even and odd; passes.
    for (const std::uint64_t n : {2, 15, 64}) check_real(ctx(), n, r2c, kFftMaxOnChip, kFftMaxSplitPass, true);
    check_real(ctx(), 120, r2c, 30, kFftMaxSplitPass, true);
  }
  check_real(ctx(), 194, true, 64, 8);
}

// The biquad cascade's two kernels, the state carried through both: tiles (each block's affine
// maps scanned through local memory by warps and the block, then the look-back between tiles)
// and channels (a chunk of samples a channel staged through local memory), on 3 channels of 2
// sections, two whole tiles and a partial one. Run by gpu.oclgrind_races.sos, which holds it
// to local memory: the look-back between groups is a race by OpenCL 1.2's model.
TEST_P(GpuRaceCheck, BiquadCascadeBothPaths) {
  const Queue queue(device());
  const iir::Sos sos = iir::butter(4, 0.1);
  const std::size_t channels = 3, n = 5000;
  const auto x = iir::test::random_signal<float>(channels * n, 7);
  std::vector<long double> want;
  for (std::size_t c = 0; c < channels; ++c) {
    const std::vector<float> row(x.begin() + static_cast<std::ptrdiff_t>(c * n),
                                 x.begin() + static_cast<std::ptrdiff_t>((c + 1) * n));
    const auto y = iir::test::serial_sosfilt<long double, float>(sos, row);
    want.insert(want.end(), y.begin(), y.end());
  }
  for (const iir::DevicePath path : {iir::DevicePath::tiles, iir::DevicePath::channels}) {
    SCOPED_TRACE(path == iir::DevicePath::tiles ? "tiles" : "channels");
    iir::DeviceFilter<float> filter(queue, sos, channels);
    filter.set_path(path);
    Buffer<float> in(queue, std::span<const float>(x));
    const std::vector<float> nan(x.size(), std::numeric_limits<float>::quiet_NaN());
    Buffer<float> out(queue, std::span<const float>(nan));  // unwritten outputs fail the bound
    filter.process(in, out);
    EXPECT_LE(::ripple::test::rel_l2(out.to_vector(), want), 1e-5);
  }
}

}  // namespace
}  // namespace ripple::gpu
