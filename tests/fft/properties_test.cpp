// FFTW-style property checks (libbench2/verify-lib.c) on random sizes, which need no reference
// transform: linearity, impulse response, time shift, and round trips under every norm.
#include <gtest/gtest.h>

#include <map>
#include <tuple>
#include <vector>

#include "fft/fft_test_util.hpp"

namespace ripple::fft::test {
namespace {

/// Random sizes: mostly small and awkward, some in the thousands, a few large.
std::vector<std::size_t> random_sizes(std::uint64_t salt) {
  Rng rng(seed_for(12345, salt));
  std::vector<std::size_t> sizes;
  for (int i = 0; i < 14; ++i) sizes.push_back(1 + rng.below(300));
  for (int i = 0; i < 6; ++i) sizes.push_back(300 + rng.below(10000));
  for (int i = 0; i < 2; ++i) sizes.push_back(10000 + rng.below(quick_mode() ? 20000 : 100000));
  return sizes;
}

template <class T>
using CVec = std::vector<std::complex<T>>;

/// The plans of one test, made once per (size, direction, norm) and reused.
template <class T>
class Plans {
 public:
  const Plan& get(std::size_t n, Direction dir, Norm norm) {
    const auto key = std::make_tuple(n, dir, norm);
    auto it = plans_.find(key);
    if (it == plans_.end()) it = plans_.emplace(key, Plan(c2c_desc(n, precision_of<T>(), dir, norm))).first;
    return it->second;
  }

 private:
  std::map<std::tuple<std::size_t, Direction, Norm>, Plan> plans_;
};

template <class T>
CVec<T> run(Plans<T>& plans, std::size_t n, Direction dir, const CVec<T>& x, Norm norm = Norm::backward) {
  return execute_checked<std::complex<T>, std::complex<T>>(
      plans.get(n, dir, norm), x,
      std::string("c2c ") + type_name<T>() + " " + to_string(dir) + " N=" + std::to_string(n) + " norm=" + to_string(norm));
}

// F(a x + b y) = a F(x) + b F(y) for complex a, b.
template <class T>
void check_linearity() {
  Plans<T> plans;
  for (std::size_t n : random_sizes(1)) {
    for (Direction dir : {Direction::forward, Direction::backward}) {
      const CVec<T> x = random_complex<T>(n, seed_for(n, 70)), y = random_complex<T>(n, seed_for(n, 71));
      const std::complex<T> a(T(0.75), T(-1.25)), b(T(-0.5), T(0.375));  // exact in float
      CVec<T> z(n);
      for (std::size_t i = 0; i < n; ++i) z[i] = a * x[i] + b * y[i];
      const CVec<T> fx = run<T>(plans, n, dir, x), fy = run<T>(plans, n, dir, y), fz = run<T>(plans, n, dir, z);
      std::vector<cld> expected(n);
      for (std::size_t k = 0; k < n; ++k) expected[k] = as_ld(a) * as_ld(fx[k]) + as_ld(b) * as_ld(fy[k]);
      const double err = rel_l2(fz, expected);
      EXPECT_LE(err, 3 * tolerance<T>()) << type_name<T>() << " " << to_string(dir) << " N=" << n
                                         << ": linearity violated, relative L2 error " << err;
    }
  }
}

TEST(Linearity, Float) { check_linearity<float>(); }
TEST(Linearity, Double) { check_linearity<double>(); }

// A delta of amplitude c at position m transforms to c e^{-+2 pi i k m / N} (unscaled forward,
// scaled by 1/N backward under Norm::backward).
template <class T>
void check_impulse() {
  Plans<T> plans;
  for (std::size_t n : random_sizes(2)) {
    Rng rng(seed_for(n, 72));
    const std::vector<cld> w = ripple::test::unit_roots_ld(n);
    for (Direction dir : {Direction::forward, Direction::backward}) {
      for (int rep = 0; rep < 2; ++rep) {
        const std::size_t m = rep == 0 ? 0 : rng.below(n);
        const std::complex<T> c = rep == 0 ? std::complex<T>(1, 0) : rng.complex<T>();
        CVec<T> x(n);
        x[m] = c;
        const CVec<T> y = run<T>(plans, n, dir, x);
        const long double scale = norm_scale(Norm::backward, dir == Direction::forward, n);
        std::vector<cld> expected(n);
        for (std::size_t k = 0; k < n; ++k) {
          const cld root = w[static_cast<std::size_t>(static_cast<unsigned __int128>(k) * m % n)];
          expected[k] = as_ld(c) * (dir == Direction::forward ? root : std::conj(root)) * scale;
        }
        const double err = rel_l2(y, expected);
        EXPECT_LE(err, tolerance<T>()) << type_name<T>() << " " << to_string(dir) << " N=" << n << " delta at " << m
                                       << ": relative L2 error " << err;
      }
    }
  }
}

TEST(Impulse, Float) { check_impulse<float>(); }
TEST(Impulse, Double) { check_impulse<double>(); }

// Circularly shifting the input by s multiplies bin k by e^{-+2 pi i k s / N}.
template <class T>
void check_time_shift() {
  Plans<T> plans;
  for (std::size_t n : random_sizes(3)) {
    if (n < 2) continue;
    Rng rng(seed_for(n, 73));
    const std::vector<cld> w = ripple::test::unit_roots_ld(n);
    for (Direction dir : {Direction::forward, Direction::backward}) {
      const std::size_t s = 1 + rng.below(n - 1);
      const CVec<T> x = random_complex<T>(n, seed_for(n, 74));
      CVec<T> shifted(n);
      for (std::size_t i = 0; i < n; ++i) shifted[(i + s) % n] = x[i];
      const CVec<T> fx = run<T>(plans, n, dir, x), fs = run<T>(plans, n, dir, shifted);
      std::vector<cld> expected(n);
      for (std::size_t k = 0; k < n; ++k) {
        const cld root = w[static_cast<std::size_t>(static_cast<unsigned __int128>(k) * s % n)];
        expected[k] = as_ld(fx[k]) * (dir == Direction::forward ? root : std::conj(root));
      }
      const double err = rel_l2(fs, expected);
      EXPECT_LE(err, 2 * tolerance<T>()) << type_name<T>() << " " << to_string(dir) << " N=" << n << " shift " << s
                                         << ": relative L2 error " << err;
    }
  }
}

TEST(TimeShift, Float) { check_time_shift<float>(); }
TEST(TimeShift, Double) { check_time_shift<double>(); }

// backward(forward(x)) = x with the same norm on both plans (numpy's ifft(fft(x, norm), norm)),
// and = N x when both plans are unscaled (forward under Norm::backward, backward under
// Norm::forward).
template <class T>
void check_round_trip() {
  Plans<T> plans;
  for (std::size_t n : random_sizes(4)) {
    const CVec<T> x = random_complex<T>(n, seed_for(n, 75));
    const std::vector<cld> x_ld = to_ld(x);
    for (Norm norm : {Norm::backward, Norm::ortho, Norm::forward}) {
      const CVec<T> back = run<T>(plans, n, Direction::backward, run<T>(plans, n, Direction::forward, x, norm), norm);
      const double err = rel_l2(back, x_ld);
      EXPECT_LE(err, 2 * tolerance<T>()) << type_name<T>() << " N=" << n << " norm=" << to_string(norm)
                                         << ": backward(forward(x)) != x, relative L2 error " << err;
    }
    const CVec<T> unscaled =
        run<T>(plans, n, Direction::backward, run<T>(plans, n, Direction::forward, x, Norm::backward), Norm::forward);
    std::vector<cld> nx(n);
    for (std::size_t i = 0; i < n; ++i) nx[i] = x_ld[i] * static_cast<long double>(n);
    const double err = rel_l2(unscaled, nx);
    EXPECT_LE(err, 2 * tolerance<T>()) << type_name<T>() << " N=" << n
                                       << ": unscaled round trip != N x, relative L2 error " << err;
  }
}

TEST(RoundTrip, Float) { check_round_trip<float>(); }
TEST(RoundTrip, Double) { check_round_trip<double>(); }

// Parseval: ||F x||^2 = N ||x||^2 (unscaled), i.e. ortho preserves the norm.
template <class T>
void check_parseval() {
  Plans<T> plans;
  for (std::size_t n : random_sizes(5)) {
    const CVec<T> x = random_complex<T>(n, seed_for(n, 76));
    const CVec<T> y = run<T>(plans, n, Direction::forward, x, Norm::ortho);
    long double ex = 0, ey = 0;
    for (std::size_t i = 0; i < n; ++i) {
      ex += std::norm(as_ld(x[i]));
      ey += std::norm(as_ld(y[i]));
    }
    EXPECT_LE(std::abs(static_cast<double>(ey / ex) - 1.0), 4 * tolerance<T>())
        << type_name<T>() << " N=" << n << ": ortho transform changed the energy by a factor " << static_cast<double>(ey / ex);
  }
}

TEST(Parseval, Float) { check_parseval<float>(); }
TEST(Parseval, Double) { check_parseval<double>(); }

}  // namespace
}  // namespace ripple::fft::test
