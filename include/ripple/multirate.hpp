// Multirate building blocks: CIC (Hogenauer) decimators and interpolators in exact integer
// arithmetic, and the FIR that compensates a CIC's passband droop.
//
//   // 5 stages, decimate by 8, cs16 IQ input (2 interleaved channels)
//   ripple::multirate::CicSpec spec{.stages = 5, .ratio = 8, .delay = 1, .input_bits = 16};
//   ripple::multirate::CicDecimator<std::int16_t> cic(spec, /*channels=*/2);
//   std::vector<std::int64_t> out;                 // exact outputs, gain (R M)^N
//   cic.process(iq_block, out);
//   auto comp = ripple::multirate::cic_compensator(spec, 31, 0.4);   // FIR at the output rate
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ripple/windows.hpp"

namespace ripple::multirate {

/// A CIC filter: `stages` integrator and comb pairs (N), rate change `ratio` (R), differential
/// delay `delay` (M, 1 or 2 usually), and the width of its signed integer input in bits.
struct CicSpec {
  unsigned stages = 4;
  unsigned ratio = 8;
  unsigned delay = 1;
  unsigned input_bits = 16;
};

/// Hogenauer's register width: input_bits + ceil(N log2(R M)). With two's-complement registers
/// this wide, wrap-around in the integrators cancels in the combs and the output is exact.
/// Throws InvalidArgument for a zero field, input_bits > 32, or a width above 64 bits.
unsigned cic_register_bits(const CicSpec& spec);
/// The DC gain (R M)^N, as a double (exact below 2^53).
double cic_gain(const CicSpec& spec);
/// |H(f)| of the CIC normalized to unit DC gain, f in cycles per *input* sample (0..0.5):
/// |sin(pi R M f) / (R M sin(pi f))|^N.
double cic_response(const CicSpec& spec, double f);

/// Decimating CIC: integrators at the input rate, every R-th sample into the combs. Streaming:
/// integrator and comb states and the decimation phase are kept between calls, so blocks of
/// any sizes give the one-shot output. In: int16_t or int32_t samples, `channels` interleaved
/// (IQ data is 2 channels). Outputs are exact integers (the input times the gain (R M)^N, in
/// the register width), interleaved the same way.
template <class In>
class CicDecimator {
 public:
  /// Throws InvalidArgument as cic_register_bits, for channels == 0, or input_bits wider than In.
  explicit CicDecimator(const CicSpec& spec, std::size_t channels = 1);
  /// Appends every output the block completes; x.size() must be a multiple of channels().
  /// Returns the number of values appended.
  std::size_t process(std::span<const In> x, std::vector<std::int64_t>& out);
  /// The same outputs divided by the gain, as float (full scale of In maps to +-1 times full
  /// scale / 2^(input_bits - 1)).
  std::size_t process(std::span<const In> x, std::vector<float>& out);
  void reset();
  const CicSpec& spec() const noexcept { return spec_; }
  std::size_t channels() const noexcept { return channels_; }
  unsigned register_bits() const noexcept { return bits_; }

 private:
  // Runs the filter with registers of type W (uint32_t or uint64_t, the narrowest holding
  // register_bits()) over `frames` frames, appending every output.
  template <class W>
  void decimate(const In* x, std::size_t frames, std::vector<std::int64_t>& out);
  template <class W>
  W* work();

  CicSpec spec_;
  std::size_t channels_;
  unsigned bits_;
  std::size_t segment_frames_ = 0;          // most frames per segment of one SIMD pass
  std::vector<std::uint64_t> integrators_;  // integrator k of channel c at [k * channels + c]
  std::vector<std::uint64_t> history_;      // the last N M decimated integrator outputs, interleaved
  std::vector<std::uint64_t> binomials_;    // C(n + d - 1, d) mod 2^64 at [n * N + d], n <= segment_frames_
  std::vector<std::uint32_t> work32_;       // per-call scratch for 32-bit registers
  std::vector<std::uint64_t> work64_;       // or 64-bit ones
  std::vector<std::int64_t> chunk_out_;     // one chunk's outputs
  unsigned phase_ = 0;                      // input samples since the last output
  std::vector<std::int64_t> scratch_;
};

/// Interpolating CIC: combs at the input rate, R - 1 zeros inserted, integrators at the output
/// rate. Streaming as the decimator; outputs exact (gain (R M)^N / R).
template <class In>
class CicInterpolator {
 public:
  explicit CicInterpolator(const CicSpec& spec, std::size_t channels = 1);
  std::size_t process(std::span<const In> x, std::vector<std::int64_t>& out);
  void reset();
  unsigned register_bits() const noexcept { return bits_; }

 private:
  CicSpec spec_;
  std::size_t channels_;
  unsigned bits_;
  std::vector<std::uint64_t> integrators_;
  std::vector<std::uint64_t> combs_;
  std::size_t comb_pos_ = 0;
};

/// A linear-phase FIR of numtaps taps, run at the CIC's *output* rate, whose response is
/// 1 / |H_cic| up to `cutoff` (normalized to the output Nyquist, 0 < cutoff < 1) and 0 above,
/// designed by frequency sampling on a dense grid and windowed (firwin2's method); scaled to
/// unit gain at DC. Throws InvalidArgument for numtaps < 3 or even, cutoff outside (0, 1).
std::vector<double> cic_compensator(const CicSpec& spec, std::size_t numtaps, double cutoff,
                                    const windows::Window& window = {windows::Kind::kaiser, 8.0});

/// Numerically controlled oscillator / mixer: multiplies a signal by e^{i (2 pi f t / fs +
/// phase)}, shifting its spectrum by f (negative f shifts down). The phase is a 64-bit
/// fixed-point accumulator, so it never drifts; sin/cos are evaluated exactly every 64 samples
/// of the stream and a double-precision phasor rotation fills in between (error ~1e-14).
/// State is kept between calls, and chunked calls give bit-identical results to one call.
class Nco {
 public:
  /// Throws InvalidArgument for fs <= 0, |frequency| > fs / 2, or a non-finite phase (radians).
  Nco(double frequency, double fs, double phase = 0.0);
  /// y = x times the oscillator (complex or real x; y.size() must equal x.size()).
  template <class T>
  void mix(std::span<const std::complex<T>> x, std::span<std::complex<T>> y);
  template <class T>
  void mix(std::span<const T> x, std::span<std::complex<T>> y);

 private:
  std::uint64_t step_ = 0, phase_ = 0;
  std::uint64_t position_ = 0;       // samples so far (where the phasor is recomputed exactly)
  std::complex<double> rotation_{};  // the phasor of the next sample, between exact points
};

}  // namespace ripple::multirate
