// Device level: Bluestein's algorithm for sizes with a prime factor above 19: the DFT of N as a
// cyclic convolution of length M (bluestein_size(N), the smallest codelet-smooth size >= 2N - 1;
// beyond one kernel the smallest such size whose factors fit the fused passes, where one is
// near: convolution_size) with a chirp (kernels/fft_chirp.h). Its tables, the chirp and its spectrum, are computed on the
// host (chirp in long double, spectrum by the CPU FFT in double, each rounded once) and shared
// through the context's table cache. Sizes whose M fits on chip run the whole algorithm in one
// kernel (DeviceFft with FftConvolution::whole_dft). Larger ones are DeviceFftBluestein: launches
// of the one-kernel FFT with Bluestein's steps fused in (FftConvolution), so the chirped input,
// the spectrum's product and the chirped output never take a pass of their own:
// - M = M1 x M2: three fused passes, through a scratch array of batch x M:
//     A  M1-point columns n1 -> k1 of y[n1 M2 + n2] = x[j] c[j] (j = n1 M2 + n2 < N, else 0),
//        forward, turned by W_M^(n2 k1), to scratch index k1 M2 + n2 (of entry b at
//        b M + that, or that times B plus b where the batch is the passes' fastest level:
//        innermost batching, FftPass::batch_fast)
//     B  each row k1: forward FFT of M2 (n2 -> k2), times the spectrum at k1 + M1 k2, backward
//        FFT of M2 (k2 -> n2), turned by W_M^-(k1 n2), in place
//     C  M1-point columns k1 -> n1, backward, outputs j = n1 M2 + n2 < N times c[j] and scale
//   (the convolution's inverse FFT needs no transpose back: B leaves the spectrum's order as the
//   forward four-step made it, and C undoes A's split). Reads and writes about 2N + 4M elements.
// - M = M1 x M2 x M3 (past 4096^2 points): five fused passes, each row of R = M2 M3 points
//   itself a four-step, as DeviceFftPlan's three passes, forward then mirrored backward, through
//   two scratch arrays (the second of one entry unless the batch is the fastest level):
//     A  as above with R for M2: k1 R + n' of scratch 1, n' = n2 M3 + n3
//     B  M2-point columns n2 -> k2 of (k1, n3), forward, turned by W_R^(n3 k2), to scratch 2
//        at (k1 + M1 k2) M3 + n3 (a plain pass of a plan)
//     C  each row j = k1 + M1 k2: forward FFT of M3 (n3 -> k3), times the spectrum at
//        j + M1 M2 k3, backward FFT of M3, turned by W_M^-(j n3) = W_R^-(k2 n3) W_M^-(k1 n3),
//        to scratch 1 at n3 M1 M2 + j (adjacent rows adjacent, as D reads them)
//     D  M2-point columns k2 -> n2 of (n3, k1), backward, turned by W_{M1 M2}^-(k1 n2) (the rest
//        of W_M^-(k1 n')), to scratch 2 at n' M1 + k1
//     E  M1-point rows n' of scratch 2, backward, outputs j = n1 R + n' < N times c[j] and scale
//   Reads and writes about 2N + 8M elements (a multi-pass FFT of M each way around element-wise
//   chirp and spectrum launches moved 2N + 12M in float, 2N + 16M in double).
// For a real transform (FftReal) A reads the real side as a real plan's first pass does (the
// reals widened or in pairs, the Hermitian spectrum rebuilt or merged) and the last pass writes
// it as a last pass (k <= N/2, the real parts, pairs of reals; an even r2c's last pass splits
// the spectrum, output k's partner Z[N-k] in transform (h - i) mod S for N = Q S + h, S = M2 or
// R, where its M1-point transforms can pair in a group: split_in_store; else it leaves Z for the
// split kernel).
// run() only launches.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/device_fft.hpp"

namespace ripple::gpu {

/// Bluestein's tables for size n convolved over m points (fft_chirp.h): the forward chirp's
/// conjugate (n entries) and the chirp kernel's spectrum scaled by 1/m (m entries).
struct BluesteinTables {
  std::shared_ptr<const Memory> chirp, spectrum;
  static BluesteinTables make(Context& context, std::uint64_t n, std::uint64_t m, bool double_precision);
};

class DeviceFftBluestein {
 public:
  /// Transforms of size n >= 2 in `layout` (checked by the caller) whose convolution does not
  /// fit one kernel of max_pass points, its fused passes of at most max_pass (and
  /// kFftMaxBluesteinOnChip, which the middle pass's spectrum step needs; the others are held to
  /// it too, as a float plan's passes of up to 8192 were slower there on PoCL) points. Throws Unsupported naming n where the convolution has no
  /// such split in two or three (fused_passes_fit), as DeviceFft for the passes, DeviceError if
  /// memory cannot be had. With real.n != 0 (real.complex_size() == n), pass A reads a real
  /// transform's real side in `layout` (reals counted as reals) and the last pass writes it
  /// (writes_real: an even r2c's last pass splits the spectrum where split_in_store, with
  /// max_split_pass, else writes Z, for the split kernel).
  DeviceFftBluestein(Context& context, std::uint64_t n, bool double_precision, const FftLayout& layout,
                     std::uint64_t max_pass = kFftMaxOnChip, const FftReal& real = {},
                     std::uint64_t max_split_pass = kFftMaxSplitPass);

  /// The convolution's length M for size n under max_pass: the smallest codelet-smooth M >=
  /// 2n - 1 that splits in two factors within Bluestein's on-chip cap (three fused passes)
  /// where one lies within 0.4 % of bluestein_size(n); else the smallest within that range that
  /// splits in three (five fused passes); else bluestein_size(n) (which none takes). Of 19959
  /// sizes sampled between 2049 and 8M, 6.7 % had a smallest M with no split in two (709817:
  /// 17^5), and the first that splits was at most 0.09 % longer.
  static std::uint64_t convolution_size(std::uint64_t n, bool double_precision, std::uint64_t max_pass);
  /// The factors of convolution_size(n) the fused passes take, first pass first: M1, M2 (three
  /// passes) or M1, M2, M3 (five); empty where it has no such split under max_pass.
  static std::vector<std::uint64_t> fused_split(std::uint64_t n, bool double_precision, std::uint64_t max_pass);
  /// Throws Unsupported naming n (its convolution and why) unless fused_passes_fit.
  static void check_size(std::uint64_t n, bool double_precision, std::uint64_t max_pass);
  /// Whether size n (Bluestein's, beyond one kernel) is fused passes under max_pass.
  static bool fused_passes_fit(std::uint64_t n, bool double_precision, std::uint64_t max_pass) {
    return !fused_split(n, double_precision, max_pass).empty();
  }
  /// Whether an even r2c of 2n points splits its spectrum in the last fused pass (of M1 points,
  /// at most max_split_pass, pairing its transforms in a group of at most max_group work-items:
  /// DeviceFft::pairs_fit), as a plan's last pass does (DeviceFftPlan::real_split_fits); else
  /// that pass writes Z for the split kernel.
  static bool split_in_store(std::uint64_t n, bool double_precision, std::uint64_t max_pass, std::uint64_t max_group,
                             std::uint64_t max_split_pass = kFftMaxSplitPass);
  /// Whether the last pass writes the real side (all real transforms but an even r2c that
  /// cannot split_in_store).
  bool writes_real() const { return writes_real_; }
  ~DeviceFftBluestein();

  std::uint64_t padded() const { return m_; }
  /// M1, M2 (three fused passes) or M1, M2, M3 (five).
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
  /// The launches of the fused passes (A, B, C; or A to E, those after A of batch entry 0
  /// unless the batch is their fastest level: run() offsets them per entry), at base 0.
  std::vector<FftPass> passes() const;
  bool five() const { return split_.size() == 3; }

  std::uint64_t n_, m_;
  bool double_;
  bool writes_real_ = false;
  bool split_last_ = false;  // the last pass splits an even r2c's spectrum (its launch pairs transforms)
  bool batch_fast_ = false;  // the batch is every pass's fastest level (FftPass::batch_fast)
  FftLayout layout_;
  std::vector<std::uint64_t> split_;  // M1, M2 (three fused passes) or M1, M2, M3 (five)
  std::unique_ptr<Memory> work_;      // batch x M: scratch 1
  std::unique_ptr<Memory> work2_;     // five passes: scratch 2, batch x M, or M (one entry at a time)
  // A (chirp on load), [B (forward)], the middle (spectrum), [D (backward)], the last (chirp on store).
  std::vector<std::unique_ptr<DeviceFft>> fused_;
  std::vector<FftPassTwiddles> twiddles_;  // of every pass but the last
  std::vector<FftPass> launches_;          // passes(), made once
};

}  // namespace ripple::gpu
