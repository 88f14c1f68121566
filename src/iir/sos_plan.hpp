// A section cascade prepared for execution: coefficients in the working precision, the
// stability verdict, and the scan tables (free-response rows and block transition matrices,
// in double) that let blocks filtered from a zero state be corrected. Backend-free: the CPU
// executor uses it now, a GPU executor the same tables later.
#pragma once

#include <cstddef>
#include <vector>

#include "iir/state_space.hpp"
#include "ripple/iir/sos.hpp"

namespace ripple::iir::detail {

template <class T>
struct SosPlan {
  std::size_t sections = 0;
  std::vector<T> coef;          ///< b0 b1 b2 a1 a2 per section, in T (what the recurrence uses)
  std::vector<Biquad> biquads;  ///< the same values in double
  bool stable = false;          ///< every section's poles inside the unit circle
  // Scan tables, present when stable. The scan filters blocks through the whole cascade from
  // a zero state and corrects them with the cascade's free response from the true start state
  // (its 2K states, section s owning states 2s and 2s + 1).
  std::size_t block_rows = 0;        ///< L
  std::vector<Real> block_map;       ///< M^L of the cascade (2K x 2K, row-major), long double
  std::vector<T> free_rows;          ///< rows c M^t (t < L) of 2K values each, in T
  std::vector<double> free_rows_wide;  ///< the same in double, when `wide`
  /// Rows of the free response worth adding: beyond them every state's |c M^t| entry has
  /// fallen below tuning::kFreeResponseNegligible of the working precision's epsilon times
  /// its peak, so the correction cannot change the result by more than that fraction.
  std::size_t correct_rows = 0;
  /// Per section: its zero-state transient, max over t < L of |C A^t|_1, exceeds
  /// tuning::kFloatScanTransientGainLimit (lightly damped poles near z = 1). A float block
  /// filtered from a zero state then carries rounding from a transient up to that many times
  /// the true state into its end state and, through the carries, every later block, which
  /// for such sections costs more than the serial recurrence loses.
  std::vector<bool> scan_wide;
  /// Float signals whose cascade has any such section are scanned in double (`wide`).
  bool wide = false;
  std::vector<double> coef_wide;  ///< coef in double
  CascadeSystem cascade;          ///< the whole cascade (M, c), for carries over blocks and thread ranges

  const T* section_coef(std::size_t s) const { return coef.data() + 5 * s; }
  std::size_t states() const { return 2 * sections; }
};

/// Prepares sections (already validated: a0 == 1) for filtering in precision T.
template <class T, class S>
SosPlan<T> make_sos_plan(const BasicSos<S>& sos);

}  // namespace ripple::iir::detail
