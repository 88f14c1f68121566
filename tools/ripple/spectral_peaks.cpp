// Peak search in amplitude spectra for `ripple demo`.
#include "spectral_peaks.hpp"

#include <algorithm>
#include <cmath>

namespace ripple::cli {

std::vector<double> amplitude_db(std::span<const std::complex<float>> spectrum, double window_sum) {
  constexpr double kFloorDb = -400;
  std::vector<double> levels(spectrum.size());
  for (std::size_t k = 0; k < spectrum.size(); ++k) {
    const double amplitude = 2 * std::abs(std::complex<double>(spectrum[k])) / window_sum;
    levels[k] = amplitude > 0 ? std::max(kFloorDb, 20 * std::log10(amplitude)) : kFloorDb;
  }
  return levels;
}

double median_db(std::span<const double> levels) {
  if (levels.empty()) return 0;
  std::vector<double> copy(levels.begin(), levels.end());
  const auto middle = copy.begin() + static_cast<std::ptrdiff_t>(copy.size() / 2);
  std::nth_element(copy.begin(), middle, copy.end());
  return *middle;
}

Vertex parabolic_vertex(double left, double centre, double right) {
  const double curvature = left - 2 * centre + right;
  if (curvature >= 0) return {0, centre};  // flat or not a maximum: keep the sample
  const double offset = std::clamp(0.5 * (left - right) / curvature, -0.5, 0.5);
  return {offset, centre - 0.25 * (left - right) * offset};
}

std::vector<Peak> find_peaks(std::span<const double> levels, double threshold_db, std::size_t half_width) {
  std::vector<Peak> peaks;
  for (std::size_t k = 1; k + 1 < levels.size(); ++k) {
    if (levels[k] <= threshold_db) continue;
    const std::size_t lo = k > half_width ? k - half_width : 0;
    const std::size_t hi = std::min(levels.size() - 1, k + half_width);
    bool is_max = true;
    for (std::size_t j = lo; j <= hi && is_max; ++j)
      is_max = j == k || levels[j] < levels[k] || (levels[j] == levels[k] && j > k);
    if (!is_max) continue;
    const Vertex v = parabolic_vertex(levels[k - 1], levels[k], levels[k + 1]);
    peaks.push_back({static_cast<double>(k) + v.offset, v.value});
  }
  return peaks;
}

}  // namespace ripple::cli
