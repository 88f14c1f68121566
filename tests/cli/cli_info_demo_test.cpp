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

TEST_F(CliDemo, FailsWhenAToneCannotBeFound) {
  // 4096 samples give 24 dB less processing gain than the default: the -75 dB tone drowns.
  const RunResult r = run_ripple("demo --size 4096");
  expect_one_error_line({r.code, "", r.err}, 1, "tones missed");
  EXPECT_EQ(count(r.out, "MISSED"), 1u) << r.out;
  EXPECT_NE(r.out.find("15000.1250"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ripple::test
