// The CIC droop compensator: frequency sampling of 1 / |H_cic| over the passband (firwin2's
// method: a dense grid, a linear-phase shift, an inverse real FFT, a window), unit DC gain.
#include <cmath>
#include <complex>
#include <numbers>
#include <string>

#include "ripple/error.hpp"
#include "ripple/fft.hpp"
#include "ripple/multirate.hpp"

namespace ripple::multirate {

std::vector<double> cic_compensator(const CicSpec& spec, std::size_t numtaps, double cutoff,
                                    const windows::Window& window) {
  (void)cic_register_bits(spec);  // validates the spec
  if (numtaps < 3 || numtaps % 2 == 0) {
    throw InvalidArgument("cic_compensator: numtaps must be odd and at least 3, got " + std::to_string(numtaps));
  }
  if (!(cutoff > 0.0 && cutoff < 1.0)) {
    throw InvalidArgument("cic_compensator: cutoff must be in (0, 1) (normalized to the output Nyquist), got " +
                          std::to_string(cutoff));
  }
  std::size_t half = 512;
  while (half < numtaps) half <<= 1;
  const std::size_t nfft = 2 * half;
  std::vector<std::complex<double>> desired(half + 1);
  for (std::size_t k = 0; k <= half; ++k) {
    const double fo = double(k) / double(half);             // normalized to the output Nyquist
    const double f_in = fo / 2.0 / double(spec.ratio);      // cycles per input sample
    const double gain = fo <= cutoff ? 1.0 / cic_response(spec, f_in) : 0.0;
    const double phase = -(double(numtaps) - 1) / 2.0 * std::numbers::pi * fo;
    desired[k] = std::polar(gain, phase);
  }
  const auto full = fft::irfft(std::span<const std::complex<double>>(desired), nfft);
  const auto w = windows::get_window(window, numtaps, /*fftbins=*/false);
  std::vector<double> h(numtaps);
  double sum = 0.0;
  for (std::size_t i = 0; i < numtaps; ++i) {
    h[i] = full[i] * w[i];
    sum += h[i];
  }
  for (double& v : h) v /= sum;
  return h;
}

}  // namespace ripple::multirate
