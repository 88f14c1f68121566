// Finding devices across backends and opening each one once.
#include "gpu/registry.hpp"

#include <map>
#include <mutex>

#include "ripple/error.hpp"

namespace ripple::gpu {

#if !defined(RIPPLE_HAVE_OPENCL)
Backend* opencl_backend() { return nullptr; }
#endif
#if !defined(RIPPLE_HAVE_CUDA)
Backend* cuda_backend() { return nullptr; }
#endif

std::string not_built_reason(Api api) {
  if (api == Api::cuda && !cuda_backend())
    return "not built into this library (RIPPLE_CUDA=OFF, or no CUDA toolkit at build time)";
  if (api == Api::opencl && !opencl_backend())
    return "not built into this library (RIPPLE_OPENCL=OFF, or no OpenCL headers at build time)";
  return {};
}

namespace {

Backend* backend_of(DeviceKind kind) {
  return kind == DeviceKind::cuda ? cuda_backend() : kind == DeviceKind::opencl ? opencl_backend() : nullptr;
}

// Position of `device` in its backend's list, or -1.
int position(const Device& device) {
  Backend* b = backend_of(device.kind());
  if (!b) return -1;
  const auto& list = b->devices();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const bool match = device.kind() == DeviceKind::cuda
                           ? list[i].device == device.index()
                           : list[i].platform == device.platform() && list[i].device == device.index();
    if (match) return static_cast<int>(i);
  }
  return -1;
}

// The contexts opened so far, by device id, and their lock. Contexts live as long as the
// process: drivers tear themselves down at exit, and releasing a context after that would call
// into an unloaded driver. (Held by a static pointer, so still reachable for leak checkers.)
struct OpenedContexts {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<Context>> by_device;
};

OpenedContexts& opened_contexts() {
  static auto* opened = new OpenedContexts();
  return *opened;
}

}  // namespace

const std::vector<DeviceFacts>& all_devices() {
  static const std::vector<DeviceFacts> all = [] {
    std::vector<DeviceFacts> v;
    for (Backend* b : {cuda_backend(), opencl_backend()})
      if (b) v.insert(v.end(), b->devices().begin(), b->devices().end());
    return v;
  }();
  return all;
}

const DeviceFacts* find_device(const Device& device) {
  const int i = position(device);
  return i < 0 ? nullptr : &backend_of(device.kind())->devices()[static_cast<std::size_t>(i)];
}

std::shared_ptr<Context> open_device(const Device& device) {
  const int i = position(device);
  if (i < 0) throw Unsupported("device " + device.to_string() + " is not present (see `ripple info`)");
  OpenedContexts& opened = opened_contexts();
  std::lock_guard lock(opened.mutex);
  auto& ctx = opened.by_device[device.to_string()];
  if (!ctx) ctx = backend_of(device.kind())->open(static_cast<std::size_t>(i));
  return ctx;
}

std::shared_ptr<Context> open_device_for_queue(const Device& device, void* native) {
  const std::shared_ptr<Context> own = open_device(device);
  return backend_of(device.kind())->context_for_queue(static_cast<std::size_t>(position(device)), own, native);
}

std::vector<std::shared_ptr<Context>> caller_contexts(const Device& device) {
  const int i = position(device);
  if (i < 0) return {};
  return backend_of(device.kind())->caller_contexts(static_cast<std::size_t>(i));
}

std::shared_ptr<Context> opened_device(const Device& device) {
  OpenedContexts& opened = opened_contexts();
  std::lock_guard lock(opened.mutex);
  const auto it = opened.by_device.find(device.to_string());
  return it == opened.by_device.end() ? nullptr : it->second;
}

std::vector<BackendStatus> backend_statuses() {
  std::vector<BackendStatus> out;
  for (Api api : {Api::cuda, Api::opencl}) {
    BackendStatus s;
    s.name = api == Api::cuda ? "CUDA" : "OpenCL";
    Backend* b = api == Api::cuda ? cuda_backend() : opencl_backend();
    s.built = b != nullptr;
    if (b) {
      s.devices = b->devices().size();
      s.reason = b->absent_reason();
    } else {
      s.reason = not_built_reason(api);
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace ripple::gpu
