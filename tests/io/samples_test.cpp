// Sample streams: every raw encoding, sound files, SigMF and npy round trip through
// open_writer/open_reader block by block; malformed and lying files fail with one clear error.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "ripple/error.hpp"
#include "ripple/io/npy.hpp"
#include "ripple/io/samples.hpp"
#include "ripple/io/sigmf.hpp"

namespace ripple::test {
namespace {

namespace fs = std::filesystem;
using io::SampleFormat;

class SampleFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) / (std::string("ripple_io_") + info->test_suite_name() + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

std::vector<float> random_values(std::size_t n, unsigned seed, float amplitude = 0.9f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-amplitude, amplitude);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

void write_all(const std::string& path, const io::StreamInfo& info, std::span<const float> values,
               const io::WriteOptions& options = {}) {
  auto w = io::open_writer(path, info, options);
  // Blocks of awkward sizes (whole frames).
  const std::size_t vpf = info.values_per_frame();
  std::size_t at = 0, step = 7;
  while (at < values.size()) {
    const std::size_t n = std::min(values.size() - at, step * vpf);
    w->write(values.subspan(at, n));
    at += n;
    step = step * 3 % 1031 + 1;
  }
  w->close();
}

std::vector<float> read_all(io::SampleReader& r, std::size_t block_frames = 333) {
  std::vector<float> all, block(block_frames * r.info().values_per_frame());
  while (const std::size_t frames = r.read(block))
    all.insert(all.end(), block.begin(), block.begin() + static_cast<std::ptrdiff_t>(frames * r.info().values_per_frame()));
  return all;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

template <class F>
void expect_error(F&& f, const std::string& words) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one naming: " << words;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST_F(SampleFiles, EveryRawEncodingRoundTripsWithinItsStep) {
  for (const char* name : {"cu8", "cs8", "cs16", "cs32", "cf32", "cf64", "u8", "s8", "s16", "s32", "f32", "f64"}) {
    SCOPED_TRACE(name);
    const SampleFormat f = *io::parse_sample_format(name);
    const auto fi = io::format_info(f);
    io::StreamInfo info;
    info.is_complex = fi.is_complex;
    info.channels = 2;
    const std::vector<float> x = random_values(1000 * info.values_per_frame(), 3);
    const std::string file = path(std::string("x.") + name);
    write_all(file, info, x);
    EXPECT_EQ(fs::file_size(file), x.size() * fi.value_bytes);
    io::ReadOptions ro;
    ro.channels = 2;
    ro.sample_rate = 1e6;
    auto r = io::open_reader(file, ro);
    EXPECT_EQ(r->info().is_complex, fi.is_complex);
    ASSERT_TRUE(r->info().frames.has_value());
    EXPECT_EQ(*r->info().frames, 1000u);
    EXPECT_EQ(r->info().sample_rate, 1e6);
    const std::vector<float> y = read_all(*r);
    ASSERT_EQ(y.size(), x.size());
    const double step = fi.is_float ? 0 : fi.value_bytes == 1 ? 1 / 127.5 : fi.value_bytes == 2 ? 1 / 32768.0 : 1e-7;
    double worst = 0;
    for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::abs(double(x[i]) - y[i]));
    EXPECT_LE(worst, step / 2 + 1e-7);
  }
}

TEST_F(SampleFiles, IntegerScalingFollowsCsdrAndRtlSdr) {
  write_bytes(path("a.cs16"), std::string("\x00\x80\xff\x7f\x01\x00\x00\x00", 8));
  auto r = io::open_reader(path("a.cs16"));
  std::vector<float> v(4);
  ASSERT_EQ(r->read(v), 2u);
  EXPECT_EQ(v[0], -1.0f);
  EXPECT_EQ(v[1], 32767.0f / 32768);
  EXPECT_EQ(v[2], 1.0f / 32768);
  write_bytes(path("b.cu8"), std::string("\x00\xff", 2));
  auto u = io::open_reader(path("b.cu8"));
  ASSERT_EQ(u->read(v), 1u);
  EXPECT_EQ(v[0], -1.0f);
  EXPECT_EQ(v[1], 1.0f);
  io::ReadOptions be;
  be.big_endian = true;
  write_bytes(path("c.s16"), std::string("\x80\x00", 2));
  auto b = io::open_reader(path("c.s16"), be);
  ASSERT_EQ(b->read(v), 1u);
  EXPECT_EQ(v[0], -1.0f);
}

TEST_F(SampleFiles, ClippingIsCountedAndSaturates) {
  io::StreamInfo info;
  const std::vector<float> x = {0.5f, 1.5f, -2.0f, 0.999f};
  auto w = io::open_writer(path("c.s16"), info);
  w->write(x);
  EXPECT_EQ(w->clipped(), 2u);
  w->close();
  auto r = io::open_reader(path("c.s16"));
  std::vector<float> y(4);
  ASSERT_EQ(r->read(y), 4u);
  EXPECT_EQ(y[1], 32767.0f / 32768);
  EXPECT_EQ(y[2], -1.0f);
}

TEST_F(SampleFiles, BadRawInputsFailClearly) {
  write_bytes(path("t.cs16"), std::string(4 * 10 + 3, '\0'));
  expect_error([&] { io::open_reader(path("t.cs16")); }, "truncated: 43 bytes is not a whole number of 4-byte cs16 frames");
  std::vector<float> nan_data = {0.f, 1.f, 2.f, std::nanf(""), 0.f, 0.f};
  write_bytes(path("n.cf32"), std::string(reinterpret_cast<const char*>(nan_data.data()), nan_data.size() * 4));
  auto r = io::open_reader(path("n.cf32"));
  std::vector<float> block(6);
  expect_error([&] { r->read(block); }, "frame 1 holds a NaN");
  io::ReadOptions allow;
  allow.allow_nonfinite = true;
  EXPECT_EQ(io::open_reader(path("n.cf32"), allow)->read(block), 3u);
  expect_error([&] { io::open_reader(path("x.dat")); }, "unknown format of");
  expect_error([&] { io::open_reader("-"); }, "standard input needs --format");
  io::ReadOptions bad;
  bad.format = "cs17";
  expect_error([&] { io::open_reader(path("t.cs16"), bad); }, "unknown format 'cs17'");
  expect_error([&] { io::open_reader(path("missing.cs16")); }, "No such file");
  expect_error([&] { io::open_reader(dir_.string(), {.format = "cs16"}); }, "is a directory");
  io::ReadOptions negative_rate;
  negative_rate.sample_rate = -5;
  expect_error([&] { io::open_reader(path("t.cs16"), negative_rate); }, "--rate must be a positive");
}

TEST_F(SampleFiles, OutputsAreNeverOverwrittenWithoutForceNorLeftHalfWritten) {
  io::StreamInfo info;
  write_bytes(path("keep.f32"), "old!");
  expect_error([&] { io::open_writer(path("keep.f32"), info); }, "exists; use --force");
  {
    auto w = io::open_writer(path("keep.f32"), info, {.force = true});
    w->write(std::vector<float>{1.0f, 2.0f});
    // destroyed without close(): a failed run
  }
  std::ifstream in(path("keep.f32"), std::ios::binary);
  std::string old((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(old, "old!");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1) << "temporary left behind";
  info.is_complex = true;
  expect_error([&] { io::open_writer(path("c.s16"), info); }, "cannot write complex samples as s16");
  expect_error([&] { io::open_writer(path("nodir/x.f32"), {}); }, "cannot create");
}

TEST_F(SampleFiles, SoundFilesRoundTripWithRateAndChannels) {
  io::StreamInfo info;
  info.channels = 2;
  info.sample_rate = 44100;
  const std::vector<float> x = random_values(2 * 5000, 7);
  write_all(path("a.wav"), info, x);
  write_all(path("b.wav"), info, x, {.encoding = "f32"});
  write_all(path("c.flac"), info, x);
  for (const char* name : {"a.wav", "b.wav", "c.flac"}) {
    SCOPED_TRACE(name);
    auto r = io::open_reader(path(name));
    EXPECT_EQ(r->info().channels, 2u);
    EXPECT_EQ(r->info().sample_rate, 44100.0);
    EXPECT_EQ(r->info().frames, 5000u);
    const std::vector<float> y = read_all(*r);
    ASSERT_EQ(y.size(), x.size());
    const double tolerance = std::string(name) == "b.wav" ? 0 : 0.5 / 32768 + 1e-7;
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_NEAR(y[i], x[i], tolerance) << i;
  }
  io::ReadOptions iq;
  iq.iq = true;
  auto r = io::open_reader(path("b.wav"), iq);
  EXPECT_TRUE(r->info().is_complex);
  EXPECT_EQ(r->info().channels, 1u);
  io::ReadOptions wrong_rate;
  wrong_rate.sample_rate = 48000;
  expect_error([&] { io::open_reader(path("a.wav"), wrong_rate); }, "contradicts the file's 44100 Hz");
  expect_error([&] { io::open_writer(path("norate.wav"), io::StreamInfo{}); }, "needs a sample rate");
}

// A 16-bit mono WAV header for `frames` frames with `data_bytes` declared.
std::string wav_header(std::uint32_t rate, std::uint32_t data_bytes) {
  auto u32 = [](std::uint32_t v) { return std::string{char(v), char(v >> 8), char(v >> 16), char(v >> 24)}; };
  auto u16 = [](std::uint16_t v) { return std::string{char(v), char(v >> 8)}; };
  return "RIFF" + u32(36 + data_bytes) + "WAVEfmt " + u32(16) + u16(1) + u16(1) + u32(rate) + u32(rate * 2) + u16(2) +
         u16(16) + "data" + u32(data_bytes);
}

TEST_F(SampleFiles, LyingOrBrokenSoundHeadersAreRefused) {
  write_bytes(path("short.wav"), wav_header(8000, 2000) + std::string(100, '\1'));
  expect_error([&] { read_all(*io::open_reader(path("short.wav"))); }, "short.wav");
  write_bytes(path("rate0.wav"), wav_header(0, 100) + std::string(100, '\1'));
  expect_error([&] { io::open_reader(path("rate0.wav")); }, "rate0.wav");
  write_bytes(path("junk.wav"), "this is not a wav file at all, but it is long enough to look at");
  expect_error([&] { io::open_reader(path("junk.wav")); }, "not a sound file libsndfile can read");
}

TEST_F(SampleFiles, SigmfCarriesDatatypeRateAndFrequency) {
  io::StreamInfo info;
  info.is_complex = true;
  info.sample_rate = 2.4e6;
  info.center_frequency = 100.1e6;
  info.source_format = SampleFormat::cs16;
  const std::vector<float> x = random_values(2 * 3000, 11);
  write_all(path("rec.sigmf-meta"), info, x);
  ASSERT_TRUE(fs::exists(path("rec.sigmf-data")));
  EXPECT_EQ(fs::file_size(path("rec.sigmf-data")), 3000u * 4);
  std::ifstream meta_in(path("rec.sigmf-meta"));
  const std::string meta_text((std::istreambuf_iterator<char>(meta_in)), {});
  const io::SigmfMeta meta = io::parse_sigmf_meta(meta_text);
  EXPECT_EQ(meta.format, SampleFormat::cs16);
  EXPECT_EQ(meta.sample_rate, 2.4e6);
  EXPECT_EQ(meta.frequency, 100.1e6);
  EXPECT_NE(meta_text.find("\"ci16_le\""), std::string::npos);
  for (const char* name : {"rec.sigmf-meta", "rec.sigmf-data"}) {
    auto r = io::open_reader(path(name));
    EXPECT_TRUE(r->info().is_complex);
    EXPECT_EQ(r->info().sample_rate, 2.4e6);
    EXPECT_EQ(r->info().center_frequency, 100.1e6);
    EXPECT_EQ(r->info().frames, 3000u);
    const std::vector<float> y = read_all(*r, 1001);
    ASSERT_EQ(y.size(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_NEAR(y[i], x[i], 0.5 / 32768 + 1e-7);
  }
  expect_error([&] { io::open_writer(path("rec.sigmf-meta"), info); }, "exists; use --force");
}

TEST_F(SampleFiles, SigmfBigEndianAndHeaderBytes) {
  write_bytes(path("be.sigmf-data"), std::string("HDR\x80\x00\x7f\xff", 7));
  write_bytes(path("be.sigmf-meta"),
              R"({"global": {"core:datatype": "ri16_be", "core:sample_rate": 8000, "core:version": "1.0.0"},
                  "captures": [{"core:sample_start": 0, "core:header_bytes": 3}], "annotations": []})");
  auto r = io::open_reader(path("be.sigmf-meta"));
  std::vector<float> v(4);
  ASSERT_EQ(r->read(v), 2u);
  EXPECT_EQ(v[0], -1.0f);
  EXPECT_EQ(v[1], 32767.0f / 32768);
}

TEST_F(SampleFiles, LyingOrMalformedSigmfIsRefused) {
  write_bytes(path("m.sigmf-data"), std::string(40, '\0'));  // 10 ci16 samples
  struct Case {
    const char* meta;
    const char* words;
  };
  const Case cases[] = {
      {R"({"global": {"core:datatype": "ci16_le", "core:sample_rate": 1000},
           "annotations": [{"core:sample_start": 8, "core:sample_count": 5}]})",
       "refers to sample 13 but"},
      {R"({"global": {"core:datatype": "ci16_le", "core:sample_rate": -1}})", "core:sample_rate must be a positive"},
      {R"({"global": {"core:datatype": "ci16_le", "core:sample_rate": "fast"}})", "core:sample_rate must be a number"},
      {R"({"global": {"core:datatype": "cq16_le"}})", "unknown core:datatype"},
      {R"({"global": {"core:datatype": "ci16"}})", "lacks its byte order"},
      {R"({"global": {"core:sample_rate": 5}})", "no core:datatype"},
      {R"({"global": {"core:datatype": "ci16_le"}, "captures": [{"core:sample_start": 5}, {"core:sample_start": 2}]})",
       "goes backwards"},
      {R"({"global": {"core:datatype": "ci16_le", "core:num_channels": 0}})", "core:num_channels must be"},
      {R"({"global": {"core:datatype": "ci16_le"})", "malformed JSON"},
      {R"([1, 2])", "not a JSON object"},
      {R"({"global": {"core:datatype": "cf32_le"}})", "truncated"},  // 40 bytes = 5 cf32: fine; see below
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.meta);
    write_bytes(path("m.sigmf-meta"), c.meta);
    if (std::string(c.words) == "truncated") {
      write_bytes(path("m.sigmf-data"), std::string(41, '\0'));
      expect_error([&] { io::open_reader(path("m.sigmf-meta")); }, c.words);
      continue;
    }
    expect_error([&] { io::open_reader(path("m.sigmf-meta")); }, c.words);
  }
  write_bytes(path("m.sigmf-data"), std::string(40, '\0'));
  write_bytes(path("m.sigmf-meta"), R"({"global": {"core:datatype": "ci16_le", "core:sample_rate": 1000}})");
  expect_error([&] { io::open_reader(path("m.sigmf-meta"), {.sample_rate = 2000}); }, "contradicts the core:sample_rate");
  EXPECT_THROW(io::parse_sigmf_meta(R"({"global": {"core:datatype": "cu16_le"}})"), Unsupported);
  EXPECT_EQ(io::sigmf_datatype(SampleFormat::cs16), "ci16_le");
  EXPECT_EQ(io::sigmf_datatype(SampleFormat::f32, true), "rf32_be");
  EXPECT_EQ(io::sigmf_datatype(SampleFormat::cu8), "cu8");
}

TEST_F(SampleFiles, NpyStreamsMatchTheArrayReaderAndWriter) {
  io::StreamInfo info;
  info.is_complex = true;
  info.channels = 3;
  const std::vector<float> x = random_values(2 * 3 * 777, 5);
  write_all(path("s.npy"), info, x);
  const io::NpyArray a = io::read_npy(path("s.npy"));
  ASSERT_EQ(a.shape, (std::vector<std::size_t>{777, 3}));
  const auto values = a.values<std::complex<float>>();
  for (std::size_t i = 0; i < values.size(); ++i) ASSERT_EQ(values[i], std::complex<float>(x[2 * i], x[2 * i + 1]));
  // And a file written by write_npy (float64, 1-D) read as a stream.
  std::vector<double> d(1234);
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = std::sin(0.01 * double(i));
  io::write_npy(path("d.npy"), io::NpyArray({d.size()}, d));
  auto r = io::open_reader(path("d.npy"));
  EXPECT_EQ(r->info().frames, 1234u);
  const std::vector<float> y = read_all(*r, 100);
  ASSERT_EQ(y.size(), d.size());
  for (std::size_t i = 0; i < d.size(); ++i) ASSERT_EQ(y[i], static_cast<float>(d[i]));
  io::write_npy(path("cube.npy"), io::NpyArray({2, 2, 2}, std::vector<float>(8)));
  EXPECT_THROW(io::open_reader(path("cube.npy")), Unsupported);
  const std::string good = [&] {
    std::ifstream in(path("d.npy"), std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  }();
  write_bytes(path("cut.npy"), good.substr(0, good.size() - 8));
  expect_error([&] { io::open_reader(path("cut.npy")); }, "truncated");
  expect_error([&] { io::open_writer("-", info, {.format = "npy"}); }, "npy output needs a file");
}

}  // namespace
}  // namespace ripple::test
