// The example at the top of include/ripple/iir/design.hpp, compiled and checked: keep the two
// in step.
#include <gtest/gtest.h>

#include <cmath>

#include "ripple/iir/design.hpp"

namespace {

TEST(IirDesignExample, HeaderExample) {
  using namespace ripple::iir;
  Sos lp = butter(4, 0.2);                                               // 4th-order lowpass, 0.2*Nyquist
  Sos bp = cheby1(3, 0.5, {300.0, 3400.0}, BandType::bandpass, 8000.0);  // fs = 8 kHz
  Zpk z = cheby2_zpk(6, 40.0, 0.3, BandType::highpass);
  Sos eq = rbj_peaking(1000.0, 48000.0, 0.7, 6.0);  // +6 dB bell at 1 kHz
  FrequencyResponse r = sosfreqz(lp, 1024);         // r.w in rad/sample, r.h complex

  EXPECT_EQ(lp.size(), 2u);
  EXPECT_EQ(bp.size(), 3u);
  EXPECT_EQ(z.z.size(), 6u);
  EXPECT_EQ(z.p.size(), 6u);
  EXPECT_NEAR(20 * std::log10(std::abs(sosfreqz(eq, std::vector<double>{1000.0}, 48000.0).h[0])), 6.0, 1e-9);
  ASSERT_EQ(r.w.size(), 1024u);
  EXPECT_NEAR(std::abs(r.h[0]), 1.0, 1e-12);  // lowpass: unit gain at DC
}

}  // namespace
