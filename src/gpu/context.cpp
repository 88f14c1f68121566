// Context::allocate: the backend's allocation, tried once more after emptying the table cache
// where the first try fails (runtime.hpp).
#include "gpu/device_tables.hpp"
#include "gpu/runtime.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {

std::string launch_text(const std::string& name, const Launch& grid) {
  auto dims = [](const std::array<std::uint32_t, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
  };
  return "kernel " + name + " (groups " + dims(grid.groups) + ", block " + dims(grid.block) + ")";
}

std::unique_ptr<Memory> Context::allocate(std::size_t bytes) {
  try {
    return allocate_memory(bytes);
  } catch (const DeviceError&) {
    // The tables are a cache for plans made later; a plan or buffer asked for now comes first.
    // Nothing freed: the first failure is the one to report.
    if (release_cached_tables(*this) == 0) throw;
  }
  return allocate_memory(bytes);
}

}  // namespace ripple::gpu
