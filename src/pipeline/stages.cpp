// Pipeline stages made from ripple's streaming building blocks. Each adapter only translates
// between the Stage interface and the block's own streaming API; the state lives in the block.
#include <cmath>
#include <cstdio>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

#include "cpu/cic_kernels.hpp"
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
  std::size_t max_output(std::size_t n) const override { return resampler_.max_output(n); }
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
  std::string name() const override {
    char text[48];
    std::snprintf(text, sizeof text, "shift %+.10g Hz", frequency_);  // "shift -300000 Hz", not "-300000.000000"
    return text;
  }
  bool in_place() const override { return true; }
  void process_in_place(std::span<T> x) override { nco_.mix(std::span<const T>(x), x); }
  void reset() override { nco_ = multirate::Nco(frequency_, fs_); }

 private:
  double frequency_, fs_;
  multirate::Nco nco_;
};

// The CIC on float samples: one vectorizable pass scales, checks and converts a block to
// int32 (no branch per sample; the first bad sample is looked for only when there is one), the
// exact integer CIC runs, and one pass scales its outputs back.
template <Sample T>
class CicStage final : public Stage<T> {
  using Real = typename ripple::detail::real_of<T>::type;
  static constexpr std::size_t kParts = ripple::detail::is_complex_v<T> ? 2 : 1;

 public:
  CicStage(const multirate::CicSpec& spec, const CicOptions& options)
      : cic_(spec, kParts), spec_(spec), options_(options),
        divisor_(multirate::cic_gain(spec) * options.scale), limit_(std::ldexp(1.0, int(spec.input_bits) - 1)) {
    int exponent = 0;
    narrow_ = std::is_same_v<Real, float> && spec.input_bits <= 22 && std::frexp(options.scale, &exponent) == 0.5;
  }
  std::string name() const override {
    return "cic " + std::to_string(spec_.stages) + " stages, decimate " + std::to_string(spec_.ratio);
  }
  Rate rate() const override { return {1, spec_.ratio}; }
  std::size_t max_output(std::size_t n) const override { return n / spec_.ratio + 1; }
  void process(std::span<const T> x, std::vector<T>& out) override {
    const Real* v = reinterpret_cast<const Real*>(x.data());
    const std::size_t count = x.size() * kParts;
    integers_.resize(count);
    bool good = false;
    if constexpr (std::is_same_v<Real, float>) {
      good = narrow_ ? cpu::cic_sample_kernels().float_to_int32(v, count, float(options_.scale), float(-limit_),
                                                                float(limit_), !options_.round, integers_.data())
                     : to_integers<double>(v, count);
    } else {
      good = to_integers<double>(v, count);
    }
    if (!good) refuse(v, count);
    exact_.clear();
    cic_.process(std::span<const std::int32_t>(integers_), exact_);
    const std::size_t base = out.size();
    out.resize(base + exact_.size() / kParts);
    Real* y = reinterpret_cast<Real*>(out.data() + base);
    if constexpr (std::is_same_v<Real, float>) {
      cpu::cic_sample_kernels().int64_to_f32(exact_.data(), exact_.size(), divisor_, y);
    } else {
      cpu::cic_sample_kernels().int64_to_f64(exact_.data(), exact_.size(), divisor_, y);
    }
  }
  void reset() override { cic_.reset(); }

 private:
  // integers_ = v * scale, checked (range, and integrality unless rounding) in one branch-free
  // pass in precision W: float (the SIMD kernel cpu::CicSampleKernels::float_to_int32) when
  // that is exact — float samples, a power-of-two scale and at most 22-bit integers — else
  // double (here). Returns false if any is bad.
  template <class W>
  bool to_integers(const Real* v, std::size_t count) {
    std::int32_t* ints = integers_.data();
    // 1.5 * 2^(mantissa bits): adding and subtracting it rounds to an integer (|s| < 2^(bits - 1)).
    constexpr W kRound = std::is_same_v<W, float> ? W(12582912.0) : W(6755399441055744.0);
    const W scale = W(options_.scale), lo = W(-limit_), hi = W(limit_);
    const bool exact = !options_.round;
    unsigned bad = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const W s = W(v[i]) * scale;
      const W r = (s + kRound) - kRound;
      const bool ok = s >= lo && s < hi && (!exact || r == s);  // false for NaN
      bad |= unsigned(!ok);
      ints[i] = static_cast<std::int32_t>(ok ? r : W(0));
    }
    return bad == 0;
  }

  [[noreturn]] void refuse(const Real* v, std::size_t count) const {
    for (std::size_t i = 0; i < count; ++i) {
      const double s = double(v[i]) * options_.scale;
      if (!(s >= -limit_ && s < limit_)) {
        throw InvalidArgument("CIC decimator: sample " + std::to_string(double(v[i])) + " is outside the input range [" +
                              std::to_string(-limit_ / options_.scale) + ", " + std::to_string(limit_ / options_.scale) +
                              ") of " + std::to_string(spec_.input_bits) + "-bit integers" +
                              (options_.scale != 1 ? " scaled by 1/" + std::to_string(options_.scale) : std::string()));
      }
      if (!options_.round && s != std::nearbyint(s)) {
        throw InvalidArgument("CIC decimator: sample " + std::to_string(double(v[i])) + " is not an integer of " +
                              std::to_string(spec_.input_bits) + " bits" +
                              (options_.scale != 1 ? " after scaling by " + std::to_string(options_.scale) : std::string()) +
                              " (the CIC is exact on integer samples)");
      }
    }
    throw InvalidArgument("CIC decimator: a sample is out of range");  // not reached
  }

  multirate::CicDecimator<std::int32_t> cic_;
  multirate::CicSpec spec_;
  CicOptions options_;
  double divisor_, limit_;
  bool narrow_ = false;  // convert in float (see to_integers)
  std::vector<std::int32_t> integers_;
  std::vector<std::int64_t> exact_;
};

template <Sample T>
class ResampleStage final : public Stage<T> {
 public:
  ResampleStage(std::size_t up, std::size_t down, const fir::ResampleOptions& options) : resampler_(up, down, options) {}
  std::string name() const override {
    return "resample_poly " + std::to_string(resampler_.up()) + "/" + std::to_string(resampler_.down()) + ", " +
           std::to_string(resampler_.taps()) + " taps";
  }
  Rate rate() const override { return {resampler_.up(), resampler_.down()}; }
  std::size_t max_output(std::size_t n) const override { return resampler_.max_output(n); }
  void process(std::span<const T> x, std::vector<T>& out) override { resampler_.process(x, out); }
  void flush(std::vector<T>& out) override { resampler_.flush(out); }
  void reset() override { resampler_.reset(); }

 private:
  fir::ResamplePoly<T> resampler_;
};

template <Sample T>
class WithoutTailStage final : public Stage<T> {
 public:
  explicit WithoutTailStage(std::unique_ptr<Stage<T>> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  Rate rate() const override { return inner_->rate(); }
  bool in_place() const override { return inner_->in_place(); }
  std::size_t max_output(std::size_t n) const override { return inner_->max_output(n); }
  void process_in_place(std::span<T> x) override { inner_->process_in_place(x); }
  void process(std::span<const T> x, std::vector<T>& out) override { inner_->process(x, out); }
  void flush(std::vector<T>& /*out*/) override {
    tail_.clear();
    inner_->flush(tail_);
  }
  void reset() override { inner_->reset(); }

 private:
  std::unique_ptr<Stage<T>> inner_;
  std::vector<T> tail_;
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
std::unique_ptr<Stage<T>> cic_decimator(const multirate::CicSpec& spec, const CicOptions& options) {
  if (spec.input_bits > 32) {
    throw InvalidArgument("CIC decimator: input_bits must be at most 32, got " + std::to_string(spec.input_bits));
  }
  if (!(options.scale > 0 && std::isfinite(options.scale))) {
    throw InvalidArgument("CIC decimator: scale must be positive and finite, got " + std::to_string(options.scale));
  }
  return std::make_unique<CicStage<T>>(spec, options);
}

template <Sample T>
std::unique_ptr<Stage<T>> resample(std::size_t up, std::size_t down, const fir::ResampleOptions& options) {
  return std::make_unique<ResampleStage<T>>(up, down, options);
}

template <Sample T>
std::unique_ptr<Stage<T>> without_tail(std::unique_ptr<Stage<T>> stage) {
  if (!stage) throw InvalidArgument("pipeline without_tail: the stage is null");
  return std::make_unique<WithoutTailStage<T>>(std::move(stage));
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
  template std::unique_ptr<Stage<T>> cic_decimator<T>(const multirate::CicSpec&, const CicOptions&); \
  template std::unique_ptr<Stage<T>> resample<T>(std::size_t, std::size_t, const fir::ResampleOptions&); \
  template std::unique_ptr<Stage<T>> without_tail<T>(std::unique_ptr<Stage<T>>);                  \
  template std::unique_ptr<Stage<T>> map<T>(std::string, std::function<void(std::span<T>)>);
RIPPLE_PIPELINE_STAGES(float)
RIPPLE_PIPELINE_STAGES(double)
RIPPLE_PIPELINE_STAGES(std::complex<float>)
RIPPLE_PIPELINE_STAGES(std::complex<double>)
#undef RIPPLE_PIPELINE_STAGES

}  // namespace ripple::pipeline
