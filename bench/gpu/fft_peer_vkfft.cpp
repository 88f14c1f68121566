// VkFFT (header-only, Debian libvkfft-dev) as a bench_gpu_fft peer. This file is compiled twice,
// into two plugins: VKFFT_BACKEND=1 (CUDA: NVRTC + the driver API; libbench_fft_peer_vkfft_cuda.so)
// and VKFFT_BACKEND=3 (OpenCL; libbench_fft_peer_vkfft_opencl.so). Each plugin is its own shared
// object, so the two backends' different VkFFTConfiguration layouts never meet in one program.
//
// Layout as the other peers: FFTdim = rank, size[] = the shape reversed (VkFFT's axis 0 is the
// contiguous one), numberBatches = batch, out of place through isInputFormatted (input buffer
// read, `buffer` written; both packed), forward (VkFFTAppend(..., -1, ...)). r2c: performR2C with
// the real input rows of n reals and complex output rows of n/2+1 values (strides counted in
// elements of each side's type). VkFFT compiles its kernels at plan time (NVRTC / clBuildProgram,
// no cache), which the plan-time table shows.
#if VKFFT_BACKEND == 1
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
#elif VKFFT_BACKEND == 3
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#else
#error "VKFFT_BACKEND must be 1 (CUDA) or 3 (OpenCL)"
#endif

#include <vkFFT.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "fft_peer.hpp"

namespace {

using ripple_bench::FftCase;

#if VKFFT_BACKEND == 1
using DeviceMem = void*;
constexpr const char* kBackend = "CUDA";
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
#else
using DeviceMem = cl_mem;
constexpr const char* kBackend = "OpenCL";
void check(cl_int e, const char* what) {
  if (e != CL_SUCCESS) throw std::runtime_error(std::string(what) + " failed: OpenCL status " + std::to_string(e));
}
#endif

void check(VkFFTResult r, const char* what) {
  if (r != VKFFT_SUCCESS) throw std::runtime_error(std::string(what) + ": VkFFTResult " + std::to_string(int(r)));
}

class VkfftPeer final : public ripple_bench::FftPeer {
 public:
#if VKFFT_BACKEND == 1
  explicit VkfftPeer(int ordinal) : ordinal_(ordinal) {
    check(cudaSetDevice(ordinal_), "cudaSetDevice");
    check(cudaFree(nullptr), "cudaFree(0) (context)");  // makes the primary context current
    if (cuDeviceGet(&device_, ordinal_) != CUDA_SUCCESS) throw std::runtime_error("cuDeviceGet failed");
    // A blocking stream, ordered with the legacy default stream on which VkFFT's CUDA backend
    // uploads its tables (cudaMemcpy: the LUTs of every double plan, Rader's and Bluestein's
    // tables). With a non-blocking stream, on an H200 (2026-11-30), VkFFT's results were wrong
    // exactly where it uses such tables (double N >= 3, float 17, 19, 23, ...), and right on
    // OpenCL (PoCL) with the same setup; the cause is not confirmed.
    check(cudaStreamCreate(&stream_), "cudaStreamCreate");
  }
#else
  VkfftPeer(cl_platform_id platform, cl_device_id device) : platform_(platform), device_(device) {
    cl_int e = CL_SUCCESS;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &e);
    check(e, "clCreateContext");
    queue_ = clCreateCommandQueue(context_, device_, 0, &e);
    check(e, "clCreateCommandQueue");
  }
#endif
  ~VkfftPeer() override {
    destroy_plan();
    release();
#if VKFFT_BACKEND == 1
    cudaStreamDestroy(stream_);
#else
    clReleaseCommandQueue(queue_);
    clReleaseContext(context_);
#endif
  }

  std::string name() const override {
    const int v = VkFFTGetVersion();
    return "VkFFT " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100) +
           " (" + kBackend + ")";
  }

  void prepare(const void* host, std::size_t bytes, std::size_t out_bytes) override {
    if (bytes > in_capacity_) {
      free_mem(in_);
      in_capacity_ = 0;
      in_ = alloc(bytes);
      in_capacity_ = bytes;
      host_ = nullptr;
    }
    if (host != host_ || bytes != in_bytes_) {
#if VKFFT_BACKEND == 1
      check(cudaMemcpy(in_, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (VkFFT input)");
#else
      check(clEnqueueWriteBuffer(queue_, in_, CL_TRUE, 0, bytes, host, 0, nullptr, nullptr), "clEnqueueWriteBuffer");
#endif
      host_ = host;
      in_bytes_ = bytes;
    }
    if (out_bytes > out_capacity_) {
      free_mem(out_);
      out_capacity_ = 0;
      out_ = alloc(out_bytes);
      out_capacity_ = out_bytes;
    }
  }

  void release() override {
    free_mem(in_);
    free_mem(out_);
    in_capacity_ = out_capacity_ = in_bytes_ = 0;
    host_ = nullptr;
  }

  void plan(const FftCase& c) override {
    destroy_plan();
    VkFFTConfiguration config{};
    config.FFTdim = static_cast<std::uint64_t>(c.rank);
    std::uint64_t in_per = 1, out_per = 1;
    for (int a = 0; a < c.rank; ++a) {
      config.size[a] = c.n[c.rank - 1 - a];  // VkFFT's axis 0 is the contiguous (last) axis
      in_per *= c.n[a];
      out_per *= (c.r2c && a == c.rank - 1) ? c.n[a] / 2 + 1 : c.n[a];
    }
    for (int a = c.rank; a < 3; ++a) config.size[a] = 1;
    config.numberBatches = c.batch;
    if (c.innermost) {
      // VkFFT's way to innermost batching: a 2-D array (batch contiguous, n) whose axis 0 is not
      // transformed (omitDimension). Its R2C is along axis 0 only.
      if (c.r2c) throw std::runtime_error("VkFFT: an r2c along a strided axis (innermost batching) is not supported");
      config.FFTdim = 2;
      config.size[0] = c.batch;
      config.size[1] = c.n[0];
      config.omitDimension[0] = 1;
      config.numberBatches = 1;
    }
    config.doublePrecision = c.is_double ? 1 : 0;
    config.performR2C = c.r2c ? 1 : 0;
    config.makeForwardPlanOnly = 1;
    const std::size_t real = c.is_double ? sizeof(double) : sizeof(float);
    in_size_ = in_per * c.batch * (c.r2c ? real : 2 * real);
    out_size_ = out_per * c.batch * 2 * real;
    if (in_size_ > in_capacity_ || out_size_ > out_capacity_)
      throw std::runtime_error("VkFFT: buffers smaller than the case (prepare() first)");
    // Strides per axis in elements of each side's type: row lengths n (in) and n or n/2+1 (out).
    std::uint64_t in_stride = 1, out_stride = 1;
    for (int a = 0; a < static_cast<int>(config.FFTdim); ++a) {
      in_stride *= config.size[a];
      out_stride *= (c.r2c && a == 0) ? config.size[0] / 2 + 1 : config.size[a];
      config.inputBufferStride[a] = in_stride;
      config.bufferStride[a] = out_stride;
    }
    for (int a = static_cast<int>(config.FFTdim); a < 3; ++a) {
      config.inputBufferStride[a] = in_stride;
      config.bufferStride[a] = out_stride;
    }
    config.isInputFormatted = 1;
    config.inputBuffer = &in_;
    config.inputBufferSize = &in_size_;
    config.buffer = &out_;
    config.bufferSize = &out_size_;
#if VKFFT_BACKEND == 1
    config.device = &device_;
    config.stream = &stream_;
    config.num_streams = 1;
#else
    config.platform = &platform_;
    config.device = &device_;
    config.context = &context_;
#endif
    app_ = VkFFTApplication{};
    check(initializeVkFFT(&app_, config), "initializeVkFFT");
    have_plan_ = true;
#if VKFFT_BACKEND == 1
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (VkFFT's tables uploaded)");
#endif
  }

  void destroy_plan() override {
    if (have_plan_) deleteVkFFT(&app_);
    have_plan_ = false;
  }

  void execute() override {
    if (!have_plan_) throw std::runtime_error("VkFFT: no plan");
    VkFFTLaunchParams launch{};
#if VKFFT_BACKEND == 3
    launch.commandQueue = &queue_;
#endif
    check(VkFFTAppend(&app_, -1, &launch), "VkFFTAppend");
  }

  void synchronize() override {
#if VKFFT_BACKEND == 1
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (VkFFT)");
#else
    check(clFinish(queue_), "clFinish (VkFFT)");
#endif
  }

  void download(std::size_t offset, void* dst, std::size_t bytes) override {
#if VKFFT_BACKEND == 1
    check(cudaMemcpy(dst, static_cast<const char*>(out_) + offset, bytes, cudaMemcpyDeviceToHost),
          "cudaMemcpy (VkFFT output)");
#else
    check(clEnqueueReadBuffer(queue_, out_, CL_TRUE, offset, bytes, dst, 0, nullptr, nullptr),
          "clEnqueueReadBuffer (VkFFT output)");
#endif
  }

 private:
  DeviceMem alloc(std::size_t bytes) {
#if VKFFT_BACKEND == 1
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc (VkFFT)");
    return p;
#else
    cl_int e = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes, nullptr, &e);
    check(e, "clCreateBuffer (VkFFT)");
    return m;
#endif
  }
  static void free_mem(DeviceMem& m) {
    if (!m) return;
#if VKFFT_BACKEND == 1
    cudaFree(m);
#else
    clReleaseMemObject(m);
#endif
    m = nullptr;
  }

#if VKFFT_BACKEND == 1
  int ordinal_;
  CUdevice device_{};
  cudaStream_t stream_ = nullptr;
#else
  cl_platform_id platform_;
  cl_device_id device_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
#endif
  DeviceMem in_ = nullptr;
  DeviceMem out_ = nullptr;
  std::size_t in_capacity_ = 0, out_capacity_ = 0, in_bytes_ = 0;
  const void* host_ = nullptr;
  std::uint64_t in_size_ = 0, out_size_ = 0;  // VkFFT keeps pointers to these
  VkFFTApplication app_{};
  bool have_plan_ = false;
};

}  // namespace

extern "C" __attribute__((visibility("default"))) ripple_bench::FftPeer* ripple_bench_make_fft_peer(
    const char* device, std::string* why) {
  const std::string id = device;
  try {
#if VKFFT_BACKEND == 1
    if (id.rfind("cuda:", 0) != 0) {
      *why = "VkFFT's CUDA backend runs on CUDA devices only, not " + id;
      return nullptr;
    }
    const int ordinal = std::stoi(id.substr(5));
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      *why = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e);
      return nullptr;
    }
    if (cuInit(0) != CUDA_SUCCESS) {
      *why = "cuInit failed";
      return nullptr;
    }
    if (ordinal < 0 || ordinal >= count) {
      *why = "no CUDA device " + id + " (" + std::to_string(count) + " present)";
      return nullptr;
    }
    return new VkfftPeer(ordinal);
#else
    // opencl:P.D, numbered as ripple numbers them: platforms in clGetPlatformIDs order, devices
    // of every type in clGetDeviceIDs order.
    const auto dot = id.find('.');
    if (id.rfind("opencl:", 0) != 0 || dot == std::string::npos) {
      *why = "VkFFT's OpenCL backend needs an OpenCL device id opencl:P.D, not " + id;
      return nullptr;
    }
    const unsigned p = std::stoul(id.substr(7, dot - 7)), d = std::stoul(id.substr(dot + 1));
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || p >= np) {
      *why = "no OpenCL platform " + std::to_string(p) + " (" + std::to_string(np) + " present)";
      return nullptr;
    }
    std::vector<cl_platform_id> platforms(np);
    clGetPlatformIDs(np, platforms.data(), nullptr);
    cl_uint nd = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || d >= nd) {
      *why = "no OpenCL device " + id + " (" + std::to_string(nd) + " on that platform)";
      return nullptr;
    }
    std::vector<cl_device_id> devices(nd);
    clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr);
    return new VkfftPeer(platforms[p], devices[d]);
#endif
  } catch (const std::exception& e) {
    *why = e.what();
    return nullptr;
  }
}
