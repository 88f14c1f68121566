// Shared helpers of the FFT tests: seeded random signals, reference transforms with numpy's
// normalizations, the relative L2 error, tolerances, NaN poisoning of outputs, the checker that
// runs a plan on a (strided, batched) layout and compares it with the long-double reference,
// a watchdog against hangs, and the "throws X naming Y" assertion.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include "common/reference_fft.hpp"
#include "common/quick_mode.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"

namespace ripple::fft::test {

using ripple::test::cld;
using ripple::test::naive_dft;
using ripple::test::reference_dft;

// ---------------------------------------------------------------------------------------------
// Run-time budget

using ripple::test::quick_mode;

// ---------------------------------------------------------------------------------------------
// Tolerances: relative L2 error ||y - ref|| / ||ref|| the library must meet for every size.

template <class T>
constexpr double tolerance();
template <>
constexpr double tolerance<float>() { return 1e-6; }
template <>
constexpr double tolerance<double>() { return 2e-15; }

template <class T>
constexpr Precision precision_of() {
  return std::is_same_v<T, float> ? Precision::f32 : Precision::f64;
}

template <class T>
const char* type_name() {
  return std::is_same_v<T, float> ? "float" : "double";
}

/// GoogleTest name of a test instantiated over sizes: "N<size>".
inline std::string size_name(const ::testing::TestParamInfo<std::size_t>& info) { return "N" + std::to_string(info.param); }

inline const char* to_string(Kind k) { return k == Kind::c2c ? "c2c" : k == Kind::r2c ? "r2c" : "c2r"; }
inline const char* to_string(Direction d) { return d == Direction::forward ? "forward" : "backward"; }
inline const char* to_string(Norm n) {
  return n == Norm::backward ? "backward" : n == Norm::ortho ? "ortho" : "forward";
}

// ---------------------------------------------------------------------------------------------
// Random signals: uniform in [-1, 1), seeded from (size, salt) so every size gets fresh data
// and every run the same data.

inline std::uint64_t seed_for(std::uint64_t n, std::uint64_t salt) {
  std::uint64_t z = n * 0x9E3779B97F4A7C15ull + salt * 0xD1B54A32D192ED03ull + 0x2545F4914F6CDD1Dull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  double uniform() { return dist_(engine_); }
  std::size_t below(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(engine_); }
  template <class T>
  T real() {
    return static_cast<T>(uniform());
  }
  template <class T>
  std::complex<T> complex() {
    const T re = real<T>();
    return {re, real<T>()};
  }

 private:
  std::mt19937_64 engine_;
  std::uniform_real_distribution<double> dist_{-1.0, 1.0};
};

template <class T>
std::vector<std::complex<T>> random_complex(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<std::complex<T>> x(n);
  for (auto& v : x) v = rng.complex<T>();
  return x;
}

template <class T>
std::vector<T> random_real(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<T> x(n);
  for (auto& v : x) v = rng.real<T>();
  return x;
}

template <class T>
std::vector<cld> to_ld(const std::vector<std::complex<T>>& x) {
  std::vector<cld> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = cld(x[i].real(), x[i].imag());
  return y;
}

template <class T>
std::vector<cld> to_ld(const std::vector<T>& x) requires std::is_floating_point_v<T> {
  std::vector<cld> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = cld(x[i], 0);
  return y;
}

// ---------------------------------------------------------------------------------------------
// Reference transforms with numpy's normalizations.

/// The factor numpy applies: Norm::backward scales backward by 1/N, ortho both by 1/sqrt(N),
/// Norm::forward scales forward by 1/N.
inline long double norm_scale(Norm norm, bool forward, std::size_t n) {
  const long double nl = static_cast<long double>(n);
  switch (norm) {
    case Norm::backward: return forward ? 1.0L : 1.0L / nl;
    case Norm::ortho: return 1.0L / std::sqrt(nl);
    case Norm::forward: return forward ? 1.0L / nl : 1.0L;
  }
  return 1.0L;
}

/// Reference c2c transform: the naive DFT for small n, else the fast long-double one (both are
/// accurate to ~1e-18; tests/fft/reference_self_test.cpp checks one against the other).
inline std::vector<cld> ref_c2c(const std::vector<cld>& x, bool forward, Norm norm = Norm::backward) {
  std::vector<cld> y = x.size() <= 64 ? naive_dft(x, forward) : reference_dft(x, forward);
  const long double s = norm_scale(norm, forward, x.size());
  if (s != 1.0L)
    for (auto& v : y) v *= s;
  return y;
}

/// Reference r2c: the first n/2+1 bins of the forward DFT of a real signal.
inline std::vector<cld> ref_r2c(const std::vector<cld>& real_x, Norm norm) {
  std::vector<cld> y = ref_c2c(real_x, true, norm);
  y.resize(real_x.size() / 2 + 1);
  return y;
}

/// Reference c2r of length n from n/2+1 bins, as numpy.fft.irfft: the imaginary parts of X[0]
/// and (even n) X[n/2] are ignored; the rest of the spectrum is the Hermitian extension.
inline std::vector<long double> ref_c2r(const std::vector<cld>& half, std::size_t n, Norm norm) {
  std::vector<cld> full(n);
  const std::size_t h = n / 2 + 1;
  for (std::size_t k = 0; k < h && k < half.size(); ++k) full[k] = half[k];
  full[0] = cld(full[0].real(), 0);
  if (n % 2 == 0) full[n / 2] = cld(full[n / 2].real(), 0);
  for (std::size_t k = 1; k < h; ++k)
    if (n - k >= h) full[n - k] = std::conj(full[k]);
  const std::vector<cld> y = ref_c2c(full, false, norm);
  std::vector<long double> r(n);
  for (std::size_t i = 0; i < n; ++i) r[i] = y[i].real();
  return r;
}

// ---------------------------------------------------------------------------------------------
// Errors

/// Accumulates sum |y - ref|^2 and sum |ref|^2 in long double; rel() is the relative L2 error
/// (NaN if any y was not finite, so `EXPECT_LE(rel, tol)` fails on it).
struct L2Error {
  long double diff2 = 0, ref2 = 0;
  std::size_t nonfinite = 0;
  std::size_t count = 0;

  void add(cld y, cld ref) {
    ++count;
    if (!std::isfinite(y.real()) || !std::isfinite(y.imag())) ++nonfinite;
    diff2 += std::norm(y - ref);
    ref2 += std::norm(ref);
  }
  void add(long double y, long double ref) { add(cld(y, 0), cld(ref, 0)); }
  double rel() const {
    if (nonfinite > 0) return std::numeric_limits<double>::quiet_NaN();
    if (ref2 == 0) return static_cast<double>(std::sqrt(diff2));
    return static_cast<double>(std::sqrt(diff2 / ref2));
  }
  std::string describe() const {
    std::ostringstream s;
    s << "relative L2 error " << rel();
    if (nonfinite > 0) s << " (" << nonfinite << " of " << count << " outputs not finite: unwritten or NaN)";
    return s.str();
  }
};

template <class T>
double rel_l2(const std::complex<T>* y, const std::vector<cld>& ref) {
  L2Error e;
  for (std::size_t i = 0; i < ref.size(); ++i) e.add(cld(y[i].real(), y[i].imag()), ref[i]);
  return e.rel();
}

inline double rel_l2(const std::vector<cld>& y, const std::vector<cld>& ref) {
  L2Error e;
  for (std::size_t i = 0; i < ref.size(); ++i) e.add(y[i], ref[i]);
  return e.rel();
}

template <class T>
double rel_l2(const std::vector<std::complex<T>>& y, const std::vector<cld>& ref) {
  if (y.size() != ref.size()) return std::numeric_limits<double>::infinity();
  return rel_l2(y.data(), ref);
}

template <class T>
double rel_l2(const std::vector<T>& y, const std::vector<long double>& ref) requires std::is_floating_point_v<T> {
  if (y.size() != ref.size()) return std::numeric_limits<double>::infinity();
  L2Error e;
  for (std::size_t i = 0; i < ref.size(); ++i) e.add(static_cast<long double>(y[i]), ref[i]);
  return e.rel();
}

// ---------------------------------------------------------------------------------------------
// Poisoning: outputs start as NaN so unwritten elements show up; elements outside the layout
// hold a sentinel that must survive bit for bit.

template <class T>
constexpr T nan_value() {
  return std::numeric_limits<T>::quiet_NaN();
}

template <class T>
void poison(std::complex<T>& v) {
  v = {nan_value<T>(), nan_value<T>()};
}
template <class T>
void poison(T& v) requires std::is_floating_point_v<T> {
  v = nan_value<T>();
}

template <class T>
void set_sentinel(std::complex<T>& v) {
  v = {T(-1234.5), T(9876.25)};
}
template <class T>
void set_sentinel(T& v) requires std::is_floating_point_v<T> {
  v = T(-1234.5);
}

template <class V>
bool same_bits(const V& a, const V& b) {
  return std::memcmp(&a, &b, sizeof(V)) == 0;
}

template <class T>
cld as_ld(const std::complex<T>& v) {
  return {v.real(), v.imag()};
}
template <class T>
cld as_ld(T v) requires std::is_floating_point_v<T> {
  return {v, 0};
}

// ---------------------------------------------------------------------------------------------
// Layouts

/// One side of a plan's layout, resolved: element i of transform b at b * dist + i * stride, or
/// with two levels of batch (inner > 0: the lines of an N-D axis, as the GPU plans take them),
/// b = (o, j) = (b / inner, b % inner) at o * dist_outer + j * dist + i * stride.
struct Side {
  std::size_t count = 0;  // elements per transform
  std::size_t batch = 1;
  std::size_t stride = 1;
  std::size_t dist = 0;
  std::size_t inner = 0;  // transforms per outer index (0: one level)
  std::size_t dist_outer = 0;
  // An embedding (PlanDesc::in_embed / out_embed): the side's shape and the element distances
  // of its axes in the embedding; empty: packed, i is the position.
  std::vector<std::size_t> shape, pitch;

  std::size_t position(std::size_t i) const {
    if (pitch.empty()) return i;
    std::size_t at = 0;
    for (std::size_t a = shape.size(); a-- > 0;) {
      at += i % shape[a] * pitch[a];
      i /= shape[a];
    }
    return at;
  }
  std::size_t at(std::size_t b, std::size_t i) const {
    const std::size_t e = position(i) * stride;
    return inner == 0 ? b * dist + e : b / inner * dist_outer + b % inner * dist + e;
  }
  /// Elements the layout spans: the largest index plus one (the last transform's last element:
  /// no level's distance is smaller than what the levels below it span).
  std::size_t span() const { return at(batch - 1, count - 1) + 1; }
  std::vector<char> mask(std::size_t size) const {
    std::vector<char> m(size, 0);
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t i = 0; i < count; ++i) m[at(b, i)] = 1;
    return m;
  }
};

/// Sizes of one side of a plan: the shape, with the last axis n/2+1 on the half-spectrum side
/// (c2r input, r2c output), as numpy's rfftn.
inline std::vector<std::size_t> side_shape(const PlanDesc& d, bool half_spectrum) {
  std::vector<std::size_t> s = d.shape;
  if (half_spectrum && !s.empty()) s.back() = s.back() / 2 + 1;
  return s;
}

inline std::size_t product(const std::vector<std::size_t>& v) {
  std::size_t p = 1;
  for (std::size_t x : v) p *= x;
  return p;
}

// The layout of one side: element i (row-major index in the side's shape) of transform b at
// b * dist + i * stride.
inline Side side_of(const PlanDesc& d, bool half_spectrum, std::ptrdiff_t stride, std::ptrdiff_t dist,
                    const std::vector<std::size_t>& embed = {}) {
  Side s;
  s.count = product(side_shape(d, half_spectrum));
  s.batch = d.batch;
  s.stride = static_cast<std::size_t>(stride);
  std::size_t holds = s.count;  // elements of the embedding
  if (!embed.empty()) {
    s.shape = side_shape(d, half_spectrum);
    s.pitch.assign(embed.size(), 1);
    for (std::size_t a = embed.size() - 1; a-- > 0;) s.pitch[a] = s.pitch[a + 1] * embed[a + 1];
    holds = product(embed);
  }
  s.dist = dist == 0 ? s.stride * holds : static_cast<std::size_t>(dist);
  return s;
}
inline Side input_side(const PlanDesc& d) {
  return side_of(d, d.kind == Kind::c2r, d.in_stride, d.in_dist, d.in_embed);
}
inline Side output_side(const PlanDesc& d) {
  return side_of(d, d.kind == Kind::r2c, d.out_stride, d.out_dist, d.out_embed);
}

inline std::string describe(const PlanDesc& d) {
  std::ostringstream s;
  s << to_string(d.kind) << " N=";
  for (std::size_t a = 0; a < d.shape.size(); ++a) s << (a ? "x" : "") << d.shape[a];
  s << " batch=" << d.batch
    << " " << (d.precision == Precision::f32 ? "float" : "double");
  if (d.kind == Kind::c2c) s << " " << to_string(d.direction);
  s << " norm=" << to_string(d.norm) << " in_stride=" << d.in_stride << " in_dist=" << d.in_dist
    << " out_stride=" << d.out_stride << " out_dist=" << d.out_dist << " threads=" << d.threads;
  for (const auto& [name, embed] : {std::pair{"in_embed", &d.in_embed}, std::pair{"out_embed", &d.out_embed}}) {
    if (embed->empty()) continue;
    s << " " << name << "=";
    for (std::size_t a = 0; a < embed->size(); ++a) s << (a ? "x" : "") << (*embed)[a];
  }
  return s.str();
}

inline PlanDesc c2c_desc(std::size_t n, Precision p, Direction dir, Norm norm = Norm::backward,
                         std::size_t batch = 1) {
  PlanDesc d;
  d.shape = {n};
  d.batch = batch;
  d.kind = Kind::c2c;
  d.precision = p;
  d.direction = dir;
  d.norm = norm;
  return d;
}

inline PlanDesc real_desc(Kind kind, std::size_t n, Precision p, Norm norm = Norm::backward,
                          std::size_t batch = 1) {
  PlanDesc d;
  d.shape = {n};
  d.batch = batch;
  d.kind = kind;
  d.precision = p;
  d.direction = kind == Kind::c2r ? Direction::backward : Direction::forward;
  d.norm = norm;
  return d;
}

// ---------------------------------------------------------------------------------------------
// The layout checker: builds the plan, fills the input layout with random data (gaps of the
// input with NaN, which must not be read), poisons the output layout with NaN and its gaps
// with a sentinel, executes, and checks every transform against the reference, that gaps and
// guard elements kept their sentinel, and (out of place) that the input is unchanged.

struct CheckResult {
  double worst_error = 0;  // worst relative L2 error over the transforms of the batch
  std::size_t worst_batch = 0;
  std::size_t clobbered = 0;  // elements outside the layout that were written
  std::size_t first_clobbered = 0;
};

namespace detail {

// Fills the input value at a layout position with a fresh random value and returns it exactly.
template <class T>
cld fill_random(Rng& rng, std::complex<T>& v) {
  v = rng.complex<T>();
  return as_ld(v);
}
template <class T>
cld fill_random(Rng& rng, T& v) requires std::is_floating_point_v<T> {
  v = rng.real<T>();
  return as_ld(v);
}

}  // namespace detail

/// Element types of a plan's input and output for precision T.
template <class T, Kind K>
struct Types;
template <class T>
struct Types<T, Kind::c2c> {
  using In = std::complex<T>;
  using Out = std::complex<T>;
};
template <class T>
struct Types<T, Kind::r2c> {
  using In = T;
  using Out = std::complex<T>;
};
template <class T>
struct Types<T, Kind::c2r> {
  using In = std::complex<T>;
  using Out = T;
};

/// Applies `line` (a transform of a vector) to every line along `axis` of the row-major array x
/// of shape `shape`; the lines may change length (to new_len), giving the new array.
template <class Line>
std::vector<cld> along_axis(const std::vector<cld>& x, std::vector<std::size_t>& shape, std::size_t axis,
                            std::size_t new_len, const Line& line) {
  std::size_t inner = 1, outer = 1;
  for (std::size_t a = axis + 1; a < shape.size(); ++a) inner *= shape[a];
  for (std::size_t a = 0; a < axis; ++a) outer *= shape[a];
  const std::size_t n = shape[axis];
  std::vector<cld> y(outer * new_len * inner), v(n);
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t c = 0; c < inner; ++c) {
      for (std::size_t e = 0; e < n; ++e) v[e] = x[(o * n + e) * inner + c];
      const std::vector<cld> w = line(v);
      for (std::size_t e = 0; e < new_len; ++e) y[(o * new_len + e) * inner + c] = w[e];
    }
  shape[axis] = new_len;
  return y;
}

/// Separable multi-dimensional reference with numpy's semantics: fftn / ifftn (c2c), rfftn
/// (the full forward transform, last axis cut to n/2+1), irfftn (ifft along every axis but the
/// last, then irfft along it), scaled by the norm over all of prod(shape).
inline std::vector<cld> reference_nd(const PlanDesc& d, std::vector<cld> x) {
  const bool forward = d.kind == Kind::r2c || (d.kind == Kind::c2c && d.direction == Direction::forward);
  std::vector<std::size_t> shape = side_shape(d, d.kind == Kind::c2r);
  const std::size_t rank = shape.size();
  // Unscaled lines: Norm::backward leaves forward transforms alone, Norm::forward backward ones.
  const auto c2c_line = [forward](const std::vector<cld>& v) {
    return ref_c2c(v, forward, forward ? Norm::backward : Norm::forward);
  };
  const auto bwd_line = [](const std::vector<cld>& v) { return ref_c2c(v, false, Norm::forward); };
  if (d.kind == Kind::c2r) {
    for (std::size_t a = 0; a + 1 < rank; ++a) x = along_axis(x, shape, a, shape[a], bwd_line);
    const std::size_t n = d.shape.back();
    x = along_axis(x, shape, rank - 1, n, [n](const std::vector<cld>& v) {
      const std::vector<long double> r = ref_c2r(v, n, Norm::forward);
      return std::vector<cld>(r.begin(), r.end());
    });
  } else {
    for (std::size_t a = 0; a < rank; ++a) x = along_axis(x, shape, a, shape[a], c2c_line);
    if (d.kind == Kind::r2c) {
      const std::size_t h = shape.back() / 2 + 1;
      x = along_axis(x, shape, rank - 1, h, [](const std::vector<cld>& v) { return v; });
    }
  }
  const long double s = norm_scale(d.norm, forward, product(d.shape));
  for (auto& v : x) v *= s;
  return x;
}

/// numpy's axes argument normalized: negative ones counted from the end, none meaning all.
inline std::vector<std::size_t> normalized_axes(const std::vector<int>& axes, std::size_t ndim) {
  std::vector<std::size_t> out;
  if (axes.empty())
    for (std::size_t a = 0; a < ndim; ++a) out.push_back(a);
  for (int a : axes) out.push_back(a < 0 ? std::size_t(int(ndim) + a) : std::size_t(a));
  return out;
}

/// numpy.fft.fftn / ifftn over `axes` (normalized) of the row-major array of `shape`, in long
/// double: unscaled lines along each axis, then the norm over the product of the transformed sizes.
inline std::vector<cld> ref_fftn(std::vector<cld> x, std::vector<std::size_t> shape,
                                 const std::vector<std::size_t>& axes, bool forward, Norm norm) {
  std::size_t count = 1;
  for (std::size_t a : axes) {
    count *= shape[a];
    x = along_axis(x, shape, a, shape[a], [forward](const std::vector<cld>& v) {
      return ref_c2c(v, forward, forward ? Norm::backward : Norm::forward);
    });
  }
  const long double s = norm_scale(norm, forward, count);
  for (auto& v : x) v *= s;
  return x;
}

/// numpy.fft.rfftn of the reals x: the full forward transform, the real axis (axes.back()) cut
/// to m/2+1.
inline std::vector<cld> ref_rfftn(const std::vector<cld>& x, std::vector<std::size_t> shape,
                                  const std::vector<std::size_t>& axes, Norm norm) {
  const std::size_t real_axis = axes.back();
  const std::size_t h = shape[real_axis] / 2 + 1;
  std::vector<cld> y = ref_fftn(x, shape, axes, true, norm);
  return along_axis(y, shape, real_axis, h, [](const std::vector<cld>& v) { return v; });
}

/// numpy.fft.irfftn of the half spectrum h (of `half_shape`) to n reals along the real axis
/// (axes.back(); its input cut or zero-padded to n/2+1): ifft along the other axes, then irfft.
inline std::vector<long double> ref_irfftn(const std::vector<cld>& h, std::vector<std::size_t> half_shape,
                                           const std::vector<std::size_t>& axes, std::size_t n, Norm norm) {
  const std::size_t real_axis = axes.back();
  std::vector<cld> back = h;
  std::size_t count = n;
  for (std::size_t a : axes)
    if (a != real_axis) {
      count *= half_shape[a];
      back = along_axis(back, half_shape, a, half_shape[a],
                        [](const std::vector<cld>& v) { return ref_c2c(v, false, Norm::forward); });
    }
  back = along_axis(back, half_shape, real_axis, n, [n](const std::vector<cld>& v) {
    std::vector<cld> cut(n / 2 + 1);
    std::copy_n(v.begin(), std::min(v.size(), cut.size()), cut.begin());
    const std::vector<long double> t = ref_c2r(cut, n, Norm::forward);
    return std::vector<cld>(t.begin(), t.end());
  });
  const long double scale = norm_scale(norm, false, count);
  std::vector<long double> r(back.size());
  for (std::size_t i = 0; i < back.size(); ++i) r[i] = back[i].real() * scale;
  return r;
}

/// Computes the expected output of one transform of `d` for input `x` (long double).
inline std::vector<cld> expected_output(const PlanDesc& d, const std::vector<cld>& x) {
  if (d.shape.size() > 1) return reference_nd(d, x);
  const std::size_t n = d.shape[0];
  switch (d.kind) {
    case Kind::c2c: return ref_c2c(x, d.direction == Direction::forward, d.norm);
    case Kind::r2c: return ref_r2c(x, d.norm);
    case Kind::c2r: {
      const std::vector<long double> r = ref_c2r(x, n, d.norm);
      std::vector<cld> y(n);
      for (std::size_t i = 0; i < n; ++i) y[i] = cld(r[i], 0);
      return y;
    }
  }
  return {};
}

/// Runs `d` (precision T, kind K) out of place or in place on the layout and checks it.
/// Guard elements are placed before and after the output span. Adds gtest failures itself and
/// returns the measurements.
template <class T, Kind K>
CheckResult check_layout_unguarded(const PlanDesc& d, std::uint64_t seed, bool in_place) {
  using InT = typename Types<T, K>::In;
  using OutT = typename Types<T, K>::Out;
  CheckResult result;
  const Side in_side = input_side(d), out_side = output_side(d);
  const std::string what = describe(d) + (in_place ? " in-place" : " out-of-place");

  Plan plan(d);
  EXPECT_EQ(plan.input_span(), in_side.span()) << what;
  EXPECT_EQ(plan.output_span(), out_side.span()) << what;

  constexpr std::size_t kGuard = 7;  // elements of OutT before and after the span
  Rng rng(seed);
  std::vector<std::vector<cld>> inputs(d.batch, std::vector<cld>(in_side.count));

  std::vector<OutT> out_buf;
  std::vector<InT> in_buf;
  OutT* out = nullptr;
  const InT* in = nullptr;
  std::vector<char> keep_mask;  // positions (of OutT) that must keep their sentinel

  if (!in_place) {
    in_buf.resize(in_side.span());
    for (auto& v : in_buf) poison(v);
    for (std::size_t b = 0; b < d.batch; ++b)
      for (std::size_t i = 0; i < in_side.count; ++i)
        inputs[b][i] = detail::fill_random(rng, in_buf[in_side.at(b, i)]);
    out_buf.resize(out_side.span() + 2 * kGuard);
    for (auto& v : out_buf) set_sentinel(v);
    out = out_buf.data() + kGuard;
    for (std::size_t b = 0; b < d.batch; ++b)
      for (std::size_t i = 0; i < out_side.count; ++i) poison(out[out_side.at(b, i)]);
    keep_mask.assign(out_buf.size(), 1);
    const std::vector<char> m = out_side.mask(out_side.span());
    for (std::size_t i = 0; i < m.size(); ++i)
      if (m[i]) keep_mask[kGuard + i] = 0;
    in = in_buf.data();
  } else {
    // One buffer of complex<T> viewed as InT and OutT.
    const std::size_t bytes = std::max(in_side.span() * sizeof(InT), out_side.span() * sizeof(OutT));
    const std::size_t n_out = (bytes + sizeof(OutT) - 1) / sizeof(OutT);
    out_buf.resize(n_out + 2 * kGuard);
    for (auto& v : out_buf) set_sentinel(v);
    out = out_buf.data() + kGuard;
    for (std::size_t b = 0; b < d.batch; ++b)
      for (std::size_t i = 0; i < out_side.count; ++i) poison(out[out_side.at(b, i)]);
    InT* in_w = reinterpret_cast<InT*>(out);
    for (std::size_t b = 0; b < d.batch; ++b)
      for (std::size_t i = 0; i < in_side.count; ++i)
        inputs[b][i] = detail::fill_random(rng, in_w[in_side.at(b, i)]);
    // Keep: guards, and positions touched by neither the input nor the output layout.
    keep_mask.assign(out_buf.size(), 1);
    const std::vector<char> mo = out_side.mask(out_side.span());
    for (std::size_t i = 0; i < mo.size(); ++i)
      if (mo[i]) keep_mask[kGuard + i] = 0;
    const std::vector<char> mi = in_side.mask(in_side.span());
    for (std::size_t i = 0; i < mi.size(); ++i) {
      if (!mi[i]) continue;
      const std::size_t first = i * sizeof(InT) / sizeof(OutT), last = ((i + 1) * sizeof(InT) - 1) / sizeof(OutT);
      for (std::size_t j = first; j <= last; ++j) keep_mask[kGuard + j] = 0;
    }
    in = in_w;
  }
  std::vector<InT> in_before = in_buf;
  std::vector<OutT> sentinel_copy = out_buf;

  plan.execute(in, out);

  for (std::size_t b = 0; b < d.batch; ++b) {
    const std::vector<cld> ref = expected_output(d, inputs[b]);
    L2Error e;
    for (std::size_t i = 0; i < out_side.count; ++i) e.add(as_ld(out[out_side.at(b, i)]), ref[i]);
    const double err = e.rel();
    if (!std::isnan(result.worst_error) && !(err <= result.worst_error)) {  // a NaN sticks
      result.worst_error = err;
      result.worst_batch = b;
    }
    EXPECT_LE(err, tolerance<T>()) << what << ": transform " << b << " of " << d.batch << ": " << e.describe();
  }
  for (std::size_t i = 0; i < out_buf.size(); ++i) {
    if (keep_mask[i] && !same_bits(out_buf[i], sentinel_copy[i])) {
      if (result.clobbered++ == 0) result.first_clobbered = i;
    }
  }
  EXPECT_EQ(result.clobbered, 0u) << what << ": elements outside the output layout were written; first at "
                                  << (static_cast<std::ptrdiff_t>(result.first_clobbered) -
                                      static_cast<std::ptrdiff_t>(kGuard))
                                  << " (relative to out)";
  if (!in_place) {
    std::size_t changed = 0;
    for (std::size_t i = 0; i < in_buf.size(); ++i) changed += !same_bits(in_buf[i], in_before[i]);
    EXPECT_EQ(changed, 0u) << what << ": the (const) input buffer was modified";
  }
  return result;
}

/// check_layout_unguarded, reporting an exception as a failure naming the case.
template <class T, Kind K>
CheckResult check_layout(const PlanDesc& d, std::uint64_t seed, bool in_place = false) {
  try {
    return check_layout_unguarded<T, K>(d, seed, in_place);
  } catch (const std::exception& e) {
    ADD_FAILURE() << describe(d) << (in_place ? " in-place" : "") << ": threw " << e.what();
  }
  CheckResult r;
  r.worst_error = std::numeric_limits<double>::quiet_NaN();
  return r;
}

/// Number of failures recorded so far by the running test.
inline int failure_count() {
  return ::testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count();
}

/// The bookkeeping of a sweep over sizes: the worst error and its size, and a stop once
/// `max_failing_sizes` sizes have failed (a broken kernel then reports a few, not hundreds).
class SizeSweep {
 public:
  explicit SizeSweep(int max_failing_sizes) : max_failing_sizes_(max_failing_sizes) {}
  /// Call before checking a size.
  void begin() { failures_before_ = failure_count(); }
  /// Records the size's error; false (with a failure saying so) once too many sizes failed.
  bool end(std::size_t n, double error) {
    if (!(error <= worst_)) {
      worst_ = error;
      worst_n_ = n;
    }
    if (failure_count() > failures_before_ && ++failing_sizes_ >= max_failing_sizes_) {
      ADD_FAILURE() << "stopping after " << max_failing_sizes_ << " failing sizes";
      return false;
    }
    return true;
  }
  double worst() const { return worst_; }
  std::size_t worst_n() const { return worst_n_; }

 private:
  int max_failing_sizes_;
  int failing_sizes_ = 0;
  int failures_before_ = 0;
  double worst_ = 0;
  std::size_t worst_n_ = 0;
};

/// Executes a plan out of place on packed buffers: the output (output_span() elements) is
/// poisoned with NaN and guarded on both sides by sentinels, which are checked afterwards, as
/// is that the input was left unchanged. Returns the output.
template <class InT, class OutT>
std::vector<OutT> execute_checked(const Plan& plan, const std::vector<InT>& in, const std::string& what) {
  constexpr std::size_t kGuard = 5;
  EXPECT_GE(in.size(), plan.input_span()) << what;
  std::vector<OutT> buf(plan.output_span() + 2 * kGuard);
  for (auto& v : buf) set_sentinel(v);
  for (std::size_t i = kGuard; i < buf.size() - kGuard; ++i) poison(buf[i]);
  std::vector<InT> in_work = in;  // a non-const copy, so that writes to it would show
  plan.execute(in_work.data(), buf.data() + kGuard);
  std::size_t changed = 0;
  for (std::size_t i = 0; i < in.size(); ++i) changed += !same_bits(in_work[i], in[i]);
  EXPECT_EQ(changed, 0u) << what << ": the (const) input buffer was modified";
  OutT sentinel;
  set_sentinel(sentinel);
  std::size_t clobbered = 0;
  for (std::size_t i = 0; i < kGuard; ++i) {
    clobbered += !same_bits(buf[i], sentinel);
    clobbered += !same_bits(buf[buf.size() - 1 - i], sentinel);
  }
  EXPECT_EQ(clobbered, 0u) << what << ": wrote outside [out, out + output_span())";
  return std::vector<OutT>(buf.begin() + kGuard, buf.end() - kGuard);
}

/// check_layout for a plan whose kind is only known at run time.
template <class T>
CheckResult check_layout_any(const PlanDesc& d, std::uint64_t seed, bool in_place = false) {
  switch (d.kind) {
    case Kind::c2c: return check_layout<T, Kind::c2c>(d, seed, in_place);
    case Kind::r2c: return check_layout<T, Kind::r2c>(d, seed, in_place);
    case Kind::c2r: return check_layout<T, Kind::c2r>(d, seed, in_place);
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Hangs

/// Ends the process with a message if it is still alive `seconds` after construction: a call
/// that should fail fast (e.g. validation of an absurd size) must not hang the whole suite.
class Watchdog {
 public:
  Watchdog(double seconds, std::string what) : what_(std::move(what)) {
    thread_ = std::thread([this, seconds] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; })) {
        std::fprintf(stderr, "\nFAILURE (watchdog): %s did not finish within %.0f s; aborting the test process\n",
                     what_.c_str(), seconds);
        std::fflush(stderr);
        std::_Exit(3);
      }
    });
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::string what_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// ---------------------------------------------------------------------------------------------
// Exceptions

inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// Asserts that f() throws exactly an E (or a subclass) whose what() contains one of `words`
/// (case-insensitive). `what_case` says which call it was.
template <class E, class F>
void expect_throw_naming(F&& f, std::initializer_list<std::string_view> words, const std::string& what_case) {
  std::string expected;
  for (std::string_view w : words) expected += (expected.empty() ? "\"" : " or \"") + std::string(w) + "\"";
  try {
    f();
    ADD_FAILURE() << what_case << ": no exception thrown; expected one naming " << expected;
  } catch (const E& e) {
    const std::string msg = lower(e.what());
    bool found = false;
    for (std::string_view w : words) found = found || msg.find(lower(std::string(w))) != std::string::npos;
    EXPECT_TRUE(found) << what_case << ": message \"" << e.what() << "\" does not name " << expected;
  } catch (const ripple::Error& e) {
    ADD_FAILURE() << what_case << ": threw the wrong ripple::Error subclass: " << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << what_case << ": threw a non-ripple exception: " << e.what();
  }
}

}  // namespace ripple::fft::test
