// The tiny runtime interface every GPU backend implements (src/gpu/cuda, src/gpu/opencl): find
// devices, compile a program from source with options, load a compiled binary, allocate, copy,
// launch with a grid and arguments, synchronize. All launch logic (device_*.cpp) is written once
// against it. Failures throw ripple::DeviceError carrying the runtime's own message.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace ripple::gpu {

enum class Api { cuda, opencl };

/// What a backend found out about one device.
struct DeviceFacts {
  Api api = Api::opencl;
  int platform = 0;  ///< OpenCL platform index; 0 for CUDA
  int device = 0;    ///< device index within the platform (CUDA ordinal)
  std::string name;
  std::string vendor;
  std::string platform_name;         ///< OpenCL platform name; "CUDA" for CUDA
  std::string driver_version;        ///< CUDA driver / OpenCL driver version string
  std::string runtime_version;       ///< CUDA runtime / OpenCL version (+ NVRTC for CUDA)
  std::string arch;                  ///< "sm_90" for CUDA; the OpenCL C version for OpenCL
  std::uint64_t global_memory = 0;   ///< bytes
  std::uint64_t max_allocation = 0;  ///< bytes in one buffer
  std::uint64_t local_memory = 0;    ///< bytes per work-group
  unsigned compute_units = 0;
  std::size_t max_work_group = 0;
  bool is_gpu = false;  ///< false for CPU OpenCL devices such as PoCL
  bool fp64 = false;
};

/// Device memory of one context: allocated by it (owned), or the caller's, wrapped
/// (Context::wrap_memory; not freed). Backends derive from it; launch arguments refer to it.
class Memory {
 public:
  explicit Memory(std::size_t bytes) : bytes_(bytes) {}
  virtual ~Memory() = default;
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;
  std::size_t bytes() const { return bytes_; }
  /// The device pointer (CUDA) or cl_mem (OpenCL), for the caller's own work on it.
  virtual void* native_handle() const = 0;
  /// Where the bytes lie, to tell whether two Memory objects share some: memory ripple
  /// allocates never does, but two wrapping the caller's memory may. `space` is an allocation
  /// (an OpenCL buffer, a sub-buffer's parent) or nullptr for one address space (CUDA's
  /// unified addresses); `begin` the first byte's offset or address in it; `part` whether this
  /// is an OpenCL sub-buffer of `space` (which OpenCL forbids a command to write while it reads
  /// or writes its parent, however far apart the bytes).
  struct Extent {
    const void* space = nullptr;
    std::uintptr_t begin = 0;
    std::size_t bytes = 0;
    bool part = false;
  };
  virtual Extent extent() const = 0;
  /// A placeholder's (Context::placeholder) only: from now on the bytes() bytes of `area` from
  /// `offset` on, which `area` must hold.
  virtual void bind_to(const Memory& area, std::size_t offset) = 0;

 private:
  std::size_t bytes_;
};

/// A compiled, loaded program whose kernels can be launched by name.
class Module {
 public:
  virtual ~Module() = default;
};

/// A kernel argument: a device buffer, or a value of a trivially copyable type up to 16 bytes
/// whose layout matches the kernel's parameter (u64, i64, real_t, ...).
class Arg {
 public:
  static Arg memory(const Memory& m) { return Arg(&m); }
  template <class T>
  static Arg value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 16);
    Arg a(nullptr);
    std::memcpy(a.bytes_.data(), &v, sizeof(T));
    a.size_ = sizeof(T);
    return a;
  }
  const Memory* memory() const { return memory_; }
  const void* data() const { return bytes_.data(); }
  std::size_t size() const { return size_; }

 private:
  explicit Arg(const Memory* m) : memory_(m) {}
  const Memory* memory_ = nullptr;
  alignas(16) std::array<std::byte, 16> bytes_{};
  std::size_t size_ = 0;
};

/// Grid shape: number of work-groups (blocks) and work-items (threads) per group, per dimension.
struct Launch {
  std::array<std::uint32_t, 3> groups{1, 1, 1};
  std::array<std::uint32_t, 3> block{1, 1, 1};
};

/// "kernel NAME (groups GxGxG, block BxBxB)": what a failed launch's DeviceError names, on
/// every backend (a driver's own code alone, such as CUDA's "invalid argument" for a block over
/// the device's limit, does not say which launch or which sizes).
std::string launch_text(const std::string& name, const Launch& grid);

/// An in-order queue of work on one device (cl_command_queue, cudaStream_t).
class Stream {
 public:
  virtual ~Stream() = default;
  /// Blocking copies between host memory and device memory at a byte offset.
  virtual void upload(Memory& dst, std::size_t offset, const void* src, std::size_t bytes) = 0;
  virtual void download(const Memory& src, std::size_t offset, void* dst, std::size_t bytes) = 0;
  /// Enqueued: sets `bytes` bytes from `offset` to zero.
  virtual void zero(Memory& dst, std::size_t offset, std::size_t bytes) = 0;
  /// Enqueued: copies `bytes` bytes between two buffers of this context (device to device;
  /// the ranges must not overlap).
  virtual void copy(const Memory& src, std::size_t src_offset, Memory& dst, std::size_t dst_offset,
                    std::size_t bytes) = 0;
  /// Enqueued: runs kernel `name` of `module`. Throws DeviceError naming the kernel on failure.
  virtual void launch(const Module& module, const std::string& name, const Launch& grid,
                      std::span<const Arg> args) = 0;
  /// Waits for everything enqueued; reports errors of asynchronous work.
  virtual void synchronize() = 0;
  /// The cudaStream_t or cl_command_queue work is enqueued on.
  virtual void* native_handle() const = 0;
};

/// One device opened for work: compiles, loads and allocates; makes streams.
class Context {
 public:
  virtual ~Context() = default;
  virtual const DeviceFacts& facts() const = 0;
  /// What a compiled binary depends on besides source and options: API, device, driver.
  virtual std::string binary_identity() const = 0;
  /// Compiles `source` with `options` (each one compiler argument, e.g. "-DBLOCK=128") and
  /// sets *module to the loaded program. Returns its loadable binary if `want_binary` (a
  /// backend may return it anyway where that costs nothing; empty if the driver gives none).
  /// Throws DeviceError with the compiler log on failure.
  virtual std::vector<std::byte> compile(const std::string& source, const std::vector<std::string>& options,
                                         std::unique_ptr<Module>* module, bool want_binary) = 0;
  /// Whether the driver keeps the programs it compiles across processes itself (PoCL's kernel
  /// cache). ripple's disk cache then stays out of the way: it would hold a second copy, and
  /// asking PoCL for a binary makes it generate every kernel's code once more.
  virtual bool driver_caches_programs() const { return false; }
  /// Loads a binary made by compile() (possibly in an earlier process). Throws DeviceError.
  virtual std::unique_ptr<Module> load(std::span<const std::byte> binary) = 0;
  /// Throws DeviceError (out of memory, size over the device's limit) naming the size. Where the
  /// backend's allocation fails and the table cache held something, the cache is emptied
  /// (release_cached_tables) and the allocation tried once more, so memory ripple keeps only for
  /// plans made later does not make an allocation fail (src/gpu/context.cpp). Only failures the
  /// backend reports here count: an OpenCL driver that commits memory at first use reports a
  /// shortage when a command runs instead.
  std::unique_ptr<Memory> allocate(std::size_t bytes);
  virtual std::unique_ptr<Stream> create_stream() = 0;
  /// The caller's memory, `bytes` of it at `native` (a device pointer for CUDA, a cl_mem for
  /// OpenCL), `alignment` bytes aligned where the API gives addresses: not owned (an OpenCL
  /// buffer is retained while wrapped). Throws InvalidArgument naming what does not fit: not
  /// device memory of this context, smaller than `bytes`, misaligned.
  virtual std::unique_ptr<Memory> wrap_memory(void* native, std::size_t bytes, std::size_t alignment) = 0;
  /// A Stream enqueuing on the caller's in-order queue (cudaStream_t, cl_command_queue) of this
  /// context's device, not owned (an OpenCL queue is retained). Throws InvalidArgument naming
  /// what does not fit.
  virtual std::unique_ptr<Stream> wrap_stream(void* native) = 0;
  /// Memory of `bytes` that has none until bound (Memory::bind_to) to a piece of a work area
  /// (src/gpu/scratch.hpp); it allocates nothing.
  virtual std::unique_ptr<Memory> placeholder(std::size_t bytes) = 0;

  /// The in-memory kernel cache: modules loaded on this context, or being compiled or loaded
  /// by some thread, by program key (src/gpu/program.cpp fills it).
  struct Modules {
    std::mutex mutex;
    std::map<std::string, std::shared_future<std::shared_ptr<const Module>>> by_key;
  };
  Modules& modules() { return modules_; }
  /// Constant tables uploaded on this context, by key, the least recently asked for dropped past
  /// a budget of bytes (src/gpu/device_tables.cpp fills it).
  struct Tables {
    struct Entry {
      std::shared_ptr<const Memory> table;
      std::uint64_t last_use = 0;
    };
    // Recursive: making a table allocates, and an allocation that fails empties this cache.
    std::recursive_mutex mutex;
    std::map<std::string, Entry> by_key;
    // Every table made, while anything (a plan) still holds it: one dropped from the cache
    // but in use is found here rather than made and uploaded a second time.
    std::map<std::string, std::weak_ptr<const Memory>> live;
    std::size_t bytes = 0;  // of the tables held
    std::uint64_t uses = 0;
    std::size_t budget = 0;  // 0: table_cache_budget (tests set a small one)
  };
  Tables& tables() { return tables_; }

 protected:
  /// The backend's allocation: throws DeviceError naming the size where it fails.
  virtual std::unique_ptr<Memory> allocate_memory(std::size_t bytes) = 0;

 private:
  Modules modules_;
  Tables tables_;
};

/// One API's view of the machine. Constructing it never throws; a backend that cannot run here
/// (no loader, no driver, no devices) lists no devices and says why in absent_reason().
class Backend {
 public:
  virtual ~Backend() = default;
  virtual Api api() const = 0;
  virtual const std::vector<DeviceFacts>& devices() const = 0;
  /// Empty when devices() is not empty; otherwise why there are none.
  virtual const std::string& absent_reason() const = 0;
  /// Opens devices()[index]. Throws DeviceError.
  virtual std::shared_ptr<Context> open(std::size_t index) = 0;
  /// The Context in which the caller's queue `native` on devices()[index] runs work: `opened`
  /// (the device's own, from open) where the queue is of it. CUDA's runtime shares one context
  /// per device with every library in the process; an OpenCL queue of a cl_context the caller
  /// made gets a Context over that one (its own kernels and tables), shared by every queue
  /// wrapped in it while any is alive. Throws InvalidArgument if `native` is not a queue of
  /// that device.
  virtual std::shared_ptr<Context> context_for_queue(std::size_t index, const std::shared_ptr<Context>& opened,
                                                     void* native) = 0;
  /// The Contexts context_for_queue made over the caller's contexts on devices()[index] that are
  /// still in use (none for CUDA).
  virtual std::vector<std::shared_ptr<Context>> caller_contexts(std::size_t /*index*/) { return {}; }
};

/// The backends compiled into this build, each constructed once (thread-safe).
/// Backends not compiled in are absent with reason "not built (RIPPLE_<API>=OFF or toolkit missing)".
Backend* opencl_backend();
Backend* cuda_backend();
/// Reason a backend is not compiled in, or empty.
std::string not_built_reason(Api api);

}  // namespace ripple::gpu
