// lfilter and lfilter_zi with scipy.signal's rules: direct form II transposed of any order,
// coefficients normalized by a[0], zi of shape x.shape with the axis length max(len(a),
// len(b)) - 1 (other dimensions of length 1 broadcast).
#include <algorithm>
#include <cmath>
#include <string>

#include "core/thread_pool.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/error.hpp"
#include "ripple/runtime.hpp"

namespace ripple::iir {
namespace detail {
namespace {

std::string values_text(std::span<const double> v) {
  std::string text = "[";
  for (std::size_t i = 0; i < v.size(); ++i) text += (i ? ", " : "") + std::to_string(v[i]);
  return text + "]";
}

// Solves m x = rhs (order n, row-major m) by Gaussian elimination with partial pivoting, as
// LAPACK's gesv that numpy.linalg.solve calls.
std::vector<double> solve(std::vector<double> m, std::vector<double> rhs) {
  const std::size_t n = rhs.size();
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r) {
      if (std::abs(m[r * n + col]) > std::abs(m[pivot * n + col])) pivot = r;
    }
    if (m[pivot * n + col] == 0.0) throw InvalidArgument("lfilter_zi: the steady-state system is singular (a pole at z = 1)");
    if (pivot != col) {
      for (std::size_t k = 0; k < n; ++k) std::swap(m[col * n + k], m[pivot * n + k]);
      std::swap(rhs[col], rhs[pivot]);
    }
    for (std::size_t r = col + 1; r < n; ++r) {
      const double f = m[r * n + col] / m[col * n + col];
      if (f == 0.0) continue;
      for (std::size_t k = col; k < n; ++k) m[r * n + k] -= f * m[col * n + k];
      rhs[r] -= f * rhs[col];
    }
  }
  std::vector<double> x(n);
  for (std::size_t r = n; r-- > 0;) {
    double acc = rhs[r];
    for (std::size_t k = r + 1; k < n; ++k) acc -= m[r * n + k] * x[k];
    x[r] = acc / m[r * n + r];
  }
  return x;
}

// One line through scipy's recurrence; b and a normalized, of equal length order + 1; z holds
// `order` states.
template <class R, class U>
void filter_line(std::span<const U> b, std::span<const U> a, const R* in, std::ptrdiff_t is, R* out,
                 std::ptrdiff_t os, std::size_t n, R* z) {
  const std::size_t order = b.size() - 1;
  for (std::size_t t = 0; t < n; ++t) {
    const R x = in[static_cast<std::ptrdiff_t>(t) * is];
    if (order == 0) {
      out[static_cast<std::ptrdiff_t>(t) * os] = b[0] * x;
      continue;
    }
    const R y = z[0] + b[0] * x;
    for (std::size_t k = 0; k + 1 < order; ++k) z[k] = z[k + 1] + x * b[k + 1] - y * a[k + 1];
    z[order - 1] = x * b[order] - y * a[order];
    out[static_cast<std::ptrdiff_t>(t) * os] = y;
  }
}

}  // namespace

template <Sample R>
Filtered<R> lfilter(std::span<const typename real_of<R>::type> b_in, std::span<const typename real_of<R>::type> a_in,
                    ArrayView<const R> x, int axis_arg, const ArrayView<const R>* zi) {
  using U = typename real_of<R>::type;
  if (b_in.empty()) throw InvalidArgument("Parameter b is not a non-empty 1d array: b is empty");
  if (a_in.empty()) throw InvalidArgument("Parameter a is not a non-empty 1d array: a is empty");
  if (a_in[0] == U(0)) throw InvalidArgument("filter coefficient a[0] == 0 is not supported (a[0] must be nonzero)");
  if (x.ndim() == 0) throw InvalidArgument("x must be at least 1-D; got a 0-d array");
  const std::size_t axis = normalize_axis(axis_arg, x.ndim());
  const std::size_t taps = std::max(b_in.size(), a_in.size());
  std::vector<U> b(taps, U(0)), a(taps, U(0));
  for (std::size_t k = 0; k < b_in.size(); ++k) b[k] = b_in[k] / a_in[0];
  for (std::size_t k = 0; k < a_in.size(); ++k) a[k] = a_in[k] / a_in[0];
  const std::size_t order = taps - 1;

  std::vector<std::size_t> zi_shape = x.shape();
  zi_shape[axis] = order;
  std::vector<std::ptrdiff_t> zi_strides;
  if (zi != nullptr) {
    bool fits = zi->ndim() == x.ndim();
    zi_strides = fits ? zi->strides() : std::vector<std::ptrdiff_t>{};
    for (std::size_t d = 0; fits && d < x.ndim(); ++d) {
      if (zi->extent(d) == zi_shape[d]) continue;
      if (d != axis && zi->extent(d) == 1) {
        zi_strides[d] = 0;  // broadcast, as numpy
      } else {
        fits = false;
      }
    }
    if (!fits) {
      throw InvalidArgument("Unexpected shape for zi: expected " + shape_text(zi_shape) + ", found " +
                            shape_text(zi->shape()));
    }
  }
  Filtered<R> result;
  result.y = Array<R>(x.shape());
  result.zf = Array<R>(zi_shape);
  const auto in_offsets = line_offsets(x.shape(), x.strides(), axis);
  const auto out_offsets = line_offsets(x.shape(), c_strides(x.shape()), axis);
  const auto zf_strides = c_strides(zi_shape);
  const auto zf_offsets = line_offsets(zi_shape, zf_strides, axis);
  const auto zi_offsets = zi != nullptr ? line_offsets(zi_shape, zi_strides, axis) : std::vector<std::ptrdiff_t>{};
  const std::size_t n = x.extent(axis);
  const std::ptrdiff_t ys = c_strides(x.shape())[axis];
  const std::size_t lines = in_offsets.size();
  const unsigned threads = n * lines * taps >= (std::size_t{1} << 16) ? default_threads() : 1u;
  core::parallel_for(lines, threads, [&](std::size_t c) {
    std::vector<R> z(order, R(0));
    if (zi != nullptr) {
      for (std::size_t k = 0; k < order; ++k) {
        z[k] = zi->data()[zi_offsets[c] + static_cast<std::ptrdiff_t>(k) * zi_strides[axis]];
      }
    }
    filter_line<R, U>(b, a, x.data() + in_offsets[c], x.stride(axis), result.y.values.data() + out_offsets[c], ys, n,
                      z.data());
    for (std::size_t k = 0; k < order; ++k) {
      result.zf.values[static_cast<std::size_t>(zf_offsets[c] + static_cast<std::ptrdiff_t>(k) * zf_strides[axis])] =
          z[k];
    }
  });
  return result;
}

#define RIPPLE_INSTANTIATE(R)                                                                           \
  template Filtered<R> lfilter<R>(std::span<const real_of<R>::type>, std::span<const real_of<R>::type>, \
                                  ArrayView<const R>, int, const ArrayView<const R>*);
RIPPLE_INSTANTIATE(float)
RIPPLE_INSTANTIATE(double)
RIPPLE_INSTANTIATE(std::complex<float>)
RIPPLE_INSTANTIATE(std::complex<double>)
#undef RIPPLE_INSTANTIATE

}  // namespace detail

std::vector<double> lfilter_zi(std::span<const double> b_in, std::span<const double> a_in) {
  if (b_in.empty()) throw InvalidArgument("lfilter_zi: numerator b is empty");
  std::size_t lead = 0;
  while (a_in.size() - lead > 1 && a_in[lead] == 0.0) ++lead;
  if (a_in.size() == lead || a_in[lead] == 0.0) {
    throw InvalidArgument("There must be at least one nonzero `a` coefficient; got a = " +
                          detail::values_text(a_in));
  }
  std::vector<double> a(a_in.begin() + static_cast<std::ptrdiff_t>(lead), a_in.end());
  std::vector<double> b(b_in.begin(), b_in.end());
  if (a[0] != 1.0) {
    const double a0 = a[0];
    for (double& v : b) v /= a0;
    for (double& v : a) v /= a0;
  }
  const std::size_t n = std::max(a.size(), b.size());
  a.resize(n, 0.0);
  b.resize(n, 0.0);
  const std::size_t m = n - 1;
  // (I - companion(a)^T) zi = b[1:] - a[1:] b[0]; companion(a)^T has -a[1:] in its first
  // column and ones on the superdiagonal.
  std::vector<double> matrix(m * m, 0.0), rhs(m);
  for (std::size_t r = 0; r < m; ++r) {
    matrix[r * m + r] = 1.0;
    matrix[r * m] += a[r + 1];
    if (r + 1 < m) matrix[r * m + r + 1] -= 1.0;
    rhs[r] = b[r + 1] - a[r + 1] * b[0];
  }
  return detail::solve(std::move(matrix), std::move(rhs));
}

}  // namespace ripple::iir
