// Checks c2c plans against a naive long-double DFT for every N from 1 to 1024, forward and
// backward, float and double, each size on fresh random input (outputs poisoned, guards and
// input checked); and the three normalizations.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "fft/fft_test_util.hpp"

namespace ripple::fft::test {
namespace {

struct SizeRange {
  std::size_t first, last;
};

std::string range_name(const ::testing::TestParamInfo<SizeRange>& info) {
  return "N" + std::to_string(info.param.first) + "to" + std::to_string(info.param.last);
}

class C2cEverySize : public ::testing::TestWithParam<SizeRange> {};

/// The worst error seen for one (precision, direction) over the range.
struct Worst {
  double error = 0;
  std::size_t n = 0;
  void add(double e, std::size_t size) {
    if (!(e <= error)) {
      error = e;
      n = size;
    }
  }
};

// Runs the plan for (T, dir) on x and compares with ref; returns the error.
template <class T>
double check_one(std::size_t n, Direction dir, const std::vector<std::complex<T>>& x, const std::vector<cld>& ref) {
  const std::string what = std::string(type_name<T>()) + " " + to_string(dir) + " N=" + std::to_string(n);
  try {
    const Plan plan(c2c_desc(n, precision_of<T>(), dir));
    const auto y = execute_checked<std::complex<T>, std::complex<T>>(plan, x, what);
    L2Error e;
    for (std::size_t k = 0; k < n; ++k) e.add(as_ld(y[k]), ref[k]);
    EXPECT_LE(e.rel(), tolerance<T>()) << what << " (" << plan.describe() << "): " << e.describe();
    return e.rel();
  } catch (const std::exception& ex) {
    ADD_FAILURE() << what << ": threw " << ex.what();
  }
  return std::numeric_limits<double>::quiet_NaN();
}

// One naive DFT per size serves four checks: x (double) is the input of the double forward
// plan and, rounded, of the float one; the backward plans get conj(x), whose backward transform
// is conj(DFT(x)) / N. (The float error so includes the rounding of the input, ~3e-8.)
TEST_P(C2cEverySize, ForwardBackwardFloatDouble) {
  constexpr int kMaxFailingSizes = 20;
  int failing_sizes = 0;
  Worst worst[2][2];  // [double?][backward?]
  for (std::size_t n = GetParam().first; n <= GetParam().last; ++n) {
    const int failures_before = failure_count();
    const std::vector<std::complex<double>> x = random_complex<double>(n, seed_for(n, 10));
    const std::vector<cld> ref = naive_dft(to_ld(x), true);
    std::vector<cld> ref_back(n);
    for (std::size_t k = 0; k < n; ++k) ref_back[k] = std::conj(ref[k]) / static_cast<long double>(n);
    std::vector<std::complex<double>> xc(n);
    std::vector<std::complex<float>> xf(n), xfc(n);
    for (std::size_t i = 0; i < n; ++i) {
      xc[i] = std::conj(x[i]);
      xf[i] = std::complex<float>(x[i]);
      xfc[i] = std::conj(xf[i]);
    }
    worst[1][0].add(check_one<double>(n, Direction::forward, x, ref), n);
    worst[1][1].add(check_one<double>(n, Direction::backward, xc, ref_back), n);
    worst[0][0].add(check_one<float>(n, Direction::forward, xf, ref), n);
    worst[0][1].add(check_one<float>(n, Direction::backward, xfc, ref_back), n);
    if (failure_count() > failures_before && ++failing_sizes >= kMaxFailingSizes) {
      ADD_FAILURE() << "stopping after " << kMaxFailingSizes << " failing sizes";
      return;
    }
  }
  for (int dbl = 0; dbl < 2; ++dbl)
    for (int back = 0; back < 2; ++back)
      std::printf("[   info   ] %s %s N=%zu..%zu: worst relative L2 error %.3g at N=%zu\n", dbl ? "double" : "float",
                  back ? "backward" : "forward", GetParam().first, GetParam().last, worst[dbl][back].error,
                  worst[dbl][back].n);
}

// Ranges of about equal cost (the naive DFT is O(N^2)).
INSTANTIATE_TEST_SUITE_P(Sizes, C2cEverySize,
                         ::testing::Values(SizeRange{1, 512}, SizeRange{513, 645}, SizeRange{646, 738},
                                           SizeRange{739, 813}, SizeRange{814, 876}, SizeRange{877, 930},
                                           SizeRange{931, 980}, SizeRange{981, 1024}),
                         range_name);

// Every normalization, both directions: numpy's scale factors (backward: 1 and 1/N; ortho:
// 1/sqrt(N) both ways; forward: 1/N and 1).
template <class T>
void check_all_norms() {
  for (std::size_t n : {1u, 2u, 3u, 16u, 17u, 100u, 1024u, 1031u, 4096u, 6561u}) {
    for (Norm norm : {Norm::backward, Norm::ortho, Norm::forward}) {
      for (Direction dir : {Direction::forward, Direction::backward}) {
        const PlanDesc d = c2c_desc(n, precision_of<T>(), dir, norm);
        check_layout<T, Kind::c2c>(d, seed_for(n, 20 + static_cast<int>(norm) * 2 + static_cast<int>(dir)));
      }
    }
  }
}

TEST(C2cNorm, FloatAllNormsMatchNumpy) { check_all_norms<float>(); }
TEST(C2cNorm, DoubleAllNormsMatchNumpy) { check_all_norms<double>(); }

// N = 1 is the identity times the scale; N = 2 is (a+b, a-b): exact in any precision.
TEST(C2cTiny, SizeOneAndTwoAreExact) {
  {
    Plan p(c2c_desc(1, Precision::f64, Direction::forward, Norm::ortho));
    const std::vector<std::complex<double>> x{{3.5, -2.25}};
    const auto y = execute_checked<std::complex<double>, std::complex<double>>(p, x, "N=1");
    ASSERT_EQ(y.size(), 1u);
    EXPECT_EQ(y[0], x[0]);
  }
  {
    Plan p(c2c_desc(2, Precision::f32, Direction::backward, Norm::forward));
    const std::vector<std::complex<float>> x{{1.5f, 2.0f}, {0.5f, -1.0f}};
    const auto y = execute_checked<std::complex<float>, std::complex<float>>(p, x, "N=2");
    ASSERT_EQ(y.size(), 2u);
    EXPECT_EQ(y[0], std::complex<float>(2.0f, 1.0f));
    EXPECT_EQ(y[1], std::complex<float>(1.0f, 3.0f));
  }
}

}  // namespace
}  // namespace ripple::fft::test
