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
  // Scan tables, present when stable:
  std::size_t block_rows = 0;          ///< L
  std::vector<T> free_rows;            ///< per section, rows of C A^t (t < L) as pairs: L*2 values
  std::vector<double> free_rows_wide;  ///< the same in double, for sections scanned in double
  std::vector<Mat2> block_transition;  ///< per section, A^L
  /// Per section, rows of its free response worth adding: beyond them |C A^t|_1 stays below
  /// tuning::kFreeResponseNegligible of the working precision's epsilon, so the correction of
  /// a block's output by C A^t sigma cannot change it by more than that fraction of |sigma|.
  std::vector<std::size_t> correct_rows;
  /// Per section: scan its blocks in double even for float data. A float block filtered from a
  /// zero state carries a transient up to transient_gain() times the true state; its rounding
  /// enters the block's end state and, through the carries, every later block, which for
  /// lightly damped sections on short signals costs more than the serial recurrence loses.
  std::vector<bool> scan_wide;
  std::vector<double> coef_wide;  ///< coef in double
  CascadeSystem cascade;               ///< the whole cascade, for carries over thread ranges

  const T* section_coef(std::size_t s) const { return coef.data() + 5 * s; }
  const T* section_free_rows(std::size_t s) const { return free_rows.data() + 2 * block_rows * s; }
  const double* section_coef_wide(std::size_t s) const { return coef_wide.data() + 5 * s; }
  const double* section_free_rows_wide(std::size_t s) const { return free_rows_wide.data() + 2 * block_rows * s; }
};

/// Prepares sections (already validated: a0 == 1) for filtering in precision T.
template <class T, class S>
SosPlan<T> make_sos_plan(const BasicSos<S>& sos);

}  // namespace ripple::iir::detail
