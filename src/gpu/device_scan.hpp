// Device level: single-pass inclusive scan of an associative operator over n values in device
// memory (kernels/device_scan.cl, on block_scan.h, on warp_scan.h). Operators: sum of reals
// and composition of 2x2 affine maps (the building block of the GPU biquad), in float or
// double. As CUB, the caller provides the temporary storage (a Workspace sized for n).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "gpu/program.hpp"
#include "gpu/runtime.hpp"

namespace ripple::gpu {

enum class ScanOp { sum, affine2 };

/// Bytes of local memory kernels/look_back.h's look_back_t takes for scan values of
/// `value_bytes`: a window of 32 values and flags (one per lane of a warp), the result, a flag.
inline std::uint64_t look_back_local_bytes(std::uint64_t value_bytes) { return 33 * value_bytes + 33 * 4; }

struct ScanConfig {
  ScanOp op = ScanOp::sum;
  bool double_precision = false;
  unsigned block = 0;       ///< work-items per group; 0: the tuning default
  unsigned items = 0;       ///< values per work-item; 0: the tuning default
  bool no_shuffle = false;  ///< force the local-memory warp scan even where shuffles exist
  /// Tests only: if > 0, only tiles whose number is a multiple of it post an inclusive prefix,
  /// so look-back over aggregates is exercised deterministically.
  unsigned test_prefix_every = 0;
};

class DeviceScan {
 public:
  /// Compiles the scan for `context`. Throws InvalidArgument for a block that is not a positive
  /// multiple of 32 or exceeds the device's work-group limit, or items of 0 or over 64;
  /// Unsupported for double precision on a device without it.
  DeviceScan(Context& context, const ScanConfig& config);
  static ProgramSpec program(const ScanConfig& config);  ///< config with defaults filled in

  /// Reals per value: 1 (sum) or 6 (affine2: a00 a01 a10 a11 b0 b1).
  unsigned words() const { return words_; }
  std::size_t real_bytes() const { return real_bytes_; }
  std::uint64_t tile() const { return std::uint64_t(block_) * items_; }

  /// Temporary storage for scanning up to `max_n` values.
  struct Workspace {
    std::uint64_t max_n = 0;
    std::unique_ptr<Memory> state;   // tile counter and flags
    std::unique_ptr<Memory> values;  // per-tile aggregates and inclusive prefixes
  };
  Workspace workspace(Context& context, std::uint64_t max_n) const;

  /// out[i] = in[0] op in[1] op ... op in[i] for i < n (values of words() reals). in and out
  /// may be the same memory. Throws InvalidArgument if n exceeds the workspace or a buffer.
  void run(Stream& stream, const Memory& in, Memory& out, std::uint64_t n, Workspace& workspace) const;

 private:
  std::shared_ptr<const Module> module_;
  unsigned words_;
  std::size_t real_bytes_;
  unsigned block_;
  unsigned items_;
};

}  // namespace ripple::gpu
