// Device level: a cascade of second-order sections over the rows of a channels x n array in
// device memory (scipy's sosfilt along the last axis), float or double, in one of two kernels:
//   tiles     kernels/sos_cascade.cl: single pass, every tile scanned per section with
//             decoupled look-back (any number of channels, any length: fills a GPU from one
//             long channel);
//   channels  kernels/sos_channels.cl: one work-item per channel, the serial recurrence (many
//             channels of moderate length; cascades with a pole on or outside the unit circle).
// run() picks one per call by a cost rule (choose(), constants in tuning.hpp) unless told. An
// immutable plan: coefficients uploaded when it is made, each kernel compiled (through the
// kernel caches) the first time its path runs. Thread-safe for concurrent run() calls on
// different streams.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "gpu/program.hpp"
#include "gpu/runtime.hpp"
#include "iir/sos_plan.hpp"

namespace ripple::gpu {

enum class SosPath { automatic, tiles, channels };

struct SosConfig {
  bool double_precision = false;  ///< data precision (set from the plan by the constructor)
  /// Carries (the scan of state maps) in double for float data. Unset: the CPU executor's rule
  /// (some section's zero-state transient exceeds tuning::kFloatScanTransientGainLimit, see
  /// src/iir/sos_plan.hpp) where the device has double precision; float otherwise.
  std::optional<bool> wide_carries;
  unsigned block = 0;          ///< tiles: work-items per group; 0: tuning default
  unsigned items = 0;          ///< tiles: samples per work-item; 0: tuning default
  unsigned channel_block = 0;  ///< channels: channels per group; 0: tuning default
  unsigned chunk = 0;          ///< channels: samples staged per channel; 0: tuning default
  unsigned max_sections = 0;   ///< channels: sections in registers; 0: tuning, or more for the plan
  bool no_shuffle = false;     ///< force the local-memory warp scan even where shuffles exist
  /// Tests only: if > 0, only tiles whose number is a multiple of it post an inclusive prefix,
  /// so look-back over aggregates is exercised deterministically (a kernel argument, not a
  /// constant: the same program runs it).
  unsigned test_prefix_every = 0;
};

/// How run() treats the state buffer (sections x channels x 2, data precision).
struct SosState {
  Memory* memory = nullptr;  ///< null: start from zero, final state not kept
  bool read = true;          ///< start from it (else from zero)
  bool write = true;         ///< overwrite it with the final state
};

class DeviceSos {
 public:
  /// Uploads the plan's coefficients on `context` (which must outlive the plan). Throws
  /// InvalidArgument for a bad block/items/chunk, Unsupported for double precision (data, or
  /// carries asked for) on a device without it, DeviceError for a runtime failure.
  template <class T>
  DeviceSos(Context& context, const iir::detail::SosPlan<T>& plan, SosConfig config = {});

  /// The programs for a configuration (defaults filled in; for the NVRTC variant test).
  static ProgramSpec tiles_program(const SosConfig& config);
  static ProgramSpec channels_program(const SosConfig& config);

  std::size_t sections() const { return sections_; }
  bool stable() const { return stable_; }
  bool wide_carries() const { return config_.wide_carries.value_or(false); }
  std::uint64_t tile() const { return std::uint64_t(config_.block) * config_.items; }
  std::size_t real_bytes() const { return config_.double_precision ? 8 : 4; }

  /// The path run() takes for `channels` rows of n samples under SosPath::automatic: the
  /// channel path when the cascade is unstable, on CPU OpenCL devices, or when its estimated
  /// time is no more than the tile path's (see tuning.hpp, kSosResidentPerUnitGpu).
  SosPath choose(std::uint64_t channels, std::uint64_t n) const;

  /// Temporary storage of the tile path (look-back flags and posts) for up to `channels` rows
  /// of up to n samples; empty if the cost rule would not take the tile path.
  struct Workspace {
    std::uint64_t slots = 0;  ///< look-back sequences x tiles it holds
    std::unique_ptr<Memory> flags;
    std::unique_ptr<Memory> values;
  };
  Workspace workspace(Context& context, std::uint64_t channels, std::uint64_t n,
                      SosPath path = SosPath::automatic) const;

  /// Waits until the programs the plan compiles (both paths', the tile path's for a stable
  /// cascade only) are made; throws DeviceError if one failed.
  void wait_ready() const {
    channels_.wait();
    if (stable_) tiles_.wait();
  }

  /// y = the cascade applied to the `channels` rows of n samples of x (row-major; y may be x).
  /// Enqueued on `stream`. Throws InvalidArgument if a buffer is too small or the workspace
  /// does not hold the tile path's look-back.
  void run(Stream& stream, const Memory& x, Memory& y, std::uint64_t channels, std::uint64_t n,
           const SosState& state, Workspace& workspace, SosPath path = SosPath::automatic) const;

 private:
  SosConfig config_;
  std::size_t sections_ = 0;
  bool stable_ = false;
  std::uint64_t resident_ = 0;  ///< work-items the device runs at once (cost rule)
  bool is_gpu_ = false;
  Context* context_ = nullptr;
  std::unique_ptr<Memory> coef_;       ///< biquad.h words in the carries' precision
  std::unique_ptr<Memory> coef_data_;  ///< the same in the data precision, where it differs
  const Module& module(SosPath path) const;
  // Compiled when the plan is made, each on a thread of its own (get_module_async); the tile
  // path's for a stable cascade only. A compile error is thrown by the path's first run.
  PendingModule tiles_, channels_;
};

}  // namespace ripple::gpu
