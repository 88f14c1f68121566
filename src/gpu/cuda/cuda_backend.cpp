// The CUDA backend on the CUDA runtime, linked statically (cudart_static opens libcuda.so.1
// itself, so without a driver cudaGetDeviceCount reports "CUDA driver version is insufficient"
// rather than the program failing to start), with kernels compiled by NVRTC to cubins for the
// device's own architecture and loaded with cudaLibraryLoadData. The runtime works in each
// device's primary context, as cupy, PyTorch and cuFFT do, so their device pointers and streams
// are ripple's too (Buffer::wrap, Queue::wrap).
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gpu/cuda/nvrtc_api.hpp"
#include "gpu/runtime.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {
namespace cuda {
namespace {

void check(cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so later calls do not see it
  throw DeviceError("CUDA " + what + " failed: " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

std::string version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

std::string address(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

// The allocation holding `p` (cuMemGetAddressRange through the runtime's entry point, as the
// runtime itself has no such call), with the device's context current: its base and size, or
// {0, 0} where the driver names none (cuMemMap's mappings, as PyTorch's expandable segments) or
// has no such call. Such memory is taken at the caller's word.
std::pair<std::uintptr_t, std::size_t> allocation_of(const void* p) {
  using Fn = CUresult (*)(CUdeviceptr*, std::size_t*, CUdeviceptr);
  static const Fn get_range = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
    const cudaError_t e = cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &fn, 12000, cudaEnableDefault, &found);
#else
    const cudaError_t e = cudaGetDriverEntryPoint("cuMemGetAddressRange", &fn, cudaEnableDefault, &found);
#endif
    if (e != cudaSuccess || found != cudaDriverEntryPointSuccess) {
      cudaGetLastError();
      return Fn(nullptr);
    }
    return reinterpret_cast<Fn>(fn);
  }();
  CUdeviceptr base = 0;
  std::size_t size = 0;
  if (!get_range || get_range(&base, &size, reinterpret_cast<CUdeviceptr>(p)) != CUDA_SUCCESS) return {0, 0};
  return {static_cast<std::uintptr_t>(base), size};
}

class CudaMemory final : public Memory {
 public:
  // owned: allocated by ripple (cudaFree'd here); else the caller's (Context::wrap_memory).
  CudaMemory(int device, void* ptr, std::size_t bytes, bool owned)
      : Memory(bytes), device_(device), ptr_(ptr), owned_(owned) {}
  ~CudaMemory() override {
    if (!owned_) return;
    cudaSetDevice(device_);
    cudaFree(ptr_);
  }
  void* ptr() const { return ptr_; }
  void* native_handle() const override { return ptr_; }
  Extent extent() const override { return {nullptr, reinterpret_cast<std::uintptr_t>(ptr_), bytes()}; }
  void bind_to(const Memory& area, std::size_t offset) override {
    ptr_ = static_cast<char*>(static_cast<const CudaMemory&>(area).ptr()) + offset;
  }

 private:
  int device_;
  void* ptr_;
  bool owned_;
};

class CudaModule final : public Module {
 public:
  CudaModule(int device, cudaLibrary_t lib) : device_(device), lib_(lib) {}
  ~CudaModule() override { cudaLibraryUnload(lib_); }
  cudaKernel_t kernel(const std::string& name) const {
    std::lock_guard lock(mutex_);
    auto it = kernels_.find(name);
    if (it != kernels_.end()) return it->second;
    cudaKernel_t k = nullptr;
    check(cudaLibraryGetKernel(&k, lib_, name.c_str()), "cudaLibraryGetKernel(\"" + name + "\")");
    kernels_.emplace(name, k);
    return k;
  }
  int device() const { return device_; }

 private:
  int device_;
  cudaLibrary_t lib_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, cudaKernel_t> kernels_;
};

class CudaStream final : public Stream {
 public:
  explicit CudaStream(int device) : device_(device), owned_(true) {
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  // The caller's stream (Context::wrap_stream): neither waited for nor destroyed here.
  CudaStream(int device, cudaStream_t stream) : device_(device), stream_(stream), owned_(false) {}
  ~CudaStream() override {
    if (!owned_) return;
    cudaSetDevice(device_);
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
  void upload(Memory& dst, std::size_t offset, const void* src, std::size_t bytes) override {
    if (bytes == 0) return;
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaMemcpyAsync(ptr(dst) + offset, src, bytes, cudaMemcpyHostToDevice, stream_),
          "cudaMemcpyAsync (upload of " + std::to_string(bytes) + " bytes)");
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize after upload");
  }
  void download(const Memory& src, std::size_t offset, void* dst, std::size_t bytes) override {
    if (bytes == 0) return;
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaMemcpyAsync(dst, ptr(src) + offset, bytes, cudaMemcpyDeviceToHost, stream_),
          "cudaMemcpyAsync (download of " + std::to_string(bytes) + " bytes)");
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize after download");
  }
  void zero(Memory& dst, std::size_t offset, std::size_t bytes) override {
    if (bytes == 0) return;
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaMemsetAsync(ptr(dst) + offset, 0, bytes, stream_), "cudaMemsetAsync");
  }
  void copy(const Memory& src, std::size_t src_offset, Memory& dst, std::size_t dst_offset,
            std::size_t bytes) override {
    if (bytes == 0) return;
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaMemcpyAsync(ptr(dst) + dst_offset, ptr(src) + src_offset, bytes, cudaMemcpyDeviceToDevice, stream_),
          "cudaMemcpyAsync (device to device) of " + std::to_string(bytes) + " bytes");
  }
  void launch(const Module& module, const std::string& name, const Launch& grid,
              std::span<const Arg> args) override {
    const auto& m = static_cast<const CudaModule&>(module);
    cudaKernel_t k = m.kernel(name);
    std::vector<void*> pointers(args.size());
    std::vector<void*> params(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (args[i].memory()) {
        pointers[i] = static_cast<const CudaMemory&>(*args[i].memory()).ptr();
        params[i] = &pointers[i];
      } else {
        params[i] = const_cast<void*>(args[i].data());
      }
    }
    check(cudaSetDevice(device_), "cudaSetDevice");
    const dim3 g(grid.groups[0], grid.groups[1], grid.groups[2]);
    const dim3 b(grid.block[0], grid.block[1], grid.block[2]);
    check(cudaLaunchKernel(reinterpret_cast<const void*>(k), g, b, params.data(), 0, stream_),
          "launch of " + launch_text(name, grid));
  }
  void synchronize() override {
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  }
  void* native_handle() const override { return stream_; }

 private:
  static char* ptr(const Memory& m) { return static_cast<char*>(static_cast<const CudaMemory&>(m).ptr()); }
  int device_;
  cudaStream_t stream_ = nullptr;
  bool owned_;
};

class CudaContext final : public Context {
 public:
  explicit CudaContext(DeviceFacts facts) : facts_(std::move(facts)) {}
  const DeviceFacts& facts() const override { return facts_; }
  std::string binary_identity() const override {
    return "cuda|" + facts_.name + "|" + facts_.arch + "|driver " + facts_.driver_version + "|" +
           facts_.runtime_version;
  }
  // NVRTC's product is the binary, so it is returned whether wanted or not.
  std::vector<std::byte> compile(const std::string& source, const std::vector<std::string>& options,
                                 std::unique_ptr<Module>* module, bool /*want_binary*/) override {
    std::vector<std::byte> cubin = compile_cubin(source, "ripple_kernel.cu", options, facts_.arch);
    *module = load(cubin);
    return cubin;
  }
  std::unique_ptr<Module> load(std::span<const std::byte> binary) override {
    check(cudaSetDevice(facts_.device), "cudaSetDevice");
    cudaLibrary_t lib = nullptr;
    check(cudaLibraryLoadData(&lib, binary.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
          "cudaLibraryLoadData");
    return std::make_unique<CudaModule>(facts_.device, lib);
  }
  std::unique_ptr<Memory> allocate_memory(std::size_t bytes) override {
    check(cudaSetDevice(facts_.device), "cudaSetDevice");
    void* p = nullptr;
    check(cudaMalloc(&p, bytes == 0 ? 1 : bytes),
          "cudaMalloc of " + std::to_string(bytes) + " bytes on " + facts_.name);
    return std::make_unique<CudaMemory>(facts_.device, p, bytes, true);
  }
  std::unique_ptr<Stream> create_stream() override { return std::make_unique<CudaStream>(facts_.device); }

  std::unique_ptr<Memory> wrap_memory(void* native, std::size_t bytes, std::size_t alignment) override {
    const std::string what = "the device pointer " + address(native);
    if (!native) throw InvalidArgument("Buffer::wrap: the device pointer is null");
    if (reinterpret_cast<std::uintptr_t>(native) % alignment != 0)
      throw InvalidArgument("Buffer::wrap: " + what + " is not aligned to " + std::to_string(alignment) +
                            " bytes, as the kernels load these values");
    check(cudaSetDevice(facts_.device), "cudaSetDevice");
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, native) != cudaSuccess) {
      cudaGetLastError();
      throw InvalidArgument("Buffer::wrap: " + what + " is not memory CUDA knows");
    }
    if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged)
      throw InvalidArgument("Buffer::wrap: " + what + " is " +
                            (a.type == cudaMemoryTypeHost ? "page-locked host memory" : "not CUDA device memory") +
                            " (cudaMalloc'd or managed memory is needed)");
    if (a.type == cudaMemoryTypeDevice && a.device != facts_.device)
      throw InvalidArgument("Buffer::wrap: " + what + " is memory of cuda:" + std::to_string(a.device) +
                            ", not of the queue's cuda:" + std::to_string(facts_.device));
    const auto [base, size] = allocation_of(native);
    const auto at = reinterpret_cast<std::uintptr_t>(native);
    if (size != 0 && bytes > base + size - at)
      throw InvalidArgument("Buffer::wrap: " + what + " has " + std::to_string(base + size - at) +
                            " bytes of its allocation from there on, but the buffer needs " + std::to_string(bytes));
    return std::make_unique<CudaMemory>(facts_.device, native, bytes, false);
  }

  std::unique_ptr<Memory> placeholder(std::size_t bytes) override {
    return std::make_unique<CudaMemory>(facts_.device, nullptr, bytes, false);
  }

  std::unique_ptr<Stream> wrap_stream(void* native) override {
    auto stream = static_cast<cudaStream_t>(native);
    check(cudaSetDevice(facts_.device), "cudaSetDevice");
#if CUDART_VERSION >= 12080
    // The default streams (0, cudaStreamLegacy, cudaStreamPerThread) belong to whichever device
    // is current, so this one's. cudaStreamGetDevice needs a 12.8 driver: older ones are not
    // asked.
    int device = -1;
    const cudaError_t e = cudaStreamGetDevice(stream, &device);
    if (e != cudaSuccess) cudaGetLastError();
    if (e != cudaSuccess && e != cudaErrorCallRequiresNewerDriver && e != cudaErrorNotSupported)
      throw InvalidArgument("Queue::wrap: " + address(native) + " is not a usable CUDA stream (" +
                            cudaGetErrorName(e) + ": " + cudaGetErrorString(e) + ")");
    if (e == cudaSuccess && device != facts_.device)
      throw InvalidArgument("Queue::wrap: the CUDA stream " + address(native) + " is on cuda:" + std::to_string(device) +
                            ", not on cuda:" + std::to_string(facts_.device));
#endif
    return std::make_unique<CudaStream>(facts_.device, stream);
  }

 private:
  DeviceFacts facts_;
};

class CudaBackend final : public Backend {
 public:
  CudaBackend() {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      cudaGetLastError();
      reason_ = std::string("the CUDA runtime reports: ") + cudaGetErrorString(e) + " (" +
                cudaGetErrorName(e) + "; no NVIDIA driver, or one older than the runtime)";
      return;
    }
    if (count == 0) {
      reason_ = "the CUDA runtime found no devices";
      return;
    }
    std::string why;
    if (!nvrtc_available(&why)) {
      reason_ = "CUDA devices found but " + why;
      return;
    }
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    for (int i = 0; i < count; ++i) {
      cudaDeviceProp p{};
      if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
      DeviceFacts f;
      f.api = gpu::Api::cuda;
      f.device = i;
      f.name = p.name;
      f.vendor = "NVIDIA";
      f.platform_name = "CUDA";
      f.driver_version = version_string(driver);
      f.runtime_version = "runtime " + version_string(runtime) + ", NVRTC " + nvrtc_version();
      f.arch = "sm_" + std::to_string(p.major) + std::to_string(p.minor);
      f.global_memory = p.totalGlobalMem;
      f.max_allocation = p.totalGlobalMem;
      f.local_memory = p.sharedMemPerBlock;
      f.compute_units = static_cast<unsigned>(p.multiProcessorCount);
      f.max_work_group = static_cast<std::size_t>(p.maxThreadsPerBlock);
      f.is_gpu = true;
      f.fp64 = true;
      devices_.push_back(std::move(f));
    }
  }
  gpu::Api api() const override { return gpu::Api::cuda; }
  const std::vector<DeviceFacts>& devices() const override { return devices_; }
  const std::string& absent_reason() const override { return reason_; }
  std::shared_ptr<Context> open(std::size_t index) override {
    if (index >= devices_.size())
      throw DeviceError("CUDA device index " + std::to_string(index) + " out of range (" +
                        std::to_string(devices_.size()) + " devices)");
    return std::make_shared<CudaContext>(devices_[index]);
  }
  // Every stream of a device runs in its primary context, the one `opened` works in.
  std::shared_ptr<Context> context_for_queue(std::size_t, const std::shared_ptr<Context>& opened, void*) override {
    return opened;
  }

 private:
  std::string reason_;
  std::vector<DeviceFacts> devices_;
};

}  // namespace
}  // namespace cuda

Backend* cuda_backend() {
  static cuda::CudaBackend backend;
  return &backend;
}

}  // namespace ripple::gpu
