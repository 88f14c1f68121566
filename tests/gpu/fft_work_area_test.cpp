// fft::DevicePlan's work area (include/ripple/fft/device.hpp: WorkArea, work_bytes,
// set_work_area; src/gpu/scratch.hpp) on every device present and the CPU: a plan made for the
// caller's area reports the same work size as one that owns its scratch and, given an area full
// of garbage, gives the same bits, for each kind of scratch there is (two passes' scratch,
// Bluestein's passes', the real transform's work array, the copy of an input run in place, the
// N-D c2r's work array, and a plan of two pieces); two plans share one area run one after another; the misuses are refused
// by name.
#include <gtest/gtest.h>

#include <complex>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "common/expect_invalid.hpp"
#include "fft_test_util.hpp"
#include "gpu_test_util.hpp"
#include "ripple/error.hpp"
#include "ripple/fft/device.hpp"

namespace ripple::fft {
namespace {

using ::ripple::test::expect_invalid;
using C = std::complex<float>;

class DeviceFftWorkArea : public gpu::test::QueueTest {
 protected:
  bool on_gpu() const { return queue().device().kind() != DeviceKind::cpu; }
};
RIPPLE_INSTANTIATE_FOR_EACH_DEVICE(DeviceFftWorkArea);

PlanDesc desc_of(std::vector<std::size_t> shape, std::size_t batch, Kind kind = Kind::c2c) {
  PlanDesc d;
  d.shape = std::move(shape);
  d.batch = batch;
  d.kind = kind;
  d.direction = kind == Kind::c2r ? Direction::backward : Direction::forward;
  return d;
}

// An area of `bytes` whose every byte is 0xff (NaN as floats), so a pass reading scratch it
// did not write shows.
Buffer<std::byte> garbage(const Queue& q, std::size_t bytes) {
  Buffer<std::byte> area(q, bytes);
  area.upload(std::vector<std::byte>(bytes, std::byte{0xff}));
  return area;
}

std::vector<float> floats_of(const std::vector<C>& v) {
  const auto* f = reinterpret_cast<const float*>(v.data());
  return std::vector<float>(f, f + 2 * v.size());
}

// Runs `plan` on the same input (complex values, or reals for r2c) into a fresh output; returns
// the output as complex values' or reals' bits.
std::vector<float> run(const DevicePlan& plan, unsigned seed) {
  const PlanDesc& d = plan.desc();
  const std::size_t in_values = plan.input_span(), out_values = plan.output_span();
  const bool real_in = d.kind == Kind::r2c, real_out = d.kind == Kind::c2r;
  const std::vector<C> x = gpu::test::random_complex<float>(in_values, seed);
  std::vector<float> reals(in_values);
  for (std::size_t i = 0; i < in_values; ++i) reals[i] = x[i].real();
  const Queue& q = plan.queue();
  if (real_in) {
    Buffer<C> y(q, out_values);
    plan.execute(Buffer<float>(q, std::span<const float>(reals)), y);
    return floats_of(y.to_vector());
  }
  if (real_out) {
    Buffer<float> y(q, out_values);
    plan.execute(Buffer<C>(q, std::span<const C>(x)), y);
    return y.to_vector();
  }
  Buffer<C> data(q, std::span<const C>(x));
  if (d.in_stride == d.out_stride && d.in_dist == d.out_dist) {
    Buffer<C> y(q, out_values);
    plan.execute(data, y);
    return floats_of(y.to_vector());
  }
  plan.execute(data, data);  // in place with different sides: through a copy of the input
  return floats_of(data.to_vector());
}

TEST_P(DeviceFftWorkArea, TheCallersAreaServesAsTheOwnedScratch) {
  PlanDesc inner = desc_of({1024}, 4);  // innermost batching, in place: the input copied first
  inner.out_stride = 4;
  inner.out_dist = 1;
  PlanDesc nd_inner = desc_of({6, 10}, 2);
  nd_inner.in_stride = 2;
  nd_inner.in_dist = 1;
  const std::vector<PlanDesc> descs{
      desc_of({59049}, 2),                  // two passes through scratch
      desc_of({4099}, 2),                   // a prime: Bluestein's passes
      desc_of({118098}, 1, Kind::r2c),      // the real transform around a complex plan
      inner,
      desc_of({6, 10}, 2, Kind::c2r),       // N-D c2r: its work array
      desc_of({4, 118098}, 1, Kind::c2r),   // two pieces: the work array, the real axis's passes'
      nd_inner,                             // N-D c2c in place, sides differing: its input copy
  };
  unsigned seed = 1;
  for (const PlanDesc& d : descs) {
    const DevicePlan owned(queue(), d);
    DevicePlan caller(queue(), d, WorkArea::caller);
    SCOPED_TRACE(owned.describe());
    const std::size_t bytes = caller.work_bytes();
    EXPECT_EQ(bytes, owned.work_bytes());
    if (!on_gpu()) {
      EXPECT_EQ(bytes, 0u);
      continue;
    }
    ASSERT_GT(bytes, 0u);
    expect_invalid([&] { (void)run(caller, seed); }, {"WorkArea::caller", "set_work_area", std::to_string(bytes)});
    Buffer<std::byte> small(queue(), bytes - 1);
    expect_invalid([&] { caller.set_work_area(small); }, {"holds " + std::to_string(bytes - 1), "needs " + std::to_string(bytes)});
    Buffer<std::byte> area = garbage(queue(), bytes);
    caller.set_work_area(area);
    EXPECT_EQ(run(caller, seed), run(owned, seed));
    Buffer<std::byte> second = garbage(queue(), bytes + 4096);  // rebound, the first area gone
    caller.set_work_area(second);
    area = Buffer<std::byte>(queue(), 1);
    EXPECT_EQ(run(caller, seed + 100), run(owned, seed + 100)) << "rebound";
    ++seed;
  }
}

TEST_P(DeviceFftWorkArea, PlansShareOneAreaOneAfterAnother) {
  DevicePlan a(queue(), desc_of({59049}, 2), WorkArea::caller);
  DevicePlan b(queue(), desc_of({118098}, 1, Kind::r2c), WorkArea::caller);
  Buffer<std::byte> area = garbage(queue(), std::max<std::size_t>({a.work_bytes(), b.work_bytes(), 1}));
  a.set_work_area(area);
  b.set_work_area(area);
  const DevicePlan a_owned(queue(), a.desc()), b_owned(queue(), b.desc());
  const std::vector<float> want_a = run(a_owned, 7), want_b = run(b_owned, 8);
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(run(a, 7), want_a) << "round " << round;
    EXPECT_EQ(run(b, 8), want_b) << "round " << round;
  }
}

TEST_P(DeviceFftWorkArea, MisusesAreRefusedByName) {
  const PlanDesc d = desc_of({59049}, 1);
  DevicePlan owned(queue(), d);
  Buffer<std::byte> area(queue(), std::max<std::size_t>(owned.work_bytes(), 1));
  expect_invalid([&] { owned.set_work_area(area); }, {"owns its scratch", "WorkArea::caller"});
  if (!on_gpu()) return;
  DevicePlan caller(queue(), d, WorkArea::caller);
  // The data's buffer as the work area: large enough, but the transform would write over itself.
  Buffer<C> data(queue(), caller.work_bytes() / sizeof(C) + 59049);
  caller.set_work_area(data);
  Buffer<C> out(queue(), 59049);
  expect_invalid([&] { caller.execute(data, out); }, "the work area and in share memory");
  expect_invalid([&] { caller.execute(out, data); }, "the work area and out share memory");
  if (Device::list().size() > 1) {  // an area on another device (the CPU's)
    Buffer<std::byte> host(Queue(Device::cpu()), caller.work_bytes());
    expect_invalid([&] { caller.set_work_area(host); }, {"set_work_area", "the work area is on cpu"});
  }
}

}  // namespace
}  // namespace ripple::fft
