// FFTs of data already in device memory (ripple::Buffer on a CUDA or OpenCL device, or on the
// CPU): the same fft::PlanDesc as fft::Plan (include/ripple/fft.hpp: shape, batch, kind,
// precision, direction, norm, strides and distances), planned for one Queue and executed on
// Buffers of std::complex<float> or std::complex<double>.
//
//   ripple::Queue queue(ripple::Device::best());
//   ripple::fft::PlanDesc desc;
//   desc.shape = {4096};
//   desc.batch = 1000;
//   ripple::fft::DevicePlan plan(queue, desc);            // compiles (or loads) its kernels once
//   ripple::Buffer<std::complex<float>> x(queue, host);    // 1000 x 4096 values, uploaded once
//   plan.execute(x, x);                                    // in place, enqueued on `queue`
//   x.download(std::span<std::complex<float>>(host));      // through the same queue: waits for it
//
// Data already on the device from other code (cupy, PyTorch, an application's kernels) is
// transformed where it is, on the caller's stream, as with cuFFT's cufftSetStream:
//
//   ripple::Queue stream = ripple::Queue::wrap(ripple::Device::cuda(0), my_cuda_stream);
//   auto data = ripple::Buffer<std::complex<float>>::wrap(stream, my_device_pointer, 1000 * 4096);
//   ripple::fft::DevicePlan(stream, desc).execute(data, data);  // enqueued after my work on it
//
// One-shot numpy-style transforms over any axes of an array in a Buffer (cupy.fft.fftn's
// semantics) are fftn/ifftn/rfftn/irfftn at the end of this header:
//
//   auto y = ripple::fft::rfftn(x, {64, 100, 30}, {0, 2});  // axes 0 and 2, axis 2 real
//
// On a GPU (docs/ARCHITECTURE.md, "GPU FFT"): c2c, r2c and c2r transforms of rank 1, 2 and 3
// (numpy's fftn/rfftn/irfftn), of any size
// (numpy's fft/rfft/irfft; even real sizes through a complex FFT of half the size, odd ones of
// the full size), float or double, any batch and layout (packed, padded, strided, innermost-batched, embedded), in place or not
// (c2c in any layout; r2c and c2r through execute(data), in cuFFT's in-place layout), both directions, numpy's three norms. Sizes with no prime factor above 19 up to 8192 (float; 4096 double) run in one kernel (one
// read and one write of memory); larger ones up to 8192^3 (4096^3) in two or three passes through device
// scratch the plan owns; primes whose N - 1 has no prime factor above 19 by Rader's algorithm
// in one kernel (to 4057: a convolution through two FFTs of N - 1), other sizes with a larger
// prime factor by Bluestein's (two FFTs of a 19-smooth size >= 2N - 1: in one kernel up to 2048);
// larger sizes with up to six such primes in two or three passes, each pass a one-kernel DFT of
// one or two of them by either algorithm; the rest by Bluestein's over the whole size. Twiddles
// come from long-double tables rounded once. Making a plan whose kernels were compiled before
// (in this process, in ripple's disk cache, or on PoCL in PoCL's own kernel cache) compiles
// nothing (on PoCL the build only finds them in its cache); execute()
// neither allocates nor compiles. On the CPU the same calls run fft::Plan on the buffers' host
// memory (every size, kind and rank).
//
// Errors: InvalidArgument naming the field, as fft::Plan (rank, sizes, batch, strides,
// distances, embeddings, direction of r2c/c2r, aliasing output layouts), and for execute() an overload that
// does not match the plan's kind and precision, a buffer smaller than its layout's span, or a
// buffer on another device (or OpenCL context) than the plan's queue, in and out sharing
// memory other than from the same first byte; Unsupported naming what a GPU cannot do yet
// (sizes beyond 8192^3 float / 4096^3 double or, with a large prime factor, about half that, on any axis, named)
// and double precision on a device without it; DeviceError for failures of the device runtime (out of
// memory, compiler, launch).
#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "ripple/device.hpp"
#include "ripple/fft.hpp"

namespace ripple::fft {

/// Who provides the device memory a plan's passes work in (their scratch): the plan, which
/// allocates it when made (the default), or the caller, with DevicePlan::set_work_area (as
/// cuFFT's cufftSetAutoAllocation(0) and cufftSetWorkArea, VkFFT's userTempBuffer): for memory
/// from the caller's pool, or one area shared by plans executed one after another.
enum class WorkArea { owned, caller };

/// An FFT plan on one queue's device: owns its compiled kernels, twiddle tables and scratch
/// memory (or uses the caller's: WorkArea). Executions are enqueued on the plan's queue in
/// order; one plan may be executed from several threads (its queue orders the work) but its
/// scratch is shared, so executions never overlap each other.
class DevicePlan {
 public:
  /// Validates `desc` and builds the plan for `queue`'s device (threads is ignored on GPUs).
  /// With WorkArea::caller it allocates no scratch: execute() then needs set_work_area() first.
  /// Throws as described at the top of this header.
  DevicePlan(const Queue& queue, const PlanDesc& desc, WorkArea work_area = WorkArea::owned);
  DevicePlan(DevicePlan&&) noexcept;
  DevicePlan& operator=(DevicePlan&&) noexcept;
  ~DevicePlan();

  const PlanDesc& desc() const;
  const Queue& queue() const;
  /// Elements the input / output buffer must hold at least (fft::Plan's input_span/output_span).
  std::size_t input_span() const;
  std::size_t output_span() const;
  /// The algorithm chosen, e.g. "gpu c2c n=1048576 f32: 1024 x 1024 (2 passes, ...)".
  std::string describe() const;
  /// Bytes of device memory the passes work in (cuFFT's cufftGetSize): what the plan holds, or
  /// what set_work_area needs; 0 for plans that need none (one kernel whose input and output
  /// layouts agree) and on the CPU (fft::Plan keeps its own). The axes of an N-D plan run one
  /// after another, so their scratch shares these bytes: the largest axis's, plus the work
  /// array a c2r keeps through all of them.
  std::size_t work_bytes() const;
  /// The caller's memory for a WorkArea::caller plan's passes, at least work_bytes() bytes of
  /// it from its start (any Buffer on the plan's device and context; a wrapped one too). It is
  /// used by every execute() from now on, until set again: it must outlive them (on OpenCL the
  /// plan's sub-buffers of it keep its cl_mem alive meanwhile), and no other work may use it
  /// while one runs (other plans' executions on the same queue may: they run one after
  /// another). Throws InvalidArgument for a plan that owns its scratch, an area too small, on
  /// another device or context, or not aligned to 16 bytes (on OpenCL: with a piece where the
  /// device's sub-buffers may not start); execute() refuses buffers that share memory with the
  /// area.
  template <class T>
  void set_work_area(Buffer<T>& area) {
    set_work_area(area.raw());
  }
  void set_work_area(ripple::detail::RawBuffer& area);

  /// Enqueues the transform of `in` into `out` on the plan's queue (blocking on the CPU). in and
  /// out may be the same buffer, or two wrapping memory from the same byte (Buffer::wrap),
  /// for in place (c2c in any layouts; r2c and c2r in those execute(data) takes). Buffers on
  /// other queues of the same
  /// device are ordered with it (their queues are synchronized first, and the plan's queue
  /// after). The overload must match the plan's kind and precision.
  void execute(const Buffer<std::complex<float>>& in, Buffer<std::complex<float>>& out) const;
  void execute(const Buffer<std::complex<double>>& in, Buffer<std::complex<double>>& out) const;
  void execute(const Buffer<float>& in, Buffer<std::complex<float>>& out) const;
  void execute(const Buffer<double>& in, Buffer<std::complex<double>>& out) const;
  void execute(const Buffer<std::complex<float>>& in, Buffer<float>& out) const;
  void execute(const Buffer<std::complex<double>>& in, Buffer<double>& out) const;
  /// In place, one buffer holding both sides (fft::Plan's execute with in == out). c2c:
  /// execute(data, data). r2c reads its reals from data's memory (the input layout counted in
  /// reals) and writes the spectrum over them; c2r the reverse. The buffer's precision must be
  /// the plan's; it must hold both layouts' spans. A real transform of rank 1 takes one
  /// transform (or line) in any layout, or several where each one's reals and complex values lie on the
  /// same bytes (cuFFT's in-place layout: strides 1, the real distance twice the complex one,
  /// which is at least n/2+1; e.g. r2c with in_dist = 2 * (n/2+1), out_dist = 0). Of rank 2
  /// or 3, c2r takes any layout (its input goes to a work array first); r2c needs each row of
  /// reals on the bytes of its row of complex values, as FFTW's and cuFFT's in-place layout
  /// pads them: strides 1, in_embed = {.., 2 * (n/2+1)} (out_embed none, or the same padding
  /// halved), the real distance twice the complex one. Else InvalidArgument naming the layout.
  void execute(Buffer<std::complex<float>>& data) const;
  void execute(Buffer<std::complex<double>>& data) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

/// numpy.fft.fftn / ifftn / rfftn / irfftn (as cupy.fft's) on device memory: transforms over
/// `axes` of the C-ordered array of `shape` held in x's first prod(shape) values, returned as a
/// new C-ordered Buffer on x's queue (rfftn's real axis m/2+1 long, irfftn's n). `axes`, `n` and
/// `norm` are those of the host functions in ripple/fft.hpp: any number of axes in any order,
/// the last one listed the real axis; so is `s` (numpy's s: the array cut or zero-padded to
/// those lengths along the axes first, on the device). On a GPU each axis is one batched 1-D
/// pass over its lines where they lie (no transposes; the kernels compiled once, as for a
/// DevicePlan); an input cut or padded (by s, or irfftn's along the real axis where n/2+1
/// differs from its length there) is first copied so, one axis at a time. The call returns
/// when the result is complete. Throws as the host functions
/// (InvalidArgument naming the bad axis or length), InvalidArgument if x holds fewer than
/// prod(shape) values, and as DevicePlan (Unsupported naming an axis the device cannot
/// transform, or double precision on a device without it; DeviceError).
Buffer<std::complex<float>> fftn(const Buffer<std::complex<float>>& x, const std::vector<std::size_t>& shape,
                                 const std::vector<int>& axes = {}, Norm norm = Norm::backward,
                                 const std::vector<std::size_t>& s = {});
Buffer<std::complex<double>> fftn(const Buffer<std::complex<double>>& x, const std::vector<std::size_t>& shape,
                                  const std::vector<int>& axes = {}, Norm norm = Norm::backward,
                                  const std::vector<std::size_t>& s = {});
Buffer<std::complex<float>> ifftn(const Buffer<std::complex<float>>& x, const std::vector<std::size_t>& shape,
                                  const std::vector<int>& axes = {}, Norm norm = Norm::backward,
                                  const std::vector<std::size_t>& s = {});
Buffer<std::complex<double>> ifftn(const Buffer<std::complex<double>>& x, const std::vector<std::size_t>& shape,
                                   const std::vector<int>& axes = {}, Norm norm = Norm::backward,
                                   const std::vector<std::size_t>& s = {});
Buffer<std::complex<float>> rfftn(const Buffer<float>& x, const std::vector<std::size_t>& shape,
                                  const std::vector<int>& axes = {}, Norm norm = Norm::backward,
                                  const std::vector<std::size_t>& s = {});
Buffer<std::complex<double>> rfftn(const Buffer<double>& x, const std::vector<std::size_t>& shape,
                                   const std::vector<int>& axes = {}, Norm norm = Norm::backward,
                                   const std::vector<std::size_t>& s = {});
Buffer<float> irfftn(const Buffer<std::complex<float>>& x, const std::vector<std::size_t>& shape,
                     const std::vector<int>& axes = {}, std::size_t n = 0, Norm norm = Norm::backward,
                     const std::vector<std::size_t>& s = {});
Buffer<double> irfftn(const Buffer<std::complex<double>>& x, const std::vector<std::size_t>& shape,
                      const std::vector<int>& axes = {}, std::size_t n = 0, Norm norm = Norm::backward,
                      const std::vector<std::size_t>& s = {});

}  // namespace ripple::fft
