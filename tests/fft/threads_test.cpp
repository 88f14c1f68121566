// Checks thread safety and multi-threaded execution: plans created from several threads at once,
// one plan executed from several threads at once, the one-shot functions (plan cache) called
// concurrently, and plans with threads = 2 agreeing with threads = 1.
#include <gtest/gtest.h>

#include <atomic>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "fft/fft_test_util.hpp"

namespace ripple::fft::test {
namespace {

constexpr int kThreads = 6;

// Runs body(t) on kThreads threads released together (so their calls overlap) and returns what
// each one threw ("" for none).
template <class Body>
std::vector<std::string> run_together(const Body& body) {
  std::vector<std::string> errors(kThreads);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      try {
        body(t);
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  }
  for (auto& th : threads) th.join();
  return errors;
}

/// A plan description plus a packed input for it, and what running it produced.
struct Job {
  PlanDesc desc;
  std::vector<std::complex<double>> in_c;
  std::vector<double> in_r;
  std::vector<std::complex<double>> out_c;
  std::vector<double> out_r;
  std::string algorithm;
};

std::vector<Job> make_jobs() {
  std::vector<Job> jobs;
  std::size_t i = 0;
  for (std::size_t n : {16u, 100u, 1009u, 1024u, 2310u, 4096u, 10007u, 65536u}) {
    for (Kind kind : {Kind::c2c, Kind::r2c, Kind::c2r}) {
      Job j;
      j.desc = kind == Kind::c2c ? c2c_desc(n, Precision::f64, i % 2 ? Direction::backward : Direction::forward)
                                 : real_desc(kind, n, Precision::f64);
      j.desc.batch = 1 + i % 3;
      j.desc.threads = 1;
      const std::size_t in_count = (kind == Kind::c2r ? n / 2 + 1 : n) * j.desc.batch;
      if (kind == Kind::r2c)
        j.in_r = random_real<double>(in_count, seed_for(n, 200 + i));
      else
        j.in_c = random_complex<double>(in_count, seed_for(n, 200 + i));
      jobs.push_back(std::move(j));
      ++i;
    }
  }
  return jobs;
}

void run_job(const Plan& plan, Job& j) {
  switch (j.desc.kind) {
    case Kind::c2c: j.out_c = execute_checked<std::complex<double>, std::complex<double>>(plan, j.in_c, describe(j.desc)); break;
    case Kind::r2c: j.out_c = execute_checked<double, std::complex<double>>(plan, j.in_r, describe(j.desc)); break;
    case Kind::c2r: j.out_r = execute_checked<std::complex<double>, double>(plan, j.in_c, describe(j.desc)); break;
  }
  j.algorithm = plan.describe();
}

/// Bitwise equal if the same algorithm was chosen, else equal within rounding.
void expect_same_result(const Job& a, const Job& b, const std::string& what) {
  std::vector<cld> ra, rb;
  for (const auto& v : a.out_c) ra.push_back(as_ld(v));
  for (const auto& v : a.out_r) ra.push_back(as_ld(v));
  for (const auto& v : b.out_c) rb.push_back(as_ld(v));
  for (const auto& v : b.out_r) rb.push_back(as_ld(v));
  ASSERT_EQ(ra.size(), rb.size()) << what;
  if (a.algorithm == b.algorithm) {
    EXPECT_TRUE(ra == rb) << what << ": results differ from the single-threaded run (same algorithm \"" << a.algorithm
                          << "\"), relative L2 difference " << rel_l2(ra, rb);
  } else {
    EXPECT_LE(rel_l2(ra, rb), 2 * tolerance<double>()) << what << " (algorithms \"" << a.algorithm << "\" vs \""
                                                       << b.algorithm << "\")";
  }
}

// Every thread builds every plan (in its own order) and runs it; afterwards each result must
// match a plan built and run on the main thread alone.
TEST(Concurrency, PlansCreatedFromSeveralThreadsAtOnce) {
  const std::vector<Job> templates = make_jobs();
  std::vector<std::vector<Job>> results(kThreads, templates);
  const std::vector<std::string> errors = run_together([&](int t) {
    const std::size_t count = results[t].size();
    for (std::size_t k = 0; k < count; ++k) {
      Job& j = results[t][(k * 7 + static_cast<std::size_t>(t) * 5) % count];
      const Plan plan(j.desc);
      run_job(plan, j);
    }
  });
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(errors[t], "") << "thread " << t << " threw";
  for (std::size_t k = 0; k < templates.size(); ++k) {
    Job single = templates[k];
    run_job(Plan(single.desc), single);
    for (int t = 0; t < kThreads; ++t)
      expect_same_result(single, results[t][k], describe(single.desc) + " built on thread " + std::to_string(t));
  }
}

// One plan per job, executed by every thread at once on its own buffers, several times.
TEST(Concurrency, OnePlanExecutedFromSeveralThreadsAtOnce) {
  std::vector<Job> jobs = make_jobs();
  jobs[0].desc.threads = 2;  // a plan that itself uses the pool, called from several threads
  jobs[5].desc.threads = 2;
  std::vector<Plan> plans;
  for (Job& j : jobs) {
    plans.emplace_back(j.desc);
    run_job(plans.back(), j);  // the sequential result
  }
  constexpr int kRepeats = 3;
  std::vector<std::vector<Job>> results(kThreads, jobs);
  const std::vector<std::string> errors = run_together([&](int t) {
    for (int r = 0; r < kRepeats; ++r)
      for (std::size_t k = 0; k < jobs.size(); ++k) {
        const std::size_t idx = (k + static_cast<std::size_t>(t) * 3) % jobs.size();
        run_job(plans[idx], results[t][idx]);
      }
  });
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(errors[t], "") << "thread " << t << " threw";
    for (std::size_t k = 0; k < jobs.size(); ++k)
      expect_same_result(jobs[k], results[t][k], describe(jobs[k].desc) + " executed on thread " + std::to_string(t));
  }
}

// The one-shot functions share a plan cache; calling them from several threads at once with
// overlapping sizes must give the sequential results.
TEST(Concurrency, OneShotFunctionsFromSeveralThreadsAtOnce) {
  const std::vector<std::size_t> sizes{8, 12, 97, 256, 1000, 1009, 4096, 5000};
  std::vector<std::vector<std::complex<float>>> inputs, expected;
  for (std::size_t n : sizes) inputs.push_back(random_complex<float>(n, seed_for(n, 300)));
  std::vector<std::vector<std::vector<std::complex<float>>>> got(kThreads);
  const std::vector<std::string> errors = run_together([&](int t) {
    got[t].resize(sizes.size());
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      const std::size_t idx = (k + static_cast<std::size_t>(t)) % sizes.size();
      got[t][idx] = fft(std::span<const std::complex<float>>(inputs[idx]), Norm::ortho);
    }
  });
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(errors[t], "") << "thread " << t << " threw";
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const auto seq = fft(std::span<const std::complex<float>>(inputs[k]), Norm::ortho);
    const double err = rel_l2(seq, ref_c2c(to_ld(inputs[k]), true, Norm::ortho));
    EXPECT_LE(err, tolerance<float>()) << "fft N=" << sizes[k];
    for (int t = 0; t < kThreads; ++t)
      EXPECT_TRUE(got[t][k] == seq) << "fft N=" << sizes[k] << " on thread " << t << " differs from the sequential call";
  }
}

// threads = 2 and threads = 1 agree within rounding, on one large transform and on a large batch,
// and both meet the reference.
template <class T, Kind K>
void compare_thread_counts(PlanDesc d) {
  d.threads = 2;
  check_layout<T, K>(d, 400);  // against the reference, on the layout

  using InT = typename Types<T, K>::In;
  using OutT = typename Types<T, K>::Out;
  const Side in = input_side(d);
  std::vector<InT> x(in.span());
  Rng rng(401);
  for (auto& v : x) detail::fill_random(rng, v);
  d.threads = 1;
  const auto y1 = execute_checked<InT, OutT>(Plan(d), x, describe(d));
  d.threads = 2;
  const auto y2 = execute_checked<InT, OutT>(Plan(d), x, describe(d));
  ASSERT_EQ(y1.size(), y2.size());
  L2Error e;
  for (std::size_t i = 0; i < y1.size(); ++i) e.add(as_ld(y2[i]), as_ld(y1[i]));
  EXPECT_LE(e.rel(), tolerance<T>()) << describe(d) << ": threads=2 vs threads=1: " << e.describe();
}

TEST(ThreadCount, TwoThreadsMatchOneOnALargeTransform) {
  const std::size_t n = quick_mode() ? (1u << 16) : (1u << 20);
  compare_thread_counts<double, Kind::c2c>(c2c_desc(n, Precision::f64, Direction::forward));
  const std::size_t odd = quick_mode() ? 59049 : 531441;  // 3^10, 3^12
  compare_thread_counts<float, Kind::c2c>(c2c_desc(odd, Precision::f32, Direction::backward));
}

TEST(ThreadCount, TwoThreadsMatchOneOnALargeBatch) {
  compare_thread_counts<float, Kind::c2c>(c2c_desc(1024, Precision::f32, Direction::forward, Norm::ortho, 1000));
  PlanDesc r = real_desc(Kind::r2c, 4096, Precision::f64, Norm::backward, 257);
  compare_thread_counts<double, Kind::r2c>(r);
  PlanDesc c = real_desc(Kind::c2r, 1000, Precision::f32, Norm::forward, 300);
  c.out_stride = 300;
  c.out_dist = 1;
  compare_thread_counts<float, Kind::c2r>(c);
}

// Transforms short enough for the DFT matrix (fft/real.cpp) share out their batch too (the
// batches hold more than the 2^15 points from which a plan uses its threads).
TEST(ThreadCount, TwoThreadsMatchOneOnABatchOfShortRealTransforms) {
  compare_thread_counts<float, Kind::r2c>(real_desc(Kind::r2c, 12, Precision::f32, Norm::ortho, 3001));
  PlanDesc c = real_desc(Kind::c2r, 5, Precision::f64, Norm::backward, 7001);
  c.out_stride = 7001;
  c.out_dist = 1;
  compare_thread_counts<double, Kind::c2r>(c);
}

}  // namespace
}  // namespace ripple::fft::test
