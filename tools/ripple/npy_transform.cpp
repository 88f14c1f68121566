// Batched FFTs along the last axis of an NpyArray, through one fft::Plan per call.
#include "npy_transform.hpp"

#include <algorithm>
#include <complex>
#include <span>
#include <vector>

#include "commands.hpp"
#include "ripple/error.hpp"

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

// One transform kind, with the input element type In and output element type Out fixed.
// `in_len` / `out_len` are the last-axis lengths the plan reads and writes.
template <class In, class Out>
TransformResult run(const io::NpyArray& input, fft::PlanDesc desc, std::size_t in_len, std::size_t out_len) {
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
    const fft::Plan plan(desc);
    plan.execute(source.data(), y.data());
    result.plan = plan.describe();
  }
  result.array = io::NpyArray(std::move(shape), std::move(y));
  return result;
}

}  // namespace

TransformResult transform_last_axis(const io::NpyArray& input, const AxisTransform& options) {
  using std::complex;
  const io::Dtype dtype = input.dtype();
  if (input.shape.empty()) throw InvalidArgument("the input is 0-d: it has no axis to transform");
  const std::size_t m = input.shape.back();
  if (m == 0) throw InvalidArgument("the input's last axis has length 0: nothing to transform");
  if (!io::is_complex(dtype) && (options.inverse || options.real_output))
    throw UsageError(std::string(options.real_output ? "--real-output" : "--inverse") +
                     " needs complex input, but the input is " + io::dtype_name(dtype) +
                     " (real input is transformed forward, like numpy.fft.rfft)");

  fft::PlanDesc desc;
  desc.norm = options.norm;
  desc.threads = options.threads;
  const bool f32 = dtype == io::Dtype::f32 || dtype == io::Dtype::c64;
  desc.precision = f32 ? fft::Precision::f32 : fft::Precision::f64;

  if (options.real_output) {  // irfft: m complex values in, n reals out
    const std::size_t n = options.n.value_or(2 * (m - 1));
    if (n == 0) throw InvalidArgument("irfft of a last axis of length 1 has no default length; give --n");
    desc.shape = {n};
    desc.kind = fft::Kind::c2r;
    desc.direction = fft::Direction::backward;
    return f32 ? run<complex<float>, float>(input, desc, n / 2 + 1, n)
               : run<complex<double>, double>(input, desc, n / 2 + 1, n);
  }
  const std::size_t n = options.n.value_or(m);
  desc.shape = {n};
  if (!io::is_complex(dtype)) {  // rfft: n reals in, n/2+1 complex values out
    desc.kind = fft::Kind::r2c;
    return f32 ? run<float, complex<float>>(input, desc, n, n / 2 + 1)
               : run<double, complex<double>>(input, desc, n, n / 2 + 1);
  }
  desc.kind = fft::Kind::c2c;
  desc.direction = options.inverse ? fft::Direction::backward : fft::Direction::forward;
  return f32 ? run<complex<float>, complex<float>>(input, desc, n, n)
             : run<complex<double>, complex<double>>(input, desc, n, n);
}

}  // namespace ripple::cli
