// A section cascade prepared for execution: coefficients in the working precision, the
// stability verdict, and the scan tables (free-response rows and block transition matrices,
// in double) that let blocks filtered from a zero state be corrected. Backend-free: the CPU
// executor uses it now, a GPU executor the same tables later.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "iir/state_space.hpp"
#include "ripple/iir/sos.hpp"

namespace ripple::iir::detail {

/// Powers M^n of a cascade's transition for the few lengths that keep recurring (the ranges
/// of a line split over threads, a partial fused block, a stream's chunks, sosfiltfilt's
/// pieces), each computed once: one power of order 8 in long double costs 30-70 us, several per
/// call on the path of a 2-thread sosfilt of a few milliseconds. Shared by the threads of a call
/// and by the calls that share the plan.
class CascadePowers {
 public:
  std::shared_ptr<const std::vector<Real>> get(const CascadeSystem& cascade, std::size_t n);

 private:
  static constexpr std::size_t kHeld = 8;  // the most recently used lengths
  std::mutex mutex_;
  std::vector<std::pair<std::size_t, std::shared_ptr<const std::vector<Real>>>> held_;  // oldest first
};

template <class T>
struct SosPlan {
  std::size_t sections = 0;
  std::vector<T> coef;          ///< b0 b1 b2 a1 a2 per section, in T (what the recurrence uses)
  std::vector<Biquad> biquads;  ///< the same values in double
  bool stable = false;          ///< every section's poles inside the unit circle
  // Scan tables, present when stable and lines are long enough (see make_sos_plan):
  std::size_t block_rows = 0;          ///< L (0: no scan tables, every line runs serially)
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
  CascadeSystem cascade;               ///< the whole cascade, for carries over thread ranges (with the tables)
  // Tables of the fused time scan (present when scan_fused): lanes run the whole cascade from
  // a zero state straight between the signal and the output, then each lane's output gets the
  // cascade's free response from its true start state, one rank-2K update instead of a
  // correction per section.
  bool scan_fused = false;
  std::size_t fused_rows = 0;            ///< samples per lane of a fused block, L_f
  std::vector<Real> fused_transition;    ///< M^(L_f), 2K x 2K row-major
  std::size_t fused_correct_rows = 0;    ///< rows of the cascade's free response worth adding
  std::size_t fused_free_stride = 0;     ///< distance between the rows of fused_free_rows (>= fused_correct_rows)
  /// Output of the zero-input cascade at t from unit state e_k: [k * fused_free_stride + t].
  std::vector<T> fused_free_rows;
  /// M^n of the cascade, kept for recurring n (copies of the plan share them).
  std::shared_ptr<CascadePowers> powers = std::make_shared<CascadePowers>();

  std::shared_ptr<const std::vector<Real>> cascade_power(std::size_t n) const { return powers->get(cascade, n); }

  const T* section_coef(std::size_t s) const { return coef.data() + 5 * s; }
  const T* section_free_rows(std::size_t s) const { return free_rows.data() + 2 * block_rows * s; }
  const double* section_coef_wide(std::size_t s) const { return coef_wide.data() + 5 * s; }
  const double* section_free_rows_wide(std::size_t s) const { return free_rows_wide.data() + 2 * block_rows * s; }
};

/// Which scan tables a plan builds: all, or only the per-section ones (a GPU plan, whose
/// executor scans section by section).
enum class ScanTables { all, per_section };

/// A line length no plan has to bound.
inline constexpr std::size_t kAnyLength = static_cast<std::size_t>(-1);

/// Prepares sections (already validated: a0 == 1) for filtering in precision T. longest_line
/// bounds the lines the plan will filter (kAnyLength: any, as a stream): the scan tables cost
/// time in proportion to their block length (0.1-0.15 ms for 4 sections, more than filtering
/// a few thousand samples), so a plan only builds those its lines are long enough to repay.
template <class T, class S>
SosPlan<T> make_sos_plan(const BasicSos<S>& sos, std::size_t longest_line = kAnyLength,
                         ScanTables tables = ScanTables::all);

}  // namespace ripple::iir::detail
