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

  /// Batch entries of kStageOutFromBytes to kStageOutToBytes, in batches whose results reach
  /// core::kStreamOutFromBytes (so leave the cache) and are the plan's output
  /// (Layout::final_out), are each computed into a buffer that stays in L1 and streamed out
  /// from there with non-temporal stores. The kernels' last pass stores an entry in blocks a
  /// row of M vectors apart, so it holds a line of every row open at once, each read for
  /// ownership first. One thread, AVX-512 Zen 4, batches of 64 MiB, alternated: f64 N = 128
  /// 13-14.6 -> 6.2-6.3 ms, 256 17.3-18.4 -> 12.9-13.5, 512 17.8-19.8 -> 14.6-15; f32 N = 512
  /// 16.8-18.3 -> 12.6-14.4, 256 7.7-8.1 -> 7.2-7.5; f32 N = 1024 and 2048 even. Smaller
  /// entries lost, with 16-byte and 64-byte non-temporal stores alike (f32 N = 64 5.2-5.4 ->
  /// 6.5-7.8 ms; f32 128 1.1-1.2x the time). Staged and copied out with ordinary stores, no
  /// size gained: the non-temporal stores are the gain. Results read back at once
  /// must not bypass the cache: r2c-f32 N = 512 x 32768, whose split reads its c2c's output,
  /// took 1.3x the time so.
  static constexpr std::size_t kStageOutFromBytes = std::size_t{2} << 10;
  static constexpr std::size_t kStageOutToBytes = std::size_t{8} << 10;

 private:
  /// execute() on one thread, for `layout.batch` of the `whole_batch` entries the call has.
  [[gnu::always_inline]] inline void run(const std::complex<T>* in, std::complex<T>* out, const Layout& layout,
                                         T scale, std::size_t whole_batch) const;
  /// Runs kernel_ on each batch entry with `args` (all but src and dst filled in).
  void run_batch(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, cpu::WideArgs<T>& args,
                 std::size_t whole_batch) const;
  /// run_batch for the kernels that need scratch (generic and split), out of execute()'s
  /// way: its stack frame cost the unrolled kernels' calls time.
  [[gnu::noinline]] void run_with_scratch(const std::complex<T>* in, std::complex<T>* out, const Layout& layout,
                                          cpu::WideArgs<T>& args, std::size_t whole_batch) const;

  const cpu::FftKernels<T>* kernels_;
  std::size_t lanes_;
  LaneFft<T> columns_;
  cpu::WideKernel<T> kernel_;  // unrolled for this size where one is compiled, else generic
  LaneFft<T> blocks_;          // a split kernel's sub-transform (no passes for the others)
  core::AlignedVector<std::complex<T>> twiddles_;  // w_n^{l*k1}, laid out as cpu::WideArgs::twiddles
};

}  // namespace ripple::fft::detail
