// Streaming pipelines: a cascade of stages (mixer, FIR, IIR, CIC, polyphase resampler, or your
// own) that a stream is pushed through block by block. Every stage keeps its state between
// blocks, so pushing a signal in pieces of any sizes gives the output of pushing it at once.
// Samples travel through two halves of one buffer sized once for the block: a stage that keeps
// the rate works in place, a stage that changes it writes into the other half. In the steady
// state a block costs no allocation (the "minimal buffer" cascade of
// ../shared/seeds/001: stages share one small buffer instead of one each).
//
//   using C = std::complex<float>;
//   ripple::pipeline::Pipeline<C> p(/*block=*/8192);
//   p.add(ripple::pipeline::cic_decimator<C>({.stages = 5, .ratio = 8}));
//   p.add(ripple::pipeline::fir<C>(ripple::multirate::cic_compensator({.stages = 5, .ratio = 8}, 31, 0.4)));
//   p.add(ripple::pipeline::shift<C>(-25e3, 300e3));
//   p.push(iq, [&](std::span<const C> y) { sink(y); });
//   p.finish([&](std::span<const C> y) { sink(y); });   // tails of stages that delay
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ripple/fir.hpp"
#include "ripple/iir/sos.hpp"
#include "ripple/multirate.hpp"
#include "ripple/sample.hpp"

namespace ripple::pipeline {

/// Output samples per input sample: up / down.
struct Rate {
  std::size_t up = 1;
  std::size_t down = 1;
};

/// One stage of a pipeline over samples of type T. A stage either keeps the rate and works in
/// place (in_place() true: process_in_place), or writes its outputs for a block into a vector
/// (process), at most max_output(n) of them for n inputs.
template <Sample T>
class Stage {
 public:
  virtual ~Stage() = default;
  /// A short description, e.g. "fir 79 taps" (used in statistics and messages).
  virtual std::string name() const = 0;
  virtual Rate rate() const { return {}; }
  virtual bool in_place() const { return false; }
  /// Upper bound on the outputs of one process() call with n inputs.
  virtual std::size_t max_output(std::size_t n) const { return n; }
  /// y = the stage applied to x, x.size() values (in_place() stages).
  virtual void process_in_place(std::span<T> x);
  /// Appends every output the inputs so far complete (rate-changing stages). `out` is cleared
  /// by the caller and has capacity for max_output(x.size()).
  virtual void process(std::span<const T> x, std::vector<T>& out);
  /// End of the stream: appends the outputs the stage still holds (a resampler's tail).
  virtual void flush(std::vector<T>& /*out*/) {}
  /// Back to the state of a new stream.
  virtual void reset() = 0;
};

/// Samples in and out and time spent, per stage, since construction or reset().
struct StageStats {
  std::string name;
  std::size_t samples_in = 0;
  std::size_t samples_out = 0;
  double seconds = 0;
};

template <Sample T>
class Pipeline {
 public:
  using Sink = std::function<void(std::span<const T>)>;

  /// `block`: the most input samples processed at once (the buffer is sized for it). Throws
  /// InvalidArgument for block == 0.
  explicit Pipeline(std::size_t block = 8192);
  Pipeline(Pipeline&&) noexcept;
  Pipeline& operator=(Pipeline&&) noexcept;
  ~Pipeline();

  /// Appends a stage (its state is taken as it is). Throws InvalidArgument for a null stage.
  Pipeline& add(std::unique_ptr<Stage<T>> stage);
  std::size_t size() const noexcept;
  std::size_t block() const noexcept;
  /// Output rate over input rate of the whole cascade, as a reduced fraction.
  Rate rate() const;

  /// Pushes x through every stage in blocks of at most block() samples; sink receives each
  /// block's output (possibly empty blocks are not delivered). x may be any length.
  void push(std::span<const T> x, const Sink& sink);
  /// Ends the stream: flushes each stage in order, pushing its tail through the stages after
  /// it, then resets every stage for a new stream.
  void finish(const Sink& sink);
  /// Back to the state of a new stream (statistics too).
  void reset();
  std::vector<StageStats> stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Stages made from ripple's streaming building blocks. T: float, double, std::complex<float>,
// std::complex<double> unless said otherwise.

/// FIR filter h (fir::Filter: direct or FFT overlap-save by cost), in place, no latency beyond
/// the filter's own group delay. Throws InvalidArgument for an empty h.
template <Sample T>
std::unique_ptr<Stage<T>> fir(std::span<const double> h);
/// IIR filter given as second-order sections (iir::Filter), in place.
template <Sample T>
std::unique_ptr<Stage<T>> iir(const iir::Sos& sos);
/// Polyphase upsample by up, FIR h, downsample by down (fir::UpFirDn, streaming upfirdn);
/// flush() emits the tail upfirdn pads with zeros.
template <Sample T>
std::unique_ptr<Stage<T>> upfirdn(std::span<const double> h, std::size_t up, std::size_t down);
/// Frequency shift by `frequency` Hz at sample rate fs (multirate::Nco), in place. Complex T
/// only.
template <Sample T>
std::unique_ptr<Stage<T>> shift(double frequency, double fs);
/// How the CIC decimator stage maps samples to the integers its exact arithmetic runs on.
struct CicOptions {
  /// Samples are multiplied by `scale` before the CIC and its outputs divided by it: raw 16-bit
  /// data read as float (k / 32768) is exact with 32768, or any power of two from 2^15 up to
  /// 2^(input_bits - 1).
  double scale = 1;
  /// Round scaled samples to the nearest integer (the CIC is then exact on the rounded
  /// samples) instead of refusing samples that are not integers. The range is checked either way.
  bool round = false;
};

/// CIC decimator at unit DC gain. Exact integer arithmetic: samples times options.scale must
/// be integers in [-2^(input_bits - 1), 2^(input_bits - 1)) (as raw cs16/cu8 data converted to
/// float are, with scale 1 on the integer values or 32768 on cs16 read as float in [-1, 1));
/// a sample that is not (or, with options.round, one out of range) throws InvalidArgument
/// naming it. Complex T runs I and Q as two channels. Vectorized check and conversion: several
/// hundred million samples per second on one core. Throws InvalidArgument for input_bits > 32
/// or a scale that is not positive and finite.
template <Sample T>
std::unique_ptr<Stage<T>> cic_decimator(const multirate::CicSpec& spec, const CicOptions& options = {});
/// Streaming resample_poly (fir::ResamplePoly): scipy's filter and alignment, so the outputs
/// plus finish()'s tail are the one-shot resample_poly of the whole stream, ceil(n up / down)
/// samples. Rate up / down (reduced).
template <Sample T>
std::unique_ptr<Stage<T>> resample(std::size_t up, std::size_t down, const fir::ResampleOptions& options = {});
/// The stage with its tail dropped: at the end of the stream the outputs it still holds (an
/// upfirdn's zero-padded tail) are discarded, so a decimator by R gives n / R outputs, as
/// csdr's do. Throws InvalidArgument for a null stage.
template <Sample T>
std::unique_ptr<Stage<T>> without_tail(std::unique_ptr<Stage<T>> stage);
/// Applies f to each block in place (gain, clipping, a measurement tap ...).
template <Sample T>
std::unique_ptr<Stage<T>> map(std::string name, std::function<void(std::span<T>)> f);

}  // namespace ripple::pipeline
