// fft::DevicePlan (include/ripple/fft/device.hpp): the public FFT plan on a Queue. The PlanDesc
// is validated here with fft::Plan's rules and messages; a GPU queue gets the GPU FFT
// (src/gpu/device_fft_plan), a CPU queue fft::Plan on the buffers' host bytes. Checks of
// overloads, sizes and devices happen in execute() before anything is enqueued.
#include "ripple/fft/device.hpp"

#include <cmath>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "gpu/device_fft_plan.hpp"
#include "gpu/device_fft_real.hpp"
#include "gpu/queue_impl.hpp"
#include "ripple/error.hpp"

namespace ripple::fft {

namespace {

std::string kind_name(Kind k) { return k == Kind::c2c ? "c2c" : k == Kind::r2c ? "r2c" : "c2r"; }
std::string precision_name(Precision p) { return p == Precision::f32 ? "f32" : "f64"; }

std::size_t checked_mul(std::size_t a, std::size_t b, const std::string& what) {
  std::size_t r;
  if (__builtin_mul_overflow(a, b, &r) || r > std::size_t(PTRDIFF_MAX))
    throw InvalidArgument(what + ": " + std::to_string(a) + " x " + std::to_string(b) +
                          " elements overflow the address space");
  return r;
}

// Elements a layout spans: (batch-1)*dist + (count-1)*stride + 1, its bytes within the address
// space.
std::size_t span_of(std::size_t count, std::size_t batch, std::ptrdiff_t stride, std::ptrdiff_t dist,
                    std::size_t element_bytes, const std::string& side) {
  const std::string what =
      side + "_stride = " + std::to_string(stride) + ", " + side + "_dist = " + std::to_string(dist) + ", shape/batch";
  const std::size_t last = checked_mul(count - 1, std::size_t(stride), what);
  const std::size_t last_batch = checked_mul(batch - 1, std::size_t(dist), what);
  std::size_t total;
  if (__builtin_add_overflow(last, last_batch, &total) || total >= std::size_t(PTRDIFF_MAX))
    throw InvalidArgument(what + ": the layout overflows the address space");
  checked_mul(total + 1, element_bytes, what);
  return total + 1;
}

// Output addresses b*dist + e*stride must be distinct for e < count, b < batch.
void check_no_alias(std::size_t count, std::size_t batch, std::ptrdiff_t stride, std::ptrdiff_t dist) {
  if (batch == 1) return;
  if (dist == 0) throw InvalidArgument("out_dist = 0: every batch entry would write the same output");
  if (count == 1) return;
  const auto s = std::size_t(stride), d = std::size_t(dist);
  const bool dist_outer = d >= s && d >= s * count;   // batches one after another
  const bool stride_outer = s >= d && s >= d * batch;  // batches interleaved
  if (!dist_outer && !stride_outer)
    throw InvalidArgument("out_stride = " + std::to_string(stride) + ", out_dist = " + std::to_string(dist) +
                          ": output elements of different batch entries overlap");
}

// fft::Plan's validation (src/fft/plan.cpp) for the parts a GPU plan needs: the element count
// n, the resolved distances and the spans.
struct CheckedDesc {
  std::size_t n = 1;
  gpu::FftLayout layout;
  std::size_t in_span = 0, out_span = 0;
  double scale = 1.0;
};

CheckedDesc check_desc(const PlanDesc& desc) {
  CheckedDesc c;
  if (desc.shape.empty()) throw InvalidArgument("shape: rank 0 (empty shape); give the transform size");
  if (desc.shape.size() > 3)
    throw InvalidArgument("shape: rank " + std::to_string(desc.shape.size()) + " is above the maximum of 3");
  for (std::size_t a = 0; a < desc.shape.size(); ++a)
    if (desc.shape[a] == 0) throw InvalidArgument("shape[" + std::to_string(a) + "] = 0: transform sizes must be >= 1");
  if (desc.batch == 0) throw InvalidArgument("batch = 0: at least one transform is needed");
  const std::size_t complex_bytes = desc.precision == Precision::f32 ? 8 : 16;
  for (std::size_t a = 0; a < desc.shape.size(); ++a) {
    const std::string what = "shape[" + std::to_string(a) + "] = " + std::to_string(desc.shape[a]);
    c.n = checked_mul(c.n, desc.shape[a], what);
    checked_mul(c.n, complex_bytes, what);
  }
  checked_mul(checked_mul(c.n, desc.batch, "shape x batch"), complex_bytes, "shape x batch");
  if (desc.kind == Kind::r2c && desc.direction != Direction::forward)
    throw InvalidArgument("direction: r2c transforms are forward only");
  if (desc.kind == Kind::c2r && desc.direction != Direction::backward)
    throw InvalidArgument("direction: c2r transforms are backward only (set Direction::backward)");
  const std::size_t last = desc.shape.back();
  const std::size_t half = c.n / last * (last / 2 + 1);
  const std::size_t n_in = desc.kind == Kind::c2r ? half : c.n;
  const std::size_t n_out = desc.kind == Kind::r2c ? half : c.n;
  if (desc.in_stride < 1) throw InvalidArgument("in_stride = " + std::to_string(desc.in_stride) + ": must be >= 1");
  if (desc.out_stride < 1) throw InvalidArgument("out_stride = " + std::to_string(desc.out_stride) + ": must be >= 1");
  if (desc.in_dist < 0) throw InvalidArgument("in_dist = " + std::to_string(desc.in_dist) + ": must be >= 0");
  if (desc.out_dist < 0) throw InvalidArgument("out_dist = " + std::to_string(desc.out_dist) + ": must be >= 0");
  gpu::FftLayout& l = c.layout;
  l.batch = desc.batch;
  l.in_stride = desc.in_stride;
  l.out_stride = desc.out_stride;
  l.in_dist = desc.in_dist != 0 ? desc.in_dist : std::ptrdiff_t(checked_mul(n_in, std::size_t(desc.in_stride), "in_stride"));
  l.out_dist =
      desc.out_dist != 0 ? desc.out_dist : std::ptrdiff_t(checked_mul(n_out, std::size_t(desc.out_stride), "out_stride"));
  if (desc.batch == 1) l.in_dist = l.out_dist = 0;
  const std::size_t real_bytes = complex_bytes / 2;
  c.in_span = span_of(n_in, desc.batch, l.in_stride, l.in_dist, desc.kind == Kind::r2c ? real_bytes : complex_bytes, "in");
  c.out_span =
      span_of(n_out, desc.batch, l.out_stride, l.out_dist, desc.kind == Kind::c2r ? real_bytes : complex_bytes, "out");
  check_no_alias(n_out, desc.batch, l.out_stride, l.out_dist);
  if (desc.threads > 1024) throw InvalidArgument("threads = " + std::to_string(desc.threads) + ": above 1024");
  const bool forward = desc.direction == Direction::forward;
  const double nn = double(c.n);
  switch (desc.norm) {
    case Norm::backward: c.scale = forward ? 1.0 : 1.0 / nn; break;
    case Norm::ortho: c.scale = 1.0 / std::sqrt(nn); break;
    case Norm::forward: c.scale = forward ? 1.0 / nn : 1.0; break;
  }
  return c;
}

template <class T>
T* host_data(const Buffer<T>& b) {
  return reinterpret_cast<T*>(b.raw().impl().host.data());
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
  if constexpr (std::is_same_v<T, std::complex<float>>) return "std::complex<float>";
  return "std::complex<double>";
}

}  // namespace

struct DevicePlan::Impl {
  PlanDesc desc;
  Queue queue;
  std::size_t in_span = 0, out_span = 0;
  double scale = 1.0;
  std::optional<Plan> cpu;
  std::unique_ptr<gpu::DeviceFftPlan> gpu;  // c2c
  std::unique_ptr<gpu::DeviceFftReal> real;  // r2c, c2r
  mutable std::mutex order;  // the passes of one execute are enqueued together (shared scratch)

  Impl(const Queue& q, const PlanDesc& d) : desc(d), queue(q) {
    if (q.device().kind() == DeviceKind::cpu) {
      cpu.emplace(desc);
      in_span = cpu->input_span();
      out_span = cpu->output_span();
      return;
    }
    const CheckedDesc c = check_desc(desc);
    in_span = c.in_span;
    out_span = c.out_span;
    scale = c.scale;
    const std::string on = " on " + q.device().to_string();
    if (desc.shape.size() > 1)
      throw Unsupported("shape: rank " + std::to_string(desc.shape.size()) + " FFTs are not built for GPUs yet" + on +
                        " (rank 1 only; the CPU fft::Plan does ranks 2 and 3)");
    gpu::Context& context = gpu::context_of(q);
    const bool dbl = desc.precision == Precision::f64;
    if (dbl && !context.facts().fp64)
      throw Unsupported("precision f64: device " + context.facts().name + " has no double precision");
    if (desc.kind == Kind::c2c)
      gpu = std::make_unique<gpu::DeviceFftPlan>(context, c.n, dbl, c.layout);
    else
      real = std::make_unique<gpu::DeviceFftReal>(context, c.n, dbl, desc.kind == Kind::r2c, c.layout);
  }

  template <class I, class O>
  void execute(Kind kind, Precision precision, const Buffer<I>& in, Buffer<O>& out) const {
    if (kind != desc.kind || precision != desc.precision)
      throw InvalidArgument(std::string("execute: buffers of ") + type_name<I>() + " in and " + type_name<O>() +
                            " out are a " + kind_name(kind) + " " + precision_name(precision) + " transform, but the plan is " +
                            kind_name(desc.kind) + " " + precision_name(desc.precision));
    for (const auto& [what, device] : {std::pair{"in", &in.queue().device()}, std::pair{"out", &out.queue().device()}})
      if (!(*device == queue.device()))
        throw InvalidArgument(std::string("execute: ") + what + " is on " + device->to_string() +
                              " but the plan is on " + queue.device().to_string());
    if (in.size() < in_span)
      throw InvalidArgument("execute: in holds " + std::to_string(in.size()) + " elements but the input layout spans " +
                            std::to_string(in_span));
    if (out.size() < out_span)
      throw InvalidArgument("execute: out holds " + std::to_string(out.size()) +
                            " elements but the output layout spans " + std::to_string(out_span));
    if (cpu) {
      cpu->execute(host_data(in), host_data(out));
      return;
    }
    if (in.queue().impl() != queue.impl()) in.queue().synchronize();
    if (out.queue().impl() != queue.impl()) out.queue().synchronize();
    {
      std::lock_guard lock(order);
      gpu::Stream& stream = gpu::stream_of(queue);
      if (gpu)
        gpu->run(stream, gpu::memory_of(in.raw()), gpu::memory_of(out.raw()), desc.direction, scale);
      else
        real->run(stream, gpu::memory_of(in.raw()), gpu::memory_of(out.raw()), scale);
    }
    if (out.queue().impl() != queue.impl()) queue.synchronize();
  }
};

DevicePlan::DevicePlan(const Queue& queue, const PlanDesc& desc) : impl_(std::make_unique<Impl>(queue, desc)) {}
DevicePlan::DevicePlan(DevicePlan&&) noexcept = default;
DevicePlan& DevicePlan::operator=(DevicePlan&&) noexcept = default;
DevicePlan::~DevicePlan() = default;

const PlanDesc& DevicePlan::desc() const { return impl_->desc; }
const Queue& DevicePlan::queue() const { return impl_->queue; }
std::size_t DevicePlan::input_span() const { return impl_->in_span; }
std::size_t DevicePlan::output_span() const { return impl_->out_span; }
std::string DevicePlan::describe() const {
  if (impl_->cpu) return "cpu " + impl_->cpu->describe();
  if (impl_->gpu) return impl_->gpu->describe();
  return std::string("gpu ") + (impl_->desc.kind == Kind::r2c ? "r2c" : "c2r") + " n=" +
         std::to_string(impl_->desc.shape[0]) + ": [" + impl_->real->half().describe() + "]" +
         (impl_->real->odd() ? " (odd: a complex FFT of n)" : impl_->real->direct() ? "" : " with a pack/unpack of the reals");
}

void DevicePlan::execute(const Buffer<std::complex<float>>& in, Buffer<std::complex<float>>& out) const {
  impl_->execute(Kind::c2c, Precision::f32, in, out);
}
void DevicePlan::execute(const Buffer<std::complex<double>>& in, Buffer<std::complex<double>>& out) const {
  impl_->execute(Kind::c2c, Precision::f64, in, out);
}
void DevicePlan::execute(const Buffer<float>& in, Buffer<std::complex<float>>& out) const {
  impl_->execute(Kind::r2c, Precision::f32, in, out);
}
void DevicePlan::execute(const Buffer<double>& in, Buffer<std::complex<double>>& out) const {
  impl_->execute(Kind::r2c, Precision::f64, in, out);
}
void DevicePlan::execute(const Buffer<std::complex<float>>& in, Buffer<float>& out) const {
  impl_->execute(Kind::c2r, Precision::f32, in, out);
}
void DevicePlan::execute(const Buffer<std::complex<double>>& in, Buffer<double>& out) const {
  impl_->execute(Kind::c2r, Precision::f64, in, out);
}

}  // namespace ripple::fft
