// Device level: batched 1-D complex-to-complex FFTs whose size fits on chip, in one kernel
// (kernels/fft_c2c.cl on fft_codelets.h): one read and one write of global memory per
// transform, every stage in registers with exchanges through local memory. Sizes 2^a 3^b 5^c 7^d
// up to kFftMaxOnChip (radix 2, 3, 4, 5, 7, 8 stages); float or double; both directions and
// numpy's three normalizations from one compiled program (direction and scale are arguments).
// Element i of transform b is at b * dist + i * stride on each side (contiguous batches,
// innermost batching, padded distances). An immutable plan: the program is compiled and the
// twiddle table uploaded when it is made; run() only launches.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/program.hpp"
#include "gpu/runtime.hpp"
#include "ripple/fft.hpp"

namespace ripple::gpu {

/// The largest size the one-kernel path takes.
inline constexpr std::uint64_t kFftMaxOnChip = 4096;

/// How a size is cut into stages and work-items (all compile-time constants of the program).
struct FftShape {
  std::uint64_t n = 1;
  std::vector<unsigned> radices;  ///< stage radices, first stage first (empty for n = 1)
  unsigned threads_per_transform = 1;
  unsigned transforms_per_group = 1;
  unsigned slots = 1;  ///< complex registers per work-item
  bool split_exchange = false;
};

/// Where the elements are: element i of transform b at b * dist + i * stride (in elements).
struct FftLayout {
  std::uint64_t batch = 1;
  std::int64_t in_stride = 1, in_dist = 0;
  std::int64_t out_stride = 1, out_dist = 0;
};

class DeviceFft {
 public:
  /// Throws Unsupported for sizes that are not 7-smooth or exceed kFftMaxOnChip (naming n) and
  /// for double on a device without it; InvalidArgument for n = 0.
  DeviceFft(Context& context, std::uint64_t n, bool double_precision);

  /// The stage and work-item plan of size n (throws as the constructor).
  static FftShape shape(std::uint64_t n, bool double_precision);
  static ProgramSpec program(const FftShape& shape, bool double_precision);

  std::uint64_t size() const { return shape_.n; }
  const FftShape& plan_shape() const { return shape_; }
  std::size_t element_bytes() const { return double_ ? 16 : 8; }

  /// out = norm-scaled DFT of in for every transform of the layout, enqueued on `stream`. in and
  /// out may be the same memory when both sides have the same layout. Throws InvalidArgument if
  /// a stride is below 1, a distance is negative, or an element falls outside a buffer.
  void run(Stream& stream, const Memory& in, Memory& out, const FftLayout& layout, fft::Direction direction,
           fft::Norm norm = fft::Norm::backward) const;

 private:
  FftShape shape_;
  bool double_;
  std::shared_ptr<const Module> module_;
  std::unique_ptr<Memory> twiddles_;
};

}  // namespace ripple::gpu
