// fft::Plan on random descriptions (tests/fft/random_plans.hpp: sizes across every path the
// planner has, ranks 1 to 3, the three kinds, both precisions, directions, norms, one or two
// threads, and packed, strided, padded, innermost-batched and in-place layouts) against the
// long-double reference, through check_layout: outputs poisoned with NaN, gaps and guards
// holding a sentinel that must survive, the input of an out-of-place plan unchanged. The
// hand-picked tests beside this one cover each path on purpose; this one looks for the
// combinations nobody picked. RIPPLE_FFT_RANDOM_CASES (default 20, 6 under ASan),
// RIPPLE_FFT_RANDOM_SEED and RIPPLE_FFT_RANDOM_FIRST choose the cases; a failure names the
// environment that reruns it alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "fft_test_util.hpp"
#include "random_plans.hpp"

namespace ripple::fft::test {
namespace {

template <class T>
double check_random(const RandomPlan& c, std::uint64_t seed) {
  CheckResult result;
  switch (c.desc.kind) {
    case Kind::c2c: result = check_layout<T, Kind::c2c>(c.desc, seed, c.in_place); break;
    case Kind::r2c: result = check_layout<T, Kind::r2c>(c.desc, seed); break;
    case Kind::c2r: result = check_layout<T, Kind::c2r>(c.desc, seed); break;
  }
  return std::isnan(result.worst_error) ? INFINITY : result.worst_error / tolerance<T>();
}

TEST(FftRandom, PlansMatchTheReference) {
  const RandomRun r = random_run(20, 6);
  Tally tally;
  for (std::uint64_t index = r.first; index < r.first + r.count; ++index) {
    SizeDraw draw(seed_for(index, r.seed));
    RandomPlan c = random_plan(draw);
    c.desc.threads = 1 + static_cast<unsigned>(draw.below(2));
    SCOPED_TRACE(case_name(r, index) + ": " + describe(c.desc) + (c.in_place ? " in place" : ""));
    if (c.invalid) {  // drawn invalid: must be rejected, naming the field
      expect_throw_naming<InvalidArgument>([&] { Plan plan(c.desc); }, {"out_dist"}, describe(c.desc));
      ++tally.rejected;
      continue;
    }
    if (r.verbose)
      std::printf("case %llu: %s%s: %s\n", static_cast<unsigned long long>(index), describe(c.desc).c_str(),
                  c.in_place ? " in place" : "", Plan(c.desc).describe().c_str());
    const std::uint64_t seed = seed_for(index, r.seed + 1);
    const double worst =
        c.desc.precision == Precision::f32 ? check_random<float>(c, seed) : check_random<double>(c, seed);
    tally.worst = std::max(tally.worst, worst);
    ++tally.ran;
  }
  tally.print("fft Plan, random descriptions", r);
}

}  // namespace
}  // namespace ripple::fft::test
