// The scratch of an N-D FFT's axis passes (src/fft/device_axis_passes.hpp) on every GPU device:
// the passes run one after another, so each pass's scratch lies over the others' in one region
// (gpu::ScratchStep). With the passes capped at a few points (max_pass), every axis runs in two
// or three passes through scratch of its own at small sizes. Checked: the region is the size
// the step layout gives, smaller than the pieces' sum, and is the one piece a plan owning its
// scratch lists; results over the shared bytes, run twice and in place, match fft::Plan in
// double; where the region cannot be had or bound, each pass gets its own, listed apart, and the
// results still match.
#include <gtest/gtest.h>

#include <complex>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "common/rel_l2.hpp"
#include "fft/device_axis_passes.hpp"
#include "fft/plan_desc.hpp"
#include "fft_test_util.hpp"
#include "gpu/scratch.hpp"
#include "gpu_test_util.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"

namespace ripple::gpu {
namespace {

using C = std::complex<float>;
using fft::Kind;

class GpuFftAxisPasses : public test::GpuTest {};
RIPPLE_INSTANTIATE_FOR_EACH_GPU(GpuFftAxisPasses);

struct Case {
  std::vector<std::size_t> shape;
  Kind kind;
  std::uint64_t cap;  // every 1-D plan's passes at most this many points
};

fft::PlanDesc desc_of(const Case& c, fft::Precision p) {
  fft::PlanDesc d;
  d.shape = c.shape;
  d.kind = c.kind;
  d.precision = p;
  d.direction = c.kind == Kind::c2r ? fft::Direction::backward : fft::Direction::forward;
  return d;
}

std::unique_ptr<fft::detail::DeviceAxisPasses> make_passes(Context& context, const Case& c) {
  const fft::PlanDesc d = desc_of(c, fft::Precision::f32);
  std::vector<std::size_t> axes(c.shape.size());
  for (std::size_t a = 0; a < axes.size(); ++a) axes[a] = a;
  auto passes = std::make_unique<fft::detail::DeviceAxisPasses>(context, c.shape, axes, c.kind, false,
                                                                fft::detail::check_plan_desc(d), "test", c.cap);
  passes->wait_ready();
  return passes;
}

std::size_t aligned(std::size_t bytes) { return (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment; }

// The passes of `c` made on `context` under a collector: the pieces they list, as a plan that
// defers its scratch to the caller's area (placeholders) or owns it, with the passes that hold
// them.
struct Collected {
  ScratchPieces pieces;
  std::unique_ptr<fft::detail::DeviceAxisPasses> passes;
  std::size_t sum() const {  // every piece apart
    std::size_t bytes = 0;
    for (const ScratchPieces::Piece& p : pieces.pieces) bytes += aligned(p.memory->bytes());
    return bytes;
  }
};

Collected collect(Context& context, const Case& c, bool deferred) {
  Collected out;
  out.pieces.deferred = deferred;
  const CollectScratch collecting(out.pieces);
  out.passes = make_passes(context, c);
  return out;
}

// The transform of `x` (complex values, or their real parts for r2c) by the passes, in place
// where asked, against fft::Plan in double: the relative L2 error.
double error_of(Context& ctx, const fft::detail::DeviceAxisPasses& passes, const Case& c, const std::vector<C>& x,
                bool in_place) {
  const fft::PlanDesc d = desc_of(c, fft::Precision::f64);
  const fft::Plan cpu(d);
  const bool real_in = c.kind == Kind::r2c, real_out = c.kind == Kind::c2r;
  const std::size_t in_values = cpu.input_span(), out_values = cpu.output_span();
  const std::size_t in_bytes = in_values * (real_in ? sizeof(float) : sizeof(C));
  const std::size_t out_bytes = out_values * (real_out ? sizeof(float) : sizeof(C));
  std::vector<float> in_floats;
  std::vector<double> reals;
  std::vector<std::complex<double>> values;
  for (std::size_t i = 0; i < in_values; ++i) {
    if (real_in) {
      in_floats.push_back(x[i].real());
      reals.push_back(x[i].real());
    } else {
      in_floats.push_back(x[i].real());
      in_floats.push_back(x[i].imag());
      values.emplace_back(x[i]);
    }
  }
  auto stream = ctx.create_stream();
  auto in = ctx.allocate(std::max(in_bytes, out_bytes));
  stream->upload(*in, 0, in_floats.data(), in_bytes);
  auto out = in_place ? nullptr : ctx.allocate(out_bytes);
  Memory& target = in_place ? *in : *out;
  if (!in_place) {
    const std::vector<float> nan(out_bytes / sizeof(float), std::numeric_limits<float>::quiet_NaN());
    stream->upload(target, 0, nan.data(), out_bytes);
  }
  passes.run(*stream, *in, target, d.direction, fft::detail::check_plan_desc(d).scale);  // the norm's, as fft::Plan's
  std::vector<float> y(out_bytes / sizeof(float));
  stream->download(target, 0, y.data(), out_bytes);
  stream->synchronize();
  if (real_out) {
    std::vector<double> want(out_values);
    cpu.execute(values.data(), want.data());
    return ripple::test::rel_l2(y, want);
  }
  std::vector<std::complex<double>> want(out_values);
  if (real_in)
    cpu.execute(reals.data(), want.data());
  else
    cpu.execute(values.data(), want.data());
  std::vector<std::complex<double>> got(out_values);
  for (std::size_t i = 0; i < out_values; ++i) got[i] = {y[2 * i], y[2 * i + 1]};
  return ripple::test::rel_l2(got, want);
}

// Two 2-D transforms: c2c with an axis of two passes (24 = 8 x 3) and one of three (512 = 8^3,
// two pieces in one step); c2r, whose work array is in use through the whole run, with the
// real axis's complex plan of 20 = 4 x 5 and 36 = 4 x 9.
const std::vector<Case> kCases{{{512, 24}, Kind::c2c, 8}, {{36, 40}, Kind::c2r, 16}};

TEST_P(GpuFftAxisPasses, PassesShareOneRegionOfScratch) {
  double worst = 0;
  unsigned seed = 1;
  for (const Case& c : kCases) {
    SCOPED_TRACE(::testing::PrintToString(c.shape) + (c.kind == Kind::c2c ? " c2c" : " c2r"));
    // The pieces as a plan deferring them to the caller's area lays them out.
    const Collected placeholders = collect(ctx(), c, true);
    const ScratchPieces& deferred = placeholders.pieces;
    std::vector<std::size_t> step_bytes(deferred.steps + 1, 0);
    for (const ScratchPieces::Piece& p : deferred.pieces) step_bytes[p.step] += aligned(p.memory->bytes());
    EXPECT_EQ(deferred.steps, c.shape.size()) << "a step per pass";
    std::size_t largest_step = 0;
    for (std::size_t s = 1; s < step_bytes.size(); ++s) largest_step = std::max(largest_step, step_bytes[s]);
    EXPECT_EQ(deferred.bytes(), step_bytes[0] + largest_step);
    EXPECT_LT(deferred.bytes(), placeholders.sum()) << "every pass has scratch of its own, so sharing saves some";
    if (c.kind == Kind::c2r) EXPECT_EQ(step_bytes[0], aligned(36 * 21 * sizeof(C))) << "the work array";

    // A plan owning its scratch: the passes' one region.
    const Collected owned = collect(ctx(), c, false);
    ASSERT_EQ(owned.pieces.pieces.size(), 1u);
    EXPECT_EQ(owned.pieces.bytes(), deferred.bytes());
    const fft::detail::DeviceAxisPasses* passes = owned.passes.get();
    SCOPED_TRACE(passes->describe());

    const double bound = test::fft_bound<float>(c.shape[0] * c.shape[1]);
    const std::size_t count = c.kind == Kind::c2r ? c.shape[0] * (c.shape[1] / 2 + 1) : c.shape[0] * c.shape[1];
    for (const bool in_place : {false, true}) {
      if (in_place && c.kind != Kind::c2c) continue;
      for (int run = 0; run < 2; ++run) {  // the second over what the first left in the scratch
        const double err = error_of(ctx(), *passes, c, test::random_complex<float>(count, seed++), in_place);
        EXPECT_LE(err, bound) << (in_place ? "in place, " : "") << "run " << run;
        worst = std::max(worst, err / bound);
      }
    }
  }
  std::printf("[ fft N-D passes over one scratch region ] worst error / bound: %.3f\n", worst);
}

// Placeholders that cannot be bound, as where a driver makes no sub-buffer of the region
// (clCreateSubBuffer out of resources): the passes fall back as when the region cannot be had.
class UnbindablePlaceholders final : public test::ForwardingContext {
 public:
  using ForwardingContext::ForwardingContext;
  std::unique_ptr<Memory> placeholder(std::size_t bytes) override { return std::make_unique<Unbindable>(bytes); }

 private:
  struct Unbindable final : Memory {
    using Memory::Memory;
    void* native_handle() const override { return nullptr; }
    Extent extent() const override { return {}; }
    void bind_to(const Memory&, std::size_t) override { throw DeviceError("test: no sub-buffer"); }
  };
};

// Where the one region cannot be had (its allocation refused, or its pieces not bound), each
// pass allocates its own: the plan lists them all, none over another (its work size is what it
// holds), and nothing it let go; the results still match.
TEST_P(GpuFftAxisPasses, EachPassHasItsOwnScratchWhereTheRegionCannotBeHad) {
  const Case& c = kCases.front();
  const Collected placeholders = collect(ctx(), c, true);
  test::FailingAllocation refused(ctx(), placeholders.pieces.bytes(), 1);  // the region's allocation
  UnbindablePlaceholders unbindable(ctx());
  for (Context* context : {static_cast<Context*>(&refused), static_cast<Context*>(&unbindable)}) {
    SCOPED_TRACE(context == &refused ? "region refused" : "pieces not bound");
    const Collected owned = collect(*context, c, false);
    ASSERT_EQ(owned.pieces.pieces.size(), placeholders.pieces.pieces.size()) << "each pass's pieces on their own";
    for (const ScratchPieces::Piece& p : owned.pieces.pieces) EXPECT_EQ(p.step, 0u) << "held at once";
    EXPECT_EQ(owned.pieces.bytes(), placeholders.sum());
    const double err = error_of(ctx(), *owned.passes, c, test::random_complex<float>(512 * 24, 7), false);
    EXPECT_LE(err, test::fft_bound<float>(512 * 24));
  }
  EXPECT_TRUE(refused.refused());
}

}  // namespace
}  // namespace ripple::gpu
