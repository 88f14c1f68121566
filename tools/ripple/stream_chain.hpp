// The streaming commands' common machinery: a chain reads a sample stream block by block,
// pushes it through the steps of every command (decimate, filter, shift, ...) built as stages
// of ripple::pipeline::Pipeline (one per channel; real and complex parts of a chain are
// separate pipelines joined by a conversion), and hands the result to one sink (a file writer,
// psd, spectrogram, tones). Memory is bounded by the block size whatever the file size.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ripple/io/samples.hpp"
#include "ripple/pipeline.hpp"

namespace ripple::cli {

using Complex = std::complex<float>;

/// One processing command of a chain.
class Step {
 public:
  virtual ~Step() = default;
  /// Checks the parameters against the stream coming in (rate known, cutoff below Nyquist...)
  /// and returns the stream going out. Throws UsageError or InvalidArgument.
  virtual io::StreamInfo plan(const io::StreamInfo& in) = 0;
  /// Adds this step's stages for one channel (called once per channel, after plan()).
  virtual void add_to(pipeline::Pipeline<float>& p) = 0;
  virtual void add_to(pipeline::Pipeline<Complex>& p) = 0;
  /// The step needs complex input (a real stream is made complex before it).
  virtual bool needs_complex() const { return false; }
  /// The step turns a complex stream into a real one (its real part) after its stages.
  virtual bool makes_real() const { return false; }
};

/// Implements both add_to overrides with the derived class's `template <class T> void add(P<T>&)`.
template <class Derived>
class StepOf : public Step {
 public:
  void add_to(pipeline::Pipeline<float>& p) override { static_cast<Derived*>(this)->add(p); }
  void add_to(pipeline::Pipeline<Complex>& p) override { static_cast<Derived*>(this)->add(p); }
};

/// Where a chain's output goes.
class Sink {
 public:
  virtual ~Sink() = default;
  /// Called once with the stream that will arrive. Throws for a stream it cannot take.
  virtual void start(const io::StreamInfo& info) = 0;
  /// Interleaved frames (info.values_per_frame() floats each).
  virtual void consume(std::span<const float> values) = 0;
  /// End of the stream: write the file, print the result.
  virtual void finish() = 0;
};

struct StageReport {
  std::string name;
  std::uint64_t samples_in = 0;
  std::uint64_t samples_out = 0;
  double seconds = 0;
};

struct RunReport {
  io::StreamInfo input;
  io::StreamInfo output;
  std::uint64_t frames_in = 0;
  double read_seconds = 0;
  double sink_seconds = 0;
  double total_seconds = 0;
  std::vector<StageReport> stages;  ///< summed over channels
};

struct RunOptions {
  std::size_t block = 65536;  ///< frames read at once
  bool progress = true;       ///< a progress bar when stderr is a terminal
};

/// Plans every step against the reader's stream, builds the pipelines, starts the sink and runs
/// the whole stream through. Throws what the steps, the reader or the sink throw.
RunReport run_chain(io::SampleReader& reader, std::vector<std::unique_ptr<Step>>& steps, Sink& sink,
                    const RunOptions& options);

/// "stage: 12.3 MS/s in, 0.8 ms" lines for --verbose and the demo.
std::string format_report(const RunReport& report);

}  // namespace ripple::cli
