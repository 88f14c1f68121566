// The public GPU filtering API (include/ripple/iir/device.hpp) on every GPU device present and on
// the CPU: sosfilt on Buffers against the CPU sosfilt (with and without zi, in place), the
// streaming DeviceFilter fed in chunks of many sizes against one shot (both kernels), its state
// get/set/reset, and the rejections naming the bad value.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "common/expect_invalid.hpp"
#include "gpu_test_util.hpp"
#include "iir/iir_test_util.hpp"
#include "ripple/iir.hpp"

namespace ripple::iir {
namespace {

using ripple::test::expect_invalid;
using test::random_signal;
using test::rel_l2;

class DeviceSosfilt : public gpu::test::QueueTest {};
RIPPLE_INSTANTIATE_FOR_EACH_DEVICE(DeviceSosfilt);

template <class T>
Buffer<T> poisoned(const Queue& q, std::size_t n) {
  const std::vector<T> nan(n, std::numeric_limits<T>::quiet_NaN());
  return Buffer<T>(q, std::span<const T>(nan));
}

template <class T>
double bound() {
  return sizeof(T) == 4 ? 1e-5 : 1e-13;
}

template <class T>
void check_sosfilt(const Queue& q) {
  SCOPED_TRACE(sizeof(T) == 4 ? "f32" : "f64");
  const Sos sos = butter(6, 0.05);
  const std::size_t channels = 4, n = 5003;
  const auto x = random_signal<T>(channels * n, 21);
  const ArrayView<const T> rows(x.data(), {channels, n});
  // The CPU sosfilt in the same precision is the reference.
  const auto want = sosfilt(BasicSos<T>(sos), rows);
  Buffer<T> dx(q, std::span<const T>(x));
  Buffer<T> dy = poisoned<T>(q, x.size());
  sosfilt(sos, dx, dy, channels);
  EXPECT_LE(rel_l2(dy.to_vector(), want.values), bound<T>());

  // With a state: zi in scipy's layout, overwritten by zf; in place.
  Array<T> zi({sos.size(), channels, 2});
  for (std::size_t i = 0; i < zi.size(); ++i) zi.values[i] = T(std::sin(0.3 * double(i)));
  const auto [want_y, want_zf] = sosfilt(BasicSos<T>(sos), rows, -1, ArrayView<const T>(zi.view()));
  Buffer<T> state(q, std::span<const T>(zi.values.data(), zi.size()));
  sosfilt(sos, dx, dx, channels, state);
  EXPECT_LE(rel_l2(dx.to_vector(), want_y.values), bound<T>());
  EXPECT_LE(rel_l2(state.to_vector(), want_zf.values), 10 * bound<T>());

  // Host data: uploaded, filtered and downloaded for the caller.
  const std::vector<T> host = sosfilt(q, sos, std::span<const T>(x), channels);
  EXPECT_LE(rel_l2(host, want.values), bound<T>());
}

TEST_P(DeviceSosfilt, SosfiltOnBuffersMatchesTheCpu) {
  check_sosfilt<float>(queue());
  check_sosfilt<double>(queue());
}

// Chunks of many sizes (1, odd, tile-sized, empty) continue the state exactly as one shot does.
template <class T>
void check_streaming(const Queue& q, DevicePath path) {
  SCOPED_TRACE(std::string(sizeof(T) == 4 ? "f32" : "f64") + (path == DevicePath::tiles ? " tiles" : " channels"));
  const Sos sos = butter(8, 1e-3);  // poles near z = 1: long-lived states
  const std::size_t channels = 3;
  const std::size_t chunks[] = {1, 31, 0, 2048, 33, 5000, 2, 777};
  std::size_t total = 0;
  for (std::size_t c : chunks) total += c;
  const auto x = random_signal<T>(channels * total, 5);  // rows of `total` samples
  // The serial long-double recurrence per channel is the reference; the serial recurrence in T
  // sets the bound (the channel kernel is that recurrence; the tile kernel is more accurate).
  std::vector<long double> want(x.size()), want_zf(sos.size() * channels * 2);
  std::vector<T> serial(x.size());
  for (std::size_t c = 0; c < channels; ++c) {
    const std::vector<T> row(x.begin() + std::ptrdiff_t(c * total), x.begin() + std::ptrdiff_t((c + 1) * total));
    std::vector<long double> zf;
    const auto y = test::serial_sosfilt<long double, T>(sos, row, {}, &zf);
    const auto ys = test::serial_sosfilt<T, T>(sos, row);
    std::copy(y.begin(), y.end(), want.begin() + std::ptrdiff_t(c * total));
    std::copy(ys.begin(), ys.end(), serial.begin() + std::ptrdiff_t(c * total));
    for (std::size_t s = 0; s < sos.size(); ++s)
      for (int i = 0; i < 2; ++i) want_zf[(s * channels + c) * 2 + i] = zf[2 * s + i];
  }
  const double tol = std::max(sizeof(T) == 4 ? 1e-6 : 1e-14, 1.5 * rel_l2(serial, want));
  DeviceFilter<T> filter(q, sos, channels);
  filter.set_path(path);
  EXPECT_EQ(filter.sections(), sos.size());
  EXPECT_EQ(filter.channels(), channels);
  if (q.device().kind() != DeviceKind::cpu) EXPECT_EQ(filter.path_for(1000), path);
  std::vector<T> got(x.size());
  std::size_t at = 0;
  for (std::size_t len : chunks) {
    std::vector<T> block(channels * len);
    for (std::size_t c = 0; c < channels; ++c)
      std::copy_n(x.begin() + std::ptrdiff_t(c * total + at), len, block.begin() + std::ptrdiff_t(c * len));
    Buffer<T> in(q, std::span<const T>(block));
    Buffer<T> out = poisoned<T>(q, block.size());
    filter.process(in, out);
    const auto y = out.to_vector();
    for (std::size_t c = 0; c < channels; ++c)
      std::copy_n(y.begin() + std::ptrdiff_t(c * len), len, got.begin() + std::ptrdiff_t(c * total + at));
    at += len;
  }
  EXPECT_LE(rel_l2(got, want), tol);
  EXPECT_LE(rel_l2(filter.state().values, want_zf), 10 * tol);

  // set_state/state round-trip and reset.
  Array<T> zi({sos.size(), channels, 2});
  for (std::size_t i = 0; i < zi.size(); ++i) zi.values[i] = T(0.25 * double(i) - 1);
  filter.set_state(ArrayView<const T>(zi.view()));
  EXPECT_EQ(filter.state().values, zi.values);
  filter.reset();
  for (T v : filter.state().values) EXPECT_EQ(v, T(0));
}

TEST_P(DeviceSosfilt, StreamingInChunksEqualsOneShot) {
  for (DevicePath path : {DevicePath::tiles, DevicePath::channels}) {
    check_streaming<float>(queue(), path);
    check_streaming<double>(queue(), path);
  }
}

TEST_P(DeviceSosfilt, RejectsBadInputNamingIt) {
  const Sos sos = butter(2, 0.1);
  Buffer<float> x(queue(), 30), y(queue(), 30), short_y(queue(), 29), state(queue(), 5);
  expect_invalid([&] { sosfilt(sos, x, y, 0); }, "channels must be at least 1, got 0");
  expect_invalid([&] { sosfilt(sos, x, y, 4); }, {"30 samples", "4 channels"});
  expect_invalid([&] { sosfilt(sos, x, short_y, 1); }, {"29", "30"});
  expect_invalid([&] { sosfilt(sos, x, y, 3, state); }, {"state", "got 5"});
  expect_invalid([&] { sosfilt(Sos({{1, 0, 0, 2, 0, 0}}), x, y, 1); }, "a0");
  const std::vector<float> seven(7);
  expect_invalid([&] { sosfilt(queue(), sos, std::span<const float>(seven), 2); }, {"7 samples", "2 channels"});
  expect_invalid([&] { DeviceFilter<float>(queue(), sos, 0); }, "channels must be at least 1");
  DeviceFilter<float> filter(queue(), sos, 3);
  expect_invalid([&] { filter.process(x, short_y); }, {"29", "30"});
  expect_invalid([&] { filter.set_state(ArrayView<const float>(Array<float>({1, 2, 2}).view())); }, "(1, 3, 2)");
  if (queue().device().kind() != DeviceKind::cpu) {
    Queue cpu(Device::cpu());
    Buffer<float> on_cpu(cpu, 30);
    expect_invalid([&] { sosfilt(sos, on_cpu, y, 1); }, {"x is on cpu", queue().device().to_string()});
    expect_invalid([&] { filter.process(x, on_cpu); }, "y is on cpu");
  }
}

}  // namespace
}  // namespace ripple::iir
