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
#include "gpu/scratch.hpp"
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
  detail::CheckedDesc checked;  // spans, scale, resolved layout
  std::optional<Plan> cpu;
  std::unique_ptr<gpu::DeviceFftPlan> gpu;  // c2c
  std::unique_ptr<gpu::DeviceFftReal> real;  // r2c, c2r
  // Ranks 2 and 3: one pass per axis (fft/device_axis_passes.hpp), as the CPU plan (fft/nd.hpp).
  std::unique_ptr<detail::DeviceAxisPasses> axes;
  mutable std::mutex order;  // the passes of one execute are enqueued together (shared scratch)
  gpu::ScratchPieces scratch;  // the passes' scratch: the plan's, or placeholders for the caller's area
  std::optional<gpu::Memory::Extent> work_area;  // the caller's, once set (WorkArea::caller), over the bytes used

  Impl(const Queue& q, const PlanDesc& d, WorkArea area)
      : desc(d), queue(q), checked(detail::check_plan_desc(d)) {
    scratch.deferred = area == WorkArea::caller;
    if (q.device().kind() == DeviceKind::cpu) {
      cpu.emplace(desc);
      return;
    }
    const gpu::CollectScratch collect(scratch);
    const detail::CheckedDesc& c = checked;
    const auto layout = detail::layout_of<gpu::FftLayout>(c);
    const bool dbl = desc.precision == Precision::f64;
    gpu::Context& context = detail::gpu_context(q, dbl);
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
    check_devices(in.queue(), out.queue());
    if (in.size() < checked.in_span)
      throw InvalidArgument("execute: in holds " + std::to_string(in.size()) + " elements but the input layout spans " +
                            std::to_string(checked.in_span));
    if (out.size() < checked.out_span)
      throw InvalidArgument("execute: out holds " + std::to_string(out.size()) +
                            " elements but the output layout spans " + std::to_string(checked.out_span));
    // Two buffers wrapping the same memory are one: in place, through the one holding both
    // spans (an OpenCL sub-buffer may end before its parent does).
    const bool in_place = gpu::check_sharing("execute", "in", in.raw(), checked.in_span * sizeof(I), "out", out.raw(),
                                             checked.out_span * sizeof(O)) == gpu::Sharing::same_start;
    if (in_place && kind != Kind::c2c) check_real_in_place();
    if (cpu) return cpu->execute(host_data(in), host_data(out));
    if (!in_place) return enqueue(in.queue(), in.raw(), out.queue(), out.raw());
    auto& both = const_cast<ripple::detail::RawBuffer&>(in.raw().bytes() > out.raw().bytes() ? in.raw() : out.raw());
    enqueue(in.queue(), both, out.queue(), both);
  }

  // One buffer holding both sides (DevicePlan::execute(data)); a real side is data's memory as
  // reals, counted in reals.
  template <class T>
  void execute_in_place(Buffer<std::complex<T>>& data) const {
    if (desc.kind == Kind::c2c) return execute(Kind::c2c, detail::precision_of<T>(), data, data);
    if (detail::precision_of<T>() != desc.precision)
      throw InvalidArgument(std::string("execute: a buffer of ") + type_name<std::complex<T>>() + " in place is a " +
                            precision_name(detail::precision_of<T>()) + " transform, but the plan is " +
                            kind_name(desc.kind) + " " + precision_name(desc.precision));
    check_devices(data.queue(), data.queue());
    const bool r2c = desc.kind == Kind::r2c;
    const std::size_t reals = r2c ? checked.in_span : checked.out_span;
    const std::size_t values = r2c ? checked.out_span : checked.in_span;
    if (data.size() < values || data.size() < (reals + 1) / 2)
      throw InvalidArgument("execute: data holds " + std::to_string(data.size()) + " complex values (" +
                            std::to_string(2 * data.size()) + " reals) but the layouts span " + std::to_string(values) +
                            " complex values and " + std::to_string(reals) + " reals");
    check_real_in_place();
    if (cpu) {
      T* real_side = reinterpret_cast<T*>(host_data(data));
      if (r2c) return cpu->execute(real_side, host_data(data));
      return cpu->execute(host_data(data), real_side);
    }
    enqueue(data.queue(), data.raw(), data.queue(), data.raw());
  }

  void check_devices(const Queue& in, const Queue& out) const {
    gpu::check_same_memory("execute", "in", in, "the plan", queue);
    gpu::check_same_memory("execute", "out", out, "the plan", queue);
  }

  // Whether a real transform can have both sides in one buffer. Every pass reads all of a
  // transform's input before writing its output, the passes of a rank 2 or 3 r2c the rows of
  // the real axis; so each transform's (rank 1) or each row's (r2c of rank 2, 3) reals and
  // complex values must cover the same bytes, no transform or row writing what another has yet
  // to read, unless there is one line. Rank 2 and 3 c2r read the input into their work array
  // first.
  void check_real_in_place() const {
    const bool r2c = desc.kind == Kind::r2c;
    const std::size_t rank = desc.shape.size(), n = desc.shape.back(), half = n / 2 + 1;
    std::size_t rows = checked.batch;  // lines along the last axis
    for (std::size_t a = 0; a + 1 < rank; ++a) rows *= desc.shape[a];
    if ((rank > 1 && !r2c) || rows == 1) return;
    const std::ptrdiff_t real_stride = r2c ? checked.in_stride : checked.out_stride;
    const std::ptrdiff_t complex_stride = r2c ? checked.out_stride : checked.in_stride;
    const std::ptrdiff_t real_dist = r2c ? checked.in_dist : checked.out_dist;
    const std::ptrdiff_t complex_dist = r2c ? checked.out_dist : checked.in_dist;
    const std::string sides = "the reals have stride " + std::to_string(real_stride) + " and distance " +
                              std::to_string(real_dist) + ", the complex values stride " +
                              std::to_string(complex_stride) + " and distance " + std::to_string(complex_dist);
    const bool dists_match = checked.batch == 1 || real_dist == 2 * complex_dist;
    if (rank == 1) {
      if (real_stride != 1 || complex_stride != 1 || !dists_match || complex_dist < static_cast<std::ptrdiff_t>(half))
        throw InvalidArgument(
            "execute in place: each of the " + kind_name(desc.kind) + "'s " + std::to_string(checked.batch) +
            " transforms must have its reals and its complex values on the same bytes (strides 1, the real distance "
            "twice the complex one, which is at least n/2+1 = " + std::to_string(half) + ", as cuFFT's in-place "
            "layout), but " + sides + "; use two buffers");
      return;
    }
    // r2c of rank 2 or 3: rows of reals padded to twice the complex rows (in_embed), the other
    // axes embedded alike.
    const std::vector<std::size_t>& real_embed = checked.in_embed;
    const std::vector<std::size_t>& complex_embed = checked.out_embed;
    bool rows_match = real_stride == 1 && complex_stride == 1 && dists_match &&
                      real_embed.back() == 2 * complex_embed.back();
    for (std::size_t a = 1; a + 1 < rank; ++a) rows_match = rows_match && real_embed[a] == complex_embed[a];
    if (!rows_match) {
      std::string embeds;
      for (std::size_t a = 0; a < rank; ++a)
        embeds += (a ? ", " : "") + std::to_string(real_embed[a]) + "/" + std::to_string(complex_embed[a]);
      throw InvalidArgument(
          "execute in place: an r2c of rank " + std::to_string(rank) + " must have each row of reals on the bytes of "
          "its row of complex values (strides 1, in_embed's last size twice out_embed's, e.g. in_embed = {.., " +
          std::to_string(2 * half) + "}, the other sizes alike, the real distance twice the complex one), but " +
          sides + " and the embeddings (in/out) are " + embeds + "; use two buffers");
    }
  }

  // The caller's work area for the passes, at least work_bytes of it.
  void set_work_area(ripple::detail::RawBuffer& area) {
    if (!scratch.deferred)
      throw InvalidArgument("set_work_area: the plan owns its scratch; make it with WorkArea::caller to give it yours");
    gpu::check_same_memory("set_work_area", "the work area", area.queue(), "the plan", queue);
    const std::size_t need = scratch.bytes();
    if (area.bytes() < need)
      throw InvalidArgument("set_work_area: the work area holds " + std::to_string(area.bytes()) +
                            " bytes but the plan needs " + std::to_string(need) + " (work_bytes())");
    if (cpu) return;
    const gpu::Memory& memory = gpu::memory_of(area);
    if (memory.extent().space == nullptr && memory.extent().begin % 16 != 0)
      throw InvalidArgument("set_work_area: the work area does not start on 16 bytes, as the passes' double2 do");
    std::lock_guard lock(order);
    // Until every piece is bound the plan has no area: a binding that fails part way leaves
    // execute refused, not running across two areas.
    work_area.reset();
    scratch.bind(memory);
    work_area = memory.extent();
    work_area->bytes = need;  // the bytes the pieces use, for execute's sharing check
    // On OpenCL the pieces are sub-buffers of the buffer under the area.
    if (work_area->space) work_area->part = true;
  }

  // The caller's work area is set (where the plan needs one) and shares no memory with the
  // transform's buffers. With `order` held.
  void check_work_area(const ripple::detail::RawBuffer& in, const ripple::detail::RawBuffer& out) const {
    if (!scratch.deferred || cpu || scratch.pieces.empty()) return;
    if (!work_area)
      throw InvalidArgument("execute: the plan was made for a work area of the caller's (WorkArea::caller) and has "
                            "none; set_work_area with " + std::to_string(scratch.bytes()) + " bytes first");
    for (const auto& [name, buffer] : {std::pair{"in", &in}, std::pair{"out", &out}}) {
      const gpu::Sharing s = gpu::sharing(*work_area, work_area->bytes, gpu::extent_of(*buffer), buffer->bytes());
      if (s == gpu::Sharing::parent_and_part)
        throw InvalidArgument(std::string("execute: ") + name +
                              " is the OpenCL buffer the work area's pieces are sub-buffers of, which OpenCL does not "
                              "let one command read and write; use sub-buffers of it for both");
      if (s != gpu::Sharing::apart)
        throw InvalidArgument(std::string("execute: the work area and ") + name + " share memory");
    }
  }

  // The GPU passes from in's memory to out's (the same memory in place), ordered with the
  // buffers' queues.
  void enqueue(const Queue& in_queue, const ripple::detail::RawBuffer& in, const Queue& out_queue,
               ripple::detail::RawBuffer& out) const {
    if (in_queue.impl() != queue.impl()) in_queue.synchronize();
    if (out_queue.impl() != queue.impl()) out_queue.synchronize();
    {
      std::lock_guard lock(order);
      check_work_area(in, out);
      gpu::Stream& stream = gpu::stream_of(queue);
      const gpu::Memory& source = gpu::memory_of(in);
      gpu::Memory& target = gpu::memory_of(out);
      if (axes)
        axes->run(stream, source, target, desc.direction, checked.scale);
      else if (gpu)
        gpu->run(stream, source, target, desc.direction, checked.scale);
      else
        real->run(stream, source, target, checked.scale);
    }
    if (out_queue.impl() != queue.impl()) queue.synchronize();
  }
};

DevicePlan::DevicePlan(const Queue& queue, const PlanDesc& desc, WorkArea work_area)
    : impl_(std::make_unique<Impl>(queue, desc, work_area)) {}
DevicePlan::DevicePlan(DevicePlan&&) noexcept = default;
DevicePlan& DevicePlan::operator=(DevicePlan&&) noexcept = default;
DevicePlan::~DevicePlan() = default;

const PlanDesc& DevicePlan::desc() const { return impl_->desc; }
const Queue& DevicePlan::queue() const { return impl_->queue; }
std::size_t DevicePlan::input_span() const { return impl_->checked.in_span; }
std::size_t DevicePlan::output_span() const { return impl_->checked.out_span; }
std::size_t DevicePlan::work_bytes() const { return impl_->scratch.bytes(); }
void DevicePlan::set_work_area(ripple::detail::RawBuffer& area) { impl_->set_work_area(area); }
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
void DevicePlan::execute(Buffer<std::complex<float>>& data) const { impl_->execute_in_place(data); }
void DevicePlan::execute(Buffer<std::complex<double>>& data) const { impl_->execute_in_place(data); }

}  // namespace ripple::fft
