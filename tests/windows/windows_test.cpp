// Windows against scipy.signal.get_window (symmetric and periodic, every kind, lengths 1 to
// 1024), scipy's spellings and aliases, and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "common/golden.hpp"
#include "common/expect_invalid.hpp"
#include "ripple/error.hpp"
#include "ripple/windows.hpp"

namespace ripple::windows {
namespace {

using ripple::test::expect_invalid;

TEST(Windows, MatchScipy) {
  int checked = 0;
  for (const auto& line : test::golden_lines("cases.txt")) {
    SCOPED_TRACE(line.text);
    const std::string& name = line.words.at(0);
    const std::string& spec = line.words.at(1);
    const std::size_t n = std::stoul(line.words.at(2));
    const int fftbins = std::stoi(line.words.at(3));
    const auto w = get_window(Window::parse(spec), n, fftbins == 1);
    const auto expected = test::golden_values(name);
    ASSERT_EQ(w.size(), expected.size());
    for (std::size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(w[i], expected[i], 1e-13 * std::max(1.0, std::abs(expected[i]))) << i;
    ++checked;
  }
  EXPECT_GT(checked, 400);
}

TEST(Windows, ParseNamesAndAliases) {
  EXPECT_EQ(Window::parse("Hann").kind, Kind::hann);
  EXPECT_EQ(Window::parse("rect").kind, Kind::boxcar);
  EXPECT_EQ(Window::parse(" kaiser , 8.6 ").parameter, 8.6);
  EXPECT_EQ(Window::parse("tukey").parameter, 0.5);
  EXPECT_EQ(Window::parse("general hamming,0.6").kind, Kind::general_hamming);
  EXPECT_EQ(Window::parse("kaiser,8.6").name(), "kaiser,8.6");
  EXPECT_EQ(Window::parse("hamm").name(), "hamming");
}

TEST(Windows, Errors) {
  expect_invalid([] { (void)Window::parse("hanning-ish"); }, "hanning-ish");
  expect_invalid([] { (void)Window::parse("kaiser"); }, "needs a parameter");
  expect_invalid([] { (void)Window::parse("hann,3"); }, "takes no parameter");
  expect_invalid([] { (void)Window::parse("kaiser,abc"); }, "abc");
  expect_invalid([] { (void)get_window(Window{Kind::hann, 0}, 0); }, "positive");
  expect_invalid([] { (void)gaussian(8, -1.0); }, "std");
  expect_invalid([] { (void)kaiser(8, NAN); }, "beta");
}

}  // namespace
}  // namespace ripple::windows
