// Every way data can be laid out: rows (channels along the last axis), interleaved frames
// (channels along axis 0, as WAV), 3-D on every axis, negative axes, negative and padded
// strides, complex data; outputs poisoned with NaN first so an unwritten element shows. Each
// line is compared with the serial long-double recurrence.
#include <algorithm>
#include <cmath>
#include <limits>

#include "iir/iir_test_util.hpp"

namespace ripple::iir::test {
namespace {

// Line c (C order over the dimensions other than axis) of a view, as a vector.
template <class T>
std::vector<T> line_of(ArrayView<const T> v, std::size_t axis, std::size_t c) {
  std::vector<std::size_t> index(v.ndim(), 0);
  for (std::size_t d = v.ndim(); d-- > 0;) {
    if (d == axis) continue;
    index[d] = c % v.extent(d);
    c /= v.extent(d);
  }
  std::vector<T> line(v.extent(axis));
  for (std::size_t t = 0; t < line.size(); ++t) {
    index[axis] = t;
    std::ptrdiff_t at = 0;
    for (std::size_t d = 0; d < v.ndim(); ++d) at += static_cast<std::ptrdiff_t>(index[d]) * v.stride(d);
    line[t] = v.data()[at];
  }
  return line;
}

template <class T>
void expect_lines_filtered(const Sos& sos, ArrayView<const T> x, ArrayView<const T> y, int axis_arg) {
  using U = typename detail::real_of<T>::type;
  const std::size_t axis = normalize_axis(axis_arg, x.ndim());
  std::size_t lines = x.size() / std::max<std::size_t>(1, x.extent(axis));
  for (std::size_t c = 0; c < lines; ++c) {
    const auto in = line_of(x, axis, c);
    const auto out = line_of(y, axis, c);
    if constexpr (detail::is_complex_v<T>) {
      std::vector<U> re, im;
      for (const T& v : in) {
        re.push_back(v.real());
        im.push_back(v.imag());
      }
      const auto rr = serial_sosfilt<long double, U>(sos, re), ri = serial_sosfilt<long double, U>(sos, im);
      std::vector<std::complex<long double>> ref;
      for (std::size_t t = 0; t < rr.size(); ++t) ref.emplace_back(rr[t], ri[t]);
      EXPECT_LE(rel_l2(out, ref), (std::is_same_v<U, float> ? 1e-5 : 1e-13)) << "line " << c;
    } else {
      EXPECT_LE(rel_l2(out, serial_sosfilt<long double, U>(sos, in)), (std::is_same_v<U, float> ? 1e-5 : 1e-13))
          << "line " << c;
    }
  }
}

template <class T>
void check_shape(const std::vector<std::size_t>& shape, unsigned seed) {
  using U = typename detail::real_of<T>::type;
  const Sos sos = resonant_sos(3, 0.93, seed);
  std::size_t count = 1;
  for (auto e : shape) count *= e;
  const auto values = random_signal<T>(count, seed);
  const ArrayView<const T> x(values.data(), shape);
  for (int axis = -static_cast<int>(shape.size()); axis < static_cast<int>(shape.size()); ++axis) {
    SCOPED_TRACE("shape " + shape_text(shape) + " axis " + std::to_string(axis));
    const auto y = sosfilt(BasicSos<U>(sos), x, axis);
    ASSERT_EQ(y.shape, shape);
    expect_lines_filtered<T>(sos, x, y.view(), axis);
    // The streaming filter writing into a NaN-poisoned buffer gives the same.
    std::vector<T> out(count, T(std::numeric_limits<U>::quiet_NaN()));
    const std::size_t a = normalize_axis(axis, shape.size());
    Filter<T> filter(sos, count / shape[a]);
    filter.process(x, ArrayView<T>(out.data(), shape), axis);
    EXPECT_LE(rel_l2(out, y.values), (std::is_same_v<U, float> ? 1e-6 : 1e-14));
  }
}

TEST(IirLayout, EveryAxisOfEveryShape) {
  for (const auto& shape : std::vector<std::vector<std::size_t>>{
           {3000}, {16, 2000}, {2000, 16}, {5, 3000}, {3000, 3}, {3, 4, 700}, {700, 3, 4}, {2, 900, 3}, {1, 1, 5000}}) {
    check_shape<float>(shape, 1);
    check_shape<double>(shape, 2);
  }
  check_shape<std::complex<float>>({4, 3000}, 3);
  check_shape<std::complex<double>>({3000, 3}, 4);
}

// scipy's sosfiltfilt of one line (odd extension by 3 * (2 * sections + 1) samples) with the
// serial long-double recurrence.
template <class T>
std::vector<long double> serial_sosfiltfilt(const Sos& sos, const std::vector<T>& x) {
  const std::size_t n = x.size(), edge = 3 * (2 * sos.size() + 1);
  std::vector<long double> ext;
  for (std::size_t k = edge; k >= 1; --k) ext.push_back(2.0L * x[0] - x[k]);
  ext.insert(ext.end(), x.begin(), x.end());
  for (std::size_t k = 1; k <= edge; ++k) ext.push_back(2.0L * x[n - 1] - x[n - 1 - k]);
  const auto zi = sosfilt_zi(sos).values;
  const auto scaled = [&](long double v) {
    std::vector<long double> z;
    for (double c : zi) z.push_back(c * v);
    return z;
  };
  using U = typename detail::real_of<T>::type;
  auto forward = serial_sosfilt<long double, U>(sos, ext, scaled(ext.front()));
  std::reverse(forward.begin(), forward.end());
  auto backward = serial_sosfilt<long double, U>(sos, forward, scaled(forward.front()));
  std::reverse(backward.begin(), backward.end());
  return {backward.begin() + static_cast<std::ptrdiff_t>(edge), backward.end() - static_cast<std::ptrdiff_t>(edge)};
}

// Lines long enough that sosfiltfilt's backward pass runs in several pieces (4 MiB each):
// one line (its pieces reversed by 1 and 3 threads, in uneven shares), and lines along axis 0
// (rows of 3 values copied and reversed together).
TEST(IirLayout, FiltfiltOverManyPieces) {
  const Sos sos = butter(4, 0.05);
  const std::size_t n = 1'300'000;  // 10.4 MB of doubles: 3 pieces
  const auto values = random_signal<double>(n, 11);
  const auto ref = serial_sosfiltfilt(sos, values);
  const unsigned before = default_threads();
  for (unsigned threads : {1u, 3u}) {
    set_threads(threads);
    EXPECT_LE(rel_l2(sosfiltfilt(sos, values), ref), 1e-13) << threads << " threads";
  }
  set_threads(before);
  const auto y32 = sosfiltfilt(SosF(sos), std::vector<float>(values.begin(), values.end()));
  EXPECT_LE(rel_l2(y32, serial_sosfiltfilt(sos, std::vector<float>(values.begin(), values.end()))), 1e-5);

  const std::size_t rows = 450'000, cols = 3;  // pieces of 174762 rows
  const auto frames = random_signal<double>(rows * cols, 12);
  const auto yc = sosfiltfilt(sos, ArrayView<const double>(frames.data(), {rows, cols}), 0);
  for (std::size_t c = 0; c < cols; ++c) {
    std::vector<double> in(rows), out(rows);
    for (std::size_t t = 0; t < rows; ++t) {
      in[t] = frames[t * cols + c];
      out[t] = yc.values[t * cols + c];
    }
    EXPECT_LE(rel_l2(out, serial_sosfiltfilt(sos, in)), 1e-13) << "column " << c;
  }

  // Many short lines: 256 rows of all 5000 lines make a 10 MB buffer (an array of its own, not
  // thread scratch), and the 300-sample lines take two pieces.
  const std::size_t lines = 5000, length = 300;
  const auto many = random_signal<double>(lines * length, 13);
  const auto ym = sosfiltfilt(sos, ArrayView<const double>(many.data(), {lines, length}), -1);
  for (std::size_t c = 0; c < lines; c += 499) {
    const std::vector<double> in(many.begin() + c * length, many.begin() + (c + 1) * length);
    const std::vector<double> out(ym.values.begin() + c * length, ym.values.begin() + (c + 1) * length);
    EXPECT_LE(rel_l2(out, serial_sosfiltfilt(sos, in)), 1e-13) << "line " << c;
  }
}

TEST(IirLayout, NegativeAndPaddedStrides) {
  const Sos sos = resonant_sos(2, 0.95, 5);
  const std::size_t rows = 6, n = 4000, pitch = n + 37;
  const auto values = random_signal<double>(rows * pitch, 9);
  // Rows of a padded buffer, walked backwards in time and in reverse row order.
  const ArrayView<const double> x(values.data() + (rows - 1) * pitch + n - 1, {rows, n},
                                  {-static_cast<std::ptrdiff_t>(pitch), -1});
  const auto y = sosfilt(sos, x, 1);
  expect_lines_filtered<double>(sos, x, y.view(), 1);
  // Every other sample (a stride of 2 along the axis).
  const ArrayView<const double> every_other(values.data(), {rows, n / 2}, {static_cast<std::ptrdiff_t>(pitch), 2});
  expect_lines_filtered<double>(sos, every_other, sosfilt(sos, every_other, -1).view(), -1);
}

TEST(IirLayout, InPlaceOnInterleavedFrames) {
  const Sos sos = resonant_sos(4, 0.9, 6);
  for (std::size_t channels : {1, 2, 3, 8, 9, 17}) {
    const std::size_t frames = 5000;
    auto data = random_signal<float>(frames * channels, static_cast<unsigned>(channels));
    const auto original = data;
    Filter<float> filter(sos, channels);
    filter.process_interleaved(data, data);
    const ArrayView<const float> x(original.data(), {frames, channels});
    expect_lines_filtered<float>(sos, x, ArrayView<const float>(data.data(), {frames, channels}), 0);
  }
}

// Rows of a C-ordered array are filtered straight from the input to the output in W x W tiles
// (longer cascades then in place on the output): widths around the SIMD widths, lengths that
// are not a multiple of them, 1..8 sections with and without b0 = b2 = 1 after the first (the
// Butterworth form), into a NaN-poisoned output and in place.
template <class T>
void check_rows(const Sos& sos, std::size_t rows, std::size_t n, unsigned seed) {
  SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(n) + ", " + std::to_string(sos.size()) + " sections");
  const auto values = random_signal<T>(rows * n, seed);
  const ArrayView<const T> x(values.data(), {rows, n});
  std::vector<T> out(rows * n, std::numeric_limits<T>::quiet_NaN());
  Filter<T> filter(sos, rows);
  filter.process(x, ArrayView<T>(out.data(), {rows, n}), -1);
  expect_lines_filtered<T>(sos, x, ArrayView<const T>(out.data(), {rows, n}), -1);
  auto in_place = values;
  Filter<T> again(sos, rows);
  again.process(ArrayView<const T>(in_place.data(), {rows, n}), ArrayView<T>(in_place.data(), {rows, n}), -1);
  EXPECT_EQ(in_place, out);
}

TEST(IirLayout, RowsFilteredStraightIntoTheOutput) {
  for (std::size_t sections : {1, 2, 4, 5, 8}) {
    const Sos resonant = resonant_sos(sections, 0.95, static_cast<unsigned>(sections));
    std::vector<Sos::Row> unit_rows(resonant.rows().begin(), resonant.rows().end());
    for (std::size_t s = 1; s < sections; ++s) {
      unit_rows[s][0] = 1.0;
      unit_rows[s][1] = 2.0;
      unit_rows[s][2] = 1.0;
    }
    const Sos unit_tail(unit_rows);
    // The head's numerator a gain times [1, c, 1], as zpk2sos gives (the kernels' kHeadGain).
    const double gain = 0.01, c = -2 * std::cos(0.7);
    unit_rows[0][0] = gain;
    unit_rows[0][1] = gain * c;
    unit_rows[0][2] = gain;
    const Sos head_gain(unit_rows);
    for (const Sos* sos : {&resonant, &unit_tail, &head_gain}) {
      for (std::size_t n : {1, 7, 9, 1001, 1024, 4096}) {
        check_rows<float>(*sos, 19, n, static_cast<unsigned>(n));
        check_rows<double>(*sos, 9, n, static_cast<unsigned>(n + 1));
      }
    }
  }
}

TEST(IirLayout, LongRowsRunSkewedAcrossTheCacheSets) {
  // Rows whose starts fall in few of the L1's sets modulo 4 KiB (a multiple of 4 KiB apart, or
  // 64 bytes more) run with lane i some rows ahead of lane i - 1 where they are long enough
  // (RunsAllLanes, SkewRows: with AVX-512 from 28,672 rows of 8 doubles and 61,440 of 16
  // floats); the first and last samples of each lane then go one at a time. 17 and 9 rows: a
  // full vector of lanes and one more.
  const Sos resonant = resonant_sos(5, 0.95, 5);
  std::vector<Sos::Row> unit_rows(resonant.rows().begin(), resonant.rows().end());
  for (std::size_t s = 0; s < unit_rows.size(); ++s) {
    const double g = s == 0 ? 0.01 : 1.0;
    unit_rows[s][0] = g;
    unit_rows[s][1] = 2 * g;
    unit_rows[s][2] = g;
  }
  const Sos head_gain(unit_rows);
  for (const Sos* sos : {&resonant, &head_gain}) {
    for (std::size_t n : {65536, 65552}) check_rows<float>(*sos, 17, n, static_cast<unsigned>(n));
    for (std::size_t n : {32768, 32776}) check_rows<double>(*sos, 9, n, static_cast<unsigned>(n + 1));
  }
  // Results of 8 MiB and more are streamed to memory from the skewed tiles too: the same values
  // (whole vectors of lanes only: a line left over may be scanned in time by an idle thread).
  const auto streamed_equals_cached = [&](auto zero, std::size_t rows, std::size_t n) {
    using T = decltype(zero);
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(n));
    const auto values = random_signal<T>(rows * n, 7);
    const ArrayView<const T> x(values.data(), {rows, n});
    std::vector<T> cached(rows * n, std::numeric_limits<T>::quiet_NaN());
    Filter<T> filter(head_gain, rows);
    filter.process(x, ArrayView<T>(cached.data(), {rows, n}), -1);
    const Array<T> streamed = sosfilt(BasicSos<T>(head_gain), x, -1);
    EXPECT_TRUE(std::equal(streamed.values.begin(), streamed.values.end(), cached.begin(), cached.end()));
  };
  streamed_equals_cached(0.0f, 32, 65536);
  streamed_equals_cached(0.0, 32, 32768);
}

TEST(IirLayout, EmptyAxisAndEmptyBatch) {
  const Sos sos = resonant_sos(2, 0.9, 1);
  const std::vector<double> none;
  const auto y = sosfilt(sos, ArrayView<const double>(none.data(), {3, 0}), -1);
  EXPECT_EQ(y.shape, (std::vector<std::size_t>{3, 0}));
  Array<double> zi({2, 3, 2});
  for (auto& v : zi.values) v = 1.5;
  const auto [y2, zf] = sosfilt(sos, ArrayView<const double>(none.data(), {3, 0}), -1, zi.view());
  EXPECT_EQ(zf.values, zi.values);  // nothing filtered: the state passes through
  const auto y3 = sosfilt(sos, ArrayView<const double>(none.data(), {0, 7}), -1);
  EXPECT_EQ(y3.shape, (std::vector<std::size_t>{0, 7}));
}

}  // namespace
}  // namespace ripple::iir::test
