// What a public Queue and Buffer hold, for the GPU launch logic inside the library:
// a queue is a device's Context plus one Stream; a buffer is Memory of that context (or host
// bytes for the CPU).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpu/runtime.hpp"
#include "ripple/device.hpp"
#include "ripple/error.hpp"

namespace ripple {

struct Queue::Impl {
  Device device;
  std::shared_ptr<gpu::Context> context;  // null for the CPU
  std::unique_ptr<gpu::Stream> stream;    // null for the CPU
};

struct detail::RawBuffer::Impl {
  Queue queue;
  std::size_t bytes = 0;
  std::unique_ptr<gpu::Memory> memory;  // GPU devices
  std::byte* host = nullptr;            // the CPU: host_storage's, or the caller's (wrap)
  std::vector<std::byte> host_storage;
};

namespace gpu {

/// The GPU objects behind a public Queue or Buffer, for launch logic given them. Each throws
/// InvalidArgument naming the device if the queue or buffer is on the CPU.
inline Context& context_of(const Queue& queue) {
  if (!queue.impl()->context)
    throw InvalidArgument("a GPU queue is needed, got one on " + queue.device().to_string());
  return *queue.impl()->context;
}
inline Stream& stream_of(const Queue& queue) {
  context_of(queue);
  return *queue.impl()->stream;
}
inline Memory& memory_of(detail::RawBuffer& buffer) {
  if (!buffer.impl().memory)
    throw InvalidArgument("a buffer in GPU memory is needed, got one on " +
                          buffer.queue().device().to_string());
  return *buffer.impl().memory;
}
inline const Memory& memory_of(const detail::RawBuffer& buffer) {
  return memory_of(const_cast<detail::RawBuffer&>(buffer));
}

/// The values of a Buffer on the CPU device (host bytes; nullptr for a GPU buffer).
template <class T>
T* host_data(const Buffer<T>& b) {
  return reinterpret_cast<T*>(b.raw().impl().host);
}

/// Throws InvalidArgument "<where>: <a_name> is on <device> but <b_name> is on <device>" unless
/// buffers of queue `a` can take part in queue `b`'s work: the same device and, for OpenCL, the
/// same context (a Queue::wrap of the caller's queue may be in a context of the caller's).
void check_same_memory(const std::string& where, const std::string& a_name, const Queue& a,
                       const std::string& b_name, const Queue& b);

/// How the first `a_bytes` of buffer a and the first `b_bytes` of b lie: apart, from the same
/// first byte (one buffer, or two wrapping the same memory: work in place then passes one of
/// them, the larger, for both), overlapping otherwise, or an OpenCL buffer and a sub-buffer of
/// it not from its first byte (which one command may not write and read). All but the first
/// two are possible only where the caller's memory is wrapped twice.
enum class Sharing { apart, same_start, overlapping, parent_and_part };
Sharing sharing(const detail::RawBuffer& a, std::size_t a_bytes, const detail::RawBuffer& b, std::size_t b_bytes);
/// The same of two extents (Memory::extent(); a host buffer's: its address range).
Sharing sharing(const Memory::Extent& a, std::size_t a_bytes, const Memory::Extent& b, std::size_t b_bytes);
/// A buffer's extent: its Memory's, or its host bytes' address range.
Memory::Extent extent_of(const detail::RawBuffer& buffer);

/// sharing(a, b), throwing InvalidArgument "<where>: <a_name> and <b_name> share memory ..."
/// unless they are apart or start at the same byte (the one in-place case there is).
Sharing check_sharing(const std::string& where, const std::string& a_name, const detail::RawBuffer& a,
                      std::size_t a_bytes, const std::string& b_name, const detail::RawBuffer& b, std::size_t b_bytes);

}  // namespace gpu
}  // namespace ripple
