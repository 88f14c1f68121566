// Checks fftn/ifftn/rfftn/irfftn against the separable long-double reference with numpy's
// semantics: every axis or a subset (negative, unordered, more than three axes), strided and
// transposed views, the real axis last or not, irfftn's n (default, odd, cut, padded), round
// trips, empty arrays, numpy's s (each axis cut or padded first) and the 1-D n, and the
// rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "fft/fft_test_util.hpp"

namespace ripple::fft::test {
namespace {

using Shape = std::vector<std::size_t>;

template <class T>
void check_complex(const Shape& shape, const std::vector<int>& axes, Norm norm, std::uint64_t seed) {
  const std::vector<std::complex<T>> x = random_complex<T>(product(shape), seed);
  const ArrayView<const std::complex<T>> view(x.data(), shape);
  const std::vector<std::size_t> ax = normalized_axes(axes, shape.size());
  const std::string what = std::string(type_name<T>()) + " shape=" + shape_text(shape) + " norm=" + to_string(norm);
  const Array<std::complex<T>> y = fftn(view, axes, norm);
  ASSERT_EQ(y.shape, shape) << what;
  const std::vector<std::complex<T>> yv(y.values.begin(), y.values.end());
  EXPECT_LE(rel_l2(yv, ref_fftn(to_ld(x), shape, ax, true, norm)), tolerance<T>()) << "fftn " << what;
  const Array<std::complex<T>> z = ifftn(view, axes, norm);
  const std::vector<std::complex<T>> zv(z.values.begin(), z.values.end());
  EXPECT_LE(rel_l2(zv, ref_fftn(to_ld(x), shape, ax, false, norm)), tolerance<T>()) << "ifftn " << what;
}

TEST(OneShotNd, FftnEveryAxisAndSubsets) {
  check_complex<float>({3, 5, 7}, {}, Norm::backward, 1);
  check_complex<double>({3, 5, 7}, {}, Norm::ortho, 2);
  check_complex<float>({17, 31}, {}, Norm::forward, 3);
  check_complex<double>({4, 6, 5}, {0, 2}, Norm::backward, 4);
  check_complex<float>({4, 6, 5}, {1}, Norm::ortho, 5);
  check_complex<double>({4, 6, 5}, {-1, 0}, Norm::forward, 6);
  check_complex<double>({2, 3, 4, 5}, {}, Norm::backward, 7);  // four axes: a plan of 3 and one of 1
  check_complex<float>({2, 3, 4, 5}, {1, 2}, Norm::backward, 8);
  check_complex<double>({0, 4}, {1}, Norm::backward, 9);  // empty: nothing to do, shape kept
}

// A transposed view and a view with a step: the result is the transform of what they show.
TEST(OneShotNd, StridedViews) {
  const std::vector<std::complex<double>> x = random_complex<double>(6 * 10, 11);
  const ArrayView<const std::complex<double>> transposed(x.data(), {10, 6}, {1, 10});
  std::vector<cld> shown;
  for (std::size_t i = 0; i < 10; ++i)
    for (std::size_t j = 0; j < 6; ++j) shown.push_back(as_ld(x[j * 10 + i]));
  const auto y = fftn(transposed);
  EXPECT_LE(rel_l2(std::vector<std::complex<double>>(y.values.begin(), y.values.end()),
                   ref_fftn(shown, {10, 6}, {0, 1}, true, Norm::backward)),
            tolerance<double>());
  const ArrayView<const std::complex<double>> stepped(x.data() + 1, {3, 5}, {20, 2});  // rows 0,2,4; odd columns
  std::vector<cld> shown2;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 5; ++j) shown2.push_back(as_ld(x[1 + 20 * i + 2 * j]));
  const auto z = ifftn(stepped, {}, Norm::ortho);
  EXPECT_LE(rel_l2(std::vector<std::complex<double>>(z.values.begin(), z.values.end()),
                   ref_fftn(shown2, {3, 5}, {0, 1}, false, Norm::ortho)),
            tolerance<double>());
}

template <class T>
void check_real(const Shape& shape, const std::vector<int>& axes, std::size_t n, Norm norm, std::uint64_t seed) {
  const std::vector<std::size_t> ax = normalized_axes(axes, shape.size());
  const std::size_t real_axis = ax.back();
  const std::string what = std::string(type_name<T>()) + " shape=" + shape_text(shape) + " n=" + std::to_string(n);
  // rfftn: the full forward transform, the real axis cut to m/2+1.
  const std::vector<T> x = random_real<T>(product(shape), seed);
  const Array<std::complex<T>> y = rfftn(ArrayView<const T>(x.data(), shape), axes, norm);
  Shape half = shape;
  half[real_axis] = shape[real_axis] / 2 + 1;
  ASSERT_EQ(y.shape, half) << what;
  const std::vector<cld> ref = ref_rfftn(to_ld(x), shape, ax, norm);
  EXPECT_LE(rel_l2(std::vector<std::complex<T>>(y.values.begin(), y.values.end()), ref), tolerance<T>())
      << "rfftn " << what;
  // irfftn of a random half spectrum: ifft along the other axes, then irfft of length n (the
  // input cut or zero-padded to n/2+1) along the real axis.
  const std::vector<std::complex<T>> h = random_complex<T>(product(half), seed + 1);
  const Array<T> r = irfftn(ArrayView<const std::complex<T>>(h.data(), half), axes, n, norm);
  const std::size_t out_n = n != 0 ? n : 2 * (half[real_axis] - 1);
  Shape out_shape = half;
  out_shape[real_axis] = out_n;
  ASSERT_EQ(r.shape, out_shape) << what;
  const std::vector<long double> back = ref_irfftn(to_ld(h), half, ax, out_n, norm);
  L2Error e;
  for (std::size_t i = 0; i < back.size(); ++i) e.add(static_cast<long double>(r.values[i]), back[i]);
  EXPECT_LE(e.rel(), tolerance<T>()) << "irfftn " << what << ": " << e.describe();
}

TEST(OneShotNd, RfftnIrfftn) {
  check_real<double>({6, 8}, {}, 0, Norm::backward, 20);
  check_real<float>({5, 7, 3}, {}, 0, Norm::ortho, 21);
  check_real<double>({6, 7}, {1, 0}, 0, Norm::forward, 22);   // real axis 0, not last
  check_real<float>({4, 5, 6}, {0, 2}, 9, Norm::backward, 23);  // odd n: input cut
  check_real<double>({4, 5, 6}, {2, 1}, 14, Norm::ortho, 24);  // real axis 1; n pads its input
  check_real<double>({2, 3, 4, 6}, {}, 0, Norm::backward, 25);
}

TEST(OneShotNd, RoundTrip) {
  const Shape shape{6, 5, 7};
  const std::vector<double> x = random_real<double>(product(shape), 30);
  const auto y = rfftn(ArrayView<const double>(x.data(), shape));
  const auto back = irfftn(y.view(), {}, 7);
  ASSERT_EQ(back.shape, shape);
  EXPECT_LE(rel_l2(std::vector<double>(back.values.begin(), back.values.end()),
                   std::vector<long double>(x.begin(), x.end())),
            tolerance<double>());
}

// The C-ordered array x of `shape` cut or zero-padded to `target` (the test's own copy, to hold
// numpy's s to).
template <class V>
std::vector<V> cut_or_padded(const std::vector<V>& x, const Shape& shape, const Shape& target) {
  std::vector<V> out(product(target), V{});
  std::vector<std::size_t> index(shape.size(), 0);
  for (std::size_t flat = 0; flat < out.size(); ++flat) {
    std::size_t rest = flat, from = 0;
    bool inside = true;
    for (std::size_t a = shape.size(); a-- > 0;) {
      index[a] = rest % target[a];
      rest /= target[a];
    }
    for (std::size_t a = 0; a < shape.size(); ++a) {
      inside = inside && index[a] < shape[a];
      from = from * shape[a] + index[a];
    }
    if (inside) out[flat] = x[from];
  }
  return out;
}

// numpy's s: each transformed axis cut or zero-padded first, the others as they are; with
// empty axes, the last s.size() axes.
TEST(OneShotNd, SCutsOrPadsTheAxes) {
  const Shape shape{4, 6, 5};
  const std::vector<std::complex<double>> x = random_complex<double>(product(shape), 40);
  const ArrayView<const std::complex<double>> view(x.data(), shape);
  const auto check = [&](const std::vector<int>& axes, const Shape& s, const Shape& target,
                         const std::vector<std::size_t>& ax) {
    const Array<std::complex<double>> y = fftn(view, axes, Norm::ortho, s);
    ASSERT_EQ(y.shape, target);
    EXPECT_LE(rel_l2(std::vector<std::complex<double>>(y.values.begin(), y.values.end()),
                     ref_fftn(to_ld(cut_or_padded(x, shape, target)), target, ax, true, Norm::ortho)),
              tolerance<double>())
        << "s = " << shape_text(s);
  };
  check({0, 2}, {7, 3}, {7, 6, 3}, {0, 2});  // padded along 0, cut along 2
  check({2, 0}, {3, 7}, {7, 6, 3}, {0, 2});  // s follows axes' order
  check({}, {8, 2}, {4, 8, 2}, {1, 2});      // the last two axes
  check({1}, {6}, shape, {1});               // its own length: as without s
  const Array<std::complex<double>> z = ifftn(view, {-1}, Norm::backward, {9});
  ASSERT_EQ(z.shape, (Shape{4, 6, 9}));
  EXPECT_LE(rel_l2(std::vector<std::complex<double>>(z.values.begin(), z.values.end()),
                   ref_fftn(to_ld(cut_or_padded(x, shape, {4, 6, 9})), {4, 6, 9}, {2}, false, Norm::backward)),
            tolerance<double>());

  // rfftn: the reals cut or padded, the last axis then halved; irfftn: the other axes by s, the
  // real axis's output n by s's last entry (its input cut or padded to n/2+1).
  const std::vector<float> r = random_real<float>(product(shape), 41);
  const Array<std::complex<float>> h = rfftn(ArrayView<const float>(r.data(), shape), {0, 1}, Norm::backward, {3, 9});
  ASSERT_EQ(h.shape, (Shape{3, 5, 5}));
  EXPECT_LE(rel_l2(std::vector<std::complex<float>>(h.values.begin(), h.values.end()),
                   ref_rfftn(to_ld(cut_or_padded(r, shape, {3, 9, 5})), {3, 9, 5}, {0, 1}, Norm::backward)),
            tolerance<float>());
  const std::vector<std::complex<float>> spectrum = random_complex<float>(product(shape), 42);
  const Array<float> back =
      irfftn(ArrayView<const std::complex<float>>(spectrum.data(), shape), {1, 2}, 0, Norm::ortho, {3, 11});
  ASSERT_EQ(back.shape, (Shape{4, 3, 11}));
  const std::vector<long double> want =
      ref_irfftn(to_ld(cut_or_padded(spectrum, shape, {4, 3, 6})), {4, 3, 6}, {1, 2}, 11, Norm::ortho);
  L2Error e;
  for (std::size_t i = 0; i < want.size(); ++i) e.add(static_cast<long double>(back.values[i]), want[i]);
  EXPECT_LE(e.rel(), tolerance<float>()) << e.describe();
  const Array<float> agreeing =  // n and s's last entry agreeing
      irfftn(ArrayView<const std::complex<float>>(spectrum.data(), shape), {1, 2}, 11, Norm::ortho, {3, 11});
  EXPECT_TRUE(std::equal(agreeing.values.begin(), agreeing.values.end(), back.values.begin(), back.values.end()));

  // irfftn's real axis first and cut by s (5 -> 4 reals, its input 4 -> 3), axis 2 padded.
  const Array<double> cut =
      irfftn(ArrayView<const std::complex<double>>(x.data(), shape), {2, 0}, 0, Norm::backward, {7, 4});
  ASSERT_EQ(cut.shape, (Shape{4, 6, 7}));
  const std::vector<long double> want_cut =
      ref_irfftn(to_ld(cut_or_padded(x, shape, {3, 6, 7})), {3, 6, 7}, {2, 0}, 4, Norm::backward);
  EXPECT_LE(rel_l2(std::vector<double>(cut.values.begin(), cut.values.end()), want_cut), tolerance<double>());
  // rfftn with s and no axes: the last s.size() axes.
  const Array<std::complex<float>> last =
      rfftn(ArrayView<const float>(r.data(), shape), {}, Norm::backward, {3, 8});
  ASSERT_EQ(last.shape, (Shape{4, 3, 5}));
  EXPECT_LE(rel_l2(std::vector<std::complex<float>>(last.values.begin(), last.values.end()),
                   ref_rfftn(to_ld(cut_or_padded(r, shape, {4, 3, 8})), {4, 3, 8}, {1, 2}, Norm::backward)),
            tolerance<float>());
  // An empty array padded by s: zeros, as numpy.
  const Array<std::complex<double>> from_empty =
      fftn(ArrayView<const std::complex<double>>(x.data(), {0, 4}), {0}, Norm::backward, {3});
  ASSERT_EQ(from_empty.shape, (Shape{3, 4}));
  for (const auto& v : from_empty.values) EXPECT_EQ(v, std::complex<double>(0, 0));
}

// numpy's n of the 1-D one-shots: the input cut or zero-padded to n first.
TEST(OneShot, NCutsOrPadsTheInput) {
  const std::vector<std::complex<double>> x = random_complex<double>(10, 43);
  const std::vector<double> r = random_real<double>(10, 44);
  for (std::size_t n : {4, 10, 16}) {
    std::vector<std::complex<double>> xn(n);
    std::vector<double> rn(n);
    for (std::size_t i = 0; i < std::min<std::size_t>(n, 10); ++i) {
      xn[i] = x[i];
      rn[i] = r[i];
    }
    EXPECT_LE(rel_l2(fft(std::span<const std::complex<double>>(x), n), ref_c2c(to_ld(xn), true, Norm::backward)),
              tolerance<double>())
        << "fft n=" << n;
    EXPECT_LE(rel_l2(ifft(std::span<const std::complex<double>>(x), n, Norm::ortho),
                     ref_c2c(to_ld(xn), false, Norm::ortho)),
              tolerance<double>())
        << "ifft n=" << n;
    EXPECT_LE(rel_l2(rfft(std::span<const double>(r), n), ref_r2c(to_ld(rn), Norm::backward)), tolerance<double>())
        << "rfft n=" << n;
  }
  EXPECT_EQ(fft(std::span<const std::complex<double>>(x), 0), fft(std::span<const std::complex<double>>(x)));
  // The float overloads, n = 0 and an empty x padded.
  const std::vector<std::complex<float>> xf(x.begin(), x.end());
  const std::vector<float> rf(r.begin(), r.end());
  EXPECT_EQ(ifft(std::span<const std::complex<float>>(xf), 0), ifft(std::span<const std::complex<float>>(xf)));
  EXPECT_EQ(rfft(std::span<const float>(rf), 0), rfft(std::span<const float>(rf)));
  EXPECT_LE(rel_l2(fft(std::span<const std::complex<float>>(xf), 12),
                   ref_c2c(to_ld(cut_or_padded(x, {10}, {12})), true, Norm::backward)),
            tolerance<float>());
  EXPECT_EQ(rfft(std::span<const float>(), 4), std::vector<std::complex<float>>(3));
  expect_throw_naming<InvalidArgument>([&] { (void)fft(std::span<const std::complex<float>>(), 0); }, {"empty"},
                                       "fft of nothing with n = 0");
}

TEST(OneShotNd, Rejections) {
  const std::vector<std::complex<float>> x(12);
  const ArrayView<const std::complex<float>> v(x.data(), {3, 4});
  expect_throw_naming<InvalidArgument>([&] { (void)fftn(ArrayView<const std::complex<float>>(x.data(), {})); },
                                       {"0-d"}, "fftn of a 0-d array");
  expect_throw_naming<InvalidArgument>([&] { (void)fftn(v, {0, 0}); }, {"axes"}, "fftn with a repeated axis");
  expect_throw_naming<InvalidArgument>([&] { (void)ifftn(v, {2}); }, {"axes", "2"}, "ifftn with axis 2 of a 2-d array");
  expect_throw_naming<InvalidArgument>([&] { (void)fftn(ArrayView<const std::complex<float>>(x.data(), {0, 4}), {0}); },
                                       {"axis 0", "length 0"}, "fftn over an empty axis");
  expect_throw_naming<InvalidArgument>(
      [&] { (void)irfftn(ArrayView<const std::complex<float>>(x.data(), {12, 1})); }, {"n"},
      "irfftn of a last axis of length 1 without n");
  expect_throw_naming<InvalidArgument>([&] { (void)fftn(v, {0, 1}, Norm::backward, {4}); },
                                       {"fftn", "s has 1 sizes", "2 axes"}, "fftn with s shorter than axes");
  expect_throw_naming<InvalidArgument>([&] { (void)fftn(v, {}, Norm::backward, {4, 4, 4}); },
                                       {"s has 3 sizes", "x has 2 axes"}, "fftn with more sizes than axes");
  expect_throw_naming<InvalidArgument>([&] { (void)ifftn(v, {1}, Norm::backward, {0}); }, {"ifftn", "0 points", "axis 1"},
                                       "ifftn with an s entry of 0");
  expect_throw_naming<InvalidArgument>([&] { (void)irfftn(v, {}, 6, Norm::backward, {3, 8}); },
                                       {"n = 6", "s's last entry 8"}, "irfftn with n and s disagreeing");
  const std::size_t huge = static_cast<std::size_t>(-1);  // numpy's -1 cast
  expect_throw_naming<InvalidArgument>([&] { (void)fftn(v, {0}, Norm::backward, {huge}); },
                                       {"fftn", "more values than memory"}, "fftn with a huge s");
  expect_throw_naming<InvalidArgument>([&] { (void)fftn(v, {0, 1}, Norm::backward, {std::size_t{1} << 40, 1 << 30}); },
                                       {"more values than memory"}, "fftn whose s overflows the count");
  expect_throw_naming<InvalidArgument>([&] { (void)irfftn(v, {}, huge); }, {"irfftn", "more values than memory"},
                                       "irfftn with a huge n");
}

}  // namespace
}  // namespace ripple::fft::test
