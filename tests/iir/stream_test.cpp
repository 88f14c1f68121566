// Streaming: a signal fed to iir::Filter (or to sosfilt with zi) in chunks of any sizes gives
// the one-shot result to within rounding; the state can be read, set and reset.
#include "iir/iir_test_util.hpp"

namespace ripple::iir::test {
namespace {

template <class T>
void check_chunks(const std::vector<std::size_t>& chunks, std::size_t channels) {
  using U = typename detail::real_of<T>::type;
  const Sos sos = resonant_sos(5, 0.96, 4);
  std::size_t n = 0;
  for (auto c : chunks) n += c;
  const auto x = random_signal<T>(n * channels, 21);
  const ArrayView<const T> whole(x.data(), {channels, n});
  const auto once = sosfilt(BasicSos<U>(sos), whole, -1);
  Filter<T> filter(sos, channels);
  std::vector<T> y(n * channels, T(std::numeric_limits<U>::quiet_NaN()));
  std::size_t at = 0;
  const auto step = static_cast<std::ptrdiff_t>(n);
  for (std::size_t c : chunks) {
    filter.process(ArrayView<const T>(x.data() + at, {channels, c}, {step, 1}),
                   ArrayView<T>(y.data() + at, {channels, c}, {step, 1}), -1);
    at += c;
  }
  // Two float roundings of the same filter (chunk boundaries move the scan blocks) differ by a few
  // times float error.
  EXPECT_LE(rel_l2(y, once.values), (std::is_same_v<U, float> ? 5e-6 : 1e-14));
}

TEST(IirStream, ChunksOfAnySizeEqualOneShot) {
  check_chunks<float>(std::vector<std::size_t>(700, 1), 1);          // one sample at a time
  check_chunks<double>({1, 2, 3, 5, 7, 11, 13, 999, 1, 4097}, 2);     // odd sizes
  check_chunks<float>({100000, 3, 60000}, 1);                         // huge ones (scanned)
  check_chunks<double>({17, 70000, 1, 30001}, 1);
  check_chunks<std::complex<float>>({33, 8193, 5}, 3);
  check_chunks<float>({5000, 1, 1, 5000}, 9);                         // channels in lanes
}

TEST(IirStream, SosfiltZiChainsLikeOneShot) {
  const Sos sos = resonant_sos(3, 0.99, 8);
  const auto x = random_signal<double>(50000, 5);
  const auto once = sosfilt(sos, x);
  Array<double> zi({3, 2});
  std::fill(zi.values.begin(), zi.values.end(), 0.0);
  std::vector<double> y;
  for (std::size_t at = 0; at < x.size(); at += 12345) {
    const std::size_t len = std::min<std::size_t>(12345, x.size() - at);
    auto [part, zf] = sosfilt(sos, ArrayView<const double>(x.data() + at, {len}), -1, zi.view());
    y.insert(y.end(), part.values.begin(), part.values.end());
    zi = std::move(zf);
  }
  EXPECT_LE(rel_l2(y, once), 1e-14);
}

TEST(IirStream, StateReadSetReset) {
  const Sos sos = resonant_sos(2, 0.9, 2);
  Filter<double> filter(sos, 3);
  EXPECT_EQ(filter.channels(), 3u);
  EXPECT_EQ(filter.sections(), 2u);
  const auto x = random_signal<double>(3 * 500, 1);
  const ArrayView<const double> view(x.data(), {3, 500});
  const auto first = filter(view);
  const Array<double> state = filter.state();
  EXPECT_EQ(state.shape, (std::vector<std::size_t>{2, 3, 2}));
  const auto second = filter(view);
  filter.set_state(state.view());
  const auto again = filter(view);
  EXPECT_EQ(again.values, second.values);
  filter.reset();
  EXPECT_EQ(filter(view).values, first.values);
  // Setting the state from sosfilt's zf continues exactly like sosfilt with zi.
  Array<double> zi({2, 3, 2});
  for (std::size_t i = 0; i < zi.size(); ++i) zi.values[i] = 0.1 * double(i);
  filter.set_state(zi.view());
  const auto [y, zf] = sosfilt(sos, view, -1, zi.view());
  EXPECT_LE(rel_l2(filter(view).values, y.values), 1e-15);
  EXPECT_LE(rel_l2(filter.state().values, zf.values), 1e-15);
}

}  // namespace
}  // namespace ripple::iir::test
