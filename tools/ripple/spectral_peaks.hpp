// Finding tones in a one-sided amplitude spectrum: levels in dB, a robust noise floor, and
// local maxima above a threshold refined by parabolic interpolation.
#pragma once

#include <complex>
#include <cstddef>
#include <span>
#include <vector>

namespace ripple::cli {

/// Level in dB of the sine amplitude each bin of an r2c spectrum X (of N = 2 (X.size()-1)
/// or 2 X.size() - 1 samples) stands for: 20 log10(2 |X[k]| / window_sum). A sine of amplitude
/// A centred on bin k reads 20 log10(A) there. Zero magnitudes give -400 dB, not -inf.
std::vector<double> amplitude_db(std::span<const std::complex<float>> spectrum, double window_sum);

/// Median of `levels` (dB): a noise-floor estimate that the few bins of tones do not move.
double median_db(std::span<const double> levels);

/// Vertex of the parabola through (-1, left), (0, centre), (1, right), where centre is the
/// largest of the three: its abscissa in [-0.5, 0.5] and its value.
struct Vertex {
  double offset = 0;
  double value = 0;
};
Vertex parabolic_vertex(double left, double centre, double right);

struct Peak {
  double bin = 0;  ///< interpolated position in bins
  double level_db = 0;
};

/// Peaks of `levels`: bins k (not the first or last) above `threshold_db` that are the
/// largest within +-half_width bins, with position and level interpolated by a parabola
/// through k-1, k, k+1. Sorted by position.
std::vector<Peak> find_peaks(std::span<const double> levels, double threshold_db, std::size_t half_width);

}  // namespace ripple::cli
