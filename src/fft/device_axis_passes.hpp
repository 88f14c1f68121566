// Multi-dimensional FFTs on a GPU as one pass per transformed axis, each a batched 1-D plan
// (gpu::DeviceFftPlan for complex lines, gpu::DeviceFftReal for the real axis of r2c and c2r)
// over that axis's lines, addressed where they lie: no transposes. Shared by fft::DevicePlan's
// ranks 2 and 3 (every axis of a batch of arrays in the caller's layout) and the one-shot
// fftn/ifftn/rfftn/irfftn on Buffers (any axes of one C-ordered array).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fft/plan_desc.hpp"
#include "gpu/device_fft_plan.hpp"
#include "gpu/device_fft_real.hpp"
#include "ripple/device.hpp"
#include "ripple/error.hpp"

namespace ripple::fft::detail {

/// The lines of one axis: up to three levels of batch (the elements after the axis, those
/// before it, the arrays of the batch), levels merged where evenly spaced on both sides. Two
/// levels fit one FftLayout; a third is looped over at run time with base offsets.
struct AxisLayout {
  gpu::FftLayout layout;
  std::uint64_t groups = 1;  // the third level
  std::int64_t in_step = 0, out_step = 0;
};

/// The lines of `axis` of `batch` arrays of `shape` (the sides' sizes, but along `axis`
/// itself, where a real transform's sides differ), element (i_0, ..) of array b at
/// b * dist + stride * sum_a i_a * pitch[a] on each side (pitch: the element distances of the
/// side's embedding).
AxisLayout axis_layout(const std::vector<std::size_t>& shape, std::size_t axis, std::uint64_t batch,
                       const std::vector<std::size_t>& in_pitch, std::int64_t in_stride, std::int64_t in_dist,
                       const std::vector<std::size_t>& out_pitch, std::int64_t out_stride, std::int64_t out_dist);

/// The GPU context of `queue`, refusing double precision (Unsupported naming the device) where
/// the device has none: what every device FFT asks first.
gpu::Context& gpu_context(const Queue& queue, bool double_precision);

class DeviceAxisPasses {
 public:
  /// Transforms over `axes` (distinct, each < shape.size(); for r2c and c2r the last one is the
  /// real axis) of `layout.batch` arrays of the logical (real-side) `shape`, in the layout's
  /// strides, distances and embeddings (none: packed), of `kind` and precision. c2c and r2c: the last axis listed (the
  /// real one) in -> out with the norm's scale, then the others of size > 1 in place on out.
  /// c2r: the first other axis in -> a packed work array the passes own (also of size 1: a
  /// copy, so the input is left as it was), the rest of size > 1 in place there, then the real
  /// axis work -> out with the scale; with no other axis, the real axis in -> out. Every axis's
  /// size is checked before anything is compiled or allocated: one the device cannot do is
  /// Unsupported "axis A of size N on `where`: ...". Programs compile side by side (wait_ready).
  /// The passes' scratch is one region they share, each pass's laid over the others' (a plan
  /// collecting deferred scratch gets their pieces so, gpu::ScratchStep); where that region
  /// cannot be had, each pass's own. max_pass caps every 1-D plan's passes, as
  /// gpu::DeviceFftPlan's (tests lower it to reach passes with scratch at small sizes).
  DeviceAxisPasses(gpu::Context& context, const std::vector<std::size_t>& shape, const std::vector<std::size_t>& axes,
                   Kind kind, bool double_precision, const CheckedDesc& layout, const std::string& where,
                   std::uint64_t max_pass = gpu::kFftMaxOnChip);
  ~DeviceAxisPasses();

  void wait_ready() const;
  /// E.g. "axis 1 [gpu c2c n=64: ...], axis 0 [...]".
  std::string describe() const;
  /// out = scale * the transform of in (c2c in `direction`), enqueued on `stream`. in and out
  /// may be the same memory for c2c.
  void run(gpu::Stream& stream, const gpu::Memory& in, gpu::Memory& out, Direction direction, double scale) const;

 private:
  enum class Slot { in, out, work };
  struct AxisPass {
    std::size_t axis;
    std::unique_ptr<gpu::DeviceFftPlan> plan;  // complex lines
    std::unique_ptr<gpu::DeviceFftReal> rows;  // the real axis of r2c and c2r
    AxisLayout lines;
    Slot from, to;
    bool scaled;
  };
  void build_passes(gpu::Context& context, const std::vector<std::size_t>& shape, const std::vector<std::size_t>& axes,
                    Kind kind, bool double_precision, const CheckedDesc& layout, const std::string& where,
                    std::uint64_t max_pass);
  static Unsupported unsupported_axis(const std::vector<std::size_t>& shape, std::size_t axis,
                                      const std::string& where, const Unsupported& e);

  std::unique_ptr<gpu::Memory> region_;  // every pass's scratch, where the passes own it (outlives them)
  std::vector<AxisPass> passes_;
  std::unique_ptr<gpu::Memory> work_;  // c2r with other axes
  // c2c whose first pass runs per group of lines (embedded layouts) with different sides: in
  // place, a group's output could overwrite a later group's input, so it reads from a copy.
  std::unique_ptr<gpu::Memory> in_copy_;
  std::size_t in_bytes_ = 0;
};

}  // namespace ripple::fft::detail
