// cairo drawing of the psd and spectrogram plots (see plot.hpp).
#include "plot.hpp"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "ripple/error.hpp"
#include "units.hpp"

namespace ripple::cli {
namespace {

constexpr int kWidth = 1200, kHeight = 700;
constexpr double kLeft = 90, kRight = 40, kTop = 50, kBottom = 70;

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using Context = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

// Tick labels share one SI prefix, chosen by the largest tick, with the decimals the step needs.
std::string tick_text(double v, double step, double largest) {
  char text[32];
  const double a = std::abs(largest);
  const char* suffix = "";
  double scale = 1;
  if (a >= 1e9) scale = 1e9, suffix = "G";
  else if (a >= 1e6) scale = 1e6, suffix = "M";
  else if (a >= 1e4) scale = 1e3, suffix = "k";
  const double s = step / scale;
  const int decimals = s >= 1 ? 0 : std::min(6, static_cast<int>(std::ceil(-std::log10(s) - 1e-9)));
  std::snprintf(text, sizeof text, "%.*f%s", decimals, v / scale, suffix);
  return text;
}

double largest_of(const std::vector<double>& ticks) {
  double m = 0;
  for (double t : ticks) m = std::max(m, std::abs(t));
  return m;
}

void text_at(cairo_t* cr, const std::string& text, double x, double y, double align_x, double align_y,
             double angle = 0) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, text.c_str(), &e);
  cairo_save(cr);
  cairo_translate(cr, x, y);
  cairo_rotate(cr, angle);
  cairo_move_to(cr, -e.width * align_x - e.x_bearing, e.height * align_y);
  cairo_show_text(cr, text.c_str());
  cairo_restore(cr);
}

// Frame, ticks, tick labels and axis labels around the plot rectangle.
void draw_axes(cairo_t* cr, const PlotAxis& x, const PlotAxis& y, double x0, double y0, double w, double h,
               const std::string& title) {
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, x0 + 0.5, y0 + 0.5, w, h);
  cairo_stroke(cr);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 13);
  const auto xt = nice_ticks(x.min, x.max, 8);
  const double xstep = xt.size() > 1 ? xt[1] - xt[0] : 1;
  for (double v : xt) {
    const double px = x0 + (v - x.min) / (x.max - x.min) * w;
    cairo_move_to(cr, px, y0 + h);
    cairo_line_to(cr, px, y0 + h + 6);
    cairo_stroke(cr);
    text_at(cr, tick_text(v, xstep, largest_of(xt)), px, y0 + h + 10, 0.5, 1);
  }
  const auto yt = nice_ticks(y.min, y.max, 8);
  const double ystep = yt.size() > 1 ? yt[1] - yt[0] : 1;
  for (double v : yt) {
    const double py = y0 + h - (v - y.min) / (y.max - y.min) * h;
    cairo_move_to(cr, x0, py);
    cairo_line_to(cr, x0 - 6, py);
    cairo_stroke(cr);
    text_at(cr, tick_text(v, ystep, largest_of(yt)), x0 - 10, py, 1, 0.5);
  }
  cairo_set_font_size(cr, 15);
  text_at(cr, x.label, x0 + w / 2, y0 + h + 40, 0.5, 1);
  text_at(cr, y.label, x0 - 70, y0 + h / 2, 0.5, 0, -M_PI / 2);
  cairo_set_font_size(cr, 17);
  text_at(cr, title, x0 + w / 2, y0 - 30, 0.5, 1);
}

void save(cairo_surface_t* surface, const std::string& path) {
  const std::filesystem::path target(path);
  const std::filesystem::path temp =
      target.parent_path() / ("." + target.filename().string() + ".ripple-partial");
  const cairo_status_t status = cairo_surface_write_to_png(surface, temp.c_str());
  if (status != CAIRO_STATUS_SUCCESS) {
    std::filesystem::remove(temp);
    throw IoError("cannot write '" + path + "': " + cairo_status_to_string(status));
  }
  std::error_code ec;
  std::filesystem::rename(temp, target, ec);
  if (ec) {
    std::filesystem::remove(temp);
    throw IoError("cannot write '" + path + "': " + ec.message());
  }
}

std::pair<Surface, Context> canvas() {
  Surface surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, kWidth, kHeight), cairo_surface_destroy);
  Context cr(cairo_create(surface.get()), cairo_destroy);
  cairo_set_source_rgb(cr.get(), 1, 1, 1);
  cairo_paint(cr.get());
  return {std::move(surface), std::move(cr)};
}

}  // namespace

void viridis(double t, double& r, double& g, double& b) {
  // Polynomial fit of matplotlib's viridis (max error about 0.01 per channel).
  t = std::clamp(t, 0.0, 1.0);
  static constexpr double c[7][3] = {{0.2777273272234177, 0.005407344544966578, 0.3340998053353061},
                                     {0.1050930431085774, 1.404613529898575, 1.384590162594685},
                                     {-0.3308618287255563, 0.214847559468213, 0.09509516302823659},
                                     {-4.634230498983486, -5.799100973351585, -19.33244095627987},
                                     {6.228269936347081, 14.17993336680509, 56.69055260068105},
                                     {4.776384997670288, -13.74514537774601, -65.35303263337234},
                                     {-5.435455855934631, 4.645852612178535, 26.3124352495832}};
  double out[3];
  for (int k = 0; k < 3; ++k) {
    double v = c[6][k];
    for (int i = 5; i >= 0; --i) v = v * t + c[i][k];
    out[k] = std::clamp(v, 0.0, 1.0);
  }
  r = out[0], g = out[1], b = out[2];
}

std::vector<double> nice_ticks(double lo, double hi, int count) {
  std::vector<double> ticks;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return ticks;
  const double raw = (hi - lo) / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
    ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
  return ticks;
}

void write_line_plot(const std::string& path, const LinePlot& plot) {
  auto [surface, context] = canvas();
  cairo_t* cr = context.get();
  const double w = kWidth - kLeft - kRight, h = kHeight - kTop - kBottom;
  // Grid, then lines clipped to the plot area, then axes over them.
  cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
  for (double v : nice_ticks(plot.y.min, plot.y.max, 8)) {
    const double py = kTop + h - (v - plot.y.min) / (plot.y.max - plot.y.min) * h;
    cairo_move_to(cr, kLeft, py);
    cairo_line_to(cr, kLeft + w, py);
  }
  cairo_stroke(cr);
  cairo_save(cr);
  cairo_rectangle(cr, kLeft, kTop, w, h);
  cairo_clip(cr);
  static constexpr double kColours[4][3] = {{0.12, 0.47, 0.71}, {1.0, 0.5, 0.05}, {0.17, 0.63, 0.17}, {0.84, 0.15, 0.16}};
  for (std::size_t line = 0; line < plot.ys.size(); ++line) {
    const auto& col = kColours[line % 4];
    cairo_set_source_rgb(cr, col[0], col[1], col[2]);
    cairo_set_line_width(cr, 1.2);
    bool pen = false;
    for (std::size_t i = 0; i < plot.xs.size(); ++i) {
      const double v = plot.ys[line][i];
      if (!std::isfinite(v)) {
        pen = false;
        continue;
      }
      const double px = kLeft + (plot.xs[i] - plot.x.min) / (plot.x.max - plot.x.min) * w;
      const double py = kTop + h - (v - plot.y.min) / (plot.y.max - plot.y.min) * h;
      if (pen)
        cairo_line_to(cr, px, py);
      else
        cairo_move_to(cr, px, py);
      pen = true;
    }
    cairo_stroke(cr);
  }
  cairo_restore(cr);
  draw_axes(cr, plot.x, plot.y, kLeft, kTop, w, h, plot.title);
  if (plot.names.size() > 1) {
    cairo_set_font_size(cr, 13);
    for (std::size_t line = 0; line < plot.names.size(); ++line) {
      const auto& col = kColours[line % 4];
      cairo_set_source_rgb(cr, col[0], col[1], col[2]);
      text_at(cr, plot.names[line], kLeft + w - 10, kTop + 10 + 18 * double(line), 1, 1);
    }
  }
  save(surface.get(), path);
}

void write_image_plot(const std::string& path, const ImagePlot& plot) {
  auto [surface, context] = canvas();
  cairo_t* cr = context.get();
  constexpr double kBar = 110;  // colour bar and its labels on the right
  const double w = kWidth - kLeft - kRight - kBar, h = kHeight - kTop - kBottom;
  // The data as an image, one pixel per value, row 0 at the bottom; scaled into the plot.
  const int cols = static_cast<int>(plot.columns), rows = static_cast<int>(plot.rows);
  Surface image(cairo_image_surface_create(CAIRO_FORMAT_RGB24, cols, rows), cairo_surface_destroy);
  cairo_surface_flush(image.get());
  unsigned char* pixels = cairo_image_surface_get_data(image.get());
  const int stride = cairo_image_surface_get_stride(image.get());
  for (int r = 0; r < rows; ++r) {
    auto* line = reinterpret_cast<std::uint32_t*>(pixels + static_cast<std::ptrdiff_t>(rows - 1 - r) * stride);
    for (int c = 0; c < cols; ++c) {
      const double v = plot.values[static_cast<std::size_t>(r) * plot.columns + static_cast<std::size_t>(c)];
      double red, green, blue;
      viridis(std::isfinite(v) ? (v - plot.vmin) / (plot.vmax - plot.vmin) : 0, red, green, blue);
      line[c] = (std::uint32_t(red * 255 + 0.5) << 16) | (std::uint32_t(green * 255 + 0.5) << 8) |
                std::uint32_t(blue * 255 + 0.5);
    }
  }
  cairo_surface_mark_dirty(image.get());
  cairo_save(cr);
  cairo_rectangle(cr, kLeft, kTop, w, h);
  cairo_clip(cr);
  cairo_translate(cr, kLeft, kTop);
  cairo_scale(cr, w / cols, h / rows);
  cairo_set_source_surface(cr, image.get(), 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
  cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
  cairo_paint(cr);
  cairo_restore(cr);
  draw_axes(cr, plot.x, plot.y, kLeft, kTop, w, h, plot.title);
  // Colour bar.
  const double bx = kLeft + w + 25, bw = 20;
  for (int i = 0; i < static_cast<int>(h); ++i) {
    double red, green, blue;
    viridis(1.0 - i / h, red, green, blue);
    cairo_set_source_rgb(cr, red, green, blue);
    cairo_rectangle(cr, bx, kTop + i, bw, 1);
    cairo_fill(cr);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_rectangle(cr, bx + 0.5, kTop + 0.5, bw, h);
  cairo_stroke(cr);
  cairo_set_font_size(cr, 13);
  const auto ticks = nice_ticks(plot.vmin, plot.vmax, 8);
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1;
  for (double v : ticks) {
    const double py = kTop + h - (v - plot.vmin) / (plot.vmax - plot.vmin) * h;
    cairo_move_to(cr, bx + bw, py);
    cairo_line_to(cr, bx + bw + 5, py);
    cairo_stroke(cr);
    text_at(cr, tick_text(v, step, largest_of(ticks)), bx + bw + 8, py, 0, 0.5);
  }
  cairo_set_font_size(cr, 15);
  text_at(cr, plot.colour_label, bx + bw / 2, kTop - 12, 0.5, 0);
  save(surface.get(), path);
}

}  // namespace ripple::cli
