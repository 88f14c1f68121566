// Pipeline stages made from ripple's streaming building blocks. Each adapter only translates
// between the Stage interface and the block's own streaming API; the state lives in the block.
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>

#include "ripple/error.hpp"
#include "ripple/fir.hpp"
#include "ripple/iir/stream.hpp"
#include "ripple/multirate.hpp"
#include "ripple/pipeline.hpp"

namespace ripple::pipeline {
namespace {

template <Sample T>
class FirStage final : public Stage<T> {
 public:
  explicit FirStage(std::span<const double> h) : filter_(h), taps_(h.size()) {}
  std::string name() const override { return "fir " + std::to_string(taps_) + " taps"; }
  bool in_place() const override { return true; }
  void process_in_place(std::span<T> x) override { filter_.process_interleaved(x, x); }
  void reset() override { filter_.reset(); }

 private:
  fir::Filter<T> filter_;
  std::size_t taps_;
};

template <Sample T>
class IirStage final : public Stage<T> {
 public:
  explicit IirStage(const iir::Sos& sos) : filter_(sos), sections_(sos.size()) {}
  std::string name() const override { return "iir " + std::to_string(sections_) + " sections"; }
  bool in_place() const override { return true; }
  void process_in_place(std::span<T> x) override { filter_.process_interleaved(x, x); }
  void reset() override { filter_.reset(); }

 private:
  iir::Filter<T> filter_;
  std::size_t sections_;
};

template <Sample T>
class UpFirDnStage final : public Stage<T> {
 public:
  UpFirDnStage(std::span<const double> h, std::size_t up, std::size_t down)
      : resampler_(h, up, down), taps_(h.size()), up_(up), down_(down) {}
  std::string name() const override {
    return "upfirdn up " + std::to_string(up_) + " down " + std::to_string(down_) + ", " + std::to_string(taps_) + " taps";
  }
  Rate rate() const override { return {up_, down_}; }
  std::size_t max_output(std::size_t n) const override { return (n * up_ + down_ - 1) / down_ + up_ + 1; }
  void process(std::span<const T> x, std::vector<T>& out) override { resampler_.process(x, out); }
  void flush(std::vector<T>& out) override { resampler_.flush(out); }
  void reset() override { resampler_.reset(); }

 private:
  fir::UpFirDn<T> resampler_;
  std::size_t taps_, up_, down_;
};

template <class T>
class ShiftStage final : public Stage<T> {
 public:
  ShiftStage(double frequency, double fs) : frequency_(frequency), fs_(fs), nco_(frequency, fs) {}
  std::string name() const override { return "shift " + std::to_string(frequency_) + " Hz"; }
  bool in_place() const override { return true; }
  void process_in_place(std::span<T> x) override { nco_.mix(std::span<const T>(x), x); }
  void reset() override { nco_ = multirate::Nco(frequency_, fs_); }

 private:
  double frequency_, fs_;
  multirate::Nco nco_;
};

template <Sample T>
class CicStage final : public Stage<T> {
  using Real = typename ripple::detail::real_of<T>::type;
  static constexpr std::size_t kParts = ripple::detail::is_complex_v<T> ? 2 : 1;

 public:
  explicit CicStage(const multirate::CicSpec& spec)
      : cic_(spec, kParts), spec_(spec), gain_(multirate::cic_gain(spec)),
        limit_(std::ldexp(1.0, int(spec.input_bits) - 1)) {}
  std::string name() const override {
    return "cic " + std::to_string(spec_.stages) + " stages, decimate " + std::to_string(spec_.ratio);
  }
  Rate rate() const override { return {1, spec_.ratio}; }
  std::size_t max_output(std::size_t n) const override { return n / spec_.ratio + 1; }
  void process(std::span<const T> x, std::vector<T>& out) override {
    const Real* parts = reinterpret_cast<const Real*>(x.data());
    integers_.resize(x.size() * kParts);
    for (std::size_t i = 0; i < integers_.size(); ++i) {
      const double v = double(parts[i]);
      if (!(v == std::nearbyint(v) && v >= -limit_ && v < limit_)) {
        throw InvalidArgument("CIC decimator: sample " + std::to_string(v) + " is not an integer of " +
                              std::to_string(spec_.input_bits) + " bits (the CIC is exact on integer samples)");
      }
      integers_[i] = std::int32_t(v);
    }
    exact_.clear();
    cic_.process(std::span<const std::int32_t>(integers_), exact_);
    for (std::size_t i = 0; i < exact_.size(); i += kParts) {
      if constexpr (kParts == 2) {
        out.push_back(T(Real(double(exact_[i]) / gain_), Real(double(exact_[i + 1]) / gain_)));
      } else {
        out.push_back(T(double(exact_[i]) / gain_));
      }
    }
  }
  void reset() override { cic_.reset(); }

 private:
  multirate::CicDecimator<std::int32_t> cic_;
  multirate::CicSpec spec_;
  double gain_, limit_;
  std::vector<std::int32_t> integers_;
  std::vector<std::int64_t> exact_;
};

template <Sample T>
class MapStage final : public Stage<T> {
 public:
  MapStage(std::string name, std::function<void(std::span<T>)> f) : name_(std::move(name)), f_(std::move(f)) {}
  std::string name() const override { return name_; }
  bool in_place() const override { return true; }
  void process_in_place(std::span<T> x) override { f_(x); }
  void reset() override {}

 private:
  std::string name_;
  std::function<void(std::span<T>)> f_;
};

}  // namespace

template <Sample T>
std::unique_ptr<Stage<T>> fir(std::span<const double> h) {
  return std::make_unique<FirStage<T>>(h);
}

template <Sample T>
std::unique_ptr<Stage<T>> iir(const iir::Sos& sos) {
  return std::make_unique<IirStage<T>>(sos);
}

template <Sample T>
std::unique_ptr<Stage<T>> upfirdn(std::span<const double> h, std::size_t up, std::size_t down) {
  return std::make_unique<UpFirDnStage<T>>(h, up, down);
}

template <Sample T>
std::unique_ptr<Stage<T>> shift(double frequency, double fs) {
  if constexpr (ripple::detail::is_complex_v<T>) {
    return std::make_unique<ShiftStage<T>>(frequency, fs);
  } else {
    throw InvalidArgument("pipeline shift: a frequency shift needs complex samples; the stream is real");
  }
}

template <Sample T>
std::unique_ptr<Stage<T>> cic_decimator(const multirate::CicSpec& spec) {
  if (spec.input_bits > 32) {
    throw InvalidArgument("CIC decimator: input_bits must be at most 32, got " + std::to_string(spec.input_bits));
  }
  return std::make_unique<CicStage<T>>(spec);
}

template <Sample T>
std::unique_ptr<Stage<T>> map(std::string name, std::function<void(std::span<T>)> f) {
  if (!f) throw InvalidArgument("pipeline map '" + name + "': the function is empty");
  return std::make_unique<MapStage<T>>(std::move(name), std::move(f));
}

#define RIPPLE_PIPELINE_STAGES(T)                                                                  \
  template std::unique_ptr<Stage<T>> fir<T>(std::span<const double>);                              \
  template std::unique_ptr<Stage<T>> iir<T>(const iir::Sos&);                                      \
  template std::unique_ptr<Stage<T>> upfirdn<T>(std::span<const double>, std::size_t, std::size_t); \
  template std::unique_ptr<Stage<T>> shift<T>(double, double);                                     \
  template std::unique_ptr<Stage<T>> cic_decimator<T>(const multirate::CicSpec&);                  \
  template std::unique_ptr<Stage<T>> map<T>(std::string, std::function<void(std::span<T>)>);
RIPPLE_PIPELINE_STAGES(float)
RIPPLE_PIPELINE_STAGES(double)
RIPPLE_PIPELINE_STAGES(std::complex<float>)
RIPPLE_PIPELINE_STAGES(std::complex<double>)
#undef RIPPLE_PIPELINE_STAGES

}  // namespace ripple::pipeline
