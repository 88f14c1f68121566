// Every kernel variant the library's GPU plans can compile, with a name for test output. The
// NVRTC test compiles each one for sm_90, so a CUDA dialect error in any of them fails CI
// without a GPU; add a plan's variants here when adding the plan.
#pragma once

#include <string>
#include <vector>

#include "gpu/program.hpp"

namespace ripple::gpu {

struct KernelVariant {
  std::string name;  ///< e.g. "scan_affine2_f64_noshuffle"
  ProgramSpec spec;
};

std::vector<KernelVariant> kernel_variants();

}  // namespace ripple::gpu
