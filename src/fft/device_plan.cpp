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

#include "fft/plan_desc.hpp"
#include "gpu/device_fft_plan.hpp"
#include "gpu/device_fft_real.hpp"
#include "gpu/queue_impl.hpp"
#include "ripple/error.hpp"

namespace ripple::fft {

namespace detail {
// The lines of one axis of a rank 2 or 3 transform: up to three levels of batch (the elements
// after the axis, those before it, the transforms of the batch), levels of one line merged
// where they are evenly spaced on both sides. Two levels fit one FftLayout; a third is looped
// over at run time. (Outside the anonymous namespace: DevicePlan::Impl holds one.)
struct AxisLayout {
  gpu::FftLayout layout;
  std::uint64_t groups = 1;  // the third level
  std::int64_t in_step = 0, out_step = 0;
};
}  // namespace detail

namespace {

using detail::AxisLayout;

using detail::kind_name;
using detail::precision_name;

template <class T>
T* host_data(const Buffer<T>& b) {
  return reinterpret_cast<T*>(b.raw().impl().host.data());
}

// in_shape and out_shape differ in the last axis only (the rows of r2c and c2r: n reals, n/2+1
// complex values).
AxisLayout axis_layout(const std::vector<std::size_t>& in_shape, const std::vector<std::size_t>& out_shape,
                     std::size_t axis, std::uint64_t batch, std::int64_t in_stride, std::int64_t in_dist,
                     std::int64_t out_stride, std::int64_t out_dist) {
  std::uint64_t before = 1, after_in = 1, after_out = 1;
  for (std::size_t a = 0; a < axis; ++a) before *= in_shape[a];
  for (std::size_t a = axis + 1; a < in_shape.size(); ++a) {
    after_in *= in_shape[a];
    after_out *= out_shape[a];
  }
  const auto q_in = static_cast<std::int64_t>(after_in), q_out = static_cast<std::int64_t>(after_out);
  const auto line_in = static_cast<std::int64_t>(in_shape[axis]) * q_in * in_stride;
  const auto line_out = static_cast<std::int64_t>(out_shape[axis]) * q_out * out_stride;
  struct Level {
    std::uint64_t count;
    std::int64_t in, out;
  };
  std::vector<Level> levels;
  // The elements after the axis are as many on both sides (the last axis has none after it).
  for (const Level& l : {Level{after_in, in_stride, out_stride}, Level{before, line_in, line_out},
                         Level{batch, in_dist, out_dist}}) {
    if (l.count == 1) continue;
    if (!levels.empty() && l.in == static_cast<std::int64_t>(levels.back().count) * levels.back().in &&
        l.out == static_cast<std::int64_t>(levels.back().count) * levels.back().out)
      levels.back().count *= l.count;  // evenly spaced after the level inside it: one level
    else
      levels.push_back(l);
  }
  AxisLayout lines;
  gpu::FftLayout& g = lines.layout;
  g.in_stride = q_in * in_stride;
  g.out_stride = q_out * out_stride;
  g.batch = 1;
  if (!levels.empty()) {
    g.batch = levels[0].count;
    g.in_dist = levels[0].in;
    g.out_dist = levels[0].out;
  }
  if (levels.size() > 1) {
    g.inner = levels[0].count;
    g.batch *= levels[1].count;
    g.in_dist_outer = levels[1].in;
    g.out_dist_outer = levels[1].out;
  }
  if (levels.size() > 2) {
    lines.groups = levels[2].count;
    lines.in_step = levels[2].in;
    lines.out_step = levels[2].out;
  }
  return lines;
}

std::size_t product_of(const std::vector<std::size_t>& shape) {
  std::size_t p = 1;
  for (std::size_t v : shape) p *= v;
  return p;
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
  // Ranks 2 and 3: one pass per axis, as the CPU plan (fft/nd.hpp). c2c and r2c: the rows (last
  // axis; real for r2c) in -> out with the norm's scale, then every other axis in place on out.
  // c2r: the other axes in -> work (packed complex values), then the real rows work -> out.
  enum class Slot { in, out, work };
  struct AxisPass {
    std::size_t axis;
    std::unique_ptr<gpu::DeviceFftPlan> plan;  // complex lines
    std::unique_ptr<gpu::DeviceFftReal> rows;  // the real rows of r2c and c2r
    AxisLayout lines;
    Slot from, to;
    bool scaled;
  };
  std::vector<AxisPass> axes;
  std::unique_ptr<gpu::Memory> work;  // c2r
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
    const std::string on = " on " + q.device().to_string();
    gpu::Context& context = gpu::context_of(q);
    const bool dbl = desc.precision == Precision::f64;
    if (dbl && !context.facts().fp64)
      throw Unsupported("precision f64: device " + context.facts().name + " has no double precision");
    if (desc.shape.size() > 1)
      plan_axes(context, c, dbl, on);
    else if (desc.kind == Kind::c2c)
      gpu = std::make_unique<gpu::DeviceFftPlan>(context, c.n, dbl, layout);
    else
      real = std::make_unique<gpu::DeviceFftReal>(context, c.n, dbl, desc.kind == Kind::r2c, layout);
    // The programs compile side by side, each on a thread of its own; the plan is made when
    // all are (so execute never waits for a compiler, and a compile error is the plan's).
    if (gpu) gpu->wait_ready();
    if (real) real->wait_ready();
    for (const AxisPass& p : axes) {
      if (p.plan) p.plan->wait_ready();
      if (p.rows) p.rows->wait_ready();
    }
  }

  void plan_axes(gpu::Context& context, const detail::CheckedDesc& c, bool dbl, const std::string& on) {
    const std::size_t rank = desc.shape.size();
    std::vector<std::size_t> half = desc.shape;  // the complex side
    if (desc.kind != Kind::c2c) half.back() = half.back() / 2 + 1;
    const auto unsupported_axis = [&](std::size_t a, const Unsupported& e) {
      return Unsupported("shape: axis " + std::to_string(a) + " of size " + std::to_string(desc.shape[a]) + on + ": " +
                         e.what());
    };
    // Every axis's size first, so a plan the GPU cannot do fails before compiling or allocating.
    for (std::size_t a = 0; a < rank; ++a) {
      const std::size_t n = desc.shape[a];
      try {
        gpu::DeviceFftPlan::check_size(a == rank - 1 && desc.kind != Kind::c2c && n % 2 == 0 ? n / 2 : n, dbl);
      } catch (const Unsupported& e) {
        throw unsupported_axis(a, e);
      }
    }
    const auto add = [&](std::size_t a, Slot from, Slot to, bool scaled, const AxisLayout& lines) {
      try {
        AxisPass p{a, nullptr, nullptr, lines, from, to, scaled};
        if (a == rank - 1 && desc.kind != Kind::c2c)
          p.rows =
              std::make_unique<gpu::DeviceFftReal>(context, desc.shape[a], dbl, desc.kind == Kind::r2c, lines.layout);
        else
          p.plan = std::make_unique<gpu::DeviceFftPlan>(context, desc.shape[a], dbl, lines.layout);
        axes.push_back(std::move(p));
      } catch (const Unsupported& e) {
        throw unsupported_axis(a, e);
      }
    };
    if (desc.kind != Kind::c2r) {
      const std::vector<std::size_t>& real_side = desc.kind == Kind::r2c ? desc.shape : half;
      add(rank - 1, Slot::in, Slot::out, true,
          axis_layout(real_side, half, rank - 1, c.batch, c.in_stride, c.in_dist, c.out_stride, c.out_dist));
      for (std::size_t a = rank - 1; a-- > 0;)
        if (desc.shape[a] > 1)
          add(a, Slot::out, Slot::out, false,
              axis_layout(half, half, a, c.batch, c.out_stride, c.out_dist, c.out_stride, c.out_dist));
      return;
    }
    // c2r: axis 0 first, also when of size 1 (then a copy), from the input into the work array.
    const auto packed = static_cast<std::int64_t>(c.batch > 1 ? product_of(half) : 0);
    work = context.allocate(static_cast<std::size_t>(c.batch) * product_of(half) * (dbl ? 16 : 8));
    for (std::size_t a = 0; a + 1 < rank; ++a) {
      if (a > 0 && desc.shape[a] == 1) continue;
      const bool first = a == 0;
      add(a, first ? Slot::in : Slot::work, Slot::work, false,
          axis_layout(half, half, a, c.batch, first ? c.in_stride : 1, first ? c.in_dist : packed, 1, packed));
    }
    add(rank - 1, Slot::work, Slot::out, true,
        axis_layout(half, desc.shape, rank - 1, c.batch, 1, packed, c.out_stride, c.out_dist));
  }

  void run_axes(gpu::Stream& stream, const gpu::Memory& in, gpu::Memory& out) const {
    const auto source = [&](Slot s) -> const gpu::Memory& {
      return s == Slot::in ? in : s == Slot::out ? out : *work;
    };
    const auto target = [&](Slot s) -> gpu::Memory& { return s == Slot::out ? out : *work; };
    for (const AxisPass& p : axes) {
      const double s = p.scaled ? scale : 1.0;
      if (p.rows) {  // real rows have at most two levels of lines (nothing after the last axis)
        p.rows->run(stream, source(p.from), target(p.to), s);
        continue;
      }
      for (std::uint64_t g = 0; g < p.lines.groups; ++g) {
        const auto at = static_cast<std::int64_t>(g);
        p.plan->run(stream, source(p.from), target(p.to), desc.direction, s, at * p.lines.in_step, at * p.lines.out_step);
      }
    }
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
      if (!axes.empty())
        run_axes(stream, source, target);
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
  if (!impl_->axes.empty()) {
    std::string s = "gpu " + kind_name(impl_->desc.kind) + " rank " + std::to_string(impl_->desc.shape.size());
    for (const auto& p : impl_->axes) {
      const std::string what = p.plan ? p.plan->describe() : "real rows: " + p.rows->describe();
      s += (&p == &impl_->axes.front() ? ": axis " : ", axis ") + std::to_string(p.axis) + " [" + what + "]";
    }
    return s;
  }
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
