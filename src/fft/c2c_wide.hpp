// Node: one transform of size n = m * W, W the SIMD lanes, done almost entirely in registers:
// the signal read as m contiguous vectors is a lane FFT of size m down W columns, then each
// W x W block is transposed in registers and finished with a size-W butterfly. No gathers and
// the last stage in registers. Measured faster than the four-step at every size on one thread.
#pragma once

#include "core/aligned.hpp"
#include "cpu/fft_kernels.hpp"
#include "fft/c2c_node.hpp"
#include "fft/kernels.hpp"
#include "fft/lane_fft.hpp"

namespace ripple::fft::detail {

template <class T>
class C2cWide final : public C2cNode<T> {
 public:
  /// `kernels`: the best target's table by default, or a narrower one (narrow_fft_kernels,
  /// narrowest_fft_kernels).
  C2cWide(std::size_t n, bool forward, const cpu::FftKernels<T>& kernels = fft_kernels<T>());
  void execute(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, T scale,
               unsigned threads) const override;
  std::string describe() const override;

  /// Whether n can take this path with `lanes` complex values per vector. Threads share out
  /// the batch, so a long transform with fewer batch entries than threads goes to the
  /// four-step instead, as does any beyond kFourStepFromBytes.
  static bool applicable(std::size_t n, std::size_t lanes, std::size_t batch, unsigned threads);
  /// Batch entries of more than half this many bytes, and at most this many, prefetch the
  /// next entry's input.
  static constexpr std::size_t kPrefetchNextBytes = std::size_t{2} << 10;
  /// Transforms of this many bytes and more go to the four-step, batched or not.
  static constexpr std::size_t kFourStepFromBytes = std::size_t(12) << 20;

  /// The unrolled kernel of `kernels` for size n (its lane FFT's radices), or null where none
  /// is compiled and the generic one runs.
  static cpu::WideKernel<T> fixed_kernel(std::size_t n, const cpu::FftKernels<T>& kernels);

 private:
  /// Runs kernel_ on each batch entry with `args` (all but src and dst filled in).
  void run_batch(const std::complex<T>* in, std::complex<T>* out, const Layout& layout,
                 cpu::WideArgs<T>& args) const;
  /// run_batch for the kernels that need scratch (generic and split), out of execute()'s
  /// way: its stack frame cost the unrolled kernels' calls time.
  [[gnu::noinline]] void run_with_scratch(const std::complex<T>* in, std::complex<T>* out, const Layout& layout,
                                          cpu::WideArgs<T>& args) const;

  const cpu::FftKernels<T>* kernels_;
  std::size_t lanes_;
  LaneFft<T> columns_;
  cpu::WideKernel<T> kernel_;  // unrolled for this size where one is compiled, else generic
  LaneFft<T> blocks_;          // a split kernel's sub-transform (no passes for the others)
  core::AlignedVector<std::complex<T>> twiddles_;  // w_n^{l*k1}, laid out as cpu::WideArgs::twiddles
};

}  // namespace ripple::fft::detail
