// Streaming resample_poly: upfirdn with resample_poly's filter (fir/resample_design.hpp), its
// first `delay` outputs dropped and the stream's output cut or zero-padded at flush to
// ceil(n up / down), as the one-shot function keeps.
#include <complex>
#include <numeric>
#include <string>

#include "fir/resample_design.hpp"
#include "ripple/error.hpp"
#include "ripple/fir.hpp"

namespace ripple::fir {
namespace {

struct Reduced {
  std::size_t up, down;
  detail::ResampleDesign design;
};

Reduced reduce(std::size_t up, std::size_t down, const ResampleOptions& options) {
  if (up < 1 || down < 1) {
    throw InvalidArgument("ResamplePoly: up and down must be >= 1; got up = " + std::to_string(up) + ", down = " +
                          std::to_string(down));
  }
  if (options.padtype != ResamplePad::constant) {
    throw InvalidArgument("ResamplePoly: only constant padding streams (mean, median, minimum and maximum need the "
                          "whole signal first)");
  }
  const std::size_t g = std::gcd(up, down);
  Reduced r{up / g, down / g, {}};
  if (r.up == 1 && r.down == 1) {
    r.design.h = {1.0};  // a copy, as resample_poly
  } else {
    r.design = detail::resample_design(r.up, r.down, options);
  }
  return r;
}

}  // namespace

template <Sample T>
ResamplePoly<T>::ResamplePoly(std::size_t up, std::size_t down, const ResampleOptions& options)
    : inner_(std::vector<double>{1.0}, 1, 1) {
  Reduced r = reduce(up, down, options);
  up_ = r.up;
  down_ = r.down;
  taps_ = r.design.h.size();
  delay_ = r.design.delay;
  inner_ = UpFirDn<T>(r.design.h, up_, down_);
}

template <Sample T>
void ResamplePoly<T>::reset() {
  inner_.reset();
  seen_ = produced_ = dropped_ = 0;
}

// Drops what is left of the delay from the outputs appended after out[first].
template <Sample T>
std::size_t ResamplePoly<T>::drop_delay(std::vector<T>& out, std::size_t first) {
  const std::size_t drop = std::min(delay_ - dropped_, out.size() - first);
  if (drop > 0) {
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(first), out.begin() + static_cast<std::ptrdiff_t>(first + drop));
    dropped_ += drop;
  }
  return out.size() - first;
}

template <Sample T>
std::size_t ResamplePoly<T>::process(std::span<const T> x, std::vector<T>& out) {
  const std::size_t first = out.size();
  seen_ += x.size();
  inner_.process(x, out);
  const std::size_t count = drop_delay(out, first);
  produced_ += count;
  return count;
}

template <Sample T>
std::size_t ResamplePoly<T>::flush(std::vector<T>& out) {
  const std::size_t first = out.size();
  inner_.flush(out);
  drop_delay(out, first);
  const std::size_t total = (seen_ * up_ + down_ - 1) / down_;
  out.resize(first + (total - produced_), T(0));  // cut the filter's tail, or pad with zeros
  const std::size_t count = out.size() - first;
  reset();
  return count;
}

template class ResamplePoly<float>;
template class ResamplePoly<double>;
template class ResamplePoly<std::complex<float>>;
template class ResamplePoly<std::complex<double>>;

}  // namespace ripple::fir
