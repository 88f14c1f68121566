// CIC decimators and interpolators bit-exact against a wide-integer model (no wrap-around,
// 128-bit), over many (N, R, M, input width), full-scale inputs, multiple channels and blocks
// of random sizes; the register width rule, normalized output, errors; and the compensator's
// flattening of the passband droop.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <random>

#include "common/expect_invalid.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"
#include "ripple/multirate.hpp"

namespace ripple::multirate {
namespace {

using ripple::test::expect_invalid;

using Wide = __int128;

// Hogenauer's decimator in exact 128-bit arithmetic: one channel.
std::vector<Wide> reference_decimate(const CicSpec& s, const std::vector<std::int64_t>& x) {
  std::vector<Wide> integ(s.stages, 0), out;
  std::vector<std::vector<Wide>> delay(s.stages, std::vector<Wide>(s.delay, 0));
  std::size_t pos = 0;
  for (std::size_t t = 0; t < x.size(); ++t) {
    Wide v = x[t];
    for (auto& i : integ) v = i += v;
    if ((t + 1) % s.ratio != 0) continue;
    for (unsigned k = 0; k < s.stages; ++k) {
      const Wide y = v - delay[k][pos];
      delay[k][pos] = v;
      v = y;
    }
    pos = (pos + 1) % s.delay;
    out.push_back(v);
  }
  return out;
}

std::vector<Wide> reference_interpolate(const CicSpec& s, const std::vector<std::int64_t>& x) {
  std::vector<Wide> integ(s.stages, 0), out;
  std::vector<std::vector<Wide>> delay(s.stages, std::vector<Wide>(s.delay, 0));
  std::size_t pos = 0;
  for (std::int64_t in : x) {
    Wide v = in;
    for (unsigned k = 0; k < s.stages; ++k) {
      const Wide y = v - delay[k][pos];
      delay[k][pos] = v;
      v = y;
    }
    pos = (pos + 1) % s.delay;
    for (unsigned r = 0; r < s.ratio; ++r) {
      Wide u = r == 0 ? v : 0;
      for (auto& i : integ) u = i += u;
      out.push_back(u);
    }
  }
  return out;
}

template <class In>
std::vector<In> full_scale(std::size_t n, unsigned bits, unsigned seed) {
  std::mt19937_64 gen(seed);
  const std::int64_t top = (std::int64_t{1} << (bits - 1)) - 1, bottom = -(std::int64_t{1} << (bits - 1));
  std::uniform_int_distribution<std::int64_t> any(bottom, top);
  std::vector<In> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    // Stretches at the extremes drive the integrators into wrap-around.
    x[i] = static_cast<In>((i / 64) % 3 == 0 ? top : (i / 64) % 3 == 1 ? bottom : any(gen));
  }
  return x;
}

// Blocks of 1 to max_block frames (random); long blocks take the SIMD path's two segments
// side by side, short ones one segment and the scalar tail.
template <class In>
void check_decimator(const CicSpec& s, std::size_t channels, unsigned seed, std::size_t frames = 0,
                     std::size_t max_block = 37) {
  SCOPED_TRACE("N=" + std::to_string(s.stages) + " R=" + std::to_string(s.ratio) + " M=" + std::to_string(s.delay) +
               " bits=" + std::to_string(s.input_bits) + " channels=" + std::to_string(channels) +
               " in=" + std::to_string(8 * sizeof(In)) + " frames=" + std::to_string(frames));
  if (frames == 0) frames = 60 * s.ratio + 7;
  const auto x = full_scale<In>(frames * channels, s.input_bits, seed);
  CicDecimator<In> cic(s, channels);
  std::vector<std::int64_t> out;
  std::mt19937 gen(seed);
  for (std::size_t at = 0; at < frames;) {
    const std::size_t block = std::min<std::size_t>(frames - at, 1 + gen() % max_block);
    cic.process(std::span<const In>(x.data() + at * channels, block * channels), out);
    at += block;
  }
  for (std::size_t c = 0; c < channels; ++c) {
    std::vector<std::int64_t> line;
    for (std::size_t t = 0; t < frames; ++t) line.push_back(x[t * channels + c]);
    const auto ref = reference_decimate(s, line);
    ASSERT_EQ(out.size(), ref.size() * channels);
    for (std::size_t k = 0; k < ref.size(); ++k) {
      ASSERT_EQ(Wide(out[k * channels + c]), ref[k]) << "output " << k << " channel " << c;
    }
  }
}

TEST(Cic, DecimatorBitExact) {
  unsigned seed = 1;
  for (unsigned n : {1u, 2u, 3u, 5u, 6u}) {
    for (unsigned r : {2u, 3u, 8u, 16u, 25u}) {
      for (unsigned m : {1u, 2u}) {
        check_decimator<std::int16_t>({n, r, m, 16}, 1, seed++);
        check_decimator<std::int16_t>({n, r, m, 12}, 2, seed++);
        check_decimator<std::int32_t>({n, r, m, 24}, 3, seed++);
      }
    }
  }
}

TEST(Cic, DecimatorBitExactInLongBlocks) {
  // 32-bit registers (1, 2 and 4 channels; 2 take the lane kernel), 64-bit ones, big R, R = 1,
  // more stages than the SIMD kernels keep (9) and a channel count they do not take (3);
  // int16 and int32 input.
  const std::size_t frames = 3 * 2048 + 1001, block = 5000;
  unsigned seed = 500;
  check_decimator<std::int16_t>({5, 8, 1, 16}, 2, seed++, frames, block);
  check_decimator<std::int16_t>({5, 8, 1, 16}, 1, seed++, frames, block);
  check_decimator<std::int16_t>({4, 8, 1, 16}, 4, seed++, frames, block);
  check_decimator<std::int16_t>({8, 4, 1, 14}, 1, seed++, frames, block);
  check_decimator<std::int16_t>({3, 25, 2, 16}, 2, seed++, frames, block);
  check_decimator<std::int16_t>({6, 25, 2, 16}, 2, seed++, frames, block);  // 50-bit registers
  check_decimator<std::int16_t>({4, 9, 3, 16}, 1, seed++, frames, block);   // 36-bit registers
  check_decimator<std::int16_t>({2, 1000, 1, 16}, 1, seed++, 20 * 1000 + 3, 9000);
  check_decimator<std::int16_t>({1, 1, 1, 16}, 2, seed++, frames, block);
  check_decimator<std::int16_t>({3, 25, 2, 12}, 2, seed++, frames, block);
  check_decimator<std::int16_t>({8, 2, 1, 16}, 2, seed++, frames, block);
  check_decimator<std::int16_t>({2, 700, 1, 12}, 2, seed++, 30 * 700 + 5, 12000);  // outputs scarcer than segments
  check_decimator<std::int32_t>({4, 3, 3, 16}, 2, seed++, frames, block);
  check_decimator<std::int16_t>({9, 2, 1, 16}, 2, seed++, frames, block);
  check_decimator<std::int16_t>({5, 8, 1, 16}, 3, seed++, frames, block);
  check_decimator<std::int32_t>({5, 8, 1, 16}, 2, seed++, frames, block);
  check_decimator<std::int32_t>({5, 8, 1, 24}, 4, seed++, frames, block);   // 39 bits, 4 channels
  check_decimator<std::int32_t>({4, 10, 1, 32}, 1, seed++, frames, block);
  check_decimator<std::int32_t>({5, 8, 3, 20}, 2, seed++, frames, block);
  check_decimator<std::int32_t>({3, 7, 1, 20}, 4, seed++, frames, block);
}

TEST(Cic, InterpolatorBitExact) {
  unsigned seed = 100;
  for (unsigned n : {1u, 3u, 5u}) {
    for (unsigned r : {2u, 5u, 8u}) {
      for (unsigned m : {1u, 2u}) {
        const CicSpec s{n, r, m, 16};
        const std::size_t frames = 300;
        const auto x = full_scale<std::int16_t>(frames * 2, 16, seed++);
        CicInterpolator<std::int16_t> cic(s, 2);
        std::vector<std::int64_t> out;
        cic.process(std::span<const std::int16_t>(x.data(), 2 * 100), out);
        cic.process(std::span<const std::int16_t>(x.data() + 200, 2 * 200), out);
        for (std::size_t c = 0; c < 2; ++c) {
          std::vector<std::int64_t> line;
          for (std::size_t t = 0; t < frames; ++t) line.push_back(x[t * 2 + c]);
          const auto ref = reference_interpolate(s, line);
          ASSERT_EQ(out.size(), 2 * ref.size());
          for (std::size_t k = 0; k < ref.size(); ++k) ASSERT_EQ(Wide(out[2 * k + c]), ref[k]) << k;
        }
      }
    }
  }
}

TEST(Cic, RegisterWidthAndGain) {
  EXPECT_EQ(cic_register_bits({5, 8, 1, 16}), 31u);   // 16 + 5 * 3
  EXPECT_EQ(cic_register_bits({4, 10, 1, 16}), 30u);  // 16 + ceil(4 * 3.32) = 16 + 14
  EXPECT_EQ(cic_register_bits({3, 7, 2, 12}), 24u);   // 12 + ceil(3 * log2 14) = 12 + 12
  EXPECT_EQ(cic_gain({5, 8, 1, 16}), 32768.0);
  EXPECT_DOUBLE_EQ(cic_response({5, 8, 1, 16}, 0.0), 1.0);
  EXPECT_NEAR(cic_response({1, 8, 1, 16}, 1.0 / 8), 0.0, 1e-15);  // first null at 1 / (R M)
}

TEST(Cic, NormalizedOutputOfDc) {
  const CicSpec s{4, 8, 1, 16};
  CicDecimator<std::int16_t> cic(s);
  const std::vector<std::int16_t> x(8 * 100, 16384);  // half of full scale
  std::vector<float> out;
  cic.process(x, out);
  EXPECT_NEAR(out.back(), 0.5f, 1e-6f);
}

TEST(Cic, Errors) {
  expect_invalid([] { (void)cic_register_bits({0, 8, 1, 16}); }, "N = 0");
  expect_invalid([] { (void)cic_register_bits({10, 1000, 2, 32}); }, "exceeds 64 bits");
  expect_invalid([] { CicDecimator<std::int16_t> c({4, 8, 1, 24}); }, "wider than the 16-bit");
  expect_invalid([] { CicDecimator<std::int16_t> c({4, 8, 1, 16}, 0); }, "channels");
  CicDecimator<std::int16_t> cic({4, 8, 1, 16}, 2);
  std::vector<std::int64_t> out;
  const std::vector<std::int16_t> odd(3);
  expect_invalid([&] { cic.process(odd, out); }, "multiple");
  expect_invalid([] { (void)cic_compensator({4, 8, 1, 16}, 30, 0.5); }, "odd");
  expect_invalid([] { (void)cic_compensator({4, 8, 1, 16}, 31, 1.0); }, "cutoff");
}

// |H(f)| of an FIR at f cycles per sample.
double fir_response(const std::vector<double>& h, double f) {
  std::complex<double> acc = 0;
  for (std::size_t k = 0; k < h.size(); ++k) acc += h[k] * std::polar(1.0, -2 * M_PI * f * double(k));
  return std::abs(acc);
}

TEST(Cic, CompensatorFlattensPassband) {
  const CicSpec s{5, 8, 1, 16};
  const double cutoff = 0.5;  // of the output Nyquist
  const auto h = cic_compensator(s, 63, cutoff);
  double worst_raw = 0, worst_comp = 0;
  for (int i = 0; i <= 40; ++i) {
    const double fo = 0.8 * cutoff * i / 40.0;  // up to 80% of the cutoff, normalized to Nyquist
    const double cic = cic_response(s, fo / 2.0 / s.ratio);
    worst_raw = std::max(worst_raw, std::abs(20 * std::log10(cic)));
    worst_comp = std::max(worst_comp, std::abs(20 * std::log10(cic * fir_response(h, fo / 2.0))));
  }
  EXPECT_GT(worst_raw, 1.0);    // the droop to correct is over 1 dB here
  EXPECT_LT(worst_comp, 0.05);  // within 0.05 dB once compensated
}

}  // namespace
}  // namespace ripple::multirate

namespace ripple::multirate {
namespace {

TEST(Nco, ShiftsAndStaysInPhaseAcrossCalls) {
  const double fs = 48000, f = 1000;
  std::vector<std::complex<double>> x(4800, std::complex<double>(1.0, 0.0)), y(4800), z(4800);
  Nco once(f, fs, 0.25);
  once.mix(std::span<const std::complex<double>>(x), std::span<std::complex<double>>(y));
  Nco pieces(f, fs, 0.25);
  for (std::size_t at = 0; at < x.size(); at += 700) {
    const std::size_t n = std::min<std::size_t>(700, x.size() - at);
    pieces.mix(std::span<const std::complex<double>>(x.data() + at, n), std::span<std::complex<double>>(z.data() + at, n));
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::complex<double> expected = std::polar(1.0, 2 * M_PI * f * double(i) / fs + 0.25);
    ASSERT_NEAR(std::abs(y[i] - expected), 0.0, 1e-12) << i;
    ASSERT_EQ(y[i], z[i]) << i;
  }
  Nco down(-f, fs);
  std::vector<std::complex<double>> back(4800);
  down.mix(std::span<const std::complex<double>>(y), std::span<std::complex<double>>(back));
  EXPECT_NEAR(std::abs(back[4799] - std::polar(1.0, 0.25)), 0.0, 1e-12);  // shifted back to DC
  EXPECT_THROW(Nco(30000.0, 48000.0), InvalidArgument);
  EXPECT_THROW(Nco(100.0, 0.0), InvalidArgument);
}

}  // namespace
}  // namespace ripple::multirate
