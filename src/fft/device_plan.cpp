// fft::DevicePlan (include/ripple/fft/device.hpp): the public FFT plan on a Queue. The PlanDesc
// is validated as fft::Plan's is (fft/plan_desc.hpp); a GPU queue gets the GPU FFT
// (src/gpu/device_fft_plan), a CPU queue fft::Plan on the buffers' host bytes. Checks of
// overloads, sizes and devices happen in execute() before anything is enqueued.
#include "ripple/fft/device.hpp"

#include <cmath>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "fft/device_axis_passes.hpp"
#include "fft/plan_desc.hpp"
#include "gpu/device_fft_plan.hpp"
#include "gpu/device_fft_real.hpp"
#include "gpu/queue_impl.hpp"
#include "ripple/error.hpp"

namespace ripple::fft {

namespace {

using detail::kind_name;
using detail::precision_name;
using gpu::host_data;

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
  // Ranks 2 and 3: one pass per axis (fft/device_axis_passes.hpp), as the CPU plan (fft/nd.hpp).
  std::unique_ptr<detail::DeviceAxisPasses> axes;
  mutable std::mutex order;  // the passes of one execute are enqueued together (shared scratch)

  Impl(const Queue& q, const PlanDesc& d) : desc(d), queue(q) {
    if (q.device().kind() == DeviceKind::cpu) {
      cpu.emplace(desc);
      in_span = cpu->input_span();
      out_span = cpu->output_span();
      return;
    }
    const detail::CheckedDesc c = detail::check_plan_desc(desc);
    const auto layout = detail::layout_of<gpu::FftLayout>(c);
    in_span = c.in_span;
    out_span = c.out_span;
    scale = c.scale;
    gpu::Context& context = gpu::context_of(q);
    const bool dbl = desc.precision == Precision::f64;
    if (dbl && !context.facts().fp64)
      throw Unsupported("precision f64: device " + context.facts().name + " has no double precision");
    if (desc.shape.size() > 1) {
      std::vector<std::size_t> every_axis(desc.shape.size());
      for (std::size_t a = 0; a < every_axis.size(); ++a) every_axis[a] = a;
      axes = std::make_unique<detail::DeviceAxisPasses>(context, desc.shape, every_axis, desc.kind, dbl, c,
                                                        q.device().to_string());
    } else if (desc.kind == Kind::c2c) {
      gpu = std::make_unique<gpu::DeviceFftPlan>(context, c.n, dbl, layout);
    } else {
      real = std::make_unique<gpu::DeviceFftReal>(context, c.n, dbl, desc.kind == Kind::r2c, layout);
    }
    // The programs compile side by side, each on a thread of its own; the plan is made when
    // all are (so execute never waits for a compiler, and a compile error is the plan's).
    if (gpu) gpu->wait_ready();
    if (real) real->wait_ready();
    if (axes) axes->wait_ready();
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
      const gpu::Memory& source = gpu::memory_of(in.raw());
      gpu::Memory& target = gpu::memory_of(out.raw());
      if (axes)
        axes->run(stream, source, target, desc.direction, scale);
      else if (gpu)
        gpu->run(stream, source, target, desc.direction, scale);
      else
        real->run(stream, source, target, scale);
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
  if (impl_->axes)
    return "gpu " + kind_name(impl_->desc.kind) + " rank " + std::to_string(impl_->desc.shape.size()) + ": " +
           impl_->axes->describe();
  if (impl_->gpu) return impl_->gpu->describe();
  return std::string("gpu ") + (impl_->desc.kind == Kind::r2c ? "r2c" : "c2r") + " n=" +
         std::to_string(impl_->desc.shape[0]) + (impl_->desc.precision == Precision::f64 ? " f64: " : " f32: ") +
         impl_->real->describe();
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
