// What a public Queue and Buffer hold, for the GPU launch logic inside the library:
// a queue is a device's Context plus one Stream; a buffer is Memory of that context (or host
// bytes for the CPU).
#pragma once

#include <memory>
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
  std::vector<std::byte> host;          // the CPU
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

/// The values of a Buffer on the CPU device (host bytes; empty for a GPU buffer).
template <class T>
T* host_data(const Buffer<T>& b) {
  return reinterpret_cast<T*>(b.raw().impl().host.data());
}

}  // namespace gpu
}  // namespace ripple
