// Real transforms short enough that all their points fit one vector, by their DFT matrix (see
// cpu::RealDirectArgs): each input value is broadcast and multiplied into a whole row of
// outputs, so an r2c of 15 floats on AVX-512 is 30 multiply-adds and no shuffles, where the
// full-size complex transform it took before ran a chain of dependent passes.
// Compiled once per Highway target (cpu/fft_kernels.cpp).

// Per-target include guard (Highway's convention for -inl.h files).
#if defined(RIPPLE_CPU_FFT_REAL_DIRECT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef RIPPLE_CPU_FFT_REAL_DIRECT_INL_H_
#undef RIPPLE_CPU_FFT_REAL_DIRECT_INL_H_
#else
#define RIPPLE_CPU_FFT_REAL_DIRECT_INL_H_
#endif

#include <complex>
#include <cstddef>

#include "cpu/fft_kernels.hpp"
#include "cpu/fft_lane_kernels-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Four independent sums: one chain of n multiply-adds would wait on each one's latency, and
// split four ways the rounding errors add up as a shallower tree.
template <class D>
struct FourSums {
  using V = hn::Vec<D>;
  V s0, s1, s2, s3;
  explicit FourSums(D d) : s0(hn::Zero(d)), s1(hn::Zero(d)), s2(hn::Zero(d)), s3(hn::Zero(d)) {}
  HWY_INLINE V total() const { return hn::Add(hn::Add(s0, s1), hn::Add(s2, s3)); }
};

// Row r of the matrix (RealDirectArgs::table), one vector.
template <class D>
struct MatrixRows {
  D d;
  const hn::TFromD<D>* table;
  HWY_INLINE hn::Vec<D> operator()(std::size_t r) const { return hn::Load(d, table + r * hn::Lanes(d)); }
};

// Input i is broadcast and multiplied into its row (RealDirectArgs::table), which holds the
// outputs X[k], k <= n/2, as (re, im) pairs: the sums come out interleaved as X is stored, one
// multiply-add per input. For n = 2W the n + 2 values would take two vectors, one of them for
// X[n/2] alone; X[n/2] is real, and X[0] too, so the row packs Re X[n/2] into the place of
// Im X[0] (kPacked), and the store unpacks it.
template <bool kPacked, class D>
HWY_INLINE void RealDirectR2cRows(D d, const RealDirectArgs<hn::TFromD<D>>& a) {
  using T = hn::TFromD<D>;
  using V = hn::Vec<D>;
  const std::size_t n = a.n, outputs = n / 2 + 1;
  const MatrixRows<D> row{d, a.table};
  const V scale = hn::Set(d, a.scale);
  const bool scaled = a.scale != T(1);
  const std::size_t stored = kPacked ? n : 2 * outputs;  // values of the outputs in the vector
  const auto lane1 = hn::Eq(hn::Iota(d, 0), hn::Set(d, T(1)));
  HWY_ALIGN T tile[hn::MaxLanes(d)];
  for (std::size_t b = 0; b < a.batch; ++b) {
    const T* x = static_cast<const T*>(a.src) + std::ptrdiff_t(b) * a.src_dist;
    FourSums<D> sum(d);
    const auto add = [&](std::size_t i, V& part) HWY_ATTR {
      part = hn::MulAdd(hn::Set(d, x[std::ptrdiff_t(i) * a.src_stride]), row(i), part);
    };
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      add(i, sum.s0);
      add(i + 1, sum.s1);
      add(i + 2, sum.s2);
      add(i + 3, sum.s3);
    }
    for (; i < n; ++i) add(i, sum.s0);
    V y = sum.total();
    if (scaled) y = hn::Mul(y, scale);  // most r2c calls are not: a multiply less on the critical path
    T last_re = 0;                      // Re X[n/2] when packed
    if constexpr (kPacked) {
      last_re = hn::GetLane(hn::Reverse2(d, y));
      y = hn::IfThenZeroElse(lane1, y);
    }
    auto* out = static_cast<std::complex<T>*>(a.dst) + std::ptrdiff_t(b) * a.dst_dist;
    if (a.dst_stride == 1) {
      // Stored straight: through a stack tile, the reloads of its values waited for the
      // tile's wide store (a call of n = 1 took 17 against 14.3 ns).
      StoreFirstLanes(d, y, stored, reinterpret_cast<T*>(out));
    } else {
      hn::Store(y, d, tile);
      for (std::size_t k = 0; k < outputs - (kPacked ? 1 : 0); ++k)
        out[std::ptrdiff_t(k) * a.dst_stride] = {tile[2 * k], tile[2 * k + 1]};
    }
    if constexpr (kPacked) out[std::ptrdiff_t(outputs - 1) * a.dst_stride] = {last_re, T(0)};
  }
}

template <class T>
void RealDirectR2c(const RealDirectArgs<T>& a) {
  const hn::ScalableTag<T> d;
  if (2 * (a.n / 2 + 1) > hn::Lanes(d)) return RealDirectR2cRows<true>(d, a);
  RealDirectR2cRows<false>(d, a);
}

template <class T>
void RealDirectC2r(const RealDirectArgs<T>& a) {
  const hn::ScalableTag<T> d;
  const std::size_t L = hn::Lanes(d), n = a.n, inputs = n / 2 + 1;
  const MatrixRows<decltype(d)> row{d, a.table};
  const auto scale = hn::Set(d, a.scale);
  // Bins whose imaginary part is ignored, as numpy does: 0, and n/2 for even n (their rows
  // of sines are zero, but an infinite or NaN part times zero would still be NaN).
  const std::size_t last_with_sines = n % 2 == 0 ? inputs - 2 : inputs - 1;
  HWY_ALIGN T tile[hn::MaxLanes(d)];
  for (std::size_t b = 0; b < a.batch; ++b) {
    const auto* x = static_cast<const std::complex<T>*>(a.src) + std::ptrdiff_t(b) * a.src_dist;
    const auto at = [x, &a](std::size_t k) { return x[std::ptrdiff_t(k) * a.src_stride]; };
    // Row 2k holds c_k Re w_n^{jk} over j, row 2k + 1 c_k Im w_n^{jk} (see RealDirectArgs).
    FourSums<decltype(d)> sum(d);
    sum.s0 = hn::Mul(hn::Set(d, at(0).real()), row(0));
    std::size_t k = 1;
    for (; k + 2 <= last_with_sines + 1; k += 2) {
      const std::complex<T> x0 = at(k), x1 = at(k + 1);
      sum.s0 = hn::MulAdd(hn::Set(d, x0.real()), row(2 * k), sum.s0);
      sum.s1 = hn::MulAdd(hn::Set(d, x0.imag()), row(2 * k + 1), sum.s1);
      sum.s2 = hn::MulAdd(hn::Set(d, x1.real()), row(2 * k + 2), sum.s2);
      sum.s3 = hn::MulAdd(hn::Set(d, x1.imag()), row(2 * k + 3), sum.s3);
    }
    for (; k <= last_with_sines; ++k) {
      const std::complex<T> xk = at(k);
      sum.s0 = hn::MulAdd(hn::Set(d, xk.real()), row(2 * k), sum.s0);
      sum.s1 = hn::MulAdd(hn::Set(d, xk.imag()), row(2 * k + 1), sum.s1);
    }
    for (; k < inputs; ++k) sum.s2 = hn::MulAdd(hn::Set(d, at(k).real()), row(2 * k), sum.s2);
    const auto x_out = hn::Mul(sum.total(), scale);
    T* out = static_cast<T*>(a.dst) + std::ptrdiff_t(b) * a.dst_dist;
    if (a.dst_stride == 1 && n == L) {
      hn::StoreU(x_out, d, out);
    } else {
      hn::Store(x_out, d, tile);
      for (std::size_t j = 0; j < n; ++j) out[std::ptrdiff_t(j) * a.dst_stride] = tile[j];
    }
  }
}

}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
