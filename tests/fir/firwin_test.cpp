// firwin and kaiserord against scipy.signal (lowpass/highpass/bandpass/bandstop/multiband,
// every window kind, numtaps 1..801, with fs and width), plus the errors scipy raises.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "common/golden.hpp"
#include "common/expect_invalid.hpp"
#include "ripple/error.hpp"
#include "ripple/fir.hpp"

namespace ripple::fir {
namespace {

using ripple::test::expect_invalid;

std::vector<double> numbers(const std::string& text) {
  std::vector<double> v;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) v.push_back(std::stod(item));
  return v;
}

TEST(Firwin, MatchesScipy) {
  int checked = 0;
  const std::map<std::string, PassZero> pass_zero{{"yes", PassZero::yes},           {"no", PassZero::no},
                                                  {"lowpass", PassZero::lowpass},   {"highpass", PassZero::highpass},
                                                  {"bandpass", PassZero::bandpass}, {"bandstop", PassZero::bandstop}};
  for (const auto& line : test::golden_lines("cases.txt")) {
    const std::string& function = line.words.at(0);
    const std::string& name = line.words.at(1);
    auto keys = line.keys;
    SCOPED_TRACE(line.text);
    const auto expected = test::golden_values(name);
    if (function == "firwin") {
      FirwinOptions options;
      options.window = windows::Window::parse(keys["window"]);
      options.pass_zero = pass_zero.at(keys["pass_zero"]);
      options.scale = keys["scale"] == "1";
      if (keys["fs"] != "none") options.fs = std::stod(keys["fs"]);
      if (keys["width"] != "none") options.width = std::stod(keys["width"]);
      const auto h = firwin(std::stoul(keys["numtaps"]), numbers(keys["cutoff"]), options);
      ASSERT_EQ(h.size(), expected.size());
      double peak = 0;
      for (double v : expected) peak = std::max(peak, std::abs(v));
      for (std::size_t i = 0; i < h.size(); ++i) EXPECT_NEAR(h[i], expected[i], 1e-13 * peak) << i;
    } else {
      const auto [taps, beta] = kaiserord(std::stod(keys["ripple"]), std::stod(keys["width"]));
      EXPECT_EQ(double(taps), expected[0]);
      EXPECT_NEAR(beta, expected[1], 1e-14 * std::max(1.0, expected[1]));
    }
    ++checked;
  }
  EXPECT_GT(checked, 80);
}

TEST(Firwin, KaiserFormulas) {
  EXPECT_EQ(kaiser_beta(10.0), 0.0);
  EXPECT_NEAR(kaiser_beta(60.0), 0.1102 * (60.0 - 8.7), 1e-15);
  EXPECT_NEAR(kaiser_atten(101, 0.05), 2.285 * 100 * M_PI * 0.05 + 7.95, 1e-12);
}

TEST(Firwin, Errors) {
  expect_invalid([] { (void)firwin(0, {0.1}); }, "numtaps");
  expect_invalid([] { (void)firwin(11, std::vector<double>{}); }, "at least one cutoff");
  expect_invalid([] { (void)firwin(11, {1.0}); }, "1.0");
  expect_invalid([] { (void)firwin(11, {0.0}); }, "greater than 0");
  expect_invalid([] { (void)firwin(11, {0.3, 0.2}); }, "strictly increasing");
  expect_invalid([] { (void)firwin(10, {0.3}, {.pass_zero = PassZero::no}); }, "even number");
  expect_invalid([] { (void)firwin(11, {0.3, 0.4}, {.pass_zero = PassZero::lowpass}); }, "one element");
  expect_invalid([] { (void)firwin(11, {0.3}, {.pass_zero = PassZero::bandpass}); }, "at least two");
  expect_invalid([] { (void)firwin(11, {100.0}, {.fs = -1.0}); }, "fs");
  expect_invalid([] { (void)firwin(11, {30000.0}, {.fs = 48000.0}); }, "30000");
  expect_invalid([] { (void)kaiserord(7.0, 0.1); }, "too small");
  expect_invalid([] { (void)kaiserord(60.0, 0.0); }, "width");
}

}  // namespace
}  // namespace ripple::fir
