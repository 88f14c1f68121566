// Which SIMD target the CPU kernels run on, for `ripple info` and plan descriptions.
#pragma once

#include <string>

namespace ripple::cpu {

std::string chosen_target();
std::string compiled_targets();
int complex_lanes_f32();
int complex_lanes_f64();

}  // namespace ripple::cpu
