// The processing steps (see steps.hpp).
#include "steps.hpp"

#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>

#include "commands.hpp"
#include "ripple/error.hpp"
#include "ripple/fir.hpp"
#include "ripple/iir/design.hpp"
#include "ripple/io/npy.hpp"
#include "ripple/multirate.hpp"
#include "units.hpp"

namespace ripple::cli {
namespace {

double require_rate(const io::StreamInfo& in, const std::string& who) {
  if (!in.sample_rate)
    throw UsageError(who + ": the input has no sample rate; give it with --rate (e.g. --rate 2.4M)");
  return *in.sample_rate;
}

void scale_frames(io::StreamInfo& info, std::size_t up, std::size_t down) {
  if (info.sample_rate) info.sample_rate = *info.sample_rate * double(up) / double(down);
  if (info.frames) info.frames = (*info.frames * up + down - 1) / down;
}

class ResampleStep final : public StepOf<ResampleStep> {
 public:
  explicit ResampleStep(const ResampleParams& p) : p_(p) {}
  io::StreamInfo plan(const io::StreamInfo& in) override {
    io::StreamInfo out = in;
    if (p_.to_rate) {
      const double fs = require_rate(in, "resample");
      if (!(*p_.to_rate > 0)) throw UsageError("resample: --to must be a positive rate");
      if (fs != std::round(fs) || *p_.to_rate != std::round(*p_.to_rate))
        throw UsageError("resample: --to needs whole rates in Hz; give UP DOWN instead");
      const auto a = static_cast<std::uint64_t>(*p_.to_rate), b = static_cast<std::uint64_t>(fs);
      const std::uint64_t g = std::gcd(a, b);
      up_ = a / g;
      down_ = b / g;
      if (std::max(up_, down_) > 100000)
        throw UsageError("resample: " + format_frequency(fs) + " to " + format_frequency(*p_.to_rate) + " is " +
                         std::to_string(up_) + "/" + std::to_string(down_) + ", too fine a ratio for a polyphase filter");
    } else {
      const std::size_t g = std::gcd(p_.up, p_.down);
      up_ = p_.up / g;
      down_ = p_.down / g;
    }
    scale_frames(out, up_, down_);
    return out;
  }
  template <class T>
  void add(pipeline::Pipeline<T>& p) {
    if (up_ != down_) p.add(pipeline::resample<T>(up_, down_));
  }

 private:
  ResampleParams p_;
  std::size_t up_ = 1, down_ = 1;
};

class DecimateStep final : public StepOf<DecimateStep> {
 public:
  explicit DecimateStep(const DecimateParams& p) : p_(p) {
    if (p.method != "auto" && p.method != "cic" && p.method != "fir")
      throw UsageError("decimate: --method must be auto, cic or fir, not '" + p.method + "'");
    if (p.cic_stages < 1 || p.cic_stages > 8) throw UsageError("decimate: --cic-stages must be 1 to 8");
  }
  io::StreamInfo plan(const io::StreamInfo& in) override {
    io::StreamInfo out = in;
    const std::size_t r = p_.ratio;
    // CIC for large ratios: the CIC decimates by r / r_fir, the compensation FIR by r_fir (the
    // smallest factor of r from 2 up that leaves the CIC at least 4).
    r_fir_ = 0;
    if (p_.method != "fir" && r >= 4) {
      for (std::size_t f = 2; f <= 8 && f * 4 <= r; ++f)
        if (r % f == 0) {
          r_fir_ = f;
          break;
        }
      if (r_fir_ == 0 && p_.method == "cic" && r >= 4) r_fir_ = 1;  // CIC alone, compensator at its rate
    }
    use_cic_ = r_fir_ > 0 && (p_.method == "cic" || r >= 16);
    if (p_.method == "cic" && !use_cic_) throw UsageError("decimate: --method cic needs a ratio of at least 4");
    if (use_cic_) {
      const std::size_t r_cic = r / r_fir_;
      // Hogenauer's growth ceil(N log2 R) leaves 64 - growth bits for the input.
      unsigned growth = 64;
      try {
        if (r_cic < (std::size_t{1} << 32))
          growth = multirate::cic_register_bits({p_.cic_stages, static_cast<unsigned>(r_cic), 1, 1}) - 1;
      } catch (const InvalidArgument&) {  // wider than 64 bits: refused below
      }
      const int bits = std::min(32, 64 - int(growth));
      if (bits < 8)
        throw UsageError("decimate: a " + std::to_string(p_.cic_stages) + "-stage CIC by " + std::to_string(r_cic) +
                         " grows past 64-bit registers; decimate in two steps (decimate A ! decimate B)");
      spec_ = {p_.cic_stages, static_cast<unsigned>(r_cic), 1, static_cast<unsigned>(bits)};
      scale_ = std::ldexp(1.0, std::min(23, bits - 1));
      // Compensation FIR at the CIC's output rate: flat (1/|H_cic|) to 80% of the final band,
      // and decimating by r_fir; about 50 r_fir taps reach ~80 dB with a Kaiser window.
      const std::size_t taps = 50 * std::max<std::size_t>(r_fir_, 2) + 1;
      comp_ = multirate::cic_compensator(spec_, taps, 0.9 / double(std::max<std::size_t>(r_fir_, 1)));
    }
    scale_frames(out, 1, r);
    return out;
  }
  template <class T>
  void add(pipeline::Pipeline<T>& p) {
    if (!use_cic_) {
      if (p_.ratio > 1) p.add(pipeline::resample<T>(1, p_.ratio));
      return;
    }
    // Samples scaled to integers (exact for 8- and 16-bit sources, k / 2^15 or k / 2^7 steps;
    // rounded to 2^-23 steps otherwise), decimated exactly, scaled back to unit DC gain; the
    // compensator's tail dropped, so the output has n / R samples as csdr's.
    p.add(pipeline::cic_decimator<T>(spec_, {.scale = scale_, .round = true}));
    p.add(pipeline::without_tail<T>(pipeline::upfirdn<T>(comp_, 1, std::max<std::size_t>(r_fir_, 1))));
  }

 private:
  DecimateParams p_;
  std::size_t r_fir_ = 0;
  bool use_cic_ = false;
  multirate::CicSpec spec_{};
  double scale_ = 1;
  std::vector<double> comp_;
};

iir::BandType band_type(const std::string& type) {
  if (type == "lowpass") return iir::BandType::lowpass;
  if (type == "highpass") return iir::BandType::highpass;
  if (type == "bandpass") return iir::BandType::bandpass;
  return iir::BandType::bandstop;
}

iir::Sos read_sos_file(const std::string& path) {
  std::vector<double> flat;
  if (path.ends_with(".npy")) {
    const io::NpyArray a = io::read_npy(path);
    if (a.shape.size() != 2 || a.shape[1] != 6)
      throw UsageError("filter: --sos " + path + " must be an (n, 6) array, not " + io::shape_string(a.shape));
    if (a.dtype() == io::Dtype::f64) {
      const auto v = a.values<double>();
      flat.assign(v.begin(), v.end());
    } else if (a.dtype() == io::Dtype::f32) {
      const auto v = a.values<float>();
      flat.assign(v.begin(), v.end());
    } else {
      throw UsageError("filter: --sos " + path + " must hold real coefficients");
    }
  } else {
    std::ifstream in(path);
    if (!in) throw IoError("cannot open '" + path + "'");
    std::string line;
    std::size_t row = 0;
    while (std::getline(in, line)) {
      ++row;
      if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
      for (char& c : line)
        if (c == ',' || c == ';' || c == '[' || c == ']') c = ' ';
      std::istringstream fields(line);
      std::vector<double> values;
      std::string word;
      while (fields >> word) {
        try {
          std::size_t used = 0;
          values.push_back(std::stod(word, &used));
          if (used != word.size()) throw std::invalid_argument(word);
        } catch (const std::exception&) {
          throw IoError("'" + path + "' line " + std::to_string(row) + ": '" + word + "' is not a number");
        }
      }
      if (values.empty()) continue;
      if (values.size() != 6)
        throw IoError("'" + path + "' line " + std::to_string(row) + ": a section is 6 numbers [b0 b1 b2 a0 a1 a2], not " +
                      std::to_string(values.size()));
      flat.insert(flat.end(), values.begin(), values.end());
    }
  }
  if (flat.empty()) throw IoError("'" + path + "' holds no sections");
  for (double v : flat)
    if (!std::isfinite(v)) throw IoError("'" + path + "' holds a coefficient that is not finite");
  return iir::Sos::from_flat(flat);
}

class FilterStep final : public StepOf<FilterStep> {
 public:
  explicit FilterStep(const FilterParams& p) : p_(p) {
    if (!p.sos_file.empty()) {
      sos_ = read_sos_file(p.sos_file);
      for (std::size_t i = 0; i < sos_.size(); ++i)
        if (sos_[i][3] != 1.0)
          throw UsageError("filter: section " + std::to_string(i) + " of " + p.sos_file + " has a0 = " +
                           std::to_string(sos_[i][3]) + "; sections must be normalized to a0 = 1");
      return;
    }
    if (p.design != "butter" && p.design != "cheby1" && p.design != "cheby2" && p.design != "fir")
      throw UsageError("filter: --design must be butter, cheby1, cheby2 or fir, not '" + p.design + "'");
  }
  io::StreamInfo plan(const io::StreamInfo& in) override {
    if (!p_.sos_file.empty()) return in;
    const double fs = require_rate(in, "filter");
    for (double f : p_.cutoffs) {
      if (!(f > 0))
        throw UsageError("filter: cutoff " + format_frequency(f) + " must be above 0 Hz");
      if (f >= fs / 2)
        throw UsageError("filter: cutoff " + format_frequency(f) + " is at or above the Nyquist frequency " +
                         format_frequency(fs / 2) + " of the " + format_frequency(fs) + " stream");
    }
    if (p_.cutoffs.size() == 2 && !(p_.cutoffs[0] < p_.cutoffs[1]))
      throw UsageError("filter: the band's low edge must be below its high edge");
    if (p_.design == "fir") {
      fir::FirwinOptions o;
      o.window = windows::Window::parse(p_.window);
      o.fs = fs;
      o.pass_zero = p_.type == "lowpass"    ? fir::PassZero::lowpass
                    : p_.type == "highpass" ? fir::PassZero::highpass
                    : p_.type == "bandpass" ? fir::PassZero::bandpass
                                            : fir::PassZero::bandstop;
      taps_ = fir::firwin(p_.taps, p_.cutoffs, o);
    } else {
      const iir::Cutoff wn(std::span<const double>(p_.cutoffs));
      const iir::BandType bt = band_type(p_.type);
      sos_ = p_.design == "butter"   ? iir::butter(p_.order, wn, bt, fs)
             : p_.design == "cheby1" ? iir::cheby1(p_.order, p_.rp, wn, bt, fs)
                                     : iir::cheby2(p_.order, p_.rs, wn, bt, fs);
    }
    return in;
  }
  template <class T>
  void add(pipeline::Pipeline<T>& p) {
    if (!taps_.empty())
      p.add(pipeline::fir<T>(taps_));
    else
      p.add(pipeline::iir<T>(sos_));
  }

 private:
  FilterParams p_;
  iir::Sos sos_;
  std::vector<double> taps_;
};

class ShiftStep final : public StepOf<ShiftStep> {
 public:
  explicit ShiftStep(double frequency) : frequency_(frequency) {}
  bool needs_complex() const override { return true; }
  io::StreamInfo plan(const io::StreamInfo& in) override {
    fs_ = require_rate(in, "shift");
    if (std::abs(frequency_) > fs_ / 2)
      throw UsageError("shift: " + format_frequency(frequency_) + " is beyond the Nyquist frequency +-" +
                       format_frequency(fs_ / 2) + " of the " + format_frequency(fs_) + " stream");
    io::StreamInfo out = in;
    out.is_complex = true;
    // A signal at RF frequency F sits at F - fc in the baseband; after the shift at
    // F - fc + frequency, i.e. the new centre frequency is fc - frequency.
    if (out.center_frequency) out.center_frequency = *out.center_frequency - frequency_;
    return out;
  }
  template <class T>
  void add(pipeline::Pipeline<T>& p) {
    p.add(pipeline::shift<T>(frequency_, fs_));
  }

 private:
  double frequency_;
  double fs_ = 0;
};

class RealPartStep final : public StepOf<RealPartStep> {
 public:
  bool makes_real() const override { return true; }
  io::StreamInfo plan(const io::StreamInfo& in) override {
    io::StreamInfo out = in;
    out.is_complex = false;
    if (out.source_format) out.source_format = std::nullopt;
    return out;
  }
  template <class T>
  void add(pipeline::Pipeline<T>&) {}
};

}  // namespace

std::unique_ptr<Step> make_decimate(const DecimateParams& p) { return std::make_unique<DecimateStep>(p); }
std::unique_ptr<Step> make_resample(const ResampleParams& p) { return std::make_unique<ResampleStep>(p); }
std::unique_ptr<Step> make_filter(const FilterParams& p) { return std::make_unique<FilterStep>(p); }
std::unique_ptr<Step> make_shift(double frequency) { return std::make_unique<ShiftStep>(frequency); }
std::unique_ptr<Step> make_real_part() { return std::make_unique<RealPartStep>(); }

}  // namespace ripple::cli
