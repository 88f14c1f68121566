// PNG plots drawn with cairo: a line plot with axes (the psd), and an image with axes and a
// colour bar (the spectrogram). Files are written beside the target and renamed into place.
#pragma once

#include <string>
#include <vector>

namespace ripple::cli {

struct PlotAxis {
  std::string label;
  double min = 0, max = 1;
};

struct LinePlot {
  std::string title;
  PlotAxis x, y;
  std::vector<double> xs;
  std::vector<std::vector<double>> ys;  ///< one line per entry
  std::vector<std::string> names;       ///< legend (empty: none)
};
void write_line_plot(const std::string& path, const LinePlot& plot);

struct ImagePlot {
  std::string title;
  PlotAxis x, y;              ///< x: columns (time), y: rows (frequency, row 0 at y.min)
  std::string colour_label;   ///< "dB"
  double vmin = 0, vmax = 1;  ///< colour range of the values
  std::size_t columns = 0, rows = 0;
  std::vector<float> values;  ///< rows x columns, row-major, row 0 = y.min
};
void write_image_plot(const std::string& path, const ImagePlot& plot);

/// viridis colour map (0..1 -> r, g, b in 0..1).
void viridis(double t, double& r, double& g, double& b);

/// Tick positions at 1, 2 or 5 times a power of ten covering [lo, hi], about `count` of them.
std::vector<double> nice_ticks(double lo, double hi, int count);

}  // namespace ripple::cli
