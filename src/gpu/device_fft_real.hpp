// Device level: batched 1-D real-input (r2c) and real-output (c2r) FFTs, as numpy's
// rfft/irfft. Where the complex FFT fits one kernel (n/2 for even n, n for odd n, at least 2;
// Bluestein's in-kernel sizes included) the whole transform is that kernel (DeviceFft with an
// FftReal): the reals are read once and the n/2 + 1 outputs written once, or the reverse; the
// even sizes' split and merge with the half-spectrum twiddles (a long-double table rounded
// once) happen in its store and load. Other sizes run a complex plan (DeviceFftPlan). Where its
// size is codelet-smooth, or Bluestein's in fused passes, its first and last passes
// read and write the real side in any layout (FftReal::pass_step): even n = 2H, a complex FFT
// of H whose first pass reads the reals in pairs (r2c) or merges the spectrum (c2r) and whose
// last splits the spectrum (r2c, where a pass can pair its transforms in a group, Bluestein's
// storing pass too; else a split kernel follows through a work array) or stores the reals in pairs
// (c2r); odd n, a complex FFT of n (twice the work) whose first pass reads the reals widened
// or the Hermitian spectrum rebuilt and whose last writes k <= n/2 or the real parts. Other
// sizes (n = 1, 2) go through a work array (batch x the
// complex size) with O(n) kernels around the plan (kernels/fft_real.cl): n = 2, the split
// after it or the merge before it and a pack or unpack kernel; n = 1, kernels that widen into
// and narrow out of it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "gpu/device_fft_plan.hpp"

namespace ripple::gpu {

class DeviceFftReal {
 public:
  /// Transforms of size n >= 1. `layout` counts reals on the real side and complex values on
  /// the other (n/2 + 1 of them per transform); checked by the caller. r2c is forward, c2r
  /// backward. max_pass caps the complex FFT's passes, the one kernel's included, as does the
  /// device's work-group limit (fft_max_on_chip; tests lower it
  /// to reach the unfused path at small n); max_split_pass caps an even r2c's split pass (tests
  /// lower it to reach the split kernel). Throws as DeviceFftPlan for size n/2 (n odd: n),
  /// DeviceError if memory cannot be had.
  DeviceFftReal(Context& context, std::uint64_t n, bool double_precision, bool r2c, const FftLayout& layout,
                std::uint64_t max_pass = kFftMaxOnChip, std::uint64_t max_split_pass = kFftMaxSplitPass);

  static ProgramSpec program(bool double_precision);
  /// W^k = e^{-2 pi i k / n} for k <= n/2 (n even): the split and merge twiddles, shared through
  /// the context's table cache.
  static std::shared_ptr<const Memory> twiddles(Context& context, std::uint64_t n, bool double_precision);
  /// Whether the whole transform is one kernel.
  bool fused() const { return fused_ != nullptr; }
  /// E.g. "one kernel (a complex FFT of 60 on the reals paired, the spectrum split in its store)".
  std::string describe() const;

  /// Waits until every program of the plan is compiled and loaded (DeviceFft::wait_ready).
  void wait_ready() const;

  /// out = scale * the transform of in, enqueued on `stream`, the layouts starting at elements
  /// in_base and out_base (of each side's type). in and out may be the same memory where each
  /// transform's reals and complex values cover the same bytes, or there is one transform
  /// (every path reads a transform's input before writing its output; fft::DevicePlan checks
  /// the layout).
  void run(Stream& stream, const Memory& in, Memory& out, double scale, std::int64_t in_base = 0,
           std::int64_t out_base = 0) const;

 private:
  std::uint64_t n_, h_;  // h_: the complex FFT's size (n / 2, or n when odd)
  bool double_, r2c_, odd_;
  // The complex plan's passes read the real side and, but for an even r2c's whose spectrum no
  // pass can split (DeviceFftPlan::writes_real), write it: no kernel and no work array.
  bool real_in_pass_ = false;
  FftLayout layout_;
  PendingModule module_;  // compiled on its own thread (program.hpp)
  std::shared_ptr<const Memory> twiddles_;  // shared through the context's table cache
  std::unique_ptr<Memory> work_;
  std::unique_ptr<DeviceFftPlan> half_;
  std::uint32_t groups_ = 1;
  std::unique_ptr<DeviceFft> fused_;  // the one-kernel path, launched with fused_pass_
  FftPass fused_pass_;
};

}  // namespace ripple::gpu
