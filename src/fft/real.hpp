// Real-input (r2c) and real-output (c2r) transforms of size n on top of a c2c node, or, where
// the n values fit one vector, by their DFT matrix (cpu::RealDirectArgs).
// Even n: the n reals are viewed as n/2 complex values, transformed with a half-size c2c and
// split into the spectrum with one twiddle per bin (and the reverse for c2r). Odd n: a full
// size complex transform of the real signal (correct, twice the work; to be replaced by a
// real-data algorithm).
#pragma once

#include "core/aligned.hpp"
#include "cpu/fft_kernels.hpp"
#include "fft/c2c_node.hpp"

namespace ripple::fft::detail {

/// Layout of a real transform's two sides, in units of each side's element type.
using RealLayout = Layout;

template <class T>
class RealFft {
 public:
  /// forward: r2c; otherwise c2r.
  RealFft(std::size_t n, bool forward, std::size_t batch, unsigned threads);
  void r2c(const T* in, std::complex<T>* out, const RealLayout& layout, T scale, unsigned threads) const;
  void c2r(const std::complex<T>* in, T* out, const RealLayout& layout, T scale, unsigned threads) const;
  std::string describe() const;

  /// Whether a transform of n points takes the DFT matrix on `kernels`: its n values fit one
  /// vector, where that measured faster than the FFT path in both directions.
  static bool direct(std::size_t n, const cpu::FftKernels<T>& kernels);

 private:
  // The direct kernel on batch entries [first, last), and shared out among threads. The FFT
  // paths and the threaded one are out of line: their stack frames and saved registers cost
  // the direct kernel's calls, a few tens of nanoseconds each, time.
  void run_direct(bool forward, const void* in, void* out, const RealLayout& layout, T scale, std::size_t first,
                  std::size_t last) const;
  [[gnu::noinline]] void run_direct_threads(bool forward, const void* in, void* out, const RealLayout& layout,
                                            T scale, unsigned threads) const;
  [[gnu::noinline]] void r2c_by_fft(const T* in, std::complex<T>* out, const RealLayout& layout, T scale,
                                    unsigned threads) const;
  [[gnu::noinline]] void c2r_by_fft(const std::complex<T>* in, T* out, const RealLayout& layout, T scale,
                                    unsigned threads) const;

  std::size_t n_;
  const cpu::FftKernels<T>* kernels_;      // the split and merge (looked up once, at planning)
  C2cNodePtr<T> c2c_;                      // size n/2 (even n) or n (odd n); null when direct
  core::AlignedVector<T> direct_;           // the DFT matrix's rows (RealDirectArgs::table)
  core::AlignedVector<std::complex<T>> w_;  // w_n^k, k <= n/2 (forward sign)
};

}  // namespace ripple::fft::detail
