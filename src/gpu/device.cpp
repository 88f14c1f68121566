// The public Device, Queue and Buffer (include/ripple/device.hpp) over the GPU registry.
#include "ripple/device.hpp"

#include <charconv>
#include <fstream>
#include <limits>
#include <thread>

#include "gpu/device_tables.hpp"
#include "gpu/queue_impl.hpp"
#include "gpu/registry.hpp"
#include "ripple/error.hpp"
#include "ripple/runtime.hpp"

namespace ripple {

namespace {

// A non-negative int written in full, or -1.
int parse_index(std::string_view s) {
  int v = -1;
  if (s.empty() || s.front() == '+' || s.front() == '-') return -1;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return -1;
  return v;
}

[[noreturn]] void bad_device(std::string_view text, const std::string& why) {
  throw InvalidArgument("device \"" + std::string(text) + "\": " + why +
                        " (expected cpu, cuda:N or opencl:P.D, e.g. opencl:0.0)");
}

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "host CPU";
}

}  // namespace

Device Device::cuda(int ordinal) {
  if (ordinal < 0) throw InvalidArgument("CUDA device ordinal " + std::to_string(ordinal) + " is negative");
  Device d;
  d.kind_ = DeviceKind::cuda;
  d.index_ = ordinal;
  return d;
}

Device Device::opencl(int platform, int device) {
  if (platform < 0 || device < 0)
    throw InvalidArgument("OpenCL device " + std::to_string(platform) + "." + std::to_string(device) +
                          " has a negative index");
  Device d;
  d.kind_ = DeviceKind::opencl;
  d.platform_ = platform;
  d.index_ = device;
  return d;
}

Device Device::parse(std::string_view text) {
  if (text == "cpu") return cpu();
  if (text == "cuda") return cuda(0);
  if (text == "opencl") return opencl(0, 0);
  if (text.rfind("cuda:", 0) == 0) {
    const int n = parse_index(text.substr(5));
    if (n < 0) bad_device(text, "the CUDA ordinal must be a non-negative integer");
    return cuda(n);
  }
  if (text.rfind("opencl:", 0) == 0) {
    const std::string_view rest = text.substr(7);
    const auto dot = rest.find('.');
    if (dot == std::string_view::npos) bad_device(text, "an OpenCL device needs platform.device");
    const int p = parse_index(rest.substr(0, dot));
    const int d = parse_index(rest.substr(dot + 1));
    if (p < 0 || d < 0) bad_device(text, "platform and device must be non-negative integers");
    return opencl(p, d);
  }
  bad_device(text, "unknown device kind");
}

std::string Device::to_string() const {
  switch (kind_) {
    case DeviceKind::cuda:
      return "cuda:" + std::to_string(index_);
    case DeviceKind::opencl:
      return "opencl:" + std::to_string(platform_) + "." + std::to_string(index_);
    case DeviceKind::cpu:
      break;
  }
  return "cpu";
}

bool Device::available() const { return kind_ == DeviceKind::cpu || gpu::find_device(*this) != nullptr; }

std::size_t Device::release_cached_memory() const {
  if (kind_ == DeviceKind::cpu) return 0;
  std::vector<std::shared_ptr<gpu::Context>> contexts = gpu::caller_contexts(*this);
  if (std::shared_ptr<gpu::Context> own = gpu::opened_device(*this)) contexts.push_back(std::move(own));
  std::size_t freed = 0;
  for (const auto& context : contexts) freed += gpu::release_cached_tables(*context);
  return freed;
}

DeviceInfo Device::info() const {
  DeviceInfo info;
  if (kind_ == DeviceKind::cpu) {
    info.name = cpu_model_name();
    info.vendor = "host";
    info.platform = "host";
    info.arch = simd_target();
    info.compute_units = std::thread::hardware_concurrency();
    info.fp64 = true;
    return info;
  }
  const gpu::DeviceFacts* f = gpu::find_device(*this);
  if (!f) throw Unsupported("device " + to_string() + " is not present (see `ripple info`)");
  info.name = f->name;
  info.vendor = f->vendor;
  info.platform = f->platform_name;
  info.driver_version = f->driver_version;
  info.runtime_version = f->runtime_version;
  info.arch = f->arch;
  info.global_memory = f->global_memory;
  info.compute_units = f->compute_units;
  info.is_gpu = f->is_gpu;
  info.fp64 = f->fp64;
  return info;
}

std::vector<Device> Device::list() {
  std::vector<Device> out{cpu()};
  for (const gpu::DeviceFacts& f : gpu::all_devices())
    out.push_back(f.api == gpu::Api::cuda ? cuda(f.device) : opencl(f.platform, f.device));
  return out;
}

Device Device::best(bool allow_opencl_cpu) {
  const auto& all = gpu::all_devices();
  for (const auto& f : all)
    if (f.api == gpu::Api::cuda) return cuda(f.device);
  for (const auto& f : all)
    if (f.api == gpu::Api::opencl && f.is_gpu) return opencl(f.platform, f.device);
  if (allow_opencl_cpu)
    for (const auto& f : all)
      if (f.api == gpu::Api::opencl) return opencl(f.platform, f.device);
  return cpu();
}

std::vector<BackendStatus> Device::backends() { return gpu::backend_statuses(); }

Queue::Queue(const Device& device) : impl_(std::make_shared<Impl>()) {
  impl_->device = device;
  if (device.kind() == DeviceKind::cpu) return;
  impl_->context = gpu::open_device(device);
  impl_->stream = impl_->context->create_stream();
}

Queue Queue::wrap(const Device& device, void* native_queue) {
  if (device.kind() == DeviceKind::cpu)
    throw InvalidArgument("Queue::wrap: the CPU has no queue to wrap (work there runs when called)");
  Queue q(std::make_shared<Impl>());
  q.impl_->device = device;
  q.impl_->context = gpu::open_device_for_queue(device, native_queue);
  q.impl_->stream = q.impl_->context->wrap_stream(native_queue);
  return q;
}

Queue::Queue(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

const Device& Queue::device() const { return impl_->device; }

void Queue::synchronize() const {
  if (impl_->stream) impl_->stream->synchronize();
}

void* Queue::native_handle() const { return impl_->stream ? impl_->stream->native_handle() : nullptr; }

namespace detail {

RawBuffer::RawBuffer(const Queue& queue, std::size_t bytes)
    : impl_(std::make_unique<Impl>(Impl{queue, bytes, {}, {}, {}})) {
  if (queue.impl()->context) {
    impl_->memory = queue.impl()->context->allocate(bytes);
  } else {
    impl_->host_storage.resize(bytes);
    impl_->host = impl_->host_storage.data();
  }
}

RawBuffer::RawBuffer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

RawBuffer RawBuffer::wrap(const Queue& queue, void* native, std::size_t bytes, std::size_t alignment) {
  auto impl = std::make_unique<Impl>(Impl{queue, bytes, {}, {}, {}});
  if (queue.impl()->context) {
    impl->memory = queue.impl()->context->wrap_memory(native, bytes, alignment);
  } else {
    if (!native) throw InvalidArgument("Buffer::wrap: the host pointer is null");
    if (reinterpret_cast<std::uintptr_t>(native) % alignment != 0)
      throw InvalidArgument("Buffer::wrap: the host pointer is not aligned to " + std::to_string(alignment) +
                            " bytes, as its values are");
    impl->host = static_cast<std::byte*>(native);
  }
  return RawBuffer(std::move(impl));
}

RawBuffer::~RawBuffer() = default;
RawBuffer::RawBuffer(RawBuffer&&) noexcept = default;
RawBuffer& RawBuffer::operator=(RawBuffer&&) noexcept = default;

std::size_t RawBuffer::bytes() const { return impl_->bytes; }
const Queue& RawBuffer::queue() const { return impl_->queue; }

void RawBuffer::upload(const void* src, std::size_t offset, std::size_t bytes) {
  if (bytes == 0) return;
  if (impl_->memory)
    impl_->queue.impl()->stream->upload(*impl_->memory, offset, src, bytes);
  else
    std::memcpy(impl_->host + offset, src, bytes);
}

void RawBuffer::download(void* dst, std::size_t offset, std::size_t bytes) const {
  if (bytes == 0) return;
  if (impl_->memory)
    impl_->queue.impl()->stream->download(*impl_->memory, offset, dst, bytes);
  else
    std::memcpy(dst, impl_->host + offset, bytes);
}

void* RawBuffer::native_handle() const {
  return impl_->memory ? impl_->memory->native_handle() : static_cast<void*>(impl_->host);
}

void throw_buffer_size(std::size_t n, std::size_t elem) {
  throw InvalidArgument("Buffer of " + std::to_string(n) + " values of " + std::to_string(elem) +
                        " bytes: the size in bytes overflows");
}

void throw_buffer_range(const char* what, std::size_t offset, std::size_t count, std::size_t size) {
  throw InvalidArgument(std::string("Buffer ") + what + " of " + std::to_string(count) +
                        " values at offset " + std::to_string(offset) + " does not fit in a buffer of " +
                        std::to_string(size) + " values");
}

}  // namespace detail

namespace gpu {

void check_same_memory(const std::string& where, const std::string& a_name, const Queue& a,
                       const std::string& b_name, const Queue& b) {
  if (!(a.device() == b.device()))
    throw InvalidArgument(where + ": " + a_name + " is on " + a.device().to_string() + " but " + b_name + " is on " +
                          b.device().to_string());
  if (a.impl()->context != b.impl()->context)
    throw InvalidArgument(where + ": " + a_name + " and " + b_name + " are on " + a.device().to_string() +
                          " but in different OpenCL contexts (a queue of the caller's context was wrapped); "
                          "their memory is not shared");
}

Memory::Extent extent_of(const detail::RawBuffer& buffer) {
  if (buffer.impl().memory) return buffer.impl().memory->extent();
  return {nullptr, reinterpret_cast<std::uintptr_t>(buffer.impl().host), buffer.bytes()};
}

Sharing sharing(const detail::RawBuffer& a, std::size_t a_bytes, const detail::RawBuffer& b, std::size_t b_bytes) {
  if (&a == &b) return Sharing::same_start;
  return sharing(extent_of(a), a_bytes, extent_of(b), b_bytes);
}

Sharing sharing(const Memory::Extent& x, std::size_t a_bytes, const Memory::Extent& y, std::size_t b_bytes) {
  if (x.space != y.space) return Sharing::apart;
  if (x.begin == y.begin) return Sharing::same_start;
  const bool meet = x.begin < y.begin ? y.begin - x.begin < a_bytes : x.begin - y.begin < b_bytes;
  if (meet) return Sharing::overlapping;
  return x.part != y.part ? Sharing::parent_and_part : Sharing::apart;
}

Sharing check_sharing(const std::string& where, const std::string& a_name, const detail::RawBuffer& a,
                      std::size_t a_bytes, const std::string& b_name, const detail::RawBuffer& b, std::size_t b_bytes) {
  const Sharing s = sharing(a, a_bytes, b, b_bytes);
  if (s == Sharing::overlapping)
    throw InvalidArgument(where + ": " + a_name + " and " + b_name +
                          " share memory but do not start at the same byte (wrapped twice); work in place "
                          "takes one buffer, or two from the same start");
  if (s == Sharing::parent_and_part)
    throw InvalidArgument(where + ": " + a_name + " and " + b_name +
                          " are an OpenCL buffer and a sub-buffer of it, which OpenCL does not let one command "
                          "read and write; wrap sub-buffers for both");
  return s;
}

}  // namespace gpu
}  // namespace ripple
