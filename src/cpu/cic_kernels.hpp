// The CPU executor's SIMD kernels for CIC decimators, one table per (input type, register
// type), chosen once for the best SIMD target (Highway dynamic dispatch).
//
// Registers are unsigned integers of the narrowest width holding Hogenauer's register width
// (uint32_t up to 32 bits, else uint64_t): arithmetic modulo 2^32 or 2^64 agrees with the
// B-bit registers modulo 2^B, and the exact output fits in B bits, so it is recovered as the
// signed value of the low W bits.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ripple::cpu {

/// Most integrator stages the integrate kernel keeps in registers.
inline constexpr std::size_t kCicMaxStages = 8;

template <class In, class W>
struct CicKernels {
  /// Runs `stages` cascaded integrators over `segments` independent runs of `frames` frames of
  /// `channels` interleaved channels each: segment b is x[b * frames * channels, ...), and each
  /// 128-bit block of a vector carries one segment, so prefix sums stay inside blocks (no
  /// cross-block shuffles on the carried chain). states[(b * stages + k) * channels + c] is
  /// integrator k's state for channel c of segment b, read before and written after; last[i]
  /// receives the last integrator's output for input value i (the same layout as x).
  /// Requires supports(channels, stages), segments <= max_segments, and frames * channels a
  /// multiple of step_values.
  void (*integrate)(const In* x, std::size_t channels, std::size_t stages, std::size_t frames,
                    std::size_t segments, W* states, W* last);
  /// The combs: out[i] = the signed value of sum over k <= stages of (-1)^k C(stages, k)
  /// d[i - k lag], for i < count (d is preceded by stages * lag values of history). More
  /// than kCicMaxStages stages use tmp (count + stages * lag values) for passes.
  void (*comb)(const W* d, std::size_t count, std::size_t lag, std::size_t stages, std::int64_t* out, W* tmp);
  /// Two channels in 32-bit registers only (nullptr otherwise): integrate over lane_segments
  /// segments with one frame of each per vector, stages <= kCicMaxStages, frames a multiple
  /// of 4. last[(t * lane_segments + s) * 2 + c] receives frame t of segment s (the segments
  /// interleaved frame by frame); states as integrate's.
  void (*integrate_lanes)(const In* x, std::size_t stages, std::size_t frames, W* states, W* last);
  /// Segments of integrate_lanes (0 when the target has no such kernel).
  std::size_t lane_segments;
  /// Segments one integrate call can run side by side (the 128-bit blocks per vector), 0 when
  /// the target has no vectors of 128 bits.
  std::size_t max_segments;
  /// Input values per segment consumed at a time (one 128-bit block of In).
  std::size_t step_values;

  /// Whether integrate handles this many channels (a frame must tile a 128-bit block) and stages.
  bool supports(std::size_t channels, std::size_t stages) const noexcept {
    return max_segments > 0 && stages >= 1 && stages <= kCicMaxStages && channels * sizeof(W) <= 16 &&
           16 % (channels * sizeof(W)) == 0;
  }
};

template <class In, class W>
const CicKernels<In, W>& cic_kernels();

/// The conversions around a CIC that runs on float samples (pipeline::cic_decimator).
struct CicSampleKernels {
  /// out[i] = v[i] * scale rounded to the nearest integer (ties to even), or 0 for a sample
  /// outside [lo, hi) (or NaN), or, when exact, not an integer already. Returns whether every
  /// sample was good. |lo|, |hi| <= 2^22 (float integers).
  bool (*float_to_int32)(const float* v, std::size_t n, float scale, float lo, float hi, bool exact, std::int32_t* out);
  /// y[i] = float(double(x[i]) / divisor), and the same in double.
  void (*int64_to_f32)(const std::int64_t* x, std::size_t n, double divisor, float* y);
  void (*int64_to_f64)(const std::int64_t* x, std::size_t n, double divisor, double* y);
};

const CicSampleKernels& cic_sample_kernels();

}  // namespace ripple::cpu
