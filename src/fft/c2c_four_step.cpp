#include "fft/c2c_four_step.hpp"

#include <algorithm>
#include <limits>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "fft/kernels.hpp"
#include "fft/unit_roots.hpp"

namespace ripple::fft::detail {

namespace {
// Fraction of lanes doing useful work when `count` sequences go through W-lane panels.
double lane_use(std::size_t count, std::size_t lanes) {
  const std::size_t panels = (count + lanes - 1) / lanes;
  return double(count) / double(panels * lanes);
}
}  // namespace

template <class T>
std::size_t C2cFourStep<T>::choose_n1(std::size_t n, std::size_t lanes, double* cost) {
  std::size_t best = 1;
  double best_cost = std::numeric_limits<double>::infinity();
  for (std::size_t n1 = 2; n1 * 2 <= n; ++n1) {
    if (n % n1 != 0) continue;
    const std::size_t n2 = n / n1;
    const double c1 = lane_fft_cost_per_point(n1), c2 = lane_fft_cost_per_point(n2);
    if (!std::isfinite(c1) || !std::isfinite(c2)) continue;
    // Per point: each sweep's arithmetic divided by its lane use, plus the twiddle and the
    // extra pass over memory. Lopsided splits cost cache misses; mild bias to balance.
    const double imbalance = std::abs(std::log2(double(n1)) - std::log2(double(n2)));
    const double c = c1 / lane_use(n2, lanes) + c2 / lane_use(n1, lanes) + 6.0 + 0.1 * imbalance;
    if (c < best_cost) {
      best_cost = c;
      best = n1;
    }
  }
  if (cost) *cost = best_cost;
  return best;
}

template <class T>
C2cFourStep<T>::C2cFourStep(std::size_t n1, std::size_t n2, bool forward)
    : C2cNode<T>(n1 * n2),
      n1_(n1),
      n2_(n2),
      columns_(make_lane_fft<T>(n1, forward)),
      rows_(make_lane_fft<T>(n2, forward)) {
  const std::size_t n = n1 * n2;
  const UnitRoots roots(n);
  twiddles_.resize(n + 16);  // padding: the last partial panel loads a full vector
  for (std::size_t k1 = 0; k1 < n1; ++k1)
    for (std::size_t c = 0; c < n2; ++c) {
      const auto w = roots(k1 * c, forward);
      twiddles_[k1 * n2 + c] = {static_cast<T>(w.real()), static_cast<T>(w.imag())};
    }
}

template <class T>
void C2cFourStep<T>::execute(const std::complex<T>* in, std::complex<T>* out, const Layout& layout,
                             T scale, unsigned threads) const {
  const auto& kernels = fft_kernels<T>();
  const std::size_t w = kernels.lanes;
  const std::size_t n = this->n();
  core::Scratch scratch;
  std::complex<T>* y = scratch.get<std::complex<T>>(n);
  const std::size_t column_panels = (n2_ + w - 1) / w, row_panels = (n1_ + w - 1) / w;
  for (std::size_t b = 0; b < layout.batch; ++b) {
    const std::complex<T>* x = in + std::ptrdiff_t(b) * layout.in_dist;
    std::complex<T>* result = out + std::ptrdiff_t(b) * layout.out_dist;
    core::parallel_for(column_panels, threads, [&](std::size_t panel) {
      core::Scratch local;
      cpu::PanelArgs<T> args;
      args.plan = &columns_;
      const std::size_t c = panel * w;
      args.lanes = std::min(w, n2_ - c);
      args.src = x + std::ptrdiff_t(c) * layout.in_stride;
      args.src_lane_stride = layout.in_stride;
      args.src_elem_stride = std::ptrdiff_t(n2_) * layout.in_stride;
      args.dst = y + c;
      args.dst_lane_stride = 1;
      args.dst_elem_stride = std::ptrdiff_t(n2_);
      args.lane_twiddles = twiddles_.data() + c;
      args.twiddle_elem_stride = std::ptrdiff_t(n2_);
      args.scratch = local.get<T>(4 * n1_ * w);
      kernels.panel(args);
    });
    core::parallel_for(row_panels, threads, [&](std::size_t panel) {
      core::Scratch local;
      cpu::PanelArgs<T> args;
      args.plan = &rows_;
      const std::size_t k1 = panel * w;
      args.lanes = std::min(w, n1_ - k1);
      args.src = y + k1 * n2_;
      args.src_lane_stride = std::ptrdiff_t(n2_);
      args.src_elem_stride = 1;
      args.dst = result + std::ptrdiff_t(k1) * layout.out_stride;
      args.dst_lane_stride = layout.out_stride;
      args.dst_elem_stride = std::ptrdiff_t(n1_) * layout.out_stride;
      args.scale = scale;
      args.scratch = local.get<T>(4 * n2_ * w);
      kernels.panel(args);
    });
  }
}

template <class T>
std::string C2cFourStep<T>::describe() const {
  return "four-step(" + describe_radices(columns_.passes) + " | " + describe_radices(rows_.passes) + ")";
}

template class C2cFourStep<float>;
template class C2cFourStep<double>;

}  // namespace ripple::fft::detail
