// `ripple fft` end to end: inputs written with ripple's npy writer, outputs read back and
// compared row by row with ripple's one-shot functions (fft, ifft, rfft, irfft).
#include <algorithm>
#include <cmath>
#include <functional>

#include "cli/cli_test_util.hpp"
#include "ripple/device.hpp"
#include "ripple/fft.hpp"

namespace ripple::test {
namespace {

using fft::Norm;

// Largest |a - b| over the largest |b|: the relative error of a whole result.
template <class T>
double relative_error(std::span<const T> a, std::span<const T> b) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    diff = std::max(diff, static_cast<double>(std::abs(a[i] - b[i])));
    scale = std::max(scale, static_cast<double>(std::abs(b[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

// Single precision results may differ in rounding between a batched plan and one-shot calls.
template <class T>
constexpr double kTolerance =
    std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>> ? 1e-5 : 1e-12;

// Runs `ripple fft in.npy out.npy ARGS` on `input` and checks that each row of the output
// equals `reference(row)`.
template <class In, class Out>
void expect_rows_match(const std::string& args, const std::vector<std::size_t>& shape, unsigned seed,
                       const std::function<std::vector<Out>(std::span<const In>)>& reference) {
  SCOPED_TRACE("ripple fft in.npy out.npy " + args + " on shape " + io::shape_string(shape));
  const auto values = random_values<In>(io::element_count(shape), seed);
  const auto dir = test_dir();
  std::filesystem::remove(dir / "out.npy");
  io::write_npy(dir / "in.npy", io::NpyArray(shape, values));
  const RunResult r = run_ripple("fft in.npy out.npy " + args);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  const io::NpyArray out = io::read_npy(dir / "out.npy");
  ASSERT_EQ(out.dtype(), io::dtype_of<Out>);
  const std::size_t m = shape.back(), rows = values.size() / m;
  const auto y = out.values<Out>();
  for (std::size_t row = 0; row < rows; ++row) {
    const auto expected = reference(std::span(values).subspan(row * m, m));
    auto expected_shape = shape;
    expected_shape.back() = expected.size();
    ASSERT_EQ(out.shape, expected_shape);
    const auto got = y.subspan(row * expected.size(), expected.size());
    EXPECT_LE(relative_error<Out>(got, expected), kTolerance<Out>) << "row " << row;
  }
}

using c64 = std::complex<float>;
using c128 = std::complex<double>;

class CliFft : public CliTest {};

TEST_F(CliFft, ComplexForwardIsNumpyFft) {
  expect_rows_match<c64, c64>("", {3, 20}, 1, [](auto x) { return fft::fft(x); });
  expect_rows_match<c128, c128>("", {64}, 2, [](auto x) { return fft::fft(x); });
  expect_rows_match<c128, c128>("--norm ortho", {2, 3, 17}, 3,
                                [](auto x) { return fft::fft(x, Norm::ortho); });
}

TEST_F(CliFft, InverseIsNumpyIfft) {
  expect_rows_match<c128, c128>("--inverse", {2, 2, 16}, 4, [](auto x) { return fft::ifft(x); });
  expect_rows_match<c64, c64>("-i --norm forward", {5, 12}, 5,
                              [](auto x) { return fft::ifft(x, Norm::forward); });
  expect_rows_match<c128, c128>("--inverse --norm ortho", {3, 7}, 6,
                                [](auto x) { return fft::ifft(x, Norm::ortho); });
}

TEST_F(CliFft, RealInputIsNumpyRfft) {
  expect_rows_match<float, c64>("", {4, 30}, 7, [](auto x) { return fft::rfft(x); });
  expect_rows_match<double, c128>("--norm forward", {7}, 8,
                                  [](auto x) { return fft::rfft(x, Norm::forward); });
  expect_rows_match<double, c128>("--norm ortho", {2, 1, 33}, 9,
                                  [](auto x) { return fft::rfft(x, Norm::ortho); });
}

TEST_F(CliFft, RealOutputIsNumpyIrfft) {
  expect_rows_match<c128, double>("--real-output", {3, 9}, 10, [](auto x) { return fft::irfft(x); });
  expect_rows_match<c128, double>("-r --n 17", {3, 9}, 11, [](auto x) { return fft::irfft(x, 17); });
  expect_rows_match<c64, float>("-r --n 5 --norm ortho", {2, 9}, 12,
                                [](auto x) { return fft::irfft(x, 5, Norm::ortho); });
}

TEST_F(CliFft, LengthOptionPadsOrCutsLikeNumpy) {
  const auto resized = [](auto x, std::size_t n) {
    std::vector<typename decltype(x)::value_type> v(n);
    std::copy_n(x.begin(), std::min(n, x.size()), v.begin());
    return v;
  };
  expect_rows_match<c64, c64>("--n 16", {2, 10}, 13,
                              [&](auto x) { return fft::fft(std::span<const c64>(resized(x, 16))); });
  expect_rows_match<c128, c128>("-n 4 -i", {2, 10}, 14,
                                [&](auto x) { return fft::ifft(std::span<const c128>(resized(x, 4))); });
  expect_rows_match<float, c64>("--n 25", {3, 10}, 15,
                                [&](auto x) { return fft::rfft(std::span<const float>(resized(x, 25))); });
}

TEST_F(CliFft, ThreadCountDoesNotChangeTheResult) {
  for (const char* threads : {"--threads 1", "--threads 2", "-t 3"})
    expect_rows_match<c64, c64>(threads, {64, 256}, 16, [](auto x) { return fft::fft(x); });
}

TEST_F(CliFft, EmptyBatchGivesAnEmptyResult) {
  io::write_npy(test_dir() / "in.npy", io::NpyArray({0, 8}, std::vector<float>{}));
  const RunResult r = run_ripple("fft in.npy out.npy");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto out = io::read_npy(test_dir() / "out.npy");
  EXPECT_EQ(out.shape, (std::vector<std::size_t>{0, 5}));
  EXPECT_EQ(out.dtype(), io::Dtype::c64);
}

TEST_F(CliFft, StandardInputAndOutput) {
  const auto values = random_values<c128>(2 * 12, 17);
  io::write_npy(dir_ / "in.npy", io::NpyArray({2, 12}, values));
  const RunResult file = run_ripple("fft in.npy out.npy");
  ASSERT_EQ(file.code, 0) << file.err;
  const RunResult piped = run_ripple("fft - -", path("in.npy"));
  ASSERT_EQ(piped.code, 0) << piped.err;
  EXPECT_EQ(piped.out, slurp(dir_ / "out.npy")) << "stdout must hold the same .npy bytes";
}

TEST_F(CliFft, ForceOverwritesAnExistingOutput) {
  io::write_npy(dir_ / "in.npy", io::NpyArray({4}, std::vector<c64>{{1, 0}, {0, 0}, {0, 0}, {0, 0}}));
  const std::string stale = "stale contents";
  std::ofstream(dir_ / "out.npy") << stale;
  const RunResult refused = run_ripple("fft in.npy out.npy");
  expect_one_error_line(refused, 1, "exists");
  EXPECT_EQ(slurp(dir_ / "out.npy"), stale) << "the existing file must be left alone";
  const RunResult forced = run_ripple("fft in.npy out.npy --force");
  ASSERT_EQ(forced.code, 0) << forced.err;
  const auto out = io::read_npy(dir_ / "out.npy");  // the DFT of an impulse is all ones
  for (const c64 v : out.values<c64>()) EXPECT_EQ(v, c64(1, 0));
}

// `--axes`: the whole output equals ripple's fftn/ifftn/rfftn/irfftn over those axes (checked
// against the long-double reference in tests/fft/one_shot_nd_test.cpp).
template <class In, class Out>
void expect_axes_match(const std::string& args, const std::vector<std::size_t>& shape, unsigned seed,
                       const std::function<Array<Out>(ArrayView<const In>)>& reference) {
  SCOPED_TRACE("ripple fft in.npy out.npy " + args + " on shape " + io::shape_string(shape));
  const auto values = random_values<In>(io::element_count(shape), seed);
  const auto dir = test_dir();
  std::filesystem::remove(dir / "out.npy");
  io::write_npy(dir / "in.npy", io::NpyArray(shape, values));
  const RunResult r = run_ripple("fft in.npy out.npy " + args);
  ASSERT_EQ(r.code, 0) << r.err;
  const io::NpyArray out = io::read_npy(dir / "out.npy");
  ASSERT_EQ(out.dtype(), io::dtype_of<Out>);
  const Array<Out> expected = reference(ArrayView<const In>(values.data(), shape));
  ASSERT_EQ(out.shape, expected.shape);
  const std::vector<Out> want(expected.values.begin(), expected.values.end());
  EXPECT_LE(relative_error<Out>(out.values<Out>(), want), kTolerance<Out>);
}

TEST_F(CliFft, AxesAreNumpyFftn) {
  expect_axes_match<c64, c64>("--axes 0,1", {6, 10}, 20, [](auto x) { return fft::fftn(x, {0, 1}); });
  expect_axes_match<c128, c128>("--axes 0,-1 --inverse --norm ortho", {3, 4, 5}, 21,
                                [](auto x) { return fft::ifftn(x, {0, 2}, Norm::ortho); });
  expect_axes_match<c128, c128>("-a 0", {7, 3}, 22, [](auto x) { return fft::fftn(x, {0}); });
  expect_axes_match<c64, c64>("--axes 2,1,0", {2, 3, 4, 5}, 23, [](auto x) { return fft::fftn(x, {0, 1, 2}); });
}

TEST_F(CliFft, AxesWithRealTransformsAreNumpyRfftnIrfftn) {
  expect_axes_match<float, c64>("--axes 0,1", {6, 9}, 24, [](auto x) { return fft::rfftn(x, {0, 1}); });
  expect_axes_match<double, c128>("--axes 1,0", {6, 9}, 25, [](auto x) { return fft::rfftn(x, {1, 0}); });
  expect_axes_match<c128, double>("-r --axes 0,1,2", {3, 4, 5}, 26, [](auto x) { return fft::irfftn(x); });
  expect_axes_match<c64, float>("-r --axes 0,1 --n 7 --norm forward", {5, 4}, 27,
                                [](auto x) { return fft::irfftn(x, {0, 1}, 7, Norm::forward); });
}

TEST_F(CliFft, AxesWithLengthCutsOrPadsTheLastAxisListed) {
  // numpy.fft.fftn(x, s=(8,), axes=(0,)): axis 0 zero-padded from 5 to 8 first.
  expect_axes_match<c128, c128>("--axes 0 --n 8", {5, 3}, 28, [](auto x) {
    std::vector<c128> padded(8 * 3, c128(0));
    for (std::size_t i = 0; i < 5; ++i)
      for (std::size_t j = 0; j < 3; ++j) padded[i * 3 + j] = x.data()[i * 3 + j];
    return fft::fftn(ArrayView<const c128>(padded.data(), {8, 3}), {0});
  });
  // Several axes, negative ones, real input: numpy's s, each axis its own length but the last
  // listed (-1: axis 2, cut from 5 to 4), as fftn's s gives it.
  expect_axes_match<c64, c64>("--axes 1,-1 --n 4", {3, 4, 5}, 30,
                              [](auto x) { return fft::fftn(x, {1, 2}, Norm::backward, {4, 4}); });
  expect_axes_match<double, c128>("--axes -1,0 --n 9", {3, 4, 5}, 31,
                                  [](auto x) { return fft::rfftn(x, {2, 0}, Norm::backward, {5, 9}); });
}

TEST_F(CliFft, BadAxesAreOneLineErrors) {
  io::write_npy(dir_ / "in.npy", io::NpyArray({4, 4}, random_values<c64>(16, 29)));
  expect_one_error_line(run_ripple("fft in.npy out.npy --axes 2"), 1, "axes");
  expect_one_error_line(run_ripple("fft in.npy out.npy --axes 0,0"), 1, "axes");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out.npy"));
}

// `--device`: "cpu" (fft::DevicePlan on host memory) and every GPU device present (PoCL in CI).
std::vector<std::string> device_ids() {
  std::vector<std::string> ids{"cpu"};
  for (const Device& d : Device::list())
    if (d.kind() != DeviceKind::cpu) ids.push_back(d.to_string());
  return ids;
}

TEST_F(CliFft, DeviceGivesTheSameTransforms) {
  for (const std::string& id : device_ids()) {
    SCOPED_TRACE("device " + id);
    const std::string on = " --device " + id;
    expect_rows_match<c64, c64>(on, {3, 40}, 40, [](auto x) { return fft::fft(x); });
    expect_rows_match<c128, c128>("--inverse --norm ortho" + on, {2, 97}, 41,
                                  [](auto x) { return fft::ifft(x, Norm::ortho); });
    expect_rows_match<float, c64>(on, {4, 30}, 42, [](auto x) { return fft::rfft(x); });
    expect_rows_match<c128, double>("-r --n 17" + on, {3, 9}, 43, [](auto x) { return fft::irfft(x, 17); });
    expect_axes_match<float, c64>("--axes -2,-1" + on, {2, 6, 9}, 44, [](auto x) { return fft::rfftn(x, {1, 2}); });
    expect_axes_match<c64, c64>("--axes 0,1,2 --norm forward" + on, {3, 4, 5}, 45,
                                [](auto x) { return fft::fftn(x, {0, 1, 2}, Norm::forward); });
    expect_axes_match<c128, double>("-r --axes 1,2 --n 7" + on, {2, 5, 4}, 46,
                                    [](auto x) { return fft::irfftn(x, {1, 2}, 7); });
    // Any axes, in any order, as many as the input has.
    expect_axes_match<c128, c128>("-a 0" + on, {7, 3}, 48, [](auto x) { return fft::fftn(x, {0}); });
    expect_axes_match<c64, c64>("--axes 2,1,0,3 --inverse" + on, {2, 3, 4, 5}, 49,
                                [](auto x) { return fft::ifftn(x, {0, 1, 2, 3}); });
    expect_axes_match<double, c128>("--axes 1,0" + on, {6, 9}, 50, [](auto x) { return fft::rfftn(x, {1, 0}); });
    expect_axes_match<c64, float>("-r --axes 2,0 --n 9 --norm ortho" + on, {4, 3, 6}, 51,
                                  [](auto x) { return fft::irfftn(x, {2, 0}, 9, Norm::ortho); });
    expect_axes_match<c128, c128>("--axes 0 --n 8" + on, {5, 3}, 52, [](auto x) {
      std::vector<c128> padded(8 * 3, c128(0));
      std::copy_n(x.data(), 15, padded.begin());
      return fft::fftn(ArrayView<const c128>(padded.data(), {8, 3}), {0});
    });
  }
}

TEST_F(CliFft, DeviceMistakesAreOneLineErrors) {
  io::write_npy(dir_ / "in.npy", io::NpyArray({2, 3, 4}, random_values<c64>(24, 47)));
  expect_one_error_line(run_ripple("fft in.npy out.npy --device gpu"), 1, "\"gpu\"");
  expect_one_error_line(run_ripple("fft in.npy out.npy --device cuda:99"), 1, "cuda:99 is not present");
  expect_one_error_line(run_ripple("fft in.npy out.npy --device cpu --axes 1,-2"), 1, "axis -2 is given twice");
  expect_one_error_line(run_ripple("fft in.npy out.npy --device cpu --axes 3"), 1, "axes");
  expect_one_error_line(run_ripple("fft in.npy out.npy --device cpu --axes -4,-3,-2,-1"), 1, "axes");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out.npy"));
}

}  // namespace
}  // namespace ripple::test
