// The OpenCL backend: platforms and devices through the ICD loader (opened at run time), one
// cl_context per opened device (and one per context of the caller's whose queues are wrapped),
// in-order command queues, programs built from source or from a binary cached by ripple
// (clGetProgramInfo(CL_PROGRAM_BINARIES)); on PoCL, which caches programs itself, from source
// only.
#include <CL/cl_ext.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "gpu/opencl/opencl_api.hpp"
#include "gpu/runtime.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {
namespace opencl {
namespace {

std::string platform_string(const Api& cl, cl_platform_id p, cl_platform_info what) {
  std::size_t size = 0;
  if (cl.clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  if (cl.clGetPlatformInfo(p, what, size, s.data(), nullptr) != CL_SUCCESS) return {};
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string device_string(const Api& cl, cl_device_id d, cl_device_info what) {
  std::size_t size = 0;
  if (cl.clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  if (cl.clGetDeviceInfo(d, what, size, s.data(), nullptr) != CL_SUCCESS) return {};
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

// PoCL keeps every program it builds in its kernel cache (on by default, unless
// POCL_KERNEL_CACHE is set to anything not starting with "1", as PoCL reads it) and finds it
// there when the same source and options are built again, work-group functions included.
// Asked for a binary, it generates each kernel's code once more (a generic work-group
// function): a cold 1000-point FFT plan took 2.0 s with the binary fetched for ripple's disk
// cache, 1.4 s without; warm, both about 0.1 s.
bool pocl_caches_programs(const DeviceFacts& facts) {
  if (facts.platform_name != "Portable Computing Language") return false;
  const char* setting = std::getenv("POCL_KERNEL_CACHE");
  return setting == nullptr || setting[0] == '1';
}

// Oclgrind (an OpenCL simulator; tests/gpu's race check runs the kernels on it) builds programs
// with a clang that is not safe to run on two threads at once: a plan's programs, compiled side
// by side, crashed it inside clang's code generation. Programs made from binaries (ripple's disk
// cache) crashed it too, two parsing their LLVM bitcode at once (LLVM's DILocation::getImpl,
// under clCreateProgramWithBinary). Its builds and loads take turns, process-wide.
bool builds_take_turns(const DeviceFacts& facts) { return facts.platform_name == "Oclgrind"; }

std::mutex& build_turns() {
  static std::mutex turns;
  return turns;
}

template <class T>
T device_value(const Api& cl, cl_device_id d, cl_device_info what) {
  T v{};
  if (cl.clGetDeviceInfo(d, what, sizeof(T), &v, nullptr) != CL_SUCCESS) return T{};
  return v;
}

template <class T>
T object_value(const Api& cl, cl_mem m, cl_mem_info what) {
  T v{};
  cl.clGetMemObjectInfo(m, what, sizeof(T), &v, nullptr);
  return v;
}

// Holds one reference to `mem` (made by clCreateBuffer, or the caller's, retained, with the
// flags it was made with).
class ClMemory final : public Memory {
 public:
  ClMemory(const Api& cl, cl_mem mem, std::size_t bytes, Extent extent, cl_mem_flags flags)
      : Memory(bytes), cl_(cl), mem_(mem), extent_(extent), flags_(flags) {}
  ClMemory(const Api& cl, cl_mem mem, std::size_t bytes) : ClMemory(cl, mem, bytes, {mem, 0, bytes}, 0) {}
  ~ClMemory() override {
    if (mem_) cl_.clReleaseMemObject(mem_);
  }
  cl_mem handle() const { return mem_; }
  void* native_handle() const override { return mem_; }
  Extent extent() const override { return extent_; }
  // A placeholder becomes a sub-buffer of the buffer under `area` (a sub-buffer's parent).
  void bind_to(const Memory& area, std::size_t offset) override {
    const Extent whole = area.extent();
    auto parent = static_cast<cl_mem>(const_cast<void*>(whole.space));
    const cl_buffer_region region{whole.begin + offset, bytes()};
    cl_int status = CL_SUCCESS;
    cl_mem sub = cl_.clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
    if (status == CL_MISALIGNED_SUB_BUFFER_OFFSET)
      throw InvalidArgument("set_work_area: a piece of the work area at byte " + std::to_string(region.origin) +
                            " of its buffer is not aligned as the device's sub-buffers must be "
                            "(CL_DEVICE_MEM_BASE_ADDR_ALIGN); give an area that starts on 4096 bytes");
    check(status, "clCreateSubBuffer of " + std::to_string(bytes()) + " bytes at byte " + std::to_string(region.origin));
    if (mem_) cl_.clReleaseMemObject(mem_);
    mem_ = sub;
    extent_ = {parent, region.origin, bytes(), true};
  }
  // Throws InvalidArgument where the caller made the buffer closed to the host's `access`
  // (reading: downloads; writing: uploads).
  void check_host_access(bool writing) const {
    const cl_mem_flags closed = CL_MEM_HOST_NO_ACCESS | (writing ? CL_MEM_HOST_READ_ONLY : CL_MEM_HOST_WRITE_ONLY);
    if (!(flags_ & closed)) return;
    const char* flag = flags_ & CL_MEM_HOST_NO_ACCESS   ? "CL_MEM_HOST_NO_ACCESS"
                       : flags_ & CL_MEM_HOST_READ_ONLY ? "CL_MEM_HOST_READ_ONLY"
                                                        : "CL_MEM_HOST_WRITE_ONLY";
    throw InvalidArgument(std::string(writing ? "Buffer::upload" : "Buffer::download") +
                          ": the wrapped cl_mem was made " + flag);
  }

 private:
  const Api& cl_;
  cl_mem mem_;
  Extent extent_;
  cl_mem_flags flags_;
};

class ClModule final : public Module {
 public:
  ClModule(const Api& cl, cl_program program) : cl_(cl), program_(program) {}
  ~ClModule() override {
    for (auto& [name, kernel] : kernels_) cl_.clReleaseKernel(kernel);
    cl_.clReleaseProgram(program_);
  }
  // clSetKernelArg + enqueue on a shared cl_kernel are not thread-safe: launches hold this lock.
  std::mutex& mutex() const { return mutex_; }
  cl_kernel kernel(const std::string& name) const {  // with mutex() held
    auto it = kernels_.find(name);
    if (it != kernels_.end()) return it->second;
    cl_int status = CL_SUCCESS;
    cl_kernel k = cl_.clCreateKernel(program_, name.c_str(), &status);
    check(status, "clCreateKernel(\"" + name + "\")");
    kernels_.emplace(name, k);
    return k;
  }

 private:
  const Api& cl_;
  cl_program program_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, cl_kernel> kernels_;
};

// Holds one reference to `queue`: ripple's own (finished before it goes), or the caller's,
// retained, whose work is the caller's to wait for.
class ClStream final : public Stream {
 public:
  ClStream(const Api& cl, cl_command_queue queue, bool owned) : cl_(cl), queue_(queue), owned_(owned) {}
  ~ClStream() override {
    if (owned_) cl_.clFinish(queue_);
    cl_.clReleaseCommandQueue(queue_);
  }

  void upload(Memory& dst, std::size_t offset, const void* src, std::size_t bytes) override {
    if (bytes == 0) return;
    static_cast<const ClMemory&>(dst).check_host_access(true);
    check(cl_.clEnqueueWriteBuffer(queue_, mem(dst), CL_TRUE, offset, bytes, src, 0, nullptr, nullptr),
          "clEnqueueWriteBuffer of " + std::to_string(bytes) + " bytes");
  }
  void download(const Memory& src, std::size_t offset, void* dst, std::size_t bytes) override {
    if (bytes == 0) return;
    static_cast<const ClMemory&>(src).check_host_access(false);
    check(cl_.clEnqueueReadBuffer(queue_, mem(src), CL_TRUE, offset, bytes, dst, 0, nullptr, nullptr),
          "clEnqueueReadBuffer of " + std::to_string(bytes) + " bytes");
  }
  void zero(Memory& dst, std::size_t offset, std::size_t bytes) override {
    if (bytes == 0) return;
    const cl_uchar pattern = 0;
    check(cl_.clEnqueueFillBuffer(queue_, mem(dst), &pattern, 1, offset, bytes, 0, nullptr, nullptr),
          "clEnqueueFillBuffer of " + std::to_string(bytes) + " bytes");
  }
  void copy(const Memory& src, std::size_t src_offset, Memory& dst, std::size_t dst_offset,
            std::size_t bytes) override {
    if (bytes == 0) return;
    check(cl_.clEnqueueCopyBuffer(queue_, mem(src), mem(dst), src_offset, dst_offset, bytes, 0, nullptr, nullptr),
          "clEnqueueCopyBuffer of " + std::to_string(bytes) + " bytes");
  }
  void launch(const Module& module, const std::string& name, const Launch& grid,
              std::span<const Arg> args) override {
    const auto& m = static_cast<const ClModule&>(module);
    std::lock_guard lock(m.mutex());
    cl_kernel k = m.kernel(name);
    for (std::size_t i = 0; i < args.size(); ++i) {
      cl_mem handle = nullptr;
      cl_int status;
      if (args[i].memory()) {
        handle = mem(*args[i].memory());
        status = cl_.clSetKernelArg(k, static_cast<cl_uint>(i), sizeof(cl_mem), &handle);
      } else {
        status = cl_.clSetKernelArg(k, static_cast<cl_uint>(i), args[i].size(), args[i].data());
      }
      check(status, "clSetKernelArg(" + name + ", argument " + std::to_string(i) + ")");
    }
    std::size_t global[3], local[3];
    for (int d = 0; d < 3; ++d) {
      local[d] = grid.block[d];
      global[d] = std::size_t(grid.groups[d]) * grid.block[d];
    }
    check(cl_.clEnqueueNDRangeKernel(queue_, k, 3, nullptr, global, local, 0, nullptr, nullptr),
          "launch of " + launch_text(name, grid));
  }
  void synchronize() override { check(cl_.clFinish(queue_), "clFinish"); }
  void* native_handle() const override { return queue_; }

 private:
  static cl_mem mem(const Memory& m) { return static_cast<const ClMemory&>(m).handle(); }
  const Api& cl_;
  cl_command_queue queue_;
  bool owned_;
};

// What a caller's command queue is on, or InvalidArgument if `native` is none.
struct QueueFacts {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue_properties properties = 0;
};

QueueFacts queue_facts(const Api& cl, void* native) {
  if (!native) throw InvalidArgument("Queue::wrap: the OpenCL command queue is null");
  auto q = static_cast<cl_command_queue>(native);
  QueueFacts f;
  const cl_int status = cl.clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof f.context, &f.context, nullptr);
  if (status != CL_SUCCESS)
    throw InvalidArgument("Queue::wrap: the handle is not an OpenCL command queue (clGetCommandQueueInfo: " +
                          status_name(status) + ")");
  cl.clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof f.device, &f.device, nullptr);
  cl.clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof f.properties, &f.properties, nullptr);
  return f;
}

class ClContext final : public Context {
 public:
  // On `context`, the caller's (retained), or on a new one where it is null.
  ClContext(const Api& cl, cl_device_id device, DeviceFacts facts, cl_context context = nullptr)
      : cl_(cl),
        device_(device),
        facts_(std::move(facts)),
        driver_caches_(pocl_caches_programs(facts_)),
        builds_take_turns_(builds_take_turns(facts_)),
        context_(context) {
    if (context_) {
      check(cl_.clRetainContext(context_), "clRetainContext");
      return;
    }
    cl_int status = CL_SUCCESS;
    context_ = cl_.clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &status);
    check(status, "clCreateContext(" + facts_.name + ")");
  }
  ~ClContext() override { cl_.clReleaseContext(context_); }
  cl_context handle() const { return context_; }

  const DeviceFacts& facts() const override { return facts_; }
  std::string binary_identity() const override {
    return "opencl|" + facts_.platform_name + "|" + facts_.name + "|" + facts_.driver_version + "|" +
           facts_.runtime_version;
  }

  bool driver_caches_programs() const override { return driver_caches_; }

  std::vector<std::byte> compile(const std::string& source, const std::vector<std::string>& options,
                                 std::unique_ptr<Module>* module, bool want_binary) override {
    const char* text = source.c_str();
    const std::size_t length = source.size();
    cl_int status = CL_SUCCESS;
    cl_program program = cl_.clCreateProgramWithSource(context_, 1, &text, &length, &status);
    check(status, "clCreateProgramWithSource");
    // -w: PoCL's clang prints "N warnings generated." on the standard error of the program using
    // ripple (its "loop not unrolled" notes on FFT stage loops it could not unroll, having not
    // inlined the stage whose radix gives their trip count). A failing build's log keeps its
    // errors, not its warnings.
    std::string joined = "-w";
    for (const auto& o : options) joined += " " + o;
    build(program, joined, "compiling");
    if (!want_binary) {
      *module = std::make_unique<ClModule>(cl_, program);
      return {};
    }
    std::size_t size = 0;
    status = cl_.clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr);
    std::vector<std::byte> binary(size);
    unsigned char* ptr = reinterpret_cast<unsigned char*>(binary.data());
    if (status == CL_SUCCESS && size > 0)
      status = cl_.clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(ptr), &ptr, nullptr);
    if (status != CL_SUCCESS) binary.clear();  // still usable, just not cacheable
    *module = std::make_unique<ClModule>(cl_, program);
    return binary;
  }

  std::unique_ptr<Module> load(std::span<const std::byte> binary) override {
    const std::size_t size = binary.size();
    const auto* ptr = reinterpret_cast<const unsigned char*>(binary.data());
    cl_int binary_status = CL_SUCCESS, status = CL_SUCCESS;
    cl_program program = nullptr;
    {
      const std::unique_lock<std::mutex> turn = take_turn();
      program = cl_.clCreateProgramWithBinary(context_, 1, &device_, &size, &ptr, &binary_status, &status);
    }
    check(status, "clCreateProgramWithBinary");
    if (binary_status != CL_SUCCESS) {
      cl_.clReleaseProgram(program);
      check(binary_status, "clCreateProgramWithBinary (binary status)");
    }
    build(program, "", "loading a binary");
    return std::make_unique<ClModule>(cl_, program);
  }

  std::unique_ptr<Memory> allocate_memory(std::size_t bytes) override {
    cl_int status = CL_SUCCESS;
    cl_mem mem = cl_.clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes == 0 ? 1 : bytes, nullptr, &status);
    if (status == CL_SUCCESS && mem) return std::make_unique<ClMemory>(cl_, mem, bytes);
    throw DeviceError("OpenCL clCreateBuffer of " + std::to_string(bytes) + " bytes on " + facts_.name +
                      " failed: " + status_name(status) + " (largest buffer " +
                      std::to_string(facts_.max_allocation) + " bytes)");
  }

  std::unique_ptr<Stream> create_stream() override {
    cl_int status = CL_SUCCESS;
    cl_command_queue q = cl_.clCreateCommandQueue(context_, device_, 0, &status);
    check(status, "clCreateCommandQueue(" + facts_.name + ")");
    return std::make_unique<ClStream>(cl_, q, true);
  }

  std::unique_ptr<Memory> wrap_memory(void* native, std::size_t bytes, std::size_t /*alignment*/) override {
    // Sub-buffers' origins are aligned by the driver (CL_DEVICE_MEM_BASE_ADDR_ALIGN).
    if (!native) throw InvalidArgument("Buffer::wrap: the cl_mem is null");
    auto mem = static_cast<cl_mem>(native);
    cl_context owner = nullptr;
    const cl_int status = cl_.clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof owner, &owner, nullptr);
    if (status != CL_SUCCESS)
      throw InvalidArgument("Buffer::wrap: the handle is not an OpenCL memory object (clGetMemObjectInfo: " +
                            status_name(status) + ")");
    if (object_value<cl_mem_object_type>(cl_, mem, CL_MEM_TYPE) != CL_MEM_OBJECT_BUFFER)
      throw InvalidArgument("Buffer::wrap: the cl_mem is an image or pipe, not a buffer");
    if (owner != context_)
      throw InvalidArgument(
          "Buffer::wrap: the cl_mem belongs to another OpenCL context than the queue's (wrap a command "
          "queue of its context with Queue::wrap, and the buffer on that Queue)");
    const auto size = object_value<std::size_t>(cl_, mem, CL_MEM_SIZE);
    if (size < bytes)
      throw InvalidArgument("Buffer::wrap: the cl_mem holds " + std::to_string(size) + " bytes, but the buffer needs " +
                            std::to_string(bytes));
    const auto flags = object_value<cl_mem_flags>(cl_, mem, CL_MEM_FLAGS);
    if (flags & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY))
      throw InvalidArgument(std::string("Buffer::wrap: the cl_mem is ") +
                            (flags & CL_MEM_READ_ONLY ? "CL_MEM_READ_ONLY" : "CL_MEM_WRITE_ONLY") +
                            "; ripple's kernels read and write the buffers they are given (CL_MEM_READ_WRITE)");
    // A sub-buffer's bytes are its parent's from its origin on.
    auto parent = object_value<cl_mem>(cl_, mem, CL_MEM_ASSOCIATED_MEMOBJECT);
    const auto origin = parent ? object_value<std::size_t>(cl_, mem, CL_MEM_OFFSET) : 0;
    check(cl_.clRetainMemObject(mem), "clRetainMemObject");
    return std::make_unique<ClMemory>(cl_, mem, bytes,
                                      Memory::Extent{parent ? parent : mem, origin, bytes, parent != nullptr}, flags);
  }

  std::unique_ptr<Memory> placeholder(std::size_t bytes) override {
    return std::make_unique<ClMemory>(cl_, nullptr, bytes, Memory::Extent{}, 0);
  }

  std::unique_ptr<Stream> wrap_stream(void* native) override {
    const QueueFacts f = queue_facts(cl_, native);
    if (f.context != context_ || f.device != device_)
      throw InvalidArgument("Queue::wrap: the command queue is of another OpenCL context or device");
    if (f.properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
      throw InvalidArgument(
          "Queue::wrap: the command queue runs commands out of order; ripple enqueues passes that need "
          "an in-order queue");
    auto q = static_cast<cl_command_queue>(native);
    check(cl_.clRetainCommandQueue(q), "clRetainCommandQueue");
    return std::make_unique<ClStream>(cl_, q, false);
  }

 private:
  // The process-wide turn of a device whose builds take turns (builds_take_turns); none else.
  std::unique_lock<std::mutex> take_turn() const {
    return builds_take_turns_ ? std::unique_lock<std::mutex>(build_turns()) : std::unique_lock<std::mutex>();
  }

  void build(cl_program program, const std::string& options, const char* doing) {
    std::unique_lock<std::mutex> turn = take_turn();
    const cl_int status = cl_.clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
    if (turn.owns_lock()) turn.unlock();
    if (status == CL_SUCCESS) return;
    std::string log;
    std::size_t size = 0;
    if (cl_.clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) == CL_SUCCESS &&
        size > 0) {
      log.resize(size);
      cl_.clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    }
    cl_.clReleaseProgram(program);
    throw DeviceError("OpenCL clBuildProgram failed " + std::string(doing) + " for " + facts_.name + ": " +
                      status_name(status) + " (options \"" + options + "\")\n" + log);
  }

  const Api& cl_;
  cl_device_id device_;
  DeviceFacts facts_;
  const bool driver_caches_;
  const bool builds_take_turns_;
  cl_context context_ = nullptr;
};

class ClBackend final : public Backend {
 public:
  ClBackend() {
    cl_ = load_api(&reason_);
    if (!cl_) return;
    cl_uint platforms = 0;
    cl_int status = cl_->clGetPlatformIDs(0, nullptr, &platforms);
    if (status == CL_PLATFORM_NOT_FOUND_KHR || (status == CL_SUCCESS && platforms == 0)) {
      reason_ =
          "the OpenCL ICD loader found no platforms (no driver installed in /etc/OpenCL/vendors "
          "or $OCL_ICD_VENDORS; CI uses Debian pocl-opencl-icd)";
      return;
    }
    if (status != CL_SUCCESS) {
      reason_ = "clGetPlatformIDs failed: " + status_name(status);
      return;
    }
    std::vector<cl_platform_id> ids(platforms);
    cl_->clGetPlatformIDs(platforms, ids.data(), nullptr);
    for (cl_uint p = 0; p < platforms; ++p) {
      cl_uint count = 0;
      if (cl_->clGetDeviceIDs(ids[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS) continue;
      std::vector<cl_device_id> devs(count);
      cl_->clGetDeviceIDs(ids[p], CL_DEVICE_TYPE_ALL, count, devs.data(), nullptr);
      const std::string pname = platform_string(*cl_, ids[p], CL_PLATFORM_NAME);
      const std::string pversion = platform_string(*cl_, ids[p], CL_PLATFORM_VERSION);
      for (cl_uint d = 0; d < count; ++d) {
        DeviceFacts f;
        f.api = gpu::Api::opencl;
        f.platform = static_cast<int>(p);
        f.device = static_cast<int>(d);
        f.name = device_string(*cl_, devs[d], CL_DEVICE_NAME);
        f.vendor = device_string(*cl_, devs[d], CL_DEVICE_VENDOR);
        f.platform_name = pname;
        f.driver_version = device_string(*cl_, devs[d], CL_DRIVER_VERSION);
        f.runtime_version = pversion;
        f.arch = device_string(*cl_, devs[d], CL_DEVICE_OPENCL_C_VERSION);
        f.global_memory = device_value<cl_ulong>(*cl_, devs[d], CL_DEVICE_GLOBAL_MEM_SIZE);
        f.max_allocation = device_value<cl_ulong>(*cl_, devs[d], CL_DEVICE_MAX_MEM_ALLOC_SIZE);
        f.local_memory = device_value<cl_ulong>(*cl_, devs[d], CL_DEVICE_LOCAL_MEM_SIZE);
        f.compute_units = device_value<cl_uint>(*cl_, devs[d], CL_DEVICE_MAX_COMPUTE_UNITS);
        f.max_work_group = device_value<std::size_t>(*cl_, devs[d], CL_DEVICE_MAX_WORK_GROUP_SIZE);
        f.is_gpu = (device_value<cl_device_type>(*cl_, devs[d], CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU) != 0;
        f.fp64 = device_value<cl_device_fp_config>(*cl_, devs[d], CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
        devices_.push_back(std::move(f));
        handles_.push_back(devs[d]);
      }
    }
    if (devices_.empty()) reason_ = "the OpenCL platforms list no devices";
  }

  gpu::Api api() const override { return gpu::Api::opencl; }
  const std::vector<DeviceFacts>& devices() const override { return devices_; }
  const std::string& absent_reason() const override { return reason_; }
  std::shared_ptr<Context> open(std::size_t index) override {
    if (index >= devices_.size())
      throw DeviceError("OpenCL device index " + std::to_string(index) + " out of range (" +
                        std::to_string(devices_.size()) + " devices)");
    return std::make_shared<ClContext>(*cl_, handles_[index], devices_[index]);
  }

  std::shared_ptr<Context> context_for_queue(std::size_t index, const std::shared_ptr<Context>& opened,
                                             void* native) override {
    const QueueFacts f = queue_facts(*cl_, native);
    if (f.device != handles_[index])
      throw InvalidArgument("Queue::wrap: the command queue is on OpenCL device \"" +
                            device_string(*cl_, f.device, CL_DEVICE_NAME) + "\", not on " + devices_[index].name +
                            " (opencl:" + std::to_string(devices_[index].platform) + "." +
                            std::to_string(devices_[index].device) + ")");
    const auto* own = dynamic_cast<const ClContext*>(opened.get());
    if (own && own->handle() == f.context) return opened;
    std::lock_guard lock(mutex_);
    std::erase_if(callers_, [](const auto& entry) { return entry.second.expired(); });
    std::weak_ptr<Context>& known = callers_[{f.context, index}];
    std::shared_ptr<Context> context = known.lock();
    if (!context) {
      context = std::make_shared<ClContext>(*cl_, handles_[index], devices_[index], f.context);
      known = context;
    }
    return context;
  }

  std::vector<std::shared_ptr<Context>> caller_contexts(std::size_t index) override {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<Context>> live;
    for (const auto& [key, known] : callers_)
      if (key.second == index)
        if (std::shared_ptr<Context> context = known.lock()) live.push_back(std::move(context));
    return live;
  }

 private:
  const Api* cl_ = nullptr;
  std::string reason_;
  std::vector<DeviceFacts> devices_;
  std::vector<cl_device_id> handles_;
  // Contexts over the caller's cl_contexts, one per device of each, while any wrapped queue uses
  // one (each retains its cl_context, so no other can take its address meanwhile).
  std::mutex mutex_;
  std::map<std::pair<cl_context, std::size_t>, std::weak_ptr<Context>> callers_;
};

}  // namespace
}  // namespace opencl

Backend* opencl_backend() {
  static opencl::ClBackend backend;
  return &backend;
}

}  // namespace ripple::gpu
