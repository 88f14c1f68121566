// Loading the OpenCL ICD loader at run time and naming OpenCL status codes.
#include "gpu/opencl/opencl_api.hpp"

#include <CL/cl_ext.h>
#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "ripple/error.hpp"

namespace ripple::gpu::opencl {

namespace {

struct Loaded {
  Api api;
  bool ok = false;
  std::string why;
};

Loaded load() {
  Loaded r;
  const char* env = std::getenv("RIPPLE_OPENCL_LIBRARY");
  const std::string path = env && *env ? env : "libOpenCL.so.1";
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* err = dlerror();
    r.why = "cannot load the OpenCL ICD loader " + path + ": " + (err ? err : "unknown error") +
            " (Debian: apt-get install ocl-icd-libopencl1)";
    return r;
  }
  // The library stays loaded for the life of the process: the ICD loader and its drivers
  // keep threads and state that must not be unmapped under them.
#define RIPPLE_OPENCL_LOAD(fn)                                             \
  r.api.fn = reinterpret_cast<decltype(&::fn)>(dlsym(lib, #fn));           \
  if (!r.api.fn) {                                                         \
    r.why = path + " has no " #fn " (an OpenCL 1.2 ICD loader is needed)"; \
    return r;                                                              \
  }
  RIPPLE_OPENCL_FUNCTIONS(RIPPLE_OPENCL_LOAD)
#undef RIPPLE_OPENCL_LOAD
  r.ok = true;
  return r;
}

}  // namespace

const Api* load_api(std::string* why) {
  static const Loaded loaded = load();
  if (!loaded.ok) {
    if (why) *why = loaded.why;
    return nullptr;
  }
  return &loaded.api;
}

std::string status_name(cl_int status) {
  const char* name = nullptr;
  switch (status) {
#define RIPPLE_CL_CASE(c) \
  case c:                 \
    name = #c;            \
    break;
    RIPPLE_CL_CASE(CL_SUCCESS)
    RIPPLE_CL_CASE(CL_DEVICE_NOT_FOUND)
    RIPPLE_CL_CASE(CL_DEVICE_NOT_AVAILABLE)
    RIPPLE_CL_CASE(CL_COMPILER_NOT_AVAILABLE)
    RIPPLE_CL_CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    RIPPLE_CL_CASE(CL_OUT_OF_RESOURCES)
    RIPPLE_CL_CASE(CL_OUT_OF_HOST_MEMORY)
    RIPPLE_CL_CASE(CL_BUILD_PROGRAM_FAILURE)
    RIPPLE_CL_CASE(CL_INVALID_VALUE)
    RIPPLE_CL_CASE(CL_INVALID_DEVICE)
    RIPPLE_CL_CASE(CL_INVALID_BINARY)
    RIPPLE_CL_CASE(CL_INVALID_BUILD_OPTIONS)
    RIPPLE_CL_CASE(CL_INVALID_PROGRAM)
    RIPPLE_CL_CASE(CL_INVALID_PROGRAM_EXECUTABLE)
    RIPPLE_CL_CASE(CL_INVALID_KERNEL_NAME)
    RIPPLE_CL_CASE(CL_INVALID_KERNEL)
    RIPPLE_CL_CASE(CL_INVALID_ARG_INDEX)
    RIPPLE_CL_CASE(CL_INVALID_ARG_VALUE)
    RIPPLE_CL_CASE(CL_INVALID_ARG_SIZE)
    RIPPLE_CL_CASE(CL_INVALID_KERNEL_ARGS)
    RIPPLE_CL_CASE(CL_INVALID_WORK_DIMENSION)
    RIPPLE_CL_CASE(CL_INVALID_WORK_GROUP_SIZE)
    RIPPLE_CL_CASE(CL_INVALID_WORK_ITEM_SIZE)
    RIPPLE_CL_CASE(CL_INVALID_GLOBAL_WORK_SIZE)
    RIPPLE_CL_CASE(CL_INVALID_BUFFER_SIZE)
    RIPPLE_CL_CASE(CL_INVALID_MEM_OBJECT)
    RIPPLE_CL_CASE(CL_INVALID_COMMAND_QUEUE)
    RIPPLE_CL_CASE(CL_INVALID_CONTEXT)
    RIPPLE_CL_CASE(CL_INVALID_PLATFORM)
    RIPPLE_CL_CASE(CL_PLATFORM_NOT_FOUND_KHR)
    RIPPLE_CL_CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef RIPPLE_CL_CASE
    default:
      break;
  }
  return std::string(name ? name : "OpenCL error") + " (" + std::to_string(status) + ")";
}

void check(cl_int status, const std::string& what) {
  if (status != CL_SUCCESS) throw DeviceError("OpenCL " + what + " failed: " + status_name(status));
}

}  // namespace ripple::gpu::opencl
