// The devices of every compiled-in backend, found once per process, and the one Context opened
// per device (shared by every Queue on it, so compiled programs are shared too).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpu/runtime.hpp"
#include "ripple/device.hpp"

namespace ripple::gpu {

/// Facts of every GPU device present: CUDA devices first, then OpenCL devices.
const std::vector<DeviceFacts>& all_devices();

/// The facts of `device` (a cuda or opencl Device), or nullptr if it is not present.
const DeviceFacts* find_device(const Device& device);

/// The Context of `device`, opened on first use and kept for the life of the process. Throws
/// Unsupported if the device is not present, DeviceError if opening it fails.
std::shared_ptr<Context> open_device(const Device& device);

/// The Context in which the caller's queue `native` on `device` runs work (Queue::wrap): the
/// device's own (open_device), or for an OpenCL queue of the caller's context one over that
/// (Backend::context_for_queue). Throws as open_device, and InvalidArgument if `native` is not
/// a queue of `device`.
std::shared_ptr<Context> open_device_for_queue(const Device& device, void* native);

/// The Contexts over the caller's contexts (Queue::wrap) on `device` still in use.
std::vector<std::shared_ptr<Context>> caller_contexts(const Device& device);

/// The Context of `device` if open_device has opened it, else nullptr (opens nothing).
std::shared_ptr<Context> opened_device(const Device& device);

/// One report per API, built or not.
std::vector<BackendStatus> backend_statuses();

}  // namespace ripple::gpu
