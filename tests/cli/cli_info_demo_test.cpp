// `ripple info`, `ripple --help` and `ripple demo` end to end.
#include <thread>

#include "cli/cli_test_util.hpp"
#include "ripple/runtime.hpp"

namespace ripple::test {
namespace {

class CliInfo : public CliTest {};
class CliDemo : public CliTest {};

std::size_t count(const std::string& text, const std::string& word) {
  std::size_t n = 0;
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
  return n;
}

TEST_F(CliInfo, ReportsVersionBuildSimdAndThreads) {
  const RunResult r = run_ripple("info");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find(std::string("ripple ") + ripple::version() + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("build_type="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("simd target: " + ripple::simd_target()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::to_string(ripple::simd_complex_lanes_f32()) + " complex64"), std::string::npos);
  EXPECT_NE(r.out.find("hardware threads: " + std::to_string(std::thread::hardware_concurrency())),
            std::string::npos)
      << r.out;
}

TEST_F(CliInfo, ThreadsFollowTheEnvironment) {
  const RunResult three = [&] {
    setenv("RIPPLE_THREADS", "3", 1);
    RunResult result = run_ripple("info");
    unsetenv("RIPPLE_THREADS");
    return result;
  }();
  ASSERT_EQ(three.code, 0) << three.err;
  EXPECT_NE(three.out.find("threads: 3 by default"), std::string::npos) << three.out;
}

TEST_F(CliInfo, HelpAndVersionExitZero) {
  const RunResult help = run_ripple("--help");
  EXPECT_EQ(help.code, 0);
  for (const char* word : {"info", "fft", "demo"})
    EXPECT_NE(help.out.find(word), std::string::npos) << help.out;
  const RunResult fft_help = run_ripple("fft --help");
  EXPECT_EQ(fft_help.code, 0);
  for (const char* word : {"--norm", "--inverse", "--real-output", "--force", "--threads"})
    EXPECT_NE(fft_help.out.find(word), std::string::npos) << fft_help.out;
  const RunResult version = run_ripple("--version");
  EXPECT_EQ(version.code, 0);
  EXPECT_EQ(version.out, std::string("ripple ") + ripple::version() + "\n");
}

TEST_F(CliDemo, FindsEveryToneAndReportsTheTiming) {
  const RunResult r = run_ripple("demo");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("5 of 5 tones found"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 spurious peaks"), std::string::npos) << r.out;
  EXPECT_EQ(count(r.out, "  ok\n"), 5u) << r.out;
  EXPECT_NE(r.out.find("median"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Msamples/s"), std::string::npos) << r.out;
}

// `make demo`'s main job end to end (about 5 s): both beacons found at their times, every file
// written and readable, and a second run without --force refuses to overwrite them.
TEST_F(CliDemo, RadioFindsBothBeaconsAndWritesItsFiles) {
  const RunResult r = run_ripple("demo radio --out radio");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("2 of 2 beacon tones found at the right times"), std::string::npos) << r.out;
  EXPECT_EQ(count(r.out, "  ok\n"), 2u) << r.out;
  for (const char* name : {"recording.sigmf-meta", "recording.sigmf-data", "wideband.png", "channel.png", "channel.wav"})
    EXPECT_GT(std::filesystem::file_size(path(std::string("radio/") + name)), 0u) << name;
  // 2 s of cs16 IQ at 2.4 Msps, and the channel as 2 s of 48 kHz audio (s16 WAV: 44-byte header).
  EXPECT_EQ(std::filesystem::file_size(path("radio/recording.sigmf-data")), 2u * 2400000u * 2u * 2u);
  EXPECT_NEAR(double(std::filesystem::file_size(path("radio/channel.wav"))), 2.0 * 48000 * 2 + 44, 4096);
  const std::string meta = slurp(path("radio/recording.sigmf-meta"));
  EXPECT_NE(meta.find("\"ci16_le\""), std::string::npos) << meta;
  EXPECT_NE(meta.find("2400000"), std::string::npos) << meta;

  const std::string before = slurp(path("radio/channel.wav"));
  expect_one_error_line(run_ripple("demo radio --out radio"), 1, "exists; use --force");
  EXPECT_EQ(slurp(path("radio/channel.wav")), before);
}

TEST_F(CliDemo, FailsWhenAToneCannotBeFound) {
  // 4096 samples give 24 dB less processing gain than the default: the -75 dB tone drowns.
  const RunResult r = run_ripple("demo --size 4096");
  expect_one_error_line({r.code, "", r.err}, 1, "tones missed");
  EXPECT_EQ(count(r.out, "MISSED"), 1u) << r.out;
  EXPECT_NE(r.out.find("15000.1250"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ripple::test
