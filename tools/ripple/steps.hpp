// The processing commands of a chain as Steps: decimate (CIC + compensation FIR for large
// ratios, polyphase FIR otherwise), resample (resample_poly), filter (IIR designs, an SOS file,
// or a firwin FIR), shift (NCO) and convert (real part).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stream_chain.hpp"

namespace ripple::cli {

struct DecimateParams {
  std::size_t ratio = 1;
  std::string method = "auto";  ///< auto, cic, fir
  unsigned cic_stages = 5;
};
std::unique_ptr<Step> make_decimate(const DecimateParams& p);

struct ResampleParams {
  std::size_t up = 0, down = 0;  ///< 0: from to_rate
  std::optional<double> to_rate;
};
std::unique_ptr<Step> make_resample(const ResampleParams& p);

struct FilterParams {
  std::string type;             ///< lowpass, highpass, bandpass, bandstop ("" with an SOS file)
  std::vector<double> cutoffs;  ///< Hz
  std::string design = "butter";
  int order = 4;
  double rp = 1, rs = 60;
  std::size_t taps = 101;
  std::string window = "hamming";
  std::string sos_file;
};
std::unique_ptr<Step> make_filter(const FilterParams& p);

std::unique_ptr<Step> make_shift(double frequency);
/// convert --real: the real part of a complex stream.
std::unique_ptr<Step> make_real_part();

}  // namespace ripple::cli
