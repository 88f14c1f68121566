// Device level: batched strided copy with a real or complex scale (kernels/copy_scale.cl), the
// layout step later plans build on (FFT batches, channel gathers). An immutable plan: the
// kernel is compiled when it is made; run() only launches.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>

#include "gpu/program.hpp"
#include "gpu/runtime.hpp"

namespace ripple::gpu {

/// Strides and distances in elements (negative allowed); offsets in elements place index 0.
struct CopyLayout {
  std::uint64_t count = 0;  ///< elements per batch entry
  std::uint64_t batch = 1;
  std::uint64_t in_offset = 0;
  std::int64_t in_stride = 1;
  std::int64_t in_dist = 0;
  std::uint64_t out_offset = 0;
  std::int64_t out_stride = 1;
  std::int64_t out_dist = 0;
};

class DeviceCopy {
 public:
  /// Elements are real (float or double) or complex of that precision.
  DeviceCopy(Context& context, bool double_precision, bool complex);
  static ProgramSpec program(bool double_precision, bool complex);
  std::size_t element_bytes() const { return element_bytes_; }

  /// out[layout] = scale * in[layout] on `stream`. Throws InvalidArgument if an index falls
  /// outside `in` or `out` (naming the buffer and the index), or a real plan is given a
  /// complex scale.
  void run(Stream& stream, const Memory& in, Memory& out, const CopyLayout& layout,
           std::complex<double> scale = 1.0) const;

 private:
  std::shared_ptr<const Module> module_;
  bool double_;
  bool complex_;
  std::size_t element_bytes_;
};

}  // namespace ripple::gpu
