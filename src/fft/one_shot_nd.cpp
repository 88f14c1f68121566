// numpy-style n-dimensional one-shot transforms (fftn, ifftn, rfftn, irfftn) over any axes of a
// strided view: the view is copied once into a C-ordered array, and the transformed axes, in
// runs of adjacent axes of at most three, each become one fft::Plan of rank 1-3 executed in
// place (or real <-> complex) on that array. Inside a run the axes after it are the plan's batch
// (stride = their size, dist = 1), the axes before it a loop of executes.
#include <algorithm>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "fft/nd_axes.hpp"
#include "fft/plan_desc.hpp"
#include "ripple/array.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"

namespace ripple::fft {
namespace detail {

std::vector<std::size_t> checked_axes(const std::vector<int>& axes, std::size_t ndim, const std::string& name) {
  if (ndim == 0) throw InvalidArgument(name + ": x is 0-d; it has no axis to transform");
  std::vector<std::size_t> out;
  if (axes.empty()) {
    for (std::size_t a = 0; a < ndim; ++a) out.push_back(a);
    return out;
  }
  for (int a : axes) {
    const std::size_t v = normalize_axis(a, ndim, "axes");
    if (std::find(out.begin(), out.end(), v) != out.end())
      throw InvalidArgument("axes: axis " + std::to_string(a) + " is given twice");
    out.push_back(v);
  }
  return out;
}

void check_lengths(const std::vector<std::size_t>& shape, const std::vector<std::size_t>& axes, const char* name) {
  for (std::size_t a : axes)
    if (shape[a] == 0)
      throw InvalidArgument(std::string(name) + ": axis " + std::to_string(a) +
                            " has length 0; transform sizes must be >= 1");
}

IrfftnShapes irfftn_shapes(const std::vector<int>& axes, std::size_t n, const std::vector<std::size_t>& s,
                           const std::vector<std::size_t>& x_shape) {
  if (!s.empty() && n != 0 && n != s.back())
    throw InvalidArgument("irfftn: n = " + std::to_string(n) + " and s's last entry " + std::to_string(s.back()) +
                          " differ; both are the real axis's output length");
  IrfftnShapes r;
  Resized resized = resized_axes(axes, s, x_shape, "irfftn");
  r.axes = std::move(resized.axes);
  r.half = std::move(resized.shape);
  const std::size_t real_axis = r.axes.back(), m = x_shape[real_axis];
  r.n = s.empty() ? n : s.back();
  if (r.n == 0) {
    if (m < 2)
      throw InvalidArgument("irfftn: the last transformed axis has " + std::to_string(m) +
                            " values; give n or at least 2 values (n = 2*(m-1))");
    r.n = 2 * (m - 1);
  }
  r.half[real_axis] = r.n / 2 + 1;
  check_lengths(r.half, r.axes, "irfftn");
  r.real = r.half;
  r.real[real_axis] = r.n;
  check_size(r.real, "irfftn");
  return r;
}

Resized resized_axes(const std::vector<int>& axes, const std::vector<std::size_t>& s,
                     const std::vector<std::size_t>& x_shape, const std::string& name) {
  const std::size_t ndim = x_shape.size();
  Resized r{{}, x_shape};
  if (axes.empty() && !s.empty()) {
    if (ndim == 0) throw InvalidArgument(name + ": x is 0-d; it has no axis to transform");
    if (s.size() > ndim)
      throw InvalidArgument(name + ": s has " + std::to_string(s.size()) + " sizes but x has " + std::to_string(ndim) +
                            " axes");
    for (std::size_t a = ndim - s.size(); a < ndim; ++a) r.axes.push_back(a);
  } else {
    r.axes = checked_axes(axes, ndim, name);
    if (!s.empty() && s.size() != r.axes.size())
      throw InvalidArgument(name + ": s has " + std::to_string(s.size()) + " sizes but axes lists " +
                            std::to_string(r.axes.size()) + " axes; give one size per axis");
  }
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == 0)
      throw InvalidArgument(name + ": s asks for 0 points along axis " + std::to_string(r.axes[i]) +
                            "; transform sizes must be >= 1");
    r.shape[r.axes[i]] = s[i];
  }
  check_size(r.shape, name);
  return r;
}

void check_size(const std::vector<std::size_t>& shape, const std::string& name) {
  // Complex double values are the largest: 16 bytes.
  std::size_t count = 1;
  for (std::size_t v : shape) {
    if (v != 0 && count > SIZE_MAX / 16 / v)
      throw InvalidArgument(name + ": a shape of " + shape_text(shape) + " has more values than memory can hold");
    count *= v;
  }
}

}  // namespace detail

namespace {

using detail::check_lengths;
using detail::checked_axes;
using detail::product_of;

// Copies the view into a C-ordered array of `shape` (which may differ from the view's along any
// axes: cut there, or zero-padded), converting T to U.
template <class T, class U>
Array<U> c_order_copy(ArrayView<const T> x, std::vector<std::size_t> shape) {
  Array<U> out(shape);
  if (out.size() == 0) return out;
  const std::size_t nd = shape.size();
  bool padded = false;
  for (std::size_t a = 0; a < nd; ++a) padded = padded || shape[a] > x.extent(a);
  if (padded) std::fill(out.values.begin(), out.values.end(), U{});
  const std::vector<std::ptrdiff_t> dst_strides = c_strides(shape);
  const auto copy = [&](const auto& self, std::size_t axis, const T* src, U* dst) -> void {
    const std::size_t count = std::min(shape[axis], x.extent(axis));
    if (axis + 1 == nd) {
      for (std::size_t i = 0; i < count; ++i) dst[i] = U(src[std::ptrdiff_t(i) * x.stride(axis)]);
      return;
    }
    for (std::size_t i = 0; i < count; ++i)
      self(self, axis + 1, src + std::ptrdiff_t(i) * x.stride(axis), dst + std::ptrdiff_t(i) * dst_strides[axis]);
  };
  if (x.size() > 0) copy(copy, 0, x.data(), out.values.data());
  return out;
}

// A run of adjacent transformed axes [first, last] (at most three).
struct Chunk {
  std::size_t first, last;
};

// Sorted axes in runs of adjacent axes, cut into pieces of at most three; a run also ends at
// `real_axis`, so that the real axis is always the last axis of its chunk.
std::vector<Chunk> chunks_of(std::vector<std::size_t> axes, std::optional<std::size_t> real_axis) {
  std::sort(axes.begin(), axes.end());
  std::vector<Chunk> chunks;
  for (std::size_t i = 0; i < axes.size();) {
    std::size_t j = i;
    while (j + 1 < axes.size() && axes[j + 1] == axes[j] + 1 && axes[j] != real_axis) ++j;
    // axes[i..j] is a run; cut it into chunks of <= 3 from the end, keeping the last one whole.
    for (std::size_t end = j + 1; end > i;) {
      const std::size_t begin = end - std::min<std::size_t>(3, end - i);
      chunks.push_back({axes[begin], axes[end - 1]});
      end = begin;
    }
    i = j + 1;
  }
  return chunks;
}

// Executes `desc` (its shape, kind, direction and norm set) over the chunk of C-ordered arrays
// of shapes in_shape -> out_shape (the same but for the real axis).
template <class In, class Out>
void run_chunk(PlanDesc desc, const Chunk& c, const std::vector<std::size_t>& in_shape,
               const std::vector<std::size_t>& out_shape, const In* in, Out* out) {
  const std::size_t inner = product_of(in_shape, c.last + 1), outer = product_of(in_shape, 0, c.first);
  if (inner * outer * product_of(in_shape, c.first, c.last + 1) == 0) return;
  const std::size_t in_block = product_of(in_shape, c.first), out_block = product_of(out_shape, c.first);
  desc.shape.assign(in_shape.begin() + std::ptrdiff_t(c.first), in_shape.begin() + std::ptrdiff_t(c.last) + 1);
  if (desc.kind == Kind::c2r) desc.shape.back() = out_shape[c.last];
  if (inner == 1) {
    desc.batch = outer;
    Plan(desc).execute(in, out);
    return;
  }
  desc.batch = inner;
  desc.in_stride = desc.out_stride = std::ptrdiff_t(inner);
  desc.in_dist = desc.out_dist = 1;
  const Plan plan(desc);
  for (std::size_t o = 0; o < outer; ++o) plan.execute(in + o * in_block, out + o * out_block);
}

template <class T>
PlanDesc base_desc(Kind kind, Direction direction, Norm norm) {
  PlanDesc d;
  d.kind = kind;
  d.precision = detail::precision_of<T>();
  d.direction = direction;
  d.norm = norm;
  return d;
}

template <class T>
Array<std::complex<T>> complex_nd(ArrayView<const std::complex<T>> x, const std::vector<int>& axes_in,
                                  const std::vector<std::size_t>& s, Norm norm, Direction direction, const char* name) {
  const auto [axes, shape] = detail::resized_axes(axes_in, s, x.shape(), name);
  check_lengths(shape, axes, name);
  Array<std::complex<T>> y = c_order_copy<std::complex<T>, std::complex<T>>(x, shape);
  const PlanDesc desc = base_desc<T>(Kind::c2c, direction, norm);
  for (const Chunk& c : chunks_of(axes, std::nullopt))
    run_chunk(desc, c, y.shape, y.shape, y.values.data(), y.values.data());
  return y;
}

template <class T>
Array<std::complex<T>> real_forward_nd(ArrayView<const T> x, const std::vector<int>& axes_in,
                                       const std::vector<std::size_t>& s, Norm norm) {
  const auto [axes, real_shape] = detail::resized_axes(axes_in, s, x.shape(), "rfftn");
  check_lengths(real_shape, axes, "rfftn");
  const std::size_t real_axis = axes.back();
  const Array<T> real = c_order_copy<T, T>(x, real_shape);
  std::vector<std::size_t> shape = real_shape;
  shape[real_axis] = shape[real_axis] / 2 + 1;
  Array<std::complex<T>> y(shape);
  const std::vector<Chunk> chunks = chunks_of(axes, real_axis);
  const auto real_chunk = std::find_if(chunks.begin(), chunks.end(), [&](const Chunk& c) { return c.last == real_axis; });
  run_chunk(base_desc<T>(Kind::r2c, Direction::forward, norm), *real_chunk, real.shape, y.shape, real.values.data(),
            y.values.data());
  for (auto c = chunks.begin(); c != chunks.end(); ++c)
    if (c != real_chunk)
      run_chunk(base_desc<T>(Kind::c2c, Direction::forward, norm), *c, y.shape, y.shape, y.values.data(),
                y.values.data());
  return y;
}

template <class T>
Array<T> real_backward_nd(ArrayView<const std::complex<T>> x, const std::vector<int>& axes_in, std::size_t n,
                          const std::vector<std::size_t>& s, Norm norm) {
  const detail::IrfftnShapes shapes = detail::irfftn_shapes(axes_in, n, s, x.shape());
  const std::size_t real_axis = shapes.axes.back();
  Array<std::complex<T>> work = c_order_copy<std::complex<T>, std::complex<T>>(x, shapes.half);
  Array<T> y(shapes.real);
  const std::vector<Chunk> chunks = chunks_of(shapes.axes, real_axis);
  const auto real_chunk = std::find_if(chunks.begin(), chunks.end(), [&](const Chunk& c) { return c.last == real_axis; });
  for (auto c = chunks.begin(); c != chunks.end(); ++c)
    if (c != real_chunk)
      run_chunk(base_desc<T>(Kind::c2c, Direction::backward, norm), *c, work.shape, work.shape, work.values.data(),
                work.values.data());
  run_chunk(base_desc<T>(Kind::c2r, Direction::backward, norm), *real_chunk, work.shape, y.shape,
            work.values.data(), y.values.data());
  return y;
}

}  // namespace

Array<std::complex<float>> fftn(ArrayView<const std::complex<float>> x, const std::vector<int>& axes, Norm norm,
                                const std::vector<std::size_t>& s) {
  return complex_nd(x, axes, s, norm, Direction::forward, "fftn");
}
Array<std::complex<double>> fftn(ArrayView<const std::complex<double>> x, const std::vector<int>& axes, Norm norm,
                                 const std::vector<std::size_t>& s) {
  return complex_nd(x, axes, s, norm, Direction::forward, "fftn");
}
Array<std::complex<float>> ifftn(ArrayView<const std::complex<float>> x, const std::vector<int>& axes, Norm norm,
                                 const std::vector<std::size_t>& s) {
  return complex_nd(x, axes, s, norm, Direction::backward, "ifftn");
}
Array<std::complex<double>> ifftn(ArrayView<const std::complex<double>> x, const std::vector<int>& axes, Norm norm,
                                  const std::vector<std::size_t>& s) {
  return complex_nd(x, axes, s, norm, Direction::backward, "ifftn");
}
Array<std::complex<float>> rfftn(ArrayView<const float> x, const std::vector<int>& axes, Norm norm,
                                 const std::vector<std::size_t>& s) {
  return real_forward_nd(x, axes, s, norm);
}
Array<std::complex<double>> rfftn(ArrayView<const double> x, const std::vector<int>& axes, Norm norm,
                                  const std::vector<std::size_t>& s) {
  return real_forward_nd(x, axes, s, norm);
}
Array<float> irfftn(ArrayView<const std::complex<float>> x, const std::vector<int>& axes, std::size_t n, Norm norm,
                    const std::vector<std::size_t>& s) {
  return real_backward_nd(x, axes, n, s, norm);
}
Array<double> irfftn(ArrayView<const std::complex<double>> x, const std::vector<int>& axes, std::size_t n,
                     Norm norm, const std::vector<std::size_t>& s) {
  return real_backward_nd(x, axes, n, s, norm);
}

}  // namespace ripple::fft
