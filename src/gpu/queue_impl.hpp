// What a public Queue and Buffer hold, for the GPU launch logic inside the library:
// a queue is a device's Context plus one Stream; a buffer is Memory of that context (or host
// bytes for the CPU).
#pragma once

#include <memory>
#include <vector>

#include "gpu/runtime.hpp"
#include "ripple/device.hpp"

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

}  // namespace ripple
