// Checks fftn/ifftn/rfftn/irfftn against the separable long-double reference with numpy's
// semantics: every axis or a subset (negative, unordered, more than three axes), strided and
// transposed views, the real axis last or not, irfftn's n (default, odd, cut, padded), round
// trips, empty arrays, and the rejections.
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
}

}  // namespace
}  // namespace ripple::fft::test
