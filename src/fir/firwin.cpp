// firwin and the Kaiser formulas, as scipy.signal computes them: the windowed sum of sinc
// pass bands, scaled to unit gain at the centre of the first pass band.
#include <cmath>
#include <numbers>
#include <string>

#include "ripple/error.hpp"
#include "ripple/fir.hpp"

namespace ripple::fir {
namespace {

// numpy.sinc: sin(pi x) / (pi x), computed at 1e-20 instead of 0 as numpy does.
double sinc(double x) {
  const double y = std::numbers::pi * (x == 0.0 ? 1.0e-20 : x);
  return std::sin(y) / y;
}

std::string number(double v) {
  std::string s = std::to_string(v);
  return s;
}

}  // namespace

double kaiser_beta(double a) {
  if (a > 50) return 0.1102 * (a - 8.7);
  if (a > 21) return 0.5842 * std::pow(a - 21, 0.4) + 0.07886 * (a - 21);
  return 0.0;
}

double kaiser_atten(std::size_t numtaps, double width) {
  return 2.285 * (double(numtaps) - 1) * std::numbers::pi * width + 7.95;
}

KaiserOrder kaiserord(double ripple, double width) {
  const double a = std::abs(ripple);
  if (!std::isfinite(a) || a < 8) {
    throw InvalidArgument("kaiserord: requested maximum ripple attenuation " + number(a) +
                          " dB is too small for the Kaiser formula (it must be at least 8)");
  }
  if (!std::isfinite(width) || width <= 0) {
    throw InvalidArgument("kaiserord: width must be > 0 (normalized to Nyquist), got " + number(width));
  }
  const double taps = (a - 7.95) / 2.285 / (std::numbers::pi * width) + 1;
  return {static_cast<std::size_t>(std::ceil(taps)), kaiser_beta(a)};
}

std::vector<double> firwin(std::size_t numtaps, std::span<const double> cutoff_in, const FirwinOptions& options) {
  if (numtaps == 0) throw InvalidArgument("firwin: numtaps must be at least 1, got 0");
  const double fs = options.fs.value_or(2.0);
  if (!std::isfinite(fs) || fs <= 0) throw InvalidArgument("firwin: fs must be a positive number, got " + number(fs));
  const double nyq = 0.5 * fs;
  if (cutoff_in.empty()) throw InvalidArgument("firwin: at least one cutoff frequency must be given");
  std::vector<double> cutoff;
  for (double c : cutoff_in) {
    const double f = c / nyq;
    if (!(f > 0 && f < 1)) {
      throw InvalidArgument("firwin: invalid cutoff frequency " + number(c) +
                            ": frequencies must be greater than 0 and less than fs/2 (" + number(nyq) + ")");
    }
    if (!cutoff.empty() && f <= cutoff.back()) {
      throw InvalidArgument("firwin: invalid cutoff frequencies: they must be strictly increasing (" + number(c) +
                            " follows a larger or equal one)");
    }
    cutoff.push_back(f);
  }
  windows::Window window = options.window;
  if (options.width) {
    const double width = *options.width;
    if (!std::isfinite(width) || width <= 0) throw InvalidArgument("firwin: width must be > 0, got " + number(width));
    window = {windows::Kind::kaiser, kaiser_beta(kaiser_atten(numtaps, width / nyq))};
  }
  bool pass_zero = true;
  switch (options.pass_zero) {
    case PassZero::yes: pass_zero = true; break;
    case PassZero::no: pass_zero = false; break;
    case PassZero::lowpass:
    case PassZero::highpass:
      if (cutoff.size() != 1) {
        throw InvalidArgument("firwin: cutoff must have one element for a lowpass or highpass filter, got " +
                              std::to_string(cutoff.size()));
      }
      pass_zero = options.pass_zero == PassZero::lowpass;
      break;
    case PassZero::bandpass:
    case PassZero::bandstop:
      if (cutoff.size() < 2) {
        throw InvalidArgument("firwin: cutoff must have at least two elements for a bandpass or bandstop filter, got " +
                              std::to_string(cutoff.size()));
      }
      pass_zero = options.pass_zero == PassZero::bandstop;
      break;
  }
  const bool pass_nyquist = (cutoff.size() % 2 == 0) == pass_zero;
  if (pass_nyquist && numtaps % 2 == 0) {
    throw InvalidArgument("firwin: a filter with an even number of coefficients (numtaps = " + std::to_string(numtaps) +
                          ") must have zero response at the Nyquist frequency");
  }
  // Band edges in pairs, each pair a pass band.
  std::vector<double> edges;
  if (pass_zero) edges.push_back(0.0);
  edges.insert(edges.end(), cutoff.begin(), cutoff.end());
  if (pass_nyquist) edges.push_back(1.0);

  const double alpha = 0.5 * (double(numtaps) - 1);
  std::vector<double> m(numtaps), h(numtaps, 0.0);
  for (std::size_t i = 0; i < numtaps; ++i) m[i] = double(i) - alpha;
  // m is antisymmetric (m[numtaps - 1 - i] = -m[i] exactly) and sinc even, so the second half
  // of the sum is a copy of the first: half the sines.
  const std::size_t half = (numtaps + 1) / 2;
  for (std::size_t b = 0; b + 1 < edges.size(); b += 2) {
    const double left = edges[b], right = edges[b + 1];
    for (std::size_t i = 0; i < half; ++i) {
      h[i] += right * sinc(right * m[i]);
      h[i] -= left * sinc(left * m[i]);
    }
  }
  for (std::size_t i = half; i < numtaps; ++i) h[i] = h[numtaps - 1 - i];
  const std::vector<double> win = windows::get_window(window, numtaps, /*fftbins=*/false);
  for (std::size_t i = 0; i < numtaps; ++i) h[i] *= win[i];
  if (options.scale) {
    const double left = edges[0], right = edges[1];
    const double frequency = left == 0.0 ? 0.0 : right == 1.0 ? 1.0 : 0.5 * (left + right);
    double s = 0.0;
    for (std::size_t i = 0; i < numtaps; ++i) s += h[i] * std::cos(std::numbers::pi * m[i] * frequency);
    for (double& v : h) v /= s;
  }
  return h;
}

}  // namespace ripple::fir
