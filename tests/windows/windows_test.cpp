// Windows against scipy.signal.get_window (symmetric and periodic, every kind, lengths 1 to
// 1024), scipy's spellings and aliases, and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "common/golden.hpp"
#include "ripple/error.hpp"
#include "ripple/windows.hpp"

namespace ripple::windows {
namespace {

TEST(Windows, MatchScipy) {
  std::ifstream cases(test::golden_dir() / "cases.txt");
  std::string line;
  int checked = 0;
  while (std::getline(cases, line)) {
    std::istringstream words(line);
    std::string name, spec;
    std::size_t n = 0;
    int fftbins = 0;
    words >> name >> spec >> n >> fftbins;
    SCOPED_TRACE(line);
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

template <class F>
void expect_invalid(F&& f, const std::string& word) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
  }
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
