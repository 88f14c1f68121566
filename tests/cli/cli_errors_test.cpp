// Every way `ripple` can be used wrongly, or fed a bad file, ends in exactly one
// "ripple: error: ..." line on stderr and a non-zero exit code (2 for usage errors).
#include "cli/cli_test_util.hpp"

namespace ripple::test {
namespace {

class CliErrors : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    io::write_npy(dir_ / "c.npy", io::NpyArray({2, 8}, random_values<std::complex<float>>(16, 1)));
    io::write_npy(dir_ / "r.npy", io::NpyArray({8}, random_values<double>(8, 2)));
    io::write_npy(dir_ / "scalar.npy", io::NpyArray({}, std::vector<double>{1.0}));
    io::write_npy(dir_ / "empty_axis.npy", io::NpyArray({3, 0}, std::vector<float>{}));
    const std::string good = slurp(dir_ / "c.npy");
    std::ofstream(dir_ / "truncated.npy", std::ios::binary) << good.substr(0, good.size() - 5);
    std::ofstream(dir_ / "garbage.npy", std::ios::binary) << "this is not an array\n";
    std::ofstream(dir_ / "int.npy", std::ios::binary)
        << std::string("\x93NUMPY\x01\x00\x3a\x00", 10)
        << "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }\n"
        << "abcd";
  }
};

TEST_F(CliErrors, EachEndsInOneLineAndTheRightExitCode) {
  const ErrorCase cases[] = {
      {"", 2, "subcommand is required"},
      {"transmogrify", 2, "unknown subcommand 'transmogrify'"},
      {"--frobnicate", 2, "frobnicate"},
      {"fft", 2, "IN is required"},
      {"fft c.npy", 2, "OUT is required"},
      {"fft c.npy out.npy extra", 2, "extra"},
      {"fft c.npy out.npy --norm sideways", 2, "--norm"},
      {"fft c.npy out.npy --n 0", 2, "positive integer"},
      {"fft c.npy out.npy --n=-4", 2, "positive integer"},
      {"fft c.npy out.npy --n 99999999999999999999999", 2, "too large"},
      {"fft c.npy out.npy --threads 0", 2, "--threads"},
      {"fft r.npy out.npy --inverse", 2, "needs complex input"},
      {"fft r.npy out.npy --real-output", 2, "needs complex input"},
      {"fft missing.npy out.npy", 1, "No such file"},
      {"fft truncated.npy out.npy", 1, "truncated"},
      {"fft garbage.npy out.npy", 1, "not an npy file"},
      {"fft int.npy out.npy", 1, "unsupported dtype '<i4'"},
      {"fft scalar.npy out.npy", 1, "0-d"},
      {"fft empty_axis.npy out.npy", 1, "length 0"},
      {"fft c.npy no_such_dir/out.npy", 1, "cannot create"},
      {"fft c.npy c.npy", 1, "exists; use --force"},
      {"fft . out.npy", 1, "is a directory"},
      {"fft - out.npy < garbage.npy", 1, "not an npy file"},
      {"demo --size 10", 2, "--size"},
      {"demo --rate 1000", 2, "--rate"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(std::string("ripple ") + c.args);
    const RunResult r = run_ripple(c.args);
    expect_one_error_line(r, c.code, c.message);
    EXPECT_FALSE(std::filesystem::exists(dir_ / "out.npy")) << "a failed run must not leave an output";
  }
}

}  // namespace
}  // namespace ripple::test
