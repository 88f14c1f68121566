// bench_gpu_fft: ripple's GPU FFT (fft::DevicePlan on device Buffers) against the device's
// memcpy bandwidth, cuFFT and VkFFT (issue 6, "Benchmark"), on one device. Run by
// bench/gpu/run.sh through bench/gpu/fft_gpu.py, which prints the targets and saves the
// table; on PoCL (--quick) it only shows that every part works.
//
//   bench_gpu_fft [--device cuda:0|opencl:P.D] [--quick] [--reps 5] [--json out.json]
//                 [--sections plan,batched,single,caps,staging,padding,nd,innermost] [--sizes 2-64,97,4096] [--precisions f32,f64]
//                 [--peers cufft,vkfft_cuda,vkfft_opencl|none] [--mem-mib 1024] [--time-limit SEC]
//                 [--compile-only [--shard I/N]]
//
// --compile-only: make ripple's plan of every case (of every Nth case from the Ith with --shard)
// and nothing else: no peers, no inputs, no timing. Plans compile their programs into the disk
// kernel cache, so N such processes at once (fft_gpu.py --prewarm N) take the cold NVRTC compiles,
// about a second a case, off the timed run, which then loads them from the cache (plan creation
// is timed only in the plan section, with the disk cache off).
// --time-limit: start no new case after SEC seconds (a device call has a time limit); the JSON,
// rewritten after every case, then says "complete": false. Cases run float 1-D first, then N-D,
// then double 1-D.
//
// Every case is forward, out of place, packed (FFTW's / cuFFT's default layout; the innermost
// section: element i of transform b at i x batch + b, both sides), on the same random
// input for every library (uploaded once per precision: out of place leaves it intact, so cases
// need no re-upload). Each library times its own execute: a warm-up, then --reps samples of
// enough back-to-back executes to last 10 ms (1 ms with --quick), each sample ending with a
// synchronize; the median per execute is reported. GB/s counts one read of the input and one
// write of the output; "of memcpy" divides by a device-to-device copy of the same bytes (ripple's
// queue, timed the same way: 2 x bytes / time).
//
// Checks: ripple's output for a few transforms of each case (first, middle, last of the batch)
// against ripple's CPU fft::Plan in double on the same input (relative L2 over those transforms;
// bound 2 x the GPU FFT tests' 1.5e-7 log2 N (f32) / 3e-16 log2 N (f64)); each peer's output for
// the same transforms against ripple's (bound 4 x that, as the peers make errors of their own),
// or against the CPU reference where ripple cannot run the case, so a wrong peer setup (layout,
// sign, stride) shows as FAIL rather than as a speed. Transforms of more than 2^26 points are
// not checked against the CPU (host time); peers are then compared with each other.
//
// Cases (--sizes replaces the batched sweep's list; --sections picks among plan, batched,
// single, caps, staging, padding, nd, innermost):
// - batched 1-D c2c, f32 and f64, N from 2 to 4096 with --mem-mib of data (1 GiB; batch =
//   bytes / (N x complex size)). Not all 4095 sizes: each size costs a cold plan (NVRTC) in
//   ripple and in VkFFT plus the timing of four libraries, about 1 s, so 8190 cases would take over
//   two hours (a device call may last 10 minutes). The sweep covers every code path and size
//   class instead, 123 sizes per precision: every N <= 64 (where the per-size radix choices differ
//   most), every power of two, 30 7-smooth sizes of one to four distinct factors up to 4096 (the
//   one-kernel path), 14 primes (67 .. 4093: on the GPU by Rader in one kernel where p - 1 is
//   19-smooth, 67, 97, 127, 131, 257, 521, 1021, 2053, 3001; the others by Bluestein, in the one
//   kernel up to 2048, in three fused passes above) and 10 composites with a prime
//   factor > 7 (143 = 11 x 13, 4078 = 2 x 2039, 4095 = 3^2 5 7 13, ...). `--sizes 2-4096` runs
//   them all when there is time;
// - single 1-D c2c transforms, N = 2^12 .. 2^26 (batch 1), and six sizes with a prime factor
//   above 19 beyond one kernel (two by Rader's last pass, one by Bluestein's in the kernel as
//   the last pass, three by Bluestein's passes over the whole size: three fused, and five for
//   the prime 8388617), f32 and f64;
// - staging: batched c2c (1 GiB) of small sizes, float and double, with ripple's default choice
//   of staging a packed batch through local memory (FFT_STAGED_IO; and the peers), then with
//   the other choice, ripple alone;
// - padding: batched c2c (1 GiB) of sizes whose exchanges through local memory met in one bank
//   unpadded (powers of two from 8, 24, 60, 1000), float and double, and single c2c f32 of 2^20
//   and 2^24, with ripple's local memory padded against bank conflicts (FftShape::lds_row, the
//   default; and the peers), then unpadded (gpu::FftShapeTuning::pad_local), ripple alone;
// - caps: single 1-D c2c f32 of 2^20, 2^22, 2^24, 2^26 points with the public plan's passes
//   (and the peers), then ripple alone with its passes capped at 4096, 2048, 1024, 512, 256
//   points where that changes the split (three passes in place of two wide ones; the internal
//   DeviceFftPlan's max_pass), each split also with column groups of 64 and 128 bytes (the
//   default 32: gpu::FftShapeTuning), with every pass that can staged through local memory
//   (FFT_STAGED_IO; by default no column shape, which interleave instead), with none staged
//   (columns interleaved, the default's way), and with none staged nor interleaved
//   (gpu::FftShapeTuning::interleave off), each pass also timed alone (DeviceFftPlan::run_step):
//   which is faster, and which pass is slow, is for a GPU to say;
// - 2-D 4096^2, 3-D 128^3, 256^3, 512^3 c2c f32, r2c 3-D 128^3 / 256^3 / 512^3 f32, and single
//   1-D r2c of 2^21 .. 2^25 reals f32 (a plan ripple cannot make is reported as "unsupported by
//   ripple yet" while the peers and memcpy are still timed). f64 N-D cases are left out (the issue's targets are for float).
// - innermost batching (the layout VkFFT users ask for), 1-D float with --mem-mib of data: c2c
//   N = 256 and 4096 (one kernel, column-shaped), 16384, 2^16 and 2^20 (two passes), 10007 and
//   100003 (Bluestein's three fused passes); r2c of 2^16 and 2^20 reals (VkFFT: c2c only, a 2-D
//   array whose contiguous batch axis is not transformed).
// - plan creation: ripple cold (kernel disk cache switched off, first use in this process:
//   compiles) and warm (the same plan again: memory cache), with the programs compiled counted,
//   beside each peer's first and second plan of the same case: c2c f32 N = 64 .. 4096, 1000,
//   4093 and 2^20, r2c of 2^21 reals and Bluestein's 1000003 (large tables).
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../cli_args.hpp"
#include "../fft_cases.hpp"
#include "fft_peer.hpp"
#include "gpu/device_fft.hpp"
#include "gpu/device_fft_plan.hpp"
#include "gpu/kernel_cache.hpp"
#include "gpu/queue_impl.hpp"
#include "gpu/tuning.hpp"
#include "ripple/device.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"
#include "ripple/fft/device.hpp"

#ifndef RIPPLE_BENCH_PEERS_NOT_BUILT
#define RIPPLE_BENCH_PEERS_NOT_BUILT ""
#endif

namespace {

using namespace ripple;
using ripple_bench::FftCase;
using ripple_bench::FftPeer;
using Clock = std::chrono::steady_clock;
using cd = std::complex<double>;

// ---------------------------------------------------------------------------------------------
// Options and cases

struct Options {
  std::string device;
  bool quick = false;
  int reps = 5;
  std::string json;
  std::vector<std::string> sections{"plan", "batched", "single", "caps", "staging", "padding", "nd", "innermost"};
  std::vector<std::size_t> sizes;  // batched sweep; empty: the default list
  std::vector<bool> doubles{false, true};
  std::vector<std::string> peers{"cufft", "vkfft_cuda", "vkfft_opencl"};
  std::size_t mem_bytes = 0;  // per case and library
  std::filesystem::path peer_dir;
  double time_limit = 0;  // seconds; 0: none
  bool compile_only = false;     // make ripple's plans of the cases (filling the disk cache), no timing
  std::size_t shard = 0, shards = 1;  // this process's cases: index mod shards == shard
  std::string started;    // UTC, YYYYmmdd-HHMM
  std::string command;    // argv joined
};

struct BenchCase {
  std::string group;  // batched, single, caps, 2d, 3d, r2c-3d, r2c-1d, innermost
  std::string kind;   // pow2, smooth, prime, awkward (1-D); empty for N-D
  FftCase c;
  /// caps: ripple's passes capped at this many points (the internal plan's max_pass), 0 for the
  /// public plan's own choice; capped rows time ripple alone.
  std::uint64_t max_pass = 0;
  /// staging: -1 the default choice of FFT_STAGED_IO; 0 or 1 forced off or on for every
  /// program of the plan that can stage (gpu::FftShapeTuning::staging; ripple alone).
  int staged_io = -1;
  /// caps: bytes of adjacent columns a column-shaped group takes (gpu::FftShapeTuning), 0 for
  /// the default.
  std::uint64_t column_bytes = 0;
  /// padding: -1 local memory padded as the shapes choose; 0 unpadded
  /// (gpu::FftShapeTuning::pad_local; ripple alone).
  int pad_local = -1;
  /// caps: -1 column shapes interleaved as the shapes choose; 0 not
  /// (gpu::FftShapeTuning::interleave; ripple alone).
  int interleave = -1;
};

/// A case's choices of ripple's shapes (staging, column width, padding): hold them in a
/// gpu::ScopedFftShapeTuning while its plans are made.
gpu::FftShapeTuning shape_choices(const BenchCase& bc) {
  gpu::FftShapeTuning t;
  if (bc.staged_io >= 0) t.staging = bc.staged_io;
  if (bc.column_bytes) t.column_bytes = bc.column_bytes;
  if (bc.pad_local == 0) t.pad_local = false;
  if (bc.interleave == 0) t.interleave = false;
  return t;
}

/// pow2, smooth (7-smooth, so 3, 5 and 7 too), prime (> 7: the "prime N >= 2x cuFFT"
/// target), awkward (a prime factor > 7 and composite). The CPU benchmark's classification, with
/// its primes 3, 5, 7 counted as smooth. (On the GPU, 11, 13, 17 and 19 have codelets too: those
/// primes and the awkward sizes made of them run in one kernel, larger primes by Rader in one
/// kernel where p - 1 is 19-smooth, else by Bluestein: in the one kernel too up to 2048.)
std::string size_kind(std::size_t n) {
  switch (ripple_bench::classify(n)) {
    case ripple_bench::Category::pow2: return "pow2";
    case ripple_bench::Category::prime: return n > 7 ? "prime" : "smooth";
    case ripple_bench::Category::smooth: return "smooth";
    default: return "awkward";
  }
}

std::vector<std::size_t> default_sweep(bool quick) {
  if (quick) return {2, 3, 4, 5, 7, 8, 11, 16, 17, 60, 64, 97, 128, 243, 1000, 1024, 2053, 4095, 4096};
  std::vector<std::size_t> s;
  for (std::size_t n = 2; n <= 64; ++n) s.push_back(n);
  for (std::size_t n = 128; n <= 4096; n *= 2) s.push_back(n);
  // 7-smooth sizes of one to four distinct prime factors, spread over the range.
  for (std::size_t n : {81, 96, 100, 105, 125, 168, 210, 243, 343, 360, 384, 441, 625, 729, 768, 1000, 1029, 1080,
                        735, 1536, 2025, 2187, 2401, 3000, 3072, 3125, 3375, 3584, 3969, 4000})
    s.push_back(n);
  // primes: small to large (on the GPU: Rader in one kernel where p - 1 is 19-smooth; else
  // Bluestein, in one kernel up to 2048, then three passes)
  for (std::size_t n : {67, 97, 127, 131, 257, 509, 521, 1021, 1031, 2039, 2053, 3001, 4091, 4093}) s.push_back(n);
  // composites with one prime factor > 7
  for (std::size_t n : {88, 143, 286, 323, 891, 1155, 2047, 3027, 4078, 4095}) s.push_back(n);
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

std::size_t complex_bytes(const FftCase& c) { return c.is_double ? 16 : 8; }
std::size_t points(const FftCase& c) {
  std::size_t p = 1;
  for (int a = 0; a < c.rank; ++a) p *= c.n[a];
  return p;
}
std::size_t in_per(const FftCase& c) { return points(c); }
std::size_t out_per(const FftCase& c) { return c.r2c ? points(c) / c.n[c.rank - 1] * (c.n[c.rank - 1] / 2 + 1) : points(c); }
std::size_t in_elem_bytes(const FftCase& c) { return c.r2c ? complex_bytes(c) / 2 : complex_bytes(c); }
std::size_t in_bytes(const FftCase& c) { return in_per(c) * c.batch * in_elem_bytes(c); }
std::size_t out_bytes(const FftCase& c) { return out_per(c) * c.batch * complex_bytes(c); }

std::string shape_text(const FftCase& c) {
  std::string s;
  for (int a = 0; a < c.rank; ++a) {
    if (a) s += 'x';
    s += std::to_string(c.n[a]);
  }
  return s;
}

/// In order of importance, so that a run cut short by --time-limit has the float cases: 1-D
/// float, N-D (float), then 1-D double.
std::vector<BenchCase> make_cases(const Options& o) {
  std::vector<BenchCase> cases;
  auto has = [&](const char* s) { return std::find(o.sections.begin(), o.sections.end(), s) != o.sections.end(); };
  auto one_d = [&](bool dbl) {
    if (std::find(o.doubles.begin(), o.doubles.end(), dbl) == o.doubles.end()) return;
    if (has("batched")) {
      for (std::size_t n : o.sizes.empty() ? default_sweep(o.quick) : o.sizes) {
        FftCase c;
        c.n[0] = n;
        c.is_double = dbl;
        c.batch = std::max<std::size_t>(1, o.mem_bytes / (n * complex_bytes(c)));
        cases.push_back({"batched", size_kind(n), c});
      }
    }
    if (has("staging")) {
      // Batches staged through local memory (FFT_STAGED_IO) or loaded directly: each size with
      // the default choice (and the peers), then with the other, ripple alone.
      for (std::size_t n : o.quick ? std::vector<std::size_t>{8, 9, 64}
                                   : std::vector<std::size_t>{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                                              17, 19, 20, 25, 32, 49, 64, 125, 128}) {
        FftCase c;
        c.n[0] = n;
        c.is_double = dbl;
        c.batch = std::max<std::size_t>(1, o.mem_bytes / (n * complex_bytes(c)));
        cases.push_back({"staging", size_kind(n), c});
        BenchCase other{"staging", size_kind(n), c};
        other.staged_io = gpu::DeviceFft::shape(n, dbl, false).staged_io ? 0 : 1;
        cases.push_back(other);
      }
    }
    if (has("padding")) {
      // Local memory padded against bank conflicts (the default) or not: each case with the
      // default (and the peers), then unpadded, ripple alone.
      const auto both = [&](const char* group, const FftCase& c) {
        cases.push_back({group, size_kind(c.n[0]), c});
        BenchCase unpadded{group, size_kind(c.n[0]), c};
        unpadded.pad_local = 0;
        cases.push_back(unpadded);
      };
      for (std::size_t n : o.quick ? std::vector<std::size_t>{16, 256}
                                   : std::vector<std::size_t>{8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 24, 60,
                                                              1000}) {
        FftCase c;
        c.n[0] = n;
        c.is_double = dbl;
        c.batch = std::max<std::size_t>(1, o.mem_bytes / (n * complex_bytes(c)));
        both("padding", c);
      }
      if (!dbl)
        for (int e : {20, 24}) {
          FftCase c;
          c.n[0] = std::size_t{1} << e;
          if (in_bytes(c) <= o.mem_bytes && !o.quick) both("padding", c);
        }
    }
    if (has("single")) {
      const int hi = o.quick ? 16 : 26;
      for (int e = 12; e <= hi; ++e) {
        FftCase c;
        c.n[0] = std::size_t{1} << e;
        c.is_double = dbl;
        if (in_bytes(c) > o.mem_bytes) continue;
        cases.push_back({"single", "pow2", c});
      }
      // A prime factor above 19 beyond one kernel: Rader's prime as the last pass (23 x 2^16,
      // 1000 x 2053; quick: 256 x 23), Bluestein's in the kernel as the last pass (47 x 2^16,
      // 46 = 2 x 23; quick: 256 x 47), Bluestein's three fused passes (the prime 2^20 - 3,
      // 256 x 4099, 4098 having the factor 683; quick: 10007), his five (the prime 8388617, whose
      // convolution is past 4096^2 points).
      for (std::size_t n : o.quick ? std::vector<std::size_t>{5888, 12032, 10007}
                                   : std::vector<std::size_t>{1507328, 2053000, 3080192, 1048573, 1049344, 8388617}) {
        FftCase c;
        c.n[0] = n;
        c.is_double = dbl;
        if (in_bytes(c) > o.mem_bytes) continue;
        cases.push_back({"single", size_kind(n), c});
      }
    }
  };
  one_d(false);
  if (has("caps") && std::find(o.doubles.begin(), o.doubles.end(), false) != o.doubles.end()) {
    // Two wide passes against three narrower ones: each size with the public plan's split (and
    // the peers), then under each lower cap that changes the split.
    for (int e : o.quick ? std::vector<int>{16, 18} : std::vector<int>{20, 22, 24, 26}) {
      const std::uint64_t n = std::uint64_t{1} << e;
      std::vector<std::vector<std::uint64_t>> seen{gpu::DeviceFftPlan::split(n, false)};
      FftCase c;
      c.n[0] = n;
      cases.push_back({"caps", "pow2", c, 0});
      std::vector<std::uint64_t> caps{0};
      for (std::uint64_t cap : {4096, 2048, 1024, 512, 256}) {
        std::vector<std::uint64_t> passes;
        try {
          passes = gpu::DeviceFftPlan::split(n, false, cap);
        } catch (const Unsupported&) {
          continue;  // more than three passes
        }
        if (std::find(seen.begin(), seen.end(), passes) != seen.end()) continue;
        seen.push_back(passes);
        caps.push_back(cap);
      }
      // Each split with column groups of 32 bytes (the default), 64 and 128, then with every
      // pass that can staged through local memory (column tiles), then with none.
      for (std::uint64_t cap : caps) {
        for (std::uint64_t width : {std::uint64_t{0}, std::uint64_t{64}, std::uint64_t{128}}) {
          if (cap == 0 && width == 0) continue;  // the first row
          BenchCase bc{"caps", "pow2", c, cap};
          bc.column_bytes = width;
          cases.push_back(bc);
        }
        for (int staging : {1, 0}) {
          BenchCase forced{"caps", "pow2", c, cap};
          forced.staged_io = staging;
          cases.push_back(forced);
        }
        BenchCase apart{"caps", "pow2", c, cap};  // neither staged nor interleaved (before 2026-11-30)
        apart.staged_io = 0;
        apart.interleave = 0;
        cases.push_back(apart);
      }
    }
  }
  if (has("nd") && std::find(o.doubles.begin(), o.doubles.end(), false) != o.doubles.end()) {
    auto add = [&](const char* group, std::vector<std::size_t> shape, bool r2c) {
      FftCase c;
      c.rank = static_cast<int>(shape.size());
      for (std::size_t a = 0; a < shape.size(); ++a) c.n[a] = shape[a];
      c.r2c = r2c;
      if (in_bytes(c) > o.mem_bytes || out_bytes(c) > o.mem_bytes + o.mem_bytes / 8) return;
      cases.push_back({group, "", c});
    };
    const std::size_t s2 = o.quick ? 256 : 4096;
    add("2d", {s2, s2}, false);
    for (std::size_t s : o.quick ? std::vector<std::size_t>{16, 32, 64} : std::vector<std::size_t>{128, 256, 512})
      add("3d", {s, s, s}, false);
    for (std::size_t s : o.quick ? std::vector<std::size_t>{16, 32, 64} : std::vector<std::size_t>{128, 256, 512})
      add("r2c-3d", {s, s, s}, true);
    // Single 1-D r2c: the half's passes with the split fused into the last one (2^21, 2^22 reals)
    // or a split kernel after them (2^23 and up: kFftMaxSplitPass).
    for (int e : o.quick ? std::vector<int>{14, 16} : std::vector<int>{21, 22, 23, 24, 25})
      add("r2c-1d", {std::size_t{1} << e}, true);
  }
  if (has("innermost") && std::find(o.doubles.begin(), o.doubles.end(), false) != o.doubles.end()) {
    auto add = [&](std::size_t n, bool r2c) {
      FftCase c;
      c.n[0] = n;
      c.r2c = r2c;
      c.innermost = true;
      c.batch = std::max<std::size_t>(2, o.mem_bytes / (n * in_elem_bytes(c)));
      cases.push_back({"innermost", size_kind(n), c});
    };
    const std::vector<std::size_t> c2c = o.quick ? std::vector<std::size_t>{256, 16384, 10007}
                                                 : std::vector<std::size_t>{256, 4096, 16384, 65536, 1u << 20, 10007, 100003};
    for (std::size_t n : c2c) add(n, false);
    for (std::size_t n : o.quick ? std::vector<std::size_t>{1u << 14} : std::vector<std::size_t>{1u << 16, 1u << 20})
      add(n, true);
  }
  one_d(true);
  return cases;
}

// ---------------------------------------------------------------------------------------------
// ripple as a library beside the peers

/// Thrown where ripple's plan says Unsupported: the row reports it instead of a failure.
struct NotSupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// ripple's description of a case: packed, or innermost-batched on both sides.
fft::PlanDesc plan_desc(const FftCase& c) {
  fft::PlanDesc d;
  d.shape.assign(c.n.begin(), c.n.begin() + c.rank);
  d.batch = c.batch;
  d.kind = c.r2c ? fft::Kind::r2c : fft::Kind::c2c;
  d.precision = c.is_double ? fft::Precision::f64 : fft::Precision::f32;
  if (c.innermost) {
    d.in_stride = d.out_stride = static_cast<std::ptrdiff_t>(c.batch);
    d.in_dist = d.out_dist = 1;
  }
  return d;
}

/// The caps section's plan: the internal multi-pass plan of a packed 1-D c2c batch, its passes
/// capped at max_pass points.
gpu::DeviceFftPlan capped_plan(const Queue& q, const FftCase& c, std::uint64_t max_pass) {
  if (c.rank != 1 || c.r2c || c.innermost) throw std::runtime_error("a capped plan is a packed 1-D c2c");
  gpu::FftLayout l;
  l.batch = c.batch;
  l.in_dist = l.out_dist = static_cast<std::int64_t>(c.n[0]);
  gpu::DeviceFftPlan plan(gpu::context_of(q), c.n[0], c.is_double, l, max_pass);
  plan.wait_ready();
  return plan;
}

class RippleLib final : public FftPeer {
 public:
  explicit RippleLib(const Queue& q) : q_(q) {}
  std::string name() const override { return "ripple"; }
  void prepare(const void* host, std::size_t bytes, std::size_t out_bytes) override {
    host_ = host;
    bytes_ = bytes;
    out_bytes_ = std::max(out_bytes_, out_bytes);
  }
  /// The next plans' passes capped at `cap` points (0: the public plan's choice). A capped plan
  /// is the internal DeviceFftPlan of a packed 1-D c2c batch (the caps section).
  void set_max_pass(std::uint64_t cap) { max_pass_ = cap; }
  void release() override {
    plan_.reset();
    capped_.reset();
    in_cf_.reset(), in_cd_.reset(), in_f_.reset(), in_d_.reset(), out_cf_.reset(), out_cd_.reset();
  }
  void plan(const FftCase& c) override {
    plan_.reset();
    case_ = c;
    const fft::PlanDesc d = plan_desc(c);
    if (c.is_double) {
      c.r2c ? ensure(in_d_, in_d_key_) : ensure(in_cd_, in_cd_key_);
      ensure_out(out_cd_);
    } else {
      c.r2c ? ensure(in_f_, in_f_key_) : ensure(in_cf_, in_cf_key_);
      ensure_out(out_cf_);
    }
    try {
      if (max_pass_ == 0) {
        plan_.emplace(q_, d);
      } else {
        capped_.emplace(capped_plan(q_, c, max_pass_));
      }
    } catch (const Unsupported& e) {
      throw NotSupported(e.what());
    }
  }
  void destroy_plan() override {
    plan_.reset();
    capped_.reset();
  }
  void execute() override {
    if (capped_) {
      capped_->run(gpu::stream_of(q_), in_memory(), out_memory(), fft::Direction::forward, 1.0);
      return;
    }
    if (case_.is_double) {
      if (case_.r2c) plan_->execute(*in_d_, *out_cd_);
      else plan_->execute(*in_cd_, *out_cd_);
    } else {
      if (case_.r2c) plan_->execute(*in_f_, *out_cf_);
      else plan_->execute(*in_cf_, *out_cf_);
    }
  }
  void synchronize() override { q_.synchronize(); }
  void download(std::size_t offset, void* dst, std::size_t bytes) override {
    gpu::stream_of(q_).download(out_memory(), offset, dst, bytes);
  }
  std::string describe() const { return capped_ ? capped_->describe() : plan_ ? plan_->describe() : ""; }
  /// Step `index` of `plan` alone on the current case's buffers (its passes timed one by one).
  void run_step(const gpu::DeviceFftPlan& plan, std::size_t index) {
    plan.run_step(gpu::stream_of(q_), in_memory(), out_memory(), index);
  }
  const Queue& queue() const { return q_; }
  /// The device-to-device copy of `bytes` bytes from the current case's input to its output.
  void copy(std::size_t bytes) { gpu::stream_of(q_).copy(in_memory(), 0, out_memory(), 0, bytes); }

 private:
  struct Key {
    const void* host = nullptr;
    std::size_t bytes = 0;
  };
  template <class T>
  void ensure(std::optional<Buffer<T>>& b, Key& key) {
    const std::size_t n = bytes_ / sizeof(T);
    if (!b || b->size() < n) {
      b.reset();
      b.emplace(q_, n);
      key = {};
    }
    if (key.host != host_ || key.bytes != bytes_) {
      b->upload(std::span<const T>(static_cast<const T*>(host_), n));
      key = {host_, bytes_};
    }
  }
  template <class T>
  void ensure_out(std::optional<Buffer<T>>& b) {
    const std::size_t n = (out_bytes_ + sizeof(T) - 1) / sizeof(T);
    if (!b || b->size() < n) {
      b.reset();
      b.emplace(q_, n);
    }
  }
  const gpu::Memory& in_memory() const {
    if (case_.is_double) return case_.r2c ? gpu::memory_of(in_d_->raw()) : gpu::memory_of(in_cd_->raw());
    return case_.r2c ? gpu::memory_of(in_f_->raw()) : gpu::memory_of(in_cf_->raw());
  }
  gpu::Memory& out_memory() {
    return case_.is_double ? gpu::memory_of(out_cd_->raw()) : gpu::memory_of(out_cf_->raw());
  }

  Queue q_;
  const void* host_ = nullptr;
  std::size_t bytes_ = 0, out_bytes_ = 0;
  FftCase case_;
  std::optional<Buffer<std::complex<float>>> in_cf_, out_cf_;
  std::optional<Buffer<std::complex<double>>> in_cd_, out_cd_;
  std::optional<Buffer<float>> in_f_;
  std::optional<Buffer<double>> in_d_;
  Key in_cf_key_, in_cd_key_, in_f_key_, in_d_key_;
  std::optional<fft::DevicePlan> plan_;
  std::uint64_t max_pass_ = 0;
  std::optional<gpu::DeviceFftPlan> capped_;
};

// ---------------------------------------------------------------------------------------------
// Peers from their plugins

struct LoadedPeer {
  std::string plugin;  // cufft, vkfft_cuda, vkfft_opencl
  std::unique_ptr<FftPeer> peer;
  std::string why;  // why not loaded
};

std::string not_built_reason(const std::string& plugin) {
  // RIPPLE_BENCH_PEERS_NOT_BUILT: "plugin: reason|plugin: reason|" from CMake.
  for (const std::string& item : ripple_bench::split(RIPPLE_BENCH_PEERS_NOT_BUILT, '|'))
    if (item.rfind(plugin + ": ", 0) == 0) return "not built: " + item.substr(plugin.size() + 2);
  return "";
}

std::vector<LoadedPeer> load_peers(const Options& o, const std::string& device) {
  std::vector<LoadedPeer> out;
  for (const std::string& name : o.peers) {
    LoadedPeer lp;
    lp.plugin = name;
    const std::filesystem::path file = o.peer_dir / ("libbench_fft_peer_" + name + ".so");
    if (!std::filesystem::exists(file)) {
      lp.why = not_built_reason(name);
      if (lp.why.empty()) lp.why = "no plugin " + file.string();
      out.push_back(std::move(lp));
      continue;
    }
    void* h = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      lp.why = std::string("dlopen: ") + dlerror();
      out.push_back(std::move(lp));
      continue;
    }
    auto make = reinterpret_cast<ripple_bench::MakeFftPeer>(dlsym(h, ripple_bench::kMakeFftPeerSymbol));
    if (!make) {
      lp.why = std::string("dlsym: ") + dlerror();
    } else {
      std::string why;
      lp.peer.reset(make(device.c_str(), &why));
      lp.why = lp.peer ? "" : why;
    }
    // Plugins stay loaded for the life of the process (their runtimes keep state).
    out.push_back(std::move(lp));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Timing, checking

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// Seconds per execute: warm-up, then `reps` samples of enough executes to last `target` s.
double time_execute(const std::function<void()>& exec, const std::function<void()>& sync, int reps, double target) {
  exec();
  sync();
  auto t0 = Clock::now();
  exec();
  sync();
  const double one = std::max(seconds_since(t0), 1e-7);
  const int inner = static_cast<int>(std::clamp(std::ceil(target / one), 1.0, 1000.0));
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    t0 = Clock::now();
    for (int i = 0; i < inner; ++i) exec();
    sync();
    samples.push_back(seconds_since(t0) / inner);
  }
  return median(samples);
}

/// Deterministic uniform values in [-1, 1) from their index (so any transform's input is known
/// without keeping a copy), filled by all hardware threads.
template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (std::size_t i = n * t / threads; i < n * (t + 1) / threads; ++i) {
        std::uint64_t z = (i + 1) * 0x9e3779b97f4a7c15ULL ^ seed;  // splitmix64
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        v[i] = static_cast<T>(static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0);
      }
    });
  }
  for (auto& th : pool) th.join();
  return v;
}

struct LibResult {
  std::string name;
  std::string status = "ok";  // ok, "unsupported by ripple yet: ...", "n/a: ...", "failed: ..."
  double seconds = 0;
  double plan_seconds = 0;
  double err_ref = -1;     // vs the CPU double reference (-1: not checked)
  double err_ripple = -1;  // vs ripple's output (-1: not compared)
  double err_peer = -1;    // vs the first peer that ran (only where ripple did not run)
  bool checked = false;
  bool ok = false;
  std::string describe;
  std::vector<double> pass_seconds;  // caps: each pass of ripple's plan timed alone
};

struct CaseResult {
  BenchCase bc;
  std::size_t bytes = 0;  // one read + one write
  double memcpy_seconds = 0;
  LibResult ripple;
  std::vector<LibResult> peers;
  double bound = 0;
};

double error_bound(const FftCase& c) {
  const double log2n = std::max(1.0, std::log2(double(points(c))));
  return (c.is_double ? 3e-16 : 1.5e-7) * log2n;
}

std::vector<std::size_t> check_indices(const FftCase& c) {
  std::vector<std::size_t> idx{0, c.batch / 2, c.batch - 1};
  std::sort(idx.begin(), idx.end());
  idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
  return idx;
}

/// The checked transforms' outputs of one library, widened to double.
std::vector<cd> download_checked(FftPeer& lib, const FftCase& c) {
  const std::size_t per = out_per(c), cb = complex_bytes(c);
  std::vector<cd> out;
  if (c.innermost) {  // the whole output, then every batch-th value
    const auto gather = [&](const auto& all) {
      for (std::size_t b : check_indices(c))
        for (std::size_t k = 0; k < per; ++k) out.emplace_back(all[k * c.batch + b].real(), all[k * c.batch + b].imag());
    };
    if (c.is_double) {
      std::vector<cd> all(per * c.batch);
      lib.download(0, all.data(), all.size() * cb);
      gather(all);
    } else {
      std::vector<std::complex<float>> all(per * c.batch);
      lib.download(0, all.data(), all.size() * cb);
      gather(all);
    }
    return out;
  }
  for (std::size_t b : check_indices(c)) {
    if (c.is_double) {
      std::vector<cd> v(per);
      lib.download(b * per * cb, v.data(), per * cb);
      out.insert(out.end(), v.begin(), v.end());
    } else {
      std::vector<std::complex<float>> v(per);
      lib.download(b * per * cb, v.data(), per * cb);
      for (auto x : v) out.emplace_back(x.real(), x.imag());
    }
  }
  return out;
}

/// The CPU reference of the checked transforms: ripple's fft::Plan in double.
std::vector<cd> reference(const FftCase& c, const void* host) {
  fft::PlanDesc d;
  d.shape.assign(c.n.begin(), c.n.begin() + c.rank);
  d.kind = c.r2c ? fft::Kind::r2c : fft::Kind::c2c;
  d.precision = fft::Precision::f64;
  const fft::Plan plan(d);
  const std::size_t in = in_per(c), per = out_per(c);
  std::vector<cd> out;
  for (std::size_t b : check_indices(c)) {
    std::vector<cd> y(per);
    // Element i of transform b in the host input.
    const auto at = [&](std::size_t i) { return c.innermost ? i * c.batch + b : b * in + i; };
    if (c.r2c) {
      std::vector<double> x(in);
      for (std::size_t i = 0; i < in; ++i)
        x[i] = c.is_double ? static_cast<const double*>(host)[at(i)] : static_cast<const float*>(host)[at(i)];
      plan.execute(x.data(), y.data());
    } else {
      std::vector<cd> x(in);
      for (std::size_t i = 0; i < in; ++i) {
        if (c.is_double) x[i] = static_cast<const cd*>(host)[at(i)];
        else {
          const auto v = static_cast<const std::complex<float>*>(host)[at(i)];
          x[i] = cd(v.real(), v.imag());
        }
      }
      plan.execute(x.data(), y.data());
    }
    out.insert(out.end(), y.begin(), y.end());
  }
  return out;
}

double rel_l2(const std::vector<cd>& a, const std::vector<cd>& ref) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const cd d = a[i] - ref[i];
    num += (long double)std::norm(d);
    den += (long double)std::norm(ref[i]);
  }
  const double e = den == 0 ? std::sqrt(double(num)) : std::sqrt(double(num / den));
  return std::isnan(e) ? INFINITY : e;
}

/// Plans, times and downloads one library; fills r and returns the checked outputs (empty if
/// it did not run).
std::vector<cd> run_lib(FftPeer& lib, const BenchCase& bc, const void* host, std::size_t host_bytes,
                        const Options& o, LibResult& r) {
  r.name = lib.name();
  try {
    lib.prepare(host, host_bytes, out_bytes(bc.c));
    const auto t0 = Clock::now();
    lib.plan(bc.c);
    r.plan_seconds = seconds_since(t0);
    if (auto* rl = dynamic_cast<RippleLib*>(&lib)) r.describe = rl->describe();
    r.seconds = time_execute([&] { lib.execute(); }, [&] { lib.synchronize(); }, o.reps, o.quick ? 1e-3 : 1e-2);
    auto out = download_checked(lib, bc.c);
    lib.destroy_plan();
    return out;
  } catch (const NotSupported& e) {
    r.status = std::string("unsupported by ripple yet: ") + e.what();
  } catch (const std::exception& e) {
    r.status = (dynamic_cast<RippleLib*>(&lib) ? "failed: " : "n/a: ") + std::string(e.what());
  }
  try {
    lib.destroy_plan();
  } catch (...) {
  }
  return {};
}

CaseResult run_case(RippleLib& ripple, std::vector<LoadedPeer>& peers, const BenchCase& bc, const void* host,
                    std::size_t host_bytes, const Options& o) {
  CaseResult cr;
  cr.bc = bc;
  cr.bytes = in_bytes(bc.c) + out_bytes(bc.c);
  cr.bound = error_bound(bc.c);
  const bool with_ref = points(bc.c) <= (std::size_t{1} << 26);
  const std::vector<cd> ref = with_ref ? reference(bc.c, host) : std::vector<cd>{};

  ripple.set_max_pass(bc.max_pass);
  std::vector<cd> mine;
  {
    const gpu::ScopedFftShapeTuning choices(shape_choices(bc));
    mine = run_lib(ripple, bc, host, host_bytes, o, cr.ripple);
  }
  ripple.set_max_pass(0);
  // caps: each pass alone (the plan's passes, the default cap's for the first row), after the
  // whole; each reads what it reads in the plan (scratch a pass before it left, or the input).
  if (bc.group == "caps" && cr.ripple.status == "ok") {
    try {
      const gpu::ScopedFftShapeTuning choices(shape_choices(bc));
      const gpu::DeviceFftPlan plan = capped_plan(ripple.queue(), bc.c, bc.max_pass ? bc.max_pass : gpu::kFftMaxOnChip);
      for (std::size_t i = 0; i < plan.step_count(); ++i)
        cr.ripple.pass_seconds.push_back(time_execute([&] { ripple.run_step(plan, i); }, [&] { ripple.synchronize(); },
                                                      o.reps, o.quick ? 1e-3 : 1e-2));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bench_gpu_fft: passes of %s: %s\n", shape_text(bc.c).c_str(), e.what());
    }
  }
  // memcpy of the case's input bytes (through ripple's buffers, which exist even when its plan
  // is unsupported: plan() allocates before planning).
  try {
    const std::size_t copy_bytes = in_bytes(bc.c);
    cr.memcpy_seconds =
        time_execute([&] { ripple.copy(copy_bytes); }, [&] { ripple.synchronize(); }, o.reps, o.quick ? 1e-3 : 1e-2) *
        double(cr.bytes) / double(2 * copy_bytes);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gpu_fft: memcpy failed: %s\n", e.what());
  }
  if (!mine.empty()) {
    cr.ripple.checked = with_ref;
    cr.ripple.err_ref = with_ref ? rel_l2(mine, ref) : -1;
    cr.ripple.ok = !with_ref || cr.ripple.err_ref <= 2 * cr.bound;
  }
  std::vector<cd> first_peer;
  for (LoadedPeer& lp : peers) {
    if (!lp.peer || bc.max_pass != 0 || bc.staged_io >= 0 || bc.column_bytes != 0 || bc.pad_local >= 0 ||
        bc.interleave >= 0)
      continue;  // ripple alone: the size's first row has them
    LibResult r;
    const std::vector<cd> out = run_lib(*lp.peer, bc, host, host_bytes, o, r);
    if (!out.empty()) {
      if (with_ref) r.err_ref = rel_l2(out, ref);
      if (!mine.empty()) {
        r.err_ripple = rel_l2(out, mine);
        r.checked = true;
        r.ok = r.err_ripple <= 4 * cr.bound;
      } else if (with_ref) {
        r.checked = true;
        r.ok = r.err_ref <= 4 * cr.bound;
      } else if (!first_peer.empty()) {
        r.err_peer = rel_l2(out, first_peer);
        r.checked = true;
        r.ok = r.err_peer <= 8 * cr.bound;
      } else {
        r.ok = true;  // nothing to compare with yet; the next peer is compared with this one
      }
      if (first_peer.empty()) first_peer = out;
    }
    cr.peers.push_back(r);
  }
  return cr;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

void print_case(const CaseResult& cr) {
  const FftCase& c = cr.bc.c;
  const double memcpy_gbs = cr.memcpy_seconds > 0 ? cr.bytes / cr.memcpy_seconds / 1e9 : 0;
  std::string line = cr.bc.group + (c.r2c ? " r2c " : " c2c ") + (c.is_double ? "f64 " : "f32 ") + shape_text(c) +
                     " x" + std::to_string(c.batch) +
                     (cr.bc.max_pass ? " (passes <= " + std::to_string(cr.bc.max_pass) + ")" : std::string()) +
                     (cr.bc.staged_io >= 0 ? (cr.bc.staged_io ? " (staged)" : " (direct)") : std::string()) +
                     (cr.bc.column_bytes ? " (columns " + std::to_string(cr.bc.column_bytes) + " B)" : std::string()) +
                     (cr.bc.pad_local == 0 ? " (unpadded)" : std::string()) +
                     (cr.bc.interleave == 0 ? " (not interleaved)" : std::string()) +
                     " | memcpy " + fmt("%.1f", memcpy_gbs) + " GB/s";
  const LibResult& r = cr.ripple;
  if (!r.pass_seconds.empty()) {
    line += " | passes";
    for (std::size_t i = 0; i < r.pass_seconds.size(); ++i) line += (i ? " + " : " ") + fmt("%.4f", r.pass_seconds[i] * 1e3);
    line += " ms";
  }
  if (r.status == "ok") {
    const double gbs = cr.bytes / r.seconds / 1e9;
    line += " | ripple " + fmt("%.4f", r.seconds * 1e3) + " ms " + fmt("%.1f", gbs) + " GB/s " +
            fmt("%.0f", memcpy_gbs > 0 ? 100 * gbs / memcpy_gbs : 0) + "% err " +
            (r.err_ref >= 0 ? fmt("%.1e", r.err_ref) : std::string("-")) + (r.ok ? " ok" : " FAIL");
  } else {
    line += " | ripple: " + r.status;
  }
  for (const LibResult& p : cr.peers) {
    const std::string peer = p.name.substr(0, p.name.find(' '));
    line.append(" | ").append(peer);
    if (p.status != "ok") {
      line.append(" ").append(p.status);
      continue;
    }
    line.append(" ").append(fmt("%.4f", p.seconds * 1e3)).append(" ms");
    if (r.status == "ok")
      line.append(" (speed ripple/").append(peer).append(" ").append(fmt("%.2f", p.seconds / r.seconds)).append("x)");
    line.append(p.checked ? (p.ok ? " ok" : " FAIL") : " unchecked");
  }
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

// ---------------------------------------------------------------------------------------------
// Plan creation times

struct PlanTime {
  std::string label;
  FftCase c;
  double ripple_cold = -1, ripple_warm = -1;
  std::uint64_t cold_compiles = 0, warm_compiles = 0;
  std::string ripple_status = "ok";
  std::vector<std::pair<std::string, std::pair<double, double>>> peers;  // name, (first, second)
};

std::vector<PlanTime> plan_times(const Queue& q, std::vector<LoadedPeer>& peers, const void* host,
                                 std::size_t host_bytes, const Options& o) {
  // The disk cache off, so the first plan of each size compiles (as on a fresh machine, except
  // on PoCL, whose own kernel cache may still hold it); this runs before any other ripple plan
  // of the process, so the memory cache is empty too.
  gpu::set_kernel_cache_directory({});
  std::vector<PlanTime> out;
  const std::size_t big = o.quick ? std::size_t{1} << 16 : std::size_t{1} << 20;
  // c2c, then sizes whose tables are large (8 MiB of r2c twiddles, Bluestein's chirp and
  // spectrum of 24 MiB): cached past the first plan too.
  struct Size {
    std::size_t n;
    bool r2c;
  };
  for (const Size size : {Size{64, false}, Size{256, false}, Size{1024, false}, Size{4096, false}, Size{1000, false},
                          Size{4093, false}, Size{big, false}, Size{o.quick ? big : 2 * big, true},
                          Size{o.quick ? std::size_t{10007} : std::size_t{1000003}, false}}) {
    const std::size_t n = size.n;
    PlanTime pt;
    pt.c.n[0] = n;
    pt.c.r2c = size.r2c;
    pt.c.batch = n > 4096 ? 1 : std::min<std::size_t>(1024, std::max<std::size_t>(1, o.mem_bytes / (n * 8)));
    const bool large_tables = size.r2c || n == 10007 || n == 1000003;
    pt.label = std::string(size.r2c ? "r2c" : "c2c") + " f32 N=" + std::to_string(n) +
               (n == 64 ? " (first in process)" : large_tables ? " (large tables)" : "");
    fft::PlanDesc d;
    d.shape = {n};
    d.batch = pt.c.batch;
    if (size.r2c) d.kind = fft::Kind::r2c;
    try {
      for (int pass = 0; pass < 2; ++pass) {
        const auto before = gpu::kernel_cache_stats().compiles;
        const auto t0 = Clock::now();
        { fft::DevicePlan plan(q, d); }
        (pass ? pt.ripple_warm : pt.ripple_cold) = seconds_since(t0);
        (pass ? pt.warm_compiles : pt.cold_compiles) = gpu::kernel_cache_stats().compiles - before;
      }
    } catch (const std::exception& e) {
      pt.ripple_status = std::string("failed: ") + e.what();
    }
    for (LoadedPeer& lp : peers) {
      if (!lp.peer) continue;
      std::pair<double, double> t{-1, -1};
      try {
        lp.peer->prepare(host, host_bytes, out_bytes(pt.c));
        for (int pass = 0; pass < 2; ++pass) {
          const auto t0 = Clock::now();
          lp.peer->plan(pt.c);
          (pass ? t.second : t.first) = seconds_since(t0);
          lp.peer->destroy_plan();
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_gpu_fft: %s plan N=%zu: %s\n", lp.peer->name().c_str(), n, e.what());
      }
      pt.peers.emplace_back(lp.peer->name(), t);
    }
    std::string line = "plan " + pt.label + " x" + std::to_string(pt.c.batch) + ": ripple ";
    if (pt.ripple_status == "ok")
      line += "cold " + fmt("%.2f", pt.ripple_cold * 1e3) + " ms (" + std::to_string(pt.cold_compiles) +
              " compiles), warm " + fmt("%.3f", pt.ripple_warm * 1e3) + " ms (" + std::to_string(pt.warm_compiles) +
              " compiles)";
    else
      line += pt.ripple_status;
    for (const auto& [name, t] : pt.peers)
      line += "; " + name + " first " + fmt("%.2f", t.first * 1e3) + " ms, second " + fmt("%.2f", t.second * 1e3) +
              " ms";
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    out.push_back(pt);
  }
  gpu::set_kernel_cache_directory(gpu::default_kernel_cache_directory());
  return out;
}

/// --compile-only: ripple's plans of this shard's cases, made and dropped (their programs go to the
/// disk cache). Returns the process's exit status: 1 if a plan failed other than as unsupported.
int compile_plans(const Queue& q, const Options& o) {
  const auto t0 = Clock::now();
  const std::vector<BenchCase> cases = make_cases(o);
  std::size_t made = 0, unsupported = 0, failed = 0;
  for (std::size_t i = o.shard; i < cases.size(); i += o.shards) {
    try {
      const gpu::ScopedFftShapeTuning choices(shape_choices(cases[i]));
      if (cases[i].max_pass) capped_plan(q, cases[i].c, cases[i].max_pass);
      else fft::DevicePlan plan(q, plan_desc(cases[i].c));
      ++made;
    } catch (const Unsupported&) {
      ++unsupported;
    } catch (const std::exception& e) {
      ++failed;
      std::fprintf(stderr, "bench_gpu_fft: plan of %s %s: %s\n", cases[i].group.c_str(), shape_text(cases[i].c).c_str(),
                   e.what());
    }
  }
  std::printf("compile-only shard %zu/%zu: %zu plans made (%llu programs compiled), %zu unsupported, %zu failed in %.1f s\n",
              o.shard, o.shards, made, static_cast<unsigned long long>(gpu::kernel_cache_stats().compiles), unsupported,
              failed, seconds_since(t0));
  return failed ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// JSON

std::string esc(const std::string& s) {
  std::string o;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') o += '\\';
    if (static_cast<unsigned char>(ch) >= 0x20) o += ch;
  }
  return o;
}

std::string num(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void write_lib(std::ostream& out, const LibResult& r) {
  out << "{\"name\": \"" << esc(r.name) << "\", \"status\": \"" << esc(r.status) << "\", \"seconds\": " << num(r.seconds)
      << ", \"plan_seconds\": " << num(r.plan_seconds) << ", \"err_ref\": " << num(r.err_ref)
      << ", \"err_ripple\": " << num(r.err_ripple) << ", \"err_peer\": " << num(r.err_peer)
      << ", \"checked\": " << (r.checked ? "true" : "false") << ", \"ok\": " << (r.ok ? "true" : "false")
      << ", \"describe\": \"" << esc(r.describe) << "\", \"pass_seconds\": [";
  for (std::size_t i = 0; i < r.pass_seconds.size(); ++i) out << (i ? ", " : "") << num(r.pass_seconds[i]);
  out << "]}";
}

void write_json(const std::string& path, const Device& device, const DeviceInfo& info, const Options& o,
                const std::vector<LoadedPeer>& peers, const std::vector<PlanTime>& plans,
                const std::vector<CaseResult>& cases, bool complete, std::size_t planned) {
  const std::string tmp = path + ".part";
  std::ofstream out(tmp);
  out << "{\"device\": \"" << esc(device.to_string()) << "\", \"name\": \"" << esc(info.name) << "\", \"driver\": \""
      << esc(info.driver_version) << "\", \"runtime\": \"" << esc(info.runtime_version) << "\", \"arch\": \""
      << esc(info.arch) << "\", \"is_gpu\": " << (info.is_gpu ? "true" : "false") << ", \"reps\": " << o.reps
      << ", \"quick\": " << (o.quick ? "true" : "false") << ", \"mem_bytes\": " << o.mem_bytes
      << ", \"complete\": " << (complete ? "true" : "false") << ", \"planned_cases\": " << planned
      << ", \"started\": \"" << esc(o.started) << "\", \"command\": \"" << esc(o.command) << "\", \"peers\": [";
  for (std::size_t i = 0; i < peers.size(); ++i)
    out << (i ? ", " : "") << "{\"plugin\": \"" << peers[i].plugin << "\", \"name\": \""
        << esc(peers[i].peer ? peers[i].peer->name() : "") << "\", \"why\": \"" << esc(peers[i].why) << "\"}";
  out << "], \"plans\": [";
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const PlanTime& p = plans[i];
    out << (i ? ", " : "") << "{\"label\": \"" << esc(p.label) << "\", \"n\": " << p.c.n[0] << ", \"batch\": " << p.c.batch
        << ", \"ripple_status\": \"" << esc(p.ripple_status) << "\", \"ripple_cold\": " << num(p.ripple_cold)
        << ", \"ripple_warm\": " << num(p.ripple_warm) << ", \"cold_compiles\": " << p.cold_compiles
        << ", \"warm_compiles\": " << p.warm_compiles << ", \"peers\": [";
    for (std::size_t j = 0; j < p.peers.size(); ++j)
      out << (j ? ", " : "") << "{\"name\": \"" << esc(p.peers[j].first) << "\", \"first\": " << num(p.peers[j].second.first)
          << ", \"second\": " << num(p.peers[j].second.second) << "}";
    out << "]}";
  }
  out << "], \"cases\": [";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const CaseResult& cr = cases[i];
    const FftCase& c = cr.bc.c;
    out << (i ? ",\n" : "\n") << "{\"group\": \"" << cr.bc.group << "\", \"kind\": \"" << cr.bc.kind
        << "\", \"transform\": \"" << (c.r2c ? "r2c" : "c2c") << "\", \"precision\": \"" << (c.is_double ? "f64" : "f32")
        << "\", \"shape\": [";
    for (int a = 0; a < c.rank; ++a) out << (a ? ", " : "") << c.n[a];
    out << "], \"batch\": " << c.batch << ", \"max_pass\": " << cr.bc.max_pass << ", \"staged_io\": " << cr.bc.staged_io << ", \"column_bytes\": " << cr.bc.column_bytes << ", \"pad_local\": " << cr.bc.pad_local << ", \"interleave\": " << cr.bc.interleave << ", \"bytes\": " << cr.bytes << ", \"memcpy_seconds\": " << num(cr.memcpy_seconds)
        << ", \"bound\": " << num(cr.bound) << ", \"ripple\": ";
    write_lib(out, cr.ripple);
    out << ", \"peers\": [";
    for (std::size_t j = 0; j < cr.peers.size(); ++j) {
      out << (j ? ", " : "");
      write_lib(out, cr.peers[j]);
    }
    out << "]}";
  }
  out << "]}\n";
  out.close();
  std::filesystem::rename(tmp, path);
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: bench_gpu_fft [--device ID] [--quick] [--reps N] [--json PATH]\n"
               "                     [--sections plan,batched,single,caps,staging,padding,nd,innermost]\n"
               "                     [--sizes 2-64,97,4096] [--precisions f32,f64] [--peers cufft,vkfft_cuda,vkfft_opencl|none]\n"
               "                     [--mem-mib MiB] [--peer-dir DIR] [--time-limit SEC]\n"
               "                     [--compile-only [--shard I/N]]\n");
  std::exit(2);
}

std::vector<std::size_t> parse_sizes(const std::string& text) {
  std::vector<std::size_t> out;
  for (const std::string& item : ripple_bench::split(text, ',')) {
    const auto dash = item.find('-');
    const std::size_t lo = std::stoul(item.substr(0, dash));
    const std::size_t hi = dash == std::string::npos ? lo : std::stoul(item.substr(dash + 1));
    if (lo < 1 || hi < lo) throw InvalidArgument("--sizes: bad range '" + item + "'");
    for (std::size_t n = lo; n <= hi; ++n) out.push_back(n);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::size_t mem_mib = 0;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto next = [&]() -> std::string {
        if (i + 1 >= argc) usage();
        return argv[++i];
      };
      if (a == "--device") o.device = next();
      else if (a == "--quick") o.quick = true;
      else if (a == "--reps") o.reps = std::max(1, std::stoi(next()));
      else if (a == "--json") o.json = next();
      else if (a == "--sections") {
        const std::vector<std::string> known = Options{}.sections;
        o.sections = ripple_bench::split(next(), ',');
        for (const std::string& name : o.sections)
          if (std::find(known.begin(), known.end(), name) == known.end())
            throw std::invalid_argument("unknown section '" + name + "' (--sections takes plan, batched, single, "
                                        "caps, staging, padding, nd, innermost)");
      }
      else if (a == "--sizes") o.sizes = parse_sizes(next());
      else if (a == "--mem-mib") mem_mib = std::stoul(next());
      else if (a == "--peer-dir") o.peer_dir = next();
      else if (a == "--time-limit") o.time_limit = std::stod(next());
      else if (a == "--compile-only") o.compile_only = true;
      else if (a == "--shard") {
        const std::vector<std::string> parts = ripple_bench::split(next(), '/');
        if (parts.size() != 2) usage();
        o.shard = std::stoul(parts[0]);
        o.shards = std::stoul(parts[1]);
        if (o.shards == 0 || o.shard >= o.shards) usage();
      }
      else if (a == "--peers") {
        const std::string v = next();
        o.peers = v == "none" ? std::vector<std::string>{} : ripple_bench::split(v, ',');
      } else if (a == "--precisions") {
        o.doubles.clear();
        for (const std::string& p : ripple_bench::split(next(), ',')) {
          if (p != "f32" && p != "f64") usage();
          o.doubles.push_back(p == "f64");
        }
      } else usage();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gpu_fft: %s\n", e.what());
    return 2;
  }
  o.mem_bytes = (mem_mib ? mem_mib : (o.quick ? 4 : 1024)) << 20;
  {
    const std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%d-%H%M", std::gmtime(&now));
    o.started = buf;
    for (int i = 0; i < argc; ++i) o.command += (i ? " " : "") + std::string(argv[i]);
  }
  if (o.peer_dir.empty()) {
    std::error_code ec;
    o.peer_dir = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
  }
  const auto start = Clock::now();
  try {
    const Device device = o.device.empty() ? Device::best(true) : Device::parse(o.device);
    if (device.kind() == DeviceKind::cpu) {
      std::fprintf(stderr, "bench_gpu_fft: no GPU device (ripple info lists the devices)\n");
      return 1;
    }
    const DeviceInfo info = device.info();
    if (!info.fp64) o.doubles.erase(std::remove(o.doubles.begin(), o.doubles.end(), true), o.doubles.end());
    Queue q(device);
    if (o.compile_only) return compile_plans(q, o);
    std::printf("device %s: %s (driver %s, %s, %s)%s\n", device.to_string().c_str(), info.name.c_str(),
                info.driver_version.c_str(), info.runtime_version.c_str(), info.arch.c_str(),
                info.is_gpu ? "" : " -- NOT A GPU: timings only show the benchmark works");
    std::vector<LoadedPeer> peers = load_peers(o, device.to_string());
    for (const LoadedPeer& lp : peers)
      std::printf("peer %s: %s\n", lp.plugin.c_str(), lp.peer ? lp.peer->name().c_str() : ("absent (" + lp.why + ")").c_str());
    std::fflush(stdout);

    // Host inputs: mem_bytes of floats and of doubles (complex values are pairs of them).
    const auto t0 = Clock::now();
    const std::vector<float> hf = random_values<float>(o.mem_bytes / sizeof(float), 1);
    const std::vector<double> hd =
        std::find(o.doubles.begin(), o.doubles.end(), true) != o.doubles.end()
            ? random_values<double>(o.mem_bytes / sizeof(double), 2)
            : std::vector<double>{};
    std::printf("inputs: %zu MiB per precision, made in %.1f s\n", o.mem_bytes >> 20, seconds_since(t0));

    RippleLib ripple(q);
    std::vector<PlanTime> plans;
    if (std::find(o.sections.begin(), o.sections.end(), "plan") != o.sections.end())
      plans = plan_times(q, peers, hf.data(), o.mem_bytes, o);

    std::vector<CaseResult> results;
    bool prev_double = false;
    const std::vector<BenchCase> cases = make_cases(o);
    std::size_t skipped = 0;
    for (const BenchCase& bc : cases) {
      if (o.time_limit > 0 && seconds_since(start) > o.time_limit) {
        skipped = cases.size() - results.size();
        std::printf("time limit (%.0f s) reached: %zu cases not run\n", o.time_limit, skipped);
        break;
      }
      if (bc.c.is_double != prev_double) {  // free the other precision's buffers first
        ripple.release();
        for (LoadedPeer& lp : peers)
          if (lp.peer) lp.peer->release();
        prev_double = bc.c.is_double;
      }
      const void* host = bc.c.is_double ? static_cast<const void*>(hd.data()) : static_cast<const void*>(hf.data());
      results.push_back(run_case(ripple, peers, bc, host, o.mem_bytes, o));
      print_case(results.back());
      // Rewritten after every case, so a run killed at a device call's time limit leaves the
      // cases done so far ("complete": false).
      if (!o.json.empty()) write_json(o.json, device, info, o, peers, plans, results, false, cases.size());
    }
    if (!o.json.empty()) write_json(o.json, device, info, o, peers, plans, results, skipped == 0, cases.size());
    bool all_ok = true;
    for (const CaseResult& cr : results) {
      all_ok = all_ok && (cr.ripple.status != "ok" || cr.ripple.ok) && cr.ripple.status.rfind("failed", 0) != 0;
      for (const LibResult& p : cr.peers) all_ok = all_ok && (p.status != "ok" || p.ok);
    }
    for (const PlanTime& p : plans) all_ok = all_ok && p.ripple_status == "ok";
    if (!all_ok) std::printf("some results FAILED their checks (see above)\n");
    return all_ok ? 0 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gpu_fft: %s\n", e.what());
    return 1;
  }
}
