// Streaming upfirdn: output k needs the padded line (taps - 1 zeros, then the samples) at
// padded indices [k * down / up, + taps); it is emitted once its last real sample has arrived,
// by the one-shot upfirdn's polyphase kernels (fir/polyphase.hpp). The window keeps, per real
// line (two for complex samples), the padded line from index base on; what no later output
// reads is dropped after each call, so it holds at most a block plus the filter.
#include <algorithm>
#include <array>
#include <complex>
#include <string>

#include "fir/polyphase.hpp"
#include "ripple/error.hpp"
#include "ripple/fir.hpp"

namespace ripple::fir {

template <Sample T>
struct UpFirDn<T>::Impl {
  static constexpr std::size_t kParts = ripple::detail::is_complex_v<T> ? 2 : 1;
  detail::Polyphase<Real> poly;
  std::size_t h_len = 0;
  std::array<std::vector<Real>, kParts> lines;  // real and imaginary parts, deinterleaved
  std::size_t base = 0;                         // padded index of lines[*][0]
  std::size_t seen = 0;                         // input samples so far
  std::size_t next = 0;                         // next output index

  void reset() {
    for (auto& line : lines) line.assign(poly.taps - 1, Real(0));
    base = seen = next = 0;
  }

  std::size_t emit_until(std::size_t end, std::vector<T>& out) {
    if (end <= next) return 0;
    const std::size_t first = out.size(), count = end - next;
    out.resize(first + count);
    Real* y = reinterpret_cast<Real*>(out.data() + first);
    for (std::size_t part = 0; part < kParts; ++part) {
      poly.run(lines[part].data(), base, y + part, static_cast<std::ptrdiff_t>(kParts), next, end);
    }
    next = end;
    // Drop what no later output reads.
    const std::size_t keep_from = next * poly.down / poly.up;
    if (keep_from > base) {
      const std::size_t drop = std::min(keep_from - base, lines[0].size());
      for (auto& line : lines) line.erase(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(drop));
      base += drop;
    }
    return count;
  }
};

template <Sample T>
UpFirDn<T>::UpFirDn(std::span<const double> h, std::size_t up, std::size_t down) : impl_(std::make_unique<Impl>()) {
  if (h.empty()) throw InvalidArgument("UpFirDn: h must have at least one tap");
  if (up < 1 || down < 1) {
    throw InvalidArgument("UpFirDn: both up and down must be >= 1; got up = " + std::to_string(up) + ", down = " +
                          std::to_string(down));
  }
  impl_->poly = detail::Polyphase<Real>::make(h, up, down);
  impl_->h_len = h.size();
  impl_->reset();
}

template <Sample T>
UpFirDn<T>::UpFirDn(UpFirDn&&) noexcept = default;
template <Sample T>
UpFirDn<T>& UpFirDn<T>::operator=(UpFirDn&&) noexcept = default;
template <Sample T>
UpFirDn<T>::~UpFirDn() = default;

template <Sample T>
void UpFirDn<T>::reset() {
  impl_->reset();
}

template <Sample T>
std::size_t UpFirDn<T>::max_output(std::size_t n) const noexcept {
  const auto& poly = impl_->poly;
  return (n * poly.up + poly.down - 1) / poly.down + poly.up + 1;
}

template <Sample T>
std::size_t UpFirDn<T>::process(std::span<const T> x, std::vector<T>& out) {
  if (x.empty()) return 0;
  Impl& s = *impl_;
  const Real* in = reinterpret_cast<const Real*>(x.data());
  for (std::size_t part = 0; part < Impl::kParts; ++part) {
    auto& line = s.lines[part];
    const std::size_t old = line.size();
    line.resize(old + x.size());
    Real* dst = line.data() + old;
    for (std::size_t i = 0; i < x.size(); ++i) dst[i] = in[i * Impl::kParts + part];
  }
  s.seen += x.size();
  const std::size_t up = s.poly.up, down = s.poly.down;
  // Output k is complete when its window ends at or before the last real sample:
  // k * down / up + taps - 1 <= seen + taps - 2, i.e. k * down <= seen * up - 1; and it exists
  // in the one-shot output of what has been seen (short filters with up > len(h)).
  const std::size_t complete = (s.seen * up - 1) / down + 1;
  const std::size_t exists = ((s.seen - 1) * up + s.h_len - 1) / down + 1;
  return s.emit_until(std::min(complete, exists), out);
}

template <Sample T>
std::size_t UpFirDn<T>::flush(std::vector<T>& out) {
  Impl& s = *impl_;
  std::size_t count = 0;
  if (s.seen > 0) {
    const std::size_t total = ((s.seen - 1) * s.poly.up + s.h_len - 1) / s.poly.down + 1;
    for (auto& line : s.lines) line.resize(line.size() + s.poly.taps, Real(0));
    count = s.emit_until(total, out);
  }
  s.reset();
  return count;
}

template class UpFirDn<float>;
template class UpFirDn<double>;
template class UpFirDn<std::complex<float>>;
template class UpFirDn<std::complex<double>>;

}  // namespace ripple::fir
