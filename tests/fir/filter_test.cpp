// fir::Filter against a direct long-double convolution: both methods (direct, FFT
// overlap-save), short and long filters, blocks of any sizes (streaming equals one shot),
// channels in rows and interleaved, complex data, in place; and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

#include "common/rel_l2.hpp"
#include "ripple/error.hpp"
#include "ripple/fir.hpp"
#include "ripple/runtime.hpp"

namespace ripple::fir {
namespace {

using ripple::test::rel_l2;

std::vector<double> taps_of(std::size_t n) {
  std::vector<double> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = std::sin(0.37 * double(i) + 0.2) / double(i + 1);
  return h;
}

// y[i] = sum_k h[k] x[i - k], zero before the start, in long double.
template <class T>
std::vector<std::complex<long double>> reference(const std::vector<double>& h, const std::vector<T>& x) {
  std::vector<std::complex<long double>> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::complex<long double> acc = 0;
    for (std::size_t k = 0; k < h.size() && k <= i; ++k) acc += (long double)h[k] * std::complex<long double>(x[i - k]);
    y[i] = acc;
  }
  return y;
}

template <class T>
std::vector<T> signal(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> nd;
  std::vector<T> x(n);
  for (auto& v : x) {
    if constexpr (std::is_floating_point_v<T>) {
      v = T(nd(gen));
    } else {
      const double re = nd(gen);
      v = T(typename T::value_type(re), typename T::value_type(nd(gen)));
    }
  }
  return x;
}

template <class T>
void check(std::size_t taps, typename Filter<T>::Method method, const std::vector<std::size_t>& blocks) {
  using U = typename ripple::detail::real_of<T>::type;
  SCOPED_TRACE("taps " + std::to_string(taps) + " method " + std::to_string(int(method)));
  const auto h = taps_of(taps);
  std::size_t n = 0;
  for (auto b : blocks) n += b;
  const auto x = signal<T>(n, static_cast<unsigned>(taps));
  Filter<T> filter(h, 1, method);
  if (method != Filter<T>::Method::automatic) EXPECT_EQ(filter.method(), method);
  std::vector<T> y(n, T(std::numeric_limits<U>::quiet_NaN()));
  std::size_t at = 0;
  for (auto b : blocks) {
    filter.process_interleaved(std::span<const T>(x.data() + at, b), std::span<T>(y.data() + at, b));
    at += b;
  }
  EXPECT_LE(rel_l2(y, reference(h, x)), (std::is_same_v<U, float> ? 2e-6 : 1e-13));
}

TEST(FirFilter, MatchesConvolution) {
  using M = Filter<double>::Method;
  for (std::size_t taps : {1, 2, 7, 79, 801}) {
    for (M m : {M::direct, M::fft}) {
      check<double>(taps, m, {1, 2, 3, 1000, 5, 70000, 9});
      check<float>(taps, m == M::direct ? Filter<float>::Method::direct : Filter<float>::Method::fft, {20000, 1, 333});
    }
  }
  check<std::complex<double>>(129, Filter<std::complex<double>>::Method::fft, {5000, 3000});
  check<double>(64, M::automatic, std::vector<std::size_t>(500, 3));
}

TEST(FirFilter, ChoosesFftForLongFilters) {
  EXPECT_EQ(Filter<float>(taps_of(801)).method(), Filter<float>::Method::fft);
  EXPECT_EQ(Filter<float>(taps_of(8)).method(), Filter<float>::Method::direct);
  EXPECT_EQ(Filter<float>(taps_of(79)).method(), Filter<float>::Method::direct);
  EXPECT_GE(Filter<float>(taps_of(801)).fft_size(), 4 * 801u);
}

TEST(FirFilter, ChannelsAndInPlace) {
  const auto h = taps_of(301);
  const std::size_t channels = 3, n = 40000;
  auto data = signal<double>(channels * n, 4);
  const auto original = data;
  Filter<double> filter(h, channels);
  const unsigned before = default_threads();
  set_threads(2);
  filter.process_interleaved(data, data);  // in place, interleaved frames
  set_threads(before);
  for (std::size_t c = 0; c < channels; ++c) {
    std::vector<double> line(n), out(n);
    for (std::size_t t = 0; t < n; ++t) {
      line[t] = original[t * channels + c];
      out[t] = data[t * channels + c];
    }
    EXPECT_LE(rel_l2(out, reference(h, line)), 1e-13) << "channel " << c;
  }
}

TEST(FirFilter, Errors) {
  EXPECT_THROW(Filter<float>(std::vector<double>{}), InvalidArgument);
  EXPECT_THROW(Filter<float>(taps_of(3), 0), InvalidArgument);
  Filter<float> filter(taps_of(3), 2);
  std::vector<float> x(5), y(5);
  EXPECT_THROW(filter.process_interleaved(x, y), InvalidArgument);
}

}  // namespace
}  // namespace ripple::fir
