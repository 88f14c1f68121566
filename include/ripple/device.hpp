// Where ripple computes: the CPU, a CUDA device or an OpenCL device; memory on a device
// (Buffer<T>) and a queue of work on it (Queue). GPU backends are found at run time: a machine
// without a CUDA driver, without an OpenCL ICD loader or with no devices simply lists fewer
// devices (Device::backends() says why), and the CPU always works.
//
//   for (const ripple::Device& d : ripple::Device::list()) std::cout << d.to_string() << "\n";
//   ripple::Queue queue(ripple::Device::parse("opencl:0.0"));
//   ripple::Buffer<float> buf(queue, host);      // allocates on the device and uploads
//   buf.download(std::span<float>(back));
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ripple {

enum class DeviceKind { cpu, cuda, opencl };

/// What a device is, as its runtime reports it.
struct DeviceInfo {
  std::string name;  ///< e.g. "NVIDIA H100", "cpu-haswell-AMD EPYC 7B13" (PoCL)
  std::string vendor;
  std::string platform;             ///< OpenCL platform name, "CUDA", or "host"
  std::string driver_version;       ///< driver version as the runtime reports it
  std::string runtime_version;      ///< CUDA runtime + NVRTC, or the OpenCL platform version
  std::string arch;                 ///< "sm_90" (CUDA), the OpenCL C version, or the SIMD target (CPU)
  std::uint64_t global_memory = 0;  ///< bytes (0 for the CPU: host memory)
  unsigned compute_units = 0;       ///< SMs, OpenCL compute units, or hardware threads
  bool is_gpu = false;              ///< false for the CPU and for CPU OpenCL devices (PoCL)
  bool fp64 = false;                ///< double precision available
};

/// One compiled-in GPU backend and what it found on this machine.
struct BackendStatus {
  std::string name;    ///< "CUDA" or "OpenCL"
  bool built = false;  ///< compiled into this library (RIPPLE_CUDA / RIPPLE_OPENCL)
  std::size_t devices = 0;
  std::string reason;  ///< why there are no devices (empty when there are)
};

/// A device id: `cpu`, `cuda:N` (CUDA ordinal) or `opencl:P.D` (platform P, device D).
/// A Device is a plain value; it may name a device that is not present (see available()).
class Device {
 public:
  Device() = default;  ///< the CPU
  static Device cpu() { return Device(); }
  static Device cuda(int ordinal);
  static Device opencl(int platform, int device);
  /// Parses "cpu", "cuda", "cuda:N", "opencl:P.D". Throws InvalidArgument quoting the text.
  static Device parse(std::string_view text);

  /// Every device present: the CPU first, then CUDA devices, then OpenCL devices. Never throws
  /// for an absent runtime.
  static std::vector<Device> list();
  /// The device to use by default: a CUDA device, else an OpenCL GPU, else the CPU. CPU
  /// OpenCL devices (PoCL) are chosen over the plain CPU only if allow_opencl_cpu.
  static Device best(bool allow_opencl_cpu = false);
  /// One entry per GPU API (CUDA, OpenCL), built or not, with the reason it has no devices.
  static std::vector<BackendStatus> backends();

  DeviceKind kind() const { return kind_; }
  int platform() const { return platform_; }  ///< OpenCL platform index (0 otherwise)
  int index() const { return index_; }        ///< CUDA ordinal / OpenCL device index (0 for cpu)
  /// "cpu", "cuda:0", "opencl:0.1"; parse(to_string()) == *this.
  std::string to_string() const;
  /// True if this device is present on this machine (the CPU always is).
  bool available() const;
  /// Name, memory, compute units, versions. Throws Unsupported if the device is not present.
  DeviceInfo info() const;
  /// Frees the device memory ripple keeps on this device for plans made later: the FFT plans'
  /// constant tables (twiddles, Bluestein's and Rader's spectra), up to 256 MiB or a 32nd of the
  /// device's memory, kept after their plans are gone so that a plan made again is made in
  /// microseconds. Tables no plan uses are freed now; the rest go with their last plan. Plans
  /// made later make their tables again. For memory wanted outside ripple (another library on
  /// the same GPU); ripple's own allocations do this themselves before they fail. Returns the
  /// bytes freed now; 0 for the CPU, or for a device no queue has opened. Contexts of the
  /// caller's (an OpenCL queue of one through Queue::wrap) are emptied too.
  std::size_t release_cached_memory() const;

  bool operator==(const Device&) const = default;

 private:
  DeviceKind kind_ = DeviceKind::cpu;
  int platform_ = 0;
  int index_ = 0;
};

/// An in-order queue of work on one device (a CUDA stream, an OpenCL command queue; on the CPU,
/// work runs when called). Copies through it are blocking; kernels it runs are asynchronous
/// until synchronize(). Queues are cheap handles: copies share the same queue.
class Queue {
 public:
  /// Opens the device. Throws Unsupported if the device is not present, DeviceError if its
  /// runtime fails to open it.
  explicit Queue(const Device& device = Device::best());
  /// Work on the caller's own queue (cuFFT's cufftSetStream, VkFFT's stream or commandQueue):
  /// a cudaStream_t of a CUDA device (nullptr: its default stream), or an in-order
  /// cl_command_queue on an OpenCL device, either of ripple's context (that of a Queue's
  /// native_handle()) or of the caller's own, in which ripple then builds its kernels too.
  /// ripple enqueues on it and never destroys it, nor waits for it when the Queue goes (calls
  /// that return finished, as uploads and downloads, wait for it as for any queue): it must
  /// outlive the Queue and all made with it. Throws InvalidArgument naming what does not fit
  /// (the CPU, not a queue of `device`, out of order), Unsupported if the device is not present.
  static Queue wrap(const Device& device, void* native_queue);
  const Device& device() const;
  /// Waits for all work enqueued so far. Throws DeviceError for a failure of that work.
  void synchronize() const;
  /// The cudaStream_t or cl_command_queue this queue enqueues on (nullptr on the CPU), for the
  /// caller's own work in order with ripple's.
  void* native_handle() const;

  struct Impl;
  const std::shared_ptr<Impl>& impl() const { return impl_; }

 private:
  explicit Queue(std::shared_ptr<Impl> impl);
  std::shared_ptr<Impl> impl_;
};

namespace detail {
/// Untyped memory on a queue's device (host memory for the CPU); Buffer<T> is its typed face.
class RawBuffer {
 public:
  RawBuffer(const Queue& queue, std::size_t bytes);
  /// `bytes` of the caller's memory at `native` (Buffer::wrap), `alignment` bytes aligned.
  static RawBuffer wrap(const Queue& queue, void* native, std::size_t bytes, std::size_t alignment);
  ~RawBuffer();
  RawBuffer(RawBuffer&&) noexcept;
  RawBuffer& operator=(RawBuffer&&) noexcept;
  std::size_t bytes() const;
  const Queue& queue() const;
  void upload(const void* src, std::size_t offset, std::size_t bytes);
  void download(void* dst, std::size_t offset, std::size_t bytes) const;
  void* native_handle() const;

  struct Impl;
  Impl& impl() const { return *impl_; }

 private:
  explicit RawBuffer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};
}  // namespace detail

/// n values of T in the memory of a queue's device, owned (freed on destruction) or the
/// caller's (wrap). Copies to and from host memory go through the queue and are blocking.
template <class T>
class Buffer {
  static_assert(std::is_trivially_copyable_v<T>, "Buffer<T> needs a trivially copyable T");

 public:
  /// Allocates n values (contents unspecified). Throws DeviceError (out of device memory) or
  /// InvalidArgument (n * sizeof(T) overflows).
  Buffer(const Queue& queue, std::size_t n) : raw_(queue, checked_bytes(n)), size_(n) {}
  /// Allocates host.size() values and uploads host.
  Buffer(const Queue& queue, std::span<const T> host) : Buffer(queue, host.size()) { upload(host); }
  /// n values of T in the caller's memory, neither copied nor freed (cuFFT's and VkFFT's way
  /// with buffers): on a CUDA queue a device pointer (cudaMalloc'd or managed; cupy's and
  /// PyTorch's data pointers) aligned to sizeof(T) (as the kernels load complex values), its
  /// size checked where the driver names the allocation; on OpenCL a CL_MEM_READ_WRITE cl_mem
  /// (or sub-buffer) of the queue's context, retained while wrapped; on the CPU a host pointer.
  /// The memory must outlive the Buffer; ripple's work on it is ordered by the queue. Two wraps
  /// of one memory are one buffer where they start at the same byte (work in place), and are
  /// refused as the two buffers of one operation where they overlap otherwise, or where they are
  /// an OpenCL buffer and a sub-buffer of it (OpenCL's rule, however far apart).
  /// Throws InvalidArgument naming what does not fit: null, not memory of the queue's device
  /// or context, fewer than n values, misaligned, n * sizeof(T) overflowing.
  static Buffer wrap(const Queue& queue, void* native, std::size_t n);

  std::size_t size() const { return size_; }
  const Queue& queue() const { return raw_.queue(); }

  /// Copies host into values [offset, offset + host.size()). Throws InvalidArgument if that
  /// range is outside the buffer.
  void upload(std::span<const T> host, std::size_t offset = 0) {
    check_range(offset, host.size(), "upload");
    raw_.upload(host.data(), offset * sizeof(T), host.size() * sizeof(T));
  }
  /// Copies values [offset, offset + host.size()) into host. Throws InvalidArgument if that
  /// range is outside the buffer.
  void download(std::span<T> host, std::size_t offset = 0) const {
    check_range(offset, host.size(), "download");
    raw_.download(host.data(), offset * sizeof(T), host.size() * sizeof(T));
  }
  /// All values, downloaded.
  std::vector<T> to_vector() const {
    std::vector<T> v(size_);
    download(std::span<T>(v));
    return v;
  }

  /// The device pointer (CUDA), cl_mem (OpenCL) or host pointer (CPU) holding the values, for
  /// the caller's own kernels and libraries.
  void* native_handle() const { return raw_.native_handle(); }

  const detail::RawBuffer& raw() const { return raw_; }
  detail::RawBuffer& raw() { return raw_; }

 private:
  Buffer(detail::RawBuffer raw, std::size_t n) : raw_(std::move(raw)), size_(n) {}
  static std::size_t checked_bytes(std::size_t n);
  void check_range(std::size_t offset, std::size_t count, const char* what) const;

  detail::RawBuffer raw_;
  std::size_t size_;
};

namespace detail {
[[noreturn]] void throw_buffer_size(std::size_t n, std::size_t elem);
[[noreturn]] void throw_buffer_range(const char* what, std::size_t offset, std::size_t count,
                                     std::size_t size);
}  // namespace detail

template <class T>
std::size_t Buffer<T>::checked_bytes(std::size_t n) {
  if (n > static_cast<std::size_t>(-1) / sizeof(T)) detail::throw_buffer_size(n, sizeof(T));
  return n * sizeof(T);
}

template <class T>
Buffer<T> Buffer<T>::wrap(const Queue& queue, void* native, std::size_t n) {
  constexpr std::size_t size = sizeof(T);
  // A GPU kernel loads a std::complex<float> as a float2, a std::complex<double> as a double2.
  constexpr std::size_t kernel_alignment = (size & (size - 1)) == 0 && size <= 16 ? size : alignof(T);
  const std::size_t alignment = queue.device().kind() == DeviceKind::cpu ? alignof(T) : kernel_alignment;
  return Buffer(detail::RawBuffer::wrap(queue, native, checked_bytes(n), alignment), n);
}

template <class T>
void Buffer<T>::check_range(std::size_t offset, std::size_t count, const char* what) const {
  if (offset > size_ || count > size_ - offset) detail::throw_buffer_range(what, offset, count, size_);
}

}  // namespace ripple
