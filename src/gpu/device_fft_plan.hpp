// Device level: a batched 1-D complex FFT of any size in any layout, planned once.
// Sizes that fit on chip (<= fft_max_on_chip: 8192 float, 4096 double) are one launch of the one-kernel FFT (DeviceFft).
// Larger sizes are the four-step algorithm in the fewest passes, each pass a batch of on-chip
// transforms: N = N1 * M as N1-point column transforms whose outputs are turned by W_N^(n2 k1)
// in the store, then M-point row transforms written to their transposed places (2 passes up to
// fft_max_on_chip^2 points; a third when M itself needs two). Transposes are only addresses of the
// passes (FftPass); the intermediate results go through device scratch owned by the plan. Every
// kernel is compiled and every table uploaded when the plan is made; run() only launches.
// Sizes with a prime factor above 19 (no codelet) run in the one kernel where Rader's or
// Bluestein's convolution fits on chip (primes to 4057, n <= 2048); beyond it as passes of which
// those holding the large primes are such one-kernel DFTs (split_with_large_primes), where at
// most three passes do; else DeviceFftBluestein (three fused passes where the convolution
// takes two, else five).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/device_fft.hpp"

namespace ripple::gpu {

class DeviceFftBluestein;

class DeviceFftPlan {
 public:
  /// A plan for `layout.batch` transforms of size n (layout strides >= 1, distances >= 0, as
  /// checked by the caller; one or two levels of batch). The one-kernel path takes both levels
  /// in one launch; multi-pass and DeviceFftBluestein plans run their passes once per outer
  /// index. max_pass caps each pass's size, Rader's and Bluestein's convolutions in one kernel included
  /// (fft_max_on_chip of the precision and the device's work-group limit; tests lower it to reach three passes, or Bluestein's five fused passes, at
  /// small n). Sizes with a prime factor above 19 beyond one kernel run as passes of which some are
  /// Rader's or Bluestein's one-kernel DFTs where they can (split_with_large_primes), else go
  /// through Bluestein over the whole size. Throws Unsupported naming n for a size beyond three passes (of its
  /// own or of Bluestein's padded size), and as DeviceFft; DeviceError if memory cannot be had.
  /// With real.n != 0 (a real transform whose complex size, real.complex_size(), is n; n
  /// codelet-smooth and more than one pass, passes of one-kernel DFTs (split_with_large_primes), or Bluestein's fused passes
  /// (DeviceFftBluestein::fused_passes_fit), whose loading and storing passes are the first and last here; real's
  /// pass fields are the plan's), the plan does
  /// DeviceFftReal's steps on the real side in its passes (FftReal::pass_step) and takes that
  /// side in its layout (reals counted as reals, in any layout). Even c2r (2n points): the
  /// first pass reads the half spectrum (n + 1 values a transform) and merges X[k] with X[n -
  /// k] in its load, the last stores the reals in pairs. Even r2c: the first pass reads the
  /// reals in pairs; where real_split_fits, the last splits the spectrum in its store and
  /// writes the half spectrum (passes as split_for_real orders them), else the output is the
  /// complex FFT of the pairs (writes_real() false). Odd (n points): the first pass reads the
  /// reals (r2c) or rebuilds the Hermitian spectrum from the half (c2r) in its load, the last
  /// stores k <= n/2 (r2c) or the real parts (c2r). r2c is forward, c2r backward. Such a plan
  /// runs in place (in == out) rightly only where each transform's two sides cover the same
  /// bytes (its first pass reads all of an outer index's input before its last writes), which
  /// the caller checks.
  /// max_split_pass caps an even r2c's split pass (tests lower it to reach the split kernel).
  DeviceFftPlan(Context& context, std::uint64_t n, bool double_precision, const FftLayout& layout,
                std::uint64_t max_pass = kFftMaxOnChip, const FftReal& real = {},
                std::uint64_t max_split_pass = kFftMaxSplitPass);

  /// The passes of a plan of n whose last pass splits an r2c's spectrum: split()'s (or
  /// split_with_large_primes's, where n has large primes), the last of those of at most
  /// max_split_pass points that pair transforms in a group of at most max_group work-items
  /// (DeviceFft::pairs_fit: codelet-smooth ones) swapped with the last one. Throws as split,
  /// and Unsupported naming n for one pass or none that fits.
  static std::vector<std::uint64_t> split_for_real(std::uint64_t n, bool double_precision, std::uint64_t max_pass,
                                                   std::uint64_t max_group,
                                                   std::uint64_t max_split_pass = kFftMaxSplitPass);
  /// Whether an r2c of 2n points can split its spectrum in the last pass of a plan of n
  /// (split_for_real does not throw: n codelet-smooth, or passes with large primes of which
  /// one is smooth; else Bluestein's whose storing pass can: DeviceFftBluestein::split_in_store).
  static bool real_split_fits(std::uint64_t n, bool double_precision, std::uint64_t max_pass,
                              std::uint64_t max_group, std::uint64_t max_split_pass = kFftMaxSplitPass);

  /// The sizes of the passes, first pass first (one entry for the one-kernel path): the most
  /// balanced split of a codelet-smooth n into as few factors <= max_pass (and <=
  /// fft_max_on_chip of the precision) as possible. Throws Unsupported naming n if n is not
  /// codelet-smooth or needs more than three passes.
  static std::vector<std::uint64_t> split(std::uint64_t n, bool double_precision,
                                          std::uint64_t max_pass = kFftMaxOnChip);
  /// The passes of a size n with a prime factor above 19 beyond one kernel, each a one-kernel
  /// transform (fits_one_kernel under max_pass): codelet-smooth, a prime by Rader's algorithm,
  /// or a size by Bluestein's in the kernel (at most 2048 points, so two large primes at most:
  /// 23^4 = 529 x 529), at most three, each of n's large primes (six at most) in one of them.
  /// Of the splits with the fewest passes, the one with the least on-chip work per point
  /// (Rader's two FFTs of p - 1, Bluestein's two of his convolution's length, against one FFT
  /// of a smooth pass), then the most balanced; ordered codelet-smooth passes first (split's),
  /// then Bluestein's, then Rader's. A real transform's plan of that complex size reads and
  /// writes the real side in the first and last of them, whatever their algorithm (an even
  /// r2c's split takes a smooth pass among them: split_for_real). Empty where none fits
  /// (Bluestein over the whole size, DeviceFftBluestein, takes it then) and for codelet-smooth
  /// n. Two or three passes of n move 4n or 6n values where Bluestein's three fused passes over
  /// M >= 2n - 1 points move about 10n.
  static std::vector<std::uint64_t> split_with_large_primes(std::uint64_t n, bool double_precision,
                                                            std::uint64_t max_pass = kFftMaxOnChip);
  /// Whether a plan of complex size n beyond one kernel can read a real transform's real side in
  /// its first pass and write it in its last: n codelet-smooth, passes of one-kernel DFTs
  /// (split_with_large_primes),
  /// or Bluestein's fused passes (DeviceFftBluestein::fused_passes_fit).
  static bool passes_take_real(std::uint64_t n, bool double_precision, std::uint64_t max_pass);
  /// Throws what the constructor throws for size n (Unsupported naming n), before any
  /// compilation or allocation.
  static void check_size(std::uint64_t n, bool double_precision, std::uint64_t max_pass = kFftMaxOnChip);

  DeviceFftPlan(DeviceFftPlan&&) noexcept;
  ~DeviceFftPlan();

  std::uint64_t size() const { return n_; }
  /// Whether a real plan's last pass writes the real side (see the constructor).
  bool writes_real() const { return writes_real_; }
  /// The passes, one for the one-kernel path (Bluestein's in-kernel sizes too); empty for
  /// DeviceFftBluestein's sizes.
  const std::vector<std::uint64_t>& passes() const { return passes_; }
  const DeviceFftBluestein* bluestein() const { return bluestein_.get(); }
  /// The shapes of the launches for one outer index, in order (empty for DeviceFftBluestein's
  /// sizes).
  std::vector<FftShape> launch_shapes() const;
  /// The launches of one outer index in run(): a pass each (2 and 3 once per batch entry where
  /// the passes after the first run per entry); 0 for DeviceFftBluestein's sizes.
  std::size_t step_count() const { return steps_.size(); }
  /// Waits until every program of the plan is compiled and loaded (DeviceFft::wait_ready):
  /// its kernels compile side by side, each on a thread of its own.
  void wait_ready() const;
  /// Whether the passes take the batch as their fastest level (FftPass::batch_fast: innermost
  /// batching), a group's transforms adjacent batch entries.
  bool batch_fast() const { return batch_fast_; }
  /// E.g. "gpu c2c n=1048576: 1024 x 1024 (2 passes, twiddles fused into the stores of the first pass)".
  std::string describe() const;

  /// out = scale * DFT of in for every transform of the layout, enqueued on `stream`, the
  /// layouts starting at elements in_base and out_base. in and out may be the same memory (in
  /// place, any layouts). Buffer sizes are the caller's to check.
  void run(Stream& stream, const Memory& in, Memory& out, fft::Direction direction, double scale,
           std::int64_t in_base = 0, std::int64_t out_base = 0) const;
  /// The launches of run()'s step `index` alone (< step_count()), forward and unscaled, for
  /// every outer index, each reading what it reads in run() (the plan's scratch, or `in` as it
  /// is: no copy of an input run in place): to time a plan's passes one by one (bench_gpu_fft);
  /// what it leaves is no transform. Throws
  /// InvalidArgument for an index past the steps (there are none for DeviceFftBluestein's sizes).
  void run_step(Stream& stream, const Memory& in, Memory& out, std::size_t index) const;

 private:
  // run()'s launches of every step, or of step `only` alone (kAllSteps: all).
  static constexpr std::size_t kAllSteps = static_cast<std::size_t>(-1);
  void launch_steps(Stream& stream, const Memory& source, Memory& out, fft::Direction direction, double scale,
                    std::int64_t in_base, std::int64_t out_base, std::size_t only) const;
  // Which memory a launch reads or writes.
  enum class Slot { in, out, scratch1, scratch2 };
  struct Step {
    const DeviceFft* kernel = nullptr;
    FftPass pass;
    const FftPassTwiddles* twiddles = nullptr;
    Slot from = Slot::in, to = Slot::out;
    bool last = false;  // takes the norm's scale
  };
  /// The program of `size` for launches like `pass` (its column shape where pass.columns(),
  /// its fastest level of batch where pass.fast > 1), a pass of a real transform's half-spectrum
  /// step where real.pass_step != 0.
  const DeviceFft& kernel(Context& context, std::uint64_t size, bool pass_twiddle, const FftPass& pass,
                          const FftReal& real = {});
  const FftPassTwiddles& twiddles(Context& context, std::uint64_t n, bool as_double);

  std::uint64_t n_;
  bool double_;
  FftLayout layout_;
  FftReal real_;  // n = 0 for a complex plan
  bool writes_real_ = false;
  bool batch_fast_ = false;  // the passes take the batch as their fastest level (FftPass::batch_fast)
  std::vector<std::uint64_t> passes_;
  // size, twiddle, columns, batch_fast, and the real side's pass step and last_pass (FftReal)
  std::map<std::tuple<std::uint64_t, bool, bool, bool, std::uint64_t, bool>, std::unique_ptr<DeviceFft>> kernels_;
  std::map<std::uint64_t, std::unique_ptr<FftPassTwiddles>> twiddles_;
  std::vector<Step> steps_;  // multi-pass: those of one outer index
  // Run in place with different in and out layouts, a pass or an outer index could overwrite
  // input another one has yet to read: the input (in_elements_ from in_base) is copied first.
  bool copy_in_place_ = false;
  std::uint64_t in_elements_ = 0;
  std::unique_ptr<Memory> in_copy_, scratch1_, scratch2_;
  std::unique_ptr<DeviceFftBluestein> bluestein_;
};

}  // namespace ripple::gpu
