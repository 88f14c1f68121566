// The CPU executor of section cascades: many channels side by side in SIMD lanes, one long
// channel split in time into blocks that are filtered from a zero state and corrected by the
// scan of block carries, threads over channels or over time.
#pragma once

#include <cstddef>
#include <vector>

#include "iir/sos_plan.hpp"

namespace ripple::cpu {

/// Equal-length real signals ("lines"): sample t of line c is read at in[c] + t * in_stride and
/// written at out[c] + t * out_stride (out may equal in: filtering in place is fine).
template <class T>
struct SosLines {
  std::size_t length = 0;
  std::vector<const T*> in;
  std::vector<T*> out;
  std::ptrdiff_t in_stride = 1;
  std::ptrdiff_t out_stride = 1;
};

/// Filters every line through the cascade. state holds, for each line c and section s, the
/// direct-form-II-transposed state pair at [(c * sections + s) * 2 + i]; it is read as the
/// initial state and overwritten with the final one. Uses up to `threads` threads.
template <class T>
void run_sos_cascade(const iir::detail::SosPlan<T>& plan, const SosLines<T>& lines, T* state, unsigned threads);

}  // namespace ripple::cpu
