// resample_poly's filter, shared by the one-shot and the streaming resampler: firwin(2 * 10 *
// max(up, down) + 1, 1 / max(up, down), window) or the caller's taps, times up, zero-padded in
// front so that its delay is a whole number (`delay`) of outputs, which are dropped.
#pragma once

#include <cstddef>
#include <vector>

#include "ripple/fir.hpp"

namespace ripple::fir::detail {

struct ResampleDesign {
  std::vector<double> h;  // the padded, scaled filter
  std::size_t delay = 0;  // outputs of upfirdn(h, x, up, down) before the first kept one
};

/// up and down reduced by their gcd, not both 1.
ResampleDesign resample_design(std::size_t up, std::size_t down, const ResampleOptions& options);

}  // namespace ripple::fir::detail
