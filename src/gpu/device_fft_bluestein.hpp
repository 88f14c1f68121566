// Device level: Bluestein's algorithm for sizes with a prime factor above 19: the DFT of N as a
// cyclic convolution of length M (bluestein_size(N), the smallest codelet-smooth size >= 2N - 1;
// beyond one kernel the smallest such size of two factors within the on-chip cap where one is
// near: convolution_size) with a chirp (kernels/fft_chirp.h). Its tables, the chirp and its spectrum, are computed on the
// host (chirp in long double, spectrum by the CPU FFT in double, each rounded once) and shared
// through the context's table cache. Sizes whose M fits on chip run the whole algorithm in one
// kernel (DeviceFft with FftConvolution::whole_dft). Larger ones are DeviceFftBluestein:
// - M = M1 x M2 (two passes' worth): three launches of the one-kernel FFT with Bluestein's steps
//   fused in (FftConvolution), through a scratch array of batch x M:
//     A  M1-point columns n1 -> k1 of y[n1 M2 + n2] = x[j] c[j] (j = n1 M2 + n2 < N, else 0),
//        forward, turned by W_M^(n2 k1), to scratch index k1 M2 + n2 (of entry b at
//        b M + that, or that times B plus b where the batch is the passes' fastest level:
//        innermost batching, FftPass::batch_fast)
//     B  each row k1: forward FFT of M2 (n2 -> k2), times the spectrum at k1 + M1 k2, backward
//        FFT of M2 (k2 -> n2), turned by W_M^-(k1 n2), in place
//     C  M1-point columns k1 -> n1, backward, outputs j = n1 M2 + n2 < N times c[j] and scale
//   (the convolution's inverse FFT needs no transpose back: B leaves the spectrum's order as the
//   forward four-step made it, and C undoes A's split). Reads and writes about 2N + 4M elements.
//   For a real transform (FftReal) A reads the real side as a real plan's first pass does (the
//   reals widened or in pairs, the Hermitian spectrum rebuilt or merged) and C writes it as a
//   last pass (k <= N/2, the real parts, pairs of reals; an even r2c's C splits the spectrum,
//   output k's partner Z[N-k] in transform (h - i) mod M2 for N = Q M2 + h, where C's M1-point
//   transforms can pair in a group: split_in_store; else C leaves Z for the split kernel).
// - larger M: a chirp multiply into a work array (kernels/fft_bluestein.cl), a forward FFT of M
//   (DeviceFftPlan, three passes), a multiply by the chirp's spectrum, a backward FFT of M and a
//   chirp multiply into the output layout.
// run() only launches.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/device_fft.hpp"

namespace ripple::gpu {

class DeviceFftPlan;

/// Bluestein's tables for size n convolved over m points (fft_chirp.h): the forward chirp's
/// conjugate (n entries) and the chirp kernel's spectrum scaled by 1/m (m entries).
struct BluesteinTables {
  std::shared_ptr<const Memory> chirp, spectrum;
  static BluesteinTables make(Context& context, std::uint64_t n, std::uint64_t m, bool double_precision);
};

class DeviceFftBluestein {
 public:
  /// Transforms of size n >= 2 in `layout` (checked by the caller) whose convolution does not
  /// fit one kernel of max_pass points, the FFTs of M planned with passes of at most max_pass
  /// points. Throws as DeviceFftPlan for the inner size, DeviceError if memory cannot be had.
  /// With real.n != 0 (real.complex_size() == n, three_passes_fit), pass A reads a real
  /// transform's real side in `layout` (reals counted as reals) and C writes it (writes_real:
  /// an even r2c's C splits the spectrum where split_in_store, with max_split_pass, else
  /// writes Z, for the split kernel).
  DeviceFftBluestein(Context& context, std::uint64_t n, bool double_precision, const FftLayout& layout,
                     std::uint64_t max_pass = kFftMaxOnChip, const FftReal& real = {},
                     std::uint64_t max_split_pass = kFftMaxSplitPass);

  /// The convolution's length M for size n under max_pass: the smallest codelet-smooth M >=
  /// 2n - 1 that splits in two factors within Bluestein's on-chip cap (three fused passes),
  /// where one lies within 0.4 % of bluestein_size(n), else bluestein_size(n) (the work array).
  /// Of 19959 sizes sampled between 2049 and 8M, 6.7 % had a smallest M with no such split
  /// (709817: 17^5), and the first that splits was at most 0.09 % longer.
  static std::uint64_t convolution_size(std::uint64_t n, bool double_precision, std::uint64_t max_pass);
  /// Whether size n (Bluestein's, beyond one kernel) is three fused passes under max_pass.
  static bool three_passes_fit(std::uint64_t n, bool double_precision, std::uint64_t max_pass);
  /// Whether an even r2c of 2n points splits its spectrum in pass C (three fused passes whose
  /// C, of M1 points, is at most max_split_pass and pairs its transforms in a group of at most
  /// max_group work-items: DeviceFft::pairs_fit), as a plan's last pass does
  /// (DeviceFftPlan::real_split_fits); else C writes Z for the split kernel.
  static bool split_in_store(std::uint64_t n, bool double_precision, std::uint64_t max_pass, std::uint64_t max_group,
                             std::uint64_t max_split_pass = kFftMaxSplitPass);
  /// Whether pass C writes the real side (all real transforms but an even r2c that cannot
  /// split_in_store).
  bool writes_real() const { return writes_real_; }
  ~DeviceFftBluestein();

  static ProgramSpec program(bool double_precision);

  std::uint64_t padded() const { return m_; }
  /// M1, M2 of the three fused passes; empty where the convolution goes through the work array.
  const std::vector<std::uint64_t>& fused_passes() const { return split_; }
  /// E.g. "Bluestein, convolution of 8205 = 15 x 547 in three fused passes".
  std::string describe() const;

  /// Waits until every program of the plan is compiled and loaded (DeviceFft::wait_ready).
  void wait_ready() const;

  /// out = scale * DFT of in for every transform of the (one-level) layout, starting at
  /// elements in_base and out_base (in and out may be the same memory, any layouts), enqueued
  /// on `stream`.
  void run(Stream& stream, const Memory& in, Memory& out, fft::Direction direction, double scale,
           std::int64_t in_base = 0, std::int64_t out_base = 0) const;

 private:
  /// The launches of the three fused passes for one outer index.
  std::array<FftPass, 3> three_passes(std::int64_t in_base, std::int64_t out_base) const;

  std::uint64_t n_, m_;
  bool double_;
  bool writes_real_ = false;
  bool split_c_ = false;  // C splits an even r2c's spectrum (its launch pairs transforms)
  FftLayout layout_;
  std::vector<std::uint64_t> split_;  // M1, M2 (three fused passes), or empty (work array)
  std::unique_ptr<Memory> work_;     // batch x M: the scratch of both ways
  // Three fused passes: A (chirp on load), B (spectrum), C (chirp on store).
  std::array<std::unique_ptr<DeviceFft>, 3> fused_;
  std::unique_ptr<FftPassTwiddles> pass_twiddles_;
  // Through the work array.
  PendingModule module_;  // compiled on its own thread (program.hpp)
  BluesteinTables tables_;
  std::unique_ptr<DeviceFftPlan> inner_;
  std::uint32_t groups_ = 1;
};

}  // namespace ripple::gpu
