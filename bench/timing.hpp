// The benchmark's measuring tools: 64-byte aligned buffers and a sampler that times two
// competitors on the same work, alternating them so that both see the same machine noise.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace ripple_bench {

/// A fixed-size array aligned to 64 bytes (a cache line; enough for any SIMD width FFTW uses).
template <class T>
class AlignedBuffer {
 public:
  explicit AlignedBuffer(std::size_t count) : count_(count) {
    const std::size_t bytes = ((count * sizeof(T) + 63) / 64) * 64;
    data_.reset(static_cast<T*>(std::aligned_alloc(64, bytes == 0 ? 64 : bytes)));
    if (!data_) throw std::bad_alloc();
    std::uninitialized_value_construct_n(data_.get(), count);
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return count_; }
  T& operator[](std::size_t i) { return data_.get()[i]; }
  const T& operator[](std::size_t i) const { return data_.get()[i]; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> data_;
  std::size_t count_ = 0;
};

/// Summary of the samples of one competitor: seconds per execute.
struct Timing {
  double median = 0;
  double min = 0;
  double max = 0;
  std::size_t reps = 0;  // executes per sample
  bool valid() const { return reps > 0; }
};

struct SamplerSettings {
  double min_sample_seconds = 0.15;  // each sample repeats the execute at least this long
  int samples = 5;                   // median of this many samples
};

/// Seconds taken by `reps` calls of `work` (a template, so the timed loop has no indirect call).
template <class Work>
double seconds_for(const Work& work, std::size_t reps) {
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < reps; ++i) work();
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

/// Number of executes that make one sample last about `target` seconds. Runs the work a few
/// times on the way, which doubles as a warm-up (caches, page faults, lazy allocations).
template <class Work>
std::size_t calibrate_reps(const Work& work, double target) {
  std::size_t reps = 1;
  for (;;) {
    const double t = seconds_for(work, reps);
    if (t >= target / 8 || reps >= (std::size_t{1} << 32)) {
      const double per = t / static_cast<double>(reps);
      return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(target / per)));
    }
    reps *= t <= 0 ? 16 : std::clamp<std::size_t>(static_cast<std::size_t>(target / 4 / t), 2, 16);
  }
}

inline Timing summarize(std::vector<double> per_exec, std::size_t reps) {
  std::sort(per_exec.begin(), per_exec.end());
  const std::size_t n = per_exec.size();
  Timing t;
  t.reps = reps;
  t.min = per_exec.front();
  t.max = per_exec.back();
  t.median = n % 2 == 1 ? per_exec[n / 2] : 0.5 * (per_exec[n / 2 - 1] + per_exec[n / 2]);
  return t;
}

/// Times `a` and `b` (one whose run_ flag is false is skipped and its Timing is invalid).
/// Each is calibrated on its own, then the samples alternate a,b / b,a / a,b ... so slow drifts
/// of the machine (other jobs, frequency) fall on both alike.
template <class A, class B>
std::pair<Timing, Timing> time_pair(const A& a, bool run_a, const B& b, bool run_b,
                                    const SamplerSettings& s) {
  const std::size_t reps_a = run_a ? calibrate_reps(a, s.min_sample_seconds) : 0;
  const std::size_t reps_b = run_b ? calibrate_reps(b, s.min_sample_seconds) : 0;
  std::vector<double> ta, tb;
  const auto sample_a = [&] {
    if (run_a) ta.push_back(seconds_for(a, reps_a) / static_cast<double>(reps_a));
  };
  const auto sample_b = [&] {
    if (run_b) tb.push_back(seconds_for(b, reps_b) / static_cast<double>(reps_b));
  };
  for (int i = 0; i < std::max(1, s.samples); ++i) {
    if (i % 2 == 0) {
      sample_a();
      sample_b();
    } else {
      sample_b();
      sample_a();
    }
  }
  return {run_a ? summarize(ta, reps_a) : Timing{}, run_b ? summarize(tb, reps_b) : Timing{}};
}

}  // namespace ripple_bench
