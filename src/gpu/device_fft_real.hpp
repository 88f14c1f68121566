// Device level: batched 1-D real-input (r2c) and real-output (c2r) FFTs of even size N = 2H, as
// numpy's rfft/irfft: a complex FFT of H (DeviceFftPlan) on the reals read as H complex values,
// with an O(N) kernel that splits the even and odd halves' spectra after it (r2c) or merges
// them before it (c2r) (kernels/fft_real.cl). Where the reals are contiguous (stride 1, even
// distances) the complex FFT reads or writes them in place of complex values; other layouts go
// through a pack or unpack kernel. The half-spectrum twiddles come from a long-double table
// rounded once; the work array (batch x H complex values) is device memory the plan owns.
// Odd sizes take a complex FFT of N on the reals widened to complex values (twice the work), as
// the CPU plan does for now.
#pragma once

#include <cstdint>
#include <memory>

#include "gpu/device_fft_plan.hpp"

namespace ripple::gpu {

class DeviceFftReal {
 public:
  /// Transforms of size n >= 1. `layout` counts reals on the real side and complex values on
  /// the other (n/2 + 1 of them per transform); checked by the caller. r2c is forward, c2r
  /// backward. Throws as DeviceFftPlan for size n/2 (n odd: n), DeviceError if memory cannot be
  /// had.
  DeviceFftReal(Context& context, std::uint64_t n, bool double_precision, bool r2c, const FftLayout& layout);

  static ProgramSpec program(bool double_precision);
  const DeviceFftPlan& half() const { return *half_; }
  /// Whether the complex FFT reads (r2c) or writes (c2r) the reals directly.
  bool direct() const { return direct_; }
  /// Odd n: a complex FFT of n on widened reals.
  bool odd() const { return odd_; }

  /// Waits until every program of the plan is compiled and loaded (DeviceFft::wait_ready).
  void wait_ready() const;

  /// out = scale * the transform of in, enqueued on `stream` (in and out are different memory).
  void run(Stream& stream, const Memory& in, Memory& out, double scale) const;

 private:
  std::uint64_t n_, h_;  // h_: the complex FFT's size (n / 2, or n when odd)
  bool double_, r2c_, direct_ = false, odd_;
  FftLayout layout_;
  PendingModule module_;  // compiled on its own thread (program.hpp)
  std::shared_ptr<const Memory> twiddles_;  // shared through the context's table cache
  std::unique_ptr<Memory> work_;
  std::unique_ptr<DeviceFftPlan> half_;
  std::uint32_t groups_ = 1;
};

}  // namespace ripple::gpu
