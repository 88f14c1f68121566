// SpectrogramStream: spectrogram (psd mode) of a stream. Samples wait in a buffer until a whole
// segment is there; each segment's powers go to the caller, or are summed over `average`
// segments first. The buffer keeps only what later segments still need (the overlap), so
// memory is bounded by a segment plus the largest block pushed.
#include <limits>

#include "ripple/spectral.hpp"
#include "spectral/segments.hpp"

namespace ripple::spectral {

template <Sample T>
struct SpectrogramStream<T>::Impl {
  detail::Segments<Real> seg;
  fft::Plan plan;
  std::size_t average;
  double fs;
  std::vector<T> pending;        // samples from stream index `base` on
  std::size_t base = 0;          // stream index of pending[0]
  std::size_t next_segment = 0;  // index of the next segment to transform
  std::vector<Real> sum;         // powers summed over the current row's segments
  std::size_t summed = 0;

  Impl(detail::Segments<Real> s, const SpectrogramOptions& o, std::size_t avg)
      : seg(std::move(s)), plan(detail::segment_plan(seg)), average(avg), fs(o.fs), sum(seg.bins, Real(0)) {}
};

template <Sample T>
SpectrogramStream<T>::SpectrogramStream(const SpectrogramOptions& o, std::size_t average) {
  if (average == 0) throw InvalidArgument("SpectrogramStream: average must be at least 1 segment, got 0");
  // A stream has no length to cut nperseg to: plan as for an endless signal.
  auto seg = detail::plan_segments<Real>("SpectrogramStream", std::numeric_limits<std::size_t>::max(), o, 8,
                                         ripple::detail::is_complex_v<T>);
  impl_ = std::make_unique<Impl>(std::move(seg), o, average);
}

template <Sample T>
SpectrogramStream<T>::SpectrogramStream(SpectrogramStream&&) noexcept = default;
template <Sample T>
SpectrogramStream<T>& SpectrogramStream<T>::operator=(SpectrogramStream&&) noexcept = default;
template <Sample T>
SpectrogramStream<T>::~SpectrogramStream() = default;

template <Sample T>
const std::vector<double>& SpectrogramStream<T>::frequencies() const noexcept {
  return impl_->seg.frequencies;
}
template <Sample T>
std::size_t SpectrogramStream<T>::bins() const noexcept {
  return impl_->seg.bins;
}
template <Sample T>
std::size_t SpectrogramStream<T>::step() const noexcept {
  return impl_->seg.step;
}

template <Sample T>
void SpectrogramStream<T>::push(std::span<const T> x, const Row& row) {
  Impl& m = *impl_;
  const auto& s = m.seg;
  m.pending.insert(m.pending.end(), x.begin(), x.end());
  const std::size_t end = m.base + m.pending.size();
  detail::SegmentFft<Real> transform(s, m.plan);
  for (; m.next_segment * s.step + s.nperseg <= end; ++m.next_segment) {
    const std::complex<Real>* spec = transform(m.pending.data() + (m.next_segment * s.step - m.base), 1);
    for (std::size_t k = 0; k < s.bins; ++k) m.sum[k] += detail::bin_power(s, spec, k);
    if (++m.summed < m.average) continue;
    if (m.average > 1) {
      for (Real& v : m.sum) v /= Real(m.average);
    }
    const std::size_t first = m.next_segment + 1 - m.average;
    const double centre = double(s.nperseg) / 2.0 + (double(first) + double(m.average - 1) / 2.0) * double(s.step);
    row(std::span<const Real>(m.sum), centre / m.fs);
    std::fill(m.sum.begin(), m.sum.end(), Real(0));
    m.summed = 0;
  }
  // Keep from the next segment's start on.
  const std::size_t keep_from = std::min(m.next_segment * s.step, end);
  m.pending.erase(m.pending.begin(), m.pending.begin() + static_cast<std::ptrdiff_t>(keep_from - m.base));
  m.base = keep_from;
}

template <Sample T>
void SpectrogramStream<T>::reset() {
  Impl& m = *impl_;
  m.pending.clear();
  m.base = m.next_segment = m.summed = 0;
  std::fill(m.sum.begin(), m.sum.end(), Real(0));
}

template class SpectrogramStream<float>;
template class SpectrogramStream<double>;
template class SpectrogramStream<std::complex<float>>;
template class SpectrogramStream<std::complex<double>>;

}  // namespace ripple::spectral
