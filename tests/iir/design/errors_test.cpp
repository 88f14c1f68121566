// Every invalid argument of the design functions throws ripple::InvalidArgument whose message
// names the parameter (and the rejected value where there is one).
#include <gtest/gtest.h>

#include <limits>

#include "iir/design/design_test_util.hpp"

namespace ripple::iir::test {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

TEST(IirDesignErrors, Order) {
  expect_invalid([] { butter(0, 0.2); }, {"butter", "order", "0"}, "butter order 0");
  expect_invalid([] { cheby1(-3, 1, 0.2); }, {"cheby1", "order", "-3"}, "cheby1 order -3");
  expect_invalid([] { cheby2(0, 40, 0.2); }, {"cheby2", "order"}, "cheby2 order 0");
  expect_invalid([] { butter_zpk(0, 0.2); }, {"order"}, "butter_zpk order 0");
  expect_invalid([] { buttap(0); }, {"buttap", "order"}, "buttap 0");
  expect_invalid([] { cheb1ap(0, 1); }, {"cheb1ap", "order"}, "cheb1ap 0");
  expect_invalid([] { cheb2ap(-1, 40); }, {"cheb2ap", "order"}, "cheb2ap -1");
}

TEST(IirDesignErrors, CutoffOutOfRange) {
  for (double wn : {0.0, -0.1, 1.0, 1.5, nan, inf}) {
    expect_invalid([&] { butter(4, wn); }, {"Wn", "(0, 1)"}, "butter Wn " + std::to_string(wn));
    expect_invalid([&] { cheby1(4, 1, wn, BandType::highpass); }, {"Wn"}, "cheby1 Wn");
    expect_invalid([&] { cheby2(4, 40, {0.1, wn}, BandType::bandpass); }, {"Wn[1]"}, "cheby2 Wn[1]");
    expect_invalid([&] { butter(4, {wn, 0.9}, BandType::bandstop); }, {"Wn[0]"}, "butter Wn[0]");
  }
  expect_invalid([] { butter(4, 1.5); }, {"1.5"}, "value in message");
  // With a sample rate the range is (0, fs/2).
  expect_invalid([] { butter(4, 500.0, BandType::lowpass, 1000.0); }, {"Wn", "fs/2", "500"}, "Wn == fs/2");
  expect_invalid(
      [] {
        butter(4, {100.0, 600.0}, BandType::bandpass, 1000.0);
      },
      {"Wn[1]", "600"}, "Wn[1] > fs/2");
}

TEST(IirDesignErrors, CutoffCountForBandType) {
  expect_invalid([] { butter(4, 0.2, BandType::bandpass); }, {"Wn", "2 values", "bandpass"},
                 "one Wn for bandpass");
  expect_invalid([] { cheby1(4, 1, 0.2, BandType::bandstop); }, {"Wn", "bandstop"}, "one Wn for bandstop");
  expect_invalid([] { butter(4, {0.1, 0.2}); }, {"Wn", "1 value", "lowpass"}, "two Wn for lowpass");
  expect_invalid(
      [] {
        cheby2(4, 40, {0.1, 0.2}, BandType::highpass);
      },
      {"Wn", "highpass"}, "two Wn for highpass");
  expect_invalid([] { butter(4, {0.1, 0.2, 0.3}, BandType::bandpass); }, {"Wn", "3 values"}, "three Wn");
  expect_invalid([] { butter(4, Cutoff(std::span<const double>{})); }, {"Wn", "0 values"}, "no Wn");
}

TEST(IirDesignErrors, BandEdgesOutOfOrder) {
  expect_invalid(
      [] {
        butter(4, {0.3, 0.2}, BandType::bandpass);
      },
      {"Wn[0]", "Wn[1]", "0.3", "0.2"}, "reversed");
  expect_invalid([] { cheby1(4, 1, {0.3, 0.3}, BandType::bandstop); }, {"Wn[0]", "less than"}, "equal");
}

TEST(IirDesignErrors, RippleAndAttenuation) {
  for (double bad : {0.0, -1.0, nan, inf}) {
    expect_invalid([&] { cheby1(4, bad, 0.2); }, {"cheby1", "rp"}, "cheby1 rp");
    expect_invalid([&] { cheby1_zpk(4, bad, 0.2); }, {"rp"}, "cheby1_zpk rp");
    expect_invalid([&] { cheby2(4, bad, 0.2); }, {"cheby2", "rs"}, "cheby2 rs");
    expect_invalid([&] { cheb1ap(4, bad); }, {"rp"}, "cheb1ap rp");
    expect_invalid([&] { cheb2ap(4, bad); }, {"rs"}, "cheb2ap rs");
  }
  expect_invalid([] { cheby1(4, -2.5, 0.2); }, {"-2.5"}, "value in message");
}

TEST(IirDesignErrors, SampleRate) {
  for (double fs : {0.0, -1000.0, nan, inf}) {
    expect_invalid([&] { butter(4, 100.0, BandType::lowpass, fs); }, {"butter", "fs"}, "butter fs");
    expect_invalid([&] { cheby2_zpk(4, 40, 100.0, BandType::lowpass, fs); }, {"fs"}, "cheby2_zpk fs");
    expect_invalid([&] { bilinear_zpk(buttap(2), fs); }, {"bilinear_zpk", "fs"}, "bilinear fs");
    expect_invalid([&] { sosfreqz(butter(2, 0.2), 16, false, fs); }, {"sosfreqz", "fs"}, "sosfreqz fs");
    expect_invalid([&] { freqz(Tf{{1}, {1, -0.5}}, 16, false, fs); }, {"freqz", "fs"}, "freqz fs");
  }
}

TEST(IirDesignErrors, ImproperSystems) {
  const Zpk improper{{1.0, 2.0}, {0.5}, 1.0};
  expect_invalid([&] { lp2lp_zpk(improper); }, {"lp2lp_zpk", "poles"}, "lp2lp");
  expect_invalid([&] { lp2hp_zpk(improper); }, {"lp2hp_zpk", "poles"}, "lp2hp");
  expect_invalid([&] { lp2bp_zpk(improper); }, {"lp2bp_zpk", "poles"}, "lp2bp");
  expect_invalid([&] { lp2bs_zpk(improper); }, {"lp2bs_zpk", "poles"}, "lp2bs");
  expect_invalid([&] { bilinear_zpk(improper, 1.0); }, {"bilinear_zpk", "poles"}, "bilinear");
  expect_invalid([&] { zpk2sos(improper, Pairing::minimal); }, {"zpk2sos", "minimal", "poles"}, "minimal");
}

TEST(IirDesignErrors, Zpk2sosInputs) {
  expect_invalid(
      [] {
        zpk2sos(Zpk{{{0.5, 0.5}}, {0.1}, 1.0});
      },
      {"zpk2sos", "zeros", "conjugate"}, "lone complex zero");
  expect_invalid(
      [] {
        zpk2sos(Zpk{{}, {{0.5, 0.5}, {0.5, -0.4}}, 1.0});
      },
      {"poles", "conjugate"}, "mismatched pair");
  expect_invalid([] { zpk2sos(Zpk{{nan}, {0.5}, 1.0}); }, {"zeros", "finite"}, "nan zero");
  expect_invalid([] { zpk2sos(Zpk{{0.1}, {0.5}, inf}); }, {"k", "finite"}, "inf gain");
  expect_invalid([] { zpk2tf(Zpk{{{0.5, 0.5}}, {}, 1.0}); }, {"zpk2tf", "conjugate"}, "zpk2tf lone complex");
}

TEST(IirDesignErrors, TransferFunctions) {
  expect_invalid([] { tf2zpk(Tf{{}, {1}}); }, {"tf2zpk", "b"}, "empty b");
  expect_invalid([] { tf2zpk(Tf{{1}, {}}); }, {"tf2zpk", "a"}, "empty a");
  expect_invalid([] { tf2zpk(Tf{{1}, {0, 0}}); }, {"a", "nonzero"}, "a all zeros");
  expect_invalid([] { tf2zpk(Tf{{1, nan}, {1}}); }, {"b", "finite"}, "nan b");
  expect_invalid([] { tf2sos(Tf{{1}, {1, inf}}); }, {"a", "finite"}, "inf a");
  expect_invalid([] { sos2tf(Sos{}); }, {"sos2tf", "section"}, "no sections");
  expect_invalid([] { sos2zpk(Sos{}); }, {"sos2zpk", "section"}, "no sections");
  expect_invalid([] { freqz(Tf{{1}, {0}}); }, {"freqz", "a"}, "freqz a zero");
  expect_invalid([] { freqz(Tf{{}, {1}}); }, {"freqz", "b"}, "freqz empty b");
}

TEST(IirDesignErrors, Sosfreqz) {
  expect_invalid([] { sosfreqz(Sos{}); }, {"sosfreqz", "section"}, "no sections");
  expect_invalid([] { sosfreqz(Sos({{1, 0, 0, 2, 0, 0}})); }, {"sosfreqz", "a0", "2"}, "a0 != 1");
  expect_invalid([] { sosfreqz(butter(2, 0.2), -1); }, {"worN", "-1"}, "negative count");
  const std::vector<double> bad{0.1, nan};
  expect_invalid([&] { sosfreqz(butter(2, 0.2), bad); }, {"frequencies", "nan"}, "nan frequency");
}

TEST(IirDesignErrors, Rbj) {
  using Fn = Sos (*)(double, double, double);
  for (Fn f : {Fn(rbj_lowpass), Fn(rbj_highpass), Fn(rbj_bandpass), Fn(rbj_notch), Fn(rbj_allpass)}) {
    expect_invalid([&] { f(0, 48000, 0.7); }, {"f0", "0"}, "f0 0");
    expect_invalid([&] { f(24000, 48000, 0.7); }, {"f0", "24000"}, "f0 Nyquist");
    expect_invalid([&] { f(-5, 48000, 0.7); }, {"f0"}, "f0 negative");
    expect_invalid([&] { f(nan, 48000, 0.7); }, {"f0"}, "f0 nan");
    expect_invalid([&] { f(1000, 0, 0.7); }, {"fs"}, "fs 0");
    expect_invalid([&] { f(1000, -48000, 0.7); }, {"fs"}, "fs negative");
    expect_invalid([&] { f(1000, inf, 0.7); }, {"fs"}, "fs inf");
    expect_invalid([&] { f(1000, 48000, 0); }, {"Q"}, "Q 0");
    expect_invalid([&] { f(1000, 48000, -1); }, {"Q", "-1"}, "Q negative");
    expect_invalid([&] { f(1000, 48000, nan); }, {"Q"}, "Q nan");
  }
  using GainFn = Sos (*)(double, double, double, double);
  for (GainFn f : {GainFn(rbj_peaking), GainFn(rbj_low_shelf), GainFn(rbj_high_shelf)}) {
    expect_invalid([&] { f(1000, 48000, 0.7, nan); }, {"gain_db"}, "gain nan");
    expect_invalid([&] { f(1000, 48000, 0.7, inf); }, {"gain_db"}, "gain inf");
    expect_invalid([&] { f(30000, 48000, 0.7, 6); }, {"f0"}, "f0 above Nyquist");
    expect_invalid([&] { f(1000, 48000, 0, 6); }, {"Q"}, "Q 0");
  }
  expect_invalid([] { rbj_shelf_q(6, 0); }, {"slope"}, "slope 0");
  expect_invalid([] { rbj_shelf_q(6, 100); }, {"slope", "steep"}, "slope too steep");
  expect_invalid([] { rbj_shelf_q(nan, 1); }, {"gain_db"}, "gain nan");
}

}  // namespace
}  // namespace ripple::iir::test
