// Butterworth and Chebyshev designs, scipy.signal.iirfilter's algorithm for digital filters:
// analog prototype, pre-warped band edges (fs = 2: warped = 4 tan(pi Wn / 2)), lowpass to
// lowpass/highpass/bandpass/bandstop, bilinear transform, then zpk2sos with 'nearest' pairing.
#include <cmath>
#include <functional>
#include <numbers>
#include <string>

#include "iir/design/checks.hpp"
#include "ripple/iir/design.hpp"

namespace ripple::iir {

namespace {

bool is_band(BandType btype) { return btype == BandType::bandpass || btype == BandType::bandstop; }

const char* band_name(BandType btype) {
  switch (btype) {
    case BandType::lowpass: return "lowpass";
    case BandType::highpass: return "highpass";
    case BandType::bandpass: return "bandpass";
    case BandType::bandstop: return "bandstop";
  }
  return "?";
}

/// Checks the design arguments and returns Wn normalized to Nyquist (scipy: Wn / (fs / 2)).
std::vector<double> normalized_cutoff(const char* function, int order, const Cutoff& wn, BandType btype,
                                      std::optional<double> fs) {
  design::require_order(function, "order", order);
  if (fs) design::require_positive(function, "fs", *fs);
  const std::span<const double> values = wn.values();
  const std::size_t needed = is_band(btype) ? 2 : 1;
  if (values.size() != needed) {
    design::reject(function,
                   std::string("Wn must have ") + (needed == 2 ? "2 values (band edges)" : "1 value") +
                       " for a " + band_name(btype) + " filter",
                   std::to_string(values.size()) + " values");
  }
  std::vector<double> normalized;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double w = fs ? values[i] / (*fs / 2) : values[i];
    if (!(w > 0 && w < 1)) {
      const std::string name = needed == 2 ? "Wn[" + std::to_string(i) + "]" : "Wn";
      std::string requirement = name + " must be in ";
      requirement += fs ? "(0, fs/2) = (0, " + design::format_number(*fs / 2) + ")" : "(0, 1)";
      design::reject(function, requirement, design::format_number(values[i]));
    }
    normalized.push_back(w);
  }
  if (needed == 2 && !(normalized[0] < normalized[1])) {
    design::reject(function, "Wn[0] must be less than Wn[1]",
                   design::format_number(values[0]) + " >= " + design::format_number(values[1]));
  }
  return normalized;
}

/// iirfilter from the prototype on: pre-warp, band transform, bilinear transform.
Zpk digital_from_prototype(const Zpk& prototype, std::span<const double> wn, BandType btype) {
  constexpr double fs = 2.0;
  std::vector<double> warped;
  for (double w : wn) warped.push_back(2 * fs * std::tan(std::numbers::pi * w / fs));
  Zpk analog;
  switch (btype) {
    case BandType::lowpass: analog = lp2lp_zpk(prototype, warped[0]); break;
    case BandType::highpass: analog = lp2hp_zpk(prototype, warped[0]); break;
    case BandType::bandpass:
    case BandType::bandstop: {
      const double bw = warped[1] - warped[0];
      const double wo = std::sqrt(warped[0] * warped[1]);
      analog = btype == BandType::bandpass ? lp2bp_zpk(prototype, wo, bw) : lp2bs_zpk(prototype, wo, bw);
      break;
    }
  }
  return bilinear_zpk(analog, fs);
}

}  // namespace

Zpk butter_zpk(int order, const Cutoff& wn, BandType btype, std::optional<double> fs) {
  const auto w = normalized_cutoff("butter", order, wn, btype, fs);
  return digital_from_prototype(buttap(order), w, btype);
}

Zpk cheby1_zpk(int order, double rp, const Cutoff& wn, BandType btype, std::optional<double> fs) {
  const auto w = normalized_cutoff("cheby1", order, wn, btype, fs);
  design::require_positive("cheby1", "rp (passband ripple, dB)", rp);
  return digital_from_prototype(cheb1ap(order, rp), w, btype);
}

Zpk cheby2_zpk(int order, double rs, const Cutoff& wn, BandType btype, std::optional<double> fs) {
  const auto w = normalized_cutoff("cheby2", order, wn, btype, fs);
  design::require_positive("cheby2", "rs (stopband attenuation, dB)", rs);
  return digital_from_prototype(cheb2ap(order, rs), w, btype);
}

Sos butter(int order, const Cutoff& wn, BandType btype, std::optional<double> fs) {
  return zpk2sos(butter_zpk(order, wn, btype, fs));
}

Sos cheby1(int order, double rp, const Cutoff& wn, BandType btype, std::optional<double> fs) {
  return zpk2sos(cheby1_zpk(order, rp, wn, btype, fs));
}

Sos cheby2(int order, double rs, const Cutoff& wn, BandType btype, std::optional<double> fs) {
  return zpk2sos(cheby2_zpk(order, rs, wn, btype, fs));
}

}  // namespace ripple::iir
