// Loading NVRTC with dlopen and compiling to cubin with it.
#include "gpu/cuda/nvrtc_api.hpp"

#include <dlfcn.h>
#include <nvrtc.h>

#include <cstdlib>
#include <memory>
#include <utility>

#include "ripple/error.hpp"

namespace ripple::gpu::cuda {
namespace {

#define RIPPLE_NVRTC_FUNCTIONS(X)                                                               \
  X(nvrtcVersion)                                                                               \
  X(nvrtcGetErrorString)                                                                        \
  X(nvrtcCreateProgram) X(nvrtcDestroyProgram) X(nvrtcCompileProgram) X(nvrtcGetProgramLogSize) \
      X(nvrtcGetProgramLog) X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN)

struct Nvrtc {
#define RIPPLE_NVRTC_MEMBER(fn) decltype(&::fn) fn = nullptr;  // NOLINT(bugprone-macro-parentheses)
  RIPPLE_NVRTC_FUNCTIONS(RIPPLE_NVRTC_MEMBER)
#undef RIPPLE_NVRTC_MEMBER
  bool ok = false;
  std::string why;
  std::string version;
};

Nvrtc load() {
  Nvrtc r;
  std::vector<std::string> candidates;
  const char* env = std::getenv("RIPPLE_NVRTC_LIBRARY");
  if (env && *env) {
    candidates = {env};
  } else {
    candidates = {RIPPLE_NVRTC_SONAME, RIPPLE_NVRTC_TOOLKIT_PATH};
  }
  void* lib = nullptr;
  std::string errors;
  for (const auto& c : candidates) {
    lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) break;
    const char* e = dlerror();
    errors += (errors.empty() ? "" : "; ") + std::string(e ? e : c + ": unknown error");
  }
  if (!lib) {
    r.why = "cannot load NVRTC (" + errors + ")";
    return r;
  }
#define RIPPLE_NVRTC_LOAD(fn)                                \
  r.fn = reinterpret_cast<decltype(&::fn)>(dlsym(lib, #fn)); \
  if (!r.fn) {                                               \
    r.why = "the NVRTC library found has no " #fn;           \
    return r;                                                \
  }
  RIPPLE_NVRTC_FUNCTIONS(RIPPLE_NVRTC_LOAD)
#undef RIPPLE_NVRTC_LOAD
  int major = 0, minor = 0;
  r.nvrtcVersion(&major, &minor);
  r.version = std::to_string(major) + "." + std::to_string(minor);
  r.ok = true;
  return r;
}

const Nvrtc& nvrtc() {
  static const Nvrtc n = load();
  return n;
}

}  // namespace

bool nvrtc_available(std::string* why) {
  if (!nvrtc().ok && why) *why = nvrtc().why;
  return nvrtc().ok;
}

std::string nvrtc_version() { return nvrtc().version; }

std::vector<std::byte> compile_cubin(const std::string& source, const std::string& name,
                                     const std::vector<std::string>& options, const std::string& arch,
                                     std::string* log_out) {
  const Nvrtc& n = nvrtc();
  if (!n.ok) throw DeviceError("CUDA: " + n.why);
  nvrtcProgram program = nullptr;
  nvrtcResult r = n.nvrtcCreateProgram(&program, source.c_str(), name.c_str(), 0, nullptr, nullptr);
  if (r != NVRTC_SUCCESS)
    throw DeviceError(std::string("NVRTC nvrtcCreateProgram failed: ") + n.nvrtcGetErrorString(r));
  std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram*)> guard(
      &program, [](nvrtcProgram* p) { nvrtc().nvrtcDestroyProgram(p); });
  std::vector<std::string> all = {"--gpu-architecture=" + arch, "--std=c++17", "-default-device"};
  all.insert(all.end(), options.begin(), options.end());
  std::vector<const char*> argv;
  argv.reserve(all.size());
  for (const auto& o : all) argv.push_back(o.c_str());
  r = n.nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());
  std::size_t log_size = 0;
  std::string log;
  if (n.nvrtcGetProgramLogSize(program, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    log.resize(log_size);
    n.nvrtcGetProgramLog(program, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  }
  if (r != NVRTC_SUCCESS) {
    std::string joined;
    for (const auto& o : all) joined += (joined.empty() ? "" : " ") + o;
    throw DeviceError("NVRTC failed to compile " + name + " for " + arch + ": " + n.nvrtcGetErrorString(r) +
                      " (options \"" + joined + "\")\n" + log);
  }
  std::size_t size = 0;
  r = n.nvrtcGetCUBINSize(program, &size);
  std::vector<std::byte> cubin(size);
  if (r == NVRTC_SUCCESS) r = n.nvrtcGetCUBIN(program, reinterpret_cast<char*>(cubin.data()));
  if (r != NVRTC_SUCCESS || size == 0)
    throw DeviceError(std::string("NVRTC produced no cubin for ") + name + " (" + arch + ")");
  if (log_out) *log_out = std::move(log);
  return cubin;
}

}  // namespace ripple::gpu::cuda
