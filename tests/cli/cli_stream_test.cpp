// The streaming commands end to end on generated files: outputs against ripple's library calls
// (which are tested against scipy) or against properties (tone levels, rates, metadata); chains
// equal the same commands run one after another through files; every bad input ends in one
// error line.
#include <cmath>
#include <cstring>
#include <iomanip>
#include <map>
#include <complex>
#include <numbers>

#include "cli/cli_test_util.hpp"
#include "common/rel_l2.hpp"
#include "ripple/fir.hpp"
#include "ripple/iir/design.hpp"
#include "ripple/iir/filtering.hpp"
#include "ripple/io/samples.hpp"
#include "ripple/io/sigmf.hpp"
#include "ripple/spectral.hpp"

namespace ripple::test {
namespace {

using C = std::complex<float>;

class CliStream : public CliTest {
 protected:
  // n complex samples of tones at the given frequencies (Hz, amplitude 0.25 each) plus a little
  // noise, at fs, written as cs16; returns the values as read back (quantized).
  std::vector<C> write_cs16(const std::string& name, std::size_t n, double fs, std::vector<double> tones) {
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0, 1e-3);
    std::vector<std::int16_t> raw(2 * n);
    std::vector<C> x(n);
    for (std::size_t i = 0; i < n; ++i) {
      std::complex<double> v(noise(rng), noise(rng));
      for (double f : tones) v += 0.25 * std::polar(1.0, 2 * std::numbers::pi * f * double(i) / fs);
      raw[2 * i] = static_cast<std::int16_t>(std::lround(v.real() * 32767));
      raw[2 * i + 1] = static_cast<std::int16_t>(std::lround(v.imag() * 32767));
      x[i] = C(float(raw[2 * i]) / 32768.0f, float(raw[2 * i + 1]) / 32768.0f);
    }
    std::ofstream(dir_ / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(raw.data()), static_cast<std::streamsize>(raw.size() * 2));
    return x;
  }
  std::vector<C> read_cf32(const std::string& name) {
    const std::string bytes = slurp(dir_ / name);
    std::vector<C> y(bytes.size() / sizeof(C));
    std::memcpy(y.data(), bytes.data(), y.size() * sizeof(C));
    return y;
  }
  void run_ok(const std::string& args) {
    const RunResult r = run_ripple(args);
    ASSERT_EQ(r.code, 0) << args << "\n" << r.err;
    EXPECT_TRUE(r.err.empty()) << "no progress bar or noise on a non-terminal stderr: " << r.err;
  }
};

template <class Ref>
double rel_error(const std::vector<C>& y, const Ref& ref) {
  EXPECT_EQ(y.size(), ref.size());
  double num = 0, den = 0;
  for (std::size_t i = 0; i < std::min(y.size(), ref.size()); ++i) {
    num += std::norm(std::complex<double>(y[i]) - std::complex<double>(ref[i]));
    den += std::norm(std::complex<double>(ref[i]));
  }
  return std::sqrt(num / den);
}

// Amplitude of the complex tone at f in y (y at rate fs), by correlation through a Hann window
// (so other tones' leakage stays far below what is measured).
double tone_amplitude(const std::vector<C>& y, double f, double fs, std::size_t skip) {
  std::complex<double> acc = 0;
  double weight = 0;
  const double n = double(y.size() - skip);
  for (std::size_t i = skip; i < y.size(); ++i) {
    const double w = 0.5 - 0.5 * std::cos(2 * std::numbers::pi * double(i - skip) / n);
    acc += w * std::complex<double>(y[i]) * std::polar(1.0, -2 * std::numbers::pi * f * double(i) / fs);
    weight += w;
  }
  return std::abs(acc) / weight;
}

TEST_F(CliStream, DecimateResampleFilterShiftMatchTheLibrary) {
  const double fs = 240000;
  const auto x = write_cs16("in.cs16", 30011, fs, {3000, -41000});
  const ArrayView<const C> xv(x.data(), {x.size()});
  run_ok("decimate 6 in.cs16 d.cf32 --rate 240k --method fir");
  EXPECT_LT(rel_error(read_cf32("d.cf32"), fir::resample_poly(xv, 1, 6).values), 2e-6);
  run_ok("resample 3 7 in.cs16 r.cf32 --rate 240k");
  EXPECT_LT(rel_error(read_cf32("r.cf32"), fir::resample_poly(xv, 3, 7).values), 2e-6);
  run_ok("resample --to 160k in.cs16 r2.cf32 --rate 240k");
  EXPECT_LT(rel_error(read_cf32("r2.cf32"), fir::resample_poly(xv, 2, 3).values), 2e-6);
  run_ok("filter lowpass 20k in.cs16 lp.cf32 --rate 240k --order 6");
  const auto lp = iir::sosfilt(iir::butter(6, 20000.0, iir::BandType::lowpass, fs), xv);
  EXPECT_LT(rel_error(read_cf32("lp.cf32"), lp.values), 2e-6);
  run_ok("filter bandstop 2k 5k in.cs16 bs.cf32 --rate 240k --design cheby2 --rs 50 --order 3");
  const auto bs = iir::sosfilt(iir::cheby2(3, 50.0, {2000.0, 5000.0}, iir::BandType::bandstop, fs), xv);
  EXPECT_LT(rel_error(read_cf32("bs.cf32"), bs.values), 2e-5);  // float arithmetic, sharp sections
  run_ok("filter highpass 10k in.cs16 hp.cf32 --rate 240k --design fir --taps 63 --window kaiser,8");
  const auto h = fir::firwin(63, {10000.0}, {.window = windows::Window::parse("kaiser,8"),
                                             .pass_zero = fir::PassZero::highpass, .fs = fs});
  const auto full = fir::upfirdn(std::span<const double>(h), xv);
  EXPECT_LT(rel_error(read_cf32("hp.cf32"), std::span(full.values).first(x.size())), 2e-6);
  run_ok("shift -3k in.cs16 s.cf32 --rate 240k");
  std::vector<C> shifted(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    shifted[i] = C(std::complex<double>(x[i]) * std::polar(1.0, -2 * std::numbers::pi * 3000 * double(i) / fs));
  EXPECT_LT(rel_error(read_cf32("s.cf32"), shifted), 1e-6);
  // An SOS file: the same sections as the design give the same output.
  std::ofstream sos(dir_ / "lp.sos");
  const iir::Sos design = iir::butter(6, 20000.0, iir::BandType::lowpass, fs);
  for (const auto& row : design.rows())
    sos << std::setprecision(17) << row[0] << " " << row[1] << " " << row[2] << " " << row[3] << " " << row[4] << " "
        << row[5] << "\n";
  sos.close();
  run_ok("filter --sos lp.sos in.cs16 lp2.cf32 --rate 240k");
  EXPECT_LT(rel_error(read_cf32("lp2.cf32"), lp.values), 2e-6);
}

TEST_F(CliStream, CicDecimationIsFlatInItsPassbandAndRejectsAliases) {
  // 2.4 Msps, decimate 50 (CIC 25 + compensation FIR 2) to 48 ksps: a tone at 15 kHz (62% of
  // the output band) keeps its level; one at 108 kHz (in the CIC's first alias band, it would
  // land on 12 kHz) is removed by the CIC's nulls, one at 65 kHz (it would land on 17 kHz, and
  // the CIC alone passes it at -40 dB) by the compensation FIR.
  const double fs = 2.4e6;
  write_cs16("in.cs16", 240000, fs, {15000, 65000, 108000});
  run_ok("decimate 50 in.cs16 d.cf32 --rate 2.4M");
  const auto y = read_cf32("d.cf32");
  ASSERT_EQ(y.size(), 240000u / 50);
  const double pass = tone_amplitude(y, 15000, 48000, 200);
  EXPECT_NEAR(20 * std::log10(pass / 0.25), 0.0, 0.1) << "passband droop not compensated";
  const double cic_alias = tone_amplitude(y, 108000 - 96000, 48000, 200);
  EXPECT_LT(20 * std::log10(cic_alias / 0.25), -80.0) << "CIC alias band not rejected";
  const double fir_alias = tone_amplitude(y, 65000 - 96000 + 48000, 48000, 200);
  EXPECT_LT(20 * std::log10(fir_alias / 0.25), -50.0) << "compensation FIR stopband not rejected";
  // Blocks of any size give the same output.
  run_ok("decimate 50 in.cs16 d2.cf32 --rate 2.4M --block 1000");
  EXPECT_LT(rel_error(read_cf32("d2.cf32"), y), 1e-6);
}

TEST_F(CliStream, ChainsEqualTheCommandsRunOneAfterAnother) {
  write_cs16("in.cs16", 96000, 960000, {5000, 200000});
  run_ok("decimate 8 in.cs16 --rate 960k ! filter lowpass 20k ! shift 1k chain.cf32");
  run_ok("decimate 8 in.cs16 a.cf32 --rate 960k");
  run_ok("filter lowpass 20k a.cf32 b.cf32 --rate 120k");
  run_ok("shift 1k b.cf32 c.cf32 --rate 120k");
  // Equal to rounding: the IIR filter sees other block boundaries in a chain.
  EXPECT_LT(rel_error(read_cf32("chain.cf32"), read_cf32("c.cf32")), 1e-6);
  // And plain pipes through standard input and output.
  const RunResult piped = run_ripple(
      "decimate 8 --rate 960k < in.cs16 --format cs16 | '" RIPPLE_CLI_PATH "' filter lowpass 20k --format cf32 --rate 120k"
      " - - | '" RIPPLE_CLI_PATH "' shift 1k --format cf32 --rate 120k - piped.cf32");
  ASSERT_EQ(piped.code, 0) << piped.err;
  EXPECT_LT(rel_error(read_cf32("piped.cf32"), read_cf32("c.cf32")), 1e-6);
}

TEST_F(CliStream, SigmfWavAndNpyCarryRatesAndFrequencies) {
  const auto x = write_cs16("in.cs16", 48000, 2.4e6, {100000});
  // Raw to SigMF: datatype and rate in the metadata; the centre frequency moves with shift.
  run_ok("convert in.cs16 rec.sigmf-meta --rate 2.4M");
  const io::SigmfMeta meta = io::parse_sigmf_meta(slurp(dir_ / "rec.sigmf-meta"));
  EXPECT_EQ(meta.format, io::SampleFormat::cs16);
  EXPECT_EQ(meta.sample_rate, 2.4e6);
  EXPECT_TRUE(slurp(dir_ / "rec.sigmf-data") == slurp(dir_ / "in.cs16"));
  std::ofstream(dir_ / "tuned.sigmf-meta")
      << R"({"global": {"core:datatype": "ci16_le", "core:sample_rate": 2400000, "core:version": "1.0.0"},
            "captures": [{"core:sample_start": 0, "core:frequency": 100000000}], "annotations": []})";
  std::filesystem::copy_file(dir_ / "in.cs16", dir_ / "tuned.sigmf-data");
  run_ok("shift -100k tuned.sigmf-meta ! decimate 10 out.sigmf-data --encoding cf32");
  const io::SigmfMeta out = io::parse_sigmf_meta(slurp(dir_ / "out.sigmf-meta"));
  EXPECT_EQ(out.sample_rate, 240000.0);
  EXPECT_EQ(out.frequency, 100100000.0);
  EXPECT_EQ(out.format, io::SampleFormat::cf32);
  // WAV of IQ: two channels at a whole rate; npy: complex64.
  run_ok("decimate 50 in.cs16 ch.wav --rate 2.4M");
  auto wav = io::open_reader((dir_ / "ch.wav").string());
  EXPECT_EQ(wav->info().channels, 2u);
  EXPECT_EQ(wav->info().sample_rate, 48000.0);
  run_ok("convert in.cs16 x.npy --rate 2.4M");
  const io::NpyArray a = io::read_npy(dir_ / "x.npy");
  ASSERT_EQ(a.dtype(), io::Dtype::c64);
  EXPECT_EQ(rel_error(std::vector<C>(a.values<C>().begin(), a.values<C>().end()), x), 0.0);
  // Real part (convert --real) of a complex stream.
  run_ok("convert --real in.cs16 re.f32 --rate 2.4M");
  const std::string re = slurp(dir_ / "re.f32");
  ASSERT_EQ(re.size(), x.size() * 4);
  float first;
  std::memcpy(&first, re.data() + 4 * 17, 4);
  EXPECT_EQ(first, x[17].real());
}

TEST_F(CliStream, PsdAndSpectrogramMatchWelchAndDrawPngs) {
  const auto x = write_cs16("in.cs16", 20000, 1e6, {125000});
  run_ok("psd in.cs16 p.csv --rate 1M --nperseg 500");
  spectral::WelchOptions wo;
  wo.fs = 1e6;
  wo.nperseg = 500;
  const auto w = spectral::welch(ArrayView<const C>(x.data(), {x.size()}), wo);
  std::istringstream csv(slurp(dir_ / "p.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "frequency_hz,psd");
  std::map<double, double> expected;
  for (std::size_t i = 0; i < w.f.size(); ++i) expected[w.f[i]] = w.pxx.values[i];
  std::size_t rows = 0;
  double prev = -1e300;
  while (std::getline(csv, line)) {
    double f = 0, p = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%lf", &f, &p), 2) << line;
    EXPECT_GT(f, prev) << "frequencies ascending";
    prev = f;
    ASSERT_TRUE(expected.count(f)) << f;
    EXPECT_NEAR(p, expected[f], 1e-5 * std::abs(expected[f]) + 1e-18);
    ++rows;
  }
  EXPECT_EQ(rows, w.f.size());
  run_ok("psd in.cs16 p.png --rate 1M");
  run_ok("spectrogram in.cs16 s.png --rate 1M --nperseg 256");
  for (const char* png : {"p.png", "s.png"}) EXPECT_EQ(slurp(dir_ / png).substr(1, 3), "PNG") << png;
  // rtl_power CSV: date, time, Hz low, Hz high, Hz step, samples, dB...; the tone's bin is hot.
  run_ok("spectrogram in.cs16 s.csv --rate 1M --nperseg 256 --integrate 0.005");
  std::istringstream rows_csv(slurp(dir_ / "s.csv"));
  std::size_t n_rows = 0;
  while (std::getline(rows_csv, line)) {
    ++n_rows;
    std::vector<double> cells;
    std::istringstream fields(line.substr(line.find(',', line.find(',') + 1) + 1));
    std::string cell;
    while (std::getline(fields, cell, ',')) cells.push_back(std::stod(cell));
    ASSERT_EQ(cells.size(), 4u + 256u);
    EXPECT_EQ(cells[0], -500000);
    EXPECT_EQ(cells[2], 1e6 / 256);
    const std::size_t hot = std::max_element(cells.begin() + 4, cells.end()) - (cells.begin() + 4);
    EXPECT_EQ(hot, 128u + 32u) << "125 kHz is bin 32 above the centre";
  }
  EXPECT_EQ(n_rows, 4u);  // 20000 samples, 0.005 s = 22 segments of 224 per row
}

TEST_F(CliStream, TonesAreDetectedWithTheirTimes) {
  // Two tones, the second only in the second half.
  const double fs = 48000;
  std::vector<float> x(48000);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = 0.3f * float(std::sin(2 * std::numbers::pi * 19000 * double(i) / fs));
    if (i >= 24000) x[i] += 0.3f * float(std::sin(2 * std::numbers::pi * 21000 * double(i) / fs));
  }
  io::StreamInfo info;
  info.sample_rate = fs;
  auto w = io::open_writer((dir_ / "t.wav").string(), info);
  w->write(x);
  w->close();
  const RunResult r = run_ripple("tones t.wav --freq 19k,21k,15k");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("tone 19 kHz: present from 0.000 s to 1.000 s (50 blocks)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tone 21 kHz: present from 0.500 s to 1.000 s (25 blocks)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tone 15 kHz: not detected"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 of 3 tones detected"), std::string::npos) << r.out;
  const RunResult strict = run_ripple("tones t.wav --freq 15k --require-all");
  EXPECT_EQ(strict.code, 1);
}

TEST_F(CliStream, TonesOnIqTellNegativeFromPositiveFrequencies) {
  write_cs16("iq.cs16", 100000, 1e6, {-100e3, 250e3});
  const RunResult r = run_ripple("tones iq.cs16 --rate 1M --freq=-100k,100k,250k,-250k");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("tone -100 kHz: present from 0.000 s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tone 250 kHz: present from 0.000 s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tone 100 kHz: not detected"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tone -250 kHz: not detected"), std::string::npos) << r.out;
}

TEST_F(CliStream, BadInputsEndInOneLine) {
  write_cs16("in.cs16", 1000, 1e6, {1000});
  std::ofstream(dir_ / "odd.cs16", std::ios::binary) << std::string(4 * 10 + 3, '\0');
  std::vector<float> nan_data = {0.f, 1.f, std::nanf(""), 0.f};
  std::ofstream(dir_ / "nan.cf32", std::ios::binary)
      .write(reinterpret_cast<const char*>(nan_data.data()), static_cast<std::streamsize>(nan_data.size() * 4));
  std::ofstream(dir_ / "junk.wav") << "this is not a wav file at all, but long enough to be looked at";
  auto u32 = [](std::uint32_t v) { return std::string{char(v), char(v >> 8), char(v >> 16), char(v >> 24)}; };
  auto u16 = [](std::uint16_t v) { return std::string{char(v), char(v >> 8)}; };
  const auto wav = [&](std::uint32_t rate, std::uint32_t bytes) {
    return "RIFF" + u32(36 + bytes) + "WAVEfmt " + u32(16) + u16(1) + u16(1) + u32(rate) + u32(rate * 2) + u16(2) +
           u16(16) + "data" + u32(bytes);
  };
  std::ofstream(dir_ / "lying.wav", std::ios::binary) << wav(8000, 20000) << std::string(100, '\1');
  std::ofstream(dir_ / "rate0.wav", std::ios::binary) << wav(0, 100) << std::string(100, '\1');
  std::ofstream(dir_ / "big.sigmf-data", std::ios::binary) << std::string(40, '\0');
  std::ofstream(dir_ / "big.sigmf-meta")
      << R"({"global": {"core:datatype": "ci16_le", "core:sample_rate": 1000000},
            "annotations": [{"core:sample_start": 5, "core:sample_count": 100}]})";
  std::ofstream(dir_ / "norate.sigmf-data", std::ios::binary) << std::string(40, '\0');
  std::ofstream(dir_ / "norate.sigmf-meta") << R"({"global": {"core:datatype": "ci16_le", "core:sample_rate": 0}})";
  std::ofstream(dir_ / "badjson.sigmf-data", std::ios::binary) << std::string(40, '\0');
  std::ofstream(dir_ / "badjson.sigmf-meta") << R"({"global": {"core:datatype": )";
  std::ofstream(dir_ / "exists.cf32") << "keep";
  const ErrorCase cases[] = {
      {"convert in.dat out.cf32", 1, "unknown format of 'in.dat'"},
      {"convert in.cs16 out.cf32 --format cs17", 1, "unknown format 'cs17'"},
      {"convert odd.cs16 out.cf32", 1, "truncated: 43 bytes is not a whole number of 4-byte cs16 frames"},
      {"convert nan.cf32 out.cf32", 1, "frame 1 holds a NaN"},
      {"convert junk.wav out.f32", 1, "not a sound file libsndfile can read"},
      {"convert lying.wav out.f32", 1, "corrupt header"},
      {"convert rate0.wav out.f32", 1, "invalid sample rate"},
      {"convert big.sigmf-meta out.cf32", 1, "refers to sample 105 but"},
      {"convert norate.sigmf-meta out.cf32", 1, "core:sample_rate must be a positive"},
      {"convert badjson.sigmf-meta out.cf32", 1, "malformed JSON"},
      {"convert big.sigmf-meta out.cf32 --rate 2M", 1, "contradicts the core:sample_rate"},
      {"convert in.cs16 exists.cf32", 1, "exists; use --force"},
      {"convert - out.cf32 < in.cs16", 1, "standard input needs --format"},
      {"decimate 0 in.cs16 out.cf32", 2, "R must be a whole number >= 1, not '0'"},
      {"decimate in.cs16 out.cf32", 2, "R must be a whole number >= 1, not 'in.cs16'"},
      {"decimate 4 in.cs16 out.cf32 --method magic", 2, "--method must be auto, cic or fir"},
      {"filter lowpass 600k in.cs16 out.cf32 --rate 1M", 2, "at or above the Nyquist frequency 500 kHz"},
      {"filter lowpass 20x in.cs16 out.cf32 --rate 1M", 2, "'20x' is not a frequency"},
      {"filter bandpass 3k 1k in.cs16 out.cf32 --rate 1M", 2, "low edge must be below"},
      {"filter lowpass 20k in.cs16 out.cf32", 2, "no sample rate; give it with --rate"},
      {"filter notch 1k in.cs16 out.cf32 --rate 1M", 2, "unknown type 'notch'"},
      {"shift 600k in.cs16 out.cf32 --rate 1M", 2, "beyond the Nyquist frequency"},
      {"resample 0 2 in.cs16 out.cf32 --rate 1M", 2, "UP must be a whole number >= 1"},
      {"psd in.cs16 out.txt --rate 1M", 2, "must be a .csv or .png file"},
      {"psd in.cs16 --rate 1M", 2, "must be a .csv or .png file"},  // one file is the output
      {"psd in.cs16 p.csv --rate 1M --nperseg 4096", 1, "shorter than one segment"},
      {"psd in.cs16 --rate 1M ! decimate 2 out.cf32", 2, "psd ends a chain"},
      {"decimate 2 in.cs16 --rate 1M ! fft a b", 2, "'fft' cannot be part of a chain"},
      {"decimate 2 in.cs16 ! ! filter lowpass 1k out.cf32", 2, "empty command in the chain"},
      {"decimate 2 in.cs16 --rate 1M ! filter lowpass 1k x.cf32 out.cf32", 2, "unexpected argument 'out.cf32'"},
      {"decimate 2 --rate 1M ! filter lowpass 1k in.cs16 ! convert x.cf32", 2, "unexpected argument 'in.cs16'"},
      {"tones in.cs16 --rate 1M", 2, "give the frequencies with --freq"},
      {"convert in.cs16 out.cs16 --rate 1M --out-format s16", 1, "cannot write complex samples as s16"},
      {"convert in.cs16 out.wav", 1, "needs a sample rate"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(std::string("ripple ") + c.args);
    const RunResult r = run_ripple(c.args);
    expect_one_error_line(r, c.code, c.message);
    EXPECT_FALSE(std::filesystem::exists(dir_ / "out.cf32")) << "a failed run must not leave an output";
  }
  EXPECT_EQ(slurp(dir_ / "exists.cf32"), "keep");
}

}  // namespace
}  // namespace ripple::test
