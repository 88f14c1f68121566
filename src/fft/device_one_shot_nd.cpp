// numpy-style fftn/ifftn/rfftn/irfftn on Buffers (include/ripple/fft/device.hpp): on a GPU, one
// batched 1-D pass per transformed axis of the C-ordered array (DeviceAxisPasses, the lines of
// each axis addressed where they lie), planned per call; on the CPU, the host functions on the
// buffer's bytes. The arguments are checked as the host functions check theirs (nd_axes.hpp).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "fft/device_axis_passes.hpp"
#include "fft/nd_axes.hpp"
#include "fft/plan_desc.hpp"
#include "gpu/device_copy.hpp"
#include "gpu/queue_impl.hpp"
#include "ripple/error.hpp"
#include "ripple/fft/device.hpp"

namespace ripple::fft {
namespace {

using detail::product_of;
using gpu::host_data;

template <class T>
void check_holds(const Buffer<T>& x, const std::vector<std::size_t>& shape, const char* name) {
  std::size_t count = 1;
  for (std::size_t v : shape) {
    if (v != 0 && count > SIZE_MAX / v) throw InvalidArgument(std::string(name) + ": the shape's size overflows");
    count *= v;
  }
  if (x.size() < count)
    throw InvalidArgument(std::string(name) + ": x holds " + std::to_string(x.size()) + " values but the shape has " +
                          std::to_string(count));
}

// `kind` over `axes` of the array of logical (real-side) `shape` in precision T, from in to a
// new buffer of out_count values of Out, with the norm's factor for the product of the
// transformed sizes.
template <class T, class Out>
Buffer<Out> run_axes(const Queue& q, const gpu::Memory& in, std::size_t out_count,
                     const std::vector<std::size_t>& shape, const std::vector<std::size_t>& axes, Kind kind,
                     Direction direction, Norm norm) {
  constexpr bool dbl = std::is_same_v<T, double>;
  gpu::Context& context = detail::gpu_context(q, dbl);
  Buffer<Out> out(q, out_count);
  if (out_count == 0) return out;
  std::size_t transformed = 1;
  for (std::size_t a : axes) transformed *= shape[a];
  const detail::DeviceAxisPasses passes(context, shape, axes, kind, dbl, detail::CheckedDesc{}, q.device().to_string());
  passes.wait_ready();
  passes.run(gpu::stream_of(q), in, gpu::memory_of(out.raw()), direction,
             detail::norm_scale(norm, direction, transformed));
  q.synchronize();  // the passes' scratch is freed on return
  return out;
}

// The array of `shape` in `in`, cut or zero-padded to `target`, one axis at a time, each step a
// new buffer on q kept in `steps` until the work on it is done; `in` itself where the shapes
// agree. E is the element: T or std::complex<T>.
template <class T, class E>
const gpu::Memory& resized(const Queue& q, const gpu::Memory& in, std::vector<std::size_t> shape,
                           const std::vector<std::size_t>& target, std::vector<Buffer<E>>& steps) {
  const gpu::Memory* from = &in;
  for (std::size_t axis = 0; axis < shape.size(); ++axis) {
    const std::size_t m = shape[axis], h = target[axis];
    if (m == h) continue;
    // `outer` rows of m (then h) indices along the axis, `inner` values each: the first
    // min(m, h) indices of each row kept, zeros after them.
    const std::size_t inner = product_of(shape, axis + 1), outer = product_of(shape, 0, axis);
    const std::size_t count = outer * h * inner;
    shape[axis] = h;
    Buffer<E>& out = steps.emplace_back(q, count);
    gpu::Memory& target_memory = gpu::memory_of(out.raw());
    if (count == 0) return target_memory;
    gpu::Stream& stream = gpu::stream_of(q);
    if (h > m) stream.zero(target_memory, 0, count * sizeof(E));
    if (m * inner * outer > 0) {
      gpu::CopyLayout rows;
      rows.count = std::min(m, h) * inner;
      rows.batch = outer;
      rows.in_dist = static_cast<std::int64_t>(m * inner);
      rows.out_dist = static_cast<std::int64_t>(h * inner);
      constexpr bool dbl = std::is_same_v<T, double>;
      gpu::DeviceCopy(detail::gpu_context(q, dbl), dbl, !std::is_same_v<T, E>).run(stream, *from, target_memory, rows);
    }
    from = &target_memory;
  }
  return *from;
}

template <class T>
Buffer<std::complex<T>> complex_nd(const Buffer<std::complex<T>>& x, const std::vector<std::size_t>& shape,
                                   const std::vector<int>& axes_in, const std::vector<std::size_t>& s, Norm norm,
                                   Direction direction, const char* name) {
  const auto [axes, target] = detail::resized_axes(axes_in, s, shape, name);
  detail::check_lengths(target, axes, name);
  check_holds(x, shape, name);
  const Queue& q = x.queue();
  if (q.device().kind() == DeviceKind::cpu) {
    const ArrayView<const std::complex<T>> view(host_data(x), shape);
    const Array<std::complex<T>> y =
        direction == Direction::forward ? fftn(view, axes_in, norm, s) : ifftn(view, axes_in, norm, s);
    return Buffer<std::complex<T>>(q, std::span<const std::complex<T>>(y.values.data(), y.values.size()));
  }
  std::vector<Buffer<std::complex<T>>> steps;
  const gpu::Memory& in = resized<T>(q, gpu::memory_of(x.raw()), shape, target, steps);
  return run_axes<T, std::complex<T>>(q, in, product_of(target), target, axes, Kind::c2c, direction, norm);
}

template <class T>
Buffer<std::complex<T>> real_forward_nd(const Buffer<T>& x, const std::vector<std::size_t>& shape,
                                        const std::vector<int>& axes_in, const std::vector<std::size_t>& s,
                                        Norm norm) {
  const auto [axes, target] = detail::resized_axes(axes_in, s, shape, "rfftn");
  detail::check_lengths(target, axes, "rfftn");
  check_holds(x, shape, "rfftn");
  const Queue& q = x.queue();
  if (q.device().kind() == DeviceKind::cpu) {
    const Array<std::complex<T>> y = rfftn(ArrayView<const T>(host_data(x), shape), axes_in, norm, s);
    return Buffer<std::complex<T>>(q, std::span<const std::complex<T>>(y.values.data(), y.values.size()));
  }
  std::vector<std::size_t> half = target;
  half[axes.back()] = half[axes.back()] / 2 + 1;
  std::vector<Buffer<T>> steps;
  const gpu::Memory& in = resized<T>(q, gpu::memory_of(x.raw()), shape, target, steps);
  return run_axes<T, std::complex<T>>(q, in, product_of(half), target, axes, Kind::r2c, Direction::forward, norm);
}

template <class T>
Buffer<T> real_backward_nd(const Buffer<std::complex<T>>& x, const std::vector<std::size_t>& shape,
                           const std::vector<int>& axes_in, std::size_t n, const std::vector<std::size_t>& s,
                           Norm norm) {
  const detail::IrfftnShapes shapes = detail::irfftn_shapes(axes_in, n, s, shape);
  check_holds(x, shape, "irfftn");
  const Queue& q = x.queue();
  if (q.device().kind() == DeviceKind::cpu) {
    const Array<T> y = irfftn(ArrayView<const std::complex<T>>(host_data(x), shape), axes_in, n, norm, s);
    return Buffer<T>(q, std::span<const T>(y.values.data(), y.values.size()));
  }
  std::vector<Buffer<std::complex<T>>> steps;
  const gpu::Memory& in = resized<T>(q, gpu::memory_of(x.raw()), shape, shapes.half, steps);
  return run_axes<T, T>(q, in, product_of(shapes.real), shapes.real, shapes.axes, Kind::c2r, Direction::backward,
                        norm);
}

}  // namespace

Buffer<std::complex<float>> fftn(const Buffer<std::complex<float>>& x, const std::vector<std::size_t>& shape,
                                 const std::vector<int>& axes, Norm norm, const std::vector<std::size_t>& s) {
  return complex_nd(x, shape, axes, s, norm, Direction::forward, "fftn");
}
Buffer<std::complex<double>> fftn(const Buffer<std::complex<double>>& x, const std::vector<std::size_t>& shape,
                                  const std::vector<int>& axes, Norm norm, const std::vector<std::size_t>& s) {
  return complex_nd(x, shape, axes, s, norm, Direction::forward, "fftn");
}
Buffer<std::complex<float>> ifftn(const Buffer<std::complex<float>>& x, const std::vector<std::size_t>& shape,
                                  const std::vector<int>& axes, Norm norm, const std::vector<std::size_t>& s) {
  return complex_nd(x, shape, axes, s, norm, Direction::backward, "ifftn");
}
Buffer<std::complex<double>> ifftn(const Buffer<std::complex<double>>& x, const std::vector<std::size_t>& shape,
                                   const std::vector<int>& axes, Norm norm, const std::vector<std::size_t>& s) {
  return complex_nd(x, shape, axes, s, norm, Direction::backward, "ifftn");
}
Buffer<std::complex<float>> rfftn(const Buffer<float>& x, const std::vector<std::size_t>& shape,
                                  const std::vector<int>& axes, Norm norm, const std::vector<std::size_t>& s) {
  return real_forward_nd(x, shape, axes, s, norm);
}
Buffer<std::complex<double>> rfftn(const Buffer<double>& x, const std::vector<std::size_t>& shape,
                                   const std::vector<int>& axes, Norm norm, const std::vector<std::size_t>& s) {
  return real_forward_nd(x, shape, axes, s, norm);
}
Buffer<float> irfftn(const Buffer<std::complex<float>>& x, const std::vector<std::size_t>& shape,
                     const std::vector<int>& axes, std::size_t n, Norm norm, const std::vector<std::size_t>& s) {
  return real_backward_nd(x, shape, axes, n, s, norm);
}
Buffer<double> irfftn(const Buffer<std::complex<double>>& x, const std::vector<std::size_t>& shape,
                      const std::vector<int>& axes, std::size_t n, Norm norm, const std::vector<std::size_t>& s) {
  return real_backward_nd(x, shape, axes, n, s, norm);
}

}  // namespace ripple::fft
