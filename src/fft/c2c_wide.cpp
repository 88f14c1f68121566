#include "fft/c2c_wide.hpp"

#include <cmath>
#include <iterator>

#include "core/page_offsets.hpp"
#include "core/scratch.hpp"
#include "core/stream_copy.hpp"
#include "core/thread_pool.hpp"
#include "fft/kernels.hpp"
#include "fft/unit_roots.hpp"

namespace ripple::fft::detail {

template <class T>
bool C2cWide<T>::applicable(std::size_t n, std::size_t lanes, std::size_t batch, unsigned threads) {
  if (lanes < 2 || lanes > 8 || n % lanes != 0 || n < 2 * lanes) return false;
  const std::size_t bytes = n * sizeof(std::complex<T>);
  if (batch < threads && bytes > (std::size_t(1) << 20)) return false;
  // From 12 MiB the four-step's two sweeps over memory beat one per pass (one thread, AVX-512
  // Zen 4: f64 N = 10^6 0.75-0.83x, 2^20-2^22 0.89-0.93x, f32 N = 2^21-2^22 0.93-0.95x the
  // time; at 8 MiB it lost: f64 2^19 1.6x, f32 2^20 and 10^6 1.2-1.4x).
  if (bytes >= kFourStepFromBytes) return false;
  return std::isfinite(lane_fft_cost_per_point(n / lanes));
}

template <class T>
cpu::WideKernel<T> C2cWide<T>::fixed_kernel(std::size_t n, const cpu::FftKernels<T>& kernels) {
  std::vector<int> radices;
  if (!factor_for_passes(n / kernels.lanes, radices)) return nullptr;
  return kernels.wide_fixed(radices.data(), radices.size());
}

template <class T>
C2cWide<T>::C2cWide(std::size_t n, bool forward, const cpu::FftKernels<T>& kernels)
    : C2cNode<T>(n), kernels_(&kernels), lanes_(kernels.lanes) {
  kernel_ = fixed_kernel(n, kernels);
  const std::size_t m = n / lanes_;
  std::vector<int> split;
  if (kernel_ == nullptr) {
    // A first pass of 2, 4 or 8 leaves blocks of 64 points that an unrolled kernel takes.
    for (const int r : {2, 4, 8}) {
      if (m != std::size_t(r) * 64) continue;
      const std::vector<int> radices = {r, 8, 8};
      kernel_ = kernels.wide_fixed(radices.data(), radices.size());
      if (kernel_ != nullptr) split = radices;
      break;
    }
  }
  columns_ = split.empty() ? make_lane_fft<T>(m, forward) : make_lane_fft<T>(m, forward, split);
  if (!split.empty()) blocks_ = make_lane_fft<T>(64, forward, {8, 8});
  if (kernel_ == nullptr) kernel_ = kernels.wide;
  const UnitRoots roots(n);
  // Expanded (see cpu::WideArgs::twiddles) for the unrolled kernels that take them so.
  const bool expanded = kernel_ != kernels.wide && blocks_.passes.empty() && cpu::wide_twiddles_expanded<T>(n, lanes_);
  twiddles_.resize(expanded ? 2 * n : n);
  for (std::size_t k1 = 0; k1 < m; ++k1)
    for (std::size_t l = 0; l < lanes_; ++l) {
      const auto w = roots(l * k1, forward);
      const T re = static_cast<T>(w.real()), im = static_cast<T>(w.imag());
      if (expanded) {
        twiddles_[2 * k1 * lanes_ + l] = {re, re};
        twiddles_[(2 * k1 + 1) * lanes_ + l] = {-im, im};
      } else {
        twiddles_[k1 * lanes_ + l] = {re, im};
      }
    }
}

template <class T>
inline void C2cWide<T>::run(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, T scale,
                            std::size_t whole_batch) const {
  cpu::WideArgs<T> args;
  args.plan = &columns_;
  args.twiddles = twiddles_.data();
  args.scale = scale;
  args.src_stride = layout.in_stride;
  args.dst_stride = layout.out_stride;
  if (kernel_ == kernels_->wide || !blocks_.passes.empty()) return run_with_scratch(in, out, layout, args, whole_batch);
  // The unrolled kernels need no scratch, and a short transform's whole time is a few tens of
  // nanoseconds: nothing more on their way in (f64 N = 16, one thread, AVX-512 Zen 4: 17.7
  // -> 15.0 ns, with fft::Plan::execute's run_* functions inlined).
  if (layout.batch > 1) return run_batch(in, out, layout, args, whole_batch);
  args.src = in;
  args.dst = out;
  kernel_(args);
}

template <class T>
void C2cWide<T>::execute(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, T scale,
                         unsigned threads) const {
  if (threads > 1 && layout.batch > 1) {
    // Batch entries shared out among the threads, a contiguous range each.
    const std::size_t tasks = std::min<std::size_t>(layout.batch, 4 * threads);
    core::parallel_for(tasks, threads, [&](std::size_t task) {
      const std::size_t first = layout.batch * task / tasks, last = layout.batch * (task + 1) / tasks;
      Layout part = layout;
      part.batch = last - first;
      run(in + std::ptrdiff_t(first) * layout.in_dist, out + std::ptrdiff_t(first) * layout.out_dist, part, scale,
          layout.batch);
    });
    return;
  }
  run(in, out, layout, scale, layout.batch);
}

template <class T>
void C2cWide<T>::run_with_scratch(const std::complex<T>* in, std::complex<T>* out, const Layout& layout,
                                  cpu::WideArgs<T>& args, std::size_t whole_batch) const {
  // Short transforms keep their scratch on the stack: the thread's arena costs more than they
  // do.
  alignas(64) T stack[4096 / sizeof(T)];
  const std::size_t scratch_values = cpu::wide_scratch_values<T>(this->n());
  core::Scratch scratch;
  if (!blocks_.passes.empty()) args.sub_plan = &blocks_;
  args.scratch = scratch_values <= std::size(stack) ? stack : scratch.get<T>(scratch_values);
  run_batch(in, out, layout, args, whole_batch);
}

template <class T>
void C2cWide<T>::run_batch(const std::complex<T>* in, std::complex<T>* out, const Layout& layout,
                           cpu::WideArgs<T>& args, std::size_t whole_batch) const {
  // In a batch of short contiguous transforms, the next one's input is fetched while this one
  // runs: the strided reads of its first pass are over before the hardware prefetchers follow
  // them. Measured only in a window (one thread, AVX-512 Zen 4, batches of 64-128 MiB, A/B in
  // one process): entries of 2 KiB (f32 N = 256, f64 N = 128) 0.85-0.95x the time; of
  // 0.5-1 KiB, whose lines the prefetchers already follow, 1.05-1.13x; of 4 KiB 1.0-1.04x.
  const std::size_t n = this->n(), entry_bytes = n * sizeof(std::complex<T>);
  const bool prefetch = layout.in_stride == 1 && entry_bytes > kPrefetchNextBytes / 2 && entry_bytes <= kPrefetchNextBytes;
  const bool stage_out = layout.final_out && layout.out_stride == 1 && entry_bytes >= kStageOutFromBytes &&
                         entry_bytes <= kStageOutToBytes && whole_batch * entry_bytes >= core::kStreamOutFromBytes;
  core::Scratch scratch;
  std::complex<T>* const staged = stage_out ? scratch.get<std::complex<T>>(n) : nullptr;
  if (stage_out) args.dst_stride = 1;
  for (std::size_t b = 0; b < layout.batch; ++b) {
    args.src = in + std::ptrdiff_t(b) * layout.in_dist;
    std::complex<T>* const dst = out + std::ptrdiff_t(b) * layout.out_dist;
    args.dst = stage_out ? staged : dst;
    if (prefetch && b + 1 < layout.batch) {
      const char* next = reinterpret_cast<const char*>(args.src + layout.in_dist);
      for (std::size_t offset = 0; offset < entry_bytes; offset += core::kLineBytes) __builtin_prefetch(next + offset);
    }
    kernel_(args);
    if (stage_out) core::stream_copy(staged, n, dst);
  }
  if (stage_out) core::stream_fence();  // before this thread hands its results on
}

template <class T>
std::string C2cWide<T>::describe() const {
  const bool fixed = kernel_ != kernels_->wide;
  const std::string kind = !blocks_.passes.empty() ? "wide-split(" : fixed ? "wide-fixed(" : "wide(";
  return kind + describe_radices(columns_.passes) + " | " + std::to_string(lanes_) + ")";
}

template class C2cWide<float>;
template class C2cWide<double>;

}  // namespace ripple::fft::detail
