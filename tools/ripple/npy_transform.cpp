// Batched FFTs along the last axis of an NpyArray through one plan per call: fft::Plan on the
// host, or fft::DevicePlan on a chosen device. Transforms over chosen axes go through fft::fftn
// and friends, on host arrays or, with a device, on Buffers there.
#include "npy_transform.hpp"

#include <algorithm>
#include <complex>
#include <span>
#include <type_traits>
#include <vector>

#include "commands.hpp"
#include "ripple/error.hpp"
#include "ripple/fft/device.hpp"

namespace ripple::cli {
namespace {

// Rows of length `from` cut or zero-padded to length `to`.
template <class T>
std::vector<T> resize_rows(std::span<const T> x, std::size_t rows, std::size_t from, std::size_t to) {
  std::vector<T> out(rows * to, T{});
  const std::size_t keep = std::min(from, to);
  for (std::size_t r = 0; r < rows; ++r)
    std::copy_n(x.begin() + static_cast<std::ptrdiff_t>(r * from), keep,
                out.begin() + static_cast<std::ptrdiff_t>(r * to));
  return out;
}

// `desc` on x into y: through fft::Plan on the host, or uploaded to `device` and through
// fft::DevicePlan there. Returns the plan's description.
template <class In, class Out>
std::string execute(const fft::PlanDesc& desc, std::span<const In> x, std::span<Out> y,
                    const std::optional<Device>& device) {
  if (!device) {
    const fft::Plan plan(desc);
    plan.execute(x.data(), y.data());
    return plan.describe();
  }
  const Queue queue(*device);
  const fft::DevicePlan plan(queue, desc);
  const Buffer<In> in(queue, x);
  Buffer<Out> out(queue, y.size());
  plan.execute(in, out);
  out.download(y);
  return plan.describe();
}

// One transform kind, with the input element type In and output element type Out fixed, along
// the last axis of `input` (the others a batch). `in_len` / `out_len` are the lengths the plan
// reads and writes.
template <class In, class Out>
TransformResult run(const io::NpyArray& input, fft::PlanDesc desc, std::size_t in_len, std::size_t out_len,
                    const std::optional<Device>& device) {
  const auto x = input.values<In>();
  const std::size_t m = input.shape.back();
  const std::size_t rows = x.size() / m;
  std::vector<std::size_t> shape = input.shape;
  shape.back() = out_len;
  std::vector<Out> y(io::element_count(shape));
  TransformResult result;
  if (rows > 0) {
    std::vector<In> resized;
    std::span<const In> source = x;
    if (in_len != m) {
      resized = resize_rows(x, rows, m, in_len);
      source = resized;
    }
    desc.batch = rows;
    result.plan = execute<In, Out>(desc, source, y, device);
  }
  result.array = io::NpyArray(std::move(shape), std::move(y));
  return result;
}

// numpy's s for options.n over the --axes listed: each its own length but the last, n long (an
// axis out of range is left to fftn's check).
std::vector<std::size_t> s_for_n(const std::vector<std::size_t>& shape, const AxisTransform& o,
                                 std::size_t last_axis) {
  if (!o.n) return {};
  std::vector<std::size_t> s;
  for (int given : o.axes) {
    const auto a = static_cast<std::size_t>(given < 0 ? given + static_cast<int>(shape.size()) : given);
    s.push_back(a == last_axis ? *o.n : a < shape.size() ? shape[a] : 1);
  }
  return s;
}

template <class T>
io::NpyArray to_npy(Array<T>&& a) {
  return io::NpyArray(std::move(a.shape), std::vector<T>(a.values.begin(), a.values.end()));
}

// fftn/ifftn/rfftn over the axes of `input`, whose values are In; the last axis in `axes`
// first cut or padded to options.n.
template <class In>
TransformResult run_axes(const io::NpyArray& input, const AxisTransform& o, std::size_t last_axis) {
  const std::vector<std::size_t>& shape = input.shape;
  const std::span<const In> x = input.values<In>();
  const std::vector<std::size_t> s = s_for_n(shape, o, last_axis);
  TransformResult result;
  if (o.device) {
    const Queue queue(*o.device);
    const Buffer<In> in(queue, x);
    result.plan = std::is_floating_point_v<In> ? "rfftn" : o.inverse ? "ifftn" : "fftn";
    std::vector<std::size_t> out_shape = shape;
    out_shape[last_axis] = o.n.value_or(shape[last_axis]);
    if constexpr (std::is_floating_point_v<In>) {
      out_shape[last_axis] = out_shape[last_axis] / 2 + 1;
      result.array = io::NpyArray(std::move(out_shape), fft::rfftn(in, shape, o.axes, o.norm, s).to_vector());
    } else {
      result.array = io::NpyArray(std::move(out_shape), (o.inverse ? fft::ifftn(in, shape, o.axes, o.norm, s)
                                                                   : fft::fftn(in, shape, o.axes, o.norm, s))
                                                            .to_vector());
    }
    return result;
  }
  const ArrayView<const In> view(x.data(), shape);
  if constexpr (std::is_floating_point_v<In>) {
    result.array = to_npy(fft::rfftn(view, o.axes, o.norm, s));
    result.plan = "rfftn";
  } else {
    result.array = to_npy(o.inverse ? fft::ifftn(view, o.axes, o.norm, s) : fft::fftn(view, o.axes, o.norm, s));
    result.plan = o.inverse ? "ifftn" : "fftn";
  }
  return result;
}

template <class T>
TransformResult run_irfftn(const io::NpyArray& input, const AxisTransform& o, std::size_t last_axis) {
  const std::span<const std::complex<T>> x = input.values<std::complex<T>>();
  TransformResult result;
  if (!o.device) {
    result.array = to_npy(fft::irfftn(ArrayView<const std::complex<T>>(x.data(), input.shape), o.axes,
                                      o.n.value_or(0), o.norm));
    result.plan = "irfftn";
    return result;
  }
  const Queue queue(*o.device);
  const Buffer<std::complex<T>> in(queue, x);
  std::vector<T> y = fft::irfftn(in, input.shape, o.axes, o.n.value_or(0), o.norm).to_vector();
  std::vector<std::size_t> shape = input.shape;  // n along the real axis (irfftn checked m >= 2 without it)
  shape[last_axis] = o.n.value_or(2 * (shape[last_axis] - 1));
  result.array = io::NpyArray(std::move(shape), std::move(y));
  result.plan = "irfftn";
  return result;
}

}  // namespace

TransformResult transform_last_axis(const io::NpyArray& input, const AxisTransform& options) {
  using std::complex;
  const io::Dtype dtype = input.dtype();
  if (input.shape.empty()) throw InvalidArgument("the input is 0-d: it has no axis to transform");
  if (input.shape.back() == 0) throw InvalidArgument("the input's last axis has length 0: nothing to transform");
  if (!io::is_complex(dtype) && (options.inverse || options.real_output))
    throw UsageError(std::string(options.real_output ? "--real-output" : "--inverse") +
                     " needs complex input, but the input is " + io::dtype_name(dtype) +
                     " (real input is transformed forward, like numpy.fft.rfft)");
  const std::size_t m = input.shape.back();
  fft::PlanDesc desc;
  desc.shape = {m};
  desc.norm = options.norm;
  desc.threads = options.threads;
  const bool f32 = dtype == io::Dtype::f32 || dtype == io::Dtype::c64;
  desc.precision = f32 ? fft::Precision::f32 : fft::Precision::f64;

  if (options.real_output) {  // irfft: m complex values in, n reals out
    const std::size_t n = options.n.value_or(2 * (m - 1));
    if (n == 0) throw InvalidArgument("irfft of a last axis of length 1 has no default length; give --n");
    desc.shape.back() = n;
    desc.kind = fft::Kind::c2r;
    desc.direction = fft::Direction::backward;
    return f32 ? run<complex<float>, float>(input, desc, n / 2 + 1, n, options.device)
               : run<complex<double>, double>(input, desc, n / 2 + 1, n, options.device);
  }
  const std::size_t n = options.n.value_or(m);
  desc.shape.back() = n;
  if (!io::is_complex(dtype)) {  // rfft: n reals in, n/2+1 complex values out
    desc.kind = fft::Kind::r2c;
    return f32 ? run<float, complex<float>>(input, desc, n, n / 2 + 1, options.device)
               : run<double, complex<double>>(input, desc, n, n / 2 + 1, options.device);
  }
  desc.kind = fft::Kind::c2c;
  desc.direction = options.inverse ? fft::Direction::backward : fft::Direction::forward;
  return f32 ? run<complex<float>, complex<float>>(input, desc, n, n, options.device)
             : run<complex<double>, complex<double>>(input, desc, n, n, options.device);
}

TransformResult transform_axes(const io::NpyArray& input, const AxisTransform& options) {
  using std::complex;
  const io::Dtype dtype = input.dtype();
  if (input.shape.empty()) throw InvalidArgument("the input is 0-d: it has no axis to transform");
  if (!io::is_complex(dtype) && (options.inverse || options.real_output))
    throw UsageError(std::string(options.real_output ? "--real-output" : "--inverse") +
                     " needs complex input, but the input is " + io::dtype_name(dtype) +
                     " (real input is transformed forward, like numpy.fft.rfftn)");
  const std::size_t last_axis = normalize_axis(options.axes.empty() ? -1 : options.axes.back(), input.shape.size(), "--axes");
  const bool f32 = dtype == io::Dtype::f32 || dtype == io::Dtype::c64;
  if (options.real_output)
    return f32 ? run_irfftn<float>(input, options, last_axis) : run_irfftn<double>(input, options, last_axis);
  if (!io::is_complex(dtype)) return f32 ? run_axes<float>(input, options, last_axis) : run_axes<double>(input, options, last_axis);
  return f32 ? run_axes<complex<float>>(input, options, last_axis) : run_axes<complex<double>>(input, options, last_axis);
}

}  // namespace ripple::cli
