// numpy-style one-shot transforms over a small process-wide cache of plans.
#include <algorithm>
#include <list>
#include <mutex>
#include <tuple>

#include "fft/plan_desc.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"

namespace ripple::fft {
namespace {

using Key = std::tuple<Kind, Precision, Direction, Norm, std::size_t>;

// Most recently used first; plans are shared, so an evicted plan in use stays alive.
class PlanCache {
 public:
  std::shared_ptr<const Plan> get(const Key& key) {
    {
      std::lock_guard lock(mutex_);
      for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->first == key) {
          entries_.splice(entries_.begin(), entries_, it);
          return it->second;
        }
    }
    PlanDesc desc;
    std::tie(desc.kind, desc.precision, desc.direction, desc.norm, std::ignore) = key;
    desc.shape = {std::get<4>(key)};
    auto plan = std::make_shared<const Plan>(desc);  // built outside the lock
    std::lock_guard lock(mutex_);
    entries_.emplace_front(key, plan);
    if (entries_.size() > kCapacity) entries_.pop_back();
    return plan;
  }

 private:
  static constexpr std::size_t kCapacity = 32;
  std::mutex mutex_;
  std::list<std::pair<Key, std::shared_ptr<const Plan>>> entries_;
};

PlanCache& cache() {
  static PlanCache instance;
  return instance;
}

// numpy's n: x cut or zero-padded to n values (0: as it is).
template <class T>
std::vector<T> cut_or_padded(std::span<const T> x, std::size_t n) {
  std::vector<T> v(n == 0 ? x.size() : n, T(0));
  std::copy_n(x.begin(), std::min(x.size(), v.size()), v.begin());
  return v;
}

template <class T>
std::vector<std::complex<T>> complex_transform(std::span<const std::complex<T>> x, Direction dir, Norm norm,
                                               const char* name) {
  if (x.empty()) throw InvalidArgument(std::string(name) + ": x is empty; the transform size must be >= 1");
  const auto plan = cache().get({Kind::c2c, detail::precision_of<T>(), dir, norm, x.size()});
  std::vector<std::complex<T>> y(x.size());
  plan->execute(x.data(), y.data());
  return y;
}

template <class T>
std::vector<std::complex<T>> real_forward(std::span<const T> x, Norm norm) {
  if (x.empty()) throw InvalidArgument("rfft: x is empty; the transform size must be >= 1");
  const auto plan = cache().get({Kind::r2c, detail::precision_of<T>(), Direction::forward, norm, x.size()});
  std::vector<std::complex<T>> y(x.size() / 2 + 1);
  plan->execute(x.data(), y.data());
  return y;
}

template <class T>
std::vector<T> real_backward(std::span<const std::complex<T>> x, std::size_t n, Norm norm) {
  if (n == 0) {
    if (x.size() < 2)
      throw InvalidArgument("irfft: x has " + std::to_string(x.size()) +
                            " values; give n or at least 2 values (n = 2*(size-1))");
    n = 2 * (x.size() - 1);
  }
  // numpy: the input is cut or zero-padded to n/2+1 values.
  const std::vector<std::complex<T>> padded = cut_or_padded(x, n / 2 + 1);
  const auto plan = cache().get({Kind::c2r, detail::precision_of<T>(), Direction::backward, norm, n});
  std::vector<T> y(n);
  plan->execute(padded.data(), y.data());
  return y;
}

}  // namespace

std::vector<std::complex<float>> fft(std::span<const std::complex<float>> x, Norm norm) {
  return complex_transform(x, Direction::forward, norm, "fft");
}
std::vector<std::complex<double>> fft(std::span<const std::complex<double>> x, Norm norm) {
  return complex_transform(x, Direction::forward, norm, "fft");
}
std::vector<std::complex<float>> ifft(std::span<const std::complex<float>> x, Norm norm) {
  return complex_transform(x, Direction::backward, norm, "ifft");
}
std::vector<std::complex<double>> ifft(std::span<const std::complex<double>> x, Norm norm) {
  return complex_transform(x, Direction::backward, norm, "ifft");
}
std::vector<std::complex<float>> rfft(std::span<const float> x, Norm norm) { return real_forward(x, norm); }
std::vector<std::complex<double>> rfft(std::span<const double> x, Norm norm) { return real_forward(x, norm); }

std::vector<std::complex<float>> fft(std::span<const std::complex<float>> x, std::size_t n, Norm norm) {
  return fft(std::span<const std::complex<float>>(cut_or_padded(x, n)), norm);
}
std::vector<std::complex<double>> fft(std::span<const std::complex<double>> x, std::size_t n, Norm norm) {
  return fft(std::span<const std::complex<double>>(cut_or_padded(x, n)), norm);
}
std::vector<std::complex<float>> ifft(std::span<const std::complex<float>> x, std::size_t n, Norm norm) {
  return ifft(std::span<const std::complex<float>>(cut_or_padded(x, n)), norm);
}
std::vector<std::complex<double>> ifft(std::span<const std::complex<double>> x, std::size_t n, Norm norm) {
  return ifft(std::span<const std::complex<double>>(cut_or_padded(x, n)), norm);
}
std::vector<std::complex<float>> rfft(std::span<const float> x, std::size_t n, Norm norm) {
  return rfft(std::span<const float>(cut_or_padded(x, n)), norm);
}
std::vector<std::complex<double>> rfft(std::span<const double> x, std::size_t n, Norm norm) {
  return rfft(std::span<const double>(cut_or_padded(x, n)), norm);
}
std::vector<float> irfft(std::span<const std::complex<float>> x, std::size_t n, Norm norm) {
  return real_backward(x, n, norm);
}
std::vector<double> irfft(std::span<const std::complex<double>> x, std::size_t n, Norm norm) {
  return real_backward(x, n, norm);
}

}  // namespace ripple::fft
