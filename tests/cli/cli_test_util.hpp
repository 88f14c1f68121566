// Helpers for the end-to-end tests of the `ripple` program: run it with arguments, capture
// its exit code, stdout and stderr; a scratch directory per test; random test arrays.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <complex>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ripple/io/npy.hpp"

namespace ripple::test {

struct RunResult {
  int code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The running test's own directory (tests run in parallel processes), created if needed.
inline std::filesystem::path test_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const auto dir = std::filesystem::path(::testing::TempDir()) /
                   (std::string("ripple_cli_") + info->test_suite_name() + "_" + info->name());
  std::filesystem::create_directories(dir);
  return dir;
}

/// Base of the end-to-end tests: starts each test with an empty test_dir().
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::remove_all(test_dir());
    dir_ = test_dir();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

/// Runs `ripple ARGS` through the shell (ARGS is shell text, run in test_dir()), with stdin
/// from `stdin_path` if given.
inline RunResult run_ripple(const std::string& args, const std::string& stdin_path = {}) {
  const auto dir = test_dir();
  const auto out = (dir / "captured.out").string(), err = (dir / "captured.err").string();
  std::string command =
      "cd '" + dir.string() + "' && '" RIPPLE_CLI_PATH "' " + args + " > '" + out + "' 2> '" + err + "'";
  if (!stdin_path.empty()) command += " < '" + stdin_path + "'";
  const int status = std::system(command.c_str());
  RunResult result;
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = slurp(out);
  result.err = slurp(err);
  return result;
}

/// `ripple ARGS` must have failed with `code` and exactly one "ripple: error: " line on stderr
/// that contains `what`, and nothing on stdout.
inline void expect_one_error_line(const RunResult& r, int code, const std::string& what) {
  EXPECT_EQ(r.code, code) << "stderr: " << r.err;
  EXPECT_EQ(r.err.rfind("ripple: error: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not exactly one line: " << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << "stderr: " << r.err;
  EXPECT_TRUE(r.out.empty()) << "stdout: " << r.out;
}

/// One bad command line, the exit code it must end with and words its error line must hold.
struct ErrorCase {
  const char* args;
  int code;
  const char* message;
};

template <class T>
std::vector<T> random_values(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> v(count);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>)
      x = static_cast<T>(u(rng));
    else
      x = T(static_cast<typename T::value_type>(u(rng)), static_cast<typename T::value_type>(u(rng)));
  }
  return v;
}

}  // namespace ripple::test
