// How the FFT benchmark reports: one table row per case as it finishes, a summary checked
// against the project's speed and accuracy targets, and machine-readable CSV / JSON.
#pragma once

#include <iosfwd>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "fft_cases.hpp"
#include "timing.hpp"

namespace ripple_bench {

/// Everything measured for one case.
struct Result {
  Case c;
  Timing ripple;  // invalid if ripple threw (then ripple_error says why)
  Timing fftw;
  double ripple_err = std::numeric_limits<double>::quiet_NaN();  // relative L2 vs reference
  double fftw_err = std::numeric_limits<double>::quiet_NaN();
  double ripple_plan_s = std::numeric_limits<double>::quiet_NaN();
  double fftw_plan_s = std::numeric_limits<double>::quiet_NaN();
  std::string ripple_algo;   // Plan::describe()
  std::string ripple_error;  // what ripple threw, or what the harness found wrong
  std::string fftw_error;

  bool both_timed() const { return ripple.valid() && fftw.valid(); }
  double ratio() const { return ripple.median / fftw.median; }  // ripple / FFTW: < 1 is faster
  /// True if ripple's result is far off (a bug, not rounding): see wrong_result_tolerance.
  bool ripple_wrong() const;
};

/// Relative L2 error above which a result counts as wrong rather than inaccurate.
double wrong_result_tolerance(Transform t);

/// The project's targets, stated on the default single-threaded list.
struct Targets {
  double geomean_ratio = 1.3;    // geometric mean of ripple/FFTW over the table
  double worst_ratio = 2.5;      // no case slower than this
  double f32_error_ratio = 1.2;  // ripple's float error at most this times FFTW's
  double nd_ratio = 1.2;         // every 2-D/3-D case: ripple/FFTW at most this
};

void print_table_header(std::ostream& os);
void print_row(std::ostream& os, const Result& r);
/// Summary lines: geomeans (all, per category, per kind), worst case, and each target PASS/FAIL.
void print_summary(std::ostream& os, const std::vector<Result>& results, const Targets& targets);

/// Run facts written at the top of the JSON (and as comments in the text output).
using Meta = std::vector<std::pair<std::string, std::string>>;

void write_csv(const std::string& file, const std::vector<Result>& results);
void write_json(const std::string& file, const Meta& meta, const std::vector<Result>& results,
                const Targets& targets);

}  // namespace ripple_bench
