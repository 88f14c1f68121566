// Sample types of the signal-processing functions (float, double and their complex forms) and
// numpy's result_type rule over them, shared by every subsystem with numpy/scipy semantics.
#pragma once

#include <complex>
#include <cstddef>
#include <vector>
#include <concepts>
#include <type_traits>

#include "ripple/array.hpp"

namespace ripple {

namespace detail {
template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<std::complex<T>> {
  using type = T;
};
template <class T>
inline constexpr bool is_complex_v = !std::is_same_v<typename real_of<T>::type, T>;
}  // namespace detail

/// Element types ripple filters: float, double and their complex forms.
template <class T>
concept Sample = std::same_as<T, float> || std::same_as<T, double> || std::same_as<T, std::complex<float>> ||
                 std::same_as<T, std::complex<double>>;

/// Element types of views the functions take: a Sample, const or not (views of writable and
/// read-only data are both accepted).
template <class X>
concept SampleElement = Sample<std::remove_const_t<X>>;

/// numpy's result_type over coefficient and sample types: double if any is double, complex if
/// any is complex.
template <class... Ts>
using result_t = std::conditional_t<
    (detail::is_complex_v<Ts> || ...),
    std::complex<std::common_type_t<typename detail::real_of<Ts>::type...>>,
    std::common_type_t<typename detail::real_of<Ts>::type...>>;

namespace detail {
// x as a view of R: the caller's memory when the types agree, else a converted copy in `keep`.
template <Sample R, SampleElement X>
ArrayView<const R> as_view(ArrayView<X> x, Array<R>& keep) {
  if constexpr (std::is_same_v<R, std::remove_const_t<X>>) {
    return ArrayView<const R>(x.data(), x.shape(), x.strides());
  } else {
    keep = Array<R>(x.shape());
    std::vector<std::size_t> index(x.ndim(), 0);
    for (std::size_t i = 0; i < keep.values.size(); ++i) {
      std::ptrdiff_t at = 0;
      for (std::size_t d = 0; d < index.size(); ++d) at += static_cast<std::ptrdiff_t>(index[d]) * x.stride(d);
      keep.values[i] = R(x.data()[at]);
      for (std::size_t d = index.size(); d-- > 0;) {
        if (++index[d] < x.extent(d)) break;
        index[d] = 0;
      }
    }
    return keep.view();
  }
}

}  // namespace detail

}  // namespace ripple
