// Streaming upfirdn: output k needs the zero-padded input (taps - 1 zeros, then the samples)
// at padded indices [k * down / up, + taps); it is emitted once its last real sample has
// arrived, and samples no later output needs are dropped from the window.
#include <algorithm>
#include <complex>
#include <string>

#include "cpu/fir_kernels.hpp"
#include "ripple/error.hpp"
#include "ripple/fir.hpp"

namespace ripple::fir {
namespace {

template <class T, class U>
T dot(const U* taps, const T* x, std::size_t n) {
  if constexpr (ripple::detail::is_complex_v<T>) {
    T sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += taps[i] * x[i];
    return sum;
  } else {
    return cpu::fir_kernels<U>().dot(taps, x, n);
  }
}

}  // namespace

template <Sample T>
UpFirDn<T>::UpFirDn(std::span<const double> h, std::size_t up, std::size_t down)
    : up_(up), down_(down), taps_(0), h_len_(h.size()) {
  if (h.empty()) throw InvalidArgument("UpFirDn: h must have at least one tap");
  if (up < 1 || down < 1) {
    throw InvalidArgument("UpFirDn: both up and down must be >= 1; got up = " + std::to_string(up) + ", down = " +
                          std::to_string(down));
  }
  taps_ = (h.size() + up - 1) / up;
  reversed_.assign(up * taps_, Real(0));
  for (std::size_t p = 0; p < up; ++p) {
    for (std::size_t t = 0; p + t * up < h.size(); ++t) reversed_[p * taps_ + (taps_ - 1 - t)] = Real(h[p + t * up]);
  }
  reset();
}

template <Sample T>
void UpFirDn<T>::reset() {
  window_.assign(taps_ - 1, T(0));
  base_ = 0;
  seen_ = 0;
  next_ = 0;
}

template <Sample T>
std::size_t UpFirDn<T>::emit_until(std::size_t end, std::vector<T>& out) {
  const std::size_t first = out.size();
  for (; next_ < end; ++next_) {
    const std::size_t n = next_ * down_;
    const std::size_t at = n / up_ - base_;
    out.push_back(dot<T, Real>(reversed_.data() + (n % up_) * taps_, window_.data() + at, taps_));
  }
  // Drop what no later output reads.
  const std::size_t keep_from = next_ * down_ / up_;
  if (keep_from > base_) {
    const std::size_t drop = std::min(keep_from - base_, window_.size());
    window_.erase(window_.begin(), window_.begin() + static_cast<std::ptrdiff_t>(drop));
    base_ += drop;
  }
  return out.size() - first;
}

template <Sample T>
std::size_t UpFirDn<T>::process(std::span<const T> x, std::vector<T>& out) {
  if (x.empty()) return 0;
  window_.insert(window_.end(), x.begin(), x.end());
  seen_ += x.size();
  // Output k is complete when its window ends at or before the last real sample:
  // k * down / up + taps - 1 <= seen + taps - 2, i.e. k * down <= seen * up - 1; and it exists
  // in the one-shot output of what has been seen (short filters with up > len(h)).
  const std::size_t complete = (seen_ * up_ - 1) / down_ + 1;
  const std::size_t exists = ((seen_ - 1) * up_ + h_len_ - 1) / down_ + 1;
  return emit_until(std::min(complete, exists), out);
}

template <Sample T>
std::size_t UpFirDn<T>::flush(std::vector<T>& out) {
  std::size_t count = 0;
  if (seen_ > 0) {
    const std::size_t total = ((seen_ - 1) * up_ + h_len_ - 1) / down_ + 1;
    window_.resize(window_.size() + taps_, T(0));
    count = emit_until(total, out);
  }
  reset();
  return count;
}

template class UpFirDn<float>;
template class UpFirDn<double>;
template class UpFirDn<std::complex<float>>;
template class UpFirDn<std::complex<double>>;

}  // namespace ripple::fir
