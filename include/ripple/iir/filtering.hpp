// IIR filtering with scipy.signal's semantics: sosfilt, sosfilt_zi, sosfiltfilt, lfilter,
// lfilter_zi. Shapes, axis (negative too), zi layout, result precision, default padding and the
// inputs rejected are scipy's, so results can be checked against it.
//
//   ripple::iir::Sos sos = ripple::iir::butter(8, 0.1);            // 4 sections, scipy's design
//   std::vector<float> x = ...;
//   std::vector<double> y = ripple::iir::sosfilt(sos, x);  // double sos, float x: double, as scipy
//
//   // 16 channels in rows, filtered along the last axis, state carried in and out:
//   ripple::ArrayView<const float> rows(data, {16, n});
//   auto zi = ripple::Array<float>({sos.size(), 16, 2});          // (n_sections, ..., 2)
//   auto [y2, zf] = ripple::iir::sosfilt(ripple::iir::SosF(sos), rows, -1, zi.view());
//
// Precision: the result's element type is numpy's result_type of the coefficients, x (and zi):
// float only when all are float; complex when x is complex (filtered as its real and imaginary
// parts). Coefficients are rounded to that type first, exactly as scipy's sos.astype(dtype).
// Long signals are filtered in parallel (SIMD lanes and threads, see docs/ARCHITECTURE.md);
// results equal the serial recurrence to within rounding.
//
// Errors: ripple::InvalidArgument naming the bad value (sos rows with a0 != 1, a zi of the wrong
// shape, an axis out of range, a 0-d x, x not longer than padlen, a[0] == 0, empty b or a).
#pragma once

#include <complex>
#include <concepts>
#include <cstddef>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "ripple/array.hpp"
#include "ripple/sample.hpp"
#include "ripple/iir/sos.hpp"

namespace ripple::iir {

using ripple::result_t;
using ripple::Sample;
using ripple::SampleElement;
namespace detail {
using ripple::detail::is_complex_v;
using ripple::detail::as_view;
using ripple::detail::real_of;
}  // namespace detail

/// A filtered signal and the final filter state (scipy's (y, zf) pair).
template <class T>
struct Filtered {
  Array<T> y;
  Array<T> zf;
};

/// How sosfiltfilt extends the signal at both ends before filtering (scipy's padtype; `none`
/// is padtype=None: no extension).
enum class PadType { odd, even, constant, none };

namespace detail {
// The implementations, for results of type R (real or complex); sos already in real_of<R>.
template <Sample R>
Filtered<R> sosfilt(const BasicSos<typename real_of<R>::type>& sos, ArrayView<const R> x, int axis,
                    const ArrayView<const R>* zi);
template <Sample R>
Array<R> sosfiltfilt(const BasicSos<typename real_of<R>::type>& sos, ArrayView<const R> x, int axis,
                     PadType padtype, std::optional<std::size_t> padlen);
template <Sample R>
Filtered<R> lfilter(std::span<const typename real_of<R>::type> b, std::span<const typename real_of<R>::type> a,
                    ArrayView<const R> x, int axis, const ArrayView<const R>* zi);

template <Sample R, std::floating_point C>
std::vector<typename real_of<R>::type> as_real(std::span<const C> v) {
  return {v.begin(), v.end()};
}
}  // namespace detail

/// Filters x along `axis` through the cascade of second-order sections (scipy.signal.sosfilt).
/// Returns an array of x's shape, C-ordered, of type result_t<S, X>.
template <std::floating_point S, SampleElement X>
Array<result_t<S, std::remove_const_t<X>>> sosfilt(const BasicSos<S>& sos, ArrayView<X> x, int axis = -1) {
  using R = result_t<S, std::remove_const_t<X>>;
  Array<R> keep;
  return detail::sosfilt<R>(BasicSos<typename detail::real_of<R>::type>(sos), detail::as_view<R>(x, keep), axis,
                            nullptr)
      .y;
}

/// sosfilt starting from state zi, shape (n_sections, ..., 2, ...): x's shape with the axis
/// dimension replaced by 2, after a leading n_sections. Returns y and the final state zf (zi's
/// shape). Feed zf back as zi to filter a signal in pieces.
template <std::floating_point S, SampleElement X, SampleElement Z>
Filtered<result_t<S, std::remove_const_t<X>, std::remove_const_t<Z>>> sosfilt(const BasicSos<S>& sos, ArrayView<X> x,
                                                                              int axis, ArrayView<Z> zi) {
  using R = result_t<S, std::remove_const_t<X>, std::remove_const_t<Z>>;
  Array<R> keep_x, keep_zi;
  const ArrayView<const R> zi_r = detail::as_view<R>(zi, keep_zi);
  return detail::sosfilt<R>(BasicSos<typename detail::real_of<R>::type>(sos), detail::as_view<R>(x, keep_x), axis,
                            &zi_r);
}

/// One-dimensional convenience: sosfilt of a vector (a std::vector with ArrayAllocator).
template <std::floating_point S, Sample X>
ArrayStorage<result_t<S, X>> sosfilt(const BasicSos<S>& sos, const std::vector<X>& x) {
  return sosfilt(sos, ArrayView<const X>(x.data(), {x.size()}), -1).values;
}

/// Initial state for sosfilt giving the step response's steady state (scipy.signal.sosfilt_zi):
/// shape (n_sections, 2). Multiply by the first sample to start a signal without a transient.
/// Throws InvalidArgument for an empty sos or a section whose a0 is 0.
template <std::floating_point S>
Array<S> sosfilt_zi(const BasicSos<S>& sos);

/// Forward-backward (zero-phase) filtering along `axis` (scipy.signal.sosfiltfilt): the signal
/// is extended by `padlen` samples at each end (default 3 * (2 * n_sections + 1), less the
/// number of sections whose b2 and a2 are both 0, as scipy) per `padtype`, filtered forward
/// from sosfilt_zi * first sample, backward from sosfilt_zi * last output, and cropped.
/// Throws InvalidArgument when x's axis length is not greater than padlen.
template <std::floating_point S, SampleElement X>
Array<result_t<S, std::remove_const_t<X>>> sosfiltfilt(const BasicSos<S>& sos, ArrayView<X> x, int axis = -1,
                                                       PadType padtype = PadType::odd,
                                                       std::optional<std::size_t> padlen = std::nullopt) {
  using R = result_t<S, std::remove_const_t<X>>;
  Array<R> keep;
  return detail::sosfiltfilt<R>(BasicSos<typename detail::real_of<R>::type>(sos), detail::as_view<R>(x, keep),
                                axis, padtype, padlen);
}

template <std::floating_point S, Sample X>
ArrayStorage<result_t<S, X>> sosfiltfilt(const BasicSos<S>& sos, const std::vector<X>& x,
                                        PadType padtype = PadType::odd,
                                        std::optional<std::size_t> padlen = std::nullopt) {
  return sosfiltfilt(sos, ArrayView<const X>(x.data(), {x.size()}), -1, padtype, padlen).values;
}

/// Direct-form II transposed filter of any order along `axis` (scipy.signal.lfilter):
/// a[0] y[n] = sum b[k] x[n-k] - sum_{k>=1} a[k] y[n-k]. Coefficients are normalized by a[0].
/// Throws InvalidArgument for empty b or a, or a[0] == 0.
template <std::floating_point C, SampleElement X>
Array<result_t<C, std::remove_const_t<X>>> lfilter(std::span<const C> b, std::span<const C> a, ArrayView<X> x,
                                                   int axis = -1) {
  using R = result_t<C, std::remove_const_t<X>>;
  Array<R> keep;
  const auto br = detail::as_real<R>(b), ar = detail::as_real<R>(a);
  return detail::lfilter<R>(br, ar, detail::as_view<R>(x, keep), axis, nullptr).y;
}

/// lfilter from state zi: x's shape with the axis dimension replaced by max(len(a), len(b)) - 1
/// (other dimensions may be 1 and are then broadcast, as scipy). Returns y and zf.
template <std::floating_point C, SampleElement X, SampleElement Z>
Filtered<result_t<C, std::remove_const_t<X>, std::remove_const_t<Z>>> lfilter(std::span<const C> b,
                                                                              std::span<const C> a, ArrayView<X> x,
                                                                              int axis, ArrayView<Z> zi) {
  using R = result_t<C, std::remove_const_t<X>, std::remove_const_t<Z>>;
  Array<R> keep_x, keep_zi;
  const ArrayView<const R> zi_r = detail::as_view<R>(zi, keep_zi);
  const auto br = detail::as_real<R>(b), ar = detail::as_real<R>(a);
  return detail::lfilter<R>(br, ar, detail::as_view<R>(x, keep_x), axis, &zi_r);
}

template <std::floating_point C, Sample X>
ArrayStorage<result_t<C, X>> lfilter(const std::vector<C>& b, const std::vector<C>& a, const std::vector<X>& x) {
  return lfilter(std::span<const C>(b), std::span<const C>(a), ArrayView<const X>(x.data(), {x.size()}), -1)
      .values;
}

/// Steady-state initial conditions of lfilter's step response (scipy.signal.lfilter_zi):
/// max(len(a), len(b)) - 1 values. Leading zeros of a are dropped first, as scipy.
/// Throws InvalidArgument when a has no nonzero coefficient, or b or a is empty.
std::vector<double> lfilter_zi(std::span<const double> b, std::span<const double> a);

}  // namespace ripple::iir
