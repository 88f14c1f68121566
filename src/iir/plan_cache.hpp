// Plans of the one-shot filters (sosfilt, sosfiltfilt), kept for the next call with the same
// sections, as scipy.fft keeps its last plans: a program filtering block after block with one
// design plans once. Building a plan for long lines costs a free-response table as long as the
// filter rings (butter(8, 0.01) in double: 11458 rows, about 1.4 ms a plan), a tenth of
// filtering 2^24 samples on one thread and all of the serial part of filtering them on two.
#pragma once

#include <cstddef>
#include <memory>

#include "iir/sos_plan.hpp"

namespace ripple::iir::detail {

/// make_sos_plan(sos, longest_line) from the cache of the last few plans, or built and kept
/// there. Plans are immutable, so callers on several threads may share one.
template <class T, class S>
std::shared_ptr<const SosPlan<T>> cached_sos_plan(const BasicSos<S>& sos, std::size_t longest_line);

}  // namespace ripple::iir::detail
