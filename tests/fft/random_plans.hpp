// Random FFT plan descriptions for the randomized tests (tests/fft/random_plans_test.cpp on the
// CPU, tests/gpu/fft_random_test.cpp on GPU devices): sizes drawn across the paths the planners
// tell apart (small, codelet-smooth, powers of two, primes that Rader's and Bluestein's
// algorithms take, large prime factors, primes beyond both), ranks 1 to 3, the three kinds, both
// precisions, directions and norms, and layouts (packed, strided, padded, innermost-batched, in
// place with the same or different layouts, and now and then an invalid one). Each draw is a
// function of its seed alone (with one standard library: their integer distributions differ).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "common/quick_mode.hpp"
#include "fft/fft_test_util.hpp"
#include "ripple/fft.hpp"

namespace ripple::fft::test {

inline bool is_prime(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

/// Draws sizes from a mix of what the planners tell apart.
class SizeDraw {
 public:
  explicit SizeDraw(std::uint64_t seed) : engine_(seed) {}

  std::uint64_t below(std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(engine_); }
  bool one_in(std::uint64_t n) { return below(n) == 0; }

  /// A size of 1 to max points.
  std::uint64_t size(std::uint64_t max) {
    for (;;) {
      std::uint64_t n = 0;
      switch (below(8)) {
        case 0: n = 1 + below(40); break;
        case 1:
        case 2: n = smooth(max); break;
        case 3: n = std::uint64_t{1} << below(static_cast<std::uint64_t>(std::log2(static_cast<double>(max))) + 1); break;
        case 4: n = prime(20, std::min<std::uint64_t>(max, 4200)); break;  // Rader's, Bluestein's, above 4097
        case 5: n = with_smooth(prime(23, 130), max); break;  // a large prime factor
        case 6: {                                              // two
          const std::uint64_t p = prime(23, 60);
          n = with_smooth(p * prime(23, 60), max);
          break;
        }
        case 7: n = with_smooth(prime(4090, 20000), max); break;  // no pass takes it
      }
      if (n >= 1 && n <= max) return n;
    }
  }

 private:
  // p times a smooth size, at most max where p <= max (else 0: drawn again). The draws are
  // named steps, so that every compiler makes them in one order.
  std::uint64_t with_smooth(std::uint64_t p, std::uint64_t max) {
    if (p == 0 || p > max) return 0;
    return p * smooth(max / p);
  }
  // A product of codelet primes of at most max, 2, 3, 5 and 7 the likeliest.
  std::uint64_t smooth(std::uint64_t max) {
    static constexpr std::uint64_t kPrimes[] = {2, 3, 5, 7, 11, 13, 17, 19};
    std::uint64_t n = 1;
    for (std::uint64_t f = below(14); f > 0; --f) {
      const std::uint64_t p = kPrimes[below(4) ? below(4) : below(8)];
      if (n * p > max) break;
      n *= p;
    }
    return n;
  }
  // A prime in [lo, hi], 0 if there is no room.
  std::uint64_t prime(std::uint64_t lo, std::uint64_t hi) {
    if (hi < lo) return 0;
    for (int tries = 0; tries < 1000; ++tries) {
      const std::uint64_t n = lo + below(hi - lo + 1);
      if (is_prime(n)) return n;
    }
    return 0;
  }

  std::mt19937_64 engine_;
};

/// One side's stride and distance between transforms (0: packed, count * stride).
struct SideLayout {
  std::int64_t stride = 1, dist = 0;
};

/// A random layout of `count` elements a transform for one side (one level of batch): packed,
/// strided (stride 2 or 3), padded (a distance of count * stride + 1 to + 5, the stride 1 to 3),
/// or innermost-batched (stride batch or batch + 1, distance 1).
inline SideLayout draw_layout(SizeDraw& draw, std::uint64_t count, std::uint64_t batch) {
  SideLayout l;
  switch (draw.below(6)) {
    case 0:
    case 1: break;  // packed
    case 2: l.stride = 2 + static_cast<std::int64_t>(draw.below(2)); break;
    case 3: {
      l.stride = 1 + static_cast<std::int64_t>(draw.below(3));
      l.dist = static_cast<std::int64_t>(count) * l.stride + 1 + static_cast<std::int64_t>(draw.below(5));
      break;
    }
    case 4:
      if (batch > 1) {  // innermost: the batch entries adjacent
        l.stride = static_cast<std::int64_t>(batch + draw.below(2));
        l.dist = 1;
      }
      break;
    case 5:
      if (batch == 2) {  // two transforms on the even and the odd elements, the second anywhere
        l.stride = 2;   // in the first's reach (its levels do not nest, yet nothing meets)
        l.dist = 2 * static_cast<std::int64_t>(draw.below(count)) + 1;
      }
      break;
  }
  return l;
}

/// A description, whether it runs in place (c2c only: the buffers of r2c and c2r differ in
/// type), and whether it was drawn invalid: one in twenty of those with a batch has an output
/// layout whose transforms overlap, which every plan must reject (InvalidArgument).
struct RandomPlan {
  PlanDesc desc;
  bool in_place = false;
  bool invalid = false;
};

/// A plan of at most 2^20 values a side (2^18 for ranks 2 and 3), the batch included.
inline RandomPlan random_plan(SizeDraw& draw) {
  RandomPlan c;
  PlanDesc& d = c.desc;
  const std::uint64_t rank = draw.below(10) < 6 ? 1 : draw.one_in(2) ? 2 : 3;
  const std::uint64_t budget = std::uint64_t{1} << (rank == 1 ? 20 : 18);  // values a side
  if (rank == 1) {
    d.shape = {draw.size(budget)};
  } else {
    std::uint64_t total = 1;
    for (std::uint64_t a = 0; a < rank; ++a) {
      std::uint64_t n = draw.one_in(8) ? draw.size(20000) : draw.size(rank == 2 ? 600 : 64);
      if (total * n > budget) n = 1 + draw.below(std::min<std::uint64_t>(16, budget / total));
      d.shape.push_back(n);
      total *= n;
    }
  }
  switch (draw.below(4)) {
    case 0:
    case 1: d.kind = Kind::c2c; break;
    case 2: d.kind = Kind::r2c; break;
    case 3: d.kind = Kind::c2r; break;
  }
  d.precision = draw.below(10) < 7 ? Precision::f32 : Precision::f64;
  d.direction = d.kind == Kind::r2c ? Direction::forward
                : d.kind == Kind::c2r ? Direction::backward
                : draw.one_in(2)      ? Direction::forward
                                      : Direction::backward;
  d.norm = static_cast<Norm>(draw.below(3));
  const std::size_t size = product(d.shape);
  // One transform, a few, or many (small sizes: many transforms to a work-group, a part-filled last one).
  const std::uint64_t most = std::max<std::uint64_t>(1, budget / size);
  d.batch = draw.one_in(3) ? 1 : 1 + draw.below(std::min<std::uint64_t>(draw.one_in(4) ? 5000 : 12, most));
  const std::uint64_t out_count = product(side_shape(d, d.kind == Kind::r2c));
  // Now and then (ranks 2 and 3) a side in an embedding (in_embed / out_embed): each axis
  // padded by up to 2; distances are drawn from the embedding's size.
  const auto draw_embed = [&](bool half_spectrum) {
    std::vector<std::size_t> e;
    if (rank == 1 || !draw.one_in(4)) return e;
    e = side_shape(d, half_spectrum);
    for (std::size_t& v : e) v += draw.below(3);
    return e;
  };
  const auto holds = [&](const std::vector<std::size_t>& embed, bool half_spectrum) {
    return product(embed.empty() ? side_shape(d, half_spectrum) : embed);
  };
  d.in_embed = draw_embed(d.kind == Kind::c2r);
  const SideLayout in = draw_layout(draw, holds(d.in_embed, d.kind == Kind::c2r), d.batch);
  d.in_stride = in.stride;
  d.in_dist = in.dist;
  c.in_place = d.kind == Kind::c2c && draw.one_in(4);
  const bool same_layout = c.in_place && !draw.one_in(4);
  d.out_embed = same_layout ? d.in_embed : draw_embed(d.kind == Kind::r2c);
  const SideLayout out = same_layout ? in : draw_layout(draw, holds(d.out_embed, d.kind == Kind::r2c), d.batch);
  d.out_stride = out.stride;
  d.out_dist = out.dist;
  // Now and then an output layout whose transforms overlap, which every plan must reject: the
  // second transform's first element on the first one's element e (> 0), wherever the
  // embedding puts it.
  if (d.batch > 1 && out_count > 1 && draw.one_in(20)) {
    c.invalid = true;
    d.out_stride = 1;
    const std::vector<std::size_t> side = side_shape(d, d.kind == Kind::r2c);
    const std::vector<std::size_t>& embed = d.out_embed.empty() ? side : d.out_embed;
    std::uint64_t e = 1 + draw.below(out_count - 1), position = 0, pitch = 1;
    for (std::size_t a = side.size(); a-- > 0;) {
      position += e % side[a] * pitch;
      e /= side[a];
      pitch *= embed[a];
    }
    d.out_dist = static_cast<std::int64_t>(position);
  }
  return c;
}

/// Which cases a randomized test runs, from the environment: RIPPLE_FFT_RANDOM_SEED (default
/// 1), RIPPLE_FFT_RANDOM_FIRST (the first case's index, default 0), RIPPLE_FFT_RANDOM_CASES
/// (the test's default: `quick_cases` in quick mode, under the sanitizers) and
/// RIPPLE_FFT_RANDOM_VERBOSE (print every case).
struct RandomRun {
  std::uint64_t seed = 1;
  std::uint64_t first = 0;
  std::uint64_t count = 0;
  std::uint64_t verbose = 0;  // print every case and its plan
};

inline RandomRun random_run(std::uint64_t cases, std::uint64_t quick_cases) {
  RandomRun r;
  r.count = ripple::test::quick_mode() ? quick_cases : cases;
  const auto read = [](const char* name, std::uint64_t& value) {
    if (const char* s = std::getenv(name)) value = std::stoull(s);
  };
  read("RIPPLE_FFT_RANDOM_SEED", r.seed);
  read("RIPPLE_FFT_RANDOM_FIRST", r.first);
  read("RIPPLE_FFT_RANDOM_CASES", r.count);
  read("RIPPLE_FFT_RANDOM_VERBOSE", r.verbose);
  return r;
}

/// What a random test ran, printed at its end.
struct Tally {
  int ran = 0, rejected = 0, unsupported = 0;
  double worst = 0;
  void print(const char* what, const RandomRun& r) const {
    std::printf("[ %s ] seed %llu, cases %llu..%llu: %d ran (worst error / bound %.3f), %d rejected as invalid, "
                "%d unsupported\n",
                what, static_cast<unsigned long long>(r.seed), static_cast<unsigned long long>(r.first),
                static_cast<unsigned long long>(r.first + r.count - 1), ran, worst, rejected, unsupported);
  }
};

/// The environment that runs case `index` alone.
inline std::string case_name(const RandomRun& r, std::uint64_t index) {
  return "RIPPLE_FFT_RANDOM_SEED=" + std::to_string(r.seed) + " RIPPLE_FFT_RANDOM_FIRST=" + std::to_string(index) +
         " RIPPLE_FFT_RANDOM_CASES=1";
}

}  // namespace ripple::fft::test
