// Launch logic of the multi-pass GPU FFT: the split of n into passes, each pass's addresses
// (the transposes) and twiddles, the scratch between passes.
#include "gpu/device_fft_plan.hpp"

#include <algorithm>
#include <cmath>

#include "gpu/device_fft_bluestein.hpp"
#include "gpu/scratch.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {

namespace {

// Divisors of a codelet-smooth n (a few thousand at most for n < 2^40).
std::vector<std::uint64_t> divisors(std::uint64_t n) {
  std::vector<std::uint64_t> d{1};
  for (std::uint64_t p : kFftCodeletPrimes) {
    unsigned e = 0;
    while (n % p == 0) {
      n /= p;
      ++e;
    }
    const std::size_t before = d.size();
    std::uint64_t f = 1;
    for (unsigned k = 1; k <= e; ++k) {
      f *= p;
      for (std::size_t i = 0; i < before; ++i) d.push_back(d[i] * f);
    }
  }
  std::sort(d.begin(), d.end());
  return d;
}

// The split of n into two factors <= max_pass whose larger one is smallest (the smaller one
// first), or nothing.
std::vector<std::uint64_t> split_two(std::uint64_t n, std::uint64_t max_pass, const std::vector<std::uint64_t>& divs) {
  std::vector<std::uint64_t> best;
  for (std::uint64_t d : divs) {
    const std::uint64_t m = n / d;
    if (n % d != 0 || d > m || m > max_pass) continue;
    best = {d, m};  // divisors ascend: the last one that fits is the most balanced
  }
  return best;
}

std::string str(std::uint64_t v) { return std::to_string(v); }

// The prime factors of n above the codelets' (large primes), with multiplicity, ascending; empty
// where one is above `largest` (no one-kernel pass takes it) or there are more than six: a
// one-kernel pass holds two at most (Rader's one; Bluestein's in the kernel at most 2048 points,
// below 23^3), so no three passes hold more.
std::vector<std::uint64_t> large_primes(std::uint64_t n, std::uint64_t largest) {
  for (std::uint64_t p : kFftCodeletPrimes)
    while (n % p == 0) n /= p;
  std::vector<std::uint64_t> primes;
  for (std::uint64_t q = kFftCodeletPrimes.back() + 2; n > 1 && q <= largest && q * q <= n; q += 2)
    while (n % q == 0) {
      primes.push_back(q);
      n /= q;
    }
  if (n > largest) return {};  // a prime above it, or a product of two
  if (n > 1) primes.push_back(n);
  if (primes.size() > 6) return {};
  return primes;
}

// The on-chip work per point of a one-kernel pass of d points, in stages of log2 of its FFTs'
// sizes: a codelet-smooth FFT's, Rader's two FFTs of d - 1, Bluestein's two of his
// convolution's length M for d points (M / d times as many points).
double pass_work_per_point(std::uint64_t d, bool double_precision) {
  const auto stages = [](std::uint64_t m) { return std::log2(static_cast<double>(m)); };
  if (codelet_smooth(d)) return stages(d);
  if (rader_fits(d, double_precision)) return 2 * stages(d - 1);
  const std::uint64_t m = bluestein_size(d);
  return 2 * stages(m) * static_cast<double>(m) / static_cast<double>(d);
}

// The FftReal of a real transform's first pass, whose load reads the real side, or none.
FftReal real_first_pass(const FftReal& real, std::uint64_t step) {
  if (real.n == 0) return {};
  return FftReal{real.n, real.r2c, step, false};
}

// The FftReal of a real transform's last pass, whose store writes the real side, or none (a
// complex plan; an even r2c that leaves the split to a kernel). An even r2c's split pass pairs
// its transforms: the pass's inner count (the step S) is rounded up to even.
FftReal real_last_pass(const FftReal& real, bool writes_real, FftPass& pass) {
  if (!writes_real) return {};
  const FftReal last{real.n, real.r2c, pass.inner, true};
  if (last.split_pass()) {
    const std::uint64_t outer = pass.count / pass.inner;
    pass.inner = FftReal::split_pass_inner(pass.inner);
    pass.count = outer * pass.inner;
  }
  return last;
}

bool same_sides(const FftLayout& l) {
  return l.in_stride == l.out_stride && (l.inner_count() == 1 || l.in_dist == l.out_dist) &&
         (l.outer_count() == 1 || l.in_dist_outer == l.out_dist_outer);
}

// Elements from the first to the last one the input side touches, plus one.
std::uint64_t input_extent(const FftLayout& l, std::uint64_t n) {
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(l.outer_count() - 1) * l.in_dist_outer +
                                    static_cast<std::int64_t>(l.inner_count() - 1) * l.in_dist +
                                    static_cast<std::int64_t>(n - 1) * l.in_stride + 1);
}

}  // namespace

std::vector<std::uint64_t> DeviceFftPlan::split(std::uint64_t n, bool double_precision, std::uint64_t max_pass) {
  if (n == 0) throw InvalidArgument("GPU FFT: size n is 0");
  if (!codelet_smooth(n))
    throw Unsupported("GPU FFT: size n " + str(n) +
                      " has a prime factor above " + str(kFftCodeletPrimes.back()) +
                      ": it is not a product of passes (DeviceFftPlan takes it "
                      "through Bluestein)");
  max_pass = std::min(max_pass, fft_max_on_chip(double_precision));
  if (n <= max_pass) return {n};
  const std::vector<std::uint64_t> divs = divisors(n);
  if (auto two = split_two(n, max_pass, divs); !two.empty()) return two;
  std::vector<std::uint64_t> best;
  for (std::uint64_t d : divs) {
    if (d > max_pass) break;
    const std::uint64_t m = n / d;
    const std::vector<std::uint64_t> rest = split_two(m, max_pass, divisors(m));
    if (rest.empty()) continue;
    const std::uint64_t largest = std::max(d, rest[1]);
    if (best.empty() || largest < std::max({best[0], best[1], best[2]})) best = {d, rest[0], rest[1]};
  }
  if (best.empty())
    throw Unsupported("GPU FFT: size n " + str(n) + " needs more than three passes of at most " + str(max_pass) +
                      " points (the GPU FFT takes up to " + str(max_pass) + "^3 with factors of at most " +
                      str(max_pass) + "; the CPU fft::Plan does any size)");
  return best;
}

const DeviceFft& DeviceFftPlan::kernel(Context& context, std::uint64_t size, bool pass_twiddle, const FftPass& pass,
                                       const FftReal& real) {
  const bool columns = pass.columns(), fast = pass.fast > 1;
  auto& k = kernels_[{size, pass_twiddle, columns, fast, real.pass_step, real.last_pass}];
  if (!k) k = std::make_unique<DeviceFft>(context, size, double_, pass_twiddle, columns, FftConvolution{}, real, fast);
  return *k;
}

const FftPassTwiddles& DeviceFftPlan::twiddles(Context& context, std::uint64_t n, bool as_double) {
  auto& t = twiddles_[n];
  if (!t) t = std::make_unique<FftPassTwiddles>(FftPassTwiddles::make(context, n, as_double));
  return *t;
}

std::vector<std::uint64_t> DeviceFftPlan::split_with_large_primes(std::uint64_t n, bool double_precision,
                                                                  std::uint64_t max_pass) {
  if (n < 2 || codelet_smooth(n)) return {};
  const std::vector<std::uint64_t> large = large_primes(n, kFftMaxRaderOnChip + 1);
  if (large.empty()) return {};
  std::uint64_t large_product = 1;
  for (std::uint64_t p : large) large_product *= p;
  const std::uint64_t smooth = n / large_product;
  const std::vector<std::uint64_t> smooth_divisors = divisors(smooth);
  const auto is_rader = [&](std::uint64_t d) { return !codelet_smooth(d) && rader_fits(d, double_precision); };
  // The passes that may hold large primes: a subset of them (bits of `mask`, by index) times a
  // divisor of the smooth part, in one kernel.
  struct Candidate {
    unsigned mask;
    std::uint64_t size, smooth_part;
  };
  std::vector<Candidate> candidates;
  const unsigned all = (1u << large.size()) - 1;
  for (unsigned mask = 1; mask <= all; ++mask) {
    std::uint64_t part = 1;
    for (std::size_t i = 0; i < large.size(); ++i)
      if (mask >> i & 1u) part *= large[i];
    for (std::uint64_t s : smooth_divisors) {
      const std::uint64_t d = part * s;
      if (d > kFftMaxOnChip) break;  // the divisors ascend
      if (!fits_one_kernel(d, double_precision, max_pass)) continue;
      candidates.push_back({mask, d, s});
    }
  }
  // The smooth rest's passes by its size (split's; none where it needs more than three).
  std::map<std::uint64_t, std::vector<std::uint64_t>> rest_passes;
  const auto passes_of_rest = [&](std::uint64_t rest) -> const std::vector<std::uint64_t>& {
    auto [it, added] = rest_passes.try_emplace(rest);
    if (added && rest > 1) {
      try {
        it->second = split(rest, double_precision, max_pass);
      } catch (const Unsupported&) {
      }
    }
    return it->second;
  };
  std::vector<std::uint64_t> best;
  double best_work = 0;
  std::vector<const Candidate*> chosen;
  // The fewest passes a smooth rest can take (splitting it is the search's costly step).
  const std::uint64_t cap = std::min(max_pass, fft_max_on_chip(double_precision));
  const auto fewest_passes = [cap](std::uint64_t rest) -> std::size_t {
    if (rest == 1) return 0;
    if (rest <= cap) return 1;
    return rest / cap <= cap ? 2 : 3;
  };
  const auto consider = [&] {
    std::uint64_t taken = 1;
    for (const Candidate* c : chosen) taken *= c->smooth_part;
    if (smooth % taken != 0) return;
    const std::uint64_t rest = smooth / taken;
    if (chosen.size() + fewest_passes(rest) > (best.empty() ? 3 : best.size())) return;
    std::vector<std::uint64_t> passes = passes_of_rest(rest);
    if (rest > 1 && passes.empty()) return;
    if (passes.size() + chosen.size() < 2 || passes.size() + chosen.size() > 3) return;
    std::vector<std::uint64_t> bluestein, rader;
    for (const Candidate* c : chosen) (is_rader(c->size) ? rader : bluestein).push_back(c->size);
    std::sort(bluestein.begin(), bluestein.end());
    std::sort(rader.begin(), rader.end());
    passes.insert(passes.end(), bluestein.begin(), bluestein.end());
    passes.insert(passes.end(), rader.begin(), rader.end());
    double work = 0;
    for (std::uint64_t d : passes) work += pass_work_per_point(d, double_precision);
    const auto largest = [](const std::vector<std::uint64_t>& v) { return *std::max_element(v.begin(), v.end()); };
    if (best.empty() || passes.size() < best.size() ||
        (passes.size() == best.size() &&
         (work < best_work || (work == best_work && largest(passes) < largest(best))))) {
      best = std::move(passes);
      best_work = work;
    }
  };
  // Sets of candidates that hold every large prime once: each set once, its candidates chosen
  // in the order of the lowest prime each holds.
  const auto pick = [&](const auto& self, unsigned covered) -> void {
    if (covered == all) {
      consider();
      return;
    }
    if (chosen.size() == 3) return;
    const unsigned open = all & ~covered, lowest = open & (~open + 1);
    for (const Candidate& c : candidates) {
      if ((c.mask & covered) != 0 || (c.mask & lowest) == 0) continue;
      chosen.push_back(&c);
      self(self, covered | c.mask);
      chosen.pop_back();
    }
  };
  pick(pick, 0);
  return best;
}

bool DeviceFftPlan::passes_take_real(std::uint64_t n, bool double_precision, std::uint64_t max_pass) {
  return n >= 2 && (codelet_smooth(n) || !split_with_large_primes(n, double_precision, max_pass).empty() ||
                    DeviceFftBluestein::fused_passes_fit(n, double_precision, max_pass));
}

void DeviceFftPlan::check_size(std::uint64_t n, bool double_precision, std::uint64_t max_pass) {
  if (n <= 1 || codelet_smooth(n)) {
    split(std::max<std::uint64_t>(n, 1), double_precision, max_pass);
    return;
  }
  // As the constructor: one kernel, passes with the large primes, else Bluestein's fused passes.
  if (fits_one_kernel(n, double_precision, max_pass) || !split_with_large_primes(n, double_precision, max_pass).empty())
    return;
  DeviceFftBluestein::check_size(n, double_precision, max_pass);
}

std::vector<std::uint64_t> DeviceFftPlan::split_for_real(std::uint64_t n, bool double_precision,
                                                         std::uint64_t max_pass, std::uint64_t max_group,
                                                         std::uint64_t max_split_pass) {
  // A size with large primes is one pass where it fits one kernel (Rader's or Bluestein's
  // there), else split_with_large_primes's passes (split throws for it), whose Rader's and
  // Bluestein's DFTs never split the spectrum but a smooth pass among them may.
  std::vector<std::uint64_t> passes;
  if (!codelet_smooth(n))
    passes = fits_one_kernel(n, double_precision, max_pass) ? std::vector<std::uint64_t>{n}
                                                             : split_with_large_primes(n, double_precision, max_pass);
  if (passes.empty()) passes = split(n, double_precision, max_pass);
  if (passes.size() < 2)
    throw Unsupported("GPU FFT: size n " + str(n) + " is one pass: an r2c of " + str(2 * n) +
                      " points splits its spectrum in that kernel, not in a last pass");
  // Any order of the factors is a four-step: make one that pairs transforms the last.
  const auto fits = [&](std::uint64_t m) {
    return m <= max_split_pass && DeviceFft::pairs_fit(m, double_precision, max_group);
  };
  const auto last = std::find_if(passes.rbegin(), passes.rend(), fits);
  if (last == passes.rend()) {
    std::string list;
    for (std::uint64_t m : passes) list += (list.empty() ? "" : " x ") + str(m);
    throw Unsupported("GPU FFT: no pass of size n " + str(n) + " (" + list + ") has at most " +
                      str(max_split_pass) + " points and pairs its transforms in a group to split a real spectrum");
  }
  std::iter_swap(last, passes.rbegin());
  return passes;
}

bool DeviceFftPlan::real_split_fits(std::uint64_t n, bool double_precision, std::uint64_t max_pass,
                                    std::uint64_t max_group, std::uint64_t max_split_pass) {
  if (n < 2) return false;
  if (!codelet_smooth(n) && split_with_large_primes(n, double_precision, max_pass).empty())
    return DeviceFftBluestein::split_in_store(n, double_precision, max_pass, max_group, max_split_pass);
  try {
    split_for_real(n, double_precision, max_pass, max_group, max_split_pass);
    return true;
  } catch (const Unsupported&) {
    return false;
  }
}

DeviceFftPlan::DeviceFftPlan(Context& context, std::uint64_t n, bool double_precision, const FftLayout& layout,
                             std::uint64_t max_pass, const FftReal& real, std::uint64_t max_split_pass)
    : n_(n), double_(double_precision), layout_(layout), real_(real) {
  const std::size_t elem = double_precision ? 16 : 8;
  const FftLayout group = layout.one_outer();  // what a multi-pass or Bluestein plan runs at a time
  max_pass = std::min(max_pass, fft_max_on_chip(double_precision, context.facts().max_work_group));
  check_size(n, double_precision, max_pass);
  if (real.n != 0 && (real.complex_size() != n || n < 2 || !passes_take_real(n, double_precision, max_pass)))
    throw InvalidArgument("DeviceFftPlan: the real side of a transform of " + str(real.n) +
                          " points needs a plan of its complex size (n " + str(n) +
                          ") that is codelet-smooth, passes of one-kernel DFTs, or Bluestein's fused passes");
  if (n > 1 && !codelet_smooth(n)) {
    // Rader or Bluestein in the one kernel where the convolution fits; else passes of which those
    // holding the large primes are Rader's or Bluestein's in the kernel; else Bluestein beyond
    // one kernel.
    if (fits_one_kernel(n, double_precision, max_pass))
      passes_ = {n};
    else
      passes_ = split_with_large_primes(n, double_precision, max_pass);
    if (passes_.empty())
      bluestein_ =
          std::make_unique<DeviceFftBluestein>(context, n, double_precision, group, max_pass, real, max_split_pass);
  } else {
    passes_ = split(n, double_precision, max_pass);
  }
  // Bluestein and the multi-pass plans read all of an outer index's input before they write
  // any output; one pass, or several outer indices, need a copy of the input to run in place
  // (a plan that reads or writes a real transform's real side never is: its sides differ in kind).
  copy_in_place_ = layout.batch > 0 && real.n == 0 && !same_sides(layout) &&
                   (passes_.size() == 1 || layout.two_level());
  if (copy_in_place_) {
    in_elements_ = input_extent(layout, n);
    in_copy_ = allocate_scratch(context, in_elements_ * elem);
  }
  if (real.n != 0 && !bluestein_ && passes_.size() < 2)
    throw InvalidArgument("DeviceFftPlan: the real side of a transform of " + str(real.n) +
                          " points needs a plan of more than one pass (n " + str(n) + " is one)");
  // Every real plan's last pass writes the real side but an even r2c's whose size has no pass
  // that can split the spectrum (real_split_fits: a smooth pass made the last, Bluestein's storing pass):
  // that one writes the complex FFT of the reals in pairs, for a split kernel.
  writes_real_ = real.n != 0;
  if (real.n != 0 && real.n % 2 == 0 && real.r2c) {
    const std::uint64_t max_group = context.facts().max_work_group;
    writes_real_ = real_split_fits(n, double_precision, max_pass, max_group, max_split_pass);
    if (writes_real_ && !bluestein_) passes_ = split_for_real(n, double_precision, max_pass, max_group, max_split_pass);
  }
  if (bluestein_) {
    if (bluestein_->writes_real() != writes_real_)
      throw InvalidArgument("DeviceFftPlan: Bluestein's passes of " + str(n) + " and the plan disagree on whether the " +
                            "last writes the real side of " + str(real.n) + " points");
    return;
  }
  if (passes_.size() == 1) {
    Step st;
    st.pass = FftPass::of(layout);
    st.kernel = &kernel(context, n, false, st.pass);
    st.last = true;
    steps_.push_back(st);
    st.kernel->check_pass(st.pass);
    return;
  }
  const std::int64_t B = static_cast<std::int64_t>(group.batch);
  const std::int64_t s = group.in_stride, d = group.in_dist, so = group.out_stride, dout = group.out_dist;
  const std::int64_t N = static_cast<std::int64_t>(n);
  // Where the batch entries lie closer than the elements on a side (innermost batching), every
  // pass takes them as its fastest level, so a group's adjacent transforms are adjacent entries
  // on that side and in the scratch (an even r2c's split pass: adjacent pairs of partners),
  // which holds sequence index q of entry b at q B + b instead of b N + q. (With rows on the
  // other side, that side's accesses are strided instead: the transpose between the two orders
  // costs a strided side in some pass either way.) Three passes then run passes 2 and 3 once over
  // the batch, through a second scratch of B N; where that much more memory cannot be had, per
  // entry through one of N, the batch the slowest level.
  batch_fast_ = FftPass::batch_fast(group);
  if (batch_fast_ && passes_.size() == 3) {
    try {
      scratch2_ = allocate_scratch(context, static_cast<std::size_t>(B * N) * elem);
    } catch (const DeviceError&) {
      batch_fast_ = false;
    }
  }
  // The scratch's steps: of the sequence index q and of the batch entry b.
  const std::int64_t q_step = batch_fast_ ? B : 1, b_step = batch_fast_ ? 1 : N;
  using Side = FftPass::Side;
  // Pass 1: N1-point columns n1 -> k1 of every (b, n2), n2 < M, turned by W_N^(n2 k1), stored at
  // sequence index k1 M + n2 of scratch1 (row k1 holds the M-point sequence of the rest).
  const std::int64_t N1 = static_cast<std::int64_t>(passes_[0]), M = N / N1;
  const bool tw_double = double_precision || context.facts().fp64;
  Step p1;
  p1.twiddles = &twiddles(context, n, tw_double);
  p1.pass = FftPass::over_batch(static_cast<std::uint64_t>(B), 1, static_cast<std::uint64_t>(M), batch_fast_,
                                Side{d, 0, s, M * s}, Side{b_step, 0, q_step, M * q_step});
  p1.kernel = &kernel(context, passes_[0], true, p1.pass, real_first_pass(real, static_cast<std::uint64_t>(M)));
  p1.kernel->check_pass(p1.pass);
  p1.to = Slot::scratch1;
  steps_.push_back(p1);
  scratch1_ = allocate_scratch(context, static_cast<std::size_t>(B * N) * elem);
  if (passes_.size() == 2) {
    // Pass 2: M-point rows of every (b, k1) to X[k1 + N1 k2].
    Step p2;
    p2.pass = FftPass::over_batch(static_cast<std::uint64_t>(B), 1, static_cast<std::uint64_t>(N1), batch_fast_,
                                  Side{b_step, 0, M * q_step, q_step}, Side{dout, 0, so, N1 * so});
    const FftReal p2_real = real_last_pass(real, writes_real_, p2.pass);  // may pad the pass's inner count
    p2.kernel = &kernel(context, passes_[1], false, p2.pass, p2_real);
    p2.kernel->check_pass(p2.pass);
    p2.from = Slot::scratch1;
    p2.last = true;
    steps_.push_back(p2);
    return;
  }
  // Three passes: each row of M = N2 N3 points is itself a four-step: pass 2 takes N2-point
  // columns n2 -> k2 of every (b, k1, n3), turned by W_M^(n3 k2), stored at sequence index
  // (k1 + N1 k2) N3 + n3 of scratch2; pass 3 the N3-point rows j = k1 + N1 k2 to
  // X[k1 + N1 k2 + N1 N2 k3] = X[j + N1 N2 k3]. With the batch as the fastest level, each is one
  // launch; else one launch per batch entry b (their addresses have a level of batch fewer),
  // scratch2 holding one entry.
  const std::int64_t N2 = static_cast<std::int64_t>(passes_[1]), N3 = static_cast<std::int64_t>(passes_[2]);
  const std::uint64_t launch_batch = batch_fast_ ? static_cast<std::uint64_t>(B) : 1;
  if (!scratch2_) scratch2_ = allocate_scratch(context, static_cast<std::size_t>(N) * elem);
  Step p2;
  p2.twiddles = &twiddles(context, static_cast<std::uint64_t>(M), tw_double);
  p2.pass = FftPass::over_batch(launch_batch, static_cast<std::uint64_t>(N1), static_cast<std::uint64_t>(N3), batch_fast_,
                                Side{b_step, M * q_step, q_step, N3 * q_step},
                                Side{b_step, N3 * q_step, q_step, N1 * N3 * q_step});
  p2.kernel = &kernel(context, passes_[1], true, p2.pass);
  p2.kernel->check_pass(p2.pass);
  p2.from = Slot::scratch1;
  p2.to = Slot::scratch2;
  Step p3;
  p3.pass = FftPass::over_batch(launch_batch, 1, static_cast<std::uint64_t>(N1 * N2), batch_fast_,
                                Side{b_step, 0, N3 * q_step, q_step}, Side{dout, 0, so, N1 * N2 * so});
  const FftReal p3_real = real_last_pass(real, writes_real_, p3.pass);  // may pad the pass's inner count
  p3.kernel = &kernel(context, passes_[2], false, p3.pass, p3_real);
  p3.kernel->check_pass(p3.pass);
  p3.from = Slot::scratch2;
  p3.last = true;
  for (std::int64_t b = 0; b < B / static_cast<std::int64_t>(launch_batch); ++b) {
    p2.pass.in_offset = b * N;
    p3.pass.out_offset = b * dout;
    steps_.push_back(p2);
    steps_.push_back(p3);
  }
}

void DeviceFftPlan::wait_ready() const {
  for (const auto& [key, kernel] : kernels_) kernel->wait_ready();
  if (bluestein_) bluestein_->wait_ready();
}

std::vector<FftShape> DeviceFftPlan::launch_shapes() const {
  // Steps are pass 1, then passes 2 and 3 (once, or of each batch entry) or pass 2.
  std::vector<FftShape> shapes;
  for (std::size_t i = 0; i < std::min(steps_.size(), passes_.size()); ++i) shapes.push_back(steps_[i].kernel->plan_shape());
  return shapes;
}

DeviceFftPlan::DeviceFftPlan(DeviceFftPlan&&) noexcept = default;
DeviceFftPlan::~DeviceFftPlan() = default;

std::string DeviceFftPlan::describe() const {
  std::string s = "gpu c2c n=" + str(n_) + (double_ ? " f64: " : " f32: ");
  std::string real;  // what the first and last passes do on a real transform's real side
  if (real_.n % 2 == 0 && real_.n != 0 && real_.r2c)
    real = writes_real_ ? ", the reals read in pairs by the first, the real spectrum split in the last"
                        : ", the reals read in pairs by the first";
  else if (real_.n % 2 == 0 && real_.n != 0)
    real = ", the real spectrum merged in the first, the reals stored in pairs by the last";
  else if (real_.n != 0)
    real = real_.r2c ? ", the reals read by the first, the half spectrum stored by the last"
                     : ", the Hermitian spectrum rebuilt by the first, the real parts stored by the last";
  if (bluestein_) return s + bluestein_->describe() + (real.empty() ? "" : " (" + real.substr(2) + ")");
  for (std::size_t i = 0; i < passes_.size(); ++i) s += (i ? " x " : "") + str(passes_[i]);
  if (passes_.size() == 1) {
    const FftShape& shape = steps_.front().kernel->plan_shape();
    if (!shape.whole_convolution().empty()) return s + " (one kernel: " + shape.whole_convolution() + ")";
    return s + " (one kernel)";
  }
  s += " (" + str(passes_.size()) + " passes, twiddles fused into the stores of the first " +
       (passes_.size() == 2 ? "pass" : "two");
  // The passes of large primes, by algorithm (a pass's size may repeat: 23 x 23).
  std::string rader, bluestein;
  for (std::size_t i = 0; i < passes_.size(); ++i) {
    if (codelet_smooth(passes_[i])) continue;
    std::string& list = rader_fits(passes_[i], double_) ? rader : bluestein;
    list += (list.empty() ? "" : " and ") + std::string(i + 1 == passes_.size() ? "the last" : i == 0 ? "the first" : "the second") +
            " (" + str(passes_[i]) + ")";
  }
  if (!bluestein.empty()) s += ", " + bluestein + " by Bluestein's algorithm in the kernel";
  if (!rader.empty()) s += ", " + rader + " by Rader's algorithm";
  return s + real + (batch_fast_ ? ", adjacent batch entries in each group" : "") + ")";
}

void DeviceFftPlan::run(Stream& stream, const Memory& in, Memory& out, fft::Direction direction, double scale,
                        std::int64_t in_base, std::int64_t out_base) const {
  if (layout_.batch == 0) return;
  // A real plan's sides differ in kind, so it never copies its input to run in place: its first
  // pass reads all of an outer index's input before its last writes, so in place is right where
  // each transform's two sides cover the same bytes, which fft::DevicePlan checks.
  const Memory* source = &in;
  if (copy_in_place_ && &in == &out) {
    const std::size_t elem = double_ ? 16 : 8;
    stream.copy(in, static_cast<std::size_t>(in_base) * elem, *in_copy_, 0, in_elements_ * elem);
    source = in_copy_.get();
    in_base = 0;
  }
  launch_steps(stream, *source, out, direction, scale, in_base, out_base, kAllSteps);
}

void DeviceFftPlan::run_step(Stream& stream, const Memory& in, Memory& out, std::size_t index) const {
  if (index >= steps_.size())
    throw InvalidArgument("DeviceFftPlan::run_step: launch " + std::to_string(index) + " of a plan of " +
                          std::to_string(steps_.size()));
  launch_steps(stream, in, out, fft::Direction::forward, 1.0, 0, 0, index);
}

void DeviceFftPlan::launch_steps(Stream& stream, const Memory& source, Memory& out, fft::Direction direction,
                                 double scale, std::int64_t in_base, std::int64_t out_base, std::size_t only) const {
  if (passes_.size() == 1) {  // both levels of batch in one launch
    const Step& st = steps_.front();
    FftPass pass = st.pass;
    pass.in_offset += in_base;
    pass.out_offset += out_base;
    st.kernel->launch(stream, source, out, pass, direction, scale, st.twiddles);
    return;
  }
  for (std::uint64_t o = 0; o < layout_.outer_count(); ++o) {
    const std::int64_t in_at = in_base + static_cast<std::int64_t>(o) * layout_.in_dist_outer;
    const std::int64_t out_at = out_base + static_cast<std::int64_t>(o) * layout_.out_dist_outer;
    if (bluestein_) {
      bluestein_->run(stream, source, out, direction, scale, in_at, out_at);
      continue;
    }
    for (std::size_t i = 0; i < steps_.size(); ++i) {
      if (only != kAllSteps && i != only) continue;
      const Step& st = steps_[i];
      const Memory& from = st.from == Slot::in ? source : st.from == Slot::scratch1 ? *scratch1_ : *scratch2_;
      Memory& to = st.to == Slot::out ? out : st.to == Slot::scratch1 ? *scratch1_ : *scratch2_;
      FftPass pass = st.pass;
      if (st.from == Slot::in) pass.in_offset += in_at;
      if (st.to == Slot::out) pass.out_offset += out_at;
      st.kernel->launch(stream, from, to, pass, direction, st.last ? scale : 1.0, st.twiddles);
    }
  }
}

}  // namespace ripple::gpu
