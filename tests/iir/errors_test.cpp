// Every invalid input gets an InvalidArgument that says what is wrong, as scipy rejects it.
#include "iir/iir_test_util.hpp"

namespace ripple::iir::test {
namespace {

const Sos kSos = resonant_sos(2, 0.9, 1);
const std::vector<double> kX(100, 1.0);
ArrayView<const double> x1() { return ArrayView<const double>(kX.data(), {100}); }

TEST(IirErrors, SosShapeAndA0) {
  expect_invalid([] { (void)Sos::from_flat(std::vector<double>(7, 1.0)); }, {"(n_sections, 6)", "7"});
  expect_invalid([] { (void)Sos::from_flat(std::vector<double>{}); }, {"(n_sections, 6)"});
  const Sos bad_a0({{1, 0, 0, 1, 0.1, 0.2}, {1, 0, 0, 2.0, 0.1, 0.2}});
  expect_invalid([&] { (void)sosfilt(bad_a0, x1()); }, {"sos[:, 3]", "section 1", "2.0"});
  expect_invalid([&] { (void)sosfiltfilt(bad_a0, x1()); }, {"sos[:, 3]"});
  expect_invalid([&] { Filter<float> f(bad_a0); }, {"sos[:, 3]"});
  expect_invalid([] { (void)sosfilt(Sos(), x1()); }, {"n_sections"});
  expect_invalid([] { (void)sosfilt_zi(Sos()); }, {"n_sections"});
}

TEST(IirErrors, AxisAndDimensions) {
  expect_invalid([] { (void)sosfilt(kSos, x1(), 1); }, {"axis 1", "dimension 1"});
  expect_invalid([] { (void)sosfilt(kSos, x1(), -2); }, {"axis -2"});
  const double scalar = 1.0;
  expect_invalid([&] { (void)sosfilt(kSos, ArrayView<const double>(&scalar, {})); }, {"at least 1-D"});
  EXPECT_NO_THROW((void)lfilter(std::vector<double>{1.0}, std::vector<double>{1.0}, std::vector<double>{}));
}

TEST(IirErrors, ZiShape) {
  Array<double> zi({2, 3});
  expect_invalid([&] { (void)sosfilt(kSos, x1(), -1, zi.view()); }, {"Invalid zi shape", "(2, 2)", "(2, 3)"});
  const std::vector<double> b{1, 2, 3}, a{1, 0.5};
  Array<double> lzi({3});
  expect_invalid([&] { (void)lfilter(std::span<const double>(b), std::span<const double>(a), x1(), -1, lzi.view()); },
                 {"zi", "(2,)", "(3,)"});
  Filter<double> filter(kSos, 2);
  expect_invalid([&] { filter.set_state(zi.view()); }, {"(2, 2, 2)"});
}

TEST(IirErrors, PadlenTooLong) {
  expect_invalid([] { (void)sosfiltfilt(kSos, x1(), -1, PadType::odd, 100); }, {"padlen", "100"});
  const std::vector<double> short_x(15, 1.0);
  // default padlen 3 * (2 * 2 + 1) = 15: x must be longer
  expect_invalid([&] { (void)sosfiltfilt(kSos, short_x); }, {"padlen", "15"});
  EXPECT_NO_THROW((void)sosfiltfilt(kSos, short_x, PadType::none));
}

TEST(IirErrors, LfilterCoefficients) {
  const std::vector<double> empty, one{1.0}, zero_a{0.0, 1.0};
  expect_invalid([&] { (void)lfilter(empty, one, kX); }, {"b", "empty"});
  expect_invalid([&] { (void)lfilter(one, empty, kX); }, {"a", "empty"});
  expect_invalid([&] { (void)lfilter(one, zero_a, kX); }, {"a[0]"});
  expect_invalid([&] { (void)lfilter_zi(one, std::vector<double>{0.0, 0.0}); }, {"nonzero `a`"});
}

TEST(IirErrors, StreamingShapes) {
  Filter<float> filter(kSos, 3);
  std::vector<float> x(10), y(10);
  expect_invalid([&] { filter.process_interleaved(x, y); }, {"multiple", "3 channels"});
  std::vector<float> x2(12), y2(9);
  expect_invalid([&] { filter.process_interleaved(x2, y2); }, {"y has 9"});
  expect_invalid([&] { filter.process(ArrayView<const float>(x2.data(), {4, 3}), ArrayView<float>(x2.data(), {4, 3}), -1); },
                 {"4 lines", "3 channels"});
  expect_invalid([] { Filter<double> f(kSos, 0); }, {"channels"});
}

}  // namespace
}  // namespace ripple::iir::test
