// Where the GPU FFT passes' scratch memory comes from: allocated where a component asks for it
// (the default), or, for a plan made for a work area of the caller's (fft::WorkArea::caller,
// cuFFT's cufftSetAutoAllocation(0) + cufftSetWorkArea), placeholders bound later to pieces of
// that area. While a CollectScratch lives on a thread, the scratch its components ask for there
// is listed in its ScratchPieces, so a plan knows its work size (cufftGetSize's) either way;
// the components themselves call allocate_scratch (or list_scratch for a region they bind
// placeholders to). Components that run one after another
// (an N-D plan's axis passes) each ask for theirs within a ScratchStep, and the pieces of
// different steps are laid over the same bytes.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "gpu/runtime.hpp"

namespace ripple::gpu {

/// Each piece of a work area starts at a multiple of this many bytes: above any OpenCL
/// device's CL_DEVICE_MEM_BASE_ADDR_ALIGN (sub-buffers' origins), and a GPU's cache line.
inline constexpr std::size_t kScratchAlignment = 4096;

/// The scratch of one plan, in the order asked for.
struct ScratchPieces {
  struct Piece {
    Memory* memory;    ///< owned by the plan's components
    std::size_t step;  ///< 0: in use through the whole run; else only while that step runs
  };
  bool deferred = false;  ///< placeholders, bound by bind()
  std::vector<Piece> pieces;
  std::size_t steps = 0;  ///< the steps opened (ScratchStep) while collecting

  /// The bytes of a work area holding every piece at its aligned offset: the whole run's
  /// pieces one after another, then the largest step's, each step's pieces from the same byte.
  std::size_t bytes() const;
  /// Points each placeholder at its piece of `area`, which holds at least bytes() (deferred only).
  void bind(const Memory& area) const;
};

/// Lists in `pieces` the scratch asked for on this thread while it lives (one at a time).
class CollectScratch {
 public:
  explicit CollectScratch(ScratchPieces& pieces);
  ~CollectScratch();
  CollectScratch(const CollectScratch&) = delete;
  CollectScratch& operator=(const CollectScratch&) = delete;

 private:
  ScratchPieces* previous_;
  std::size_t previous_step_;
};

/// While one lives, the scratch asked for on this thread is in use only while one step of the
/// run does (a component that runs after the others of its plan have finished, on the same
/// in-order stream), so the collecting plan may lay it over other steps' scratch. One inside
/// another belongs to the outer step.
class ScratchStep {
 public:
  ScratchStep();
  ~ScratchStep();
  ScratchStep(const ScratchStep&) = delete;
  ScratchStep& operator=(const ScratchStep&) = delete;

 private:
  std::size_t previous_;
};

/// Whether scratch asked for on this thread now would be a placeholder: a plan collecting it
/// defers it to a work area of the caller's.
bool scratch_deferred();

/// `bytes` of scratch for a component on `context`: allocated (Context::allocate), or a
/// placeholder where the collecting plan defers its scratch; listed where one collects.
std::unique_ptr<Memory> allocate_scratch(Context& context, std::size_t bytes);

/// Lists `memory`, scratch a component allocated itself (a region it bound placeholders to),
/// where a plan collects, as in use through the whole run.
void list_scratch(Memory& memory);

}  // namespace ripple::gpu
