// Device level: Bluestein's algorithm for sizes with a prime factor above 13: the DFT of N as a
// cyclic convolution of length M (bluestein_size(N), the smallest codelet-smooth size >= 2N - 1)
// with a chirp (kernels/fft_chirp.h). Its tables, the chirp and its spectrum, are computed on the
// host (chirp in long double, spectrum by the CPU FFT in double, each rounded once) and shared
// through the context's table cache. Sizes whose M fits on chip run the whole algorithm in one
// kernel (DeviceFft with FftShape::bluestein_n); larger ones are DeviceFftBluestein: a chirp
// multiply (kernels/fft_bluestein.cl), a forward FFT of M (DeviceFftPlan), a multiply by the
// chirp's spectrum, a backward FFT of M and a chirp multiply into the output layout, through a
// work array (batch x M) of device memory the plan owns. run() only launches.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

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
  /// Transforms of size n >= 2 in `layout` (checked by the caller), the FFTs of M planned with
  /// passes of at most max_pass points. Throws as DeviceFftPlan for the inner size, DeviceError
  /// if memory cannot be had.
  DeviceFftBluestein(Context& context, std::uint64_t n, bool double_precision, const FftLayout& layout,
                     std::uint64_t max_pass = kFftMaxOnChip);
  ~DeviceFftBluestein();

  static ProgramSpec program(bool double_precision);

  std::uint64_t padded() const { return m_; }
  const DeviceFftPlan& inner() const { return *inner_; }

  /// Waits until every program of the plan is compiled and loaded (DeviceFft::wait_ready).
  void wait_ready() const;

  /// out = scale * DFT of in for every transform of the (one-level) layout, starting at
  /// elements in_base and out_base (in and out may be the same memory, any layouts), enqueued
  /// on `stream`.
  void run(Stream& stream, const Memory& in, Memory& out, fft::Direction direction, double scale,
           std::int64_t in_base = 0, std::int64_t out_base = 0) const;

 private:
  std::uint64_t n_, m_;
  bool double_;
  FftLayout layout_;
  PendingModule module_;  // compiled on its own thread (program.hpp)
  BluesteinTables tables_;
  std::unique_ptr<Memory> work_;
  std::unique_ptr<DeviceFftPlan> inner_;
  std::uint32_t groups_ = 1;
};

}  // namespace ripple::gpu
