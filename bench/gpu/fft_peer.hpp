// The other GPU FFT libraries bench_gpu_fft compares ripple with (cuFFT, VkFFT), each behind this
// small interface in a plugin of its own (libbench_fft_peer_*.so, next to the executable) that
// the benchmark opens with dlopen. A plugin links its library and runtime directly (libcufft,
// libcudart, libcuda + NVRTC for VkFFT's CUDA backend, libOpenCL for its OpenCL backend); keeping
// them out of the executable lets it start on machines where they are absent (no CUDA driver
// here, no OpenCL ICD loader on the GPU machine) and report why a peer is missing instead.
//
// A peer owns its own device memory: it uploads the same host input as ripple once, then runs
// each case as ONE forward, out-of-place transform, packed or innermost-batched (input at
// offset 0 of its input buffer, output at offset 0 of its output buffer, so the input is never
// overwritten and needs no re-upload between cases), exactly the layout ripple's cases use.
#pragma once

#include <array>
#include <cstddef>
#include <string>

namespace ripple_bench {

/// One case: `batch` transforms of shape n[0..rank) (row-major, n[rank-1] contiguous), c2c or
/// r2c (then the output has n[rank-1]/2+1 complex values on the last axis), float or double.
struct FftCase {
  int rank = 1;
  std::array<std::size_t, 3> n{1, 1, 1};
  std::size_t batch = 1;
  bool is_double = false;
  bool r2c = false;
  /// Rank 1 only: element i of transform b at i * batch + b on both sides (innermost batching;
  /// cuFFT's istride = batch, idist = 1) instead of b * n + i.
  bool innermost = false;
};

class FftPeer {
 public:
  virtual ~FftPeer() = default;
  /// "cuFFT 12.0.0", "VkFFT 1.2.26 (OpenCL)".
  virtual std::string name() const = 0;
  /// Makes sure the input buffer holds `bytes` bytes of `host` (uploads only when host or bytes
  /// changed since the last call) and the output buffer has at least out_bytes.
  virtual void prepare(const void* host, std::size_t bytes, std::size_t out_bytes) = 0;
  /// Frees both buffers.
  virtual void release() = 0;
  /// Builds the plan for `c` (replacing an earlier one), on the buffers prepare() made. Throws
  /// std::runtime_error saying why the library cannot do it.
  virtual void plan(const FftCase& c) = 0;
  virtual void destroy_plan() = 0;
  /// Enqueues one execution of the plan (asynchronous).
  virtual void execute() = 0;
  /// Waits for everything enqueued; throws std::runtime_error on a failure of that work.
  virtual void synchronize() = 0;
  /// Copies `bytes` bytes of the output buffer from byte `offset` into dst (blocking).
  virtual void download(std::size_t offset, void* dst, std::size_t bytes) = 0;
};

/// Every plugin exports this: a peer on `device` (ripple's id: "cuda:0", "opencl:0.1"), or
/// nullptr with *why set (no such device, runtime missing, ...). Never throws.
using MakeFftPeer = FftPeer* (*)(const char* device, std::string* why);
inline constexpr const char* kMakeFftPeerSymbol = "ripple_bench_make_fft_peer";

}  // namespace ripple_bench
