// A cascade pushed in blocks and chunks of any sizes equals its stages applied one after
// another to the whole signal by ripple's one-shot functions in double; the steady state does
// not allocate; bad stages and samples are rejected.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <complex>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <random>
#include <vector>

#include "common/expect_invalid.hpp"
#include "common/rel_l2.hpp"
#include "ripple/fir.hpp"
#include "ripple/iir.hpp"
#include "ripple/multirate.hpp"
#include "ripple/pipeline.hpp"
#include "ripple/runtime.hpp"

// Counts allocations, so the test can check that a steady-state block allocates nothing. Every
// form of operator new and delete is replaced, so memory from one is never freed by another's
// counterpart (AddressSanitizer checks that).
namespace {
std::atomic<std::size_t> g_allocations{0};

void* counted_alloc(std::size_t n, std::size_t align) {
  ++g_allocations;
  n = n == 0 ? 1 : n;
  return align <= alignof(std::max_align_t) ? std::malloc(n) : std::aligned_alloc(align, (n + align - 1) / align * align);
}
}  // namespace

void* operator new(std::size_t n) {
  if (void* p = counted_alloc(n, 0)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, std::align_val_t a) {
  if (void* p = counted_alloc(n, std::size_t(a))) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n, 0); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_alloc(n, std::size_t(a));
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t& t) noexcept { return operator new(n, a, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace ripple::pipeline {
namespace {

using C = std::complex<float>;
using Cd = std::complex<double>;

const multirate::CicSpec kCic{.stages = 4, .ratio = 8, .delay = 1, .input_bits = 16};
constexpr double kFs = 2.4e6 / 8, kShift = -31.25e3;

std::vector<double> compensator() { return multirate::cic_compensator(kCic, 31, 0.4); }
std::vector<double> resampler() { return fir::firwin(48, {1.0 / 3}, {.scale = true}); }
iir::Sos lowpass() { return iir::butter(6, 0.2); }

// Integer IQ samples (as cs16 data converted to float): a tone plus noise.
std::vector<C> recording(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, 300.0);
  std::vector<C> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double phase = 2 * M_PI * 0.013 * double(i);
    x[i] = C(float(std::nearbyint(8000 * std::cos(phase) + noise(rng))), float(std::nearbyint(8000 * std::sin(phase) + noise(rng))));
  }
  return x;
}

template <class T>
ArrayView<const T> view(const std::vector<T>& v) {
  return ArrayView<const T>(v.data(), {v.size()});
}

// The same cascade, each stage on the whole signal at once, in double.
std::vector<Cd> reference(const std::vector<C>& x) {
  // CIC: the exact integer decimator, I and Q as two channels, over the gain.
  multirate::CicDecimator<std::int32_t> cic(kCic, 2);
  std::vector<std::int32_t> ints;
  for (C v : x) {
    ints.push_back(std::int32_t(v.real()));
    ints.push_back(std::int32_t(v.imag()));
  }
  std::vector<std::int64_t> exact;
  cic.process(std::span<const std::int32_t>(ints), exact);
  std::vector<Cd> y;
  const double gain = multirate::cic_gain(kCic);
  for (std::size_t i = 0; i < exact.size(); i += 2) y.emplace_back(double(exact[i]) / gain, double(exact[i + 1]) / gain);
  // FIR: the full convolution cut to the input's length (lfilter(h, 1, y)).
  const auto h = compensator();
  auto filtered = fir::upfirdn(std::span<const double>(h), view(y));
  y.assign(filtered.values.begin(), filtered.values.begin() + static_cast<std::ptrdiff_t>(y.size()));
  // Shift: e^{i 2 pi f n / fs} computed directly.
  for (std::size_t n = 0; n < y.size(); ++n) {
    const long double turns = (long double)kShift / kFs * (long double)n;
    const long double frac = turns - std::floor(turns);
    y[n] *= Cd(double(std::cos(2 * M_PIl * frac)), double(std::sin(2 * M_PIl * frac)));
  }
  // Resample 3/2: upfirdn in full (the pipeline's finish() emits the same tail).
  const auto r = resampler();
  auto resampled = fir::upfirdn(std::span<const double>(r), view(y), 3, 2);
  y.assign(resampled.values.begin(), resampled.values.end());
  // IIR.
  auto out = iir::sosfilt(lowpass(), view(y));
  return {out.values.begin(), out.values.end()};
}

Pipeline<C> cascade(std::size_t block) {
  Pipeline<C> p(block);
  const auto h = compensator();
  const auto r = resampler();
  p.add(cic_decimator<C>(kCic)).add(fir<C>(h)).add(shift<C>(kShift, kFs)).add(upfirdn<C>(r, 3, 2)).add(iir<C>(lowpass()));
  return p;
}

TEST(Pipeline, ChunkedCascadeEqualsTheStagesOnTheWholeSignal) {
  const auto x = recording(40000, 1);
  const auto expected = reference(x);
  std::mt19937 rng(7);
  for (std::size_t block : {1u, 7u, 257u, 4096u, 100000u}) {
    Pipeline<C> p = cascade(block);
    std::vector<C> y;
    const auto sink = [&](std::span<const C> out) { y.insert(y.end(), out.begin(), out.end()); };
    for (std::size_t at = 0; at < x.size();) {
      const std::size_t n = std::min<std::size_t>(std::uniform_int_distribution<std::size_t>(0, 3000)(rng), x.size() - at);
      p.push(std::span<const C>(x.data() + at, n), sink);
      at += n;
    }
    p.finish(sink);
    ASSERT_EQ(y.size(), expected.size()) << "block " << block;
    // Float through five stages (the IIR's poles at 0.2 Nyquist amplify rounding a little).
    EXPECT_LT(test::rel_l2(y, expected), 2e-6) << "block " << block;
  }
}

TEST(Pipeline, FinishStartsANewStreamAndStatsCountSamples) {
  const auto x = recording(5000, 2);
  Pipeline<C> p = cascade(512);
  std::vector<C> first, second;
  p.push(x, [&](std::span<const C> out) { first.insert(first.end(), out.begin(), out.end()); });
  p.finish([&](std::span<const C> out) { first.insert(first.end(), out.begin(), out.end()); });
  const auto stats = p.stats();
  ASSERT_EQ(stats.size(), 5u);
  EXPECT_EQ(stats[0].samples_in, 5000u);
  EXPECT_EQ(stats[0].samples_out, 5000u / 8);
  EXPECT_EQ(stats[1].samples_in, stats[0].samples_out);
  EXPECT_EQ(stats[3].samples_out, first.size());  // the resampler's output, tail included
  EXPECT_EQ(stats[4].samples_out, first.size());
  EXPECT_EQ(stats[0].name, "cic 4 stages, decimate 8");
  p.reset();
  EXPECT_EQ(p.stats()[0].samples_in, 0u);
  p.push(x, [&](std::span<const C> out) { second.insert(second.end(), out.begin(), out.end()); });
  p.finish([&](std::span<const C> out) { second.insert(second.end(), out.begin(), out.end()); });
  EXPECT_EQ(first, second);
  const Rate rate = p.rate();
  EXPECT_EQ(rate.up, 3u);
  EXPECT_EQ(rate.down, 16u);
}

TEST(Pipeline, SteadyStateBlocksDoNotAllocate) {
  // One thread: a pool worker's scratch arena is allocated the first time that worker happens
  // to claim work, which the warm-up cannot guarantee with several threads.
  const unsigned threads = default_threads();
  set_threads(1);
  const auto x = recording(64 * 1024, 3);
  const auto r = resampler();
  const auto h = compensator();
  const auto long_h = fir::firwin(801, {0.1});  // long enough for FFT overlap-save
  std::vector<std::unique_ptr<Stage<C>>> stages;
  stages.push_back(cic_decimator<C>(kCic));
  stages.push_back(fir<C>(h));
  stages.push_back(fir<C>(long_h));
  stages.push_back(shift<C>(kShift, kFs));
  stages.push_back(upfirdn<C>(r, 3, 2));
  stages.push_back(resample<C>(3, 2));
  stages.push_back(without_tail<C>(upfirdn<C>(h, 1, 2)));
  stages.push_back(cic_decimator<C>(kCic, {.round = true}));
  stages.push_back(iir<C>(lowpass()));
  stages.push_back(map<C>("gain", [](std::span<C> v) {
    for (C& c : v) c *= 0.5f;
  }));
  for (auto& stage : stages) {
    const std::string name = stage->name();
    Pipeline<C> p(4096);
    p.add(std::move(stage));
    std::size_t produced = 0;
    const Pipeline<C>::Sink sink = [&](std::span<const C> out) { produced += out.size(); };
    const std::span<const C> all(x);
    p.push(all.first(16 * 1024), sink);  // warm-up: buffers, plans, scratch
    const std::size_t before = g_allocations.load();
    p.push(all.subspan(16 * 1024), sink);
    EXPECT_EQ(g_allocations.load() - before, 0u) << "allocations in 12 steady-state blocks of " << name;
    EXPECT_GT(produced, 0u);
  }
  set_threads(threads);
}

TEST(Pipeline, MapStageAndRealStreams) {
  Pipeline<float> p(3);
  p.add(map<float>("gain 2", [](std::span<float> x) {
    for (float& v : x) v *= 2;
  }));
  p.add(upfirdn<float>(std::vector<double>{1.0}, 1, 2));
  std::vector<float> y;
  const std::vector<float> x{1, 2, 3, 4, 5, 6, 7};
  p.push(x, [&](std::span<const float> out) { y.insert(y.end(), out.begin(), out.end()); });
  p.finish([&](std::span<const float> out) { y.insert(y.end(), out.begin(), out.end()); });
  EXPECT_EQ(y, (std::vector<float>{2, 6, 10, 14}));
}

std::vector<C> run_all(std::unique_ptr<Stage<C>> stage, const std::vector<C>& x, std::size_t block) {
  Pipeline<C> p(block);
  p.add(std::move(stage));
  std::vector<C> y;
  const Pipeline<C>::Sink sink = [&](std::span<const C> out) { y.insert(y.end(), out.begin(), out.end()); };
  p.push(x, sink);
  p.finish(sink);
  return y;
}

TEST(Pipeline, ResampleStageIsResamplePoly) {
  const auto x = recording(20000, 5);
  for (auto [up, down] : {std::pair<std::size_t, std::size_t>{3, 7}, {1, 50}, {147, 160}}) {
    const auto once = fir::resample_poly(x, up, down);
    const auto y = run_all(resample<C>(up, down), x, 777);
    ASSERT_EQ(y.size(), once.size());
    EXPECT_LT(test::rel_l2(y, once), 1e-6) << up << "/" << down;
  }
  // Without its tail, a decimator gives n / R outputs: the one-shot upfirdn's first ones.
  const auto h = compensator();
  const auto full = run_all(upfirdn<C>(h, 1, 4), x, 1000);
  const auto cut = run_all(without_tail<C>(upfirdn<C>(h, 1, 4)), x, 1000);
  ASSERT_EQ(cut.size(), x.size() / 4);
  EXPECT_TRUE(std::equal(cut.begin(), cut.end(), full.begin()));
}

TEST(Pipeline, CicStageScalesAndRounds) {
  const auto x = recording(10000, 7);  // integers of 16 bits
  std::vector<C> scaled(x.size()), nudged(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    scaled[i] = x[i] / 32768.0f;
    nudged[i] = (x[i] + C(0.25f, -0.375f)) / 32768.0f;  // rounds back to x
  }
  const auto plain = run_all(cic_decimator<C>(kCic), x, 999);
  const auto from_scaled = run_all(cic_decimator<C>(kCic, {.scale = 32768}), scaled, 999);
  const auto from_nudged = run_all(cic_decimator<C>(kCic, {.scale = 32768, .round = true}), nudged, 999);
  ASSERT_EQ(from_scaled.size(), plain.size());
  ASSERT_EQ(from_nudged.size(), plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {  // the gain and the scale are powers of two
    ASSERT_EQ(from_scaled[i] * 32768.0f, plain[i]) << i;
    ASSERT_EQ(from_nudged[i], from_scaled[i]) << i;
  }
  test::expect_invalid([&] { run_all(cic_decimator<C>(kCic, {.scale = 32768}), nudged, 999); }, "not an integer");
  std::vector<C> loud = scaled;
  loud[5000] = C(1.0f, 0);  // 2^15 after scaling: one past the 16-bit range
  test::expect_invalid([&] { run_all(cic_decimator<C>(kCic, {.scale = 32768, .round = true}), loud, 999); }, "range");
  loud[5000] = C(std::numeric_limits<float>::quiet_NaN(), 0);
  test::expect_invalid([&] { run_all(cic_decimator<C>(kCic, {.scale = 32768, .round = true}), loud, 999); }, "nan");
  test::expect_invalid([] { cic_decimator<C>(kCic, {.scale = 0}); }, "scale");
  test::expect_invalid([] { without_tail<C>(nullptr); }, "null");
}

TEST(Pipeline, RejectsBadStagesAndSamples) {
  test::expect_invalid([] { Pipeline<C> p(0); }, "block");
  test::expect_invalid([] { Pipeline<C>().add(nullptr); }, "null");
  test::expect_invalid([] { shift<float>(1e3, 48e3); }, "complex");
  test::expect_invalid([] { shift<C>(30e3, 48e3); }, "30000");
  test::expect_invalid([] { map<C>("tap", {}); }, "tap");
  test::expect_invalid([] { fir<C>(std::vector<double>{}); }, "h");
  Pipeline<C> p;
  p.add(cic_decimator<C>(kCic));
  const std::vector<C> bad{C(1, 2), C(0.5f, 0)};
  test::expect_invalid([&] { p.push(bad, [](std::span<const C>) {}); }, "0.5");
  const std::vector<C> wide{C(40000, 0)};
  test::expect_invalid([&] { p.push(wide, [](std::span<const C>) {}); }, "40000");
}

}  // namespace
}  // namespace ripple::pipeline
